"""The eight ACP task generators: `GENERATORS[task](situation, fmt, rng, want) -> Question | None`.

`want` is the yes/no answer a boolean question should have (callers alternate it to balance the answers); a
generator returns None when the situation cannot give such a question (then another situation is tried).
"""

from apb.acp.tasks.applicability import app, prog
from apb.acp.tasks.common import ProblemInfo, Situation
from apb.acp.tasks.goals import land, nexta
from apb.acp.tasks.plans import just, val
from apb.acp.tasks.reachability import areach, reach

GENERATORS = {"app": app, "prog": prog, "reach": reach, "areach": areach, "val": val, "just": just, "land": land,
              "nexta": nexta}

__all__ = ["GENERATORS", "ProblemInfo", "Situation"]
