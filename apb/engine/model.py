"""The lifted PDDL model the parser produces: domain, action schemas, axioms, problem. Names are lower-case.

Formulas (preconditions, goals, effect conditions, axiom bodies) are trees of `Literal`, `And`, `Or`, `Not`,
`Imply`, `Forall` and `Exists`, kept as written so that explanations can follow the author's structure. An action
keeps its *literal part* where older code expects it: `ActionSchema.precondition` holds the top-level literal
conjuncts and `complex_precondition` every other conjunct (the precondition is their conjunction);
`ActionSchema.effects` holds the unconditional, unquantified literal effects and `conditional_effects` the rest,
flattened (see `ConditionalEffect`). A STRIPS schema has empty `complex_precondition` and `conditional_effects`.
The same split holds for `Problem.goal` / `Problem.complex_goal`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

ROOT_TYPE = "object"


@dataclass(frozen=True)
class Literal:
    """An atom `(pred arg ...)`, possibly negated; `pred` is '=' for equality. Args are objects or ?vars."""

    predicate: str
    args: tuple[str, ...]
    positive: bool = True

    def atom_str(self) -> str:
        """The atom without its sign: `(on ?x ?y)`."""
        return "(" + " ".join((self.predicate, *self.args)) + ")"

    def __str__(self) -> str:
        return self.atom_str() if self.positive else f"(not {self.atom_str()})"


@dataclass(frozen=True)
class And:
    """`(and p ...)`; the empty conjunction is true."""

    parts: tuple

    def __str__(self) -> str:
        return "(and" + "".join(" " + str(p) for p in self.parts) + ")"


@dataclass(frozen=True)
class Or:
    """`(or p ...)`; the empty disjunction is false."""

    parts: tuple

    def __str__(self) -> str:
        return "(or" + "".join(" " + str(p) for p in self.parts) + ")"


@dataclass(frozen=True)
class Not:
    """`(not p)` over a formula that is not an atom (a negated atom is a negative `Literal`)."""

    part: object

    def __str__(self) -> str:
        return f"(not {self.part})"


@dataclass(frozen=True)
class Imply:
    """`(imply antecedent consequent)`."""

    antecedent: object
    consequent: object

    def __str__(self) -> str:
        return f"(imply {self.antecedent} {self.consequent})"


@dataclass(frozen=True)
class Forall:
    """`(forall (?x - t ...) body)` over the objects of the parameters' types."""

    parameters: tuple
    body: object

    def __str__(self) -> str:
        return f"(forall ({_params_str(self.parameters)}) {self.body})"


@dataclass(frozen=True)
class Exists:
    """`(exists (?x - t ...) body)`."""

    parameters: tuple
    body: object

    def __str__(self) -> str:
        return f"(exists ({_params_str(self.parameters)}) {self.body})"


Formula = Literal | And | Or | Not | Imply | Forall | Exists


def _params_str(parameters) -> str:
    parts = []
    for p in parameters:
        parts.append(p.name if p.types == (ROOT_TYPE,) else f"{p.name} - {p.type_str}")
    return " ".join(parts)


@dataclass(frozen=True)
class Parameter:
    """A typed parameter; `types` has more than one name for `(either ...)`."""

    name: str
    types: tuple[str, ...] = (ROOT_TYPE,)

    @property
    def type_str(self) -> str:
        return self.types[0] if len(self.types) == 1 else "(either " + " ".join(self.types) + ")"


@dataclass(frozen=True)
class ConditionalEffect:
    """One effect literal of an action, flattened from `forall`/`when` nesting.

    For every binding of `parameters` (the variables of the enclosing `forall`s) for which `condition` (the
    conjunction of the enclosing `when` conditions; None: always) holds in the state *before* the action,
    `literal` is added (positive) or deleted (negative). `(forall (?x) (when c (and e1 e2)))` gives two entries
    that share parameters and condition.
    """

    parameters: tuple[Parameter, ...]
    condition: object | None
    literal: Literal

    def __str__(self) -> str:
        text = str(self.literal)
        if self.condition is not None:
            text = f"(when {self.condition} {text})"
        if self.parameters:
            text = f"(forall ({_params_str(self.parameters)}) {text})"
        return text


@dataclass(frozen=True)
class CostTerm:
    """One `(increase (total-cost) X)` of an action: X is the number `value`, or the static function term
    `(function arg ...)` (args are ?parameters or constants) whose value the problem's :init gives.
    """

    value: float | None = None
    function: str | None = None
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.function is None:
            value = int(self.value) if self.value is not None and float(self.value).is_integer() else self.value
            return f"(increase (total-cost) {value})"
        return "(increase (total-cost) (" + " ".join((self.function, *self.args)) + "))"


