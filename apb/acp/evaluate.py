"""LLM evaluation on ACP questions: prompts (k-shot, optional chain of thought), answer extraction and both
scorers, run on the one runner of `apb.eval.runner` (its folder rule, lock, resume, concurrency, Ray, progress
bar and LLM accounting): one JSONL line per question in `OUT/results.jsonl`, appended and fsynced as soon as it is
scored; an LLM error is recorded as an error (retried by `resume`), never as a wrong answer."""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from apb.acp.errors import ACPError
from apb.acp.oracle import oracle_answer
from apb.acp.records import Question
from apb.acp.scorers import MISSING, score_response
from apb.acp.tasks import TASKS
from apb.engine import ApbError
from apb.eval.items import RESULTS_FILE, ItemInterrupted, ItemKind, RecordStore
from apb.eval.runner import run_items
from apb.prompts import load_prompt

__all__ = ["ACP_QUESTIONS", "RESULTS_FILE", "QuestionItem", "evaluate", "question_items"]


@cache
def instructions() -> dict:
    return yaml.safe_load(load_prompt("acp/instructions.yaml"))


def answer_text(q: Question) -> str:
    """The gold answer written the way a model is asked to write it (the reply of a few-shot example), by the
    answer's shape: one action per line, JSON effects, an index, an atom or action, or None."""
    answer = oracle_answer(q)
    if q.format != "gen":
        return str(answer)
    shape = TASKS[q.task].shape
    if shape == "list":
        return "\n".join(answer) if answer else "[]"
    if shape == "effects":
        return json.dumps(answer)
    return "None" if answer is None else str(answer)


def build_messages(q: Question, shots: list[Question], cot: bool) -> list[dict]:
    """System message, then each shot as a user/assistant pair, then the question."""
    text = instructions()

    def user(question: Question) -> str:
        how = text["cot"] if cot else text["direct"][question.format]
        return text["user"].format(context=question.context, question=question.question, instruction=how)

    messages: list[dict[str, Any]] = [{"role": "system", "content": text["system"]}]
    for shot in shots:
        reply = f"Answer: {answer_text(shot)}" if cot else answer_text(shot)
        messages += [{"role": "user", "content": user(shot)}, {"role": "assistant", "content": reply}]
    if len(messages) > 1:
        messages[-1]["cache"] = True  # the static prefix ends here
    messages.append({"role": "user", "content": user(q)})
    return messages


def pick_shots(q: Question, pool: dict[str, list[Question]], count: int) -> list[Question]:
    """`count` other questions of the same group (and domain where possible), in a fixed order."""
    same = [s for s in pool.get(q.group, []) if s.id != q.id]
    same.sort(key=lambda s: (s.domain != q.domain, s.id))
    return same[:count]


def acp_success(record: dict) -> bool:
    return bool(record.get("official"))


ACP_QUESTIONS = ItemKind("acp", "question", "correct (official scorer)", acp_success, RecordStore)


class QuestionItem:
    """One ACP question as an item of the one runner (`apb.eval.items`): ask the LLM, extract, score both ways.
    An LLM error (timeout, refused call) is recorded as an error, never scored as a wrong answer."""

    def __init__(self, q: Question, shots: list[Question], *, cot: bool, max_tokens: int, model: str) -> None:
        self.question, self.shots, self.cot, self.max_tokens = q, shots, cot, max_tokens
        self.id = str(q.id)
        self.model = model

    def run(self, out_dir: Path, llm: Any, stop: Any) -> dict:
        q = self.question
        messages = build_messages(q, self.shots, self.cot)
        record: dict[str, Any] = {"id": q.id, "group": q.group, "task": q.task, "format": q.format,
                                  "domain": q.domain, "view": q.view, "source": q.source, "prompt": messages,
                                  "gold": q.answer, "question_hash": question_hash(q), "llm_calls": 1}
        try:
            completion = llm.complete(messages, max_tokens=self.max_tokens, temperature=0.0)
        except ApbError as err:
            return {**record, "response": None, "answer": None, "extracted": False, "official": None,
                    "sound": None, "reason": None, "error": str(err), "cost_usd": None}
        if stop is not None and stop.is_set():  # stopping (Ctrl-C, SIGTERM): no scoring, which can take CPU seconds
            raise ItemInterrupted
        answer, verdict = score_response(q, completion.text)  # official: the raw text, as the release reads it
        usage = completion.usage.to_dict()
        return {**record, "usage": usage, "input_tokens": usage.get("input_tokens", 0),
                "output_tokens": usage.get("output_tokens", 0), "cost_usd": completion.cost, "cost": completion.cost,
                "cached": completion.cached, "cached_calls": int(bool(completion.cached)),
                "response": completion.text, "answer": None if answer is MISSING else answer,
                "extracted": answer is not MISSING, "official": verdict.official, "sound": verdict.sound,
                "reason": verdict.reason, "error": None}


