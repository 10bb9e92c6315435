"""PDDLGym 0.0.7 as a peer for `apb bench engine`: random-walk steps/s on a PDDL domain and problem.

A step is: compute the applicable ground actions of the current state, then apply one of them chosen at
random; at a dead end or a goal state the walk restarts from the initial state (that restart, including
PDDLGym's re-grounding on `reset`, counts toward the time).  Parsing and the first grounding are timed
separately as `setup_seconds`.

pddlgym is an optional extra (`pip install 'apb[bench]'`) and is only imported inside the functions.  It
installs and imports next to gymnasium>=1.0 and numpy 2.x, but it pulls in the unmaintained `gym` 0.26
(plus matplotlib and scikit-image); to keep it out of the measuring interpreter, pass `python=` to run the
measurement in another interpreter, which then needs only pddlgym (not apb).

This module uses only the standard library at import time, so a child interpreter can load it by path.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

__all__ = ["measure_pddlgym", "pddlgym_available"]

_INSTALL_HINT = "pddlgym is not installed: pip install 'apb[bench]'"
_RESULT_MARKER = "@@apb-pddlgym-result@@ "
_SUBPROCESS_SLACK = 120.0  # seconds allowed on top of time_budget for interpreter start, import and setup
_CHILD_BOOTSTRAP = (
    "import importlib.util, sys\n"
    "spec = importlib.util.spec_from_file_location('_apb_pddlgym_peer', sys.argv[1])\n"
    "module = importlib.util.module_from_spec(spec)\n"
    "spec.loader.exec_module(module)\n"
    "sys.exit(module._child_main(sys.argv[2]))\n"
)


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Silence warnings and anything printed to stdout/stderr (gym's notice, PDDLGym's prints)."""
    with contextlib.ExitStack() as stack:  # no parenthesized `with`: a child interpreter may be older
        stack.enter_context(warnings.catch_warnings())
        stack.enter_context(contextlib.redirect_stdout(io.StringIO()))
        stack.enter_context(contextlib.redirect_stderr(io.StringIO()))
        warnings.simplefilter("ignore")
        yield


def _import_pddlgym() -> tuple[Any, Any]:
    """Import and return `(pddlgym.core, pddlgym.spaces)`, raising RuntimeError if pddlgym is missing."""
    saved_environ = dict(os.environ)  # importing gym sets SDL_AUDIODRIVER / PYGAME_HIDE_SUPPORT_PROMPT
    try:
        with _quiet():
            import pddlgym.core as core
            import pddlgym.spaces as spaces
    except ModuleNotFoundError as exc:
        if exc.name == "pddlgym":
            raise RuntimeError(_INSTALL_HINT) from exc
        raise RuntimeError(f"pddlgym is installed but cannot be imported: {exc}") from exc
    except ImportError as exc:
        raise RuntimeError(f"pddlgym is installed but cannot be imported: {exc}") from exc
    finally:
        for key in set(os.environ) - set(saved_environ):
            del os.environ[key]
        for key, value in saved_environ.items():
            if os.environ.get(key) != value:
                os.environ[key] = value
    return core, spaces


def pddlgym_available() -> bool:
    """Return whether pddlgym can be imported in this interpreter."""
    if importlib.util.find_spec("pddlgym") is None:
        return False
    try:
        _import_pddlgym()
    except Exception:
        return False
    return True


def _short_error(exc: BaseException) -> str:
    """Describe an exception in one line, with the file and line where it was raised."""
    lines = str(exc).strip().splitlines()
    text = type(exc).__name__ + (f": {lines[0]}" if lines else "")
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        last = Path(frames[-1].filename)
        text += f" (at {last.parent.name}/{last.name}:{frames[-1].lineno} in {frames[-1].name})"
    return text if len(text) <= 300 else text[:297] + "..."


def _pddlgym_version() -> str:
    """Return the installed pddlgym distribution version, or '?' if unknown."""
    try:
        from importlib.metadata import version

        return version("pddlgym")
    except Exception:
        return "?"


