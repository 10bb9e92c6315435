"""`apb bench llm-throughput`: how close LLM runs come to a model server's latency bound.

It starts its own OpenAI-compatible server (`apb.bench.llm_server`, a child process on 127.0.0.1 that answers every
request after `latency` seconds with the item's gold: the gold plan's next action, the ACP gold answer, the gold
PDDL problem), then runs the real commands as a user does, each a child process timed from start to exit (startup
included): `apb eval` (Act episodes on Blocksworld), `apb acp eval` (questions generated from Blocksworld) and
`apb nl2pddl eval` (Blocksworld's pairs, repeated under new ids up to the count asked), all at `--concurrency C`
with the answer cache off.

The latency bound of a run: latency x max(the most calls of one item, ceil(all calls / C)): no run can be faster,
however fast apb is. Printed per command: seconds, bound, bound/seconds (1.0 = at the bound), calls, the server's
peak of requests in flight, items that succeeded (gold answers: all of them), and apb's own CPU seconds per LLM call
(the command process's user+system time / calls). `workers` adds the scaling table: each command on `scale_items`
items with threads and with `--executor ray` at each worker count (`--concurrency W`; Ray: a local instance with W
CPUs, started by the command), and the CPU-heavy generators `apb acp generate` and `apb nl2pddl build` likewise.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from apb import __version__
from apb.bench.llm_server import AnswerTable, message_key
from apb.flags import positive_float, positive_int

DOMAIN = "blocksworld"
MODEL = "bench"
KINDS = ("eval", "acp eval", "nl2pddl eval")


# ---- the items and their gold answers ----------------------------------------------------------------------------
def episode_answers(problems: int, table: AnswerTable) -> None:
    """Markers (the task text of each problem's episode) -> the gold plan's actions in English, turn by turn."""
    from apb.agents.act import english_action
    from apb.datasets import resolve
    from apb.eval.episode import build_env
    from apb.eval.episode_specs import plan_episodes

    dataset = resolve(DOMAIN)
    for spec in plan_episodes([DOMAIN], ["act"], f"1-{problems}", 1, model=f"openai-compatible:http://127.0.0.1:1/v1:{MODEL}"):
        env, _ = build_env(spec)
        observation, info = env.reset(seed=spec.seed, options={"problem": spec.problem})
        plan = dataset.gold_plan(info["problem_id"]) or ()
        table.markers[observation.strip()] = [english_action(str(step), info) for step in plan]
        env.close()


def acp_questions(count: int, folder: Path, table: AnswerTable) -> Path:
    """`count` questions about Blocksworld in folder/questions.jsonl; their gold answers in `table`."""
    from apb.acp.evaluate import answer_text, build_messages
    from apb.acp.generate import generate
    from apb.acp.records import GROUPS

    per_group = math.ceil(count / (2 * len(GROUPS))) + 2
    questions, _ = generate(DOMAIN, count=per_group, seed=0)
    questions = questions[:count]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "questions.jsonl"
    path.write_text("".join(json.dumps(q.to_dict()) + "\n" for q in questions), encoding="utf-8")
    for q in questions:
        table.exact[message_key(build_messages(q, [], False)[-1]["content"])] = answer_text(q)
    return path


def nl2pddl_pairs(count: int, folder: Path, table: AnswerTable) -> Path:
    """`count` NL->PDDL pairs in folder/pairs.jsonl: every pair built from Blocksworld's problems, then copies of them
    under new ids (`<id>-copy<k>`) up to `count`; the gold problems in `table`."""
    from apb.engine.input_files import read_input
    from apb.nl2pddl.build import PAIRS_FILE, build_pairs, write_rows
    from apb.nl2pddl.runner import domain_file_for, messages_for

    built = build_pairs(DOMAIN, 10_000, folder)
    for row in built:
        domain_text = read_input(domain_file_for(row, folder), "domain file")
        answer = "```pddl\n" + row["problem_pddl"].strip() + "\n```"
        table.exact[message_key(messages_for(row, domain_text, [])[-1]["content"])] = answer
    rows = [dict(row, id=f"{row['id']}-copy{n // len(built)}" if n >= len(built) else row["id"])
            for n, row in ((n, built[n % len(built)]) for n in range(count))]
    write_rows(rows, folder / PAIRS_FILE)
    return folder / PAIRS_FILE


# ---- the server and the timed commands -----------------------------------------------------------------------------
class ServerProcess:
    """The scripted server (apb.bench.llm_server) as a child process (its CPU is not apb's)."""

    def __init__(self, answers: Path, latency: float) -> None:
        self.process = subprocess.Popen([sys.executable, "-m", "apb.bench.llm_server", "--latency", str(latency),
                                         "--answers", str(answers)], stdout=subprocess.PIPE, text=True)
        self.url = self.process.stdout.readline().strip()

    def stats(self, reset: bool = False) -> dict[str, int]:
        path = "/stats/reset" if reset else "/stats"
        with urllib.request.urlopen(self.url + path, timeout=10) as response:
            return json.loads(response.read())

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=10)


def timed(argv: list[str]) -> dict[str, Any]:
    """Runs `python -m apb ARGV` to its end: wall seconds, exit code, its CPU seconds (user + system)."""
    start = time.perf_counter()
    process = subprocess.Popen([sys.executable, "-m", "apb", *argv], stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return {"seconds": time.perf_counter() - start, "exit": process.returncode,
            "cpu_s": usage.ru_utime + usage.ru_stime, "stderr": stderr.strip()[-300:]}


def item_calls(kind: str, out: Path) -> tuple[list[int], int]:
    """(LLM calls per item, items that succeeded) from a finished run folder."""
    from apb.eval.items import EPISODES, RecordStore

    if kind == "eval":
        records = EPISODES.store(out).records().values()
        return [sum((r.get("llm_calls") or {}).values()) for r in records], sum(bool(r.get("success")) for r in records)
    records = RecordStore(out).records().values()
    ok = "official" if kind == "acp eval" else "correct"
    return [int(r.get("llm_calls") or 0) for r in records], sum(bool(r.get(ok)) for r in records)


def run_kind(kind: str, data: dict[str, Any], server: ServerProcess, out: Path, *, latency: float,
             concurrency: int, executor: str = "thread") -> dict[str, Any]:
    """One command against the server, timed; its row of the report."""
    spec = f"openai-compatible:{server.url}:{MODEL}"
    common = ["--llm", spec, "--concurrency", str(concurrency), "--cache", "off", "--executor", executor,
              "--out", str(out)]
    if kind == "eval":
        argv = ["eval", "--domains", DOMAIN, "--agents", "act", "--problems", f"1-{data['problems']}", "--seeds",
                str(data["seeds"]), "--no-progress", *common]
    elif kind == "acp eval":
        argv = ["acp", "eval", str(data["questions"]), "--no-progress", *common]
    else:
        argv = ["nl2pddl", "eval", str(data["pairs"]), *common]
    before = server.stats(reset=True)["requests"]
    result = timed(argv)
    after = server.stats()
    calls, ok = item_calls(kind, out)
    bound = latency * max(max(calls, default=0), math.ceil(sum(calls) / concurrency))
    total = sum(calls)
    return {"command": "apb " + kind, "executor": executor, "concurrency": concurrency, "items": len(calls),
            "ok": ok, "calls": total, "server_requests": after["requests"] - before,
            "peak_in_flight": after["peak_in_flight"], "seconds": round(result["seconds"], 2),
            "bound_s": round(bound, 2), "of_bound": round(bound / result["seconds"], 3) if result["seconds"] else 0,
            "cpu_ms_per_call": round(1000 * result["cpu_s"] / total, 2) if total else None,
            "exit": result["exit"], **({"stderr": result["stderr"]} if result["exit"] not in (0, 1) else {})}


def generator_rows(folder: Path, workers: tuple[int, ...], count: int) -> list[dict[str, Any]]:
    """`apb acp generate` and `apb nl2pddl build` (CPU only) with threads and with Ray at each worker count."""
    rows = []
    runs = [(executor, w) for w in workers for executor in ("thread", "ray")]
    for command, argv in (("apb acp generate", ["acp", "generate", "floortile", "--count", str(count)]),
                          ("apb nl2pddl build", ["nl2pddl", "build", "logistics", "--count", str(4 * count)])):
        outputs = {}
        for executor, n in runs:
            out = folder / f"gen-{command.split()[1]}-{executor}-{n}"
            result = timed([*argv, "--executor", executor, "--concurrency", str(n), "--out", str(out)])
            produced = sorted(p for p in out.rglob("*.jsonl"))
            outputs[(executor, n)] = b"".join(p.read_bytes() for p in produced)
            rows.append({"command": command, "executor": executor, "workers": n,
                         "seconds": round(result["seconds"], 2), "exit": result["exit"],
                         "same_as_threads": outputs[(executor, n)] == outputs[runs[0]]})
    return rows


def first_lines(path: Path, count: int, out: Path) -> Path:
    """The first `count` lines of a JSONL file, as a file of its own in `out` (domain files alongside)."""
    out.mkdir(parents=True, exist_ok=True)
    if (path.parent / "domains").is_dir() and not (out / "domains").exists():
        (out / "domains").symlink_to(path.parent / "domains")
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)[:count]
    (out / path.name).write_text("".join(lines), encoding="utf-8")
    return out / path.name


def scaling_rows(data: dict[str, Any], folder: Path, server: ServerProcess, workers: tuple[int, ...], items: int, *,
                 latency: float, kinds: tuple[str, ...], progress=None) -> list[dict[str, Any]]:
    """Every command on `items` items, with threads and with Ray, at each worker count."""
    small = {"problems": min(items, 16), "seeds": 1,
             "questions": first_lines(data["questions"], items, folder / "small-questions"),
             "pairs": first_lines(data["pairs"], items, folder / "small-pairs")}
    rows = []
    for n in workers:
        for executor in ("thread", "ray"):
            for kind in kinds:
                if progress is not None:
                    progress.print(f"apb {kind} --executor {executor} --concurrency {n} ({items} items) ...")
                out = folder / f"scale-{kind.replace(' ', '-')}-{executor}-{n}"
                rows.append(run_kind(kind, small, server, out, latency=latency, concurrency=n, executor=executor))
    return rows


def run_throughput_bench(*, latency: float = 1.0, concurrency: int = 64, episodes: int = 64, questions: int = 640,
                         pairs: int = 640, workers: tuple[int, ...] = (), generate_count: int = 4,
                         scale_items: int = 8, kinds: tuple[str, ...] = KINDS, progress=None) -> dict[str, Any]:
    """The report of `apb bench llm-throughput` (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="apb-llm-bench-") as tmp:
        folder = Path(tmp)
        table = AnswerTable()
        problems = min(episodes, 16)
        data: dict[str, Any] = {"problems": problems, "seeds": math.ceil(episodes / problems)}
        episode_answers(problems, table)
        data["questions"] = acp_questions(questions, folder / "questions", table)
        data["pairs"] = nl2pddl_pairs(pairs, folder / "pairs", table)
        answers = folder / "answers.json"
        answers.write_text(json.dumps(table.to_dict()), encoding="utf-8")
        server = ServerProcess(answers, latency)
        rows: list[dict[str, Any]] = []
        scaling: list[dict[str, Any]] = []
        try:
            for kind in kinds:
                if progress is not None:
                    progress.print(f"apb {kind} --concurrency {concurrency} ...")
                out = folder / f"run-{kind.replace(' ', '-')}"
                rows.append(run_kind(kind, data, server, out, latency=latency, concurrency=concurrency))
            if workers:
                scaling = scaling_rows(data, folder, server, workers, scale_items, latency=latency, kinds=kinds,
                                       progress=progress)
        finally:
            server.close()
        generators = generator_rows(folder, workers, generate_count) if workers else []
    return {"apb_version": __version__, "python": platform.python_version(), "cpu_count": os.cpu_count(),
            "load_1min": round(os.getloadavg()[0], 2), "latency_s": latency, "concurrency": concurrency,
            "episodes": data["problems"] * data["seeds"], "questions": questions, "pairs": pairs,
            "scale_items": scale_items, "rows": rows, "scaling": scaling, "generators": generators}


def print_throughput_report(report: dict[str, Any], console) -> None:
    from rich.table import Table

    table = Table(title=f"apb {report['apb_version']} LLM runs vs a {report['latency_s']:g} s server "
                        f"({report['cpu_count']} cores, load {report['load_1min']} at the end)")
    for column in ("command", "executor", "conc.", "items", "ok", "calls", "peak in flight", "seconds", "bound s",
                   "of bound", "apb CPU ms/call"):
        table.add_column(column, justify="left" if column in ("command", "executor") else "right", no_wrap=True)
    for r in report["rows"]:
        table.add_row(r["command"], r["executor"], str(r["concurrency"]), str(r["items"]), str(r["ok"]),
                      str(r["calls"]), str(r["peak_in_flight"]), f"{r['seconds']:.1f}", f"{r['bound_s']:.1f}",
                      f"{r['of_bound']:.2f}", "-" if r["cpu_ms_per_call"] is None else f"{r['cpu_ms_per_call']:.1f}")
    console.width = max(console.width, 120)
    console.print(table)
    if report["scaling"]:
        scale = Table(title=f"threads vs Ray workers, {report['scale_items']} items per command (a Ray run starts its "
                            "own local instance: that is in its time)")
        for column in ("command", "executor", "workers", "calls", "seconds", "bound s", "of bound"):
            scale.add_column(column, justify="left" if column in ("command", "executor") else "right")
        for r in report["scaling"]:
            scale.add_row(r["command"], r["executor"], str(r["concurrency"]), str(r["calls"]), f"{r['seconds']:.1f}",
                          f"{r['bound_s']:.1f}", f"{r['of_bound']:.2f}")
        console.print(scale)
    for r in report["rows"] + report["scaling"]:
        if r.get("stderr"):
            console.print(f"{r['command']} exited {r['exit']}: {r['stderr']}", markup=False, highlight=False)
    if report["generators"]:
        gen = Table(title="CPU-heavy generators: threads vs Ray workers")
        for column in ("command", "executor", "workers", "seconds", "same output as threads"):
            gen.add_column(column, justify="left" if column in ("command", "executor") else "right")
        for r in report["generators"]:
            gen.add_row(r["command"], r["executor"], str(r["workers"]), f"{r['seconds']:.1f}",
                        "yes" if r["same_as_threads"] else "NO")
        console.print(gen)


def _workers(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated worker counts like 1,2, got {text!r}") from None
    if any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"worker counts must be positive, got {text!r}")
    return values


def cmd_bench_llm_throughput(args: argparse.Namespace) -> int:
    from apb.bench.output import show_report
    from apb.console import make_console

    report = run_throughput_bench(latency=args.latency, concurrency=args.concurrency, episodes=args.episodes,
                                  questions=args.questions, pairs=args.pairs, workers=args.ray_workers,
                                  generate_count=args.generate_count, scale_items=args.scale_items,
                                  progress=None if args.json else make_console(stderr=True))
    return show_report(report, print_throughput_report, args.json)


def add_bench_llm_throughput_parser(bench_subparsers) -> argparse.ArgumentParser:
    """Adds `apb bench llm-throughput` to the `apb bench` subparsers."""
    b = bench_subparsers.add_parser("llm-throughput", help="apb eval / acp eval / nl2pddl eval against a local "
                                    "server with a set latency: time vs the latency bound, apb's CPU per call")
    b.add_argument("--latency", type=positive_float, default=1.0, help="the server's seconds per answer (default 1)")
    b.add_argument("--concurrency", type=positive_int, default=64, help="--concurrency of each run (default 64)")
    b.add_argument("--episodes", type=positive_int, default=64, help="Act episodes of apb eval (default 64)")
    b.add_argument("--questions", type=positive_int, default=640, help="questions of apb acp eval (default 640)")
    b.add_argument("--pairs", type=positive_int, default=640,
                   help="pairs of apb nl2pddl eval (default 640: Blocksworld's, repeated under new ids)")
    b.add_argument("--ray-workers", type=_workers, default=(), metavar="LIST",
                   help="add the scaling table: every command (and the generators) with threads and with "
                        "--executor ray at these worker counts, e.g. 1,2 (needs apb[ray])")
    b.add_argument("--scale-items", type=positive_int, default=8,
                   help="with --ray-workers: items per command in the scaling table (default 8)")
    b.add_argument("--generate-count", type=positive_int, default=4,
                   help="with --ray-workers: apb acp generate floortile --count N, apb nl2pddl build logistics "
                        "--count 4N (default 4)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench_llm_throughput)
    return b
