"""One rule for commands: each package adds its own in its cli.py through `add_parsers(commands)`, apb/cli.py only
wires and dispatches, `apb --help` lists every command by group from one table, and exit codes are defined once."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest

from apb.cli import COMMANDS, HELP, Commands, build_parser, main
from apb.exit_codes import EXIT_BAD_INPUT, MEANINGS

PACKAGE = Path(__file__).resolve().parents[1] / "apb"


def test_help_lists_every_command_by_group_with_what_apb_is(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    with pytest.raises(SystemExit) as stop:
        main(["--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    assert "engine tools." not in text and "text games (Gymnasium environments) for LLM and RL agents" in text
    lines = text.splitlines()
    for group, commands in COMMANDS:
        at = lines.index(f"{group}:")
        listed = [line.split()[0] for line in lines[at + 1: at + 1 + len(commands)]]
        assert listed == [name for name, _ in commands], group
        for name, line in commands:
            assert f"  {name:<{max(map(len, HELP)) + 2}}{line}" in text
    for code, meaning in MEANINGS.items():
        assert f"{code} {meaning}" in " ".join(text.split())


def test_the_table_and_the_registered_commands_agree():
    parser = build_parser()
    [sub] = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]  # reading the result only
    assert list(sub.choices) == list(HELP)  # in the table's order (also in argparse's "invalid choice" message)
    assert len(HELP) == sum(len(commands) for _, commands in COMMANDS)  # each command in one group


def test_a_command_missing_from_the_table_is_refused_and_extensions_wait_for_their_command():
    sub = argparse.ArgumentParser(prog="apb").add_subparsers(dest="command")
    commands = Commands(sub)
    with pytest.raises(LookupError, match=r"add it to COMMANDS in apb/cli\.py"):
        commands.add_parser("bogus")
    added = []
    commands.extend("acp", lambda acp_sub: added.append(acp_sub.add_parser("export")))  # before acp exists
    commands.add_subparsers(commands.add_parser("acp"), dest="acp")
    with pytest.raises(LookupError, match="registered commands differ"):
        commands.finish()  # the rest of COMMANDS is missing
    assert len(added) == 1 and sub.choices["acp"].parse_args(["export"]).acp == "export"


def test_exports_are_subcommands_of_acp_and_nl2pddl(capsys):
    for command in ("acp", "nl2pddl"):
        with pytest.raises(SystemExit):
            main([command, "export", "--help"])
        assert "--format {lm-eval}" in capsys.readouterr().out


def test_every_package_adds_its_commands_through_one_hook_and_none_reaches_into_argparse():
    hooks = sorted(p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("cli.py") if p.parent != PACKAGE)
    for name in hooks:
        tree = ast.parse((PACKAGE / name).read_text(encoding="utf-8"))
        functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
        assert "add_parsers" in functions, f"{name} has no add_parsers(commands)"
        assert [a.arg for a in functions["add_parsers"].args.args] == ["commands"], name
    assert len(hooks) >= 14
    for path in PACKAGE.rglob("*cli.py"):  # another command's parser is reached through commands.extend only
        assert "._actions" not in path.read_text(encoding="utf-8"), path
    assert len((PACKAGE / "cli.py").read_text(encoding="utf-8").splitlines()) <= 200


def test_exit_codes_are_defined_once():
    """No module but apb/exit_codes.py assigns a number to an EXIT_* name (they import them)."""
    found = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "exit_codes.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Assign):
                names = [n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
                numbers = [n for n in ast.walk(node.value) if isinstance(n, ast.Constant) and type(n.value) is int]
                if numbers and any(n.startswith("EXIT_") for n in names):
                    found.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert found == []
    assert main([]) == EXIT_BAD_INPUT  # no command: the help, and exit 2
