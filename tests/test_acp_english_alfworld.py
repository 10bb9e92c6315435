"""The English reader on ACPBench's Alfworld, which only the release's test split has: a scene written here in the
release's wording (its generative records' legends and sentence shapes), read back into PDDL with the static facts
the English never states (ALFRED/ALFWorld's knowledge of classes, apb/acp/english/alfworld.yaml), and questions in the
release's phrasings answered by the solver from the English alone."""

from __future__ import annotations

import pytest

from apb.acp.english import ContextError, read_context, readings
from apb.acp.english.questions import read_question
from apb.acp.records import Question
from apb.acp.solver import solve_question
from apb.engine import load_task

OPENING = ("This is an alfworld domain where an agent is asked to carry different tasks such as: picking up objects, "
           "opening or closing receptacles, warming up an object in a microwave, cleaning an object in a sink, or "
           "toggling an object.  ")
SCENE = (OPENING + "There are 6 object types: 2 apples, 1 desklamp, 1 faucet, 2 knives, 1 mug, 1 plate, 5 receptacle "
         "types: 2 cabinets, 1 countertop, 1 fridge, 1 microwave, 1 sinkbasin, and 7 locations all numbered "
         "consecutively.  The receptacles are at locations as follows. countertop1 is at location2. cabinet1 and "
         "cabinet2 are at location3. fridge1 is at location4. microwave1 is at location5. sinkbasin1 is at location6. "
         "Receptacles that are neither open nor closed are not openable. Receptacles are not pickupable. Desklamps "
         "are not pickupable.  Currently, the objects are at locations as follows. apple1, knife1, plate1, knife2, "
         "and desklamp1 are at location2. apple2 is at location4. mug1 is at location3. agent agent1 is at location "
         "location2. The objects are in/on receptacle as follows. apple1, knife1, plate1, and desklamp1 are on "
         "countertop1. knife2 is on plate1. apple2 is in fridge1. mug1 is in cabinet1. cabinet1 and fridge1 are "
         "closed. microwave1 is open. apple2 is cool. desklamp1 is off. Nothing has been validated. agent1's hands "
         "are empty. The goal is to reach a state where the following facts hold: It has been validated that an "
         "object of type appletype is hot and is in a receptacle of type countertoptype.")
OBJECTS = {"agent1": "agent", **{f"location{i}": "location" for i in range(1, 8)},
           "apple1": "object", "apple2": "object", "desklamp1": "object", "faucet1": "object", "knife1": "object",
           "knife2": "object", "mug1": "objectorreceptacle", "plate1": "objectorreceptacle",
           "cabinet1": "receptacle", "cabinet2": "receptacle", "countertop1": "receptacle", "fridge1": "receptacle",
           "microwave1": "receptacle", "sinkbasin1": "receptacle",
           "appletype": "otype", "desklamptype": "otype", "knifetype": "otype", "mugtype": "otype",
           "platetype": "otype", "cabinettype": "rtype", "countertoptype": "rtype", "fridgetype": "rtype",
           "microwavetype": "rtype", "sinkbasintype": "rtype"}


def _facts(predicate: str, *args: str) -> set[str]:
    return {f"({predicate} {a})" for a in args}


def test_the_scene_reads_back_with_its_stated_facts():
    reading = read_context(SCENE)
    assert reading.domain.name == "alfworld"
    assert reading.objects == OBJECTS  # faucet1 is counted; plate1 and mug1 may hold objects
    init = set(reading.init)
    stated = ({"(atlocation agent1 location2)", "(handempty agent1)", "(notvalidated)", "(opened microwave1)",
               "(iscool apple2)", "(isoff desklamp1)", "(inreceptacle knife2 plate1)", "(inreceptacle apple2 fridge1)",
               "(inreceptacle mug1 cabinet1)", "(objectatlocation mug1 location3)",
               "(receptacleatlocation cabinet1 location3)", "(receptacleatlocation cabinet2 location3)"}
              | _facts("closed", "cabinet1", "fridge1")
              | {f"(inreceptacle {o} countertop1)" for o in ("apple1", "knife1", "plate1", "desklamp1")}
              | {f"(objectatlocation {o} location2)" for o in ("apple1", "knife1", "plate1", "knife2", "desklamp1")})
    assert stated <= init
    assert reading.goal == ["(validateheatandplace appletype countertoptype)"]


