"""Prompt templates as data files, and a small loader."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from pathlib import Path

PROMPTS_DIR = Path(__file__).resolve().parent


@cache
def load_prompt(name: str) -> str:
    """The text of the prompt file `name` ('tllm/system.txt', or 'tllm/system' with .txt implied)."""
    path = PROMPTS_DIR / name
    if not path.suffix:
        path = path.with_suffix(".txt")
    if not path.resolve().is_relative_to(PROMPTS_DIR):
        raise ValueError(f"prompt {name!r} is outside the prompts folder")
    return path.read_text(encoding="utf-8")


def fill_prompt(name: str, **values: str) -> str:
    """The prompt file `name`, stripped, with its `{fields}` filled in from `values`."""
    text = load_prompt(name).strip()
    return text.format(**values) if values else text


def prompt_family(folder: str) -> Callable[..., str]:
    """`fill_prompt` for the files of one folder: `prompt = prompt_family("agents/act/"); prompt("system")`."""

    def prompt(name: str, **values: str) -> str:
        return fill_prompt(folder + name, **values)

    prompt.__doc__ = f"A prompt file of apb/prompts/{folder}, stripped, with its fields filled in."
    return prompt
