"""Planning an evaluation: which episodes (domains x agents x problems x seeds) a run consists of.

    specs = plan_episodes(["blocksworld"], ["act"], [1, 2], seeds=2, model="openai:gpt-4o-mini")

Problems are checked against every domain before anything runs; agents' facts (needs an LLM, deterministic) come
from their classes through `apb.agents.registry`.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from apb.datasets import Dataset, is_bundled, number_ranges, resolve, source_name
from apb.domains.registry import UnknownDomainError
from apb.engine.errors import ApbError
from apb.eval.trajectory import EpisodeSpec

ALL = "all"  # --problems all: every problem of the split
MAX_RANGE = 100_000  # problems in one --problems range, or seeds (more would exhaust memory before any work)


class EvalError(ApbError):
    """A run that cannot start: a non-empty output folder without --resume, a bad problem range, ..."""


def parse_problems(value: Any) -> list[int | str]:
    """'1-20' -> [1..20]; '1,3,5-7' -> [1, 3, 5, 6, 7]; 'all' -> ['all'] (every problem of the split); an int or
    a list is taken as is."""
    if isinstance(value, bool):
        raise EvalError(f"bad problems {value!r}: use a range like '1-20', a number or a list")
    if isinstance(value, int):
        return [value]
    if isinstance(value, list | tuple):
        out: list[int | str] = []
        for item in value:
            out.extend(parse_problems(item) if isinstance(item, int | str) else [item])
        return out
    if not isinstance(value, str) or not value.strip():
        raise EvalError(f"bad problems {value!r}: use a range like '1-20', a number or a list")
    if value.strip().lower() == ALL:
        return [ALL]
    out = []
    for part in value.split(","):
        part = part.strip()
        lo, sep, hi = part.partition("-")
        if sep and lo.strip().isdigit() and hi.strip().isdigit():
            a, b = int(lo), int(hi)
            if a > b:
                raise EvalError(f"bad problems range {part!r}: the start is after the end")
            if b - a >= MAX_RANGE:
                raise EvalError(f"bad problems range {part!r}: {b - a + 1} problems; a range holds at most "
                                f"{MAX_RANGE} (use 'all' for every problem of the split)")
            out.extend(range(a, b + 1))
        elif part.isdigit():
            out.append(int(part))
        elif part and not sep:
            out.append(part)  # a problem id such as 'p01'
        else:
            raise EvalError(f"bad problems {value!r}: use a range like '1-20', numbers or ids separated by commas")
    return out


def parse_seeds(value: Any) -> list[int]:
    """An int K -> seeds 0..K-1; a list -> those seeds."""
    if isinstance(value, bool):
        raise EvalError(f"bad seeds {value!r}: a count (3) or a list of seeds ([0, 7])")
    if isinstance(value, int):
        if value < 1:
            raise EvalError(f"bad seeds {value}: the number of seeds must be at least 1")
        if value > MAX_RANGE:
            raise EvalError(f"bad seeds {value}: at most {MAX_RANGE} seeds")
        return list(range(value))
    if isinstance(value, list | tuple) and value and all(isinstance(s, int) and not isinstance(s, bool)
                                                         for s in value):
        return list(value)
    raise EvalError(f"bad seeds {value!r}: a count (3) or a list of seeds ([0, 7])")


def plan_episodes(domains: Iterable[str], agents: Iterable[str], problems: Any, seeds: Any = 1, *,
                  model: str | None = None, split: str = "test", translator: str = "cascade",
                  require_finish: bool = False, agent_options: dict | None = None,
                  max_steps: int | None = None, description: str = "curated") -> list[EpisodeSpec]:
    """Every (domain, agent, problem, seed) combination as an EpisodeSpec; symbolic agents get no model, and the
    deterministic agents (planners, the oracle) run with the first seed only. `problems` are checked against
    every domain before anything runs. `agent_options` maps agent name -> constructor options."""
    from apb.agents import AGENTS, agent_view, is_deterministic, needs_llm
    from apb.agents.registry import agent_class, agent_spec, check_option_values
    from apb.nl.variants import VARIANTS

    problem_list = parse_problems(problems)
    seed_list = parse_seeds(seeds)
    check_translator(translator)
    options = agent_options or {}
    domains = list(domains)
    if description not in ("curated", "rule", *VARIANTS) and not Path(description).is_file():
        raise EvalError(f"unknown description {description!r}: use curated, rule, obfuscated, shuffled or the path of "
                        "an nl.yaml file")
    for agent in agents:
        if agent_spec(agent)[0] not in AGENTS:
            raise EvalError(f"unknown agent {agent!r}: use one of {', '.join(AGENTS)}")
        check_option_values(agent_class(agent), dict(options.get(agent) or {}), f"agent {agent!r}")
        check_agent_builds(agent, dict(options.get(agent) or {}))
        if needs_llm(agent) and not model:
            raise EvalError(f"the {agent} agent needs an LLM: pass --llm SPEC (e.g. local, openai:gpt-4o-mini)")
        if description != "curated" and agent_view(agent) == "pddl":
            raise EvalError(f"the {agent} agent reads PDDL, so description {description!r} would not reach it; run "
                            "the PDDL agents without --description")
    names: dict[str, str] = {}
    for domain in domains:
        if (other := names.setdefault(source_name(domain), domain)) != domain:
            raise EvalError(f"two domains are both named {source_name(domain)!r} ({other} and {domain}): their "
                            "episodes and report rows would mix; run them into separate --out folders")
    specs = []
    for domain in domains:
        selected = resolve_problems(domain, split, problem_list)
        if Path(description).is_file():  # a description file is read now: a malformed one fails here, not per episode
            check_description(domain, split, description)
        for agent in agents:
            llm_agent = needs_llm(agent)
            for problem in selected:
                for seed in seed_list[:1] if is_deterministic(agent) else seed_list:
                    specs.append(EpisodeSpec(domain=domain, problem=problem, agent=agent,
                                             model=model if llm_agent else None, seed=seed, split=split,
                                             translator=translator, agent_options=dict(options.get(agent) or {}),
                                             require_finish=require_finish, max_steps=max_steps,
                                             description=description))
    return specs


def check_agent_builds(agent: str, options: dict) -> None:
    """Builds the agent once without a model, so that an option value it refuses (`llm+p:planner=bogus`,
    `closed-loop:horizon=0`) is an EvalError now rather than an error in every episode. An agent that cannot be
    built without its run-time arguments is left to the run."""
    from apb.agents.base import AgentError
    from apb.agents.registry import make_agent, needs_llm

    try:  # a stand-in model: the agent only keeps it until a run calls it
        agent_object = make_agent(agent, llm=object() if needs_llm(agent) else None, **options)
    except AgentError as err:
        raise EvalError(f"agent {agent!r}: {err}") from None
    except Exception:  # it needs what only a run has (its model, its env): the run reports it
        return
    close = getattr(agent_object, "close", None)
    if callable(close):
        close()


def check_translator(kind: str) -> None:
    """EvalError naming the kinds when `kind` is not a translator."""
    from apb.translators import KINDS

    if kind not in KINDS:
        raise EvalError(f"unknown translator {kind!r}: use one of {', '.join(KINDS)}")


def check_description(domain: str, split: str, description: str) -> None:
    """EvalError naming the file when `description` cannot describe `domain` (unreadable, malformed)."""
    from apb.nl.sources import load_templates

    dataset = problem_set(domain, split)
    try:
        load_templates(dataset.domain, description, domain_file=dataset.domain_file)
    except ApbError as err:
        raise EvalError(f"--description {description}: {err}") from None


def problem_set(domain: str, split: str) -> Dataset:
    """The problems of a bundled domain or a dataset folder in one split (EvalError naming what exists)."""
    try:
        return resolve(domain, split)
    except ApbError as err:
        known = is_bundled(domain) or isinstance(err, UnknownDomainError)
        raise EvalError(str(err) if known else f"domain {domain}: {err}") from None


def resolve_problems(domain: str, split: str, problems: list[int | str], *,
                     hint: str = "use --problems all for every one") -> list[int | str]:
    """The problems to run in one domain: every problem of the split for ['all'] (by number when the numbers are
    unique, else by id), else `problems` as given once each is known to exist (EvalError naming what exists)."""
    from apb.datasets import DatasetError

    dataset = problem_set(domain, split)
    if problems == [ALL]:
        return list(dataset.numbers()) if dataset.numbered else [entry.id for entry in dataset.problems]
    for problem in problems:
        try:
            dataset.entry(problem)
        except DatasetError:
            raise EvalError(f"domain {source_name(domain)} (split {split}) has no problem {problem!r}: its problems "
                            f"are {number_ranges(dataset.numbers())}; {hint}") from None
    return problems
