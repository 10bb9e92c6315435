"""Episode trajectories as JSONL files: a header, one line per env step, a footer.

A trajectory is written to `<out>/episodes/<episode_id>.jsonl.part` while its episode runs and renamed to
`<episode_id>.jsonl` when the footer is written (after flush and fsync), so an episode counts as finished iff
its final `.jsonl` file exists. See docs/architecture.md "Trajectories and results" for the contract.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import asdict, dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

from apb.datasets import source_name
from apb.engine.errors import ApbError
from apb.engine.input_files import MAX_DATA_BYTES, read_input
from apb.engine.limits import has_surrogates

LLM_ROLES = ("planner", "translator", "explainer", "grounder")
PART_SUFFIX = ".jsonl.part"
FINAL_SUFFIX = ".jsonl"


class TrajectoryError(ApbError):
    """A trajectory file that cannot be read: corrupt JSON, a missing header or footer."""


@dataclass
class EpisodeSpec:
    """Everything that defines one episode: what to run, on which problem, with which model and seed."""

    domain: str  # a bundled domain name or a dataset folder path
    problem: int | str
    agent: str
    model: str | None = None  # an LLM spec (None for symbolic agents)
    seed: int = 0
    split: str = "test"
    translator: str = "cascade"
    agent_options: dict[str, Any] = field(default_factory=dict)
    require_finish: bool = False
    max_steps: int | None = None  # None: the agent's default for the dataset (see `horizon`)
    description: str = "curated"  # the env's NL source, or a robustness variant (obfuscated, shuffled)

    @property
    def horizon(self) -> int:
        """The episode's step limit: `max_steps`, else the agent's default for the split (`default_step_limit`:
        twice the split's longest gold plan and at least 24; random: 24; closed-loop: at least 50)."""
        if self.max_steps is not None:
            return self.max_steps
        from apb.agents import agent_class

        return agent_class(self.agent).default_step_limit(split_step_limit(self.domain, self.split))

    @property
    def domain_name(self) -> str:
        return source_name(self.domain)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@lru_cache(maxsize=256)
def split_step_limit(domain: str, split: str) -> int:
    """`apb.datasets.step_limit` of a domain's split (24 when the split cannot be read: the run reports that)."""
    from apb.datasets import resolve, step_limit
    from apb.domains.paper import AUTOPLANBENCH_STEP_LIMIT

    try:
        return step_limit(resolve(domain, split))
    except ApbError:
        return AUTOPLANBENCH_STEP_LIMIT


def slug(text: str) -> str:
    """Characters outside [A-Za-z0-9._-] replaced by '-'."""
    return re.sub(r"[^A-Za-z0-9._-]", "-", text)


def episode_id(spec: EpisodeSpec) -> str:
    """`<domain>__<problem>__<agent>__<model slug>__s<seed>` (plus `__<description>` when it is not curated),
    stable across runs (the resume key)."""
    problem = str(spec.problem).replace("/", "-")
    model = slug(spec.model) if spec.model else "none"
    variant = "" if spec.description == "curated" else f"__{slug(spec.description)}"
    return f"{slug(spec.domain_name)}__{slug(problem)}__{slug(spec.agent)}__{model}__s{spec.seed}{variant}"


@lru_cache(maxsize=1)
def prompts_hash() -> str:
    """sha256 over every file under apb/prompts/agents/ (names and contents), so a prompt edit shows up."""
    root = Path(__file__).resolve().parent.parent / "prompts" / "agents"
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def messages_hash(messages: Any) -> str:
    text = json.dumps(messages, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def slim_event(event: dict) -> dict:
    """An agent event for the file: an LLM call's full `messages` replaced by their hash."""
    if "messages" not in event:
        return dict(event)
    slim = {k: v for k, v in event.items() if k != "messages"}
    slim["prompt_hash"] = messages_hash(event["messages"])
    return slim


def step_line(record: Any) -> dict:
    """A StepRecord (or its dict) as a trajectory step line. Its fields are read as they are, not through
    `dataclasses.asdict`, which deep-copied every LLM call's whole conversation only for `slim_event` to drop it (the
    largest CPU cost of a step after the HTTP call; events are plain dicts)."""
    data = dict(record) if isinstance(record, dict) else {f.name: getattr(record, f.name) for f in fields(record)}
    return {"type": "step", "index": data["index"], "action": data["action"], "observation": data["observation"],
            "action_valid": data["action_valid"], "failure_kind": data["failure_kind"], "reward": data["reward"],
            "terminated": data["terminated"], "truncated": data["truncated"],
            "events": [slim_event(e) for e in data.get("events") or ()], "action_cost": data.get("action_cost")}


def usage_summary(events: list[dict]) -> dict[str, Any]:
    """LLM calls per role (planner, translator, explainer, grounder), how many the answer cache served, tokens and
    cost over `events` (cost None if any call had an unknown cost)."""
    calls = dict.fromkeys(LLM_ROLES, 0)
    input_tokens = output_tokens = cached_tokens = from_cache = 0
    cost: float | None = 0.0
    for event in events:
        if event.get("type") != "llm":
            continue
        role = event.get("role") or "planner"
        calls[role] = calls.get(role, 0) + 1
        from_cache += bool(event.get("cached"))
        usage = event.get("usage") or {}
        input_tokens += int(usage.get("input_tokens") or 0)
        output_tokens += int(usage.get("output_tokens") or 0)
        cached_tokens += int(usage.get("cached_tokens") or 0)
        if event.get("cost") is None:
            cost = None
        elif cost is not None:
            cost += float(event["cost"])
    return {"llm_calls": calls, "cached_calls": from_cache, "input_tokens": input_tokens,
            "output_tokens": output_tokens, "cached_tokens": cached_tokens, "cost_usd": cost}


def footer_from_result(result: Any, *, seconds: float, optimal_plan_length: int | None,
                       optimal_plan_cost: float | None = None) -> dict:
    """The footer line of an EpisodeResult; `plan_cost` sums the costs of its valid actions (see the env's
    info["action_cost"])."""
    events = list(result.pre_events) + [e for s in result.steps for e in s.events]
    return {"type": "footer", "success": result.success, "goal_reached": result.goal_reached,
            "steps": len(result.steps), "invalid_actions": result.invalid_actions,
            "look_arounds": result.look_arounds, **usage_summary(events), "stop_reason": result.stop_reason,
            "detail": result.detail, "error": result.error, "optimal_plan_length": optimal_plan_length,
            "plan_cost": getattr(result, "plan_cost", None), "optimal_plan_cost": optimal_plan_cost,
            "seconds": round(seconds, 4)}


def error_footer(error: str, *, seconds: float, optimal_plan_length: int | None = None,
                 steps: list | None = None, optimal_plan_cost: float | None = None) -> dict:
    """The footer of an episode that crashed outside the agent loop (env or agent construction, ...)."""
    steps = steps or []
    events = [e for s in steps for e in s.get("events", ())]
    return {"type": "footer", "success": False, "goal_reached": False, "steps": len(steps),
            "invalid_actions": sum(not s.get("action_valid", True) for s in steps),
            "look_arounds": sum(s.get("action") == "(look-around)" for s in steps), **usage_summary(events),
            "stop_reason": "error", "detail": None, "error": error, "optimal_plan_length": optimal_plan_length,
            "plan_cost": None, "optimal_plan_cost": optimal_plan_cost, "seconds": round(seconds, 4)}


def json_text(record: Any, *, compact: bool = False) -> str:
    """JSON for UTF-8 text (a file, a page): characters as they are, except that a record holding a lone surrogate (an
    LLM reply can carry one) is written with \\u escapes, which read back as the same text."""
    options: dict[str, Any] = {"default": str, **({"separators": (",", ":")} if compact else {})}
    text = json.dumps(record, ensure_ascii=False, **options)
    return json.dumps(record, ensure_ascii=True, **options) if has_surrogates(text) else text


def json_line(record: Any) -> str:
    """`json_text` as one line of a JSONL file."""
    return json_text(record) + "\n"


class TrajectoryWriter:
    """Appends lines to `<path>.part` (flushed as written); `footer()` fsyncs it and renames it to `path` atomically.
    The steps are not fsynced one by one: a `.part` file is never read back (`--resume` deletes and reruns it), so
    that would only add a disk wait to every step of every episode."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.part = self.path.with_name(self.path.name + ".part")
        self.part.parent.mkdir(parents=True, exist_ok=True)
        self._file = open(self.part, "w", encoding="utf-8")  # noqa: SIM115 - closed in footer()/abort()
        self.steps: list[dict] = []

    def _write(self, line: dict, sync: bool = False) -> None:
        self._file.write(json_line(line))
        self._file.flush()
        if sync:
            os.fsync(self._file.fileno())

    def header(self, header: dict) -> None:
        self._write({"type": "header", **{k: v for k, v in header.items() if k != "type"}})

    def step(self, record: Any) -> None:
        line = step_line(record)
        self.steps.append(line)
        self._write(line)

    def footer(self, footer: dict) -> Path:
        """Writes the footer and publishes the finished file; returns its path."""
        self._write({"type": "footer", **{k: v for k, v in footer.items() if k != "type"}}, sync=True)
        self._file.close()
        os.replace(self.part, self.path)
        return self.path

    def abort(self) -> None:
        """Closes without publishing: the `.part` file stays behind (a resumed run deletes and reruns it)."""
        if not self._file.closed:
            self._file.close()


def write_trajectory(path: str | Path, header: dict, result: Any, *, seconds: float = 0.0) -> Path:
    """Writes a whole finished episode (header, steps of an EpisodeResult, footer) in one go."""
    writer = TrajectoryWriter(path)
    writer.header(header)
    for record in result.steps:
        writer.step(record)
    return writer.footer(footer_from_result(result, seconds=seconds,
                                            optimal_plan_length=header.get("optimal_plan_length"),
                                            optimal_plan_cost=header.get("optimal_plan_cost")))


def read_trajectory(path: str | Path) -> dict[str, Any]:
    """`{"header": {...}, "steps": [...], "footer": {...}}` of a finished trajectory file: the one reader of
    trajectories (`apb eval --resume`, `apb report`). Blank lines are ignored; TrajectoryError names the file and
    line of anything else that is wrong."""
    path = Path(path)
    text = read_input(path, "trajectory file", limit=MAX_DATA_BYTES,
                      error=lambda reason: TrajectoryError(f"{path}: {reason}"))
    header = footer = None
    steps = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        try:
            line = json.loads(raw)
        except json.JSONDecodeError as err:
            raise TrajectoryError(f"{path}:{number}: corrupt trajectory line (invalid JSON: {err.msg})") from None
        kind = line.get("type") if isinstance(line, dict) else None
        if kind == "header" and header is None:
            header = line
        elif header is None:
            raise TrajectoryError(f"{path}:{number}: the trajectory has no header line (the first line must have "
                                  "type 'header')")
        elif footer is not None:
            raise TrajectoryError(f"{path}:{number}: a line after the footer")
        elif kind == "step":
            steps.append(line)
        elif kind == "footer":
            footer = line
        else:
            raise TrajectoryError(f"{path}:{number}: unexpected line type {kind!r} (expected 'step' or 'footer')")
    if header is None and not text.strip():
        raise TrajectoryError(f"{path}:1: the trajectory is empty (no header line)")
    if header is None:
        raise TrajectoryError(f"{path}:1: the trajectory is empty (no header line)")
    if footer is None:
        raise TrajectoryError(f"{path}: the trajectory has no footer line (the episode did not finish; re-run it "
                              "with apb eval --resume after deleting the file)")
    return {"header": header, "steps": steps, "footer": footer}
