"""OpenEnv server and client (extra `openenv`): in-process through the framework's test client, and over a local
socket through `apb serve openenv` and ApbEnvClient."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
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


def wait_healthy(url: str, server: subprocess.Popen) -> None:
    for _ in range(600):  # until the server answers (or has exited)
        assert server.poll() is None, server.stderr.read()
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
