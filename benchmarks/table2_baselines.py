"""The random and BrFS columns of AutoPlanBench's Table 2, reproduced with `apb eval` and `apb report` on its own data.

    python benchmarks/table2_baselines.py [--reference DIR] [--out runs/table2-baselines] [--seeds 5]
                                          [--bfs-timeout 300] [--concurrency 2] [--resume]

It runs, over the 20 test problems of each of the 12 AutoPlanBench folders (split `test`: `orig` without the copy
of the few-shot example), the random agent (24 steps, `--seeds` runs) and breadth-first search (once; the paper gave
its planners 30 min), the same as

    apb eval --config <this run's YAML> && apb report OUT --out OUT/report

then prints coverage next to the paper's figures (rnd: Σ 28.8 of 240, mean of 5 runs; BrFS: 238 of 240) and, for
each domain, how often AutoPlanBench's gold plan (said to be optimal) is longer than the BFS plan (which is).
The reference folder defaults to $APB_REFERENCE, else ../shared/reference/autoplanbench next to the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

from apb.cli import main as apb
from apb.domains.paper import PAPER_DOMAIN_OF_FOLDER, table2_figure
from apb.eval.metrics import load_run

FOLDERS = ["blocksworld", "logistics", "depot", "ferry", "floortile", "goldminer", "grid", "gripper",
           "movie-complex", "rovers", "satellite", "visitall"]  # the paper's Table 2 order


def default_reference() -> Path:
    configured = os.environ.get("APB_REFERENCE")
    if configured:
        return Path(configured).expanduser()
    return Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "autoplanbench"


def run(reference: Path, out: Path, folders: list[str], *, seeds: int, bfs_timeout: float, concurrency: int,
        resume: bool) -> float:
    """`apb eval` then `apb report`; returns the eval's wall-clock seconds."""
    missing = [name for name in folders if not (reference / name / "domain.pddl").is_file()]
    if missing:
        sys.exit(f"{reference}: no AutoPlanBench folder(s) {', '.join(missing)}; pass --reference DIR "
                 "(the folder holding blocksworld/, logistics/, ...)")
    config = {"domains": [str(reference / name) for name in folders], "agents": ["random", "bfs"],
              "problems": "all", "split": "test", "seeds": seeds, "concurrency": concurrency, "out": str(out),
              "agent_options": {"bfs": {"timeout": bfs_timeout}}}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "table2.yaml"
        path.write_text(yaml.safe_dump(config, sort_keys=False), encoding="utf-8")
        start = time.perf_counter()
        code = apb(["eval", "--config", str(path), *(["--resume"] if resume else [])])
        seconds = time.perf_counter() - start
    if code:
        sys.exit(code)
    code = apb(["report", str(out), "--out", str(out / "report")])
    if code:
        sys.exit(code)
    return seconds


def comparison(out: Path, folders: list[str]) -> list[dict]:
    """Per domain: our coverage and the paper's, BFS times, and gold plans longer than the BFS plan."""
    summary = json.loads((out / "report" / "summary.json").read_text(encoding="utf-8"))
    rows = {(r["domain"], r["agent"]): r for r in summary["rows"]}
    episodes = load_run([out])
    result = []
    for name in folders:
        paper = PAPER_DOMAIN_OF_FOLDER.get(name, name)
        bfs = [e for e in episodes if e.header.get("domain") == name and e.header.get("agent") == "bfs"]
        solved = [e for e in bfs if e.success]
        longer = [e for e in solved if (e.header.get("gold_plan_length") or 0) > e.footer["steps"]]
        rnd, brfs = rows.get((name, "random"), {}), rows.get((name, "bfs"), {})
        result.append({
            "domain": name, "random": rnd.get("solved_mean"), "random_se": rnd.get("solved_se"),
            "random_paper": table2_figure(paper, "random"), "bfs": brfs.get("solved"),
            "bfs_paper": table2_figure(paper, "bfs"), "problems": brfs.get("problems"),
            "bfs_seconds_median": statistics.median(e.footer["seconds"] for e in bfs) if bfs else None,
            "bfs_seconds_max": max((e.footer["seconds"] for e in bfs), default=None),
            "gold_longer": len(longer), "gold_extra_steps": sum(e.header["gold_plan_length"] - e.footer["steps"]
                                                                for e in longer)})
    return result


def show(rows: list[dict], seconds: float | None) -> None:
    def num(value, digits=1):
        return "–" if value is None else (str(int(value)) if float(value).is_integer() else f"{value:.{digits}f}")

    print(f"{'domain':<14}{'rnd (ours)':>14}{'rnd (paper)':>13}{'BrFS (ours)':>13}{'BrFS (paper)':>14}"
          f"{'BFS s med/max':>16}{'gold > BFS':>12}")
    for r in rows:
        rnd = num(r["random"]) + (f" ± {r['random_se']:.1f}" if r["random_se"] is not None else "")
        times = f"{num(r['bfs_seconds_median'], 2)}/{num(r['bfs_seconds_max'], 1)}"
        print(f"{r['domain']:<14}{rnd:>14}{num(r['random_paper']):>13}{num(r['bfs']):>13}{num(r['bfs_paper']):>14}"
              f"{times:>16}{r['gold_longer']:>12}")
    total = {k: sum(r[k] or 0 for r in rows) for k in ("random", "random_paper", "bfs", "bfs_paper", "problems",
                                                       "gold_longer", "gold_extra_steps")}
    print(f"{'sum':<14}{num(total['random']):>14}{num(total['random_paper']):>13}{num(total['bfs']):>13}"
          f"{num(total['bfs_paper']):>14}{'':>16}{total['gold_longer']:>12}")
    print(f"{total['problems']} problems; gold plans longer than the BFS optimum: {total['gold_longer']} "
          f"({total['gold_extra_steps']} extra steps in all)" + (f"; apb eval took {seconds:.0f} s" if seconds else ""))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, default=default_reference(),
                        help="the folder holding AutoPlanBench's datasets (default: $APB_REFERENCE or "
                             "../shared/reference/autoplanbench)")
    parser.add_argument("--out", type=Path, default=Path("runs/table2-baselines"))
    parser.add_argument("--domains", default=",".join(FOLDERS), help="comma-separated folders (default: all 12)")
    parser.add_argument("--seeds", type=int, default=5, help="random-agent runs per problem (paper: 5)")
    parser.add_argument("--bfs-timeout", type=float, default=300.0, help="seconds per BFS search (paper: 1800)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--resume", action="store_true", help="continue an interrupted run in --out")
    parser.add_argument("--report-only", action="store_true", help="only compare an earlier run in --out")
    parser.add_argument("--json", action="store_true", help="print the comparison as JSON")
    args = parser.parse_args(argv)
    folders = [name.strip() for name in args.domains.split(",") if name.strip()]
    seconds = None
    if not args.report_only:
        seconds = run(args.reference, args.out, folders, seeds=args.seeds, bfs_timeout=args.bfs_timeout,
                      concurrency=args.concurrency, resume=args.resume)
    rows = comparison(args.out, folders)
    if args.json:
        print(json.dumps({"rows": rows, "eval_seconds": seconds}, indent=1))
    else:
        show(rows, seconds)


if __name__ == "__main__":
    main()
