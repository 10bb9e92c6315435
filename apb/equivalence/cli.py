"""`apb equiv DOMAIN A B [--placeholder] [--json]`: exit 0 equivalent, 1 not equivalent, 2 bad input, 3 unknown.

`add_parsers(commands)` adds `equiv` to the `apb` command; bad input raises ApbError subclasses, which the
main CLI prints before exiting with code 2.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from rich.markup import escape

from apb.console import make_console
from apb.engine.loader import load_domain, problem_file_text, problem_from_text, require_same_domain
from apb.equivalence.check import EQUIVALENT, NOT_EQUIVALENT, check
from apb.equivalence.closure import Budget
from apb.equivalence.graph import BACKENDS, RUSTWORKX_MISSING, have_rustworkx
from apb.equivalence.scene import EquivalenceError
from apb.exit_codes import EXIT_NEGATIVE, EXIT_OK, EXIT_UNDECIDED
from apb.flags import positive_int

EXIT_CODES = {EQUIVALENT: EXIT_OK, NOT_EQUIVALENT: EXIT_NEGATIVE, "unknown": EXIT_UNDECIDED}


def add_parsers(commands) -> None:
    """Adds `equiv` to the `apb` command (see apb.cli.Commands)."""
    p = commands.add_parser("equiv", description="Planetarium's equivalence: equal initial states and equal fully "
                                                 "specified goals under one renaming of objects.")
    p.add_argument("domain", metavar="DOMAIN", help="the PDDL domain file")
    p.add_argument("problem_a", metavar="A", help="a PDDL problem file")
    p.add_argument("problem_b", metavar="B", help="another PDDL problem file")
    p.add_argument("--placeholder", action="store_true",
                   help="match the goal's objects separately from the initial state's (placeholder descriptions)")
    p.add_argument("--backend", choices=BACKENDS, default="auto", help="graph isomorphism backend (default auto)")
    p.add_argument("--max-states", type=positive_int, default=None, metavar="N",
                   help="search budget of the generic goal closure: states explored (default 20000); the answer "
                        "is 'unknown' (exit 3) when a budget runs out before the closure is decided")
    p.add_argument("--json", action="store_true", help="machine-readable result")
    p.set_defaults(func=cmd_equiv)


def cmd_equiv(args: argparse.Namespace) -> int:
    """Prints the verdict (and the renaming or the reason); the exit code says it too."""
    if args.backend == "rustworkx" and not have_rustworkx():
        raise EquivalenceError(RUSTWORKX_MISSING)  # before any work: one line, exit 2
    budget = None if args.max_states is None else Budget(explore=args.max_states, search=args.max_states,
                                                         total=5 * args.max_states)
    domain = load_domain(Path(args.domain))
    # read as the in-process scorer reads text: up to its bound (a huge file is refused at once, not parsed)
    a, b = (require_same_domain(problem_from_text(problem_file_text(path), domain, path), domain)
            for path in (args.problem_a, args.problem_b))
    result = check(domain, a, b, placeholder=args.placeholder, backend=args.backend, budget=budget)
    if args.json:
        print(json.dumps(result.to_dict(), indent=2))
    else:
        console = make_console()
        style = {"equivalent": "green", "not_equivalent": "red"}.get(result.verdict, "yellow")
        console.print(f"[{style}]{result.verdict}[/{style}]" + (f": {escape(result.reason)}" if result.reason else ""))
        if result.mapping:
            console.print(escape(", ".join(f"{a} -> {b}" for a, b in sorted(result.mapping.items()))))
    return EXIT_CODES[result.verdict]
