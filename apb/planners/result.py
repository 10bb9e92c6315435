"""What every planner returns: `SearchResult`, plus the budget (time, expansions) planners check as they go."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from apb.engine import GroundAction

SOLVED = "solved"
UNSOLVABLE = "unsolvable"
TIMEOUT = "timeout"
NODE_LIMIT = "node_limit"
STEP_LIMIT = "step_limit"
ERROR = "error"
STATUSES = (SOLVED, UNSOLVABLE, TIMEOUT, NODE_LIMIT, STEP_LIMIT, ERROR)


@dataclass
class SearchResult:
    """The outcome of one planner run; counters and time are filled in whether or not a plan was found.

    `status` is one of STATUSES. `plan` is the list of ground actions when solved, else None. `expanded`
    counts states whose successors were generated, `generated` successor states produced (duplicates included),
    `evaluated` heuristic evaluations (for A* with LM-cut: evaluation steps, each a zero-cost reachability test,
    some also a new cut). `extra` holds planner-specific details, e.g. the random walk's seed and steps.
    """

    status: str
    planner: str
    plan: list[GroundAction] | None = None
    expanded: int = 0
    generated: int = 0
    evaluated: int = 0
    seconds: float = 0.0
    heuristic: str | None = None
    message: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def solved(self) -> bool:
        """Whether a plan was found."""
        return self.status == SOLVED

    @property
    def plan_length(self) -> int | None:
        """Number of actions in the plan, or None without a plan."""
        return None if self.plan is None else len(self.plan)

    @property
    def plan_cost(self) -> float | None:
        """The plan's cost (`Task.cost` of each action: its total-cost increase with action costs, else 1), or None
        without a plan."""
        return None if self.plan is None else sum(action.cost for action in self.plan)

    def plan_strings(self) -> list[str] | None:
        """The plan as PDDL action strings such as "(stack a b)"."""
        return None if self.plan is None else [str(a) for a in self.plan]

    def to_dict(self) -> dict:
        """A JSON-friendly dict (the plan as strings; `cost` is `plan_cost`, equal to `plan_length` on tasks
        without action costs)."""
        return {
            "status": self.status,
            "planner": self.planner,
            "heuristic": self.heuristic,
            "plan": self.plan_strings(),
            "plan_length": self.plan_length,
            "cost": self.plan_cost,
            "expanded": self.expanded,
            "generated": self.generated,
            "evaluated": self.evaluated,
            "seconds": round(self.seconds, 6),
            "message": self.message,
            **({"extra": self.extra} if self.extra else {}),
        }


class Budget:
    """Time and expansion limits of one run; `exceeded(expanded)` names the limit hit, if any. `clock` is wall-clock
    time by default; `time.process_time` makes the limit one of CPU time (as Fast Downward's limits are)."""

    def __init__(self, timeout: float | None = None, max_nodes: int | None = None,
                 clock=time.perf_counter) -> None:
        self.clock = clock
        self.start = clock()
        self.deadline = None if timeout is None else self.start + timeout
        self.max_nodes = max_nodes

    def exceeded(self, expanded: int) -> str | None:
        """TIMEOUT or NODE_LIMIT when a limit is reached before expanding one more state, else None."""
        if self.max_nodes is not None and expanded >= self.max_nodes:
            return NODE_LIMIT
        if self.deadline is not None and self.clock() >= self.deadline:
            return TIMEOUT
        return None

    def elapsed(self) -> float:
        """Seconds since the run started."""
        return self.clock() - self.start

    def limit_message(self, status: str) -> str:
        """A sentence saying which budget ran out."""
        if status == NODE_LIMIT:
            return f"expansion limit of {self.max_nodes} reached"
        if status == TIMEOUT:
            return f"time limit of {self.deadline - self.start:g} s reached"
        return ""
