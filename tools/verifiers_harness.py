"""Prepares verifiers' chat program for offline vf-eval runs (needs PyPI once, and `uv` on PATH: `pip install uv`).

verifiers 0.4 plays the model of `vf-eval apb-verifiers ...` through its `null` harness, a PEP 723 script it writes
to `~/.cache/verifiers/runtimes/scripts/<sha256>.py` and sets up with `uv sync --script` at the first rollout of
every run, forcing `UV_OFFLINE=false`: uv asks PyPI's index even when everything is cached, so offline every rollout
fails at set-up. This writes the script where verifiers looks for it, syncs it (the downloads) and locks it; then

    UV_FROZEN=1 vf-eval apb-verifiers ...

installs from the lock and uv's cache without asking the index (run in the same home: the cache is per user).

    python tools/verifiers_harness.py     # prints the script's path
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path


def main() -> int:
    try:
        from verifiers.v1.harnesses.utils.launch import CHAT_PROGRAM_SOURCE
        from verifiers.v1.runtimes.subprocess import SubprocessRuntime
    except ImportError as err:
        print(f"verifiers is not installed ({err}): pip install \"apb[verifiers]\"", file=sys.stderr)
        return 2
    uv = shutil.which("uv")
    if uv is None:
        print("uv is not on PATH: pip install uv", file=sys.stderr)
        return 2
    data = CHAT_PROGRAM_SOURCE.encode() if isinstance(CHAT_PROGRAM_SOURCE, str) else CHAT_PROGRAM_SOURCE
    folder = Path(SubprocessRuntime.scripts_dir)  # as verifiers' prepare_uv_script names it
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{hashlib.sha256(data).hexdigest()}.py"
    path.write_bytes(data)
    for verb in ("sync", "lock"):
        done = subprocess.run([uv, verb, "--script", str(path), "-q", "--no-config"])
        if done.returncode != 0:
            print(f"uv {verb} --script {path} failed (exit {done.returncode})", file=sys.stderr)
            return 1
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
