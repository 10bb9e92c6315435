"""apb report says exactly what ran: partial coverage ("3 of 20 problems"), the paper compared on like terms only,
captions that say what each baseline is, no `None` or empty field, plot names and axes, the trajectory viewer,
and conflicting duplicates across merged folders. Trajectories come from `apb eval` (symbolic agents and a
scripted LLM) over 3 of Blocksworld's 20 test problems."""

from __future__ import annotations

import csv
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

from apb.cli import main
from apb.eval.report import write_report
from apb.eval.report.viewer import read_viewer


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """Two run folders over Blocksworld p01-p03: `symbolic` (random, bfs; no model) and `model` (act, scripted)."""
    root = tmp_path_factory.mktemp("coverage")
    script = root / "act.txt"
    script.write_text("\n---\n".join(["pick up block a", "look around", "unstack block b from block d"] * 300))
    assert main(["eval", "--domains", "blocksworld", "--agents", "random,bfs", "--problems", "1-3",
                 "--out", str(root / "symbolic"), "--no-progress"]) == 0
    assert main(["eval", "--domains", "blocksworld", "--agents", "act", "--llm", f"scripted:{script}",
                 "--problems", "1-3", "--out", str(root / "model"), "--no-progress"]) == 0
    return root


def report(capsys, *dirs: Path, out: Path) -> tuple[int, str, str]:
    """`apb report DIRS --out OUT`: exit code, stdout, stderr."""
    capsys.readouterr()
    code = main(["report", *map(str, dirs), "--out", str(out)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def coverage_section(markdown: str) -> str:
    return markdown.split("## Coverage", 1)[1].split("## Acc", 1)[0]


def rewrite_headers(folder: Path, edit) -> None:
    for path in (folder / "episodes").glob("*.jsonl"):
        lines = path.read_text().splitlines()
        header = json.loads(lines[0])
        edit(header)
        path.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")


def twenty_problems(source: Path, target: Path, agent: str) -> Path:
    """A run folder with `agent`'s p01 episode copied to all 20 test problems (as if the run covered the split)."""
    (target / "episodes").mkdir(parents=True)
    first = sorted((source / "episodes").glob(f"blocksworld__1__{agent}__*.jsonl"))[0]
    lines = first.read_text().splitlines()
    for number in range(1, 21):
        header = json.loads(lines[0])
        header.update(problem_id=f"p{number:02d}", problem=number,
                      episode_id=header["episode_id"].replace("__1__", f"__{number}__"))
        (target / "episodes" / f"{header['episode_id']}.jsonl").write_text(
            "\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return target


# ---- coverage: what ran, compared with the paper on like terms --------------------------------------------------
def test_the_header_records_the_size_of_the_split(runs):
    for path in (runs / "symbolic" / "episodes").glob("*.jsonl"):
        header = json.loads(path.read_text().splitlines()[0])
        assert header["split_size"] == 20


def test_partial_coverage_says_how_many_problems_and_is_not_set_beside_the_paper(runs, tmp_path, capsys):
    code, printed, _ = report(capsys, runs / "symbolic", out=tmp_path)
    assert code == 0
    table = coverage_section((tmp_path / "report.md").read_text())
    assert "3 of 20 problems" in table
    assert "(paper" not in table  # the paper's figures are out of 20 problems, this run's out of 3
    assert "not comparable" in table
    page = (tmp_path / "report.html").read_text()
    assert "3 of 20 problems" in page and "class='paper'" not in page
    assert "3 of 20 problems" in printed and "(paper" not in printed


def test_old_files_without_split_size_say_how_many_problems_ran(runs, tmp_path, capsys):
    old = tmp_path / "old"
    shutil.copytree(runs / "symbolic", old)
    rewrite_headers(old, lambda header: header.pop("split_size", None))
    assert report(capsys, old, out=tmp_path / "report")[0] == 0
    table = coverage_section((tmp_path / "report" / "report.md").read_text())
    assert "3 problems" in table and "of 20" not in table and "(paper" not in table


def test_full_coverage_is_set_beside_the_paper(runs, tmp_path, capsys):
    full = twenty_problems(runs / "symbolic", tmp_path / "full", "bfs")
    assert report(capsys, full, out=tmp_path / "report")[0] == 0
    table = coverage_section((tmp_path / "report" / "report.md").read_text())
    assert "20 of 20 problems" in table and "(paper 20)" in table and "not comparable" not in table
    rewrite_headers(full, lambda header: header.pop("split_size", None))  # old files: 20 problems = the paper's 20
    assert report(capsys, full, out=tmp_path / "old")[0] == 0
    assert "(paper 20)" in coverage_section((tmp_path / "old" / "report.md").read_text())


def test_the_caption_says_what_the_baseline_columns_are(runs, tmp_path, capsys):
    twenty_problems(runs / "symbolic", tmp_path / "b", "bfs")
    twenty_problems(runs / "symbolic", tmp_path / "r", "random")
    assert report(capsys, tmp_path / "b", tmp_path / "r", out=tmp_path / "report")[0] == 0
    table = coverage_section((tmp_path / "report" / "report.md").read_text())
    assert "GPT-4" not in table  # neither random nor BrFS is an LLM run
    assert "random actions" in table and "breadth-first search" in table
    page = (tmp_path / "report" / "report.html").read_text()
    assert "GPT-4" not in page.split("<h2>Acc", 1)[0] and "breadth-first search" in page


def test_the_caption_names_gpt4_only_for_llm_agents(runs, tmp_path, capsys):
    twenty_problems(runs / "model", tmp_path / "a", "act")
    twenty_problems(runs / "symbolic", tmp_path / "b", "bfs")
    assert report(capsys, tmp_path / "a", tmp_path / "b", out=tmp_path / "report")[0] == 0
    markdown = (tmp_path / "report" / "report.md").read_text()
    tables = {t.split("\n", 1)[0]: t.split("## Acc")[0] for t in markdown.split("## Coverage")[1:]}
    llm_table = next(t for title, t in tables.items() if "scripted:" in title)
    symbolic_table = next(t for title, t in tables.items() if "no LLM" in title)
    assert "GPT-4" in llm_table and "Act" in llm_table
    assert "GPT-4" not in symbolic_table


# ---- no None or empty field reaches a reader ------------------------------------------------------------------
def test_no_none_or_empty_field_in_any_output(runs, tmp_path, capsys, monkeypatch):
    code, printed, _ = report(capsys, runs / "symbolic", runs / "model", out=tmp_path / "png")
    assert code == 0
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # the SVG plot too
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    paths = write_report([runs / "symbolic", runs / "model"], tmp_path / "svg")
    outputs = {"terminal": printed}
    for folder in ("png", "svg"):
        for name in ("report.md", "report.html", "summary.csv"):
            outputs[f"{folder}/{name}"] = (tmp_path / folder / name).read_text()
    assert "<svg" in paths["report.html"].read_text()
    for name, text in outputs.items():
        assert not re.search(r"\bNone\b", text), name
        assert "· ·" not in text and "·  ·" not in text, name
        assert not re.search(r"/(None|null)\b", text), name
    for folder in ("png", "svg"):
        markdown = outputs[f"{folder}/report.md"]
        empty = [line for line in markdown.splitlines() if re.search(r"\| *\|", line) and "---" not in line]
        assert not empty
        page = outputs[f"{folder}/report.html"]
        assert not re.search(r"<td[^>]*>\s*</td>", page), re.findall(r".{80}<td[^>]*>\s*</td>", page)[:3]
        assert not re.search(r"<th[^>]*>\s*</th>", page)
        assert not re.search(r"<(p|li|span|summary)[^>]*>\s*</\1>", page)
        with (tmp_path / folder / "summary.csv").open() as handle:
            for row in csv.DictReader(handle):
                assert all(value.strip() for value in row.values()), row
    assert "no LLM" in outputs["png/report.md"]


# ---- the plot -------------------------------------------------------------------------------------------------
def test_plot_legend_uses_the_tables_names_and_has_a_y_label(runs, tmp_path, monkeypatch):
    from apb.eval.metrics import load_run, solved_by_plan_length
    from apb.eval.report.plots import length_axis, plot_figure

    episodes = load_run([runs / "symbolic", runs / "model"])
    series = solved_by_plan_length(episodes)
    figure = plot_figure(series, length_axis(episodes))
    axes = figure.axes[0]
    legend = [text.get_text() for text in axes.get_legend().get_texts()]
    assert "BrFS" in legend and "random" in legend
    assert any(label.startswith("Act") for label in legend)
    assert not any("None" in label or label.startswith(("bfs", "act")) for label in legend), legend
    assert axes.get_ylabel() and axes.get_xlabel()
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    page = write_report([runs / "symbolic", runs / "model"], tmp_path)["report.html"].read_text()
    svg = page[page.index("<svg"): page.index("</svg>")]
    for label in legend:
        assert f">{label}</text>" in svg
    assert f">{axes.get_ylabel()}</text>" in svg and "rotate(-90" in svg


# ---- the trajectory viewer ------------------------------------------------------------------------------------
def test_viewer_shows_the_initial_situation_and_goal_and_numbers_steps_from_1(runs, tmp_path):
    path = sorted((runs / "symbolic" / "episodes").glob("blocksworld__1__bfs__*.jsonl"))[0]
    header = json.loads(path.read_text().splitlines()[0])
    assert header["goal"] and header["initial_state"]
    page = write_report([runs / "symbolic"], tmp_path)["report.html"].read_text()
    episode = next(e for e in read_viewer(page) if e["detail"]["file"] == path.name)
    assert episode["detail"]["initial_state"] == header["initial_state"] and episode["detail"]["goal"] == header["goal"]
    numbers = [step["n"] for step in episode["detail"]["steps"]]
    assert numbers[:2] == [1, 2]
    # a picture of the initial state and of the state after every step, replayed through the engine
    pictures = [episode["detail"]["picture"]] + [step["picture"] for step in episode["detail"]["steps"]]
    assert all(p and p.startswith("<svg") for p in pictures) and len(set(pictures)) == len(pictures)


# ---- merging folders ------------------------------------------------------------------------------------------
def test_conflicting_duplicates_are_an_error_naming_both_files(runs, tmp_path, capsys):
    other = tmp_path / "other" / "episodes"
    other.mkdir(parents=True)
    source = sorted((runs / "symbolic" / "episodes").glob("blocksworld__1__bfs__*.jsonl"))[0]
    copy = other / source.name
    shutil.copy(source, copy)
    assert report(capsys, runs / "symbolic", other.parent, out=tmp_path / "same")[0] == 0  # identical: merged
    lines = source.read_text().splitlines()
    header, footer = json.loads(lines[0]), json.loads(lines[-1])
    header["started"], footer["seconds"] = "2030-01-01T00:00:00+00:00", 99.0  # a re-run, same result
    copy.write_text("\n".join([json.dumps(header), *lines[1:-1], json.dumps(footer)]) + "\n")
    assert report(capsys, runs / "symbolic", other.parent, out=tmp_path / "rerun")[0] == 0
    footer.update(success=False, stop_reason="max_steps")
    copy.write_text("\n".join([json.dumps(header), *lines[1:-1], json.dumps(footer)]) + "\n")
    code, _, err = report(capsys, runs / "symbolic", other.parent, out=tmp_path / "conflict")
    assert code == 2
    assert str(source) in err and str(copy) in err and source.stem in err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "conflict").exists()
