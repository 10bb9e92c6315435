"""A local OpenAI-compatible model server with scripted answers, on 127.0.0.1: what `apb bench llm-throughput` runs
against (the shape of a vLLM or Ollama server under load, where every request takes `latency` seconds however many
are in flight), what apb's tests point each framework's own client at (inspect, lm_eval, vf-eval, apb itself), and
a way for users to try an integration offline.

    python -m apb.bench.llm_server --answers answers.json [--latency S] [--status 401|500] [--port P]
        # prints the base URL (http://127.0.0.1:PORT/v1), serves until interrupted

    with LLMServer(AnswerTable(texts={"capital of France": "Paris"})) as server:
        env = {**os.environ, **server.env()}    # OPENAI_BASE_URL, OPENAI_API_KEY (and the vLLM/Ollama ones)
        server.requests                         # every request body it received

Routes: `POST /v1/chat/completions` (also streamed, `"stream": true`), `POST /v1/completions` (the prompt is one
user message), `GET /v1/models`, `GET /v1/stats` (`{"requests", "peak_in_flight"}`; `/v1/stats/reset` also starts a
new peak). What it answers is an `AnswerTable` (the `--answers` file is its JSON). `status` answers every request
with that HTTP error instead (401: OpenAI's invalid-key error; 500: a server error); `status_script` answers only the
first requests with the listed statuses and headers (e.g. a 429 with `retry-after`); `gather` holds the first
requests until that many are in flight (at most `GATHER_TIMEOUT` seconds), so a test sees how many requests a run
sends at once without timing anything. A ThreadingHTTPServer with a listen backlog for hundreds of connections.
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

FALLBACK = "}}} I do not know"  # no action, no answer, no PDDL: an unscripted request fails where it is read
GATHER_TIMEOUT = 20.0
ERRORS = {400: ("invalid_request_error", "Expected a completion request."),
          401: ("invalid_api_key", "Incorrect API key provided: test-key."),
          404: ("not_found", "No such route."),
          429: ("rate_limit_exceeded", "Rate limit reached; retry later."),
          500: ("server_error", "The server had an error while processing your request.")}


def message_key(text: str) -> str:
    """The key of a last user message in the answer table's `exact` part."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def text_of(content: Any) -> str:
    """A message's text: a string, or the text parts of OpenAI's content list."""
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return "" if content is None else str(content)


class AnswerTable:
    """What the server answers, tried in this order:

    - `exact`: {message_key(last user message): answer}, for a one-turn item (an ACP question, an NL->PDDL pair);
    - `markers`: {text of an episode's task: [answer of turn 0, 1, ...]}, for a game. The episode's turn is the
      number of assistant messages after the FIRST user message holding a marker (the longest marker if several
      fit). The first, not the last: an episode starts at its task, and whatever comes after belongs to it, so a
      later message repeating the task (an observation equal to the initial one, a harness restating the task on
      every turn) must not restart the count; the messages before the task (the system prompt, few-shot examples)
      are other problems' and never hold its text, so they are not counted.
    - `texts`: {text: answer}, the text found in the last user message; the one found last wins (the question after
      any examples of a prompt flattened into one message, as lm-eval sends it), the longer on a tie;
    - else `fallback`.
    """

    def __init__(self, *, exact: dict[str, str] | None = None, markers: dict[str, list[str]] | None = None,
                 texts: dict[str, str] | None = None, fallback: str = FALLBACK) -> None:
        self.exact = dict(exact or {})
        self.markers = {str(m): [str(t) for t in turns] for m, turns in (markers or {}).items()}
        self.texts = dict(texts or {})
        self.fallback = fallback

    @classmethod
    def from_dict(cls, data: Any) -> AnswerTable:
        """The table from its JSON (`to_dict`); ValueError naming the part that is not of its shape."""
        if not isinstance(data, dict) or set(data) - {"exact", "markers", "texts", "fallback"}:
            raise ValueError('expected an object with "exact", "markers", "texts" and/or "fallback"')
        for part in ("exact", "texts"):
            if not all(isinstance(k, str) and isinstance(v, str) for k, v in _items(data, part)):
                raise ValueError(f'"{part}" must map texts to answer texts')
        if not all(isinstance(v, list) and all(isinstance(t, str) for t in v) for _, v in _items(data, "markers")):
            raise ValueError('"markers" must map task texts to lists of answer texts (one per turn)')
        if not isinstance(data.get("fallback", FALLBACK), str):
            raise ValueError('"fallback" must be a text')
        return cls(exact=data.get("exact"), markers=data.get("markers"), texts=data.get("texts"),
                   fallback=data.get("fallback", FALLBACK))

    def to_dict(self) -> dict:
        return {"exact": self.exact, "markers": self.markers, "texts": self.texts, "fallback": self.fallback}

    def answer(self, messages: list[dict]) -> str:
        users = [text_of(m.get("content")) for m in messages if m.get("role") == "user"]
        last = users[-1] if users else ""
        found = self.exact.get(message_key(last))
        if found is not None:
            return found
        turn = self.episode_turn(messages)
        if turn is not None:
            return turn
        hits = [(last.rfind(k) + len(k), len(k), k) for k in self.texts if k and k in last]
        return self.texts[max(hits)[2]] if hits else self.fallback

    def episode_turn(self, messages: list[dict]) -> str | None:
        """The next answer of the episode whose task a user message holds (the rule above), or None."""
        if not self.markers:
            return None
        keys = sorted(self.markers, key=len, reverse=True)
        for index, message in enumerate(messages):
            if message.get("role") != "user":
                continue
            text = text_of(message.get("content"))
            key = next((k for k in keys if k and k in text), None)
            if key is not None:
                done = sum(m.get("role") == "assistant" for m in messages[index + 1:])
                turns = self.markers[key]
                return turns[done] if done < len(turns) else self.fallback
        return None


