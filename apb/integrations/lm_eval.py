"""ACP questions as lm-evaluation-harness tasks: `apb acp export --format lm-eval DIR --questions SRC` (extra
`lm-eval` to run them; the export itself needs nothing but apb).

    apb acp generate ferry --tasks app,reach --formats bool,mcq --count 5 --out acp-ferry
    apb acp export --format lm-eval lm-tasks --questions acp-ferry
    lm_eval --model hf --model_args pretrained=... --include_path lm-tasks --tasks apb_acp

DIR gets one task per question group, `apb_acp_<task>_<format>` (YAML + `data/<group>.jsonl`), the group
`apb_acp` of all of them, and `utils.py`, whose `process_results` scores each answer with apb's extractor and
scorers: the metrics `official` (ACPBench's semantics) and `sound` (apb's) equal `apb acp eval`'s on the same
answers. The prompt is `apb acp eval`'s messages flattened into one text (system, shots, question); answers are
generated greedily (`generate_until`). The data paths in the YAMLs are absolute: export again after moving DIR.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from apb.acp.errors import ACPError

TEMPLATES = Path(__file__).resolve().parent / "templates"
GROUP = "apb_acp"
FUNCTION = "process_results: !function utils.process_results\n"  # lm-eval's YAML tag, which safe_dump cannot write


def task_name(group: str) -> str:
    return f"{GROUP}_{group}"


def flatten(messages: list[dict]) -> str:
    """A chat as one prompt text: each message's content, in order, separated by blank lines."""
    return "\n\n".join(str(m["content"]).strip() for m in messages)


def export_lm_eval(questions: list, out: str | Path, *, shots: int = 0, cot: bool = False,
                   max_gen_toks: int = 512) -> list[str]:
    """Writes the tasks for `questions` (apb.acp Questions) under `out`; returns the task names."""
    from apb.acp.evaluate import answer_text, build_messages, pick_shots

    if not questions:
        raise ACPError("no questions to export: pass --questions with an apb or ACPBench questions file or folder")
    if shots < 0:
        raise ACPError(f"--shots must be 0 or more, got {shots}")
    out = Path(out).resolve()
    (out / "data").mkdir(parents=True, exist_ok=True)
    pool: dict[str, list] = {}
    for q in questions:
        pool.setdefault(q.group, []).append(q)
    names = []
    for group, items in sorted(pool.items()):
        data = out / "data" / f"{group}.jsonl"
        with data.open("w", encoding="utf-8") as handle:
            for q in items:
                record = {"id": q.id, "prompt": flatten(build_messages(q, pick_shots(q, pool, shots), cot)),
                          "target": answer_text(q), "question": json.dumps(q.to_dict())}
                handle.write(json.dumps(record) + "\n")
        name = task_name(group)
        config = {"task": name, "tag": [GROUP], "dataset_path": "json",
                  "dataset_kwargs": {"data_files": {"test": str(data)}}, "test_split": "test",
                  "output_type": "generate_until", "doc_to_text": "{{prompt}}", "doc_to_target": "{{target}}",
                  "generation_kwargs": {"until": [], "do_sample": False, "temperature": 0.0,
                                        "max_gen_toks": max_gen_toks},
                  "metric_list": [{"metric": m, "aggregation": "mean", "higher_is_better": True}
                                  for m in ("official", "sound")],
                  "metadata": {"version": 1.0, "source": "apb acp export"}}
        text = yaml.safe_dump(config, sort_keys=False, allow_unicode=True) + FUNCTION
        (out / f"{name}.yaml").write_text(text, encoding="utf-8")
        names.append(name)
    (out / "utils.py").write_text((TEMPLATES / "lm_eval_utils.py.txt").read_text(encoding="utf-8"), encoding="utf-8")
    return names
