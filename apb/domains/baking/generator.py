"""Random Baking problems: make some souffles and cakes in a kitchen with a few bowls, pans, cups and ovens.

Parameters:
    souffles -- souffles to make (0..3)
    cakes    -- cakes to make (0..3); souffles + cakes is 1..4
    bowls    -- mixing bowls (1..4)
    pans     -- baking pans (1..4)
    cups     -- measuring cups (1..3)
    ovens    -- ovens (1..2)
    spare    -- spare ingredients beyond what the desserts need (0..4), drawn among the kinds at random
    dirty    -- bowls, pans, the spatula and the mixer that are dirty at the start (0..4), chosen at random
    prepared -- how far the first dessert's mixture is already made in bowl_1 (0..3): 0 not started, 1 butter and
                sugar in, 2 also the egg and the flour (and for a cake more flour and baking powder), 3 mixed

Objects are named after their kind: egg_1, flour_1, sugar_1, baking_powder_1, butter_1, bowl_1, pan_1,
measuring_cup_1, oven_1, spatula_1, stand_mixer_1, mixture_1 (one per dessert) and dessert_1, ... The goal names
each dessert as a souffle or a cake and ready (baked and taken out of its pan). Always solvable: every dessert has
its ingredients, and bowls, pans, the spatula and the mixer can be cleaned and reused.
"""

from __future__ import annotations

import random

from apb.domains.generation import check_parameters, render_problem

PARAMETERS: dict[str, int] = {"souffles": 1, "cakes": 0, "bowls": 2, "pans": 2, "cups": 1, "ovens": 1,
                              "spare": 1, "dirty": 0, "prepared": 0}
RANGES = {"souffles": (0, 3), "cakes": (0, 3), "bowls": (1, 4), "pans": (1, 4), "cups": (1, 3), "ovens": (1, 2),
          "spare": (0, 4), "dirty": (0, 4), "prepared": (0, 3)}
TEST_LENGTHS = (3, 40)  # the builder's accepted optimal lengths for the test split: short to long
# PDDL type of each kind of object, and the static predicate naming a kind of powder
KINDS = {"egg": "egg", "flour": "powder", "sugar": "powder", "baking_powder": "powder", "butter": "butter",
         "bowl": "bowl", "pan": "pan", "measuring_cup": "measuring-cup", "oven": "oven", "spatula": "spatula",
         "stand_mixer": "stand-mixer", "mixture": "mixture", "dessert": "dessert"}
POWDER_FACTS = {"flour": "is-flour", "sugar": "is-sugar", "baking_powder": "is-baking-powder"}
INGREDIENTS = ("egg", "flour", "sugar", "baking_powder", "butter")


def _check(params: dict) -> dict[str, int]:
    values = check_parameters("baking", PARAMETERS, RANGES, params)
    if not 1 <= values["souffles"] + values["cakes"] <= 4:
        raise ValueError(f"souffles + cakes must be 1 to 4, got {values['souffles'] + values['cakes']}")
    return values


def needed(souffles: int, cakes: int) -> dict[str, int]:
    """How many of each ingredient the desserts use: a souffle an egg, a flour, a sugar and a butter; a cake an
    egg, two flours, a sugar, a baking powder and a butter."""
    return {"egg": souffles + cakes, "flour": souffles + 2 * cakes, "sugar": souffles + cakes,
            "baking_powder": cakes, "butter": souffles + cakes}


def prepared_facts(kind: str, stage: int, names: dict[str, list[str]]) -> list[str]:
    """Facts of mixture_1 (for dessert_1, a `kind`) made up to `stage` in bowl_1 with the first ingredients."""
    if stage == 0:
        return []
    m, used = "mixture_1", ["butter_1", "sugar_1"]
    facts = [f"(started {m})", f"(has-butter {m})", f"(has-sugar {m})", f"(mixture-in {m} bowl_1)", "(full bowl_1)"]
    if stage >= 2:
        used += ["egg_1", "flour_1"]
        facts += [f"(has-egg {m})", f"(has-{'yolk' if kind == 'souffle' else 'whole-egg'} {m})", f"(has-flour {m})"]
        if kind == "cake":
            used += ["flour_2", "baking_powder_1"]
            facts += [f"(has-more-flour {m})", f"(has-baking-powder {m})"]
    if stage >= 3:
        facts += [f"(mixed {m})", f"({'souffle-mixture' if kind == 'souffle' else 'cake-batter'} {m})"]
    return [f"(used {name})" for name in used] + facts


