"""Every file a command reads is checked before it is read (issue 41, item 2): a FIFO, a device (/dev/zero), a folder
or a binary file given as any input is refused at once with its real reason, in one line, exit 2, no traceback;
before the fix a FIFO blocked forever, /dev/zero grew to gigabytes, and both were called "no such file"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from apb.engine.errors import InputFileError
from apb.engine.input_files import file_problem, kind_of, read_input

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = str(ROOT / "apb" / "domains" / "blocksworld" / "domain.pddl")
PROBLEM = str(ROOT / "apb" / "domains" / "blocksworld" / "problems" / "p01.pddl")
HANG_GUARD_S = 120  # a hang guard only: the refusal comes before any work


def apb(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "apb", *args], capture_output=True, text=True, env=env,
                          timeout=HANG_GUARD_S, stdin=subprocess.DEVNULL)


def assert_refused(result: subprocess.CompletedProcess, path: str, reason: str) -> None:
    err = result.stderr
    assert result.returncode == 2, (result.returncode, err)
    assert "Traceback" not in err, err
    lines = [line for line in err.strip().splitlines() if not line.startswith("warning:")]
    assert len(lines) == 1 and path in lines[0] and reason in lines[0], err
    assert "not found" not in err and "no such" not in err.lower(), err


# Each command with the slot of its input filled by X.
COMMANDS = {
    "validate domain": ["validate", "X", PROBLEM, "p.plan"],
    "validate problem": ["validate", DOMAIN, "X", "p.plan"],
    "validate plan": ["validate", DOMAIN, PROBLEM, "X"],
    "solve problem": ["solve", DOMAIN, "X"],
    "state plan": ["state", DOMAIN, PROBLEM, "--plan", "X"],
    "equiv problem": ["equiv", DOMAIN, PROBLEM, "X"],
    "nl2pddl score answer": ["nl2pddl", "score", PROBLEM, "X", "--domain", "blocksworld"],
    "eval --config": ["eval", "--config", "X"],
    "run scripted": ["run", "blocksworld", "--agent", "basic", "--llm", "scripted:X", "--problem", "1"],
    "acp eval questions": ["acp", "eval", "X", "--llm", "scripted:X"],
}


def fill(argv: list[str], path: str) -> list[str]:
    return [a.replace("X", path) if a == "X" or a.endswith(":X") else a for a in argv]


@pytest.fixture
def fifo(tmp_path) -> str:
    path = tmp_path / "input.pddl"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_fifo_is_refused_as_a_fifo_without_blocking(name, fifo, tmp_path):
    os.chdir(tmp_path)  # outputs of a command that wrongly ran would land here
    assert_refused(apb(*fill(COMMANDS[name], fifo)), fifo, "is a FIFO")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_dev_zero_is_refused_as_a_device_without_reading_it(name, tmp_path):
    if not Path("/dev/zero").exists():
        pytest.skip("no /dev/zero on this system")
    os.chdir(tmp_path)
    assert_refused(apb(*fill(COMMANDS[name], "/dev/zero")), "/dev/zero", "is a device")


def test_a_binary_file_a_folder_and_a_dataset_fifo_name_what_they_are(tmp_path, fifo):
    binary = tmp_path / "p.pddl"
    binary.write_bytes(b"(define\x00\x01\x02")
    assert_refused(apb("solve", DOMAIN, str(binary)), str(binary), "binary, not text (a NUL byte at offset 7)")
    assert_refused(apb("validate", DOMAIN, PROBLEM, str(tmp_path)), str(tmp_path), "is a folder")
    assert_refused(apb("validate", fifo), fifo, "FIFO (named pipe), not a folder")


def test_read_input_checks_kind_size_and_encoding(tmp_path):
    text = tmp_path / "a.txt"
    text.write_bytes(b"one\r\ntwo\rthree\n")
    assert read_input(text) == "one\ntwo\nthree\n"  # line ends as Path.read_text reads them
    with pytest.raises(InputFileError, match=r"a\.txt: the plan file is 15 bytes, over the limit of 10"):
        read_input(text, "plan file", limit=10)
    latin = tmp_path / "b.txt"
    latin.write_bytes(b"caf\xe9\n")
    with pytest.raises(InputFileError, match=r"not UTF-8 text \(byte 0xe9 at offset 3"):
        read_input(latin)
    with pytest.raises(InputFileError, match=r"missing\.txt: file not found"):
        read_input(tmp_path / "missing.txt")

    class Mine(Exception):
        pass

    with pytest.raises(Mine, match="is a folder"):
        read_input(tmp_path, error=Mine)
    assert file_problem(text) is None and "is a folder" in file_problem(tmp_path)
    assert kind_of(text) == "a regular file" and kind_of(tmp_path) == "a folder"
    assert kind_of(tmp_path / "missing") is None
