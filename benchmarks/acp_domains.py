"""ACPBench's questions on IPC domains the release never had: `apb acp generate` per domain, then the solver on the
ACPBench-format files with the gold removed, judged by apb's reproduction of the official scorer and (with
`--official-code`) by ACPBench's own evaluation code.

    nice python benchmarks/acp_domains.py [--domains barman-opt11-strips,...] [--count 8] [--out DIR]
                                          [--official-code] [--markdown] [--twice] [--list]

Domains are folders of ../shared/reference/ipc-classical (default: the twelve below, none among ACPBench's 13).
Prints one row per domain: the fewest records of any task and form (every one of the 22 is counted), the records,
how many the solver answers (bool, MCQ and generative, read from the English apb wrote for bool/MCQ), how many
answers apb's official scorer accepts, how many ACPBench's code can judge and accepts (its parser or grounding
fails on some domains and states, or its tarski model of the problem cannot be built: a rejection then is not a
judgement), and the seconds generation and answering take.
`--list` names every unanswered record and every rejected answer (and every group the wall-clock safety net cut);
`--twice` generates each domain a second time and says whether every file is byte-identical. With
`--official-code` ACPBench's code also judges every generative gold (but just's, a removal rather than an answer) as an
answer; `--golds-only` does only that, on the folders a run left under `--out`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from apb.acp import generate
from apb.acp.acceptance import judge
from apb.acp.english.generated import attach_domains
from apb.acp.importer import read_json_array
from apb.acp.oracle import oracle_answer
from apb.acp.question_files import read_questions, write_questions
from apb.acp.records import TASKS, group_name, task_formats
from apb.acp.scorers import release_text
from apb.acp.solver import solve_question

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from acp_solver import official_code  # noqa: E402 - ACPBench's released scorer (tests/acp_official.py)

IPC = ROOT.parent / "shared" / "reference" / "ipc-classical"
DOMAINS = ("barman-opt11-strips", "childsnack-opt14-strips", "elevators-opt08-strips", "nomystery-opt11-strips",
           "parking-opt11-strips", "pegsol-opt11-strips", "pipesworld-notankage", "scanalyzer-opt11-strips", "tpp",
           "transport-opt08-strips", "woodworking-opt08-strips", "storage")


def tarski_reads(oracle, record: dict) -> bool:
    """Whether the official code's tarski model of a generative record's problem can be built (its just and areach
    checks score every answer wrong when it cannot: `utils.tarski_utils.get_tarski_problem` returns None)."""
    import contextlib
    import io

    oracle._modules()
    from utils.tarski_utils import get_tarski_problem

    with contextlib.redirect_stdout(io.StringIO()):
        return get_tarski_problem(record["PDDL_domain"].lower(), record["PDDL_problem"].lower()) is not None


def digest(folder: Path) -> str:
    """One SHA-256 over every file a generation wrote (names and bytes)."""
    total = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        total.update(str(path.relative_to(folder)).encode() + b"\0" + path.read_bytes())
    return total.hexdigest()


def released_records(folder: Path) -> dict:
    """{record id: record} of every ACPBench-format file under `folder`."""
    records: dict = {}
    for path in folder.rglob("*.json"):
        records.update({r["id"]: r for r in read_json_array(path)})
    return records


def official_verdict(oracle, record: dict, q, text: str) -> tuple[bool | None, str]:
    """ACPBench's code on one answer: (True/False, "") or (None, why it cannot judge: its parser or grounding
    fails, or its tarski model of a generative record's problem (tl.STRIPS) cannot be built)."""
    try:
        ok = oracle.verdict(record, q.task, q.format, text)
    except Exception as error:  # the official code cannot judge it (tarski's parser, grounding)
        return None, f"{type(error).__name__}: {str(error)[:100]}"
    if not ok and q.format == "gen" and not tarski_reads(oracle, record):
        return None, "tarski cannot build the problem"
    return bool(ok), ""


def judge_golds(folder: Path, oracle, listed: list) -> dict:
    """ACPBench's code on the gold of every generative record of a generated folder (its acpbench/ files), in
    ACPBench's answer format (`apb.acp.oracle`): {"gold_judged", "gold_accepted"}. just is left out: its released
    gold is the removal, not an answer (no scorer accepts it as one)."""
    counts: Counter = Counter()
    records = released_records(folder / "acpbench")
    for q in read_questions(folder / "acpbench"):
        if q.format != "gen" or q.task == "just":
            continue
        text = release_text(q, oracle_answer(q))
        ok, _ = official_verdict(oracle, records[q.id], q, text)
        if ok is None:
            continue  # the official code cannot judge it: a rejection would not be a judgement
        counts["gold_judged"] += 1
        counts["gold_accepted"] += bool(ok)
        if not ok:
            listed.append((folder.name, q.group, q.id, "official code rejects the gold", text[:80]))
    return {"gold_judged": counts["gold_judged"], "gold_accepted": counts["gold_accepted"]}


