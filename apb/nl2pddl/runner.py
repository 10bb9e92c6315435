"""Runs an LLM over NL->PDDL pairs: one prompt per pair (the domain's PDDL, K examples of the same domain, the
description), the answer's PDDL problem scored against the gold one (apb.nl2pddl.evaluate), one JSON line per pair.

The pairs are items of the one runner (`apb.eval.runner`: folder rule, lock, resume, concurrency, Ray, LLM
accounting): results are appended to OUT/results.jsonl as each pair finishes (flushed and fsynced); a pair whose
LLM call failed is recorded as an error (not as an unparseable answer) and asked again by `resume`; the report
counts each pair once (its latest record).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from apb.agents.llm_plus_p import extract_problem_pddl
from apb.engine import load_domain
from apb.engine.errors import ApbError
from apb.engine.input_files import read_input
from apb.engine.limits import MAX_ANSWER_CHARS, over_limit
from apb.eval.items import RESULTS_FILE, ItemKind, RecordStore
from apb.eval.rundir import fingerprint_files
from apb.eval.runner import run_items
from apb.flags import DEFAULT_CONCURRENCY
from apb.nl2pddl.evaluate import assess
from apb.nl2pddl.planetarium import PairsFormatError, domain_file_for, read_pairs
from apb.prompts import prompt_family

prompt = prompt_family("nl2pddl/")
__all__ = ["NL2PDDL_PAIRS", "RESULTS_FILE", "PairItem", "run_pairs", "score_answer", "score_pair", "shots_for"]


def shots_for(rows: list[dict], row: dict, k: int) -> list[dict]:
    """Up to k other pairs of the same domain (the first ones in file order): a pair's examples."""
    if k <= 0:
        return []
    same = [r for r in rows if r["domain"] == row["domain"] and r["id"] != row["id"]]
    return same[:k]


def messages_for(row: dict, domain_text: str, shots: list[dict]) -> list[dict]:
    """The chat messages of one pair."""
    examples = "".join(prompt("shot", description=s["natural_language"], problem_pddl=s["problem_pddl"].strip())
                       + "\n" for s in shots)
    return [{"role": "system", "content": prompt("system")},
            {"role": "user", "content": prompt("user", domain_pddl=domain_text.strip(), examples=examples,
                                               description=row["natural_language"])}]


_DOMAINS: dict[tuple[str, int, int], tuple[str, Any]] = {}  # (path, mtime, size) -> (text, parsed): a run's pairs
_DOMAINS_LOCK = threading.Lock()                             # share a few domain files; parse each once


def _domain(path: Path) -> tuple[str, Any]:
    """A pair's domain file: its text (for the prompt) and the parsed domain (for scoring), read once per version of
    the file (the parsed domain is never changed by scoring)."""
    try:
        stat = path.stat()
    except OSError:
        return read_input(path, "domain file"), None  # raises the one-line error naming the file
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    with _DOMAINS_LOCK:
        if key not in _DOMAINS:
            if len(_DOMAINS) >= 64:
                _DOMAINS.clear()
            _DOMAINS[key] = (read_input(path, "domain file"), load_domain(path))
        return _DOMAINS[key]


def score_pair(row: dict, llm, base: Path, rows: list[dict], shots: int, max_tokens: int | None = None) -> dict:
    """One pair: ask the LLM, score its problem; the record written to results.jsonl."""
    path = domain_file_for(row, base)
    domain_text, domain = _domain(path)
    record = {key: row.get(key) for key in ("id", "domain", "init", "goal", "init_is_abstract", "goal_is_abstract",
                                           "is_placeholder", "num_objects")}
    try:
        completion = llm.complete(messages_for(row, domain_text, shots_for(rows, row, shots)), max_tokens=max_tokens,
                                  temperature=0.0)
    except ApbError as err:
        return {**record, "parseable": None, "solvable": None, "correct": None, "llm_error": str(err),
                "error": f"LLM error: {err}", "llm_calls": 1, "cost_usd": None}
    usage = {"input_tokens": completion.usage.input_tokens,
             "output_tokens": completion.usage.output_tokens, "cost_usd": completion.cost,
             "cached": completion.cached, "llm_calls": 1, "cached_calls": int(bool(completion.cached)), "error": None}
    scored = score_answer(row["problem_pddl"], completion.text, domain, placeholder=bool(row.get("is_placeholder")))
    if "gold_error" in scored:
        return {**record, **scored, **usage}
    return {**record, **scored, "domain": row.get("domain"), **usage}


