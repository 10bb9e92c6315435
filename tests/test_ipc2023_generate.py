"""`apb generate ipc2023:<domain>`: tasks for the IPC 2023 Learning Track's own domain files with the organisers'
size parameters (apb.datasets.ipc2023_generate): loaded and solved against the track's domain.pddl, deterministic,
sized as the organisers' generators size them, their split schedules, and one-line errors."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from apb.cli import main
from apb.datasets.ipc2023 import ROOT_ENV
from apb.datasets.ipc2023_generate import TRACKS, generator, ranges, schedule
from apb.engine import load_domain, load_task, parse_problem

REF = (Path(__file__).resolve().parents[1] / ".." / "shared" / "reference" / "ipc2023-learning").resolve()
SMALL = {  # a small size of each domain, in the organisers' parameters
    "blocksworld": {"blocks": 4},
    "ferry": {"cars": 3, "locations": 4},
    "floortile": {"rows": 2, "columns": 3, "robots": 2},
    "rovers": {"rovers": 1, "waypoints": 3, "cameras": 1, "objectives": 1},
    "satellite": {"satellites": 2, "instruments": 3, "modes": 2, "directions": 4},
}


@pytest.fixture(autouse=True)
def track(monkeypatch):
    assert (REF / "ferry" / "domain.pddl").is_file(), f"the IPC 2023 reference is missing: {REF}"
    monkeypatch.setenv(ROOT_ENV, str(REF))


def generate(out: Path, domain: str, sizes: dict, *extra: str) -> int:
    params = [arg for key, value in sizes.items() for arg in ("--param", f"{key}={value}")]
    return main(["generate", f"ipc2023:{domain}", "--count", "2", "--seed", "5", "--out", str(out), "--json",
                 *params, *extra])


def object_counts(text: str, domain: str) -> Counter:
    return Counter(parse_problem(text, load_domain(REF / domain / "domain.pddl")).objects.values())


def test_five_track_domains_generate_problems_the_track_domain_loads_and_apb_solves(tmp_path, capsys):
    assert set(TRACKS) == set(SMALL)
    for domain, sizes in SMALL.items():
        out = tmp_path / domain
        assert generate(out, domain, sizes) == 0, capsys.readouterr().err
        assert (out / "domain.pddl").read_bytes() == (REF / domain / "domain.pddl").read_bytes()
        problems = sorted((out / "problems").glob("*.pddl"))
        assert [p.name for p in problems] == ["p01.pddl", "p02.pddl"]
        for problem in problems:
            task = load_task(REF / domain / "domain.pddl", problem)
            assert task.problem.domain_name == load_domain(REF / domain / "domain.pddl").name
            plan = (out / "plans" / f"{problem.stem}.plan").read_text()
            result = task.validate(plan)
            assert result.valid and result.steps >= 1, (domain, problem.name, result)
        assert problems[0].read_text() != problems[1].read_text()


def test_same_seed_same_bytes_and_another_seed_another_task(tmp_path):
    for domain, sizes in SMALL.items():
        assert generate(tmp_path / f"{domain}-a", domain, sizes) == 0
        assert generate(tmp_path / f"{domain}-b", domain, sizes) == 0
        for sub in ("problems", "plans"):
            for path in (tmp_path / f"{domain}-a" / sub).iterdir():
                assert path.read_bytes() == (tmp_path / f"{domain}-b" / sub / path.name).read_bytes(), (domain, path)
        params = [a for k, v in sizes.items() for a in ("--param", f"{k}={v}")]
        assert main(["generate", f"ipc2023:{domain}", "--count", "1", "--seed", "6", "--out",
                     str(tmp_path / f"{domain}-c"), *params]) == 0
        assert ((tmp_path / f"{domain}-c" / "problems" / "p01.pddl").read_text()
                != (tmp_path / f"{domain}-a" / "problems" / "p01.pddl").read_text())


def test_the_sizes_mean_what_the_organisers_parameters_mean(tmp_path):
    assert generate(tmp_path / "ferry", "ferry", {"cars": 3, "locations": 4}) == 0
    for problem in (tmp_path / "ferry" / "problems").iterdir():
        assert object_counts(problem.read_text(), "ferry") == {"car": 3, "location": 4}
    assert generate(tmp_path / "floor", "floortile", {"rows": 2, "columns": 3, "robots": 2}) == 0
    text = (tmp_path / "floor" / "problems" / "p01.pddl").read_text()
    assert object_counts(text, "floortile") == {"tile": 9, "robot": 2, "color": 2}  # painted rows + row 0
    assert len(re.findall(r"\(painted tile_[12]_[123] (white|black)\)", text)) == 6  # rows 1..2 painted
    rovers = generator("ipc2023:rovers")(3, rovers=3, waypoints=7, cameras=4, objectives=5)  # drawn, not solved
    assert object_counts(rovers, "rovers") == {
        "rover": 3, "store": 3, "waypoint": 7, "camera": 4, "objective": 5, "mode": 3, "lander": 1}
    satellites = generator("ipc2023:satellite")(3, satellites=3, instruments=5, modes=2, directions=6)
    assert object_counts(satellites, "satellite") == {"satellite": 3, "instrument": 5, "mode": 2, "direction": 6}
    blocks = generator("ipc2023:blocksworld")(3, blocks=30)
    assert object_counts(blocks, "blocksworld") == {"object": 30}


def test_blocksworld_goal_is_a_whole_configuration_of_the_blocks(tmp_path):
    assert generate(tmp_path / "bw", "blocksworld", {"blocks": 7}) == 0
    domain = load_domain(REF / "blocksworld" / "domain.pddl")
    for problem in (tmp_path / "bw" / "problems").iterdir():
        parsed = parse_problem(problem.read_text(), domain)
        assert len(parsed.objects) == 7
        goal = Counter(lit.predicate for lit in parsed.goal)
        standing = {lit.args[0] for lit in parsed.goal if lit.predicate in ("on", "on-table")}
        assert standing == set(parsed.objects) and goal["on"] + goal["on-table"] == 7  # each block once
        assert goal["clear"] == goal["on-table"]  # one top per tower


def test_split_schedules_are_the_sizes_of_the_track_tasks():
    """The sizes of `size=<split>` are the ones the organisers' files record in their first line."""
    checked = 0
    for domain, track in TRACKS.items():
        for split, folder, first in (("training", "training/easy", track.first_training_id),
                                     ("easy", "testing/easy", 1)):
            for k, sizes in enumerate(schedule(domain, split)):
                path = REF / domain / folder / f"p{first + k:02d}.pddl"
                head = path.read_text().splitlines()[0] if path.is_file() else ""
                if "instance_id" not in head:  # a base case copied over a generated task
                    continue
                recorded = {key: int(value) for key, value in re.findall(r"(\w+)=(\d+)", head) if key in sizes}
                assert recorded == sizes, (domain, split, path.name)
                checked += 1
    assert checked > 500
    assert ranges("ferry") == {"cars": (1, 1000), "locations": (2, 500)}
    assert ranges("blocksworld") == {"blocks": (2, 500)}
    assert len(schedule("floortile", "hard")) == 30


