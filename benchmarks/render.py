"""Render time per step: render_mode="rgb_array" (and the SVG of the same picture) next to the env step itself.

Part 1, the bundled domains: problem p01, a seeded random walk over applicable actions; per step the time of
`env.step`, of `env.render()` (the H×W×3 array) and of `picture_svg()`.
Part 2, IPC coverage: apb/PDDL-v0 on the smallest problem (by file size) of every domain folder of
shared/reference/ipc-classical: does it load, draw, and do the pictures change along a random walk; the drawer
used, the picture's size and the render time per step. A domain that does not ground within the budget is
reported as such (loading, grounding, the reset's info and the walk share one budget).

    python benchmarks/render.py [--steps 20] [--budget 60] [--only NAME ...] [--no-ipc] [--markdown]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import gymnasium as gym

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ipc_coverage import REFERENCE, Timeout, problem_pairs, within

import apb.envs  # noqa: F401  (registers the ids)
from apb.domains.registry import BUNDLED
from apb.envs import env_id


def walk(env, steps: int, seed: int) -> dict:
    """A random walk of `steps` applicable actions; per-step times (ms) and how many pictures differed."""
    rng = random.Random(seed)
    _, info = env.reset(seed=seed)
    frame = env.render()
    step_ms, render_ms, svg_ms, changed = [], [], [], 0
    for _ in range(steps):
        actions = info["admissible_actions"]
        if not actions:
            break
        t0 = time.perf_counter()
        _, _, terminated, truncated, info = env.step(rng.choice(actions))
        t1 = time.perf_counter()
        new = env.render()
        t2 = time.perf_counter()
        env.unwrapped.picture_svg()
        t3 = time.perf_counter()
        step_ms.append((t1 - t0) * 1000)
        render_ms.append((t2 - t1) * 1000)
        svg_ms.append((t3 - t2) * 1000)
        changed += bool((new != frame).any())
        frame = new
        if terminated or truncated:
            _, info = env.reset(seed=seed)
            frame = env.render()
    return {"shape": frame.shape, "steps": len(step_ms), "changed": changed,
            "step": statistics.median(step_ms) if step_ms else 0.0,
            "render": statistics.median(render_ms) if render_ms else 0.0,
            "svg": statistics.median(svg_ms) if svg_ms else 0.0,
            "drawer": type(env.unwrapped.painter.drawer).__name__}


def smallest(folder: Path) -> tuple[Path, Path]:
    return min(problem_pairs(folder), key=lambda pair: (pair[1].stat().st_size, pair[1].name))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--budget", type=float, default=60.0, help="seconds to load and ground one IPC problem")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--no-ipc", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="the IPC table as markdown rows")
    args = parser.parse_args()
    print(f"{'domain':<14}{'picture':>12}{'step ms':>9}{'render ms':>11}{'svg ms':>8}{'render/step':>13}  drawer")
    for name in BUNDLED:
        if args.only and name not in args.only:
            continue
        env = gym.make(env_id(name), problem=1, render_mode="rgb_array")
        r = walk(env, args.steps, 0)
        h, w, _ = r["shape"]
        print(f"{name:<14}{f'{w}x{h}':>12}{r['step']:>9.2f}{r['render']:>11.2f}{r['svg']:>8.2f}"
              f"{r['render'] / max(r['step'], 1e-6):>12.0f}x  {r['drawer']}")
    if args.no_ipc:
        return
    print()
    header = "| IPC domain | smallest problem | picture | drawer | steps | pictures changed | render ms/step |"
    print(header if args.markdown else "IPC domain, smallest problem: picture, drawer, steps, changed, render ms")
    if args.markdown:
        print("|---|---|---|---|---|---|---|")
    drawn = failed = 0
    total_render = []
    for folder in sorted(p for p in REFERENCE.iterdir() if p.is_dir()):
        if args.only and folder.name not in args.only:
            continue
        domain, problem = smallest(folder)
        try:
            r = within(args.budget, lambda d=domain, p=problem: walk(gym.make(
                "apb/PDDL-v0", domain_file=d, problem_file=p, render_mode="rgb_array"), args.steps, 0))
        except Timeout:
            failed += 1
            row = [folder.name, problem.name, "-", "-", "-", "-",
                   f"not loaded, grounded and walked within {args.budget:.0f} s"]
        except Exception as error:
            failed += 1
            row = [folder.name, problem.name, "-", "-", "-", "-", f"{type(error).__name__}: {str(error)[:80]}"]
        else:
            drawn += 1
            total_render.append(r["render"])
            h, w, _ = r["shape"]
            row = [folder.name, problem.name, f"{w}x{h}", r["drawer"], str(r["steps"]), str(r["changed"]),
                   f"{r['render']:.2f}"]
        print("| " + " | ".join(row) + " |" if args.markdown else "  ".join(row), flush=True)
    median = statistics.median(total_render) if total_render else 0.0
    print(f"\n{drawn} IPC domains drawn, {failed} not; median render {median:.2f} ms per step")


if __name__ == "__main__":
    main()