def test_the_static_facts_come_from_the_classes_of_the_scene():
    """What the English never states: openable iff said open or closed, the rest not openable; by class (ALFRED's
    tables): pickupable (not the desk lamp, not the faucet), cleanable, heatable, coolable, sliceable, toggleable,
    object and receptacle types (the faucet, which ALFRED does not list, has none), and which receptacle class can
    hold which class of the scene."""
    init = set(read_context(SCENE).init)
    by = {p: {f for f in init if f.startswith(f"({p} ")} for p in (
        "openable", "notopenable", "pickupable", "cleanable", "heatable", "coolable", "sliceable", "toggleable",
        "objecttype", "receptacletype", "cancontain")}
    assert by["openable"] == _facts("openable", "cabinet1", "fridge1", "microwave1")
    assert by["notopenable"] == _facts("notopenable", "cabinet2", "countertop1", "sinkbasin1")
    movable = ("apple1", "apple2", "knife1", "knife2", "mug1", "plate1")
    assert by["pickupable"] == _facts("pickupable", *movable)
    assert by["cleanable"] == _facts("cleanable", *movable)
    assert by["heatable"] == _facts("heatable", "apple1", "apple2", "mug1", "plate1")
    assert by["coolable"] == _facts("coolable", "apple1", "apple2", "mug1", "plate1")
    assert by["sliceable"] == _facts("sliceable", "apple1", "apple2")
    assert by["toggleable"] == _facts("toggleable", "desklamp1")
    assert "(objecttype knife2 knifetype)" in init and "(objecttype mug1 mugtype)" in init
    assert not any(f.startswith("(objecttype faucet1") for f in init) and len(by["objecttype"]) == 7
    receptacles = ("cabinet1", "cabinet2", "countertop1", "fridge1", "microwave1", "sinkbasin1")
    assert by["receptacletype"] == {f"(receptacletype {r} {r[:-1]}type)" for r in receptacles}
    holds = {"cabinet": ("mug", "plate"), "countertop": ("apple", "knife", "mug", "plate"),
             "fridge": ("apple", "mug", "plate"), "microwave": ("apple", "mug", "plate"),
             "sinkbasin": ("apple", "knife", "mug", "plate")}
    assert by["cancontain"] == {f"(cancontain {r}type {o}type)" for r, kinds in holds.items() for o in kinds}
    assert len(readings(read_context(SCENE))) == 1
    load_task(read_context(SCENE).domain_pddl, read_context(SCENE).problem_pddl())  # it type-checks


def test_unreadable_sentences_are_named():
    with pytest.raises(ContextError, match="painted red"):
        read_context(SCENE.replace("microwave1 is open.", "microwave1 is open. mug1 is painted red."))
    with pytest.raises(ContextError, match="a few desklamps"):
        read_context(SCENE.replace("1 desklamp,", "a few desklamps,"))


def _question(task: str, question: str, choices: list[str] | None = None) -> Question:
    return Question(id=1, task=task, format="mcq" if choices else "bool", context=SCENE, question=question,
                    choices={"text": choices, "label": list("ABCD")[:len(choices)]} if choices else None,
                    source="acpbench")


def _ask(task: str, question: str, choices: list[str] | None = None):
    found = solve_question(_question(task, question, choices))
    return None if found is None else found[0]


APPLICABLE = "Is the following action applicable in this state: {}?"
REACH = "Is it possible to transition to a state where the following holds: {}?"
AREACH = 'Is it possible to transition to a state where the action "{}" can be applied?'
PROG = 'Will the fact "{}" hold after performing the action "{}" in the current state?'
LANDMARK = "Is the following fact a landmark (must hold at some point along any plan) for the current state? {}"
VALID = 'Is the following sequence of actions "{}" valid in this problem?'
APPLIES = 'Is the following sequence of actions "{}" applicable in the current state?'
TOGGLE = "agent agent1 toggles object desklamp1 that is on the receptacle countertop1 at location location2"
HEAT_PLAN = [
    "agent agent1 picks up object apple1 from receptacle countertop1 that is at location location2",
    "agent agent1 navigates to the receptacle microwave1 from the current location location2 to the next location "
    "location5",
    "agent agent1 heats up object apple1 with a microwave microwave1 at location location5",
    "agent agent1 moves from the current position location5 to the next position location2 that has the receptacle "
    "countertop1",
    "agent agent1 puts down an object apple1 with type appletype in a receptacle countertop1 with type countertoptype "
    "at location location2",
    "check that object apple1 of type appletype is warmed up and in receptacle countertop1 of type countertoptype"]


