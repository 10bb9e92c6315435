"""The rule-based NL templates (apb.nl.rules): complete, well-formed English for every bundled and AutoPlanBench
domain, and the wording of the patterns the rules know (examples from the bundled domains and small made-up
domains)."""

from __future__ import annotations

import re
import warnings

import pytest
from conftest import dataset_dir, dataset_params, reference_domain, smallest_and_largest_orig_problem

from apb.domains.registry import domain_file, domain_names, problem_files
from apb.engine import PDDLWarning, load_domain, load_task, parse_domain
from apb.nl import DomainText, TaskText, load_nl_yaml, load_templates
from apb.nl.grammar import article
from apb.nl.rules import rule_data, rule_templates
from apb.nl.template_builder import missing_entries

PLACEHOLDER = re.compile(r"\{([^{}\s]+)\}")


def bundled(name: str):
    domain = load_domain(domain_file(name))
    return domain, rule_templates(domain)


def literal(text: str) -> str:
    """A template without its placeholders."""
    return PLACEHOLDER.sub("", text)


def check_templates(domain, t) -> None:
    """Complete, each parameter exactly once, no PDDL spelling left in the words around the placeholders."""
    assert t.source == "rule"
    assert missing_entries(t, domain) == []
    assert "-" not in t.intro and "_" not in t.intro and t.intro.endswith(".")
    for p in t.predicates.values():
        for text in (p.text, p.negated):
            assert sorted(PLACEHOLDER.findall(text)) == sorted(p.params), (p.name, text)
            assert not re.search(r"[-_?]", literal(text)), (p.name, text)
        both = f" {p.text} | {p.negated} "
        assert p.text != p.negated and any(w in both for w in (" not ", " no ", " cannot ")), (p.name, both)
    for a in t.actions.values():
        assert sorted(PLACEHOLDER.findall(a.text)) == sorted(a.params), (a.name, a.text)
        assert not re.search(r"[-_?]", literal(a.text)), (a.name, a.text)
        assert not re.search(r"[-_?{}]", a.indefinite), (a.name, a.indefinite)
        for i in range(len(a.params)):
            assert len(re.findall(rf"\b{chr(65 + i)}\b", a.indefinite)) == 1, (a.name, a.indefinite)
        assert set(a.variables) == set(a.params), a.name
        assert all(v.startswith("the ") and "{" not in v for v in a.variables.values()), a.variables
    for noun in (x.singular for x in t.types.values()):
        assert not re.search(r"[-_]", noun), noun


def check_english(text: str, names, objects=()) -> None:
    """No raw predicate/action names with '-' or '_', no 'a A' style articles, 'a'/'an' right, no doubled words
    (object names, such as Blocksworld's a, b, c, are not English words and are left alone)."""
    objects = set(objects)
    for name in names:
        if re.search(r"[-_]", name) and name not in objects:
            assert not re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text), name
    assert not re.search(r"\b(?:a|an) [A-Z]\d*\b", text), re.search(r".{30}\b(?:a|an) [A-Z]\d*\b.{10}", text)
    for match in re.finditer(r"(?<![\w-])(a|an) ([a-z][a-z]+)\b", text):
        if match.group(1) in objects or match.group(2) in objects:
            continue
        assert match.group(1) == article(match.group(2)), text[max(0, match.start() - 40):match.end() + 20]
    for doubled in re.finditer(r"\b([a-z]{2,}) \1\b", text):
        assert doubled.group(1) in objects, text[max(0, doubled.start() - 40):doubled.end() + 20]


def check_rendering(domain, t, task) -> None:
    names = [*domain.predicates, *(a.name for a in domain.actions)]
    description = DomainText(domain, t).description()
    assert description.startswith(t.intro)
    check_english(description, names)
    text = TaskText(task, t)
    objects = set(task.objects)
    problem = text.problem_description()
    check_english(problem, names, objects)
    state = task.initial_state
    actions = [text.action(a) for a in task.applicable(state)]
    assert actions, "the initial state has applicable actions"
    for line in [*actions, text.state(state)]:
        check_english(line, names, objects)