def _items(data: dict, part: str) -> list:
    value = data.get(part) or {}
    if not isinstance(value, dict):
        raise ValueError(f'"{part}" must be an object')
    return list(value.items())


class LLMServer(ThreadingHTTPServer):
    """The server, on 127.0.0.1 (`port` 0: a free one); `start()` serves from a daemon thread, `stop()` ends it (or
    use it as a context manager). `requests` holds every completion request's body, `peak_in_flight` the most
    answered at once."""

    daemon_threads = True
    request_queue_size = 1024  # the default backlog (5) drops SYNs when a run opens 64 connections at once

    def __init__(self, table: AnswerTable | None = None, *, latency: float = 0.0, status: int = 200, port: int = 0,
                 status_script: list[tuple[int, dict[str, str]]] | None = None, gather: int = 0,
                 model: str = "apb-scripted") -> None:
        super().__init__(("127.0.0.1", port), _Handler)
        self.table = table if table is not None else AnswerTable()
        self.latency, self.status, self.model = latency, status, model
        self.status_script = list(status_script or ())
        self.gather = gather
        self.lock = threading.Lock()
        self.gathered = threading.Condition(self.lock)
        self.requests: list[dict] = []
        self.in_flight = 0
        self.peak_in_flight = 0
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self.server_address[1]

    @property
    def url(self) -> str:
        """The base URL clients take (OpenAI's `base_url`): http://127.0.0.1:PORT/v1."""
        return f"http://127.0.0.1:{self.port}/v1"

    def env(self) -> dict[str, str]:
        """Environment variables pointing the frameworks' OpenAI-compatible clients here."""
        return {"OPENAI_BASE_URL": self.url, "OPENAI_API_KEY": "test-key", "VLLM_BASE_URL": self.url,
                "VLLM_API_KEY": "test-key", "OLLAMA_BASE_URL": self.url}

    def start(self) -> LLMServer:
        self._thread = threading.Thread(target=self.serve_forever, name="apb-llm-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.shutdown()
        self.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> LLMServer:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def reply(self, body: dict, messages: list[dict]) -> tuple[int, str, dict[str, str]]:
        """(HTTP status, answer text, headers) for one request (an error's text is ""), after the latency if
        answered."""
        with self.lock:
            self.requests.append(body)
            scripted = self.status_script.pop(0) if self.status_script else None
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
            self.gathered.notify_all()
            if scripted is None and self.gather:
                self.gathered.wait_for(lambda: not self.gather or self.in_flight >= self.gather,
                                       timeout=GATHER_TIMEOUT)
                self.gather = 0  # once: the requests after the first batch are answered as they come
        try:
            status, headers = scripted or (self.status, {})
            if status != 200:
                return status, "", headers
            time.sleep(self.latency)
            return 200, self.table.answer(messages), {}
        finally:
            with self.lock:
                self.in_flight -= 1


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the SDKs reuse their connections
    disable_nagle_algorithm = True  # headers and body go out at once (no delayed-ACK wait on the client)
    server: LLMServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def send(self, status: int, payload: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(payload)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(payload)

    def send_json(self, status: int, data: dict, headers: dict[str, str] | None = None) -> None:
        self.send(status, json.dumps(data).encode("utf-8"), "application/json", headers)

    def send_error_body(self, status: int, message: str = "", headers: dict[str, str] | None = None) -> None:
        code, default = ERRORS.get(status, ("server_error", f"scripted status {status}"))
        message = message or default
        kind = "invalid_request_error" if code == "invalid_api_key" else code
        self.send_json(status, {"error": {"message": message, "type": kind, "param": None, "code": code}}, headers)

    def do_GET(self) -> None:
        server = self.server
        path = self.path.split("?", 1)[0].rstrip("/")
        if path.endswith("/models"):
            self.send_json(200, {"object": "list", "data": [
                {"id": server.model, "object": "model", "created": 0, "owned_by": "apb"}]})
        elif path.endswith(("/stats", "/stats/reset")):
            with server.lock:
                stats = {"requests": len(server.requests), "peak_in_flight": server.peak_in_flight}
                if path.endswith("/reset"):
                    server.peak_in_flight = server.in_flight
            self.send_json(200, stats)
        else:
            self.send_error_body(404, f"no route {self.path}")

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0].rstrip("/")
        chat = path.endswith("/chat/completions")
        if not chat and not path.endswith("/completions"):
            self.send_error_body(404, f"no route {self.path}")
            return
        try:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
            messages = request_messages(body, chat)
        except (ValueError, TypeError, AttributeError):
            self.send_error_body(400)
            return
        status, text, headers = self.server.reply(body, messages)
        if status != 200:
            self.send_error_body(status, text, headers)
        elif chat and body.get("stream"):
            self.send_stream(body, messages, text)
        else:
            self.send_json(200, completion(body, messages, text, self.server.model, chat=chat))

    def send_stream(self, body: dict, messages: list[dict], text: str) -> None:
        base = {"id": "chatcmpl-apb", "object": "chat.completion.chunk", "created": int(time.time()),
                "model": body.get("model") or self.server.model}
        chunks = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": text},
                                        "finish_reason": None}]},
                  {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
                   "usage": usage(messages, text)}]
        payload = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
        self.send(200, payload.encode("utf-8"), "text/event-stream")