def test_size_split_takes_the_schedule_in_order(tmp_path):
    assert main(["generate", "ipc2023:ferry", "--param", "size=easy", "--count", "3", "--out", str(tmp_path)]) == 0
    heads = [p.read_text().splitlines()[0] for p in sorted((tmp_path / "problems").iterdir())]
    assert [re.findall(r"cars=(\d+), locations=(\d+)", h)[0] for h in heads] == [
        (str(s["cars"]), str(s["locations"])) for s in schedule("ferry", "easy")[:3]]


@pytest.mark.parametrize(("args", "words"), [
    (["ipc2023:ferry", "--param", "cars=0"], ["cars=0", "1..1000", "--param cars=N"]),
    (["ipc2023:ferry", "--param", "cars=1001"], ["cars=1001", "1..1000"]),
    (["ipc2023:ferry", "--param", "blocks=3"], ["unknown parameter(s) blocks", "cars (1..1000)", "locations (2..500)"]),
    (["ipc2023:ferry", "--param", "size=huge"], ["size=huge", "training|easy|medium|hard"]),
    (["ipc2023:ferry", "--param", "size=easy", "--param", "cars=2"], ["size", "alone"]),
    (["ipc2023:floortile", "--param", "columns=2", "--param", "robots=3"], ["robots=3", "columns=2"]),
    (["ipc2023:satellite", "--param", "satellites=4", "--param", "instruments=3"], ["instruments=3", "satellites"]),
    (["ipc2023:sokoban"], ["no generator", "ipc2023:ferry"]),
])
def test_bad_parameters_give_one_line_naming_the_parameter_and_its_range(tmp_path, capsys, args, words):
    assert main(["generate", *args, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and len(err.splitlines()) == 1, err
    for word in words:
        assert word in err, (word, err)
    assert not (tmp_path / "out").exists()


def test_no_track_folder_gives_the_source_message(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(ROOT_ENV)
    assert main(["generate", "ipc2023:ferry", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert f"${ROOT_ENV} is not set" in err and len(err.splitlines()) == 1, err


def test_learning_md_states_the_ranges():
    text = (Path(__file__).resolve().parents[1] / "docs" / "learning.md").read_text(encoding="utf-8")
    for domain in TRACKS:
        row = next(line for line in text.splitlines() if line.startswith(f"| {domain} |"))
        assert dict(re.findall(r"`(\w+)` \((\d+\.\.\d+)", row)) == {
            key: f"{low}..{high}" for key, (low, high) in ranges(domain).items()}, row
