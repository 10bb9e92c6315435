"""`apb acp generate | eval | report | answer | audit`: ACPBench-style reasoning questions with proved gold.

`add_parsers(commands)` adds the command to `apb`. Exit codes (as every command): 0 done, 1 problems
found (eval: questions whose LLM call failed; audit: provably wrong gold), 2 bad input (one message), 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import replace
from pathlib import Path

from rich.markup import escape
from rich.table import Table

from apb.acp.errors import ACPError
from apb.acp.records import FORMATS, TASKS
from apb.console import errors_exit, make_console
from apb.exit_codes import EXIT_NEGATIVE, EXIT_OK
from apb.flags import (
    DEFAULT_CONCURRENCY,
    MAX_GENERATED,
    add_executor,
    add_item_run_flags,
    add_set_overwrite_flags,
    at_most,
    non_negative_int,
    positive_int,
    set_overwrite_options,
)

out = make_console()
err = make_console(stderr=True)


def _names(value: str, allowed: tuple[str, ...], what: str) -> list[str]:
    if value == "all":
        return list(allowed)
    names = [v.strip().lower() for v in value.split(",") if v.strip()]
    if not names:
        raise ACPError(f"--{what}s {value!r} names no {what}: use {', '.join(allowed)} or all")
    for name in names:
        if name not in allowed:
            raise ACPError(f"unknown {what} {name!r}: use {', '.join(allowed)} or all")
    return names


def cmd_generate(args: argparse.Namespace) -> int:
    from apb.acp.generate import generate
    from apb.acp.question_files import write_questions
    from apb.eval.rundir import open_run_dir, prepare_run_dir

    tasks, formats = _names(args.tasks, TASKS, "task"), _names(args.formats, FORMATS, "format")
    settings = {"dataset": args.dataset, "tasks": tasks, "formats": formats, "count": args.count, "seed": args.seed,
                "view": args.view, "description": args.description, "budget": args.budget,
                "official_only": args.official_only}
    folder = {"kind": "acp-questions", "settings": settings, "resumable": False, **set_overwrite_options(args)}
    prepare_run_dir(args.out, create=False, **folder)
    # the lock is held while generating: a second generate into the same folder is refused at once
    with open_run_dir(args.out, **folder):
        questions, stats = generate(args.dataset, tasks=tasks, formats=formats, count=args.count, seed=args.seed,
                                    view=args.view, description=args.description, budget=args.budget,
                                    executor=args.executor, concurrency=args.concurrency,
                                    time_limit=args.time_limit or None, official_only=args.official_only)
        paths = write_questions(questions, args.out)
    table = Table("task", "seconds", "questions")
    for task, seconds in stats.seconds.items():
        made = sum(n for g, n in stats.questions.items() if g.startswith(_group_prefix(task)))
        table.add_row(task, f"{seconds:.2f}", str(made))
    out.print(table)
    out.print(f"{len(questions)} questions from {len(stats.problems)} problem(s) -> {escape(str(paths[0]))} and "
              f"{escape(str(Path(args.out) / 'acpbench'))}/")
    for group, missing in stats.short.items():
        err.print(f"[yellow]note[/yellow]: {group}: {missing} fewer than asked (no state gave a question whose gold "
                  "is decided within the budget)")
    for skipped in stats.skipped:
        err.print(f"[yellow]skipped[/yellow] {escape(skipped)}")
    _report_official(stats, questions)
    for group, made in stats.timed_out.items():
        err.print(f"[red]error[/red]: {group} stopped by the --time-limit safety net after {made} question(s): this "
                  "file is not the one these settings give; raise --time-limit (or lower --budget) and run again")
    return EXIT_NEGATIVE if stats.timed_out else EXIT_OK


def _report_official(stats, questions) -> None:
    """Which generative records ACPBench's own code cannot score (needs the acp-official extra), by group."""
    if stats.official_check is not None:
        err.print(f"[yellow]note[/yellow]: not checked whether ACPBench's code can score the generative records "
                  f"({escape(stats.official_check)})")
        return
    if stats.left_out:
        err.print(f"[yellow]note[/yellow]: {stats.left_out} generative record(s) ACPBench's code cannot score left out "
                  "(--official-only)")
    groups = {str(q.id): q.group for q in questions}
    by_reason: dict[tuple[str, str], int] = {}
    for qid, why in stats.unjudgeable.items():
        key = (groups.get(qid, "left out"), why)
        by_reason[key] = by_reason.get(key, 0) + 1
    for (group, why), n in sorted(by_reason.items()):
        err.print(f"[yellow]note[/yellow]: {group}: {n} record(s) ACPBench's code cannot score: {escape(why)}")


