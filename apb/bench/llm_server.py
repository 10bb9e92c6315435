"""A local OpenAI-compatible chat server with a set latency, for `apb bench llm-throughput` (and tests): the shape of
a vLLM or Ollama server under load, where every request takes `latency` seconds however many are in flight.

    python -m apb.bench.llm_server --latency 1.0 --answers answers.json     # prints the port, serves until killed

It answers `POST /v1/chat/completions` after `latency` seconds from an answer table (JSON):
`{"exact": {sha256 of the last user message: answer}, "markers": [[marker, [answer of turn 0, 1, ...]], ...]}`.
An exact entry answers a one-turn item (an ACP question, an NL->PDDL pair); a marker is text of an episode's task
message, and the answer is that episode's turn: the assistant messages after the message holding the marker.
Anything else gets `fallback`. `GET /stats` gives `{"requests", "peak_in_flight"}` (`/stats/reset`: and starts a
new peak). `status_script` (tests) answers the first requests with the listed HTTP statuses and headers instead,
e.g. a 429 with `retry-after`; `gather` (tests) holds the first requests until that many are in flight (at most
`GATHER_TIMEOUT` seconds), so a test sees how many requests a run sends at once without timing anything.
Bound to 127.0.0.1 only; a ThreadingHTTPServer with a listen backlog for hundreds of simultaneous connections.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

FALLBACK = "look around"
GATHER_TIMEOUT = 20.0


def message_key(text: str) -> str:
    """The key of a last user message in the answer table's `exact` part."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class AnswerTable:
    """What the server answers: exact answers by last user message, episode turns by marker, else `fallback`."""

    def __init__(self, exact: dict[str, str] | None = None, markers: list | None = None,
                 fallback: str = FALLBACK) -> None:
        self.exact = dict(exact or {})
        self.markers = [(str(m), list(turns)) for m, turns in markers or ()]
        self.fallback = fallback

    @classmethod
    def from_dict(cls, data: dict) -> AnswerTable:
        return cls(data.get("exact"), data.get("markers"), data.get("fallback", FALLBACK))

    def to_dict(self) -> dict:
        return {"exact": self.exact, "markers": self.markers, "fallback": self.fallback}

    def answer(self, messages: list[dict]) -> str:
        users = [i for i, m in enumerate(messages) if m.get("role") == "user"]
        if users:
            found = self.exact.get(message_key(str(messages[users[-1]].get("content", ""))))
            if found is not None:
                return found
        for marker, turns in self.markers:
            for index in users:
                if marker in str(messages[index].get("content", "")):
                    turn = sum(m.get("role") == "assistant" for m in messages[index + 1:])
                    return turns[turn] if turn < len(turns) else self.fallback
        return self.fallback


class LatencyServer(ThreadingHTTPServer):
    """The server: `table`, `latency` seconds per answer, counts of requests and of the peak in flight."""

    daemon_threads = True
    request_queue_size = 1024  # the default backlog (5) drops SYNs when a run opens 64 connections at once

    def __init__(self, table: AnswerTable, latency: float, port: int = 0,
                 status_script: list[tuple[int, dict[str, str]]] | None = None, gather: int = 0) -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.table = table
        self.latency = latency
        self.status_script = list(status_script or ())
        self.gather = gather
        self.lock = threading.Lock()
        self.gathered = threading.Condition(self.lock)
        self.requests = 0
        self.in_flight = 0
        self.peak_in_flight = 0
        self.arrivals: list[float] = []

    @property
    def port(self) -> int:
        return self.server_address[1]

    def start(self) -> LatencyServer:
        threading.Thread(target=self.serve_forever, name="apb-llm-server", daemon=True).start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the SDK reuses its connections
    disable_nagle_algorithm = True  # headers and body go out at once (no delayed-ACK wait on the client)
    server: LatencyServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def _send(self, status: int, body: dict, headers: dict[str, str] | None = None) -> None:
        data = json.dumps(body).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        """`/stats`: requests so far and the peak in flight; `/stats/reset` also starts a new peak."""
        server = self.server
        with server.lock:
            stats = {"requests": server.requests, "peak_in_flight": server.peak_in_flight}
            if self.path.rstrip("/").endswith("/reset"):
                server.peak_in_flight = server.in_flight
        self._send(200, stats)

    def do_POST(self) -> None:
        server = self.server
        length = int(self.headers.get("Content-Length") or 0)
        try:
            request = json.loads(self.rfile.read(length) or b"{}")
            messages = request["messages"]
        except (ValueError, KeyError, TypeError):
            self._send(400, {"error": {"message": "expected a chat completion request"}})
            return
        with server.lock:
            server.requests += 1
            server.arrivals.append(time.monotonic())
            scripted = server.status_script.pop(0) if server.status_script else None
            server.in_flight += 1
            server.peak_in_flight = max(server.peak_in_flight, server.in_flight)
            server.gathered.notify_all()
            if scripted is None and server.gather:
                server.gathered.wait_for(lambda: not server.gather or server.in_flight >= server.gather,
                                         timeout=GATHER_TIMEOUT)
                server.gather = 0  # once: the requests after the first batch are answered as they come
        try:
            if scripted is not None:
                status, headers = scripted
                self._send(status, {"error": {"message": f"scripted status {status}"}}, headers)
                return
            time.sleep(server.latency)
            text = server.table.answer(messages)
        finally:
            with server.lock:
                server.in_flight -= 1
        prompt_tokens = sum(len(str(m.get("content", ""))) for m in messages) // 4
        self._send(200, {"id": f"bench-{server.requests}", "object": "chat.completion", "created": int(time.time()),
                         "model": request.get("model", "bench"),
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant", "content": text}}],
                         "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": max(1, len(text) // 4),
                                   "total_tokens": prompt_tokens + max(1, len(text) // 4)}})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m apb.bench.llm_server", description=__doc__.split("\n")[0])
    parser.add_argument("--latency", type=float, default=1.0, help="seconds per answer (default 1.0)")
    parser.add_argument("--answers", help="the answer table (JSON); default: answer everything with the fallback")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    args = parser.parse_args(argv)
    table = AnswerTable()
    if args.answers:
        with open(args.answers, encoding="utf-8") as handle:
            table = AnswerTable.from_dict(json.load(handle))
    server = LatencyServer(table, args.latency, args.port)
    print(server.port, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
