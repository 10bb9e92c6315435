"""Experiment files for `apb eval --config exp.yaml`: read, validated, errors naming the file, line and key.

    domains: [blocksworld, ferry]     # or "all", or dataset folder paths
    agents: [random, bfs, act, "closed-loop:horizon=5"]   # options in a name: one agent, several settings
    llm: openai:gpt-4o-mini           # for the LLM agents
    problems: 1-20                    # or a list [1, 2, p07], or all (the default)
    seeds: 2                          # a count, or a list of seeds
    split: test
    concurrency: 8
    llm_concurrency: 16               # LLM requests in flight (default: see apb.llm.request_cap)
    out: runs/exp1
    translator: cascade
    require_finish: false
    max_steps: 24
    agent_options: {act: {hints: true}}
    description: obfuscated           # curated (default), rule, or a robustness variant: obfuscated, shuffled
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from apb.engine.errors import ApbError
from apb.engine.input_files import MAX_CONFIG_BYTES, read_input
from apb.eval.episode_specs import EvalError, parse_problems, parse_seeds, plan_episodes
from apb.eval.trajectory import EpisodeSpec
from apb.flags import DEFAULT_CONCURRENCY

KEYS = ("domains", "agents", "llm", "problems", "seeds", "split", "concurrency", "llm_concurrency", "out", "translator",
        "require_finish", "max_steps", "agent_options", "description")


class ConfigError(ApbError):
    """An experiment file that cannot be used; the message names the file, line and key."""


@dataclass
class ExperimentConfig:
    domains: list[str] = field(default_factory=list)
    agents: list[str] = field(default_factory=list)
    llm: str | None = None
    problems: Any = "all"
    seeds: Any = 1
    split: str = "test"
    concurrency: int = DEFAULT_CONCURRENCY
    llm_concurrency: int | None = None
    out: str | None = None
    translator: str = "cascade"
    require_finish: bool = False
    max_steps: int | None = None
    agent_options: dict[str, dict] = field(default_factory=dict)
    description: str = "curated"  # curated, rule, or a robustness variant: obfuscated, shuffled

    def episodes(self) -> list[EpisodeSpec]:
        return plan_episodes(expand_domains(self.domains), self.agents, self.problems, self.seeds, model=self.llm,
                             split=self.split, translator=self.translator, require_finish=self.require_finish,
                             agent_options=self.agent_options, max_steps=self.max_steps,
                             description=self.description)


def expand_domains(domains: list[str] | str) -> list[str]:
    """'all' -> every bundled domain; a comma-separated string -> its names."""
    from apb.domains.registry import domain_names

    if isinstance(domains, str):
        domains = [d.strip() for d in domains.split(",") if d.strip()]
    out: list[str] = []
    for domain in domains:
        out.extend(domain_names() if domain == "all" else [domain])
    return out


def _read(path: Path) -> tuple[Any, dict[str, int]]:
    text = read_input(path, "experiment file", limit=MAX_CONFIG_BYTES)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark else str(path)
        problem = getattr(err, "problem", None) or str(err)
        raise ConfigError(f"{where}: invalid YAML: {problem}") from None
    lines: dict[str, int] = {}
    if isinstance(node, yaml.MappingNode):
        for key, _ in node.value:
            lines[str(key.value)] = key.start_mark.line + 1
    return data, lines


def load_config(path: str | Path) -> ExperimentConfig:
    """The validated experiment of a YAML file (unknown keys, wrong types and bad ranges are errors)."""
    path = Path(path)
    data, lines = _read(path)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}:1: an experiment file is a mapping of keys ({', '.join(KEYS)})")

    def fail(key: str, message: str) -> ConfigError:
        line = lines.get(key)
        where = f"{path}:{line}" if line else str(path)
        return ConfigError(f"{where}: {key}: {message}")

    for key in data:
        if key not in KEYS:
            raise fail(str(key), f"unknown key; the keys are {', '.join(KEYS)}")
    config = ExperimentConfig()
    for key in ("domains", "agents"):
        if key in data:
            value = data[key]
            if isinstance(value, str):
                value = [v.strip() for v in value.split(",") if v.strip()]
            if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
                raise fail(key, "a list of names (or a comma-separated string)")
            setattr(config, key, value)
    for key in ("llm", "split", "out", "translator", "description"):
        if key in data:
            if not isinstance(data[key], str) or not data[key]:
                raise fail(key, f"a string, not {data[key]!r}")
            setattr(config, key, data[key])
    for key in ("concurrency", "llm_concurrency", "max_steps"):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise fail(key, f"a whole number of at least 1, not {value!r}")
            setattr(config, key, value)
    if "require_finish" in data:
        if not isinstance(data["require_finish"], bool):
            raise fail("require_finish", f"true or false, not {data['require_finish']!r}")
        config.require_finish = data["require_finish"]
    if "problems" in data:
        try:
            parse_problems(data["problems"])
        except EvalError as err:
            raise fail("problems", str(err)) from None
        config.problems = data["problems"]
    if "seeds" in data:
        try:
            parse_seeds(data["seeds"])
        except EvalError as err:
            raise fail("seeds", str(err)) from None
        config.seeds = data["seeds"]
    if "agent_options" in data:
        options = data["agent_options"]
        if not isinstance(options, dict) or not all(isinstance(v, dict) for v in options.values()):
            raise fail("agent_options", "a mapping agent name -> {option: value}")
        config.agent_options = options
    from apb.agents import AGENTS, AgentError, agent_class
    from apb.agents.registry import agent_spec

    for agent in config.agents:
        if agent_spec(agent)[0] not in AGENTS:
            raise fail("agents", f"unknown agent {agent!r}; use one of {', '.join(AGENTS)}")
        try:
            agent_class(agent)  # options written in the name (closed-loop:horizon=5) are checked here
        except AgentError as err:
            raise fail("agents", str(err)) from None
    return config
