"""Test-only: a small OpenAI-compatible HTTP server on 127.0.0.1, for running each framework's own command line
(inspect, lm_eval, vf-eval, ...) against a model whose answers the test chooses.

    with ModelServer(lookup({"question text": "yes"})) as server:   # or mode="wrong" / "401" / "500", delay=...
        env = {**os.environ, **server.env()}    # OPENAI_BASE_URL, OPENAI_API_KEY (and the vLLM/Ollama ones)
        subprocess.run(["inspect", "eval", ..., "--model", "openai/gpt-4o-mini"], env=env)
        server.requests                         # every request body it received

Routes: `POST /v1/chat/completions` (also streamed, `"stream": true`), `POST /v1/completions`, `GET /v1/models`.
An answer function gets the request's messages (a completion's prompt as one user message) and returns the text.
Modes: `answer` (the function's text), `wrong` (a fixed text that is no action and no answer), `401` (OpenAI's
invalid-key error), `500` (a server error); `delay` seconds before every answer.

As a program (for trying a framework by hand): `python tests/model_server.py [--mode M] [--delay S]
[--answers FILE.json]` prints the base URL, then serves until interrupted; FILE maps a text to find in the last
user message to the answer.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

WRONG = "}}} I do not know"
MODES = ("answer", "wrong", "401", "500")
Answer = Callable[[list[dict]], str]


def text_of(content: Any) -> str:
    """A message's text: a string, or the text parts of OpenAI's content list."""
    if isinstance(content, list):
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return "" if content is None else str(content)


def last_user(messages: list[dict]) -> str:
    return next((text_of(m.get("content")) for m in reversed(messages) if m.get("role") == "user"), "")


def lookup(table: dict[str, str], default: str = WRONG) -> Answer:
    """Answers with the value of the key found last in the last user message (the question after any examples
    in a prompt flattened into one message, as lm-eval sends it; the longer key on a tie)."""

    def answer(messages: list[dict]) -> str:
        text = last_user(messages)
        found = [(text.rfind(k) + len(k), len(k), k) for k in table if k and k in text]
        return table[max(found)[2]] if found else default

    return answer


def playing(plans: dict[str, list[str]], default: str = WRONG) -> Answer:
    """Plays a game: `plans` maps a text of a problem's task (found in a user message) to its actions; the answer
    is the action after the ones made since that message (one per assistant message after it: a few-shot
    example's turns before it do not count)."""
    keys = sorted(plans, key=len, reverse=True)

    def answer(messages: list[dict]) -> str:
        for index in range(len(messages) - 1, -1, -1):
            text = text_of(messages[index].get("content"))
            key = next((k for k in keys if k in text), None) if messages[index].get("role") == "user" else None
            if key is not None:
                done = sum(m.get("role") == "assistant" for m in messages[index + 1:])
                return plans[key][done] if done < len(plans[key]) else default
        return default

    return answer


class ModelServer:
    """The server, on a free port of 127.0.0.1, in a daemon thread; a context manager (or start()/close())."""

    def __init__(self, answer: Answer | None = None, *, mode: str = "answer", delay: float = 0.0,
                 model: str = "apb-test-model") -> None:
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}: one of {', '.join(MODES)}")
        self.answer = answer or (lambda messages: WRONG)
        self.mode, self.delay, self.model = mode, delay, model
        self.requests: list[dict] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The base URL clients take (OpenAI's `base_url`): http://127.0.0.1:PORT/v1."""
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def env(self) -> dict[str, str]:
        """Environment variables pointing the frameworks' OpenAI-compatible clients here."""
        return {"OPENAI_BASE_URL": self.url, "OPENAI_API_KEY": "test-key", "VLLM_BASE_URL": self.url,
                "VLLM_API_KEY": "test-key", "OLLAMA_BASE_URL": self.url}

    def start(self) -> ModelServer:
        self._thread.start()
        return self

    def close(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> ModelServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def reply(self, body: dict, messages: list[dict]) -> tuple[int, str]:
        """(HTTP status, text or error message) for one request."""
        with self._lock:
            self.requests.append(body)
        if self.delay:
            time.sleep(self.delay)
        if self.mode == "401":
            return 401, "Incorrect API key provided: test-key."
        if self.mode == "500":
            return 500, "The server had an error while processing your request."
        if self.mode == "wrong":
            return 200, WRONG
        return 200, str(self.answer(messages))


def _handler(server: ModelServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, format, *args):  # quiet: the tests read server.requests
            pass

        def do_GET(self):
            if self.path.rstrip("/").endswith("/models"):
                self.send_json(200, {"object": "list", "data": [
                    {"id": server.model, "object": "model", "created": 0, "owned_by": "apb-tests"}]})
            else:
                self.send_json(404, error_body(f"no route {self.path}", "not_found"))

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except ValueError:
                self.send_json(400, error_body("the body is not JSON", "invalid_request_error"))
                return
            path = self.path.split("?", 1)[0].rstrip("/")
            if path.endswith("/chat/completions"):
                messages = [m for m in body.get("messages") or [] if isinstance(m, dict)]
            elif path.endswith("/completions"):
                prompt = body.get("prompt")
                messages = [{"role": "user", "content": prompt[0] if isinstance(prompt, list) else prompt}]
            else:
                self.send_json(404, error_body(f"no route {self.path}", "not_found"))
                return
            status, text = server.reply(body, messages)
            if status != 200:
                kind = "invalid_api_key" if status == 401 else "server_error"
                self.send_json(status, error_body(text, kind))
            elif path.endswith("/chat/completions") and body.get("stream"):
                self.send_stream(body, text)
            elif path.endswith("/chat/completions"):
                self.send_json(200, completion(body, text, server.model, chat=True))
            else:
                self.send_json(200, completion(body, text, server.model, chat=False))

        def send_json(self, status: int, data: dict) -> None:
            payload = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

        def send_stream(self, body: dict, text: str) -> None:
            base = {"id": "chatcmpl-apb", "object": "chat.completion.chunk", "created": int(time.time()),
                    "model": body.get("model") or server.model}
            chunks = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": text},
                                            "finish_reason": None}]},
                      {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
                       "usage": usage(body, text)}]
            payload = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Content-Length", str(len(payload.encode())))
            self.end_headers()
            self.wfile.write(payload.encode())

    return Handler


