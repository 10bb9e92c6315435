"""What a generation run gives back: the templates, their fallbacks, the run's report and progress events."""

from __future__ import annotations

from dataclasses import dataclass, field

from apb.engine.errors import ApbError
from apb.nl.nl_yaml import NLTemplates


class NLGenerateError(ApbError):
    """Template generation cannot start or go on: bad examples file, unusable domain, refused overwrite."""


# ---- results ------------------------------------------------------------------------------------------------------
@dataclass
class Fallback:
    """An entry the LLM did not get right after its repair turn, worded by the rules instead.

    `fields` says which parts came from the rules: ("all",) for the whole entry, ("variables",) when only
    parameter descriptions were missing."""

    kind: str  # "predicate" | "action" | "intro"
    name: str
    reason: str
    fields: tuple[str, ...] = ("all",)

    @property
    def label(self) -> str:
        """'predicate at', 'action board', 'intro ferry'."""
        return f"{self.kind} {self.name}"

    def __str__(self) -> str:
        part = "" if self.fields == ("all",) else f" ({', '.join(self.fields)})"
        return f"{self.label}{part}: {self.reason}"


@dataclass
class GenerationReport:
    """What a generation run did: entries generated, repair turns, fallbacks, LLM calls, tokens and cost.

    `cost` is in USD, None when some call had no known price."""

    llm: str
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_tokens: int = 0
    cached_responses: int = 0  # answers served from apb's response cache (no provider call)
    cost: float | None = 0.0
    generated: list[str] = field(default_factory=list)  # labels of entries the LLM wrote (after repair or not)
    repairs: list[str] = field(default_factory=list)  # labels of entries that needed a repair turn
    off_topic: list[str] = field(default_factory=list)  # labels of entries with an answer that was not about them
    fallbacks: list[Fallback] = field(default_factory=list)

    def record(self, completion) -> None:
        """Counts one completion: a call, its tokens, whether the cache served it, its cost."""
        self.calls += 1
        usage = getattr(completion, "usage", None)
        if usage is not None:
            self.input_tokens += getattr(usage, "input_tokens", 0) or 0
            self.output_tokens += getattr(usage, "output_tokens", 0) or 0
            self.cached_tokens += getattr(usage, "cached_tokens", 0) or 0
        if getattr(completion, "cached", False):
            self.cached_responses += 1
        cost = getattr(completion, "cost", None)
        self.cost = None if cost is None or self.cost is None else self.cost + cost

    @property
    def entries(self) -> int:
        """Predicates and actions written (by the LLM or, for fallbacks, by the rules)."""
        return len(self.generated) + sum(1 for f in self.fallbacks if f.kind != "intro" and f.fields == ("all",))

    @property
    def repaired(self) -> list[str]:
        """Entries whose repair turn fixed them."""
        return [label for label in self.repairs if label in self.generated]


@dataclass
class GenerationEvent:
    """Progress of a run, sent to `on_progress` after each entry. `outcome`: ok | repaired | filled (parameter
    descriptions taken from the rules) | fallback."""

    stage: str  # "predicate" | "action" | "intro"
    name: str
    index: int
    total: int
    outcome: str
    reason: str = ""


@dataclass
class GeneratedTemplates(NLTemplates):
    """NLTemplates written by an LLM, with the fallbacks taken and the run's report."""

    fallbacks: list[Fallback] = field(default_factory=list)
    report: GenerationReport | None = None


@dataclass
class Issue:
    """One thing wrong with an answer; `part` is text | negated | indefinite | variables | intro | topic | answer.
    (Named Issue, not Problem: apb.engine.model.Problem is a PDDL problem.)"""

    part: str
    message: str

