"""The exit-code table of docs/cli.md, generated: every command that reads input or writes output, run for real in a
temporary folder, in each situation a user meets (a bad flag value, an --out that cannot be written, a file that
is not UTF-8, a non-empty --out, --resume with changed settings, a second run into the same folder, Ctrl-C, SIGTERM).

    python tools/exit_code_table.py            # prints the table (markdown)
    python tools/exit_code_table.py --check    # exit 1 when docs/cli.md's table differs (tests/test_exit_codes.py)

Each cell is the exit code (one of apb.exit_codes; another stops the tool) and the start of the one-line message;
"—" where the situation cannot arise (the command has no --out, no --resume, or no input file). Ctrl-C is a real
SIGINT sent to a subprocess in the middle of a long piece of work, 2.5 seconds after it started; SIGTERM (what
`kill`, `timeout` and job schedulers send) the same with SIGTERM, in the same command as Ctrl-C.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from apb.exit_codes import MEANINGS

ROOT = Path(__file__).resolve().parents[1]
TABLE_PAGE = ROOT / "docs" / "cli.md"  # the exit-code table lives in the command-line guide
BEGIN, END = "<!-- exit-codes:begin -->", "<!-- exit-codes:end -->"
SCENARIOS = ("bad flag value", "--out not writable", "input not UTF-8", "--out not empty", "--resume, other settings",
             "second run, same --out", "Ctrl-C", "SIGTERM")
BW = ROOT / "apb" / "domains" / "blocksworld"


def fixtures(work: Path) -> dict[str, str]:
    """The files the scenarios use, built in `work`."""
    from apb.cli import main

    (work / "file").write_text("x", encoding="utf-8")
    latin = work / "latin1"
    (latin / "problems").mkdir(parents=True)
    (latin / "domain.pddl").write_bytes(b"; caf\xe9\n" + (BW / "domain.pddl").read_bytes())
    (latin / "problems" / "p01.pddl").write_bytes((BW / "problems" / "p01.pddl").read_bytes())
    (work / "latin1.jsonl").write_bytes(b'{"id": "caf\xe9"}\n')
    (work / "answers.txt").write_text("(pick-up block_a)\n", encoding="utf-8")
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        main(["acp", "generate", "ferry", "--tasks", "app", "--formats", "bool", "--count", "1", "--out",
              str(work / "questions")])
        main(["nl2pddl", "build", "gripper", "--count", "1", "--out", str(work / "pairs")])
    return {"W": str(work), "BW": str(BW)}


def commands() -> dict[str, dict[str, list[str] | None]]:
    """Command -> scenario -> argv (with {W}, {BW} placeholders); the setup of "--out not empty" and "--resume,
    other settings" is the same command run once before (without the last flags for resume)."""
    ev = ["eval", "--domains", "blocksworld", "--agents", "oracle", "--problems", "1", "--no-progress"]
    acp_eval = ["acp", "eval", "{W}/questions", "--llm", "scripted:{W}/answers.txt", "--shots", "0", "--no-progress"]
    nl_eval = ["nl2pddl", "eval", "{W}/pairs", "--llm", "scripted:{W}/answers.txt"]
    acp_gen = ["acp", "generate", "ferry", "--tasks", "app", "--formats", "bool", "--count", "1"]
    return {
        "apb eval": {"bad flag value": [*ev, "--max-steps", "-3", "--out", "{W}/e0"],
                     "--out not writable": [*ev, "--out", "{W}/file"],
                     "input not UTF-8": ["eval", "--domains", "{W}/latin1", "--agents", "bfs", "--out", "{W}/e1"],
                     "--out not empty": [*ev, "--out", "{W}/e2"],
                     "--resume, other settings": [*ev, "--out", "{W}/e3", "--resume", "--max-steps", "40"],
                     "second run, same --out": [*ev, "--out", "{W}/locked"],
                     "Ctrl-C": ["eval", "--domains", "gripper", "--split", "scaled", "--agents", "bfs", "--problems",
                                "20", "--out", "{W}/e4", "--no-progress"]},
        "apb run": {"bad flag value": ["run", "blocksworld", "--agent", "bfs", "--max-steps", "0"],
                    "--out not writable": ["run", "blocksworld", "--agent", "oracle", "--out", "{W}/file"],
                    "input not UTF-8": ["run", "{W}/latin1", "--agent", "bfs"],
                    "--out not empty": ["run", "blocksworld", "--agent", "oracle", "--out", "{W}/r1"],
                    "--resume, other settings": None, "second run, same --out": None,
                    "Ctrl-C": ["run", "gripper", "--split", "scaled", "--problem", "20", "--agent", "bfs"]},
        "apb acp generate": {"bad flag value": [*acp_gen, "--count", "0", "--out", "{W}/g0"],
                             "--out not writable": [*acp_gen, "--out", "{W}/file"],
                             "input not UTF-8": ["acp", "generate", "{W}/latin1", "--out", "{W}/g1"],
                             "--out not empty": [*acp_gen, "--out", "{W}/g2"],
                             "--resume, other settings": None,
                             "second run, same --out": [*acp_gen, "--out", "{W}/locked"],
                             "Ctrl-C": ["acp", "generate", "floortile", "--count", "300", "--out", "{W}/g3"]},
        "apb acp eval": {"bad flag value": [*acp_eval, "--concurrency", "0", "--out", "{W}/a0"],
                         "--out not writable": [*acp_eval, "--out", "{W}/file"],
                         "input not UTF-8": ["acp", "eval", "{W}/latin1.jsonl", "--llm", "scripted:{W}/answers.txt",
                                             "--out", "{W}/a1"],
                         "--out not empty": [*acp_eval, "--out", "{W}/a2"],
                         "--resume, other settings": [*acp_eval, "--out", "{W}/a3", "--resume", "--cot"],
                         "second run, same --out": [*acp_eval, "--out", "{W}/locked"],
                         "Ctrl-C": None},
        "apb nl2pddl build": {"bad flag value": ["nl2pddl", "build", "gripper", "--count", "-1", "--out", "{W}/b0"],
                              "--out not writable": ["nl2pddl", "build", "gripper", "--out", "{W}/file"],
                              "input not UTF-8": ["nl2pddl", "build", "{W}/latin1", "--out", "{W}/b1"],
                              "--out not empty": ["nl2pddl", "build", "gripper", "--count", "1", "--out", "{W}/b2"],
                              "--resume, other settings": None,
                              "second run, same --out": ["nl2pddl", "build", "gripper", "--out", "{W}/locked"],
                              "Ctrl-C": None},
        "apb nl2pddl eval": {"bad flag value": [*nl_eval, "--limit", "-2", "--out", "{W}/n0"],
                             "--out not writable": [*nl_eval, "--out", "{W}/file"],
                             "input not UTF-8": ["nl2pddl", "eval", "{W}/latin1.jsonl", "--llm",
                                                 "scripted:{W}/answers.txt", "--out", "{W}/n1"],
                             "--out not empty": [*nl_eval, "--out", "{W}/n2"],
                             "--resume, other settings": [*nl_eval, "--out", "{W}/n3", "--resume", "--shots", "1"],
                             "second run, same --out": [*nl_eval, "--out", "{W}/locked"],
                             "Ctrl-C": None},
        "apb validate": {"bad flag value": ["validate", "{BW}/domain.pddl", "--bogus"],
                         "--out not writable": None,
                         "input not UTF-8": ["validate", "{W}/latin1/domain.pddl", "{W}/latin1/problems/p01.pddl",
                                             "{BW}/plans/p01.plan"],
                         "--out not empty": None, "--resume, other settings": None, "second run, same --out": None,
                         "Ctrl-C": None},
        "apb solve": {"bad flag value": ["solve", "{BW}/domain.pddl", "{BW}/problems/p01.pddl", "--timeout", "-1"],
                      "--out not writable": None,
                      "input not UTF-8": ["solve", "{W}/latin1/domain.pddl", "{W}/latin1/problems/p01.pddl"],
                      "--out not empty": None, "--resume, other settings": None, "second run, same --out": None,
                      "Ctrl-C": None},
        "apb generate": {"bad flag value": ["generate", "blocksworld", "--count", "0", "--out", "{W}/q0"],
                         "--out not writable": ["generate", "blocksworld", "--count", "1", "--out", "{W}/file"],
                         "input not UTF-8": None, "--out not empty": None, "--resume, other settings": None,
                         "second run, same --out": None, "Ctrl-C": None},
        "apb nl2pddl score": {"bad flag value": ["nl2pddl", "score", "a.pddl", "b.pddl", "--domain"],
                              "--out not writable": None,
                              "input not UTF-8": ["nl2pddl", "score", "{W}/latin1/problems/p01.pddl",
                                                  "{W}/latin1/domain.pddl"],
                              "--out not empty": None, "--resume, other settings": None,
                              "second run, same --out": None, "Ctrl-C": None},
    }


