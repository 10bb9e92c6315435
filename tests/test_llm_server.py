"""apb.bench.llm_server, the local OpenAI-compatible server with scripted answers that `apb bench llm-throughput`
runs against and the integration tests point each framework at: its answer table (one-turn answers, episode turns,
texts found), its routes (chat, streamed chat, completions, models, stats), its scripted failures, and the program."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from apb.bench.llm_server import FALLBACK, AnswerTable, LLMServer, message_key


def post(url: str, body: dict) -> tuple[int, dict, dict]:
    """(status, JSON body, headers) of a POST."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read()), dict(err.headers)


def chat(server: LLMServer, text: str) -> tuple[int, dict]:
    status, body, _ = post(f"{server.url}/chat/completions",
                           {"model": "m", "messages": [{"role": "user", "content": text}]})
    return status, body


def user(text) -> dict:
    return {"role": "user", "content": text}


def assistant(text: str) -> dict:
    return {"role": "assistant", "content": text}


def test_the_table_answers_exact_then_the_episode_turn_then_the_text_found_last():
    table = AnswerTable(exact={message_key("Is it?"): "yes"}, markers={"TASK-1": ["a1", "a2"]},
                        texts={"capital of France": "Paris", "capital": "a city", "Spain": "Madrid"})
    assert table.answer([user("TASK-1 capital"), assistant("a1"), user("Is it?")]) == "yes"
    assert table.answer([user("TASK-1 capital")]) == "a1"
    assert table.answer([user("capital of France")]) == "Paris"  # the longer key ending at the same place
    assert table.answer([user("capital of France? No, of Spain")]) == "Madrid"  # the key found last
    assert table.answer([user([{"type": "text", "text": "capital of "}, {"type": "text", "text": "France"}])]) \
        == "Paris"  # OpenAI's content parts
    assert table.answer([user("nothing known")]) == FALLBACK and table.answer([]) == FALLBACK


def test_an_episode_is_played_from_its_first_task_message_on():
    table = AnswerTable(markers={"TASK-1": ["a1", "a2", "a3"], "TASK-1 extended": ["b1"]})
    example = [user("an example"), assistant("x")]
    assert table.answer([*example, user("TASK-1")]) == "a1"  # the example's turn does not count
    assert table.answer([*example, user("TASK-1"), assistant("a1"), user("ok")]) == "a2"
    # a later message restating the task does not restart the count (it did where the last match won)
    assert table.answer([user("TASK-1"), assistant("a1"), user("ok. Your task: TASK-1"), assistant("a2"),
                         user("ok")]) == "a3"
    assert table.answer([user("TASK-1 extended")]) == "b1"  # the longest marker a message holds
    assert table.answer([user("TASK-1"), assistant("a1"), assistant("a2"), assistant("a3")]) == FALLBACK
    assert table.answer([user("TASK-2")]) == FALLBACK


def test_the_table_round_trips_through_json_and_a_bad_one_says_which_part():
    table = AnswerTable(exact={"k": "v"}, markers={"T": ["a"]}, texts={"x": "y"}, fallback="f")
    assert AnswerTable.from_dict(json.loads(json.dumps(table.to_dict()))).to_dict() == table.to_dict()
    for bad, part in (({"marker": {}}, "expected an object"), ({"markers": {"T": "a"}}, '"markers"'),
                      ({"texts": ["x"]}, '"texts" must be an object'), ({"exact": {"k": 1}}, '"exact"'),
                      ([], "expected an object")):
        with pytest.raises(ValueError, match=part):
            AnswerTable.from_dict(bad)


def test_the_server_answers_every_route_and_records_the_requests():
    with LLMServer(AnswerTable(texts={"capital of France": "Paris"})) as server:
        status, body = chat(server, "What is the capital of France?")
        assert status == 200 and body["choices"][0]["message"]["content"] == "Paris"
        assert chat(server, "something else")[1]["choices"][0]["message"]["content"] == FALLBACK
        status, body, _ = post(f"{server.url}/completions", {"model": "m", "prompt": "capital of France?"})
        assert status == 200 and body["choices"][0]["text"] == "Paris"
        request = urllib.request.Request(f"{server.url}/chat/completions", data=json.dumps(
            {"model": "m", "stream": True, "messages": [user("capital of France")]}).encode())
        with urllib.request.urlopen(request, timeout=30) as response:
            events = [line[6:] for line in response.read().decode().splitlines() if line.startswith("data: ")]
        assert events[-1] == "[DONE]" and json.loads(events[0])["choices"][0]["delta"]["content"] == "Paris"
        with urllib.request.urlopen(f"{server.url}/models", timeout=30) as response:
            assert json.loads(response.read())["data"][0]["id"] == server.model
        assert post(f"{server.url}/chat/completions", {"model": "m"})[0] == 400
        assert post(f"{server.url}/embeddings", {"input": "x"})[0] == 404
        with urllib.request.urlopen(f"{server.url}/stats", timeout=30) as response:
            assert json.loads(response.read()) == {"requests": 4, "peak_in_flight": 1}
        assert [r.get("stream", False) for r in server.requests] == [False, False, False, True]


def test_the_server_fails_as_told_and_waits():
    for status, code in ((401, "invalid_api_key"), (500, "server_error")):
        with LLMServer(status=status) as server:
            got, body = chat(server, "anything")
            assert (got, body["error"]["code"]) == (status, code) and len(server.requests) == 1
    with LLMServer(status_script=[(429, {"retry-after": "7"})]) as server:
        status, body, headers = post(f"{server.url}/chat/completions", {"messages": [user("hi")]})
        assert (status, body["error"]["code"], headers["retry-after"]) == (429, "rate_limit_exceeded", "7")
        assert chat(server, "hi")[0] == 200  # the script is spent: answers from now on
    with LLMServer(latency=0.3) as server:
        start = time.perf_counter()
        assert chat(server, "anything")[0] == 200
        assert time.perf_counter() - start >= 0.3  # the latency is honoured (a lower bound, not a speed check)


def test_the_server_runs_as_a_program(tmp_path):
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps({"texts": {"2+2": "4"}}), encoding="utf-8")
    process = subprocess.Popen([sys.executable, "-m", "apb.bench.llm_server", "--answers", str(answers)],
                               stdout=subprocess.PIPE, text=True)
    try:
        url = process.stdout.readline().strip()
        status, body, _ = post(f"{url}/chat/completions", {"messages": [user("2+2?")]})
        assert status == 200 and body["choices"][0]["message"]["content"] == "4"
    finally:
        process.terminate()
        process.wait(timeout=30)
    answers.write_text(json.dumps({"2+2": "4"}), encoding="utf-8")  # not the table's shape
    done = subprocess.run([sys.executable, "-m", "apb.bench.llm_server", "--answers", str(answers)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and f"--answers {answers}: expected an object with" in done.stderr
    assert "Traceback" not in done.stderr