def generate(seed: int, **params: int) -> str:
    """The problem PDDL for `seed` and the given parameters (see PARAMETERS); deterministic."""
    values = _check(params)
    rng = random.Random(seed)
    souffles, cakes = values["souffles"], values["cakes"]
    counts = needed(souffles, cakes)
    for _ in range(values["spare"]):
        counts[rng.choice(INGREDIENTS)] += 1
    desserts = souffles + cakes
    counts.update(bowl=values["bowls"], pan=values["pans"], measuring_cup=values["cups"], oven=values["ovens"],
                  spatula=1, stand_mixer=1, mixture=desserts, dessert=desserts)
    names = {kind: [f"{kind}_{i}" for i in range(1, counts[kind] + 1)] for kind in KINDS if counts.get(kind)}
    by_type: dict[str, list[str]] = {}
    for kind, objs in names.items():
        by_type.setdefault(KINDS[kind], []).extend(objs)
    objects = [f"{' '.join(objs)} - {type_name}" for type_name, objs in by_type.items()]
    init = [f"({POWDER_FACTS[kind]} {name})" for kind in POWDER_FACTS for name in names.get(kind, ())]
    init += [f"(mixture-for {m} {d})" for m, d in zip(names["mixture"], names["dessert"])]
    init += [f"(on-counter {pan})" for pan in names["pan"]]
    cleanable = names["bowl"] + names["pan"] + names["spatula"] + names["stand_mixer"]
    init += [f"(dirty {x})" for x in sorted(rng.sample(cleanable, min(values["dirty"], len(cleanable))))]
    kinds = ["souffle"] * souffles + ["cake"] * cakes
    rng.shuffle(kinds)
    init += prepared_facts(kinds[0], values["prepared"], names)
    goal = []
    for dessert, kind in zip(names["dessert"], kinds):
        goal += [f"(is-{kind} {dessert})", f"(ready {dessert})"]
    shape = "-".join(str(values[k]) for k in PARAMETERS)
    return render_problem(f"baking-{shape}-s{seed}", "baking", objects, init, goal)


# (souffles, cakes, bowls, pans, cups, ovens, spare, dirty, prepared) of the test candidates: short to long plans
TEST_SHAPES = ((1, 0, 2, 2, 1, 1, 1, 0, 3), (0, 1, 2, 2, 1, 1, 1, 1, 2), (1, 0, 2, 2, 2, 1, 1, 0, 0),
               (1, 0, 1, 1, 1, 1, 2, 2, 1), (0, 1, 2, 2, 1, 1, 1, 0, 0), (0, 1, 1, 1, 2, 1, 1, 2, 0),
               (1, 1, 1, 1, 1, 1, 0, 0, 3), (2, 0, 1, 1, 1, 1, 0, 0, 0), (2, 0, 1, 1, 1, 2, 1, 2, 0),
               (1, 1, 1, 1, 1, 1, 0, 1, 0))
# the closed-loop study's four problems: a souffle; a cake; two souffles and a souffle and a cake with one bowl
# and one pan
STUDY = ((1, 0, 2, 2, 1, 1, 1, 0, 0), (0, 1, 2, 2, 1, 1, 2, 0, 0), (2, 0, 1, 1, 1, 1, 1, 0, 0),
         (1, 1, 1, 1, 1, 1, 1, 0, 0))


def suite(split: str) -> list[tuple[int, dict]]:
    """Candidate (seed, params) pairs in order: a souffle for example, the four STUDY problems for study, and a
    cycle of TEST_SHAPES for test."""
    if split == "example":
        return [(1000 + i, {"souffles": 1, "cups": 2, "spare": 0}) for i in range(10)]
    if split == "study":
        return [(500 + i, dict(zip(PARAMETERS, shape))) for i, shape in enumerate(STUDY)]
    if split == "test":
        return [(i, dict(zip(PARAMETERS, TEST_SHAPES[i % len(TEST_SHAPES)]))) for i in range(1, 81)]
    raise ValueError(f"split must be example, study or test (baking has no scaled set), got {split!r}")