# ---- every domain -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", domain_names())
def test_bundled_domain_rule_templates_are_complete_and_render(name):
    domain, t = bundled(name)
    check_templates(domain, t)
    check_rendering(domain, t, load_task(domain, problem_files(name, "test")[0]))
    assert load_templates(domain, "rule").to_dict() == t.to_dict()


@pytest.mark.parametrize("dataset", dataset_params())
def test_reference_domain_rule_templates_are_complete_and_render(dataset):
    folder = dataset_dir(dataset)
    domain = reference_domain(dataset)
    t = rule_templates(domain)
    check_templates(domain, t)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PDDLWarning)
        task = load_task(domain, smallest_and_largest_orig_problem(dataset)[0])
    check_rendering(domain, t, task)
    assert (folder / "domain.pddl").is_file()


def test_rule_templates_survive_an_nl_yaml_round_trip(tmp_path):
    domain, t = bundled("rovers")
    loaded = load_nl_yaml(t.save(tmp_path / "nl.yaml"), domain)
    assert loaded.to_dict() == t.to_dict()


# ---- predicates ---------------------------------------------------------------------------------------------------
def texts(name: str, predicate: str) -> tuple[str, str]:
    p = bundled(name)[1].predicates[predicate]
    return p.text, p.negated


@pytest.mark.parametrize("name, predicate, text, negated", [
    # a preposition and a noun the arguments do not supply: the noun is the subject
    ("ferry", "at-ferry", "the ferry is at {l}", "the ferry is not at {l}"),
    ("grid", "at-robot", "the robot is at {x}", "the robot is not at {x}"),
    ("visitall", "at-robot", "the robot is at {x}", "the robot is not at {x}"),
    # ... unless the argument is where it is
    ("blocksworld", "ontable", "{x} is on the table", "{x} is not on the table"),
    # ... or the noun names an argument
    ("logistics", "in-city", "{obj} is in city {city}", "{obj} is not in city {city}"),
    ("rovers", "at_lander", "{x} is at {y}", "{x} is not at {y}"),
    ("rovers", "on_board", "{i} is on board {r}", "{i} is not on board {r}"),
    # a noun and a preposition
    ("goldminer", "robot-at", "the robot is at {x}", "the robot is not at {x}"),
    ("goldminer", "bomb-at", "there is a bomb at {x}", "there is no bomb at {x}"),
    ("goldminer", "gold-at", "there is gold at {x}", "there is no gold at {x}"),
    ("goldminer", "soft-rock-at", "there is soft rock at {x}", "there is no soft rock at {x}"),
    ("floortile", "robot-at", "{r} is at {x}", "{r} is not at {x}"),
    ("grippers", "at-robby", "{r} is at {x}", "{r} is not at {x}"),
    ("rovers", "store_of", "{s} is the store of {r}", "{s} is not the store of {r}"),
    ("rovers", "at_soil_sample", "there is a soil sample at {w}", "there is no soil sample at {w}"),
    # bare relations and directions, arguments in PDDL order
    ("blocksworld", "on", "{x} is on {y}", "{x} is not on {y}"),
    ("depot", "in", "{x} is in {y}", "{x} is not in {y}"),
    ("floortile", "up", "{x} is above {y}", "{x} is not above {y}"),
    ("floortile", "down", "{x} is below {y}", "{x} is not below {y}"),
    ("floortile", "right", "{x} is to the right of {y}", "{x} is not to the right of {y}"),
    ("floortile", "left", "{x} is to the left of {y}", "{x} is not to the left of {y}"),
    ("ferry", "on", "{c} is on the ferry", "{c} is not on the ferry"),
    # types
    ("ferry", "car", "{c} is a car", "{c} is not a car"),
    ("logistics", "airplane", "{airplane} is an airplane", "{airplane} is not an airplane"),
    ("logistics", "obj", "{obj} is an object", "{obj} is not an object"),
    ("grid", "key", "{k} is a key", "{k} is not a key"),
    # adjectives and participles
    ("blocksworld", "clear", "{x} is clear", "{x} is not clear"),
    ("grid", "locked", "{x} is locked", "{x} is not locked"),
    ("grid", "open", "{x} is open", "{x} is not open"),
    ("satellite", "calibrated", "{i} is calibrated", "{i} is not calibrated"),
    ("rovers", "calibrated", "{c} is calibrated for {r}", "{c} is not calibrated for {r}"),
    ("rovers", "equipped_for_imaging", "{r} is equipped for imaging", "{r} is not equipped for imaging"),
    ("rovers", "visible_from", "{o} is visible from {w}", "{o} is not visible from {w}"),
    ("grid", "conn", "{x} is connected to {y}", "{x} is not connected to {y}"),
    ("visitall", "visited", "{x} has been visited", "{x} has not been visited"),
    ("floortile", "painted", "{x} is painted {c}", "{x} is not painted {c}"),
    ("floortile", "available-color", "{c} is an available color", "{c} is not an available color"),
    ("rovers", "channel_free", "the channel of {l} is free", "the channel of {l} is not free"),
    ("satellite", "power_avail", "the power of {s} is available", "the power of {s} is not available"),
    ("rovers", "communicated_soil_data", "the soil data of {w} has been communicated",
     "the soil data of {w} has not been communicated"),
    ("ferry", "not-eq", "{x} is not equal to {y}", "{x} is equal to {y}"),
    # no arguments
    ("blocksworld", "handempty", "the hand is empty", "the hand is not empty"),
    ("ferry", "empty-ferry", "the ferry is empty", "the ferry is not empty"),
    ("grid", "arm-empty", "the arm is empty", "the arm is not empty"),
    ("movie", "movie-rewound", "the movie is rewound", "the movie is not rewound"),
    ("movie", "counter-at-zero", "the counter is at zero", "the counter is not at zero"),
    ("movie", "have-chips", "I have chips", "I do not have chips"),
    ("goldminer", "holds-bomb", "I am holding a bomb", "I am not holding a bomb"),
    # verbs
    ("rovers", "supports", "{c} supports {m}", "{c} does not support {m}"),
    ("blocksworld", "holding", "I am holding {x}", "I am not holding {x}"),
    ("depot", "lifting", "{x} is lifting {y}", "{x} is not lifting {y}"),
    ("satellite", "pointing", "{s} is pointing at {d}", "{s} is not pointing at {d}"),
    ("grippers", "carry", "{r} carries {o} with {g}", "{r} does not carry {o} with {g}"),
    ("rovers", "have_rock_analysis", "{r} has a rock analysis of {w}", "{r} does not have a rock analysis of {w}"),
    ("rovers", "have_image", "{r} has an image of {o} in {m}", "{r} does not have an image of {o} in {m}"),
    ("satellite", "have_image", "I have an image of {d} in {m}", "I do not have an image of {d} in {m}"),
    ("floortile", "robot-has", "{r} has color {c}", "{r} does not have color {c}"),
    ("grid", "key-shape", "{k} has shape {s}", "{k} does not have shape {s}"),
    ("rovers", "can_traverse", "{r} can traverse from {x} to {y}", "{r} cannot traverse from {x} to {y}"),
])
def test_predicate_wording(name, predicate, text, negated):
    assert texts(name, predicate) == (text, negated)


