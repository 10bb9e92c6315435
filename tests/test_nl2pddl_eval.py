"""`apb nl2pddl build | import | eval | report` with scripted LLM answers: correct PDDL, renamed objects, missing
implied goal facts, a wrong goal and garbage are scored as expected; results are resumable; reports group them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apb.cli import main
from apb.errors import ApbError
from apb.llm.scripted import ScriptedLLM
from apb.nl2pddl.planetarium import import_planetarium, read_rows
from apb.nl2pddl.report import read_results
from apb.nl2pddl.runner import run_pairs

DATA = Path(__file__).parent / "data" / "nl2pddl"
# (id, gold file, scripted answer file, expected triple)
CASES = [
    ("bw-1", "bw_fully_specified.pddl", "bw_gold.pddl", [True, True, True]),  # implied goal facts left out
    ("gripper-1", "gripper_gold.pddl", "bw_garbage.pddl", [False, False, False]),  # garbage
    ("ft-1", "floortile_gold.pddl", "floortile_renamed.pddl", [True, True, True]),  # renamed objects
    ("rover-1", "rover_gold.pddl", "rover_rock.pddl", [True, True, False]),  # wrong goal
    ("bw-2", "bw_gold.pddl", "bw_gold.pddl", [True, True, True]),  # the gold problem itself
]
DOMAINS = {"bw": "blocksworld", "gripper": "gripper", "ft": "floor-tile", "rover": "rover-single"}


def _pairs(tmp_path: Path) -> Path:
    rows = [{"id": pid, "domain": DOMAINS[pid.split("-")[0]], "natural_language": f"The task of {gold}.",
             "problem_pddl": (DATA / gold).read_text(), "init_is_abstract": False, "goal_is_abstract": pid == "bw-2",
             "is_placeholder": False, "num_objects": 4} for pid, gold, _, _ in CASES]
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _answers(tmp_path: Path) -> Path:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps([f"```pddl\n{(DATA / answer).read_text()}```" for _, _, answer, _ in CASES]))
    return path


def test_eval_scores_scripted_answers_and_resumes(tmp_path, capsys):
    pairs, answers, out = _pairs(tmp_path), _answers(tmp_path), tmp_path / "run"
    assert main(["nl2pddl", "eval", str(pairs), "--llm", f"scripted:{answers}", "--concurrency", "1",  # in order
                 "--out", str(out)]) == 0
    results = {r["id"]: [r["parseable"], r["solvable"], r["correct"]] for r in read_results(out)}
    assert results == {pid: triple for pid, _, _, triple in CASES}
    assert "correct 60.0%" in capsys.readouterr().out
    summary = json.loads((out / "summary.json").read_text())
    assert summary["domain"]["rover-single"]["correct"] == 0.0 and summary["overall"]["pairs"] == 5
    assert summary["abstraction"]["init explicit, goal abstract"]["pairs"] == 1
    # a rerun must be asked for; --resume skips what is done (the scripted file has no answers left)
    assert main(["nl2pddl", "eval", str(pairs), "--llm", f"scripted:{answers}", "--out", str(out)]) == 2
    assert main(["nl2pddl", "eval", str(pairs), "--llm", f"scripted:{answers}", "--out", str(out), "--resume"]) == 0
    assert len(read_results(out)) == 5
    assert main(["nl2pddl", "report", str(out)]) == 0
    report = capsys.readouterr().out
    assert "By domain" in report and "GPT-4o, zero-shot" in report and "24.8" in report


def test_a_broken_gold_problem_is_refused_before_any_pair_runs(tmp_path):
    """Issue 41: every pair is checked before any work; a gold that does not parse names its line and field (it was
    recorded per pair, after the model had been asked)."""
    pairs = _pairs(tmp_path)
    rows = [json.loads(line) for line in pairs.read_text().splitlines()]
    rows[0]["problem_pddl"] = rows[0]["problem_pddl"].replace("(on b3 b4)", "(on b3 b9)")
    pairs.write_text("".join(json.dumps(r) + "\n" for r in rows))
    asked = []
    with pytest.raises(ApbError, match=r"pairs.jsonl:1: field 'problem_pddl' \(the gold\) does not parse.*b9"):
        run_pairs(pairs, ScriptedLLM(lambda messages: asked.append(messages) or ""), tmp_path / "run", limit=2)
    assert not asked and not (tmp_path / "run").exists()


def test_concurrent_run_with_shots(tmp_path):
    pairs = _pairs(tmp_path)
    by_task = {f"The task of {gold}.": (DATA / answer).read_text() for _, gold, answer, _ in CASES}
    seen = []

    def respond(messages):
        seen.append(messages[-1]["content"])
        task = messages[-1]["content"].rsplit("Write the PDDL problem of this task:", 1)[1].strip()
        return by_task[task]

    summary = run_pairs(pairs, ScriptedLLM(respond), tmp_path / "run", shots=1, concurrency=3)
    assert summary["ran"] == 5 and summary["skipped"] == 0 and summary["errors"] == 0
    results = {r["id"]: [r["parseable"], r["solvable"], r["correct"]] for r in read_results(tmp_path / "run")}
    assert results == {pid: triple for pid, _, _, triple in CASES}
    assert any("Example task:" in prompt for prompt in seen)  # bw-1 and bw-2 are each other's shot


def test_build_pairs_from_a_bundled_domain(tmp_path, capsys):
    assert main(["nl2pddl", "build", "gripper", "--count", "5", "--out", str(tmp_path)]) == 0
    rows = read_rows(tmp_path / "pairs.jsonl")
    ids = [r["id"] for r in rows]
    assert ids[:4] == ["gripper-p01-explicit", "gripper-p01-abstract-init", "gripper-p02-explicit",
                       "gripper-p02-abstract-init"]
    explicit, abstract = rows[0], rows[1]
    for field in ("init", "goal", "natural_language", "problem_pddl", "init_is_abstract", "goal_is_abstract",
                  "is_placeholder", "num_objects", "domain"):
        assert field in explicit
    assert abstract["init_is_abstract"] and "every gripper" in abstract["natural_language"]
    assert explicit["num_objects"] == 9 and (tmp_path / explicit["domain_file"]).is_file()
    # Planetarium's generator pairs each initial description kind with each goal kind: p05 has all four
    p05 = {r["id"].removeprefix("gripper-p05-"): r for r in rows if r["problem_id"] == "p05"}
    assert {(r["init"], r["goal"], r["init_is_abstract"], r["goal_is_abstract"]) for r in p05.values()} == {
        ("explicit", "explicit", False, False), ("abstract", "explicit", True, False),
        ("explicit", "abstract", False, True), ("abstract", "abstract", True, True)}
    goal_text = {kind: r["natural_language"].split("My goal is that")[1] for kind, r in p05.items()}
    init_text = {kind: r["natural_language"].split("My goal is that")[0] for kind, r in p05.items()}
    assert "every ball" in goal_text["abstract-goal"] and "every ball" not in goal_text["abstract-init"]
    assert "every" not in init_text["abstract-goal"] and "every" in init_text["abstract-init"]
    assert "every" in init_text["abstract"] and "every" in goal_text["abstract"]
    assert len({r["problem_pddl"] for r in p05.values()}) == 1 and not any(r["is_placeholder"] for r in rows)
    # the gold problem scores itself as correct through the eval pipeline
    answers = tmp_path / "answers.json"
    answers.write_text(json.dumps([r["problem_pddl"] for r in rows]))
    assert main(["nl2pddl", "eval", str(tmp_path), "--llm", f"scripted:{answers}", "--concurrency", "1",  # in order
                 "--out", str(tmp_path / "run")]) == 0
    assert all(r["correct"] for r in read_results(tmp_path / "run"))


def test_import_planetarium_rows(tmp_path):
    row = {"id": 7, "name": "blocksworld_tower", "domain": "blocksworld", "init": "on_table", "goal": "tower",
           "natural_language": "Four blocks on the table; stack them.",
           "problem_pddl": (DATA / "bw_gold.pddl").read_text(), "init_is_abstract": 0, "goal_is_abstract": 1,
           "is_placeholder": 0, "num_objects": 4}
    (tmp_path / "rows.jsonl").write_text(json.dumps(row) + "\n")
    (tmp_path / "rows.json").write_text(json.dumps([row]))
    for name in ("rows.jsonl", "rows.json"):
        rows = import_planetarium(tmp_path / name, tmp_path / name.replace(".", "_"))
        assert rows[0]["id"] == "7" and rows[0]["goal_is_abstract"] is True and rows[0]["is_placeholder"] is False
    # the SQLite database Planetarium's dataset generator writes (its problems and splits tables)
    import sqlite3

    with sqlite3.connect(tmp_path / "planetarium.db") as db:
        db.execute("CREATE TABLE problems (id INTEGER PRIMARY KEY, name TEXT, domain TEXT, init TEXT, goal TEXT, "
                   "num_objects INTEGER, problem_pddl TEXT, natural_language TEXT, init_is_abstract INTEGER, "
                   "init_num_propositions INTEGER, goal_is_abstract INTEGER, goal_num_propositions INTEGER, "
                   "is_placeholder INTEGER)")
        db.execute("CREATE TABLE splits (problem_id INTEGER, split_type TEXT, split TEXT)")
        db.execute("INSERT INTO problems VALUES (7, ?, ?, ?, ?, 4, ?, ?, 0, 9, 1, 3, 0)",
                   (row["name"], row["domain"], row["init"], row["goal"], row["problem_pddl"],
                    row["natural_language"]))
        db.execute("INSERT INTO splits VALUES (7, 'hf', 'test')")
    rows = import_planetarium(tmp_path / "planetarium.db", tmp_path / "from_db")
    assert rows[0]["id"] == "7" and rows[0]["goal_is_abstract"] is True and rows[0]["splits"] == {"hf": "test"}
    assert (tmp_path / "from_db" / "pairs.jsonl").is_file()
    bad = dict(row, domain="kitchen")
    (tmp_path / "bad.jsonl").write_text(json.dumps(bad) + "\n")
    assert main(["nl2pddl", "import", str(tmp_path / "bad.jsonl"), "--out", str(tmp_path / "b")]) == 2
    (tmp_path / "rows.parquet").write_bytes(b"PAR1")
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        with pytest.raises(Exception, match="pyarrow"):
            read_rows(tmp_path / "rows.parquet")


def test_a_pairs_domain_file_is_parsed_once_per_version(tmp_path):
    """Pairs share a few domain files: each version of a file is read and parsed once (the scoring threads of a run
    queued on parsing it per pair), and a file that changes is read again."""
    from apb.nl2pddl import runner
    from apb.nl2pddl.registry import domain_path

    source = domain_path("blocksworld")
    path = tmp_path / "domain.pddl"
    path.write_text(source.read_text(encoding="utf-8"), encoding="utf-8")
    text, domain = runner._domain(path)
    assert runner._domain(path)[1] is domain and text == source.read_text(encoding="utf-8")
    path.write_text(text + "\n; edited\n", encoding="utf-8")
    assert runner._domain(path)[1] is not domain
    with pytest.raises(ApbError, match=r"missing\.pddl"):
        runner._domain(tmp_path / "missing.pddl")
