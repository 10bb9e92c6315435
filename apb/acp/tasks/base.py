"""The protocol of an ACP task: what one task owns, called by name from the registry (`apb.acp.tasks.TASKS`).

An `ACPTask` bundles one task's parts; the shared modules (generation, the solver, both scorers, the acceptance
judge, the audit, verification, extraction, the oracle) look the task up by name and call them:

- `generate(situation, fmt, rng, want)`: a question with proved gold, or None (`apb.acp.generate`);
- `shape`: the answer's shape in ACPBench's format, which says how it is extracted and written: `list` (actions),
  `effects` ({"pos", "neg"}), `index` (an integer) or `one` (an atom or action, or None);
- `grammar` and `official_text(text)`: the official grammar's start symbol (list, lists, index, name, act) and
  the release scorer's rewrite of the text before it parses it; `official(q, parsed)`: the official verdict on the
  parsed answer (`apb.acp.official`);
- `sound(q, answer)`: apb's sound verdict on an extracted generative answer (`apb.acp.scorers`);
- `solve(q)`: the solver's generative answer from the question's PDDL, `(answer, text)` or None; `decide(q, item,
  option)`: a bool/MCQ statement decided with the engine (True, False, or None when undecided), None for a
  generative-only task; `several_true(q, values)`: which of several true MCQ options the release names (None:
  the question is not answered);
- `audit(q, found, official)`: findings about a generative gold (`found(kind, message, proof, claim)` records one,
  `official(q, text)` is the official verdict); `verify(q)`: problems with a generated bool/MCQ gold;
- `oracle(q)`: the gold in the answer's shape; `claim(task, answer)` / `gold_denies(q, item)`: the claim a correct
  rejected answer proves and whether the gold denies it (`apb.acp.acceptance`; None: nothing to claim);
  `only_gold(q)`: a proof (text) that the official check accepts no answer outside the gold's own list, or None;
  `bool_claim(q)`: (kind, claim, Verdict) of the statement a bool question asks about, decided by the prover
  (`check_proof` replays it), or None;
- `tarski_check(q)`: what of ACPBench's evaluator of a generative record reads its PDDL with tarski (then a record
  tarski cannot read or ground cannot be scored: `apb.acp.judgeable`), None when nothing does.
- `gen_gold`: the type of a generative gold (`list`, `int`, or the keys of its object), which the check of a
  question file (`apb.acp.record_check`) holds a record's gold to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

SHAPES = ("list", "effects", "index", "one")


def gold(q):
    """The gold as the answer (the shape of the release's gold is the answer's)."""
    return q.answer


def as_written(text: str) -> str:
    return text


def empty_gold(q, item) -> bool:
    return not q.answer


def no_tarski(q) -> str | None:
    return None


@dataclass(frozen=True)
class ACPTask:
    """One ACP task's parts (see the module's docstring)."""

    name: str  # as in `apb.acp.records.TASKS`
    shape: str  # one of SHAPES
    grammar: str  # the official grammar's start symbol
    generate: Callable  # (situation, fmt, rng, want) -> Question | None
    solve: Callable  # (q) -> (answer, text) | None
    official: Callable  # (q, parsed) -> Check
    sound: Callable  # (q, answer) -> Check
    audit: Callable  # (q, found, official) -> findings
    decide: Callable | None = None  # (q, item, option) -> bool | None; None: no bool/MCQ questions
    verify: Callable | None = None  # (q) -> problems
    several_true: Callable | None = None  # (q, values) -> values with one True
    oracle: Callable = gold  # (q) -> the gold in the answer's shape
    official_text: Callable = as_written  # (text) -> the text the official grammar parses
    claim: Callable | None = None  # (task, answer) -> (kind, item, value)
    gold_denies: Callable = empty_gold  # (q, item) -> bool
    only_gold: Callable | None = None  # (q) -> proof text | None
    bool_claim: Callable | None = None  # (q) -> (kind, claim, Verdict) | None
    tarski_check: Callable = no_tarski  # (q) -> what of the official evaluator needs tarski | None
    # the generative gold as the release (and generation) writes it: a list, an integer, or an object with these keys
    gen_gold: type | tuple[str, ...] = list

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"{self.name}: unknown answer shape {self.shape!r} (one of {', '.join(SHAPES)})")