def score_answer(gold_pddl: str, text: str, domain, *, placeholder: bool = False) -> dict:
    """A model's answer scored as `apb nl2pddl eval` scores it: the PDDL problem read from the text (`predicted`),
    then (parseable, solvable, correct) against the gold problem with the checker's diagnostics. A gold problem
    that does not parse scores all False with `gold_error` (the pair is broken, not the answer). The answer is only
    ever read as text; one that is not a string or is over `apb.engine.limits.MAX_ANSWER_CHARS` is unparseable."""
    refused = over_limit(text, MAX_ANSWER_CHARS) if isinstance(text, str) else "the answer is not text"
    if refused is not None:
        return {"parseable": False, "solvable": False, "correct": False, "domain": None, "answer_error": refused,
                "planner_status": "", "plan_length": None, "verdict": "", "reason": "", "predicted": ""}
    predicted = extract_problem_pddl(text)
    try:
        result = assess(gold_pddl, predicted, domain, placeholder=placeholder)
    except ApbError as err:
        return {"parseable": False, "solvable": False, "correct": False, "gold_error": str(err),
                "predicted": predicted}
    scored = result.to_dict()
    # the answer's own diagnostics (why it does not parse, ...) are not an error of the pair: the runner retries
    # records whose `error` is set, so they are kept as `answer_error`
    scored["answer_error"] = scored.pop("error", None)
    return {**scored, "predicted": predicted}


NL2PDDL_PAIRS = ItemKind("nl2pddl", "pair", "correct", lambda r: bool(r.get("correct")), RecordStore)


class PairItem:
    """One NL->PDDL pair as an item of the one runner."""

    def __init__(self, row: dict, base: Path, rows: list[dict], shots: int, max_tokens: int | None,
                 model: str) -> None:
        self.row, self.base, self.rows, self.shots, self.max_tokens = row, base, rows, shots, max_tokens
        self.id = str(row["id"])
        self.model = model

    def run(self, out_dir: Path, llm: Any, stop: Any) -> dict:
        try:
            return score_pair(self.row, llm, self.base, self.rows, self.shots, self.max_tokens)
        except Exception as err:  # a bug or a broken pair: recorded with the pair, never dropped
            return {"id": self.row["id"], "domain": self.row.get("domain"), "parseable": None, "solvable": None,
                    "correct": None, "error": f"{type(err).__name__}: {err}"}


def run_pairs(pairs: str | Path, llm, out: str | Path, *, shots: int = 0, concurrency: int = DEFAULT_CONCURRENCY,
              resume: bool = False, overwrite: bool = False, limit: int | None = None, max_tokens: int | None = None,
              progress: Callable[[dict], None] | None = None, executor: str = "thread",
              llm_concurrency: int | None = None, cache: str = "rw") -> dict[str, Any]:
    """Scores `llm` (an LLM object or a spec) on the pairs file (see the module docstring); OUT/results.jsonl gets
    one line per pair. Returns the runner's summary (`total`, `skipped`, `ran`, `ok` = correct, `errors`, ...)."""
    pairs = Path(pairs)
    rows = read_pairs(pairs)  # every row checked before any work
    if limit is not None:
        if limit < 1:
            raise PairsFormatError(f"bad limit {limit}: it must be at least 1")
        rows = rows[:limit]
    spec = llm if isinstance(llm, str) else getattr(llm, "spec", None) or str(llm)
    items = [PairItem(row, pairs.parent, rows, shots, max_tokens, spec) for row in rows]
    prompt_files = sorted((Path(__file__).resolve().parents[1] / "prompts" / "nl2pddl").glob("*"))
    settings = {"llm": spec, "shots": shots, "max_tokens": max_tokens, "pairs": fingerprint_files([pairs]),
                "prompts": fingerprint_files(prompt_files)}
    return run_items(items, out, kind=NL2PDDL_PAIRS, settings=settings, concurrency=concurrency, resume=resume,
                     overwrite=overwrite, llms=None if isinstance(llm, str) else {spec: llm}, executor=executor,
                     llm_concurrency=llm_concurrency, cache=cache,
                     on_record=None if progress is None else lambda item, record: progress(record))