def test_actions_and_atoms_read_in_the_release_phrasings():
    """Pick-up and put-down phrasings do not say whether the receptacle is openable: the reading takes the action the
    receptacle admits; a receptacle the scene does not have admits neither. "toggles" names the toggle that
    applies."""
    def action(text):
        return read_question(_question("app", APPLICABLE.format(text))).item["action"]
    assert action(HEAT_PLAN[0]) == "(pickup_object_from_not_openable_receptacle agent1 location2 apple1 countertop1)"
    assert action("agent agent1 collects object mug1 from receptacle cabinet1 while at location location3") == \
        "(pickup_object_from_openable_receptacle agent1 location3 mug1 cabinet1)"
    assert action("agent agent1 places object apple1 of type appletype in a receptacle microwave1 of type "
                  "microwavetype while at location location5") == \
        "(put_object_in_openable_receptacle agent1 location5 apple1 microwave1 appletype microwavetype)"
    assert action(HEAT_PLAN[4]) == \
        "(put_object_on_not_openable_receptacle agent1 location2 apple1 countertop1 appletype countertoptype)"
    assert action("agent agent1 grasps object apple1 from a not openable receptacle countertop1 while at location "
                  "location2") == "(pickup_object_from_not_openable_receptacle agent1 location2 apple1 countertop1)"
    assert action("ensure that the two objects apple1 and object apple2 of the same type appletype are in receptacle "
                  "fridge1 of type fridgetype") == \
        "(validate_pick_two_and_place_in_receptacle apple1 apple2 appletype fridge1 fridgetype)"
    assert action("validate that togglable object desklamp1 of type desklamptype is toggled and in receptacle "
                  "countertop1 at location location2 while agent agent1 is holding object apple1 of type appletype") \
        == "(validate_examine_in_light desklamp1 desklamptype apple1 appletype countertop1 agent1 location2)"
    assert action("agent agent1 cuts a sliceable object apple1 that is at location location2 with a knife knife1") \
        == "(slice_object agent1 location2 apple1 knife1)"
    assert action("agent agent1 cools down object apple1 in a fridge fridge1 at location location4") == \
        "(cool_object agent1 location4 fridge1 apple1)"
    assert action(TOGGLE) == "(toggle_object_on agent1 location2 desklamp1 countertop1)"  # it is off
    with pytest.raises(ContextError, match="drawer1"):
        action("agent agent1 picks up object apple1 from receptacle drawer1 that is at location location2")
    atoms = read_question(_question("reach", REACH.format(
        "agent1 is holding object apple1 and apple1 is clean and It has been validated that an object of type "
        "appletype is examined under an object of type desklamptype and agent1's hands are empty"))).item["atoms"]
    assert atoms == ["(holds agent1 apple1)", "(isclean apple1)", "(validateexamineinlight desklamptype appletype)",
                     "(handempty agent1)"]