def _measure_here(domain: Path, problem: Path, steps: int, seed: int, time_budget: float) -> dict[str, Any]:
    """Run the random walk with PDDLGym in this interpreter."""
    core, spaces = _import_pddlgym()
    with tempfile.TemporaryDirectory(prefix="apb-pddlgym-") as tmp, _quiet():
        problem_dir = Path(tmp) / "problems"  # PDDLEnv takes a directory of problems; give it just ours
        problem_dir.mkdir()
        shutil.copyfile(problem, problem_dir / "problem.pddl")
        # PDDLGym's grounder writes two temp files per reset into TMP_PDDL_DIR (/dev/shm) and never deletes
        # them; point it at our temporary directory for the duration of the measurement.
        saved_tmp_dir = spaces.TMP_PDDL_DIR
        spaces.TMP_PDDL_DIR = tmp
        try:
            start = time.perf_counter()
            try:
                env = core.PDDLEnv(
                    str(domain),
                    str(problem_dir),
                    seed=seed,
                    operators_as_actions=True,
                    dynamic_action_space=True,
                )
                env.fix_problem_index(0)
                state, _ = env.reset()
                initial_actions = env.action_space.all_ground_literals(state)
            except Exception as exc:
                return {"parse_ok": False, "error": _short_error(exc)}
            setup_seconds = time.perf_counter() - start

            rng = random.Random(seed)
            done_steps = resets = 0
            start = time.perf_counter()
            deadline = start + time_budget
            try:
                while initial_actions and done_steps < steps and time.perf_counter() < deadline:
                    applicable = sorted(env.action_space.all_ground_literals(state))  # sorted: reproducible
                    if not applicable:
                        state, _ = env.reset()
                        resets += 1
                        continue
                    state, _, goal_reached, _, _ = env.step(rng.choice(applicable))
                    done_steps += 1
                    if goal_reached:
                        state, _ = env.reset()
                        resets += 1
            except Exception as exc:
                return {"parse_ok": False, "error": "during the random walk: " + _short_error(exc)}
            seconds = time.perf_counter() - start
        finally:
            spaces.TMP_PDDL_DIR = saved_tmp_dir
    return {
        "steps": done_steps,
        "seconds": seconds,
        "steps_per_s": done_steps / seconds if seconds > 0 else 0.0,
        "parse_ok": True,
        "setup_seconds": setup_seconds,
        "resets": resets,
        "pddlgym_version": _pddlgym_version(),
    }


def _measure_in(python: str, request: dict[str, Any]) -> dict[str, Any]:
    """Run the random walk in interpreter `python` and parse its JSON result from stdout."""
    timeout = request["time_budget"] + _SUBPROCESS_SLACK
    with tempfile.TemporaryDirectory(prefix="apb-pddlgym-cwd-") as cwd:  # nothing to shadow imports in cwd
        try:
            proc = subprocess.run(
                [python, "-c", _CHILD_BOOTSTRAP, str(Path(__file__).resolve()), json.dumps(request)],
                capture_output=True,
                text=True,
                timeout=timeout,
                cwd=cwd,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return {"parse_ok": False, "error": f"pddlgym measurement timed out after {timeout:.0f} s"}
        except OSError as exc:
            raise RuntimeError(f"cannot run {python!r}: {exc}") from exc
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(_RESULT_MARKER):
            result: dict[str, Any] = json.loads(line[len(_RESULT_MARKER) :])
            break
    else:
        tail = " | ".join(proc.stderr.strip().splitlines()[-3:])
        raise RuntimeError(f"pddlgym measurement in {python!r} failed (exit {proc.returncode}): {tail}")
    if "runtime_error" in result:
        raise RuntimeError(f"{result['runtime_error']} (interpreter: {python})")
    return result


def _child_main(request_json: str) -> int:
    """Entry point in the child interpreter: measure and print the result as one marked JSON line."""
    request = json.loads(request_json)
    try:
        result = measure_pddlgym(
            request["domain"],
            request["problem"],
            steps=request["steps"],
            seed=request["seed"],
            time_budget=request["time_budget"],
        )
    except RuntimeError as exc:
        result = {"runtime_error": str(exc)}
    sys.stdout.write(_RESULT_MARKER + json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


def measure_pddlgym(
    domain_file: str | Path,
    problem_file: str | Path,
    *,
    steps: int = 2000,
    seed: int = 0,
    time_budget: float = 10.0,
    python: str | None = None,
) -> dict[str, Any]:
    """Measure PDDLGym's random-walk steps/s (or `{"parse_ok": False, "error": ...}` if it cannot load)."""
    domain = Path(domain_file).resolve()
    problem = Path(problem_file).resolve()
    for path in (domain, problem):
        if not path.is_file():
            raise FileNotFoundError(f"no such PDDL file: {path}")
    if python is not None:
        request = {"domain": str(domain), "problem": str(problem), "steps": steps, "seed": seed}
        return _measure_in(python, {**request, "time_budget": time_budget})
    return _measure_here(domain, problem, steps, seed, time_budget)
