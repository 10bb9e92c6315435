"""The README's "Use apb from other frameworks" examples run as written where their framework is installed: its
`py` blocks (with the outputs they state) and its `apb` commands (the `inspect eval` line is run by
test_integrations_inspect.py; `apb serve` by test_integrations_openenv.py)."""

from __future__ import annotations

import ast
import importlib.util
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"


def section() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("## Use apb from other frameworks", 1)[1].split("\n## ", 1)[0]


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", section(), flags=re.S)


def needs(code: str) -> list[str]:
    """The top-level modules a block imports that are not apb (the frameworks it needs)."""
    names = set()
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    frameworks = {"integrations.verifiers": "verifiers", "integrations.openenv": "openenv",
                  "integrations.reasoning_gym": "reasoning_gym", "integrations.inspect_tasks": "inspect_ai",
                  "integrations.gem": "gem"}
    for part, module in frameworks.items():
        if part in code:
            names.add(module)
    return sorted(names - {"apb"})


def test_the_section_has_examples_for_every_framework():
    text = section()
    for name in ("inspect eval apb/game", "load_environment", "apb serve openenv", "apb_blocksworld",
                 "apb acp export --format lm-eval", "gem.make", "apb nl2pddl export --format lm-eval"):
        assert name in text
    assert len(blocks("py")) >= 3


@pytest.mark.parametrize("index", range(len(blocks("py"))))
def test_python_example_runs_and_prints_what_it_says(index, capsys):
    code = blocks("py")[index]
    for module in needs(code):
        if importlib.util.find_spec(module) is None:
            pytest.skip(f"{module} is not installed (an optional extra)")
    exec(compile(code, f"README integrations block {index + 1}", "exec"), {"__name__": "readme"})
    printed = capsys.readouterr().out.splitlines()
    stated = [line.split("# -> ", 1)[1].strip() for line in code.splitlines() if "print(" in line and "# -> " in line]
    assert printed == stated


def test_apb_commands_of_the_section_exit_0(tmp_path):
    commands = [line.strip() for block in blocks("sh") for line in block.splitlines()
                if line.strip().startswith("apb ") and not line.strip().startswith("apb serve")]
    assert commands
    for command in commands:
        args = [a.replace("/tmp/", f"{tmp_path}/") for a in shlex.split(command)][1:]
        done = subprocess.run([sys.executable, "-m", "apb", *args], capture_output=True, text=True)
        assert done.returncode == 0, (command, done.stderr)
