"""Adversarial model output against every entry point that scores or executes model text.

    python benchmarks/adversarial.py [--entries NAME,...] [--timeout 120]

The corpus (`corpus`) is what a model (or a policy trained on a reward) can write: paths of every kind (`/dev/stdin`,
`/dev/zero`, `/proc/self/environ`, `/etc/passwd`, a FIFO, a temporary file holding the gold plan or the gold PDDL),
NUL bytes, lone surrogates, zero-width and right-to-left characters, 10 MB strings, 100k nested parentheses,
`'(a)' * 1_000_000`, `'é' * 5_000_000`, a million newlines, shapes that make backtracking regexes quadratic,
YAML/JSON/format-string injections, answers that claim success, hedges, and the right answer buried in chatter or
repeated 10,000 times. Each entry point (benchmarks/adversarial_entries.py) runs the corpus in a child process (big
strings shared through fork) with an audit hook that records every file the call opens outside the installed code;
a call that does not finish within the timeout is a hang. Prints, per entry point: answers tried, worst time, the
answer that took it, exceptions, files opened, hangs and non-answers rewarded (tests/test_adversarial.py asserts
that the last four are 0, and that the gold answer itself is rewarded).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

MB = 1_000_000

# ---- the corpus ----------------------------------------------------------------------------------------------------
BIG = {  # shared by every entry point (built once, inherited by the children through fork)
    "10 MB of x": "x" * (10 * MB),
    "'(a)' * 1_000_000": "(a)" * MB,
    "'é' * 5_000_000": "é" * (5 * MB),
    "a million newlines": "\n" * MB,
    "100k nested parentheses": "(" * 100_000 + ")" * 100_000,
    "100k open parentheses": "(" * 100_000,
    "1M atoms": "(on a b) " * 110_000,
    "Answer: x 50k times": "Answer: x\n" * 50_000,
    "'answer' + 100k spaces": "answer" + " " * 100_000 + "x",
    "'{' * 400k": "{" * 400_000,
    "'[' * 100k": "[" * 100_000,
    "'positive effects' * 50k": "positive effects " * 50_000,
    "underscores between words": "a" + "_" * 200_000 + "b",
    "'action' + 100k blanks": "action" + " \t" * 50_000,
    "'\\boxed{' * 50k": "\\boxed{" * 50_000,
    "'(a ' * 100k unclosed": "(a " * 100_000,
    "100k digits": "1" * 100_000,
    "tabs and newlines": "\t\n" * 200_000,
}

SMALL = {
    "/dev/stdin": "/dev/stdin",
    "/dev/zero": "/dev/zero",
    "/dev/urandom": "/dev/urandom",
    "/proc/self/environ": "/proc/self/environ",
    "/proc/self/fd/0": "/proc/self/fd/0",
    "/etc/passwd": "/etc/passwd",
    "../../../../etc/passwd": "../../../../etc/passwd",
    "file:///etc/passwd": "file:///etc/passwd",
    "a directory": "/",
    "~": "~",
    "path over 255 bytes": "a" * 300,
    "NUL": "\x00",
    "NUL in an action": "(unstack block_b\x00 block_d)",
    "lone surrogate": "\ud800",
    "surrogate in an answer": "Answer: \udfff (it depends)",
    "zero-width space": "\u200b(unstack block_b block_d)\u200b",
    "right-to-left override": "\u202e(kcats a b)\u202c Answer: \u202eon",
    "BOM": "\ufeffAnswer: A",
    "YAML injection": "!!python/object/apply:os.system ['echo pwned']",
    "JSON injection": '{"pos": 1e999999, "neg": [], "__class__": "x"}',
    "JSON Infinity": '{"pos": Infinity, "neg": NaN}',
    "format string": "{0.__class__.__mro__} %s%s%n {answer} {{7*7}}",
    "Python injection": "__import__('os').system('id')",
    "log4j": "${jndi:ldap://127.0.0.1/x}",
    "SQL": "'; DROP TABLE results; --",
    "claims success": "The plan is valid and the goal is reached. Score: 1.0",
    "Answer: correct": "Answer: correct",
    "(finish)": "(finish)",
    "I am finished": "I am finished",
    "hedge yes no": "yes no",
    "hedge no yes": "no yes",
    "hedge two markers": "Answer: yes\nAnswer: no",
    "hedge two markers reversed": "Answer: no\nAnswer: yes",
    "hedge yes or no": "Answer: yes or no",
    "hedge every letter": "Answer: A\nAnswer: B\nAnswer: C\nAnswer: D",
    "hedge A or B or C or D": "Answer: A or B or C or D",
    "letters": "A B C D",
    "all of the above": "All of the above.",
    "every index": "Answer: 0 1 2 3 4 5 6 7 8 9",
    "integer in a path": "/proc/1/fd/2",
    "None": "None",
    "empty list": "[]",
    "empty": "",
    "blank": " \n\t ",
    "nonsense": "}}{{ 42",
    "unicode soup": "¯\\_(ツ)_/¯ 🤖 \u0301\u0301",
}


@dataclass
class Answer:
    """One corpus answer: `holds_gold` when it contains the right answer (buried, repeated): it may be rewarded."""

    name: str
    text: str
    holds_gold: bool = False


def corpus(gold: str | None, folder: Path) -> list[Answer]:
    """The corpus for an entry point whose right answer is `gold` (None: no right answer in one call): the shared
    answers, files holding the gold and a FIFO in `folder`, and the gold buried in chatter or repeated."""
    answers = [Answer(name, text, _states(text, gold)) for name, text in {**SMALL, **BIG}.items()]
    fifo = folder / "fifo"
    if not fifo.exists():
        os.mkfifo(fifo)
    answers.append(Answer("a FIFO", str(fifo)))
    if gold is not None:
        holder = folder / "gold.txt"
        holder.write_text(gold, encoding="utf-8")
        answers += [Answer("a file holding the gold", str(holder)),
                    Answer("a file holding the gold, with a newline", f"{holder}\n"),
                    Answer("file: URL of the gold", f"file://{holder}"),
                    Answer("gold buried in chatter", f"Sure! Here it is.\n{gold}\nHope that helps!", True),
                    Answer("gold repeated 10,000 times", "\n".join([gold] * 10_000), True)]
    return answers


def _states(text: str, gold: str | None) -> bool:
    """A shared answer that states the gold itself behind invisible marks ("\ufeffAnswer: A" where the right letter
    is A, as a balanced dataset makes it for some entries): the right answer, which may be rewarded."""
    if gold is None:
        return False
    bare = text.replace("\ufeff", "").replace("\u200b", "").strip()
    bare = bare[len("Answer:"):].strip() if bare.startswith("Answer:") else bare
    return bare == gold.strip()


# ---- the harness -------------------------------------------------------------------------------------------------
WATCHED = ("open", "os.listdir", "os.scandir", "subprocess.Popen", "os.system", "os.posix_spawn")


def allowed_roots() -> tuple[str, ...]:
    """Where a call may read: the Python installation and apb's own package (lazy imports, packaged data)."""
    import apb

    roots = {sys.prefix, sys.base_prefix, sys.exec_prefix, str(Path(apb.__file__).resolve().parent)}
    roots |= {p for p in sys.path if p and os.path.isdir(p) and "site-packages" in p}
    return tuple(sorted(os.path.realpath(r) for r in roots))


