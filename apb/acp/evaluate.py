"""LLM evaluation on ACP questions: prompts (k-shot, optional chain of thought), concurrent calls through apb.llm
(its cache, usage and cost), answer extraction and both scorers; one JSONL line per question, appended and
fsynced as soon as it is scored, so an interrupted run loses nothing and `resume` skips the finished ids."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from apb.acp.errors import ACPError
from apb.acp.extract import MISSING, extract
from apb.acp.io import append_jsonl, read_results
from apb.acp.oracle import oracle_answer
from apb.acp.records import Question
from apb.acp.scorers import score
from apb.engine import ApbError
from apb.prompts import load_prompt

RESULTS_FILE = "results.jsonl"
RUN_FILE = "run.json"


@cache
def instructions() -> dict:
    return yaml.safe_load(load_prompt("acp/instructions.yaml"))


def answer_text(q: Question) -> str:
    """The gold answer written the way a model is asked to write it (for few-shot examples)."""
    answer = oracle_answer(q)
    if q.format != "gen":
        return str(answer)
    if q.task in ("app", "just"):
        return "\n".join(answer) if answer else "[]"
    if q.task == "prog":
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


@dataclass
class EvalSummary:
    """What a run did: questions scored now and before, accuracies, tokens and cost."""

    total: int = 0
    skipped: int = 0
    scored: int = 0
    official: int = 0
    sound: int = 0
    errors: int = 0
    cost: float = 0.0
    tokens: int = 0
    seconds: float = 0.0
    groups: dict = field(default_factory=dict)


def _check_out(out: Path, resume: bool, meta: dict) -> set:
    out.mkdir(parents=True, exist_ok=True)
    results = out / RESULTS_FILE
    if resume and results.is_file():
        text = results.read_text(encoding="utf-8")
        if text and not text.endswith("\n"):  # a line cut short by an interruption: drop it, it is asked again
            results.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")
    done = {r.get("id") for r in read_results(results)}
    if done and not resume:
        raise ACPError(f"{out} already has {len(done)} results: rerun with --resume to continue, or use another --out")
    run = out / RUN_FILE
    if resume and run.is_file():
        before = json.loads(run.read_text(encoding="utf-8"))
        changed = [k for k in ("llm", "shots", "cot") if before.get(k) != meta.get(k)]
        if changed:
            raise ACPError(f"{out}: --resume with different settings ({', '.join(changed)}) than the first run")
    run.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return done


async def _evaluate(questions: list[Question], llm, out: Path, *, shots: int, cot: bool, concurrency: int,
                    resume: bool, progress: bool, max_tokens: int, examples: list[Question] | None
                    ) -> EvalSummary:
    meta = {"llm": getattr(llm, "spec", str(llm)), "shots": shots, "cot": cot, "questions": len(questions)}
    done = _check_out(out, resume, meta)
    pool: dict[str, list[Question]] = {}
    for q in questions if examples is None else examples:
        pool.setdefault(q.group, []).append(q)
    todo = [q for q in questions if q.id not in done]
    summary = EvalSummary(total=len(questions), skipped=len(questions) - len(todo))
    start = time.perf_counter()
    bar = _Bar(len(todo)) if progress and todo else None
    limit = asyncio.Semaphore(max(1, concurrency))
    lock = asyncio.Lock()

    async def one(q: Question) -> None:
        messages = build_messages(q, pick_shots(q, pool, shots), cot)
        record: dict[str, Any] = {"id": q.id, "group": q.group, "task": q.task, "format": q.format,
                                  "domain": q.domain, "view": q.view, "source": q.source, "prompt": messages}
        async with limit:
            try:
                completion = await llm.acomplete(messages, max_tokens=max_tokens, temperature=0.0)
                text, error = completion.text, None
                record.update(usage=completion.usage.to_dict(), cost=completion.cost, cached=completion.cached)
            except ApbError as err:
                text, error = "", str(err)
        answer = extract(text, q.task, q.format, (q.choices or {}).get("text"))
        verdict = score(q, answer)
        record.update(response=text, answer=None if answer is MISSING else answer, extracted=answer is not MISSING,
                      gold=q.answer, official=verdict.official, sound=verdict.sound, reason=verdict.reason,
                      error=error)
        async with lock:
            append_jsonl(out / RESULTS_FILE, [record])
            summary.scored += 1
            summary.official += verdict.official
            summary.sound += verdict.sound
            summary.errors += error is not None
            summary.cost += record.get("cost") or 0.0
            summary.tokens += sum((record.get("usage") or {}).get(k, 0) for k in ("input_tokens", "output_tokens"))
            if bar:
                bar.advance(summary)

    try:
        await asyncio.gather(*(one(q) for q in todo))
    finally:
        if bar:
            bar.stop()
    summary.seconds = time.perf_counter() - start
    return summary


def evaluate(questions: list[Question], llm, out: str | Path, *, shots: int = 2, cot: bool = False,
             concurrency: int = 4, resume: bool = False, progress: bool = True, max_tokens: int = 1024,
             examples: list[Question] | None = None) -> EvalSummary:
    """Asks `llm` every question (skipping finished ids with `resume`) and appends the scored results to
    `OUT/results.jsonl`. Shots come from `examples` (e.g. ACPBench's dev set), else from the other questions."""
    if shots < 0:
        raise ACPError(f"--shots must be 0 or more, got {shots}")
    return asyncio.run(_evaluate(questions, llm, Path(out), shots=shots, cot=cot, concurrency=concurrency,
                                 resume=resume, progress=progress, max_tokens=max_tokens, examples=examples))


class _Bar:
    """A rich progress bar: questions done/total, ETA, accuracy so far and cost."""

    def __init__(self, total: int) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.progress = Progress(TextColumn("questions"), BarColumn(), MofNCompleteColumn(), TextColumn("ETA"),
                                 TimeRemainingColumn(), TextColumn("{task.fields[status]}"),
                                 console=Console(stderr=True), transient=False)
        self.task = self.progress.add_task("acp", total=total, status="")
        self.progress.start()

    def advance(self, summary: EvalSummary) -> None:
        accuracy = summary.sound / summary.scored if summary.scored else 0.0
        self.progress.update(self.task, advance=1,
                             status=f"sound acc {accuracy:.1%}, ${summary.cost:.4f}, {summary.tokens} tokens")

    def stop(self) -> None:
        self.progress.stop()
