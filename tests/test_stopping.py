"""Deadlines and SIGTERM reach grounding and every long loop (issue 41, item 3): `apb solve --timeout` covered only
the search, so a task too large to ground ran on for minutes past it, and SIGTERM took seconds to tens of seconds to
end a large grounding. The tests use real processes and signals; their timeouts are hang guards, never thresholds."""

from __future__ import annotations

import gc
import itertools
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from apb.acp.evaluate import question_items
from apb.acp.question_files import read_questions
from apb.bench.llm_server import LLMServer
from apb.engine import load_domain, load_problem, load_task
from apb.engine.deadline import DeadlineExceeded
from apb.engine.ground import ground
from apb.engine.task import Task
from apb.eval.items import ItemInterrupted
from apb.llm.scripted import ScriptedLLM
from apb.planners.relaxed import RelaxedTask

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = ROOT / "apb" / "domains" / "blocksworld" / "domain.pddl"
HANG_GUARD_S = 300


def blocks_problem(n: int) -> str:
    """A blocksworld task of n blocks on the table, the goal one tower: about 4.5 million ground actions at 1,500."""
    names = [f"b{i}" for i in range(1, n + 1)]
    return ("(define (problem tower)\n (:domain blocksworld-4ops)\n (:objects " + " ".join(names) + ")\n"
            " (:init (handempty) " + " ".join(f"(ontable {b}) (clear {b})" for b in names) + ")\n"
            " (:goal (and " + " ".join(f"(on {a} {b})" for a, b in itertools.pairwise(names)) + ")))\n")


def apb_process(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen:
    env = {**os.environ, **(env or {}), "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "apb", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            stdin=subprocess.DEVNULL, text=True, env=env)


def test_a_deadline_stops_grounding_and_building_with_deadline_exceeded():
    domain = load_domain(DOMAIN)
    problem = load_problem(blocks_problem(30), domain)
    with pytest.raises(DeadlineExceeded, match="during grounding") as stopped:
        load_task(domain, blocks_problem(30), deadline=time.monotonic() - 1)
    assert stopped.value.what == "grounding" and gc.isenabled()  # collection resumes after the stop
    grounding = ground(domain, problem)
    with pytest.raises(DeadlineExceeded, match="during building the ground actions"):
        Task(domain, problem, grounding, deadline=time.monotonic() - 1)
    task = Task(domain, problem, grounding, deadline=time.monotonic() + 600)  # time enough: the same task
    assert len(task.actions) == len(Task(domain, problem, grounding).actions) == 2 * 30 + 2 * 30 * 30  # (stack b b) too


def test_the_heuristics_relaxed_task_stops_at_its_deadline():
    """Its bitmasks over millions of facts took minutes past `apb solve --timeout` once grounding had finished."""
    task = load_task(DOMAIN, blocks_problem(30))
    with pytest.raises(DeadlineExceeded, match="during building the relaxed task"):
        RelaxedTask(task, time.monotonic() - 1)
    assert RelaxedTask(task, time.monotonic() + 600).op_masks == RelaxedTask(task).op_masks


def test_a_grounding_stopped_by_ctrl_c_is_left_out_of_later_garbage_collections():
    """The first collection after a stop would scan every object the grounding made (seconds at 1,500 blocks)."""
    domain = load_domain(DOMAIN)
    problem = load_problem(blocks_problem(60), domain)

    def interrupt(progress) -> None:
        raise KeyboardInterrupt

    frozen = gc.get_freeze_count()
    try:
        with pytest.raises(KeyboardInterrupt):
            ground(domain, problem, interrupt)
        assert gc.isenabled() and gc.get_freeze_count() > frozen
    finally:
        gc.unfreeze()


def test_solve_timeout_covers_grounding(tmp_path):
    problem = tmp_path / "tower.pddl"
    problem.write_text(blocks_problem(1500), encoding="utf-8")
    proc = apb_process("solve", str(DOMAIN), str(problem), "--timeout", "2")
    _, err = proc.communicate(timeout=HANG_GUARD_S)
    assert proc.returncode == 1, err  # a timeout, as the search's own
    assert "astar: timeout" in err and "time limit of 2 s reached during" in err, err  # grounding or building
    assert "Traceback" not in err


def test_sigterm_ends_a_large_grounding_with_one_line(tmp_path):
    problem = tmp_path / "tower.pddl"
    problem.write_text(blocks_problem(1500), encoding="utf-8")
    proc = apb_process("solve", str(DOMAIN), str(problem), "--timeout", "3600")
    try:
        line = proc.stderr.readline()  # the first progress line: grounding has run for seconds
        assert "grounding tower.pddl" in line, line
    finally:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=HANG_GUARD_S)
    assert proc.returncode == 143, err
    assert err.strip().splitlines()[-1] == "terminated (SIGTERM)" and "Traceback" not in err, err


def test_a_question_answered_after_the_stop_is_not_scored(tmp_path):
    """Scoring can take CPU seconds; threads that kept scoring after a SIGTERM held up the exit."""
    questions = generate_questions(tmp_path)
    item = question_items(read_questions(questions), "scripted:x")[0]
    llm = ScriptedLLM(["yes"])
    stop = threading.Event()
    stop.set()
    with pytest.raises(ItemInterrupted):
        item.run(tmp_path, llm, stop)
    assert len(llm.calls) == 1  # asked (the call was under way), never scored
    record = item.run(tmp_path, ScriptedLLM(["yes"]), threading.Event())
    assert record["error"] is None and record["response"] == "yes" and record["sound"] is not None


def generate_questions(tmp_path: Path) -> Path:
    questions = tmp_path / "q"
    made = subprocess.run([sys.executable, "-m", "apb", "acp", "generate", "ferry", "--count", "12", "--out",
                           str(questions)], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
                          timeout=HANG_GUARD_S)
    assert made.returncode == 0, made.stderr
    return questions


def test_sigterm_stops_an_acp_eval_under_load_and_keeps_the_finished_answers(tmp_path):
    questions = generate_questions(tmp_path)
    out = tmp_path / "run"
    with LLMServer(latency=0.2) as server:  # every request waits: many are in flight when the signal comes
        proc = apb_process("acp", "eval", str(questions), "--llm", f"openai-compatible:{server.url}:m", "--out",
                           str(out), "--concurrency", "16", env=server.env())
        results = out / "results.jsonl"
        deadline = time.monotonic() + HANG_GUARD_S
        while (not results.exists() or not results.read_text(encoding="utf-8").strip()) and proc.poll() is None:
            assert time.monotonic() < deadline, "no answer was ever recorded"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=HANG_GUARD_S)
    assert proc.returncode == 143, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("terminated (SIGTERM): ") and "--resume" in last and "Traceback" not in err, err
    finished = int(last.split(": ")[1].split(" of ")[0])
    assert 1 <= finished == len(results.read_text(encoding="utf-8").splitlines())
