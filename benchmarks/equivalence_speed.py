"""Speed of apb.equivalence on 30-object problems: networkx vs rustworkx, typical and worst case.

    python benchmarks/equivalence_speed.py [--pairs 20] [--objects 30] [--seed 0]

Pairs are symmetric on purpose: every block starts on the table (every ball in one room), and the two goals have
the same numbers of every kind of fact (towers of the same count but different heights; the same number of balls
per room), so no label or degree count tells them apart and the isomorphism search has to. Half of the pairs are
renamings (equivalent), half are not. Prints the mean and the worst time of `check` per backend and kind of pair.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import time

from apb.equivalence import check, have_rustworkx
from apb.nl2pddl import benchmark_domain


def _problem(name: str, objects: list[str], init: list[tuple], goal: list[tuple], domain: str) -> str:
    atoms = lambda facts: " ".join("(" + " ".join(f) + ")" for f in facts)  # noqa: E731
    return (f"(define (problem {name}) (:domain {domain}) (:objects {' '.join(objects)}) (:init {atoms(init)}) "
            f"(:goal (and {atoms(goal)})))")


def _partition(total: int, parts: int, rng: random.Random) -> list[int]:
    cuts = sorted(rng.sample(range(1, total), parts - 1))
    return [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]


def blocks_pair(n: int, rng: random.Random, same: bool) -> tuple[str, str]:
    """Two Blocksworld problems over n blocks on the table, each stacking them into the same number of towers."""
    blocks = [f"b{i}" for i in range(n)]
    init = [("arm-empty",)] + [("on-table", b) for b in blocks] + [("clear", b) for b in blocks]
    parts = rng.randint(2, 5)

    def towers(sizes: list[int], order: list[str]) -> list[tuple]:
        goal, i = [], 0
        for size in sizes:
            tower = order[i:i + size]
            goal += [("on", a, b) for a, b in itertools.pairwise(tower)]
            i += size
        return goal

    sizes = _partition(n, parts, rng)
    other = list(sizes)
    if not same:
        while sorted(other) == sorted(sizes):
            other = _partition(n, parts, rng)
    a = _problem("a", blocks, init, towers(sizes, rng.sample(blocks, n)), "blocksworld")
    renamed = rng.sample(blocks, n)
    b = _problem("b", renamed, init, towers(other, rng.sample(renamed, n)), "blocksworld")
    return a, b


def gripper_pair(n: int, rng: random.Random, same: bool) -> tuple[str, str]:
    """Two Gripper problems with n objects (2 rooms, 2 grippers, the rest balls) moving the same number of balls."""
    rooms, grippers = ["rooma", "roomb"], ["left", "right"]
    balls = [f"ball{i}" for i in range(n - 4)]
    types = [("room", r) for r in rooms] + [("gripper", g) for g in grippers] + [("ball", b) for b in balls]
    init = [*types, ("at-robby", "rooma"), ("free", "left"), ("free", "right")]
    init_a = init + [("at", b, "rooma" if i % 2 else "roomb") for i, b in enumerate(balls)]
    moved = rng.sample(balls, len(balls) // 2)
    goal_a = [("at", b, "roomb") for b in moved]
    if same:
        goal_b = goal_a
    else:  # the same number of balls to room b, but a different mix of where they start
        from_a = [b for i, b in enumerate(balls) if i % 2]
        shift = [b for b in from_a if b not in moved][:1]
        keep = [b for b in moved if b not in from_a][:1]
        goal_b = [g for g in goal_a if g[1] not in keep] + [("at", b, "roomb") for b in shift]
        if len(goal_b) != len(goal_a):
            goal_b = [*goal_a[1:], ("at", moved[0], "rooma")]
    objects = rooms + grippers + balls
    return _problem("a", objects, init_a, goal_a, "gripper"), _problem("b", objects, init_a, goal_b, "gripper")


def measure(domain, pairs, backend: str) -> tuple[list[float], list[str]]:
    times, verdicts = [], []
    for a, b in pairs:
        start = time.perf_counter()
        verdicts.append(check(domain, a, b, backend=backend).verdict)
        times.append(time.perf_counter() - start)
    return times, verdicts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20)
    parser.add_argument("--objects", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    backends = ["networkx"] + (["rustworkx"] if have_rustworkx() else [])
    print(f"{args.objects}-object problems, {args.pairs} pairs per row; times of one check (ms)")
    print(f"{'domain':12} {'pairs':16} {'backend':10} {'mean':>8} {'worst':>8}  verdicts")
    for name, make in (("blocksworld", blocks_pair), ("gripper", gripper_pair)):
        domain = benchmark_domain(name)
        for same in (True, False):
            pairs = [make(args.objects, rng, same) for _ in range(args.pairs)]
            for backend in backends:
                times, verdicts = measure(domain, pairs, backend)
                counts = {v: verdicts.count(v) for v in sorted(set(verdicts))}
                kind = "renamings" if same else "non-isomorphic"
                print(f"{name:12} {kind:16} {backend:10} {1000 * statistics.mean(times):8.1f} "
                      f"{1000 * max(times):8.1f}  {counts}")


if __name__ == "__main__":
    main()