def test_the_ferry_is_never_the_argument_of_at_ferry():
    # the issue: `(at-ferry ?l)` must not become "l is at the ferry"
    text, negated = texts("ferry", "at-ferry")
    assert not text.startswith("{l}") and "at the ferry" not in text + negated


# ---- actions ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name, action, text, indefinite", [
    ("ferry", "sail", "sail from {from} to {to}", "sail from A to B"),
    ("ferry", "board", "board car {car} at location {loc}", "board a car A at a location B"),
    ("ferry", "debark", "debark car {car} at location {loc}", "debark a car A at a location B"),
    ("logistics", "drive-truck", "drive truck {truck} from {loc-from} to {loc-to} in city {city}",
     "drive a truck A from B to C in a city D"),
    ("logistics", "fly-airplane", "fly airplane {airplane} from {loc-from} to {loc-to}",
     "fly an airplane A from B to C"),
    ("logistics", "load-truck", "load object {obj} into truck {truck} at location {loc}",
     "load an object A into a truck B at a location C"),
    ("logistics", "unload-airplane", "unload object {obj} from airplane {airplane} at location {loc}",
     "unload an object A from an airplane B at a location C"),
    ("blocksworld", "pick-up", "pick up object {ob}", "pick up an object A"),
    ("blocksworld", "stack", "stack object {ob} on object {underob}", "stack an object A on an object B"),
    ("blocksworld", "unstack", "unstack object {ob} from object {underob}", "unstack an object A from an object B"),
    ("depot", "drive", "drive truck {x} from place {y} to place {z}", "drive a truck A from a place B to a place C"),
    ("depot", "load", "load crate {y} with hoist {x} into truck {z} at place {p}",
     "load a crate B with a hoist A into a truck C at a place D"),
    ("floortile", "up", "move robot {r} up from tile {x} to tile {y}", "move a robot A up from a tile B to a tile C"),
    ("floortile", "paint-up", "paint tile {y} up from tile {x} with robot {r} using color {c}",
     "paint a tile B up from a tile C with a robot A using a color D"),
    ("goldminer", "move", "move from location {x} to location {y}", "move from a location A to a location B"),
    ("goldminer", "pickup-laser", "pick up the laser at location {x}", "pick up the laser at a location A"),
    ("grid", "move", "move from place {curpos} to place {nextpos}", "move from a place A to a place B"),
    ("grid", "pickup", "pick up key {key} at place {curpos}", "pick up a key B at a place A"),
    ("grippers", "move", "move robot {r} from room {from} to room {to}", "move a robot A from a room B to a room C"),
    ("movie", "rewind-movie", "rewind the movie", "rewind the movie"),
    ("movie", "get-chips", "get chips {x}", "get chips A"),
    ("rovers", "navigate", "navigate rover {x} from waypoint {y} to waypoint {z}",
     "navigate a rover A from a waypoint B to a waypoint C"),
    ("rovers", "take_image", "take an image of objective {o} with rover {r} at waypoint {p} using camera {i} "
     "in mode {m}", "take an image of an objective C with a rover A at a waypoint B using a camera D in a mode E"),
    ("satellite", "turn_to", "turn satellite {s} from direction {d_prev} to direction {d_new}",
     "turn a satellite A from a direction C to a direction B"),
    ("satellite", "switch_on", "switch on instrument {i} with satellite {s}",
     "switch on an instrument A with a satellite B"),
])
def test_action_wording(name, action, text, indefinite):
    a = bundled(name)[1].actions[action]
    assert (a.text, a.indefinite, a.first_person) == (text, indefinite, "I " + text)


