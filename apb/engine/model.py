"""The lifted PDDL model the parser produces: domain, action schemas, problem. Names are lower-case."""

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
class Parameter:
    """A typed parameter; `types` has more than one name for `(either ...)`."""

    name: str
    types: tuple[str, ...] = (ROOT_TYPE,)

    @property
    def type_str(self) -> str:
        return self.types[0] if len(self.types) == 1 else "(either " + " ".join(self.types) + ")"


@dataclass(frozen=True)
class ActionSchema:
    """A lifted action: parameters, a conjunction of literals as precondition, add and delete effects."""

    name: str
    parameters: tuple[Parameter, ...]
    precondition: tuple[Literal, ...]
    effects: tuple[Literal, ...]

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


@dataclass(eq=False)
class Domain:
    """A parsed domain. `types` maps each declared type to its parent (the root 'object' maps to None)."""

    name: str
    requirements: tuple[str, ...]
    types: dict[str, str | None]
    constants: dict[str, str]
    predicates: dict[str, PredicateSchema]
    actions: tuple[ActionSchema, ...]
    source: str | None = None
    warnings: list[str] = field(default_factory=list)

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
    """A parsed problem: objects (name -> type, in declaration order), init atoms and goal literals."""

    name: str
    domain_name: str
    objects: dict[str, str]
    init: tuple[Literal, ...]
    goal: tuple[Literal, ...]
    source: str | None = None
    warnings: list[str] = field(default_factory=list)