def fill(argv: list[str] | None, names: dict[str, str]) -> list[str] | None:
    return None if argv is None else [a.format(**names) for a in argv]


def run_in_process(argv: list[str]) -> tuple[int, str]:
    """(exit code, stderr) of `apb argv` run in this process."""
    from apb.cli import main

    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as stop:
            code = int(stop.code or 0)
    return code, err.getvalue()


def run_interrupted(argv: list[str], after: float = 2.5, signum: int = signal.SIGINT) -> tuple[int, str]:
    """(exit code, stderr) of `python -m apb argv` sent `signum` (SIGINT: Ctrl-C) `after` seconds after it started."""
    # SIGINT's default disposition in the child even when this runs in a background job (which ignores SIGINT)
    proc = subprocess.Popen([sys.executable, "-m", "apb", *argv], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(after)
    proc.send_signal(signum)
    _, stderr = proc.communicate(timeout=120)
    return proc.returncode, stderr


def message(stderr: str, work: str) -> str:
    """The first line of stderr, paths shortened, cut to a table cell."""
    line = next((ln for ln in stderr.splitlines() if ln.strip()), "")
    line = line.replace(work, "…")
    line = re.sub(r"^(apb[\w ]*: )?error: ", "", line)
    line = re.sub(r"pid \d+ on [\w.-]+, started [^:]+:", "pid N on HOST, started T:", line)
    line = line.replace("|", "/")
    return (line[:90] + "…") if len(line) > 91 else line


def build_table() -> str:
    with tempfile.TemporaryDirectory(prefix="apb-exit-codes-") as tmp:
        work = Path(tmp)
        names = fixtures(work)
        holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        try:
            (work / "locked").mkdir()
            (work / "locked" / ".apb-lock").write_text(json.dumps({
                "pid": holder.pid, "host": socket.gethostname(), "started": "T", "command": "apb ..."}),
                encoding="utf-8")
            rows = ["| command | " + " | ".join(SCENARIOS) + " |", "|---" * (len(SCENARIOS) + 1) + "|"]
            for command, cases in commands().items():
                cells = []
                for scenario in SCENARIOS:
                    argv = fill(cases.get("Ctrl-C" if scenario == "SIGTERM" else scenario), names)
                    if argv is None:
                        cells.append("—")
                        continue
                    if scenario in ("--out not empty", "--resume, other settings"):
                        before = argv[: argv.index("--resume")] if "--resume" in argv else argv
                        run_in_process(before)
                    if scenario in ("Ctrl-C", "SIGTERM"):
                        if "--out" in argv:  # a fresh folder for each signal
                            argv[argv.index("--out") + 1] += "-" + scenario.lower()
                        code, stderr = run_interrupted(argv, signum=signal.SIGTERM if scenario == "SIGTERM"
                                                       else signal.SIGINT)
                        # "interrupted", then what finished and, once the flags are read, the hint to resume:
                        # both depend on when the signal lands (the start-up's speed), so neither is in the table
                        stderr = stderr.split(":", 1)[0].replace(" (finished work is kept", "")
                    else:
                        code, stderr = run_in_process(argv)
                    if code not in MEANINGS:
                        raise SystemExit(f"{command}, {scenario}: exit code {code} is not one of apb.exit_codes")
                    cells.append(f"{code}: {message(stderr, str(work))}" if code else "0")
                rows.append(f"| {command} | " + " | ".join(cells) + " |")
        finally:
            holder.kill()
            holder.wait()
    return "\n".join(rows)


def readme_table() -> str:
    text = TABLE_PAGE.read_text(encoding="utf-8")
    return text.split(BEGIN, 1)[1].split(END, 1)[0].strip()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare with docs/cli.md's table; exit 1 if it differs")
    parser.add_argument("--write", action="store_true", help="write the table into docs/cli.md")
    args = parser.parse_args()
    os.environ.setdefault("APB_CACHE_DIR", tempfile.mkdtemp(prefix="apb-exit-codes-cache-"))
    table = build_table()
    if args.write:
        text = TABLE_PAGE.read_text(encoding="utf-8")
        head, rest = text.split(BEGIN, 1)
        TABLE_PAGE.write_text(head + BEGIN + "\n" + table + "\n" + END + rest.split(END, 1)[1], encoding="utf-8")
    if args.check:
        same = table == readme_table()
        print("docs/cli.md table is up to date" if same else "docs/cli.md table differs:\n" + table)
        return 0 if same else 1
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
