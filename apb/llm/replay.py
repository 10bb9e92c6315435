"""The replay client: `replay:<file>` answers each prompt with the response a released PlanBench responses or
results file (`.json` or `.json.gz`) holds for that exact query, so a released run goes through apb's pipeline again
(prompt, model, reading, verdict). A prompt the file has no response for is an LLMError (never a made-up answer).
"""

from __future__ import annotations

import gzip
import json
import threading
import time
from pathlib import Path

from apb.llm.base import Completion, LLMError, SyncLLM, Usage, check_messages
from apb.llm.scripted import approx_tokens

RESPONSE_KEYS = ("llm_raw_response", "response")  # where released files keep the model's answer
# One released record (blocksworld's GPT-4 t1 results, instance 12) has a response pasted into its query after this
# line: the query asked is the part before it.
PASTED_RESPONSE = "--------- GPT4 response ---------"


def read_replay(path: str | Path) -> dict[str, str]:
    """query -> response of every record of the file that has both."""
    path = Path(path)
    try:
        raw = path.read_bytes()
        text = (gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw).decode("utf-8")
        data = json.loads(text)
    except OSError as err:
        raise LLMError(f"{path}: cannot read the replay file: {getattr(err, 'strerror', None) or err}") from None
    except (UnicodeDecodeError, json.JSONDecodeError, EOFError) as err:
        raise LLMError(f"{path}: not a PlanBench responses/results JSON file ({err})") from None
    records = data.get("instances") if isinstance(data, dict) else None
    if not isinstance(records, list):
        raise LLMError(f"{path}: no 'instances' list (a PlanBench responses or results file has one)")
    answers: dict[str, str] = {}
    for record in records:
        if not isinstance(record, dict) or not isinstance(record.get("query"), str):
            continue
        response = next((record[k] for k in RESPONSE_KEYS if isinstance(record.get(k), str)), None)
        if response is not None:
            answers.setdefault(record["query"].split(PASTED_RESPONSE, 1)[0], response)
    return answers


class ReplayLLM(SyncLLM):
    """Answers the last user message with the released response to that query; LLMError for an unknown one."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.spec = f"replay:{self.path}"
        self._answers = read_replay(path)
        self._lock = threading.Lock()
        self.calls = 0

    def complete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                 choices=None) -> Completion:
        messages = check_messages(messages)
        start = time.perf_counter()
        query = next((m["content"] for m in reversed(messages) if m["role"] == "user"), "")
        with self._lock:
            self.calls += 1
        text = self._answers.get(query)
        if text is None:
            raise LLMError(f"{self.spec}: the file holds no response for this prompt ({len(self._answers)} "
                           "queries in it)")
        prompt = "".join(m["content"] for m in messages)
        usage = Usage(input_tokens=approx_tokens(prompt), output_tokens=approx_tokens(text))
        return Completion(text=text, usage=usage, cost=0.0, latency=time.perf_counter() - start,
                          model=self.spec, provider="replay", finish_reason="stop")