def test_action_parameter_descriptions():
    t = bundled("ferry")[1]
    assert t.actions["board"].variables == {"car": "the car to board", "loc": "the location to board at"}
    assert t.actions["sail"].variables == {"from": "the location to sail from", "to": "the location to sail to"}
    assert bundled("logistics")[1].actions["drive-truck"].variables["city"] == "the city to drive in"


def test_types_and_intro():
    t = bundled("depot")[1]
    assert t.types["locatable"].singular == "locatable object" and t.types["crate"].plural == "crates"
    assert bundled("goldminer")[1].types["loc"].singular == "location"
    assert bundled("goldminer")[1].intro == "I am acting in the gold miner domain."
    assert bundled("floortile")[1].intro == "I am acting in the floor tile domain."


def test_rendered_ferry_text_reads_as_english():
    domain, t = bundled("ferry")
    description = DomainText(domain, t).description()
    assert "- sail from A to B\n- board a car A at a location B\n- debark a car A at a location B" in description
    assert ("I can only board a car A at a location B if A is a car, B is a location, A is at B, the ferry is at B "
            "and the ferry is empty.") in description
    assert "Once I sail from A to B, the ferry is not at A anymore." in description
    task = load_task(domain, problem_files("ferry", "test")[0])
    text = TaskText(task, t)
    action = next(a for a in task.applicable(task.initial_state) if a.schema.name == "sail")
    assert text.action(action) == f"sail from {action.args[0]} to {action.args[1]}"