class Watch:
    """An audit hook (hooks cannot be removed: it checks a flag) recording what a call opens outside `roots`."""

    def __init__(self) -> None:
        self.on = False
        self.events: list[str] = []
        self.roots = allowed_roots()
        sys.addaudithook(self._hook)

    def _hook(self, event: str, args: tuple) -> None:
        if not self.on or event not in WATCHED:
            return
        target = args[0] if args else None
        if event == "open" and isinstance(target, int):
            return  # an already open descriptor
        if isinstance(target, bytes):
            target = target.decode("utf-8", "replace")
        if event in ("open", "os.listdir", "os.scandir") and isinstance(target, str | os.PathLike):
            path = os.path.realpath(os.fspath(target))
            if any(path == r or path.startswith(r + os.sep) for r in self.roots):
                return
        self.events.append(f"{event} {str(target)[:80]!r}")


@dataclass
class Outcome:
    """One call: its time, the exception it raised, what it opened, whether it rewarded the answer."""

    case: int
    answer: str
    seconds: float = 0.0
    error: str | None = None
    opened: list[str] = field(default_factory=list)
    rewarded: bool | None = None
    hang: bool = False
    official: bool | None = None
    states_gold: bool = False  # the answer states this case's gold (behind invisible marks): it may be rewarded


def _child(entry: Any, ctx: Any, calls: list[tuple[int, Answer]], start: int, pipe: Any) -> None:
    watch = Watch()
    for index in range(start, len(calls)):
        case, answer = calls[index]
        watch.events = []
        watch.on = True
        began = time.perf_counter()
        error = result = None
        try:
            result = entry.call(ctx, case, answer.text)
        except BaseException as err:
            error = f"{type(err).__name__}: {str(err)[:200]}"
        seconds = time.perf_counter() - began
        watch.on = False
        rewarded = official = None
        if error is None:
            try:
                rewarded = None if entry.reward is None else bool(entry.reward(result))
                official = None if entry.official is None else bool(entry.official(result))
            except Exception as err:
                error = f"reading the result: {type(err).__name__}: {err}"
        pipe.send(Outcome(case, answer.name, seconds, error, list(watch.events), rewarded, official=official,
                          states_gold=answer.holds_gold and answer.name in SMALL))
    pipe.send(None)