def usage(body: dict, text: str) -> dict:
    """Token counts as words (a stand-in; nothing in the tests reads them as a tokenizer's)."""
    prompt = sum(len(text_of(m.get("content")).split()) for m in body.get("messages") or [] if isinstance(m, dict))
    prompt += len(str(body.get("prompt") or "").split())
    output = len(text.split())
    return {"prompt_tokens": prompt, "completion_tokens": output, "total_tokens": prompt + output}


def completion(body: dict, text: str, model: str, *, chat: bool) -> dict:
    choice = ({"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop",
               "logprobs": None} if chat else {"index": 0, "text": text, "finish_reason": "stop", "logprobs": None})
    return {"id": "chatcmpl-apb" if chat else "cmpl-apb", "object": "chat.completion" if chat else "text_completion",
            "created": int(time.time()), "model": body.get("model") or model, "choices": [choice],
            "usage": usage(body, text)}


def error_body(message: str, code: str) -> dict:
    return {"error": {"message": message, "type": "invalid_request_error" if code == "invalid_api_key" else code,
                      "param": None, "code": code}}


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="an OpenAI-compatible test server on 127.0.0.1")
    parser.add_argument("--mode", choices=MODES, default="answer")
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--answers", help="a JSON file: text found in the last user message -> answer")
    args = parser.parse_args(argv)
    table = {}
    if args.answers:
        with open(args.answers, encoding="utf-8") as handle:
            table = json.load(handle)
    server = ModelServer(lookup(table), mode=args.mode, delay=args.delay).start()
    print(server.url, flush=True)
    try:
        server._thread.join()
    except KeyboardInterrupt:
        server.close()


if __name__ == "__main__":
    main()
