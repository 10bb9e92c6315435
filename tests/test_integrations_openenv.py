"""OpenEnv server and client (extra `openenv`): in-process through the framework's test client, and over a local
socket through `apb serve openenv` and ApbEnvClient."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

pytest.importorskip("openenv.core")

from fastapi.testclient import TestClient

from apb.agents.act import english_action
from apb.integrations.game import GameSession
from apb.integrations.openenv import ApbAction, ApbEnvClient, create_app


def gold_english(problem: int) -> list[str]:
    session = GameSession("blocksworld")
    session.reset(problem=problem)
    return [english_action(a, session.info) for a in session.info["gold_plan"]]


def test_in_process_http_routes_and_a_websocket_episode_to_the_goal():
    client = TestClient(create_app("blocksworld", problem=1))
    assert client.get("/health").json()["status"] == "healthy"
    reset = client.post("/reset", json={"problem": 2}).json()
    assert reset["observation"]["problem_id"] == "p02" and "My goal is" in reset["observation"]["text"]
    assert reset["done"] is False
    # HTTP /step is stateless in OpenEnv: a fresh env, on the server's problem (p01)'s initial state
    step = client.post("/step", json={"action": {"text": "stack block_a on top of block_b"}}).json()
    assert step["observation"]["valid"] is False and step["reward"] == 0.0
    assert step["observation"]["text"] == "I cannot stack block_a on top of block_b because I am not holding block_a."
    assert client.get("/state").json()["step_count"] == 0
    plan = gold_english(1)
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "reset", "data": {"problem": 1}})
        assert ws.receive_json()["data"]["observation"]["problem_id"] == "p01"
        for number, text in enumerate(plan, 1):
            ws.send_json({"type": "step", "data": {"text": text}})
            data = ws.receive_json()["data"]
            assert data["observation"]["valid"] and data["done"] == (number == len(plan))
        assert data["reward"] == 1.0 and data["observation"]["goal_reached"]
        ws.send_json({"type": "state"})
        state = ws.receive_json()["data"]
        assert state["step_count"] == len(plan) and state["problem_id"] == "p01" and state["goal_reached"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_log(server: subprocess.Popen) -> str:
    if getattr(server, "log", None) is not None:
        server.log.seek(0)
        return server.log.read()
    return server.stderr.read()


def wait_healthy(url: str, server: subprocess.Popen) -> None:
    for _ in range(600):  # until the server answers (or has exited)
        assert server.poll() is None, server_log(server)
        try:
            with urllib.request.urlopen(f"{url}/health") as answer:
                if json.load(answer)["status"] == "healthy":
                    return
        except OSError:
            time.sleep(0.1)
    raise AssertionError("the server never became healthy")


def test_apb_serve_openenv_over_a_local_socket_plays_to_the_goal_and_explains_a_failure():
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "apb", "serve", "openenv", "--domain", "blocksworld",
                               "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, server)
        with ApbEnvClient(base_url=url).sync() as env:
            result = env.reset(problem=1)
            assert result.observation.problem_id == "p01" and "stack a block A" in result.observation.instructions
            wrong = env.step(ApbAction(text="pick up block_a"))
            assert not wrong.observation.valid and wrong.reward == 0.0 and not wrong.done
            assert wrong.observation.text == ("I cannot pick up block_a because block_a is not clear and block_a is "
                                              "not on the table.")
            for text in gold_english(1):
                result = env.step(ApbAction(text=text))
            assert result.done and result.reward == 1.0 and result.observation.goal_reached
            state = env.state()
            assert state.step_count == 11 and state.invalid_actions == 1 and state.optimal_length == 10
    finally:
        server.terminate()
        server.wait()


def test_a_bad_domain_is_refused_before_serving():
    done = subprocess.run([sys.executable, "-m", "apb", "serve", "openenv", "--domain", "no-such-domain"],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "no-such-domain" in done.stderr


# ---- a server that holds (issue 30) -------------------------------------------------------------------------------
SERVER_PATHS = (str(ROOT := __import__("pathlib").Path(__file__).resolve().parents[1]), sys.prefix, "/tmp/", "/home/")


def no_server_path(text: str) -> None:
    for path in SERVER_PATHS:
        assert path not in text, text


def test_an_empty_reset_plays_the_default_problem_every_time_and_random_only_when_asked():
    client = TestClient(create_app("blocksworld"))
    assert [client.post("/reset", json={}).json()["observation"]["problem_id"] for _ in range(5)] == ["p01"] * 5
    assert TestClient(create_app("blocksworld", problem=3)).post("/reset").json()["observation"]["problem_id"] == "p03"
    seeded = [client.post("/reset", json={"problem": "random", "seed": s}).json()["observation"]["problem_id"]
              for s in (1, 1, 2, 3, 4, 5)]
    assert seeded[0] == seeded[1] and len(set(seeded)) > 1  # a seeded choice, when asked
    with client.websocket_connect("/ws") as ws:
        for _ in range(3):
            ws.send_json({"type": "reset", "data": {}})
            assert ws.receive_json()["data"]["observation"]["problem_id"] == "p01"


def test_unknown_problems_and_bad_fields_are_400s_with_a_message_and_no_server_path(tmp_path):
    (tmp_path / "p01.pddl").write_text("(define (problem x))", encoding="utf-8")
    client = TestClient(create_app("blocksworld"), raise_server_exceptions=False)
    for body, fragment in (({"problem": "p99"}, "unknown problem 'p99'"), ({"problem": 0}, "unknown problem 0"),
                           ({"problem": str(tmp_path / "p01.pddl")}, "bad problem"),
                           ({"problem": "../../etc/passwd"}, "bad problem"), ({"problem": {"a": 1}}, "bad problem"),
                           ({"problem": True}, "bad problem"), ({"colour": "red"}, "unknown reset field")):
        answer = client.post("/reset", json=body)
        assert answer.status_code == 400 and fragment in answer.json()["detail"], (body, answer.text)
        assert "1-20" in answer.text or "field" in answer.text or "bad problem" in answer.text
        no_server_path(answer.text)
    assert client.post("/reset", json={"seed": "x"}).status_code == 422  # OpenEnv's own field check
    assert client.post("/step", json={"action": {"words": "x"}}).status_code == 422
    with client.websocket_connect("/ws") as ws:
        for data in ({"problem": "p99"}, {"problem": str(tmp_path / "p01.pddl")}, {"seed": -1}, {"seed": "x"}):
            ws.send_json({"type": "reset", "data": data})
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["data"]["message"], reply
            no_server_path(json.dumps(reply))
        ws.send_json({"type": "reset", "data": {"problem": 2}})  # the session still works after refusals
        assert ws.receive_json()["data"]["observation"]["problem_id"] == "p02"


def test_a_dataset_folder_served_never_shows_its_path(tmp_path):
    import shutil

    folder = tmp_path / "secret-place" / "mydomain"
    shutil.copytree(ROOT / "apb" / "domains" / "ferry", folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    client = TestClient(create_app(str(folder)), raise_server_exceptions=False)
    texts = [client.post("/reset", json={}).text, client.post("/reset", json={"problem": "nope"}).text,
             client.post("/step", json={"action": {"text": "sail somewhere"}}).text, client.get("/metadata").text]
    with client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "reset", "data": {}})
        texts.append(json.dumps(ws.receive_json()))
        ws.send_json({"type": "state"})
        texts.append(json.dumps(ws.receive_json()))
    for text in texts:
        assert "secret-place" not in text and str(tmp_path) not in text, text


def start_server(*flags: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    # a file, not a pipe: a server that logs much would block once a pipe is full (closed by stop_server)
    log = tempfile.TemporaryFile("w+")  # noqa: SIM115
    server = subprocess.Popen([sys.executable, "-m", "apb", "serve", "openenv", "--domain", "blocksworld", "--port",
                               str(port), *flags], stdout=subprocess.DEVNULL, stderr=log, text=True)
    server.log = log
    url = f"http://127.0.0.1:{port}"
    wait_healthy(url, server)
    return server, url


def stop_server(server: subprocess.Popen) -> None:
    server.terminate()
    server.wait(timeout=30)
    server.log.close()


def test_a_10_mb_body_gets_413_before_it_is_read(tmp_path):
    big = tmp_path / "big.json"
    big.write_text('{"action": {"text": "' + "a" * 10_000_000 + '"}}', encoding="utf-8")
    server, url = start_server()
    try:
        for extra in ([], ["-H", "Expect:"]):  # with curl's 100-continue and with the body sent at once
            started = time.perf_counter()
            done = subprocess.run(["curl", "-s", "-o", "-", "-w", "\n%{http_code}", "-H",
                                   "content-type: application/json", "--data-binary", f"@{big}", *extra,
                                   f"{url}/step"], capture_output=True, text=True, timeout=60)
            took = time.perf_counter() - started
            body, code = done.stdout.rsplit("\n", 1)
            assert code == "413", (done.stdout[-300:], done.stderr)
            assert "at most 65536 bytes" in body
            print(f"10 MB body ({'no ' if extra else ''}100-continue): 413 in {took * 1000:.0f} ms")
        ok = subprocess.run(["curl", "-s", "-H", "content-type: application/json", "-d",
                             '{"action": {"text": "pick up block_a"}}', f"{url}/step"], capture_output=True, text=True,
                            timeout=60)
        assert json.loads(ok.stdout)["observation"]["valid"] is False  # the server goes on serving
    finally:
        stop_server(server)


def test_sessions_are_capped_with_a_clear_message_and_idle_ones_are_closed():
    from websockets.sync.client import connect

    server, url = start_server("--max-sessions", "2", "--idle-timeout", "1", "--max-body", "4096")
    ws_url = url.replace("http", "ws") + "/ws"
    try:
        with connect(ws_url) as first, connect(ws_url) as second:
            for ws in (first, second):
                ws.send(json.dumps({"type": "reset", "data": {}}))
                assert json.loads(ws.recv())["data"]["observation"]["problem_id"] == "p01"
            with connect(ws_url) as third:
                reply = json.loads(third.recv(timeout=30))
            message = reply["data"]["message"]
            assert reply["type"] == "error" and "the server is full: 2 of 2" in message
            assert "--max-sessions" in message and "idle sessions close after 1 s" in message
            with pytest.raises(RuntimeError, match="the server is full"), ApbEnvClient(base_url=url).sync() as env:
                env.reset()  # apb's client says so too (OpenEnv's shows a bare closed connection)
            time.sleep(7)  # idle past the timeout (OpenEnv's reaper looks every 5 s at most)
            first.send(json.dumps({"type": "step", "data": {"text": "pick up block_a"}}))
            assert "session was closed" in json.loads(first.recv(timeout=30))["data"]["message"]
            with connect(ws_url) as fourth:  # the places of idle sessions are free again
                fourth.send(json.dumps({"type": "reset", "data": {"problem": 2}}))
                assert json.loads(fourth.recv(timeout=30))["data"]["observation"]["problem_id"] == "p02"
                fourth.send(json.dumps({"type": "step", "data": {"text": "x" * 5000}}))  # a message over --max-body
                with pytest.raises(Exception, match=r"1009|too big"):
                    fourth.recv(timeout=30)
    finally:
        stop_server(server)


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmRSS")) / 1024


def scripted_episode(problem: int, client: int) -> tuple[list[str], list[tuple]]:
    """A client's episode on `problem`: the gold plan in English with one action that fails put in at a place that
    depends on the client; and the replies (text, valid, reward, done) an env alone answers."""
    from apb.integrations.openenv import ApbEnvironment

    plan = gold_english(problem)
    texts = [*plan[: client % len(plan)], "stack block_a on top of block_a", *plan[client % len(plan):]]
    env = ApbEnvironment("blocksworld")
    env.reset(problem=problem)
    expected = []
    for text in texts:
        reply = env.step(ApbAction(text=text))
        expected.append((reply.text, reply.valid, reply.reward, reply.done))
    env.close()
    return texts, expected


def test_load_32_clients_lose_nothing_stay_independent_and_memory_stays_flat():
    import threading

    clients, warm_steps, steps = 32, 50, 450
    scripts = {i: scripted_episode(i % 20 + 1, i) for i in range(clients)}
    server, url = start_server("--max-sessions", str(clients))

    def play(i: int, count: int, results: dict) -> None:
        texts, expected = scripts[i]
        sent = matched = 0
        with ApbEnvClient(base_url=url).sync() as env:
            while sent < count:
                assert env.reset(problem=i % 20 + 1).observation.problem_id == f"p{i % 20 + 1:02d}"
                for text, want in zip(texts, expected, strict=True):
                    result = env.step(ApbAction(text=text))
                    sent += 1
                    got = (result.observation.text, result.observation.valid, result.reward, result.done)
                    matched += got == want
                    if sent == count:
                        break
                assert env.state().step_count == len(texts) or sent == count
        results[i] = (sent, matched)

    def round_of(count: int) -> dict:
        results: dict = {}
        threads = [threading.Thread(target=play, args=(i, count, results)) for i in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return results

    try:
        round_of(warm_steps)  # sessions, caches and pools reach their working size
        warm = rss_mb(server.pid)
        started = time.perf_counter()
        results = round_of(steps)
        took = time.perf_counter() - started
        after = rss_mb(server.pid)
    finally:
        stop_server(server)
    assert sorted(results) == list(range(clients))  # every client finished
    assert all(sent == steps for sent, _ in results.values())  # nothing lost
    assert all(matched == steps for _, matched in results.values())  # every reply is its own episode's
    print(f"{clients} clients x {steps} steps: {clients * steps / took:.0f} steps/s; server RSS {warm:.0f} MB after "
          f"warm-up, {after:.0f} MB after")
    assert after - warm < 0.1 * warm, (warm, after)  # flat: no growth with the number of steps served


def test_a_port_that_cannot_be_served_is_refused_before_serving():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for flags, fragment in ((["--port", str(port)], "Address already in use"),
                                (["--port", "99999"], "ports are 1-65535"),
                                (["--host", "no-such-host.invalid"], "cannot listen on no-such-host.invalid")):
            done = subprocess.run([sys.executable, "-m", "apb", "serve", "openenv", *flags], capture_output=True,
                                  text=True, timeout=120)
            assert done.returncode == 2 and fragment in done.stderr and "Traceback" not in done.stderr, done.stderr


def test_a_constant_answer_earns_no_reward():
    """The balancing rule (issue 41) for OpenEnv: it serves games only (no yes/no or MCQ data), where a reply that is
    not an action never reaches the goal: a constant answer scores 0, never above chance."""
    client = TestClient(create_app("blocksworld", problem=1))
    with client.websocket_connect("/ws") as ws:
        for problem, constant in ((p, c) for p in (1, 2) for c in ("yes", "no", "A", "B", "C", "D")):
            ws.send_json({"type": "reset", "data": {"problem": problem}})
            ws.receive_json()
            for _ in range(4):
                ws.send_json({"type": "step", "data": {"text": constant}})
                data = ws.receive_json()["data"]
                assert data["reward"] == 0.0 and not data["observation"]["valid"]
