"""`apb domains`: the bundled domains and their problem counts; `--stats`: Table-6 style statistics next to the
AutoPlanBench paper's."""

from __future__ import annotations

import argparse

from apb.console import make_console
from apb.exit_codes import EXIT_OK

out = make_console()


def add_parsers(commands) -> None:
    """Adds `domains` to the `apb` command (see apb.cli.Commands)."""
    p = commands.add_parser("domains")
    p.add_argument("--stats", action="store_true", help="per domain and split: problems and averages")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_domains)


def cmd_domains(args: argparse.Namespace) -> int:
    from apb import domains

    names = domains.domain_names()
    if not args.stats:
        rows = [{"name": n, "problems": {s: len(domains.problem_files(n, s)) for s in domains.SPLITS}}
                for n in names]
        if args.json:
            out.print_json(data=rows)
        else:
            for row in rows:
                counts = ", ".join(f"{k} {v}" for k, v in row["problems"].items() if v)
                out.print(f"{row['name']:12s} {counts}")
        return EXIT_OK
    stats = [st.to_dict() for n in names for s in domains.SPLITS if (st := domains.split_stats(n, s))]
    if args.json:
        out.print_json(data=stats)
        return EXIT_OK
    print_domain_stats(stats)
    return EXIT_OK


def print_domain_stats(stats: list[dict]) -> None:
    """Two tables that fit 80 columns: per split (ours / the paper's Table 6 averages), and per domain."""
    from rich.table import Table

    from apb.domains.paper import table6

    paper = table6()

    def pair(value: float, ref: dict, key: str) -> str:
        return f"{value:.1f}" + (f" / {ref[key]:.1f}" if key in ref else "")

    splits = Table(title="Bundled problems: ours / the paper's (AutoPlanBench Table 6)", box=None,
                   pad_edge=False)
    for column in ("domain", "split", "n", "opt. length", "goal facts", "init facts", "objects"):
        splits.add_column(column, justify="left" if column in ("domain", "split") else "right", no_wrap=True)
    for st in stats:
        ref = paper.get(st["name"], {}) if st["split"] != "scaled" else {}
        star = "" if st["optimal_plans"] == st["problems"] else "*"
        splits.add_row(st["name"], st["split"], str(st["problems"]),
                       pair(st["avg_optimal_plan_length"], ref, "avg_optimal_plan_length") + star,
                       pair(st["avg_goal_facts"], ref, "avg_goal_facts"), pair(st["avg_init_facts"], ref,
                                                                                "avg_init_facts"),
                       pair(st["avg_objects"], ref, "avg_objects"))
    out.print(splits)
    out.print("* not every plan is proven optimal (some come from a satisficing planner)", markup=False)
    shapes = Table(title="Domain files: ours / the paper's", box=None, pad_edge=False)
    for column in ("domain", "actions", "predicates", "types"):
        shapes.add_column(column, justify="left" if column == "domain" else "right", no_wrap=True)
    for st in {st["name"]: st for st in stats}.values():
        ref = paper.get(st["name"], {})
        shapes.add_row(st["name"], *(f"{st[key]}" + (f" / {int(ref[key])}" if key in ref else "")
                                     for key in ("actions", "predicates", "types")))
    out.print(shapes)
