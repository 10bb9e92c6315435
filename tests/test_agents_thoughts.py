"""Example thoughts written by an LLM (scripted here) or the template writer, stored and loaded back."""

from __future__ import annotations

import pytest
import yaml

from apb import cli
from apb.agents.examples import build_example
from apb.agents.thoughts import build_example_with_thoughts, load_thoughts, save_thoughts, write_thoughts
from apb.engine.errors import ApbError
from apb.llm import ScriptedLLM


def test_llm_thoughts_are_checked_and_bad_ones_replaced(tmp_path):
    example = build_example("ferry")
    actions = [s.action for s in example.steps]
    assert actions[:2] == ["(sail loc_1 loc_0)", "(board car_3 loc_0)"]
    llm = ScriptedLLM(["The cars wait at loc_0, so I sail the ferry from loc_1 to loc_0.",
                       "",  # empty: replaced
                       "Thought: car_3 is on board, so I sail over to loc_1.",
                       "x" * 500])  # too long: replaced
    report = write_thoughts(example, llm)
    assert report.llm_calls == 4 and report.replaced == [1, 3] and report.source == "llm:scripted:scripted"
    assert report.thoughts[0].startswith("The cars wait at loc_0")
    assert report.thoughts[2] == "car_3 is on board, so I sail over to loc_1."
    assert report.thoughts[1] == example.steps[1].thought
    first = llm.calls[0]["messages"]
    assert first[0]["role"] == "system" and any(m.get("cache") for m in first)
    assert "The next action: sail the ferry from loc_1 to loc_0" in first[-1]["content"]
    assert "1. sail the ferry from loc_1 to loc_0" in llm.calls[1]["messages"][-1]["content"]
    path = save_thoughts(example, report, tmp_path / "t.yaml")
    loaded = load_thoughts(build_example("ferry"), path)
    assert [s.thought for s in loaded.steps] == report.thoughts
    assert build_example_with_thoughts("ferry", path).steps[0].thought == report.thoughts[0]


def test_template_thoughts_without_an_llm_and_mismatched_files(tmp_path):
    example = build_example("blocksworld")
    report = write_thoughts(example)
    assert report.source == "template" and report.thoughts == [s.thought for s in example.steps]
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"steps": [{"action": "(fly)", "thought": "no"}]}))
    with pytest.raises(ApbError, match="do not match the example's actions"):
        load_thoughts(example, bad)


def test_examples_build_cli(tmp_path, capsys):
    script = tmp_path / "answers.txt"
    script.write_text("\n---\n".join(["I sail from loc_1 to loc_0 to reach the cars."] * 4))
    out = tmp_path / "thoughts.yaml"
    assert cli.main(["examples", "build", "ferry", "--llm", f"scripted:{script}", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "4 thoughts" in text and "llm:scripted:" in text
    data = yaml.safe_load(out.read_text())
    assert data["problem"] == "p00" and len(data["steps"]) == 4
