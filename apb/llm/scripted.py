"""The scripted client: answers from a list, a file or a function. For tests, demos and replays; never a
stand-in for a real model in the product.

`scripted:<file>`: a JSON list of strings, a YAML list, or a text file with one response per block separated
by a line `---`. Responses are used in order; running out is an LLMError naming the file and the call number.
A function receives the messages and returns a string.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import yaml

from apb.engine.input_files import MAX_SCRIPT_BYTES, read_input
from apb.llm.base import Completion, LLMError, Message, SyncLLM, Usage, check_messages


def approx_tokens(text: str) -> int:
    """A rough token count (4 characters a token) for backends that do not report usage."""
    return max(1, len(text) // 4) if text else 0


def read_script(path: str | Path) -> list[str]:
    path = Path(path)
    text = read_input(path, "scripted responses file", limit=MAX_SCRIPT_BYTES,
                      error=lambda reason: LLMError(f"{path}: {reason}"))
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as err:
            raise LLMError(f"{path}:{err.lineno}: invalid JSON: {err.msg}") from None
    elif path.suffix.lower() in (".yaml", ".yml"):
        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as err:
            raise LLMError(f"{path}: invalid YAML: {err}") from None
    else:
        blocks = [b.strip("\n") for b in text.split("\n---\n")]
        data = [b for b in blocks if b.strip()] if text.strip() else []
    if isinstance(data, dict) and "responses" in data:
        data = data["responses"]
    if not isinstance(data, list) or not all(isinstance(r, str) for r in data):
        raise LLMError(f"{path}: scripted responses must be a list of strings (JSON, YAML, or blocks separated "
                       "by lines '---')")
    return data


class ScriptedLLM(SyncLLM):
    """Answers with the next scripted response (or `responder(messages)`); records every request in `calls`."""

    def __init__(self, responses: Sequence[str] | Callable[[list[Message]], str] | str | Path, *,
                 name: str = "scripted", cycle: bool = False) -> None:
        self.source = "function"
        if isinstance(responses, str | Path) and not callable(responses):
            self.source = str(responses)
            responses = read_script(responses)
        self._responder = responses if callable(responses) else None
        self._responses = list(responses) if not callable(responses) else []
        self.cycle = cycle
        self.spec = f"scripted:{self.source}" if self.source != "function" else f"scripted:{name}"
        self.calls: list[dict] = []
        self._lock = threading.Lock()
        self._next = 0

    def complete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                 choices=None) -> Completion:
        messages = check_messages(messages)
        start = time.perf_counter()
        with self._lock:
            number = len(self.calls) + 1
            self.calls.append({"messages": messages, "max_tokens": max_tokens, "temperature": temperature,
                               "stop": list(stop) if stop else None, "seed": seed,
                               "choices": list(choices) if choices else None})
            if self._responder is not None:
                text = self._responder(messages)
            elif self._next < len(self._responses):
                text = self._responses[self._next]
                self._next += 1
            elif self.cycle and self._responses:
                text = self._responses[self._next % len(self._responses)]
                self._next += 1
            else:
                raise LLMError(f"{self.spec}: no scripted response left for call {number} "
                               f"({len(self._responses)} given)")
        if not isinstance(text, str):
            raise LLMError(f"{self.spec}: the responder returned {type(text).__name__}, not a string")
        if stop:
            cut = min((text.find(s) for s in stop if s and s in text), default=-1)
            if cut >= 0:
                text = text[:cut]
        prompt = "".join(m["content"] for m in messages)
        usage = Usage(input_tokens=approx_tokens(prompt), output_tokens=approx_tokens(text))
        return Completion(text=text, usage=usage, cost=0.0, latency=time.perf_counter() - start,
                          model=self.spec, provider="scripted", finish_reason="stop")