def request_messages(body: Any, chat: bool) -> list[dict]:
    """A request's messages (a completion's prompt as one user message); ValueError if it has none."""
    if chat:
        messages = body["messages"] if isinstance(body, dict) and "messages" in body else None
        if not isinstance(messages, list):
            raise ValueError("no messages")
        return [m for m in messages if isinstance(m, dict)]
    prompt = body.get("prompt")
    return [{"role": "user", "content": text_of(prompt[0] if isinstance(prompt, list) and prompt else prompt)}]


def usage(messages: list[dict], text: str) -> dict:
    """Token counts as characters / 4 (a stand-in: nothing reads them as a tokenizer's)."""
    prompt = sum(len(text_of(m.get("content"))) for m in messages) // 4
    output = max(1, len(text) // 4)
    return {"prompt_tokens": prompt, "completion_tokens": output, "total_tokens": prompt + output}


def completion(body: dict, messages: list[dict], text: str, model: str, *, chat: bool) -> dict:
    choice = ({"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop",
               "logprobs": None} if chat else {"index": 0, "text": text, "finish_reason": "stop", "logprobs": None})
    return {"id": "chatcmpl-apb" if chat else "cmpl-apb", "object": "chat.completion" if chat else "text_completion",
            "created": int(time.time()), "model": body.get("model") or model, "choices": [choice],
            "usage": usage(messages, text)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m apb.bench.llm_server",
                                     description="a local OpenAI-compatible server with scripted answers")
    parser.add_argument("--answers", help='the answer table (JSON: {"exact", "markers", "texts", "fallback"}, see '
                                          "AnswerTable); default: answer everything with the fallback")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before every answer (default 0)")
    parser.add_argument("--status", type=int, default=200, choices=(200, 401, 500),
                        help="answer every request with this HTTP status (401: a refused key; 500: a server error)")
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (default: a free one)")
    args = parser.parse_args(argv)
    table = AnswerTable()
    if args.answers:
        try:
            with open(args.answers, encoding="utf-8") as handle:
                table = AnswerTable.from_dict(json.load(handle))
        except (OSError, ValueError) as err:
            parser.error(f"--answers {args.answers}: {err}")
    server = LLMServer(table, latency=args.latency, status=args.status, port=args.port)
    print(server.url, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
