"""The exit-code table of docs/cli.md is what the commands really do: tools/exit_code_table.py runs every command
in each situation (bad flag, unwritable --out, non-UTF-8 input, non-empty --out, --resume with other settings, a second
run into the same folder, Ctrl-C, SIGTERM) and the table it builds must equal docs/cli.md's."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from apb.exit_codes import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_TERMINATED

ROOT = Path(__file__).resolve().parents[1]


def load_tool():
    spec = importlib.util.spec_from_file_location("exit_code_table", ROOT / "tools" / "exit_code_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_readme_table_is_what_the_commands_do():
    tool = load_tool()
    table = tool.build_table()
    assert table == tool.readme_table(), "run `python tools/exit_code_table.py --write` and review the diff:\n" + table
    for line in table.splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split(" | ")][1:]
        *situations, ctrl_c, sigterm = cells
        assert all(c == "—" or c.startswith(f"{EXIT_BAD_INPUT}: ") for c in situations), line  # exit 2, a message
        assert ctrl_c == "—" or ctrl_c.startswith(f"{EXIT_INTERRUPTED}: interrupted"), line
        assert sigterm == "—" or sigterm.startswith(f"{EXIT_TERMINATED}: terminated (SIGTERM)"), line  # as Ctrl-C
    assert table.count("130: ") >= 3 and table.count("143: ") == table.count("130: ")
