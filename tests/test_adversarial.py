"""Model output is data: benchmarks/adversarial.py's corpus (paths of every kind, /dev and /proc files, FIFOs, files
holding the gold, NUL, surrogates, 10 MB strings, deep nesting, regex-catastrophic shapes, injections, hedges and
claims of success) against every entry point that scores or executes model text, each call in a forked child with an
audit hook: no exception, no file opened, every call finished (a generous timeout only turns a hang into a failure;
times are the benchmark's), no non-answer rewarded, and the gold answer itself rewarded."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from adversarial import BIG, SMALL, corpus, findings, gold_holders, positive_control, run_entry
from adversarial_entries import available_entries

ENTRIES, MISSING = available_entries()
HANG = 300.0  # seconds without an answer before a call counts as a hang (not a time limit: see the benchmark)


def test_the_corpus_has_what_the_contract_names(tmp_path):
    texts = {**SMALL, **BIG}
    for path in ("/dev/stdin", "/dev/zero", "/proc/self/environ", "/etc/passwd"):
        assert path in texts.values()
    assert any("\x00" in t for t in texts.values()) and any("\ud800" in t for t in texts.values())
    assert any(len(t) >= 10_000_000 for t in texts.values()) and "(a)" * 1_000_000 in texts.values()
    assert "é" * 5_000_000 in texts.values() and "\n" * 1_000_000 in texts.values()
    assert any("\u200b" in t for t in texts.values()) and any("\u202e" in t for t in texts.values())
    names = {a.name for a in corpus("(gold)", tmp_path)}
    assert {"a FIFO", "a file holding the gold", "gold buried in chatter", "gold repeated 10,000 times"} <= names
    assert gold_holders() == {"gold buried in chatter", "gold repeated 10,000 times"}


# verifiers 0.4 (openai<3) and Inspect (openai>=3.4) cannot share a venv: the dev venv attacks every integration but
# verifiers, and the verifiers venv (README, "Run the tests"; the end of .ci/run) runs this file for verifiers.
APART = {"verifiers"}


def test_every_integration_is_attacked():
    """Every integration installed beside Inspect is attacked; in the verifiers venv, verifiers is."""
    missing = {group for group, _ in MISSING}
    if "inspect" in missing:  # the verifiers venv
        assert "verifiers" not in missing, MISSING
    else:
        assert missing <= APART, MISSING
        assert len(ENTRIES) >= 20


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_no_answer_crashes_hangs_opens_a_file_or_earns_a_reward(entry):
    outcomes = run_entry(entry, timeout=HANG)
    assert len(outcomes) >= len(SMALL) + len(BIG)
    assert findings(outcomes, gold_holders()) == {"exceptions": [], "files": [], "hangs": [], "rewarded": []}
    assert positive_control(entry) == []  # the reward is not trivially 0: the right answer earns it
