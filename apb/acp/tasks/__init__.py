"""The eight ACP tasks, one module each, by name: `TASKS[name]` is an `ACPTask` (`apb.acp.tasks.base`: the task's
generator, answer shape, solver, bool/MCQ decision, official and sound verdicts, audit and replay).

`TASKS[task].generate(situation, fmt, rng, want) -> Question | None`: `want` is the answer the question should
have, as the balancing rule (`apb.acp.balance`) picks it: True (yes) or False (no) for a boolean question, the
gold letter of an MCQ (where `common.arrange` puts the correct option); a generator returns None when the situation
cannot give such a question (then another situation is tried). Shared machinery: `common` (situations, options),
`reachability`, `plans`, `goals` (the analyses several tasks rest on).
"""

from apb.acp.tasks import app, areach, just, land, nexta, prog, reach, val
from apb.acp.tasks.base import ACPTask
from apb.acp.tasks.common import ProblemInfo, Situation

TASKS: dict[str, ACPTask] = {module.TASK.name: module.TASK for module in (app, prog, reach, areach, val, just, land,
                                                                           nexta)}

__all__ = ["TASKS", "ACPTask", "ProblemInfo", "Situation"]