def _group_prefix(task: str) -> str:
    from apb.acp.records import GROUPS

    return GROUPS[task] + "_"


def cmd_eval(args: argparse.Namespace) -> int:
    import sys

    from apb.acp.evaluate import evaluate
    from apb.acp.question_files import read_questions
    from apb.eval.rundir import check_writable
    from apb.llm import make_llm, request_cap

    target = Path(args.out or (Path(args.questions) if Path(args.questions).is_dir() else
                               Path(args.questions).parent) / "eval")
    check_writable(target)
    questions = read_questions(args.questions, scored_by="apb acp eval")
    if not questions:
        raise ACPError(f"{args.questions}: no questions")
    examples = (read_questions(args.shots_from, scored_by="--shots-from (its examples show their answers)")
                if args.shots_from else None)
    cap = request_cap(args.llm, args.llm_concurrency, args.concurrency)
    llm = make_llm(args.llm, cache=args.cache, concurrency=cap)
    summary = evaluate(questions, llm, target, shots=args.shots,
                       cot=args.cot, concurrency=args.concurrency, resume=args.resume, overwrite=args.overwrite,
                       progress=not args.no_progress and sys.stderr.isatty(), examples=examples,
                       executor=args.executor, llm_concurrency=args.llm_concurrency, cache=args.cache)
    answered = max(summary["answered"], 1)
    cost = "cost unknown" if summary["cost_usd"] is None else f"${summary['cost_usd']:.4f}"
    out.print(f"{summary['total']} question(s): {summary['ran']} asked now, {summary['skipped']} done before; "
              f"{summary['answered']} answered: official {summary['official'] / answered:.1%}, sound "
              f"{summary['sound'] / answered:.1%}; {summary['errors']} LLM error(s) (not scored); {cost} -> "
              f"{escape(str(target / 'results.jsonl'))}")
    return errors_exit(err, summary["errors"], "question(s)", "an LLM error")


def cmd_report(args: argparse.Namespace) -> int:
    from apb.acp.report import markdown, write_report

    summary, paths = write_report(args.dirs, args.out)
    out.print(markdown(summary))
    out.print(f"-> {escape(str(paths[0]))}, {escape(str(paths[1]))}")
    return EXIT_OK


def cmd_answer(args: argparse.Namespace) -> int:
    """Writes one {"id", "answer", "text"} line per question: `oracle` echoes the file's gold (a file without gold is
    refused), `solver` computes the answer from the question's PDDL, or its English for the release's bool/MCQ
    records, without reading the gold (a held-out file without `answer` is answered too). Undecided questions are
    asked again at larger budgets and reported per task (`--escalate`). Exit 1 when a generative question is left
    undecided."""
    from apb.acp.english.generated import attach_domains
    from apb.acp.importer import require_gold
    from apb.acp.oracle import AGENTS, agent_answer
    from apb.acp.question_files import read_questions

    if args.agent not in AGENTS:
        raise ACPError(f"unknown agent {args.agent!r}: use {', '.join(AGENTS)}")
    from apb.eval.rundir import check_writable

    target = check_writable(args.out, folder=False)
    questions = read_questions(args.file)
    if args.agent == "oracle":
        require_gold(questions, args.file, "the oracle agent (it echoes the gold)")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle = open(target, "w", encoding="utf-8")  # noqa: SIM115 - closed below, after every line is written
    except OSError as error:
        raise ACPError(f"--out {target}: cannot write there: {error.strerror or error}") from None
    if args.budget is not None:
        questions = [replace(q, budget=args.budget) for q in questions]
    if args.agent == "solver":  # English-only records apb wrote: read with the wording of their domain
        questions = attach_domains(questions, [_domain_of(source, args.description) for source in args.domain or []])
    undecided = []
    with handle:
        for q in questions:
            found = agent_answer(args.agent, q)
            if found is None:
                undecided.append(q)
                continue
            answer, text = found
            handle.write(json.dumps({"id": q.id, "answer": answer, "text": text}) + "\n")
    missing = sum(q.format == "gen" for q in undecided)
    skipped = len(undecided) - missing
    note = f"; {missing} generative question(s) undecided within the budget" if missing else ""
    note += (f"; {skipped} bool/MCQ question(s) not answered (English the reader of apb.acp.english cannot read, "
             "or a statement undecided within the budget)") if skipped else ""
    out.print(f"{len(questions) - missing - skipped} answers -> {escape(str(target))}{note}")
    if undecided and args.agent == "solver" and args.escalate:
        _budget_report(undecided, args.escalate)
    return EXIT_NEGATIVE if missing else EXIT_OK