# ---- domains the rules have not seen ------------------------------------------------------------------------------
KITCHEN = """
(define (domain kitchen-world)
  (:requirements :strips :typing)
  (:types ingredient pan oven soap location robot - object truck - object)
  (:predicates (is_egg ?egg - ingredient) (pan_has_egg ?pan - pan) (pan_is_clean ?pan - pan)
    (pan_in_oven ?pan - pan) (in_pan ?x - ingredient ?pan - pan) (oven_is_full ?oven - oven)
    (soap_consumed ?soap - soap) (panhasflour ?p - pan) (nextto ?a - location ?b - location)
    (between ?a - location ?b - location ?c - location) (colour-of ?x ?c) (raining) (daytime)
    (need-repair ?t - truck) (road ?a - location ?b - location) (left-of ?a - location ?b - location)
    (robot-at ?r - robot ?l - location) (waiting ?r - robot) (odd-relation ?a ?b ?c ?d))
  (:action put_egg_in_pan :parameters (?egg - ingredient ?pan - pan)
    :precondition (is_egg ?egg) :effect (pan_has_egg ?pan))
  (:action remove_pan_from_oven :parameters (?pan - pan)
    :precondition (pan_in_oven ?pan) :effect (not (pan_in_oven ?pan)))
  (:action clean_pan :parameters (?pan - pan ?soap - soap)
    :precondition (pan_has_egg ?pan) :effect (pan_is_clean ?pan))
  (:action go :parameters (?r - robot ?from - location ?to - location)
    :precondition (robot-at ?r ?from) :effect (and (robot-at ?r ?to) (not (robot-at ?r ?from))))
  (:action transfer :parameters (?x - ingredient ?t1 - truck ?t2 - truck)
    :precondition (need-repair ?t1) :effect (raining))
  (:action wait :parameters () :precondition (daytime) :effect (raining))
  (:action frobnicate :parameters (?a ?b ?c) :precondition (raining) :effect (daytime)))
"""


@pytest.fixture(scope="module")
def kitchen():
    domain = parse_domain(KITCHEN)
    return domain, rule_templates(domain)


@pytest.mark.parametrize("predicate, text, negated", [
    ("is_egg", "{egg} is an egg", "{egg} is not an egg"),
    ("pan_has_egg", "{pan} has an egg", "{pan} does not have an egg"),
    ("pan_is_clean", "{pan} is clean", "{pan} is not clean"),
    ("pan_in_oven", "{pan} is in the oven", "{pan} is not in the oven"),
    ("in_pan", "{x} is in pan {pan}", "{x} is not in pan {pan}"),
    ("oven_is_full", "{oven} is full", "{oven} is not full"),
    ("soap_consumed", "{soap} has been consumed", "{soap} has not been consumed"),
    ("panhasflour", "{p} has flour", "{p} does not have flour"),
    ("nextto", "{a} is next to {b}", "{a} is not next to {b}"),
    ("between", "{a} is between {b} and {c}", "{a} is not between {b} and {c}"),
    ("colour-of", "the colour of {x} is {c}", "the colour of {x} is not {c}"),
    ("raining", "it is raining", "it is not raining"),
    ("need-repair", "{t} needs a repair", "{t} does not need a repair"),
    ("road", "there is a road from {a} to {b}", "there is no road from {a} to {b}"),
    ("left-of", "{a} is to the left of {b}", "{a} is not to the left of {b}"),
    ("robot-at", "{r} is at {l}", "{r} is not at {l}"),
    ("odd-relation", "odd relation holds for {a}, {b}, {c} and {d}",
     "odd relation does not hold for {a}, {b}, {c} and {d}"),
])
def test_unseen_domain_predicates(kitchen, predicate, text, negated):
    p = kitchen[1].predicates[predicate]
    assert (p.text, p.negated) == (text, negated)