@dataclass(frozen=True)
class ActionSchema:
    """A lifted action: parameters, a precondition and effects (see the module docstring for the split).

    `cost` lists the action's `(increase (total-cost) ...)` terms; their sum is the cost of a ground action.
    """

    name: str
    parameters: tuple[Parameter, ...]
    precondition: tuple[Literal, ...]
    effects: tuple[Literal, ...]
    complex_precondition: tuple = ()
    conditional_effects: tuple[ConditionalEffect, ...] = ()
    cost: tuple[CostTerm, ...] = ()

    @property
    def is_strips(self) -> bool:
        """True when the precondition is a conjunction of literals and every effect is unconditional."""
        return not self.complex_precondition and not self.conditional_effects

    @property
    def condition(self) -> Formula:
        """The whole precondition as one formula."""
        parts = (*self.precondition, *self.complex_precondition)
        return parts[0] if len(parts) == 1 else And(parts)

    @property
    def add_effects(self) -> tuple[Literal, ...]:
        return tuple(e for e in self.effects if e.positive)

    @property
    def delete_effects(self) -> tuple[Literal, ...]:
        return tuple(e for e in self.effects if not e.positive)

    def pddl_signature(self) -> str:
        """`(stack ?ob ?underob)`."""
        return "(" + " ".join((self.name, *(p.name for p in self.parameters))) + ")"


@dataclass(frozen=True)
class PredicateSchema:
    name: str
    parameters: tuple[Parameter, ...]

    @property
    def arity(self) -> int:
        return len(self.parameters)


@dataclass(frozen=True)
class Axiom:
    """`(:derived (predicate ?x ...) body)`: the derived atom holds exactly when some axiom's body holds
    (least fixpoint, evaluated stratum by stratum). Variables of `body` not in `parameters` are existential.
    """

    predicate: str
    parameters: tuple[Parameter, ...]
    body: object

    def head_str(self) -> str:
        return "(" + " ".join((self.predicate, *(p.name for p in self.parameters))) + ")"

    def __str__(self) -> str:
        return f"(:derived {self.head_str()} {self.body})"


@dataclass(eq=False)
class Domain:
    """A parsed domain. `types` maps each declared type to its parent (the root 'object' maps to None).

    `functions` are the declared numeric functions (only `total-cost` and static cost functions are supported);
    `axioms` the derived-predicate rules; a derived predicate is also in `predicates`.
    """

    name: str
    requirements: tuple[str, ...]
    types: dict[str, str | None]
    constants: dict[str, str]
    predicates: dict[str, PredicateSchema]
    actions: tuple[ActionSchema, ...]
    source: str | None = None
    warnings: list[str] = field(default_factory=list)
    functions: dict[str, PredicateSchema] = field(default_factory=dict)
    axioms: tuple[Axiom, ...] = ()

    @property
    def derived_predicates(self) -> frozenset[str]:
        """Names of the predicates defined by axioms."""
        return frozenset(a.predicate for a in self.axioms)

    @property
    def has_costs(self) -> bool:
        """True when some action increases total-cost (then an action without an increase costs 0)."""
        return any(a.cost for a in self.actions)

    @property
    def is_strips(self) -> bool:
        """True when no action has a complex precondition or conditional effect and there are no axioms."""
        return not self.axioms and all(a.is_strips for a in self.actions)

    def action(self, name: str) -> ActionSchema | None:
        for schema in self.actions:
            if schema.name == name:
                return schema
        return None

    def ancestors(self, type_name: str) -> list[str]:
        """The type itself and every supertype up to 'object'."""
        chain = [type_name]
        seen = {type_name}
        parent = self.types.get(type_name)
        while parent is not None and parent not in seen:
            chain.append(parent)
            seen.add(parent)
            parent = self.types.get(parent)
        if ROOT_TYPE not in seen:
            chain.append(ROOT_TYPE)
        return chain

    def is_subtype(self, type_name: str, of: tuple[str, ...]) -> bool:
        """True if `type_name` is one of `of` or a descendant of one of them."""
        ancestors = self.ancestors(type_name)
        return any(t in ancestors for t in of)


@dataclass(eq=False)
class Problem:
    """A parsed problem: objects (name -> type, in declaration order), init atoms and the goal.

    The goal is the conjunction of the literals `goal` and the formulas `complex_goal`. `function_values` maps
    ground function terms such as ('road-length', 'a', 'b') to their :init value; `metric` is
    "minimize (total-cost)" or None.
    """

    name: str
    domain_name: str
    objects: dict[str, str]
    init: tuple[Literal, ...]
    goal: tuple[Literal, ...]
    source: str | None = None
    warnings: list[str] = field(default_factory=list)
    complex_goal: tuple = ()
    function_values: dict[tuple, float] = field(default_factory=dict)
    metric: str | None = None

    @property
    def goal_formula(self) -> Formula:
        """The whole goal as one formula."""
        parts = (*self.goal, *self.complex_goal)
        return parts[0] if len(parts) == 1 else And(parts)
