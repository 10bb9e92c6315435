"""ACPBench's released evaluation code as an oracle for tests (never imported by apb).

Runs the code in `../shared/reference/acpbench/src` (the generative scorer: Lark grammar, tarski grounding and the
K* planner) and lm-evaluation-harness's `regex` / `multi_choice_regex` filters with `exact_match`, configured as
ACPBench's released lm-eval configs declare. Needs the `acp-official` extra (tarski, lark, clingo, kstar-planner)
and lm-eval (installed with `--no-deps`, plus sacrebleu); `available()` says whether they import.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from functools import lru_cache
from pathlib import Path

import yaml

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference" / "acpbench"
if not REFERENCE.is_dir():
    REFERENCE = Path(os.environ.get("APB_ACPBENCH_REFERENCE", "/work/shared/reference/acpbench"))
SRC = REFERENCE / "src"
CONFIGS = REFERENCE / "configs" / "tasks"
TASK_NAMES = {"app": "app", "prog": "prog", "reach": "reach", "areach": "areach", "val": "val", "just": "just",
              "land": "land", "nexta": "nexta"}


def available() -> str | None:
    """None when the official code and lm-eval import, else what is missing."""
    if not SRC.is_dir():
        return f"no ACPBench reference at {REFERENCE}"
    for module in ("tarski", "lark", "kstar_planner", "clingo", "jsonlines", "scipy", "lm_eval.filters.extraction",
                   "lm_eval.api.metrics"):
        try:
            __import__(module)
        except Exception as error:
            return f"{module}: {error}"
    return None


@lru_cache(maxsize=1)
def _modules():
    if str(SRC) not in sys.path:
        sys.path.insert(0, str(SRC))
    import evaluate_gen
    import evaluators
    from grammar.grammar_parser import ACPGrammarParser
    return evaluate_gen, evaluators, ACPGrammarParser


@lru_cache(maxsize=16)
def _parser(task: str):
    evaluate_gen, _, parser_class = _modules()
    return parser_class(evaluate_gen.GRAMMAR_FILE, evaluate_gen.get_grammar_task(f"acp_{task}_gen"))


def gen_verdict(record: dict, task: str, text: str) -> bool:
    """The official generative verdict, as `evaluate_gen.py`'s main loop computes it for one response."""
    evaluate_gen, evaluators, _ = _modules()
    name = f"acp_{task}_gen"
    with contextlib.redirect_stdout(io.StringIO()):
        ans = [evaluate_gen.get_parsed_answer(text, name, _parser(task))]
        if any(elem is None for elem in ans) or any(elem is None for elem in ans[0]):
            return False
        return bool(evaluators.get_evaluator(record["group"]).get_score(ans, record))


@lru_cache(maxsize=4)
def _config(fmt: str) -> dict:
    folder = {"bool": "boolq_cot_2shot", "mcq": "mcq_cot_2shot"}[fmt]
    name = {"bool": "_boolq_cot_2shot_yaml", "mcq": "_mcq_cot_2shot_yaml"}[fmt]
    return yaml.safe_load((CONFIGS / folder / name).read_text())


def choice_verdict(record: dict, fmt: str, text: str) -> bool:
    """lm-eval's verdict on a bool or MCQ response: the config's filters (regex, take_first), then exact_match
    with the config's metric options, against the record's answer."""
    from lm_eval.api.metrics import exact_match_hf_evaluate
    from lm_eval.filters.extraction import MultiChoiceRegexFilter, RegexFilter
    from lm_eval.filters.selection import TakeFirstFilter

    config = _config(fmt)
    steps = config["filter_list"][0]["filter"]
    resps = [[text]]
    for step in steps:
        options = {k: v for k, v in step.items() if k != "function"}
        if step["function"] == "regex":
            resps = RegexFilter(**options).apply(resps, [record])
        elif step["function"] == "multi_choice_regex":
            resps = MultiChoiceRegexFilter(**options).apply(resps, [record])
        elif step["function"] == "take_first":
            resps = TakeFirstFilter().apply(resps, [record])
        else:  # pragma: no cover - the released configs use only these
            raise ValueError(step["function"])
    prediction = next(iter(resps))
    metric = {k: v for k, v in config["metric_list"][0].items() if k not in ("metric", "aggregation",
                                                                            "higher_is_better")}
    return bool(exact_match_hf_evaluate([prediction], [str(record["answer"])], **metric)["exact_match"])


def choice_verdicts(pairs: list[tuple[dict, str]], fmt: str) -> list[bool]:
    """`choice_verdict` for many (record, response) pairs in one filter pass (lm-eval's MCQ filter builds a table
    of every Unicode punctuation character per call)."""
    from lm_eval.api.metrics import exact_match_hf_evaluate
    from lm_eval.filters.extraction import MultiChoiceRegexFilter, RegexFilter

    config = _config(fmt)
    docs = [record for record, _ in pairs]
    resps = [[text] for _, text in pairs]
    for step in config["filter_list"][0]["filter"]:
        options = {k: v for k, v in step.items() if k != "function"}
        if step["function"] == "regex":
            resps = RegexFilter(**options).apply(resps, docs)
        elif step["function"] == "multi_choice_regex":
            resps = MultiChoiceRegexFilter(**options).apply(resps, docs)
        else:
            resps = [r[0] for r in resps]  # take_first
    metric = {k: v for k, v in config["metric_list"][0].items() if k not in ("metric", "aggregation",
                                                                            "higher_is_better")}
    return [bool(exact_match_hf_evaluate([p], [str(d["answer"])], **metric)["exact_match"])
            for p, d in zip(resps, docs)]


def verdict(record: dict, task: str, fmt: str, text: str) -> bool:
    """The official verdict on one response to one released record."""
    if fmt == "gen":
        return gen_verdict(record, task, text)
    return choice_verdict(record, fmt, text)


def planner_unsolvable(record: dict, goal: str) -> bool:
    """The official planner check of reach/areach: is `goal` (an atom or a conjunction) unsolvable from the record's
    state (`utils.pddl_utils.is_unsolvable_new_goal`, K* with its 3 s limit)?"""
    _modules()
    from utils.pddl_utils import is_unsolvable_new_goal

    with contextlib.redirect_stdout(io.StringIO()):
        return bool(is_unsolvable_new_goal(record["PDDL_domain"].lower(), record["PDDL_problem"].lower(), goal))


def grounded_preconditions(record: dict, action: str) -> list[str] | None:
    """The preconditions tarski's relaxed grounding gives `action`, None when it does not ground it (then the
    official areach check rejects the action without asking a planner)."""
    _modules()
    from utils.tarski_utils import get_action_preconditions

    with contextlib.redirect_stdout(io.StringIO()):
        return get_action_preconditions(record["PDDL_domain"].lower(), record["PDDL_problem"].lower(), action)


def grounded_actions(record: dict) -> set[str]:
    """Every action tarski's relaxed grounding of the record's problem keeps, as '(name args)' (the actions the
    official areach check asks its planner about)."""
    _modules()
    from utils.tarski_utils import get_tarski_problem

    with contextlib.redirect_stdout(io.StringIO()):
        problem = get_tarski_problem(record["PDDL_domain"].lower(), record["PDDL_problem"].lower())
    return {f"({action.name.lower()})" for action in problem.actions}