@pytest.mark.parametrize("action, text, indefinite", [
    ("put_egg_in_pan", "put egg {egg} in pan {pan}", "put an egg A in a pan B"),
    ("remove_pan_from_oven", "remove pan {pan} from the oven", "remove a pan A from the oven"),
    ("clean_pan", "clean pan {pan} with soap {soap}", "clean a pan A with soap B"),
    ("go", "go robot {r} from location {from} to location {to}", "go a robot A from a location B to a location C"),
    ("transfer", "transfer ingredient {x} from truck {t1} to truck {t2}",
     "transfer an ingredient A from a truck B to a truck C"),
    ("wait", "wait", "wait"),
    ("frobnicate", "frobnicate {a} with {b} and {c}", "frobnicate A with B and C"),
])
def test_unseen_domain_actions(kitchen, action, text, indefinite):
    a = kitchen[1].actions[action]
    assert (a.text, a.indefinite) == (text, indefinite)


def test_unseen_domain_templates_are_complete(kitchen):
    domain, t = kitchen
    check_templates(domain, t)
    assert t.intro == "I am acting in the kitchen world domain."
    check_english(DomainText(domain, t).description(), [*domain.predicates, *(a.name for a in domain.actions)])


def test_rule_data_is_an_nl_yaml_mapping():
    data = rule_data(load_domain(domain_file("ferry")))
    assert set(data) == {"format", "domain", "intro", "types", "predicates", "actions"}
    assert data["predicates"]["at-ferry"] == {"text": "the ferry is at {l}", "negated": "the ferry is not at {l}"}


IPC_STYLE = """
(define (domain mixed-ipc-style)
  (:requirements :strips :typing)
  (:types passenger floor car curb dispenser thing child sandwich)
  (:predicates (lift-at ?f - floor) (at-curb ?car - car) (destin ?p - passenger ?f - floor)
    (dispenses ?d - dispenser ?i - thing) (allergic_gluten ?c - child) (not_allergic_gluten ?c - child)
    (notexist ?s - sandwich) (above ?f1 - floor ?f2 - floor))
  (:action board :parameters (?f - floor ?p - passenger) :precondition (lift-at ?f) :effect (at-curb ?p))
  (:action up :parameters (?f1 - floor ?f2 - floor)
    :precondition (and (lift-at ?f1) (above ?f2 ?f1)) :effect (and (lift-at ?f2) (not (lift-at ?f1))))
  (:action a1 :parameters (?c - child ?s - sandwich) :precondition (notexist ?s) :effect (allergic_gluten ?c)))
"""


@pytest.mark.parametrize("entry, text, other", [
    ("lift-at", "the lift is at {f}", "the lift is not at {f}"),
    ("at-curb", "{car} is at the curb", "{car} is not at the curb"),
    ("destin", "{p} has destination {f}", "{p} does not have destination {f}"),
    ("dispenses", "{d} dispenses {i}", "{d} does not dispense {i}"),
    ("allergic_gluten", "{c} is allergic to gluten", "{c} is not allergic to gluten"),
    ("not_allergic_gluten", "{c} is not allergic to gluten", "{c} is allergic to gluten"),
    ("notexist", "{s} does not exist", "{s} exists"),
    ("board", "board passenger {p} at floor {f}", "board a passenger B at a floor A"),
    ("up", "move up from floor {f1} to floor {f2}", "move up from a floor A to a floor B"),
    ("a1", "do a1 child {c} with sandwich {s}", "do a1 a child A with a sandwich B"),
])
def test_ipc_style_names(entry, text, other):
    domain = parse_domain(IPC_STYLE)
    t = rule_templates(domain)
    check_templates(domain, t)
    if entry in t.predicates:
        assert (t.predicates[entry].text, t.predicates[entry].negated) == (text, other)
    else:
        assert (t.actions[entry].text, t.actions[entry].indefinite) == (text, other)
