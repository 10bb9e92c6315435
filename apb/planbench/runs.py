"""PlanBench runs on apb's one runner (apb.eval.runner: resume, locks, concurrency, Ray, refusal of changed
settings, Ctrl-C/SIGTERM): each prompt of each task is an item that asks the LLM as PlanBench's chat models were asked
(its system message, the query, temperature 0), scores the answer (apb.planbench.verdicts: PlanBench's verdict and
apb's sound one) and is recorded in `OUT/results.jsonl`. PlanBench's own layout is written from those records:
`OUT/responses/<domain>/<engine>/<task>.json` (the prompt file with each `llm_raw_response`) and
`OUT/results/<domain>/<engine>/<task>.json` (the same with PlanBench's verdict fields and apb's), so PlanBench's
tools read a run.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from apb.datasets.planbench import PlanBenchConfig, load_config
from apb.engine import ApbError
from apb.eval.items import ItemKind, RecordStore
from apb.eval.runner import run_items
from apb.planbench import RUN_KIND
from apb.planbench.prompts import prompt_file, prompt_task
from apb.planbench.verdicts import OFFICIAL_FIELDS, SOUND_FIELDS, score_record, task_kind
from apb.prompts import load_prompt

MAX_TOKENS = 2048
VERIFICATION_VERDICT = "llm_correct_binary"  # t3's headline verdict (its binary valid/invalid answer)


def official_correct(record: dict, stem: str) -> bool:
    """PlanBench's verdict of a scored record (t3: the binary one)."""
    key = VERIFICATION_VERDICT if task_kind(stem) == "verification" else "llm_correct"
    return bool(record.get(key))


PLANBENCH_PROMPTS = ItemKind(RUN_KIND, "prompt", "correct (PlanBench's verdict)",
                             lambda r: bool(r.get("official")), RecordStore)


def system_message() -> str:
    """The system message PlanBench gives its chat models."""
    return load_prompt("planbench/system.txt").strip()