@pytest.mark.parametrize(("task", "question", "answer"), [
    ("app", APPLICABLE.format(HEAT_PLAN[0]), "yes"),
    ("app", APPLICABLE.format("agent agent1 goes to receptacle fridge1 from the current location location2 to the "
                              "next location location4"), "yes"),
    ("app", APPLICABLE.format("agent agent1 that is at location location3 opens receptacle cabinet1"), "no"),
    ("app", APPLICABLE.format(TOGGLE), "yes"),
    ("app", APPLICABLE.format("agent agent1 turns off object desklamp1 that is on the receptacle countertop1 at "
                              "location location2"), "no"),  # it is off
    ("app", APPLICABLE.format("agent agent1 navigates a plane from the current position location2 to the next "
                              "position location4 that has a receptacle fridge1"), "no"),
    ("areach", AREACH.format("agent agent1 pushes a receptacle fridge1 from the current location location2 to the "
                             "next location location4"), "no"),
    ("areach", AREACH.format("agent agent1 collects object mug1 from receptacle cabinet1 while at location "
                             "location3"), "yes"),
    ("prog", PROG.format("desklamp1 is on", TOGGLE), "yes"),
    ("prog", PROG.format("desklamp1 is off", TOGGLE), "no"),
    ("prog", PROG.format("agent1 is holding object apple1", HEAT_PLAN[0]), "yes"),
    ("reach", REACH.format("It has been validated that an object of type appletype is hot and is in a receptacle of "
                           "type countertoptype"), "yes"),
    ("reach", REACH.format("It has been validated that an object of type knifetype is hot and is in a receptacle of "
                           "type countertoptype"), "no"),  # knives are not heatable
    ("reach", REACH.format("apple1 is in cabinet1"), "no"),  # a cabinet does not hold apples
    ("reach", REACH.format("mug1 is on countertop1"), "yes"),
    ("reach", REACH.format("agent1 is holding object desklamp1"), "no"),  # not pickupable
    ("reach", REACH.format("desklamp1 is toggled"), "yes"),
    ("reach", REACH.format("apple1 is sliced"), "yes"),
    ("reach", REACH.format("basketball is cool"), "no"),  # no such object in the scene
    # every validation ends the episode: two never hold together (an h^2 proof)
    ("reach", REACH.format("It has been validated that an object of type appletype is in a receptacle of type "
                           "fridgetype and It has been validated that an object of type mugtype is in a receptacle "
                           "of type cabinettype"), "no"),
    ("land", LANDMARK.format("agent agent1 is at location location5"), "yes"),  # the only microwave
    ("land", LANDMARK.format("agent1 is holding object apple1"), "no"),  # apple2 will do
    ("val", VALID.format(", ".join(HEAT_PLAN)), "yes"),
    ("val", VALID.format(", ".join(HEAT_PLAN[:3] + HEAT_PLAN[4:])), "no"),  # put down where it is not
    ("val", APPLIES.format(f"{TOGGLE}, agent agent1 toggles a togglable object desklamp1 that is on the receptacle "
                           "countertop1 at location location2"), "yes"),  # on, then off
])
def test_bool_questions_in_the_release_wording(task, question, answer):
    assert _ask(task, question) == answer


def test_mcq_and_just_in_the_release_wording():
    choices = ["agent agent1 that is at location location3 opens receptacle cabinet1",
               "agent agent1 collects object apple2 from receptacle fridge1 while at location location4",
               "agent agent1 toggles a togglable object desklamp1 that is on the receptacle countertop1 at location "
               "location2",
               "agent agent1 heats up object apple1 with a microwave microwave1 that is in location location5"]
    assert _ask("app", "Which of the following actions will be applicable in this state?", choices) == "C"
    detour = ["agent agent1 goes to receptacle sinkbasin1 from the current location location2 to the next location "
              "location6",
              "agent agent1 goes to receptacle countertop1 from the current location location6 to the next location "
              "location2"]
    plan = ", ".join(detour + HEAT_PLAN)
    ask = 'Given the plan: "{}"; can the following pair of consecutive actions be removed from this plan and still ' \
          'have a valid plan: {}?'
    assert _ask("just", ask.format(plan, " and ".join(detour))) == "yes"
    assert _ask("just", ask.format(plan, " and ".join(HEAT_PLAN[:2]))) == "no"
    # "toggles" twice: on, then off (each the toggle that applies); the pair goes
    toggles = [TOGGLE, TOGGLE.replace("toggles object", "toggles a togglable object")]
    plan = ", ".join(toggles + HEAT_PLAN)
    assert read_question(_question("just", ask.format(plan, " and ".join(toggles)))).item["steps_any"] == [[0, 1]]
    assert _ask("just", ask.format(plan, " and ".join(toggles))) == "yes"
    assert _ask("just", ask.format(plan, " and ".join(HEAT_PLAN[:2]))) == "no"


