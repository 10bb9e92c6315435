"""A stand-in for Planetarium's package that maps `planetarium.evaluate` to `apb.nl2pddl.evaluate`, so Planetarium's
own `tests/test_evaluate.py` runs against apb (tests/test_nl2pddl_planetarium.py puts this folder on sys.path)."""

from apb.nl2pddl.evaluate import evaluate as _apb_evaluate


def evaluate(source_pddl_str: str, target_pddl_str: str, domain_str: str | None = None, is_placeholder: bool = False,
             check_solveable: bool = True, **planner_options) -> tuple[bool, bool, bool]:
    """Planetarium's signature; planner options (e.g. its Fast Downward `alias`) have no counterpart in apb."""
    parseable, solvable, correct = _apb_evaluate(source_pddl_str, target_pddl_str, domain_str,
                                                 placeholder=is_placeholder)
    return parseable, solvable if check_solveable else False, correct
