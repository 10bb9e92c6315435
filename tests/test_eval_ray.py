"""`--executor ray` on a local Ray instance (the `ray` extra), for every command that runs items through the one
runner: apb eval, apb acp eval, apb nl2pddl eval, apb acp generate, apb nl2pddl build. Each gives the same results
as the thread executor; resume works the same. One Ray instance serves the whole module (Ray starts slowly).
Without Ray, the executor is a clear error."""

from __future__ import annotations

import json
import sys

import pytest

from apb import cli
from apb.bench.llm_server import AnswerTable, LLMServer, message_key


@pytest.fixture(scope="module")
def local_ray():
    import ray  # the ray extra is part of apb[dev]

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.fixture(scope="module")
def gold_server(tmp_path_factory):
    """A local OpenAI-compatible server answering ACP questions and NL->PDDL pairs with their gold, and the files
    it answers for: (spec, questions.jsonl, pairs folder)."""
    from apb.acp.evaluate import answer_text, build_messages
    from apb.acp.generate import generate
    from apb.engine.input_files import read_input
    from apb.nl2pddl.build import build_pairs
    from apb.nl2pddl.runner import domain_file_for, messages_for

    folder = tmp_path_factory.mktemp("gold")
    table = AnswerTable()
    questions, _ = generate("blocksworld", tasks=["app", "reach", "nexta"], count=2, seed=0)
    path = folder / "questions.jsonl"
    path.write_text("".join(json.dumps(q.to_dict()) + "\n" for q in questions), encoding="utf-8")
    for q in questions:
        table.exact[message_key(build_messages(q, [], False)[-1]["content"])] = answer_text(q)
    rows = build_pairs("gripper", 3, folder / "pairs")
    for row in rows:
        domain_text = read_input(domain_file_for(row, folder / "pairs"), "domain file")
        table.exact[message_key(messages_for(row, domain_text, [])[-1]["content"])] = \
            "```pddl\n" + row["problem_pddl"] + "\n```"
    server = LLMServer(table).start()
    yield f"openai-compatible:{server.url}:gold", path, folder / "pairs"
    server.stop()


def results(path) -> dict:
    """Records of a results.jsonl by id, without what differs between any two runs (timings)."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        for key in ("seconds", "latency", "latency_s", "started", "finished"):
            record.pop(key, None)
        out[record["id"]] = record
    return out


def test_ray_executor_runs_the_same_episodes_as_threads(tmp_path, local_ray):
    common = ["eval", "--domains", "ferry", "--agents", "random,bfs", "--problems", "1-2", "--seeds", "2",
              "--no-progress", "--concurrency", "2"]
    assert cli.main([*common, "--executor", "ray", "--out", str(tmp_path / "ray")]) == 0
    assert cli.main([*common, "--out", str(tmp_path / "threads")]) == 0

    def footers(folder):
        out = {}
        for path in sorted((folder / "episodes").glob("*.jsonl")):
            lines = path.read_text().splitlines()
            footer = json.loads(lines[-1])
            out[path.name] = (footer["success"], footer["steps"], footer["stop_reason"])
        return out

    assert footers(tmp_path / "ray") == footers(tmp_path / "threads") and len(footers(tmp_path / "ray")) == 2 * (2 + 1)
    assert not list((tmp_path / "ray" / "episodes").glob("*.part"))
    # resume with Ray: nothing left to run
    assert cli.main([*common, "--executor", "ray", "--resume", "--out", str(tmp_path / "ray")]) == 0


def test_acp_eval_with_ray_scores_as_threads_and_resumes(tmp_path, local_ray, gold_server, capsys):
    spec, questions, _ = gold_server
    common = ["acp", "eval", str(questions), "--llm", spec, "--cache", "off", "--no-progress", "--concurrency", "2"]
    assert cli.main([*common, "--out", str(tmp_path / "threads")]) == 0
    assert cli.main([*common, "--executor", "ray", "--out", str(tmp_path / "ray")]) == 0
    threads, ray = results(tmp_path / "threads" / "results.jsonl"), results(tmp_path / "ray" / "results.jsonl")
    assert ray == threads and len(ray) >= 10 and all(r["official"] for r in ray.values())
    capsys.readouterr()
    assert cli.main([*common, "--executor", "ray", "--resume", "--out", str(tmp_path / "ray")]) == 0
    assert f"0 asked now, {len(ray)} done before" in capsys.readouterr().out


def test_nl2pddl_eval_with_ray_scores_as_threads(tmp_path, local_ray, gold_server):
    spec, _, pairs = gold_server
    common = ["nl2pddl", "eval", str(pairs), "--llm", spec, "--cache", "off", "--concurrency", "2"]
    assert cli.main([*common, "--out", str(tmp_path / "threads")]) == 0
    assert cli.main([*common, "--executor", "ray", "--out", str(tmp_path / "ray")]) == 0
    threads, ray = results(tmp_path / "threads" / "results.jsonl"), results(tmp_path / "ray" / "results.jsonl")
    assert ray == threads and len(ray) >= 3 and all(r["correct"] for r in ray.values())


def test_generators_with_ray_write_the_same_files_as_threads(tmp_path, local_ray, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a relative dataset folder reaches the workers as an absolute path
    assert cli.main(["nl2pddl", "build", "ferry", "--count", "3", "--out", "pairs-threads"]) == 0
    assert cli.main(["nl2pddl", "build", "ferry", "--count", "3", "--out", "pairs-ray", "--executor", "ray",
                     "--concurrency", "2"]) == 0
    assert (tmp_path / "pairs-ray" / "pairs.jsonl").read_bytes() == \
        (tmp_path / "pairs-threads" / "pairs.jsonl").read_bytes()
    common = ["acp", "generate", "blocksworld", "--tasks", "app,prog,just", "--count", "2"]
    assert cli.main([*common, "--out", "q-threads"]) == 0
    assert cli.main([*common, "--out", "q-ray", "--executor", "ray", "--concurrency", "2"]) == 0
    threads = (tmp_path / "q-threads" / "questions.jsonl").read_text(encoding="utf-8")
    assert (tmp_path / "q-ray" / "questions.jsonl").read_text(encoding="utf-8") == threads
    assert {json.loads(line)["task"] for line in threads.splitlines()} == {"app", "prog", "just"}


def test_a_user_error_in_a_ray_worker_is_one_line(tmp_path, local_ray, capsys):
    empty = tmp_path / "empty"
    (empty / "problems").mkdir(parents=True)
    (empty / "domain.pddl").write_text("(define (domain d) (:predicates (p)) (:action a :parameters () "
                                       ":precondition (p) :effect (not (p))))", encoding="utf-8")
    (empty / "problems" / "p1.pddl").write_text("(define (problem p1) (:domain d) (:init (q)) (:goal (p)))",
                                                encoding="utf-8")
    code = cli.main(["acp", "generate", str(empty), "--tasks", "app", "--count", "1", "--executor", "ray",
                     "--out", str(tmp_path / "q")])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err and "RayTaskError" not in err


def test_ray_executor_without_ray_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    for argv in (["eval", "--domains", "ferry", "--agents", "random", "--problems", "1", "--no-progress"],
                 ["acp", "generate", "ferry", "--count", "1"], ["nl2pddl", "build", "ferry", "--count", "1"]):
        code = cli.main([*argv, "--executor", "ray", "--out", str(tmp_path / argv[0] / argv[1])])
        assert code == 2 and "pip install 'apb[ray]'" in capsys.readouterr().err
