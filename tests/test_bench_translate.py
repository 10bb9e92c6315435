"""`apb bench translate`: the generated test set, the report (accuracy, LLM-free share, speed, LLM calls per
step against AutoPlanBench's one T-LLM call), its table and its command-line parser. No timing assertions."""

from __future__ import annotations

import argparse
import io
import json

import pytest
from rich.console import Console

from apb.bench.translate import (
    AUTOPLANBENCH_LLM_CALLS_PER_STEP,
    VARIANTS,
    add_bench_translate_parser,
    print_translate_report,
    run_translate_bench,
    translation_cases,
)
from apb.domains.registry import domain_names
from apb.envs.text_env import PDDLTextEnv


def test_test_set_is_canonical_plus_seeded_noise():
    cases = translation_cases("ferry", problems=2, seed=0)
    env = PDDLTextEnv("ferry")
    expected_actions = []
    for problem_id in env.problem_ids[:2]:
        env.reset(options={"problem": problem_id})
        expected_actions += [str(a) for a in env.task.actions]
    assert len(cases) == len(expected_actions) * (VARIANTS + 1)
    assert [c[2] for c in cases[::VARIANTS + 1]] == expected_actions
    assert cases == translation_cases("ferry", problems=2, seed=0)  # deterministic
    assert [c[1] for c in cases] != [c[1] for c in translation_cases("ferry", problems=2, seed=1)]
    noisy = [text for _, text, _ in cases if text not in {c[1] for c in cases[::VARIANTS + 1]}]
    assert len(noisy) > len(cases) // 2


@pytest.fixture(scope="module")
def report():
    return run_translate_bench(problems=3, seed=0)


def test_report_every_domain_cascade_at_least_99_percent_without_llm(report):
    assert [r["domain"] for r in report["rows"]] == domain_names()
    for row in report["rows"]:
        assert row["cases"] > 0
        assert row["template_canonical_accuracy"] == 1.0, row["template_failures"]
        assert row["cascade_accuracy"] >= 0.99, row["cascade_failures"]
        assert row["cascade_accuracy"] >= row["template_accuracy"]
        assert row["without_llm"] == 1.0 and row["llm_calls_per_step"] == 0
        assert row["autoplanbench_llm_calls_per_step"] == AUTOPLANBENCH_LLM_CALLS_PER_STEP == 1
        # With an LLM stage, only texts the templates cannot decide reach it (about 1 - template accuracy).
        assert 0 < row["llm_calls_per_step_with_llm"] <= 1 - row["template_accuracy"] + 0.05
        assert row["cascade_with_llm_accuracy"] >= 0.99
        assert row["template_us"] > 0 and row["cascade_us"] > 0
    summary = report["summary"]
    assert summary["cases"] == sum(r["cases"] for r in report["rows"])
    assert summary["cascade_accuracy"] >= 0.99
    json.dumps(report)  # the --json output


def test_report_table(report):
    out = io.StringIO()
    print_translate_report(report, Console(file=out, width=140))
    text = out.getvalue()
    for name in domain_names():
        assert name in text
    assert "APB LLM/step" in text and "casc acc" in text


def test_cli_parser_and_handler(capsys):
    parser = argparse.ArgumentParser(prog="apb")
    sub = parser.add_subparsers(dest="command")
    bench = sub.add_parser("bench").add_subparsers(dest="bench")
    add_bench_translate_parser(bench)
    args = parser.parse_args(["bench", "translate", "--domains", "ferry,visitall", "--problems", "1", "--json"])
    assert args.func(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["domain"] for r in data["rows"]] == ["ferry", "visitall"] and data["problems_per_domain"] == 1
    args = parser.parse_args(["bench", "translate", "--domains", "movie", "--problems", "1"])
    assert args.func(args) == 0
    assert "movie" in capsys.readouterr().out
