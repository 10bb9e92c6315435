"""ACP questions and NL->PDDL pairs as lm-evaluation-harness tasks: `apb acp export --format lm-eval DIR
--questions SRC` and `apb nl2pddl export --format lm-eval DIR --pairs PAIRS` (extra `lm-eval` to run them; the
export itself needs nothing but apb).

    apb acp generate ferry --tasks app,reach --formats bool,mcq --count 5 --out acp-ferry
    apb acp export --format lm-eval lm-tasks --questions acp-ferry
    lm_eval --model local-chat-completions --model_args model=NAME,base_url=$OPENAI_BASE_URL/chat/completions \
        --apply_chat_template --include_path lm-tasks --tasks apb_acp

DIR gets one task per question group, `apb_acp_<group>` (e.g. `apb_acp_applicable_actions_bool`; YAML +
`data/<group>.jsonl`), the group `apb_acp` of all of them, and `utils.py`, whose `process_results` scores each
answer with apb's extractor and scorers: the metrics `official` (ACPBench's semantics) and `sound` (apb's) equal
`apb acp eval`'s on the same answers. The prompt is `apb acp eval`'s messages flattened into one text (system,
shots, question); answers are generated greedily (`generate_until`). The data paths in the YAMLs are absolute:
export again after moving DIR.

    apb nl2pddl build blocksworld --count 10 --out pairs
    apb nl2pddl export --format lm-eval nl-tasks --pairs pairs
    lm_eval --model local-chat-completions --model_args model=NAME,base_url=$OPENAI_BASE_URL/chat/completions \
        --apply_chat_template --include_path nl-tasks --tasks apb_nl2pddl

    apb planbench export --format lm-eval pb-tasks --config blocksworld --tasks t1,t3
    lm_eval --model local-chat-completions --model_args model=NAME,base_url=$OPENAI_BASE_URL/chat/completions \
        --apply_chat_template --include_path pb-tasks --tasks apb_planbench

For PlanBench, DIR gets one task per (config, task), `apb_planbench_<config>_<task>` (e.g.
`apb_planbench_blocksworld_t1`), the group `apb_planbench`, and a `utils.py` whose `process_results` scores each
answer with `apb.planbench.verdicts.score_record`: the metrics `official` (PlanBench's verdict; t3: binary) and
`sound` (apb's) equal `apb planbench eval`'s on the same answers. The prompt is PlanBench's system message and query,
flattened into one text.

For NL->PDDL, DIR gets one task per domain of the pairs, `apb_nl2pddl_<domain>`, the group `apb_nl2pddl`, and a
`utils.py` whose `process_results` reads the PDDL problem from the answer and scores it with apb's checker
(`apb.nl2pddl.runner.score_answer`): the metrics `parseable`, `solvable` and `correct` equal `apb nl2pddl eval`'s
on the same answers. The prompt is `apb nl2pddl eval`'s (the domain's PDDL, `shots` examples of the same domain,
the description), flattened into one text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from apb.acp.errors import ACPError
from apb.planbench.verdicts import SHORT_NAMES

TEMPLATES = Path(__file__).resolve().parent / "templates"
GROUP = "apb_acp"
NL2PDDL_GROUP = "apb_nl2pddl"
PLANBENCH_GROUP = "apb_planbench"
FUNCTION = "process_results: !function utils.process_results\n"  # lm-eval's YAML tag, which safe_dump cannot write


def lm_eval_command(folder: str | Path, group: str) -> str:
    """The lm_eval command that runs exported tasks against an OpenAI-compatible server (`$OPENAI_BASE_URL`,
    `$OPENAI_API_KEY`; MODEL the model it serves): lm-eval's default `hf` model loads weights in its own process and
    needs PyTorch, which the extra does not install."""
    return (f"lm_eval --model local-chat-completions --model_args model=MODEL,base_url=$OPENAI_BASE_URL/chat/"
            f"completions --apply_chat_template --include_path {folder} --tasks {group}")


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
        write_task(out, task_config(name, GROUP, data, ("official", "sound"), max_gen_toks, "apb acp export"))
        names.append(name)
    (out / "utils.py").write_text((TEMPLATES / "lm_eval_utils.py.txt").read_text(encoding="utf-8"), encoding="utf-8")
    return names


def export_nl2pddl_lm_eval(pairs: str | Path, out: str | Path, *, shots: int = 0,
                           max_gen_toks: int = 2048) -> list[str]:
    """Writes a task per domain of the pairs file (`apb nl2pddl build` / `import`) under `out`; returns the names."""
    from apb.nl2pddl.planetarium import PairsFormatError, read_pairs
    from apb.nl2pddl.runner import domain_file_for, messages_for, shots_for

    pairs = Path(pairs)
    rows = read_pairs(pairs)  # every row checked first; a file without pairs refused
    if shots < 0:
        raise PairsFormatError(f"--shots must be 0 or more, got {shots}")
    out = Path(out).resolve()
    (out / "data").mkdir(parents=True, exist_ok=True)
    by_domain: dict[str, list[dict]] = {}
    for row in rows:
        by_domain.setdefault(re.sub(r"[^A-Za-z0-9]+", "_", str(row["domain"])).strip("_").lower() or "pairs",
                             []).append(row)
    names = []
    for domain, items in sorted(by_domain.items()):
        data = out / "data" / f"nl2pddl_{domain}.jsonl"
        with data.open("w", encoding="utf-8") as handle:
            for row in items:
                path = domain_file_for(row, pairs.parent).resolve()
                messages = messages_for(row, path.read_text(encoding="utf-8"), shots_for(rows, row, shots))
                record = {"id": str(row["id"]), "prompt": flatten(messages), "target": row["problem_pddl"],
                          "domain_file": str(path), "is_placeholder": bool(row.get("is_placeholder"))}
                handle.write(json.dumps(record) + "\n")
        name = f"{NL2PDDL_GROUP}_{domain}"
        write_task(out, task_config(name, NL2PDDL_GROUP, data, ("parseable", "solvable", "correct"), max_gen_toks,
                                    "apb nl2pddl export"))
        names.append(name)
    (out / "utils.py").write_text((TEMPLATES / "lm_eval_nl2pddl_utils.py.txt").read_text(encoding="utf-8"),
                                  encoding="utf-8")
    return names


def export_planbench_lm_eval(config: str, tasks: list[str], out: str | Path, *, folder: str | None = None,
                             instances: set[int] | None = None, max_gen_toks: int = 2048) -> list[str]:
    """Writes a task per PlanBench task of the config under `out` (apb.planbench.questions); returns the names."""
    from apb.planbench.questions import gold_answer, questions

    out = Path(out).resolve()
    (out / "data").mkdir(parents=True, exist_ok=True)
    names = []
    for task in tasks:
        items = questions(config, task, folder=folder, instances=instances)
        short = next((k for k, v in SHORT_NAMES.items() if v == items[0].task), task) if items else task
        name = f"{PLANBENCH_GROUP}_{config}_{short}"
        data = out / "data" / f"{name}.jsonl"
        with data.open("w", encoding="utf-8") as handle:
            for q in items:
                record = {"id": q.id, "prompt": flatten(q.messages()), "target": gold_answer(q),
                          "question": json.dumps(q.to_dict())}
                handle.write(json.dumps(record) + "\n")
        write_task(out, task_config(name, PLANBENCH_GROUP, data, ("official", "sound"), max_gen_toks,
                                    "apb planbench export"))
        names.append(name)
    (out / "utils.py").write_text((TEMPLATES / "lm_eval_planbench_utils.py.txt").read_text(encoding="utf-8"),
                                  encoding="utf-8")
    return names


def task_config(name: str, group: str, data: Path, metrics: tuple[str, ...], max_gen_toks: int,
                source: str) -> dict:
    """One lm-eval task: the JSONL data's `prompt` answered greedily, `process_results` of utils.py scoring it."""
    return {"task": name, "tag": [group], "dataset_path": "json",
            "dataset_kwargs": {"data_files": {"test": str(data)}}, "test_split": "test",
            "output_type": "generate_until", "doc_to_text": "{{prompt}}", "doc_to_target": "{{target}}",
            "generation_kwargs": {"until": [], "do_sample": False, "temperature": 0.0, "max_gen_toks": max_gen_toks},
            "metric_list": [{"metric": m, "aggregation": "mean", "higher_is_better": True} for m in metrics],
            "metadata": {"version": 1.0, "source": source}}


def write_task(out: Path, config: dict) -> None:
    text = yaml.safe_dump(config, sort_keys=False, allow_unicode=True) + FUNCTION
    (out / f"{config['task']}.yaml").write_text(text, encoding="utf-8")