def _domain_of(source: str, description: str) -> tuple[str, str, str | None]:
    """(PDDL text, description, domain file) of a --domain (bundled name, dataset folder or problem file)."""
    from apb.acp.generate import resolve_dataset

    dataset = resolve_dataset(source)
    file = dataset.domain_file
    return dataset.domain_text(), description, str(file) if file else None


def _budget_report(undecided: list, steps: int) -> None:
    """Per task and format, how many undecided questions a larger --budget decides (apb.acp.budget)."""
    from apb.acp.budget import escalate, summary_rows
    from apb.acp.solver import solve_question

    found = {}
    for budget in sorted({q.budget for q in undecided}):
        found.update(escalate([q for q in undecided if q.budget == budget], solve_question, budget, steps))
    largest = max(q.budget for q in undecided) * 4 ** steps
    table = Table("task", "form", "undecided", "decided with --budget", f"still undecided at {largest}",
                  title="undecided questions")
    for task, fmt, count, by in summary_rows(undecided, found):
        decided = ", ".join(f"{n} at {b}" for b, n in sorted((b, n) for b, n in by.items() if b is not None))
        table.add_row(task, fmt, str(count), decided or "-", str(by.get(None, 0)))
    err.print(table)


def cmd_audit(args: argparse.Namespace) -> int:
    from apb.acp.audit import audit, replays
    from apb.acp.importer import require_gold
    from apb.acp.question_files import read_questions
    from apb.eval.rundir import check_writable

    if args.json:
        check_writable(args.json, what="--json", folder=False)
    questions = read_questions(args.file)
    generative = [q for q in questions if q.format == "gen"]
    require_gold(generative, args.file, "apb acp audit")
    if not generative:
        raise ACPError(f"{args.file}: no generative questions to audit (bool and MCQ records carry no PDDL)")
    findings = audit(generative)
    wrong = [f for f in findings if f.kind == "wrong"]
    notes = [f for f in findings if f.kind == "note"]
    by_id = {q.id: q for q in generative}
    failed = 0
    for finding in findings:
        colour = {"wrong": "red", "note": "cyan"}.get(finding.kind, "yellow")
        replayed = replays(by_id[finding.id], finding) if finding.kind == "wrong" else None
        failed += replayed is False
        tag = {True: " [green](proof replays)[/green]",
               False: " [red](the proof does not replay)[/red]"}.get(replayed, "")
        out.print(f"[{colour}]{finding.kind}[/{colour}] {finding.group} {finding.id} ({escape(finding.domain)}): "
                  f"{escape(finding.message)}{tag}")
        if finding.proof:
            out.print(f"  proof: {escape(json.dumps(finding.proof)[:600])}")
    if args.json:
        Path(args.json).write_text(json.dumps([f.to_dict() for f in findings], indent=1) + "\n", encoding="utf-8")
    out.print(f"{len(generative)} generative question(s) checked: {len({f.id for f in wrong})} with provably wrong "
              f"gold ({len(wrong)} finding(s), {failed} whose proof does not replay), {len({f.id for f in notes})} "
              f"whose gold misses correct answers, {len(findings) - len(wrong) - len(notes)} not checkable")
    return EXIT_NEGATIVE if wrong else EXIT_OK


