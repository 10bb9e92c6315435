"""llm_planning_analysis's prompt variants (apb.planbench.prompt_analysis): byte for byte what PlanBench's own
prompt generation writes, run as the oracle (tests/planbench_oracle/lpa_prompts.py: its code unchanged, the Fast
Downward binary stubbed with apb's gold plans), on a few instances of several configs; and a variant through
`apb planbench eval` and `score` with a scripted model."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from apb.cli import main
from apb.datasets.dataset import DatasetError
from apb.datasets.planbench import load_config
from apb.planbench.instances import Instance
from apb.planbench.prompt_analysis import gold
from apb.planbench.prompts import ANALYSIS_GENERATORS, prompt_bytes, prompt_file, prompt_task

REFERENCE = Path(__file__).resolve().parents[1].parent / "shared" / "reference" / "planbench" / \
    "llm_planning_analysis"
ORACLE = Path(__file__).with_name("planbench_oracle") / "lpa_prompts.py"
FOLDER = "llm_planning_analysis"
ZERO_SHOT = ("t1_zero", "t1_zero_pddl")  # the variants whose instance i is asked alone (others: example i-1)

CASES = [  # (config, variant) on two instances: every variant PlanBench's code writes for the config
    ("blocksworld", "t1_zero"), ("blocksworld", "t1_cot"), ("blocksworld", "t1_pddl"), ("blocksworld", "t1_zero_pddl"),
    ("mystery_blocksworld", "t1_zero"), ("mystery_blocksworld", "t1_cot"), ("random_blocksworld_3", "t1_zero"),
    ("logistics", "t1_zero"), ("logistics", "t1_cot"), ("logistics", "t1_pddl"),
    ("obfuscated_randomized_logistics", "t1_zero"), ("obfuscated_deceptive_logistics", "t1_zero_pddl"),
    ("blocksworld_hard", "t1_pddl"), ("unsolvable_blocksworld", "t1_zero"), ("unsolvable_blocksworld", "t1_pddl"),
    ("unsolvable_obfuscated_randomized_blocksworld", "t1_pddl"),
    ("unsolvable_obfuscated_randomized_blocksworld", "t1_zero_pddl"),
    ("sokoban", "t1_zero_pddl"),
]
ONE_SHOT_IDS = (2, 3)  # with examples 1 and 2
ZERO_SHOT_IDS = (1, 2)  # from the first: zero_shot_pddl's names are drawn per instance written, as in a full file


def ids_of(variant: str) -> tuple[int, ...]:
    return ZERO_SHOT_IDS if variant in ZERO_SHOT else ONE_SHOT_IDS


def oracle(tmp_path: Path, config_name: str, variant: str) -> bytes:
    if not REFERENCE.is_dir():
        pytest.fail(f"PlanBench's release not found at {REFERENCE}", pytrace=False)
    config = load_config(config_name, FOLDER)
    ids = sorted({*ids_of(variant), *(i - 1 for i in ids_of(variant) if variant not in ZERO_SHOT)})
    plans = {f"instances/{config.instance_rel(i).split('/instances/', 1)[1]}": gold(Instance(config, i)) for i in ids}
    (tmp_path / "plans.json").write_text(json.dumps(plans))
    for name in ("instances", "configs"):
        (tmp_path / name).symlink_to(REFERENCE / name)
    run = subprocess.run([sys.executable, str(ORACLE), str(REFERENCE), str(tmp_path), config_name,
                          prompt_task(variant)[1], str(tmp_path / "plans.json"), *map(str, ids_of(variant))],
                         capture_output=True, timeout=600)
    assert run.returncode == 0, run.stderr.decode()[-2000:]
    return run.stdout


@pytest.mark.parametrize(("config_name", "variant"), CASES)
def test_variant_is_planbench_code_byte_for_byte(tmp_path, config_name, variant):
    expected = oracle(tmp_path, config_name, variant)
    obj = prompt_file(load_config(config_name, FOLDER), variant, instances=set(ids_of(variant)))
    assert prompt_bytes(obj) == expected
    assert [r["instance_id"] for r in obj["instances"]] == list(ids_of(variant))


def test_every_variant_is_served_by_its_stem():
    for short in ANALYSIS_GENERATORS:
        assert prompt_task(prompt_task(short)[1]) == (short, prompt_task(short)[1])


@pytest.mark.parametrize(("config_name", "variant"), [("sokoban", "t1_zero"), ("blocksworld_hard", "t1_zero"),
                                                      ("obfuscated_randomized_logistics", "t1_cot"),
                                                      ("unsolvable_obfuscated_randomized_blocksworld", "t1_zero"),
                                                      ("unsolvable_blocksworld", "t1_cot")])
def test_variants_planbench_cannot_write_are_refused(config_name, variant):
    with pytest.raises(DatasetError, match="cannot write"):
        prompt_file(load_config(config_name, FOLDER), variant, instances={2})


def test_pddl_variant_through_eval_and_score(tmp_path, capsys):
    """A PDDL-style answer to task_1_plan_generation_pddl goes through eval (prompt, scripted model, reading,
    verdict) and score: instance 2's gold plan is correct both ways; the same plan scored as instance 3's is not."""
    config = load_config("blocksworld", FOLDER)
    gold_plan = "\n".join("(" + " ".join(a.split("_")) + ")" for a in gold(Instance(config, 2)))
    for number in (2, 3):
        script = tmp_path / f"answers{number}.json"
        script.write_text(json.dumps([gold_plan]))
        code = main(["planbench", "eval", "--config", "blocksworld", "--folder", FOLDER, "--tasks", "t1_pddl",
                     "--instances", str(number), "--llm", f"scripted:{script}", "--out", str(tmp_path / f"run{number}"),
                     "--concurrency", "1", "--no-progress"])
        assert code == 0, capsys.readouterr()
        results = sorted((tmp_path / f"run{number}").rglob("task_1_plan_generation_pddl.json"))
        result = next(p for p in results if "results" in p.parts)
        record = json.loads(result.read_text())["instances"][0]
        assert record["instance_id"] == number
        assert record["extracted_llm_plan"].split() == gold_plan.split()
        assert record["llm_correct"] is (number == 2) and record["apb_correct"] is (number == 2)
        scored = tmp_path / f"scored{number}.json"
        assert main(["planbench", "score", str(result), "--config", "blocksworld", "--folder", FOLDER, "--task",
                     "task_1_plan_generation_pddl", "--out", str(scored)]) == 0
        assert json.loads(scored.read_text())["instances"][0]["llm_correct"] is (number == 2)
