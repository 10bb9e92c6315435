"""The plans PlanBench's Fast Downward found for its instances, as its released prompt files hold them.

`fd_plans.json.xz` (beside the bundled release, apb/datasets/planbench_data) maps an instance (`plan_key`: a digest
of its domain and problem texts, so both folders' copies of an instance share it) to its plan, one `name a b` action
a line. It is
written by `tools/planbench_plans.py` from the released prompt files, which state each instance's plan (t1's and
t5's `ground_truth_plan`, their one-shot example); every plan in it is checked by apb's engine (valid, and as long
as apb's optimal A* plan). Instances the release does not cover are planned by apb's A* (apb.planbench.instances).
"""

from __future__ import annotations

import hashlib
import json
import lzma
from functools import cache

from apb.datasets.planbench import ARCHIVE

PLANS_FILE = ARCHIVE.with_name("fd_plans.json.xz")


@cache
def released_plans() -> dict[str, str]:
    """plan_key -> plan text (`name a b` lines); empty when the table is not there."""
    if not PLANS_FILE.is_file():
        return {}
    return json.loads(lzma.decompress(PLANS_FILE.read_bytes()).decode("utf-8"))


def plan_key(domain_text: str, problem_text: str) -> str:
    """The table's key of an instance: the first 20 hex digits of the SHA-256 of its domain and problem texts."""
    return hashlib.sha256(f"{domain_text}\0{problem_text}".encode()).hexdigest()[:20]


def released_plan(domain_text: str, problem_text: str) -> list[str] | None:
    """The released plan of an instance as `name_a_b` actions, or None when the release does not state it."""
    text = released_plans().get(plan_key(domain_text, problem_text))
    return None if text is None else ["_".join(line.split()) for line in text.splitlines() if line.strip()]