def add_parsers(commands) -> None:
    """Adds `apb acp ...` to the `apb` command (see apb.cli.Commands); `apb acp export` is the integrations'."""
    from apb.acp.space import DEFAULT_BUDGET, TIME_LIMIT

    p = commands.add_parser("acp")
    acp_sub = commands.add_subparsers(p, dest="acp", metavar="ACTION", required=True)

    g = acp_sub.add_parser("generate", help="questions with proved gold from a bundled domain or dataset folder")
    g.add_argument("dataset", help="bundled domain name or dataset folder")
    g.add_argument("--tasks", default="all", help=f"comma-separated: {','.join(TASKS)} (default all)")
    g.add_argument("--formats", default="all", help="comma-separated: bool,mcq,gen (default all)")
    g.add_argument("--count", type=at_most(MAX_GENERATED), default=10,
                   help=f"questions per task and format (default 10, at most {MAX_GENERATED})")
    g.add_argument("--out", required=True, help="folder for questions.jsonl and acpbench/<task>/test.<fmt>.json "
                                                "(must be empty unless --overwrite)")
    add_set_overwrite_flags(g, "questions")
    g.add_argument("--view", choices=("nl", "pddl"), default="nl", help="wording: English (nl) or PDDL")
    g.add_argument("--description", default="curated", help="NL templates: curated | rule | path of a description")
    g.add_argument("--seed", type=non_negative_int, default=0)
    g.add_argument("--budget", type=positive_int, default=DEFAULT_BUDGET,
                   help="states enumerated at most per state space")
    g.add_argument("--concurrency", type=positive_int, default=DEFAULT_CONCURRENCY,
                   help=f"tasks generated at a time (default {DEFAULT_CONCURRENCY}; with --executor ray: Ray workers)")
    g.add_argument("--official-only", action="store_true",
                   help="leave out the generative records ACPBench's own code cannot score (needs apb[acp-official])")
    g.add_argument("--time-limit", type=non_negative_int, default=TIME_LIMIT,
                   help=f"seconds per task and format, a safety net only: a group it stops is named and the command "
                        f"exits 1 (default {TIME_LIMIT}; 0: none)")
    add_executor(g, "tasks")
    g.set_defaults(func=cmd_generate)

    e = acp_sub.add_parser("eval", help="ask an LLM every question; results.jsonl with both scorers, resumable")
    e.add_argument("questions", help="questions.jsonl, an ACPBench .json[.gz] file, or a folder of them")
    e.add_argument("--llm", required=True, help="LLM spec: openai:<model>, anthropic:<model>, local, scripted:<file>")
    e.add_argument("--shots", type=non_negative_int, default=2,
                   help="examples per prompt, from the same group (default 2)")
    e.add_argument("--shots-from", help="take the examples from these questions (e.g. ACPBench's dev files)")
    e.add_argument("--cot", action="store_true", help="ask for step-by-step reasoning before 'Answer:'")
    add_item_run_flags(e, "questions", at_once="questions at a time", where="--out",
                       skip="skip answered questions, retry LLM errors",
                       out="output folder (default: eval/ next to the questions)")
    e.add_argument("--cache", default="rw", choices=("rw", "replay", "off"), help="LLM answer cache mode")
    e.add_argument("--no-progress", action="store_true")
    e.set_defaults(func=cmd_eval)

    r = acp_sub.add_parser("report", help="accuracy per task x format x domain with standard errors")
    r.add_argument("dirs", nargs="+", metavar="DIR", help="folders (or results.jsonl files) of apb acp eval")
    r.add_argument("--out", help="folder for acp_summary.json and acp_report.md (default: the first DIR)")
    r.set_defaults(func=cmd_report)

    a = acp_sub.add_parser("answer", help="answers in ACPBench's format from an agent (solver or oracle)")
    a.add_argument("file", help="questions.jsonl, an ACPBench file, or a folder")
    a.add_argument("--agent", default="oracle", help="solver: computed from the PDDL, never from the gold; oracle: "
                   "the file's gold echoed (default oracle)")
    a.add_argument("--out", required=True, help="ANSWERS.jsonl: one {\"id\", \"answer\", \"text\"} per line")
    a.add_argument("--budget", type=positive_int, default=None,
                   help=f"solver: states enumerated at most per state space (default: each question's own, "
                        f"{DEFAULT_BUDGET} for ACPBench's files)")
    a.add_argument("--escalate", type=non_negative_int, default=2,
                   help="solver: ask undecided questions again at --budget x 4, x 16, ... (this many steps; 0: "
                        "never) and report per task which budget decides them (default 2)")
    a.add_argument("--domain", action="append", metavar="SOURCE",
                   help="solver: a domain whose apb wording the English-only bool/MCQ records may be in (bundled "
                        "name or dataset folder, as given to apb acp generate; repeatable). The domains of the "
                        "files' generative records are tried too")
    a.add_argument("--description", default="curated",
                   help="solver: the NL templates --domain's records were worded with (apb acp generate's "
                        "--description; default curated)")
    a.set_defaults(func=cmd_answer)

    u = acp_sub.add_parser("audit", help="check a generative file's gold with the engine; list provably wrong gold "
                           "(exit 1 when there is some)")
    u.add_argument("file", help="an ACPBench <task>/test.gen.json[.gz] file, questions.jsonl, or a folder")
    u.add_argument("--json", help="also write the findings to this JSON file")
    u.set_defaults(func=cmd_audit)
