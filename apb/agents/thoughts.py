"""Thoughts for the one-shot examples of CoT and ReAct, written by an LLM (`apb examples build DOMAIN --llm
SPEC`) from a hand-written example of ours, and stored as a file the example builder reads.

The file (`example_thoughts.yaml`, next to the domain's nl.yaml, or any path) holds the problem id, the source
(`llm:<spec>` or `template`) and one thought per step of the gold plan. A thought the LLM gets wrong (empty, more
than 400 characters, or naming none of the action's objects) is replaced by the template thought and listed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml

from apb.agents.examples import Example, build_example
from apb.engine.errors import ApbError
from apb.prompts import load_prompt

THOUGHTS_FILE = "example_thoughts.yaml"
MAX_THOUGHT = 400


@dataclass
class ThoughtsReport:
    thoughts: list[str]
    source: str
    replaced: list[int] = field(default_factory=list)  # steps whose LLM thought was unusable
    llm_calls: int = 0


def _static_messages() -> list[dict]:
    example = yaml.safe_load(load_prompt("agents/thoughts/example.yaml"))
    messages = [{"role": "system", "content": load_prompt("agents/thoughts/system").strip()}]
    done: list[str] = []
    for step in example["steps"]:
        messages.append({"role": "user", "content": _request(example["task"], done, "(as in the task)",
                                                             step["action"])})
        messages.append({"role": "assistant", "content": step["thought"]})
        done.append(step["action"])
    messages[-1]["cache"] = True
    return messages


def _request(task: str, done: list[str], state: str, action: str) -> str:
    listed = "\n".join(f"{i}. {a}" for i, a in enumerate(done, 1)) or "(none yet)"
    return load_prompt("agents/thoughts/request").format(task=task, done=listed, state=state, action=action).strip()


def write_thoughts(example: Example, llm=None) -> ThoughtsReport:
    """One thought per example step: from the LLM (checked) when one is given, else the template thoughts."""
    if llm is None:
        return ThoughtsReport([s.thought for s in example.steps], "template")
    static = _static_messages()
    thoughts, replaced, calls = [], [], 0
    state = example.initial_state
    for i, step in enumerate(example.steps):
        request = _request(example.task, [s.text for s in example.steps[:i]], state, step.text)
        answer = llm.complete([*static, {"role": "user", "content": request}], max_tokens=120, temperature=0.0)
        calls += 1
        text = " ".join(answer.text.replace("Thought:", " ").split())
        objects = step.action.strip("()").split()[1:]
        if not text or len(text) > MAX_THOUGHT or (objects and not any(o in text for o in objects)):
            thoughts.append(step.thought)
            replaced.append(i)
        else:
            thoughts.append(text)
        state = step.state
    return ThoughtsReport(thoughts, f"llm:{getattr(llm, 'spec', 'llm')}", replaced, calls)


def save_thoughts(example: Example, report: ThoughtsReport, path: str | Path) -> Path:
    path = Path(path)
    data = {"problem": example.problem_id, "source": report.source,
            "steps": [{"action": s.action, "thought": t} for s, t in zip(example.steps, report.thoughts)]}
    path.write_text("# Thoughts for the one-shot example (apb examples build).\n"
                    + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")
    return path


def load_thoughts(example: Example, path: str | Path) -> Example:
    """The example with the stored thoughts; ApbError naming the file when they do not fit its steps."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise ApbError(f"{path}: cannot read example thoughts: {err}") from None
    steps = data.get("steps") if isinstance(data, dict) else None
    if not isinstance(steps, list) or [s.get("action") for s in steps] != [s.action for s in example.steps]:
        raise ApbError(f"{path}: the thoughts do not match the example's actions "
                       f"({', '.join(s.action for s in example.steps)}); rebuild them with apb examples build")
    for step, stored in zip(example.steps, steps):
        step.thought = str(stored.get("thought") or step.thought)
    return example


def build_example_with_thoughts(domain: str, thoughts: str | Path | None = None) -> Example:
    """build_example, with thoughts from `thoughts` (a file) or the domain's shipped example_thoughts.yaml."""
    example = build_example(domain)
    if thoughts is None:
        from apb.domains.registry import domain_dir

        shipped = domain_dir(domain) / THOUGHTS_FILE
        thoughts = shipped if shipped.is_file() else None
    return load_thoughts(example, thoughts) if thoughts is not None else example


@lru_cache(maxsize=32)
def bundled_example(domain: str) -> Example | None:
    """The one-shot example of a bundled domain (cached), or None when there is none to build (an imported
    dataset, a domain without p00): agents then run without an example."""
    try:
        return build_example_with_thoughts(domain)
    except (ApbError, OSError, KeyError, ValueError):
        return None
