"""ACP questions: the task and format names, ACPBench's group names, and the `Question` record apb writes.

A question has a view-independent part (task, format, state, goal, the PDDL items it asks about, the gold answer
in ACPBench's format, apb's full gold data and its proofs) and a worded part (context, question, choices) that
`apb.acp.wording` renders in English or PDDL. Ids hash the view-independent part only, so the same question
worded two ways has the same id and the same gold.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any

TASKS = ("app", "prog", "reach", "areach", "val", "just", "land", "nexta")
FORMATS = ("bool", "mcq", "gen")
LABELS = ("A", "B", "C", "D")
# ACPBench's group names (the `group` field); MCQ groups end in _mc, generative ones in _gen.
GROUPS = {"app": "applicable_actions", "prog": "progression", "reach": "reachable_atom",
          "areach": "reachable_action", "val": "validation", "just": "action_justification",
          "land": "landmarks", "nexta": "goal_closer"}
# Other spellings seen in ACPBench's releases and configs, mapped to apb's task names.
GROUP_ALIASES = {"reachability": "reach", "action_reachability": "areach", "justification": "just",
                 "applicability": "app", "next_action": "nexta", "goal_closer": "nexta", "landmark": "land"}
FORMAT_SUFFIX = {"bool": "bool", "mcq": "mc", "gen": "gen"}
# The released dev/test files spell the MCQ suffix "_mcq" for these tasks and "_mc" for the others.
MCQ_LONG_SUFFIX = ("just", "land", "prog", "val")


def task_formats(task: str) -> tuple[str, ...]:
    """The formats a task comes in: nexta is generative only."""
    return ("gen",) if task == "nexta" else FORMATS


def group_name(task: str, fmt: str) -> str:
    """ACPBench's group of a task and format, as the release spells it: `applicable_actions_bool`,
    `applicable_actions_mc`, `progression_mcq`, `landmarks_gen`."""
    suffix = "mcq" if fmt == "mcq" and task in MCQ_LONG_SUFFIX else FORMAT_SUFFIX[fmt]
    return f"{GROUPS[task]}_{suffix}"


def parse_group(group: str) -> tuple[str, str] | None:
    """(task, format) of an ACPBench group name, None when it is not one."""
    text = str(group).strip().lower()
    for suffix_fmt, suffix in (("mcq", "_mcq"), ("mcq", "_mc"), ("bool", "_bool"), ("gen", "_gen")):
        if text.endswith(suffix):
            stem = text[: -len(suffix)]
            for task, name in GROUPS.items():
                if stem in (name, task):
                    return task, suffix_fmt
            if stem in GROUP_ALIASES:
                return GROUP_ALIASES[stem], suffix_fmt
    return None


def question_id(*parts: Any) -> int:
    """A stable signed 63-bit id from the view-independent parts of a question (ACPBench ids are integers)."""
    digest = hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True) >> 1


@dataclass
class Question:
    """One ACP question. `answer` is ACPBench's gold (yes/no, a letter, or the generative gold); `gold` holds
    apb's complete gold data (e.g. every unreachable atom), `proof` the proofs behind it."""

    id: int
    task: str
    format: str
    domain: str = ""
    problem: str = ""
    state: list[str] = field(default_factory=list)
    goal: list[str] = field(default_factory=list)
    item: dict = field(default_factory=dict)
    options: list[dict] | None = None
    answer: Any = None
    gold: dict = field(default_factory=dict)
    proof: dict = field(default_factory=dict)
    domain_pddl: str = ""
    problem_pddl: str = ""
    view: str = "nl"
    context: str = ""
    question: str = ""
    choices: dict | None = None
    query: str | None = None
    source: str = "apb"
    origin: str = ""
    budget: int = 20000  # states a proof may enumerate (generation's --budget); replays use the same
    held_out: bool = False  # read from a record without `answer` (a held-out split): no gold to score against

    @property
    def group(self) -> str:
        return group_name(self.task, self.format)

    def acpbench(self) -> dict:
        """The record in ACPBench's JSON format (generative records carry the PDDL, :init being the state)."""
        record: dict[str, Any] = {"id": self.id, "group": self.group, "context": self.context,
                                  "question": self.question}
        if self.format == "mcq":
            record["choices"] = self.choices
            record["query"] = self.query
        if not self.held_out:  # a held-out record stays without gold
            record["answer"] = self.answer
        if self.format == "gen":
            record["PDDL_domain"] = self.domain_pddl
            record["PDDL_problem"] = self.problem_pddl
        return record

    def to_dict(self) -> dict:
        """The apb JSONL record: every field plus the group."""
        data = asdict(self)
        data["group"] = self.group
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Question:
        """A question from an apb JSONL record (unknown keys are ignored)."""
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})