def question_items(questions: list[Question], model: str, *, shots: int = 2, cot: bool = False,
                   max_tokens: int = 1024, examples: list[Question] | None = None) -> list[QuestionItem]:
    """The items of an evaluation: each question with its shots (from `examples`, else the other questions)."""
    if shots < 0:
        raise ACPError(f"--shots must be 0 or more, got {shots}")
    pool: dict[str, list[Question]] = {}
    for q in questions if examples is None else examples:
        pool.setdefault(q.group, []).append(q)
    return [QuestionItem(q, pick_shots(q, pool, shots), cot=cot, max_tokens=max_tokens, model=model)
            for q in questions]


def question_hash(q: Question) -> str:
    """A short hash of everything a question is (its record): a result belongs to the question it answered."""
    return hashlib.sha256(json.dumps(q.to_dict(), sort_keys=True, default=str).encode()).hexdigest()[:16]


def eval_settings(model: str, *, shots: int, cot: bool, max_tokens: int,
                  examples: list[Question] | None) -> dict[str, Any]:
    """What changes an ACP evaluation's results (run.json; compared on --resume). The questions themselves are
    checked one by one (`question_hash`), so a resumed run may add questions but never mixes two versions of one."""
    shots_from = None if examples is None else hashlib.sha256("".join(question_hash(q) for q in examples).encode()
                                                              ).hexdigest()[:16]
    return {"llm": model, "shots": shots, "cot": cot, "max_tokens": max_tokens, "shots_from": shots_from,
            "instructions": hashlib.sha256(json.dumps(instructions(), sort_keys=True).encode()).hexdigest()[:16]}


def check_same_questions(questions: list[Question], out: Path) -> None:
    """ACPError when `out` holds a result for a question id whose question has changed since (another set)."""
    before = RecordStore(out).records()
    for q in questions:
        old = before.get(str(q.id))
        if old is not None and old.get("question_hash") not in (None, question_hash(q)):
            raise ACPError(f"{out}: question {q.id} is not the one the earlier run answered (the question set "
                           "changed); evaluate the new set into another --out, or use --overwrite")


def evaluate(questions: list[Question], llm, out: str | Path, *, shots: int = 2, cot: bool = False,
             concurrency: int = 4, resume: bool = False, overwrite: bool = False, progress: bool = True,
             max_tokens: int = 1024, examples: list[Question] | None = None, executor: str = "thread",
             llm_concurrency: int | None = None, cache: str = "rw") -> dict[str, Any]:
    """Asks `llm` (an LLM object or a spec string) every question on the one runner and appends the scored results
    to `OUT/results.jsonl`; `resume` skips the finished ids and retries errors. Shots come from `examples` (e.g.
    ACPBench's dev set), else from the other questions. Returns the runner's summary plus `official`, `sound`
    (correct answers of the run, errors excluded) and `answered`."""
    spec = llm if isinstance(llm, str) else getattr(llm, "spec", None) or str(llm)
    items = question_items(questions, spec, shots=shots, cot=cot, max_tokens=max_tokens, examples=examples)
    settings = eval_settings(spec, shots=shots, cot=cot, max_tokens=max_tokens, examples=examples)
    if resume:
        check_same_questions(questions, Path(out))
    summary = run_items(items, out, kind=ACP_QUESTIONS, settings=settings, concurrency=concurrency, resume=resume,
                        overwrite=overwrite, progress=progress,
                        llms=None if isinstance(llm, str) else {spec: llm}, executor=executor,
                        llm_concurrency=llm_concurrency, cache=cache)
    records = RecordStore(Path(out)).records()
    answered = [r for q in questions if (r := records.get(str(q.id))) is not None and not r.get("error")]
    summary.update(answered=len(answered), official=sum(bool(r.get("official")) for r in answered),
                   sound=sum(bool(r.get("sound")) for r in answered))
    return summary
