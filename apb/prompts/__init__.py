"""Prompt templates as data files, and a small loader."""

from __future__ import annotations

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
