"""`gymnasium.make("apb/...")` works in a fresh interpreter without importing apb (the installed start-up hook).

The package is built with the project's own build step (`setup.py build_py`, what goes into the wheel) into a
folder that is then added as a site directory, which processes its .pth files exactly as site-packages does.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def site_dir(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    try:
        import setuptools  # noqa: F401  (the build step needs it; Python <= 3.11 venvs include it)
    except ImportError:
        pytest.fail("setuptools is needed to build the package: pip install setuptools", pytrace=False)
    build = subprocess.run([sys.executable, "setup.py", "-q", "build_py", "--build-lib", str(site)], cwd=ROOT,
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr[-2000:]
    for name in ("apb-gymnasium.pth", "apb_gymnasium_hook.py", "apb/domains/logistics/nl.yaml",
                 "apb/domains/ferry/problems/p01.pddl", "apb/llm/prices.yaml", "apb/prompts/tllm/system.txt",
                 "apb/prompts/nl_generate/examples.yaml"):
        assert (site / name).is_file(), name
    return site


def run_fresh(site: Path, code: str, **env) -> subprocess.CompletedProcess:
    prelude = f"import site, sys; sys.path[:] = [p for p in sys.path if p != {str(ROOT)!r} and p != '']; " \
              f"site.addsitedir({str(site)!r})\n"
    import os

    environ = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    environ.update(env)
    return subprocess.run([sys.executable, "-c", prelude + textwrap.dedent(code)], capture_output=True, text=True,
                          cwd=site, env=environ)


def test_gymnasium_make_works_without_importing_apb(site_dir):
    result = run_fresh(site_dir, """
        import sys
        assert "apb" not in sys.modules
        import gymnasium as gym
        env = gym.make("apb/Logistics-v0")
        obs = env.reset(seed=0)[0]
        import apb
        assert apb.__file__.startswith(SITE), apb.__file__  # the built copy, not the source tree
        print(obs)
    """.replace("SITE", repr(str(site_dir))))
    assert result.returncode == 0, result.stderr[-3000:]
    assert "My goal is that" in result.stdout


def test_the_hook_imports_nothing_until_gymnasium_is_imported(site_dir):
    result = run_fresh(site_dir, """
        import sys
        import json
        print(json.dumps(sorted(m for m in sys.modules if m.startswith("apb"))))
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == '["apb_gymnasium_hook"]'


def test_the_hook_can_be_disabled(site_dir):
    result = run_fresh(site_dir, """
        import gymnasium as gym
        print("apb/Logistics-v0" in gym.registry)
    """, APB_NO_GYM_HOOK="1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"