def run_domain(name: str, count: int, out: Path, oracle, listed: list, twice: bool = False) -> dict:
    """Generate (twice with `twice`: the same bytes?), answer with the gold removed, judge: the counts of one
    domain."""
    start = time.perf_counter()
    questions, stats = generate(str(IPC / name), count=count, seed=0)
    write_questions(questions, out / name)
    generated = time.perf_counter() - start
    if stats.timed_out:  # the wall-clock safety net cut a group: this file is not the deterministic one
        listed.append((name, "-", "-", "timed out", ", ".join(sorted(stats.timed_out))))
    same = "-"
    if twice:
        again, _ = generate(str(IPC / name), count=count, seed=0)
        write_questions(again, out / f"{name}.again")
        same = "yes" if digest(out / name) == digest(out / f"{name}.again") else "NO"
    folder = out / name / "acpbench"
    read = read_questions(folder)
    records = released_records(folder)
    gold = {q.id: q.answer for q in read}
    blind = attach_domains([replace(q, answer=None, held_out=True) for q in read])
    counts: Counter = Counter()
    per_group = Counter(q.group for q in read)
    start = time.perf_counter()
    for q in blind:
        counts["records"] += 1
        found = solve_question(q)
        if found is None:
            listed.append((name, q.group, q.id, "unanswered", ""))
            continue
        counts["answered"] += 1
        q = replace(q, answer=gold[q.id], held_out=False)
        outcome = judge(q, found[1])
        counts["accepted"] += outcome.kind == "accepted"
        counts["proved"] += outcome.kind in ("gold-wrong", "official-incomplete")
        if outcome.kind != "accepted":
            listed.append((name, q.group, q.id, outcome.kind, outcome.reason[:160]))
        if oracle is not None:
            ok, why = official_verdict(oracle, records[q.id], q, found[1])
            if ok is None:
                counts["unjudgeable"] += 1
                listed.append((name, q.group, q.id, "official code cannot judge", why))
                continue
            counts["judged"] += 1
            counts["official"] += bool(ok)
            if not ok:
                listed.append((name, q.group, q.id, "official code rejects", found[1][:80]))
    if oracle is not None:
        counts.update(judge_golds(out / name, oracle, listed))
    groups = [group_name(t, f) for t in TASKS for f in task_formats(t)]
    return {"domain": name, "fewest": min(per_group.get(g, 0) for g in groups),
            "short": sorted(g for g in groups if per_group.get(g, 0) < count), **counts,
            "timed_out": sorted(stats.timed_out), "same_file_twice": same,
            "generate_s": round(generated, 1), "answer_s": round(time.perf_counter() - start, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--domains", default=",".join(DOMAINS))
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--out", default="/tmp/apb_acp_domains")
    parser.add_argument("--official-code", action="store_true")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--twice", action="store_true", help="generate each domain twice and compare the files")
    parser.add_argument("--json", help="also write the rows to this JSON file")
    parser.add_argument("--golds-only", action="store_true", help="with --official-code: only judge the generative "
                        "golds of the domains already generated under --out")
    args = parser.parse_args()
    if args.golds_only:
        oracle, listed = official_code(), []
        for name in args.domains.split(","):
            row = judge_golds(Path(args.out) / name, oracle, listed)
            print(f"{name}: ACPBench's code judges {row['gold_judged']} generative golds and accepts "
                  f"{row['gold_accepted']}", flush=True)
        for item in listed:
            print("   ", *item)
        return
    oracle = official_code() if args.official_code else None
    rows, listed = [], []
    head = ("domain", "fewest per task/form", "records", "answered", "accepted (apb)", "official code judges",
            "official code accepts", "official code accepts gold", "same file twice", "generate s", "answer s")
    if args.markdown:
        print("| " + " | ".join(head) + " |\n|---|" + "---:|" * (len(head) - 1))
    for name in args.domains.split(","):
        row = run_domain(name, args.count, Path(args.out), oracle, listed, args.twice)
        rows.append(row)
        cells = (name, row["fewest"], row["records"], row["answered"], row["accepted"],
                 row.get("judged", "-"), row.get("official", "-"),
                 f"{row['gold_accepted']}/{row['gold_judged']}" if "gold_judged" in row else "-",
                 row["same_file_twice"], row["generate_s"], row["answer_s"])
        print(("| " + " | ".join(map(str, cells)) + " |") if args.markdown else "  ".join(map(str, cells)),
              flush=True)
        if row["short"]:
            print(f"    short of {args.count}: {', '.join(row['short'])}", flush=True)
    total = Counter()
    for row in rows:
        total.update({k: v for k, v in row.items() if isinstance(v, int) and k != "fewest"})
    judged = total["judged"]
    print(f"total: {total['answered']}/{total['records']} answered, apb's official scorer accepts {total['accepted']}"
          + (f"; ACPBench's code judges {judged} and accepts {total['official']} ({total['official'] / judged:.1%})"
             if judged else ""))
    if args.list:
        for item in listed:
            print("   ", *item)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    main()