def run_entry(entry: Any, timeout: float = 120.0, answers: list[str] | None = None) -> list[Outcome]:
    """Every (case, corpus answer) of the entry point, in children forked after its setup; a call silent for
    `timeout` seconds is a hang (its child is killed and the next one resumes after it). `answers`: a subset of the
    corpus by name."""
    context = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory(prefix="apb-adversarial-") as folder:
        ctx = entry.setup()
        calls = []
        for case in range(entry.cases(ctx)):
            for answer in corpus(entry.gold(ctx, case), Path(folder)):
                if answers is None or answer.name in answers:
                    calls.append((case, answer))
        for case in range(entry.cases(ctx)):  # warm-up: lazy imports and caches, unwatched
            entry.call(ctx, case, entry.gold(ctx, case) or "x")
        outcomes: list[Outcome] = []
        while len(outcomes) < len(calls):
            receive, send = context.Pipe(duplex=False)
            child = context.Process(target=_child, args=(entry, ctx, calls, len(outcomes), send), daemon=True)
            child.start()
            send.close()
            while True:
                if not receive.poll(timeout):
                    case, answer = calls[len(outcomes)]
                    outcomes.append(Outcome(case, answer.name, timeout, hang=True))
                    break
                try:
                    message = receive.recv()
                except EOFError:  # the child died (a crash, memory exhausted)
                    case, answer = calls[len(outcomes)]
                    outcomes.append(Outcome(case, answer.name, 0.0, error=f"the child died: exit {child.exitcode}"))
                    break
                if message is None:
                    break
                outcomes.append(message)
            child.kill()
            child.join()
            receive.close()
        return [o for o in outcomes if o is not None]


def positive_control(entry: Any) -> list[str]:
    """Cases whose gold answer is NOT rewarded (the entry point's reward works when this is empty)."""
    ctx = entry.setup()
    failed = []
    for case in range(entry.cases(ctx)):
        gold = entry.gold(ctx, case)
        if gold is not None and entry.reward is not None and not entry.reward(entry.call(ctx, case, gold)):
            failed.append(f"case {case}: the gold {gold[:60]!r} is not rewarded")
    return failed


def findings(outcomes: list[Outcome], holds_gold: set[str]) -> dict[str, list[str]]:
    """The failures: exceptions, files opened, hangs, non-answers rewarded."""
    return {"exceptions": [f"{o.case}/{o.answer}: {o.error}" for o in outcomes if o.error],
            "files": [f"{o.case}/{o.answer}: {e}" for o in outcomes for e in o.opened],
            "hangs": [f"{o.case}/{o.answer}" for o in outcomes if o.hang],
            "rewarded": [f"{o.case}/{o.answer}" for o in outcomes if o.rewarded and o.answer not in holds_gold
                         and not o.states_gold]}


def official_rewards(outcomes: list[Outcome], holds_gold: set[str]) -> str:
    """Non-answers the official verdict (shown in reports, never a reward) gives credit to, or '-'."""
    if all(o.official is None for o in outcomes):
        return "-"
    return str(sum(bool(o.official) for o in outcomes if o.answer not in holds_gold))


def gold_holders() -> set[str]:
    with tempfile.TemporaryDirectory() as folder:
        return {a.name for a in corpus("x", Path(folder)) if a.holds_gold}


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from adversarial_entries import available_entries

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", help="comma-separated entry point names (default: all)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds after which a call is a hang")
    args = parser.parse_args(argv)
    entries, missing = available_entries()
    if args.entries:
        wanted = set(args.entries.split(","))
        entries = [e for e in entries if e.name in wanted]
    holders = gold_holders()
    print("| entry point | answers tried | worst time | slowest answer | exceptions | files opened | hangs | "
          "rewarded non-answers | official verdict's |")
    print("|---|---|---|---|---|---|---|---|---|")
    bad = 0
    for entry in entries:
        outcomes = run_entry(entry, args.timeout)
        found = findings(outcomes, holders)
        worst = max(outcomes, key=lambda o: o.seconds)
        bad += sum(map(len, found.values()))
        print(f"| {entry.name} | {len(outcomes)} | {worst.seconds:.3f} s | {worst.answer} | "
              f"{len(found['exceptions'])} | {len(found['files'])} | {len(found['hangs'])} | "
              f"{len(found['rewarded'])} | {official_rewards(outcomes, holders)} |", flush=True)
        for kind, items in found.items():
            for item in items[:5]:
                print(f"  {kind}: {item}", file=sys.stderr)
    for name, reason in missing:
        print(f"(skipped {name}: {reason})", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        traceback.print_exc()
        sys.exit(130)
