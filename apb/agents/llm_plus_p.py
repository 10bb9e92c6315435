"""LLM+P: the LLM writes the PDDL problem of the env's English task (the domain's PDDL given), one of apb's planners
solves it, and the agent executes the plan step by step.

At reset the agent asks the LLM for the problem (`info["domain_pddl"]` and the task text), parses it with apb's
engine (a parse error goes back to the LLM up to `retries` times), records an `llm+p` trace event with the generated
PDDL and its equivalence verdict against the env's own problem (`info["problem_pddl"]`, apb.equivalence), plans,
and follows the plan. When the generated problem is equivalent but names objects differently, the plan's arguments
are renamed to the env's objects through the equivalence mapping, so a correct problem always yields a runnable plan.
"""

from __future__ import annotations

import re

from apb.agents.base import AgentError, BaseAgent, StopEpisode
from apb.agents.baselines import _PlanFollower
from apb.engine import load_domain, load_task
from apb.engine.errors import ApbError
from apb.prompts import prompt_family

prompt = prompt_family("agents/llm_plus_p/")
_FENCE = re.compile(r"```[a-zA-Z]*\n?")


def extract_problem_pddl(text: str) -> str:
    """The PDDL problem in an LLM answer: code fences dropped, from `(define` to its closing parenthesis (the whole
    answer when it has no `(define`, so the parser names what is wrong)."""
    text = _FENCE.sub("", text or "")
    start = text.lower().find("(define")
    if start < 0:
        return text.strip()
    depth, i = 0, start
    while i < len(text):
        char = text[i]
        if char == ";":  # a comment runs to the end of its line
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return text[start:i + 1]
        i += 1
    return text[start:].strip()


def rename_action(action: str, mapping: dict[str, str]) -> str:
    """`(stack b1 b2)` with its arguments renamed by `mapping`."""
    parts = action.strip("()").split()
    return "(" + " ".join([parts[0], *(mapping.get(arg, arg) for arg in parts[1:])]) + ")"


class LLMPlusPAgent(_PlanFollower):
    """LLM+P (see the module docstring). Options: `planner` (gbfs), `max_nodes` (planner budget), `retries` (parse
    errors sent back to the LLM, default 1)."""

    name = "llm+p"
    needs_llm = True
    deterministic = False
    options = ("planner", "max_nodes", "retries")

    def __init__(self, *, llm, translator=None, planner: str = "gbfs", max_nodes: int | None = 200000,
                 retries: int = 1, **base) -> None:
        from apb.planners.solve import PLANNERS

        if planner not in PLANNERS:
            raise AgentError(f"unknown planner {planner!r} for llm+p: use one of {', '.join(PLANNERS)}")
        if (max_nodes is not None and max_nodes < 1) or retries < 0:
            raise AgentError(f"llm+p: max_nodes must be at least 1 (or none) and retries 0 or more, got {max_nodes} "
                             f"and {retries}")
        BaseAgent.__init__(self, llm=llm, translator=translator, **base)
        self._start([])
        self._deferred: list[dict] = []
        self.planner = planner
        self.max_nodes = max_nodes
        self.retries = int(retries)

    def _generate(self, observation: str, domain_text: str):
        """(problem PDDL, parsed task) from the LLM, retrying on parse errors; StopEpisode when it never parses."""
        domain = load_domain(domain_text)
        messages = [{"role": "system", "content": prompt("system")},
                    {"role": "user", "content": prompt("user", domain_pddl=domain_text.strip(), task=observation,
                                                       domain_name=domain.name)}]
        for attempt in range(self.retries + 1):
            answer = self.call_llm(messages, role="planner")
            pddl = extract_problem_pddl(answer)
            try:
                return pddl, load_task(domain, pddl)
            except ApbError as err:
                self.emit({"type": "llm+p", "problem_pddl": pddl, "parseable": False, "error": str(err),
                           "attempt": attempt})
                messages = [*messages, {"role": "assistant", "content": answer},
                            {"role": "user", "content": prompt("retry", error=str(err))}]
        raise StopEpisode("the LLM's PDDL problem does not parse")

    def _verdict(self, domain_text: str, true_problem: str | None, pddl: str) -> tuple[str | None, str, dict | None]:
        """(verdict, reason, renaming generated -> env objects) against the env's problem, when info has it."""
        if not true_problem:
            return None, "the env gives no problem_pddl to compare with", None
        from apb.equivalence import check

        try:
            result = check(domain_text, pddl, true_problem)
        except ApbError as err:
            return "error", str(err), None
        return result.verdict, result.reason, result.mapping

    def reset(self, observation: str, info: dict) -> None:
        from apb.planners import solve

        self._start([])
        domain_text = info.get("domain_pddl")
        if not domain_text:
            raise StopEpisode("the env gives no domain_pddl to write a problem for")
        pddl, task = self._generate(observation, domain_text)
        verdict, reason, mapping = self._verdict(domain_text, info.get("problem_pddl"), pddl)
        self.emit({"type": "llm+p", "problem_pddl": pddl, "parseable": True, "equivalence": verdict,
                   "reason": reason, "mapping": mapping})
        result = solve(task, self.planner, timeout=None, max_nodes=self.max_nodes)
        self.emit({"type": "planner", "planner": self.planner, "status": result.status,
                   "plan_length": result.plan_length, "expanded": result.expanded,
                   "seconds": round(result.seconds, 6), "message": result.message})
        if not result.solved:
            raise StopEpisode(f"{self.planner}: the generated problem is {result.status}")
        plan = result.plan_strings() or []
        if mapping:
            plan = [rename_action(step, mapping) for step in plan]
        self._start(plan)
        # Runners write the events of a step with that step; those of reset go with the first one.
        self._deferred = self.pop_events()

    def act(self, observation: str, info: dict) -> str:
        deferred, self._deferred = self._deferred, []
        self.events[:0] = deferred
        return super().act(observation, info)
