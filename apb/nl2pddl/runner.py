"""Runs an LLM over NL->PDDL pairs: one prompt per pair (the domain's PDDL, K examples of the same domain, the
description), the answer's PDDL problem scored against the gold one (apb.nl2pddl.evaluate), one JSON line per pair.

Results are appended to OUT/results.jsonl as each pair finishes (flushed and fsynced), so an interrupted run loses
nothing; `resume=True` skips the pairs already there (pairs whose LLM call failed are retried). Pairs run on a thread
pool of `concurrency` workers; the LLM comes from apb.llm (cache, retries, usage and cost).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from apb.agents.llm_plus_p import extract_problem_pddl
from apb.engine import load_domain
from apb.engine.errors import ApbError
from apb.nl2pddl.evaluate import assess
from apb.nl2pddl.planetarium import PairsFormatError, normalise, read_rows
from apb.nl2pddl.registry import domain_name_of, domain_path, is_domain_key
from apb.prompts import prompt_family

RESULTS_FILE = "results.jsonl"
prompt = prompt_family("nl2pddl/")


@dataclass
class RunSummary:
    """Counts of one run: pairs scored now, skipped as already done, and failed LLM calls."""

    scored: int = 0
    skipped: int = 0
    llm_errors: int = 0
    results: Path | None = None


def domain_file_for(row: dict, base: Path) -> Path:
    """The row's domain file: its domain_file (relative to the pairs file) or the shipped domain it names."""
    if row.get("domain_file"):
        path = Path(row["domain_file"])
        return path if path.is_absolute() else base / path
    key = row["domain"] if is_domain_key(row["domain"]) else domain_name_of(row["problem_pddl"]) or row["domain"]
    return domain_path(key)


def _shots(rows: list[dict], row: dict, k: int) -> list[dict]:
    """Up to k other pairs of the same domain (the first ones in file order)."""
    same = [r for r in rows if r["domain"] == row["domain"] and r["id"] != row["id"]]
    return same[:k]


def messages_for(row: dict, domain_text: str, shots: list[dict]) -> list[dict]:
    """The chat messages of one pair."""
    examples = "".join(prompt("shot", description=s["natural_language"], problem_pddl=s["problem_pddl"].strip())
                       + "\n" for s in shots)
    return [{"role": "system", "content": prompt("system")},
            {"role": "user", "content": prompt("user", domain_pddl=domain_text.strip(), examples=examples,
                                               description=row["natural_language"])}]


def done_ids(path: Path) -> set[str]:
    """Ids of pairs with a result in `path` (those whose LLM call failed are not done)."""
    if not path.exists():
        return set()
    done = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            raise PairsFormatError(f"{path}:{number}: a damaged result line; delete it to rerun that pair") from None
        if not record.get("llm_error"):
            done.add(str(record["id"]))
    return done


def score_pair(row: dict, llm, base: Path, rows: list[dict], shots: int, max_tokens: int | None = None) -> dict:
    """One pair: ask the LLM, score its problem; the record written to results.jsonl."""
    path = domain_file_for(row, base)
    domain_text = path.read_text(encoding="utf-8")
    domain = load_domain(path)
    record = {key: row.get(key) for key in ("id", "domain", "init", "goal", "init_is_abstract", "goal_is_abstract",
                                           "is_placeholder", "num_objects")}
    try:
        completion = llm.complete(messages_for(row, domain_text, _shots(rows, row, shots)), max_tokens=max_tokens,
                                  temperature=0.0)
    except ApbError as err:
        return {**record, "parseable": False, "solvable": False, "correct": False, "llm_error": str(err)}
    predicted = extract_problem_pddl(completion.text)
    usage = {"predicted": predicted, "input_tokens": completion.usage.input_tokens,
             "output_tokens": completion.usage.output_tokens, "cost_usd": completion.cost,
             "cached": completion.cached}
    try:
        result = assess(row["problem_pddl"], predicted, domain, placeholder=bool(row.get("is_placeholder")))
    except ApbError as err:  # the gold problem itself does not parse: the pair is broken, not the answer
        return {**record, "parseable": False, "solvable": False, "correct": False, "gold_error": str(err), **usage}
    return {**record, **result.to_dict(), "domain": row.get("domain"), **usage}


def run_pairs(pairs: str | Path, llm, out: str | Path, *, shots: int = 0, concurrency: int = 1,
              resume: bool = False, limit: int | None = None, max_tokens: int | None = None,
              progress: Callable[[dict], None] | None = None) -> RunSummary:
    """Scores `llm` on the pairs file (see the module docstring); OUT/results.jsonl gets one line per pair."""
    pairs = Path(pairs)
    rows = normalise(read_rows(pairs), str(pairs))[:limit]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    results = out / RESULTS_FILE
    if results.exists() and results.stat().st_size and not resume:
        raise PairsFormatError(f"{results} exists: pass --resume to continue that run, or choose another --out")
    done = done_ids(results) if resume else set()
    todo = [row for row in rows if row["id"] not in done]
    summary = RunSummary(skipped=len(rows) - len(todo), results=results)
    lock = threading.Lock()
    with open(results, "a", encoding="utf-8") as handle:
        def one(row: dict) -> None:
            try:
                record = score_pair(row, llm, pairs.parent, rows, shots, max_tokens)
            except Exception as err:  # a bug or a broken pair: recorded with the pair, never dropped
                record = {"id": row["id"], "domain": row.get("domain"), "parseable": False, "solvable": False,
                          "correct": False, "error": f"{type(err).__name__}: {err}"}
            with lock:
                handle.write(json.dumps(record) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
                summary.scored += 1
                summary.llm_errors += bool(record.get("llm_error"))
            if progress is not None:
                progress(record)

        if concurrency <= 1:
            for row in todo:
                one(row)
        else:
            with ThreadPoolExecutor(max_workers=concurrency) as pool:
                for future in [pool.submit(one, row) for row in todo]:
                    future.result()
    return summary
