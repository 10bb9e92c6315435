"""`apb eval --executor ray` on a local Ray instance (the `ray` extra). Without Ray, the executor is a clear error."""

from __future__ import annotations

import json
import sys

import pytest

from apb import cli


@pytest.fixture
def local_ray():
    import ray  # the ray extra is part of apb[dev]
    yield ray
    ray.shutdown()


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


def test_ray_executor_without_ray_is_a_clear_error(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray raises ImportError
    code = cli.main(["eval", "--domains", "ferry", "--agents", "random", "--problems", "1", "--no-progress",
                     "--executor", "ray", "--out", str(tmp_path / "x")])
    assert code == 2 and "pip install 'apb[ray]'" in capsys.readouterr().err