def engine_name(spec: str) -> str:
    """The model folder of PlanBench's layout for an LLM spec (`openai:gpt-4o` -> `openai_gpt-4o`)."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", spec).strip("_") or "model"


class PromptItem:
    """One prompt of a PlanBench task file as an item of the one runner. An LLM error is recorded as an error
    (retried by --resume), never scored as a wrong answer."""

    def __init__(self, config: PlanBenchConfig, stem: str, record: dict, *, model: str, max_tokens: int) -> None:
        self.config, self.stem, self.prompt, self.max_tokens = config, stem, record, max_tokens
        self.id = f"{stem}/{record['instance_id']}"
        self.model = model

    def run(self, out_dir: Path, llm: Any, stop: Any) -> dict:
        messages = [{"role": "system", "content": system_message()}, {"role": "user", "content": self.prompt["query"]}]
        base = {"id": self.id, "config": self.config.name, "folder": self.config.folder, "task": self.stem,
                "instance_id": self.prompt["instance_id"], "prompt_hash": prompt_hash(self.prompt), "llm_calls": 1}
        try:
            completion = llm.complete(messages, max_tokens=self.max_tokens, temperature=0.0)
        except ApbError as err:
            return {**base, "record": None, "official": None, "sound": None, "error": str(err), "cost_usd": None}
        scored = score_record(self.config, self.stem, {**self.prompt, "llm_raw_response": completion.text.strip()})
        usage = completion.usage.to_dict()
        return {**base, "record": scored, "official": official_correct(scored, self.stem),
                "sound": bool(scored.get("apb_correct")), "usage": usage,
                "input_tokens": usage.get("input_tokens", 0), "output_tokens": usage.get("output_tokens", 0),
                "cost_usd": completion.cost, "cost": completion.cost, "cached": completion.cached,
                "cached_calls": int(bool(completion.cached)), "error": None}


def prompt_hash(record: dict) -> str:
    """A short hash of a prompt record: a result belongs to the prompt it answered."""
    return hashlib.sha256(json.dumps(record, sort_keys=True).encode()).hexdigest()[:16]


def task_files(config: PlanBenchConfig, tasks: list[str], variant: str = "prompts") -> dict[str, dict]:
    """The prompt file of each task (by file stem)."""
    return {prompt_task(t)[1]: prompt_file(config, t, variant) for t in tasks}


def prompt_items(config: PlanBenchConfig, files: dict[str, dict], model: str, *, max_tokens: int = MAX_TOKENS,
                 instances: set[int] | None = None) -> list[PromptItem]:
    return [PromptItem(config, stem, record, model=model, max_tokens=max_tokens)
            for stem, data in files.items() for record in data["instances"]
            if instances is None or record["instance_id"] in instances]


def evaluate(config_name: str, tasks: list[str], llm: Any, out: str | Path, *, folder: str | None = None,
             engine: str | None = None, variant: str = "prompts", instances: set[int] | None = None,
             max_tokens: int = MAX_TOKENS, concurrency: int = 4, resume: bool = False, overwrite: bool = False,
             progress: bool = True, executor: str = "thread", llm_concurrency: int | None = None,
             cache: str = "rw") -> dict[str, Any]:
    """Runs `llm` (an LLM object or a spec) on the tasks' prompts of a config on the one runner, then writes
    PlanBench's responses/results layout. Returns the runner's summary plus `answered`, `official`, `sound` and
    `files` (the layout's files written)."""
    config = load_config(config_name, folder)
    spec = llm if isinstance(llm, str) else getattr(llm, "spec", None) or str(llm)
    files = task_files(config, tasks, variant)
    items = prompt_items(config, files, spec, max_tokens=max_tokens, instances=instances)
    settings = {"config": config.name, "folder": config.folder, "tasks": sorted(files), "llm": spec,
                "max_tokens": max_tokens, "system": hashlib.sha256(system_message().encode()).hexdigest()[:16],
                "engine": engine or engine_name(spec), "variant": variant}
    if resume:
        check_same_prompts(items, Path(out))
    summary = run_items(items, out, kind=PLANBENCH_PROMPTS, settings=settings, concurrency=concurrency,
                        resume=resume, overwrite=overwrite, progress=progress,
                        llms=None if isinstance(llm, str) else {spec: llm}, executor=executor,
                        llm_concurrency=llm_concurrency, cache=cache)
    records = RecordStore(Path(out)).records()
    answered = [r for item in items if (r := records.get(item.id)) is not None and not r.get("error")]
    written = write_layout(Path(out), config, files, records, settings["engine"])
    summary.update(answered=len(answered), official=sum(bool(r.get("official")) for r in answered),
                   sound=sum(bool(r.get("sound")) for r in answered), files=[str(p) for p in written])
    return summary


def check_same_prompts(items: list[PromptItem], out: Path) -> None:
    """ApbError when `out` holds a result for a prompt that has changed since."""
    before = RecordStore(out).records()
    for item in items:
        old = before.get(item.id)
        if old is not None and old.get("prompt_hash") not in (None, prompt_hash(item.prompt)):
            raise ApbError(f"{out}: the prompt of {item.id} is not the one the earlier run answered; run into another "
                           "--out, or use --overwrite")


def write_layout(out: Path, config: PlanBenchConfig, files: dict[str, dict], records: dict[str, dict],
                 engine: str) -> list[Path]:
    """PlanBench's responses/ and results/ files of the answered prompts, in the prompt files' order."""
    domain = config.data["domain_name"]
    written = []
    for stem, data in files.items():
        answered = [r["record"] for p in data["instances"]
                    if (r := records.get(f"{stem}/{p['instance_id']}")) is not None and not r.get("error")]
        if not answered:
            continue
        head = {k: v for k, v in data.items() if k != "instances"}
        responses = {**head, "instances": [_response_record(r) for r in answered], "engine": engine}
        results = {**head, "instances": answered, "engine": engine}
        for kind, obj in (("responses", responses), ("results", results)):
            path = out / kind / domain / engine / f"{stem}.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(obj, indent=4), encoding="utf-8")
            written.append(path)
    return written


def _response_record(scored: dict) -> dict:
    """A responses/ record: the prompt record and the raw response, without the verdict fields."""
    return {k: v for k, v in scored.items() if k not in OFFICIAL_FIELDS and k not in SOUND_FIELDS}