def _kitchen() -> str:
    """A kitchen the size of the release's (19 receptacles, 20 locations, 26 objects), written in its wording."""
    receptacles = ([f"cabinet{i}" for i in range(1, 7)] + [f"drawer{i}" for i in range(1, 5)]
                   + [f"shelf{i}" for i in range(1, 4)] + ["countertop1", "countertop2", "fridge1", "microwave1",
                                                         "sinkbasin1", "garbagecan1"])
    where = {r: f"location{i}" for i, r in enumerate(receptacles, 1)}
    inside = {"countertop1": ["apple1", "apple2", "knife1", "knife2", "bread1"],
              "countertop2": ["potato1", "potato2", "tomato1", "spatula1"],
              "cabinet1": ["mug1", "mug2"], "cabinet2": ["plate1", "plate2"], "cabinet3": ["bowl1", "bowl2"],
              "drawer1": ["fork1", "fork2"], "drawer2": ["spoon1", "spoon2"], "shelf1": ["cup1", "cup2"],
              "fridge1": ["egg1", "egg2", "lettuce1"], "garbagecan1": ["apple3"]}
    at = " ".join(f"{', '.join(objects)} are at {where[r]}." for r, objects in inside.items() if len(objects) > 1)
    inn = " ".join(f"{', '.join(objects)} are {'on' if r.startswith(('counter', 'shelf')) else 'in'} {r}."
                   for r, objects in inside.items() if len(objects) > 1)
    return (OPENING + "There are 14 object types: 3 apples, 2 bowls, 1 bread, 2 cups, 2 eggs, 2 forks, 2 knives, "
            "1 lettuce, 2 mugs, 2 plates, 2 potatoes, 1 spatula, 2 spoons, 1 tomato, 8 receptacle types: 6 cabinets, "
            "2 countertops, 4 drawers, 1 fridge, 1 garbagecan, 1 microwave, 3 shelves, 1 sinkbasin, and 20 locations "
            "all numbered consecutively.  The receptacles are at locations as follows. "
            + " ".join(f"{r} is at {loc}." for r, loc in where.items())
            + "  Currently, the objects are at locations as follows. " + at
            + " apple3 is at location19. agent agent1 is at location location20. The objects are in/on receptacle "
            "as follows. " + inn + " apple3 is in garbagecan1. cabinet1, cabinet2, cabinet3, cabinet4, drawer1, "
            "drawer2, and fridge1 are closed. microwave1 is open. Nothing has been validated. agent1's hands are "
            "empty. The goal is to reach a state where the following facts hold: It has been validated that an "
            "object of type mugtype is hot and is in a receptacle of type cabinettype.")


def test_a_kitchen_of_the_release_size_is_answered():
    """The release's scenes ground to 700-1500 facts (this one to 842): past the size where search exhausts the state
    space, two validations (each ends the episode) are still proved never to hold together (an h^2 mutex, computed
    up to 2000 facts)."""
    kitchen = _kitchen()
    reading = read_context(kitchen)
    assert load_task(reading.domain_pddl, reading.problem_pddl()).num_facts > 800
    assert "(cancontain cabinettype mugtype)" in reading.init and "(cancontain cabinettype eggtype)" not in reading.init
    assert {"(notopenable cabinet5)", "(openable cabinet4)", "(notopenable shelf3)"} <= set(reading.init)

    def ask(task, question):
        found = solve_question(Question(id=1, task=task, format="bool", context=kitchen, question=question,
                                        source="acpbench"))
        return None if found is None else found[0]
    assert ask("reach", REACH.format("It has been validated that an object of type mugtype is hot and is in a "
                                     "receptacle of type cabinettype and It has been validated that an object of "
                                     "type cuptype is in a receptacle of type shelftype")) == "no"
    assert ask("reach", REACH.format("mug1 is hot")) == "yes"
    assert ask("land", LANDMARK.format("agent agent1 is at location location17")) == "yes"  # the microwave
    assert ask("land", LANDMARK.format("agent1 is holding object mug2")) == "no"  # mug1 will do
    assert ask("app", APPLICABLE.format("agent agent1 opens receptacle cabinet5 that is at location location5")) == "no"
