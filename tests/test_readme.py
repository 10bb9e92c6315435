"""The README's examples (and its guides' in docs/) run as written: their Python blocks and every `apb` command of
their shell examples; the README's command table is apb's."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import require_reference

ROOT = Path(__file__).resolve().parents[1]
README = Path(__file__).resolve().parents[1] / "README.md"
# the README, then its guides in the order the README's examples ran before they moved (`apb report /tmp/run` reads
# what `apb eval` wrote)
PAGES = [README, *(ROOT / "docs" / name for name in ("environments.md", "evaluation.md", "nl2pddl.md", "acp.md",
                                                      "integrations.md", "cli.md", "benchmarks.md",
                                                      "architecture.md", "planbench.md", "learning.md"))]
README_REFERENCE = "../shared/reference/autoplanbench"


def blocks(language: str, pages: list[Path] = PAGES) -> list[str]:
    return [block for page in pages
            for block in re.findall(rf"```{language}\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)]


def test_every_guide_is_read():
    """Every page of docs/ with examples is among PAGES (a new guide's examples must run too)."""
    for page in sorted((ROOT / "docs").glob("*.md")):
        if "```python" in page.read_text(encoding="utf-8") or "```bash" in page.read_text(encoding="utf-8"):
            assert page in PAGES, page


def test_the_command_table_is_apbs():
    """README's command table lists every command of `apb --help`, in its groups and order, with its one-line help
    (apb.cli.COMMANDS is the one owner)."""
    from apb.cli import COMMANDS

    text = README.read_text(encoding="utf-8")
    table = text.split("<!-- commands:begin -->", 1)[1].split("<!-- commands:end -->", 1)[0]
    rows = [line.strip() for line in table.strip().splitlines()[2:]]
    assert rows == [f"| {group} | `apb {name}` | {line.replace('|', '/')} |"
                    for group, commands in COMMANDS for name, line in commands]


def test_the_front_page_maps_the_project():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert "foundation" not in "\n".join(lines)
    assert any(line.startswith("## Contents") for line in lines[:80])
    assert next(i for i, line in enumerate(lines) if line.startswith("## Layout")) < len(lines) / 3


def with_reference(code: str) -> str:
    return code.replace(README_REFERENCE, require_reference().as_posix())


def stated_outputs(code: str) -> dict[int, str]:
    """Line number -> the output a `print(...)  # -> OUTPUT` line promises (`...` at the end: a prefix)."""
    return {number: line.split("# -> ", 1)[1].rstrip() for number, line in enumerate(code.splitlines(), 1)
            if "print(" in line and "# -> " in line}


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_python_example_runs_and_prints_what_it_says(index, capsys):
    code = with_reference(blocks("python")[index])
    name = f"README.md python block {index + 1}"
    printed: dict[int, list[str]] = {}

    def recording_print(*args, **kwargs):
        """print, noting what each line of the block printed."""
        print(*args, **kwargs)
        frame = sys._getframe(1)
        if frame.f_code.co_filename == name:
            kwargs.pop("file", None)
            text = kwargs.get("sep", " ").join(str(a) for a in args)
            printed.setdefault(frame.f_lineno, []).append(text)

    exec(compile(code, name, "exec"), {"__name__": "readme", "print": recording_print})
    assert capsys.readouterr().out.strip(), "the example prints its results"
    for line, stated in stated_outputs(code).items():
        actual = "\n".join(printed.get(line, []))
        if stated.endswith("..."):
            assert actual.startswith(stated[:-3]), \
                f"{name} line {line}: prints {actual[:200]!r}, README says {stated!r}"
        else:
            assert actual == stated, f"{name} line {line}: prints {actual!r}, README says {stated!r}"


def test_the_readme_states_outputs_to_check():
    assert sum(len(stated_outputs(code)) for code in blocks("python")) >= 12


def cli_commands() -> list[tuple[str, int]]:
    """Each `apb ...` command of the bash blocks (continuation lines joined, comments dropped) with the exit code its
    comment states (`exit 1`), else 0."""
    commands = []
    for block in blocks("bash"):
        text = block.replace("\\\n", " ")
        for line in text.splitlines():
            command, _, comment = line.partition(" #")
            if command.strip().startswith("apb "):
                stated = re.search(r"\bexit (\d+)", comment)
                commands.append((command.strip(), int(stated.group(1)) if stated else 0))
    return commands


def test_readme_has_the_setup_commands():
    setup = [" ".join(c.replace("\\\n", " ").split()) for c in blocks("bash", [README]) if "pip install" in c]
    assert [c.strip() for c in setup] == [
        'pip install . && apb eval --domains blocksworld,ferry --agents random,bfs,oracle --problems 1-3 '
        '--out runs/demo && apb report runs/demo',
        'pip install ".[local]" && apb eval --domains blocksworld --agents act,random,bfs --llm local --problems 1-2 '
        '--out runs/llm && apb report runs/llm',
        'pip install -e ".[dev]" && ruff check apb tests && pytest -q',
        'python -m venv /tmp/vf && . /tmp/vf/bin/activate && pip install -e ".[verifiers]" pytest hypothesis '
        'pytest-benchmark uv && python tools/verifiers_harness.py && pytest -q tests/test_integrations_verifiers.py '
        'tests/test_integrations_readme.py tests/test_adversarial.py']
    ci = (README.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert setup[2].strip() in ci
    # the verifiers venv (verifiers cannot share one with Inspect): .ci/run installs and tests it the same way
    for part in ('pip install --quiet -e ".[verifiers]"', "python tools/verifiers_harness.py",
                 setup[3].rsplit("&& ", 1)[1]):
        assert part in ci, part


def test_the_quick_start_runs_offline_with_the_core(tmp_path):
    """The quick start's run (the installed core only: no LLM, no network) exits 0 and writes the report."""
    quick = next(c for c in blocks("bash") if c.strip().startswith("pip install . &&"))
    eval_cmd, report_cmd = (shlex.split(part.strip().replace("runs/demo", str(tmp_path / "demo")))
                            for part in quick.split("&&")[1:])
    for command in (eval_cmd, report_cmd):
        proc = subprocess.run([sys.executable, "-m", "apb", *command[1:]], capture_output=True, text=True, cwd=ROOT)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "demo" / "report.html").is_file()


@pytest.fixture(scope="module")
def shared_tmp(tmp_path_factory):
    """One folder for all CLI examples, run in README order: `apb report /tmp/run` reads what `apb eval` wrote."""
    return tmp_path_factory.mktemp("readme_cli")


@pytest.mark.parametrize(("command", "code"), cli_commands())
def test_cli_example_exits_as_stated(command, code, shared_tmp):
    reference = require_reference().as_posix()
    # /tmp/ of the examples becomes the test's folder before $R is expanded, so a checkout under /tmp keeps its paths
    args = [a.replace("/tmp/", f"{shared_tmp}/").replace("$R", reference) for a in shlex.split(command)][1:]
    if args[:2] == ["bench", "engine"]:
        args += ["--seconds", "0.02", "--no-peer"]  # the example as written runs ~20 s; the behaviour is the same
    if args[:2] == ["bench", "env"]:
        args += ["--seconds", "0.05"]
    proc = subprocess.run([sys.executable, "-m", "apb", *args], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "APB_REFERENCE": reference})
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert proc.stdout.strip()
