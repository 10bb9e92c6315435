"""Translators: template (exact, tolerant of chatter and formatting), fuzzy (confidence, threshold), T-LLM with a
scripted LLM (validation, one retry, prompt layout), the cascade (stages, LLM calls), robustness on any text, and
the TranslatedActions wrapper."""

from __future__ import annotations

import random
import re
from functools import cache
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from apb.bench.translate import noisy, render
from apb.domains.registry import domain_names
from apb.engine.errors import ApbError
from apb.envs.text_env import PDDLTextEnv
from apb.envs.wrappers import TranslatedActions
from apb.llm.base import LLMError, Usage
from apb.llm.scripted import ScriptedLLM
from apb.prompts import load_prompt
from apb.translators import (
    KINDS,
    CascadeTranslator,
    FuzzyTranslator,
    TemplateTranslator,
    TLLMTranslator,
    TranslationResult,
    make_translator,
)
from apb.translators.base import ProblemCache

DATA = Path(__file__).parent / "data" / "translators"
TEMPLATE_CASES = yaml.safe_load((DATA / "template_cases.yaml").read_text(encoding="utf-8"))


@cache
def _env_info(domain: str, problem: int = 1) -> tuple[PDDLTextEnv, dict]:
    env = PDDLTextEnv(domain, problem=problem)
    _, info = env.reset()
    return env, info


def env_info(domain: str, problem: int = 1) -> tuple[PDDLTextEnv, dict]:
    env, info = _env_info(domain, problem)
    return env, dict(info)


# ---- make_translator ----------------------------------------------------------------------------------------
def test_make_translator_kinds_and_errors():
    assert isinstance(make_translator(), CascadeTranslator)
    assert isinstance(make_translator(None), CascadeTranslator)
    assert isinstance(make_translator("template"), TemplateTranslator)
    assert isinstance(make_translator("fuzzy", threshold=0.3), FuzzyTranslator)
    assert isinstance(make_translator("tllm", llm=ScriptedLLM(["(x)"])), TLLMTranslator)
    assert make_translator("cascade").tllm is None  # no LLM: the LLM stage is skipped
    assert make_translator("cascade", llm=ScriptedLLM(["(x)"])).tllm is not None
    assert set(KINDS) == {"template", "fuzzy", "tllm", "cascade"}
    with pytest.raises(ApbError, match="unknown translator kind"):
        make_translator("magic")
    with pytest.raises(ApbError, match="needs an llm"):
        make_translator("tllm")
    with pytest.raises(ApbError, match="bad option"):
        make_translator("fuzzy", colour="red")
    with pytest.raises(ApbError, match="bad option"):
        make_translator("template", threshold=0.5)


def test_load_prompt_reads_package_files():
    assert "{actions}" in load_prompt("tllm/system.txt")
    assert load_prompt("tllm/retry") == load_prompt("tllm/retry.txt")
    assert "{problem}" in load_prompt("tllm/retry")


# ---- template -----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("domain", domain_names())
def test_template_reads_every_ground_action_canonical_and_noisy(domain):
    env, info = env_info(domain)
    translator = make_translator("template")
    rng = random.Random(domain)
    schemas = {s["name"]: s for s in info["action_schemas"]}
    nouns = sorted(info["type_nouns"], key=len, reverse=True)
    texts = [env.text.action(a) for a in env.task.actions]
    for action, text in zip(env.task.actions, texts):
        expected = str(action)
        args = list(action.args)
        variants = [
            text,
            f"First, {text}.",
            f"Now please {text} because it gets me closer to the goal",
            f"Instruction: {text.upper()}",
            f"**Action:** {text[:1].upper() + text[1:]}!",
            f"1. `{text}`",
            f'Next action: "{text}"',
            render(schemas[action.name], args, nouns, rng, articles=True, types=False),
            render(schemas[action.name], args, nouns, rng, articles=True, types=True),
            f"> {expected.upper()}",
            f"{text}, then {texts[rng.randrange(len(texts))]}",
        ]
        for variant in variants:
            result = translator(variant, info)
            assert result.action == expected, (variant, result)
            assert result.method in ("template", "pddl", "names") and result.confidence >= 0.9
            assert result.llm_calls == 0 and result.usage is None and result.raw == variant


@pytest.mark.parametrize("domain, text, expected",
                         [(d, t, e) for d, cases in TEMPLATE_CASES.items() for t, e in cases.items()])
def test_template_examples(domain, text, expected):
    _, info = env_info(domain)
    result = make_translator("template").translate(text, info)
    assert result.action == expected, result
    assert result.error is None


def test_template_methods_and_invalid_pddl():
    _, info = env_info("blocksworld")
    t = make_translator("template")
    assert t("(stack block_a block_b)", info).method == "pddl"
    assert t("stack block_a on top of block_b", info).method == "template"
    names = t("stack block_a block_b", info)
    assert (names.action, names.method) == ("(stack block_a block_b)", "names")
    # PDDL that names an unknown object or the wrong number of objects is not passed on as an action.
    unknown = t("(stack block_a block_z)", info)
    assert unknown.action is None and "unknown object block_z" in unknown.error
    arity = t("(pick-up block_a block_b)", info)
    assert arity.action is None and "takes 1 object" in arity.error
    assert t("I have no idea", info).action is None


def test_template_does_not_read_an_action_inside_a_longer_word():
    _, info = env_info("blocksworld")
    # 'unstack' contains 'stack': the stack template must not match from the middle of the word.
    assert make_translator("template")("unstack block_a on top of block_b", info).action != "(stack block_a block_b)"


def test_object_names_with_underscores_and_hyphens():
    _, info = env_info("floortile")
    t = make_translator("template")
    for text in ("move robot_1 up from tile_0-1 to tile_1-1", "move Robot-1 up from tile 0-1 to TILE_1-1",
                 "move robot 1 up from tile_0_1 to tile-1-1"):
        assert t(text, info).action == "(up robot_1 tile_0-1 tile_1-1)", text


def test_parser_is_cached_per_problem():
    cache_ = ProblemCache()
    t = TemplateTranslator(cache_)
    env = PDDLTextEnv("blocksworld", problem=1)
    _, info = env.reset()
    t("pick up block_a", info)
    view = cache_.get(info)
    info2 = env.step("(look-around)")[4]  # a fresh info dict of the same problem
    assert cache_.get(info2) is view and view.parser is cache_.get(info).parser
    _, other = PDDLTextEnv("blocksworld", problem=2).reset()
    assert cache_.get(other) is not view


# ---- fuzzy --------------------------------------------------------------------------------------------------
def test_fuzzy_confidence_orders_exact_typo_partial_and_garbage():
    _, info = env_info("blocksworld")
    fuzzy = make_translator("fuzzy", threshold=0.0)
    exact = fuzzy("stack block_a on top of block_b", info)
    typo = fuzzy("stakc blcok_a on top of block_b", info)
    terse = fuzzy("stack block_a on block_b", info)
    vague = fuzzy("do something with block_a", info)
    garbage = fuzzy("the weather is nice today", info)
    assert exact.action == typo.action == terse.action == "(stack block_a block_b)"
    assert exact.method == "fuzzy"
    assert 1.0 >= exact.confidence > typo.confidence > vague.confidence > garbage.confidence >= 0.0
    assert exact.confidence > terse.confidence > vague.confidence
    assert all(0.0 <= r.confidence <= 1.0 for r in (exact, typo, terse, vague, garbage))


def test_fuzzy_threshold_turns_weak_matches_into_none():
    _, info = env_info("blocksworld")
    text = "do something with block_a"
    loose = make_translator("fuzzy", threshold=0.0)(text, info)
    strict = make_translator("fuzzy", threshold=0.99)(text, info)
    assert loose.action is not None
    assert strict.action is None and strict.method == "none" and "threshold" in strict.error
    assert strict.confidence == pytest.approx(loose.confidence)
    assert make_translator("fuzzy")("the weather is nice today", info).action is None


def test_fuzzy_reads_typos_split_names_and_left_out_words():
    _, info = env_info("depot")
    fuzzy = make_translator("fuzzy")
    assert fuzzy("drive turck_0 from depot_0 to distributor_0", info).action == "(drive truck_0 depot_0 distributor_0)"
    assert fuzzy("use hiost 0 to lift crate_0 off pallet_0 at depot_0", info).action == \
        "(lift hoist_0 crate_0 pallet_0 depot_0)"
    assert fuzzy("(dirve truck_0 depot_0 distributor_0)", info).action == "(drive truck_0 depot_0 distributor_0)"
    # A misspelling as close to two objects as to one is not guessed.
    _, blocks = env_info("blocksworld")
    assert make_translator("fuzzy")("(stack block_a block_z)", blocks).action is None


def test_fuzzy_is_type_consistent_within_a_small_budget():
    _, info = env_info("depot", 3)
    fuzzy = FuzzyTranslator(max_candidates=50)
    result = fuzzy("use hoist_0 to load crate_1 into truck_1 at depot_0", info)
    assert result.action == "(load hoist_0 crate_1 truck_1 depot_0)"
    _, *args = result.action.strip("()").split()
    assert [info["objects"][a] for a in args] == ["hoist", "crate", "truck", "depot"]


# ---- T-LLM --------------------------------------------------------------------------------------------------
def tllm_with(responses, **options) -> tuple[TLLMTranslator, ScriptedLLM]:
    llm = ScriptedLLM(responses)
    return TLLMTranslator(llm, **options), llm


def test_tllm_correct_answer_and_prose_around_it():
    _, info = env_info("blocksworld")
    t, llm = tllm_with(["(stack block_a block_b)", "Sure! The action is (PICK-UP block_c), because it is clear."])
    first = t("put a onto b", info)
    assert (first.action, first.method, first.llm_calls, first.error) == ("(stack block_a block_b)", "tllm", 1, None)
    assert isinstance(first.usage, Usage) and first.usage.input_tokens > 0
    second = t("grab c", info)
    assert second.action == "(pick-up block_c)" and second.llm_calls == 1
    assert len(llm.calls) == 2


def test_tllm_answer_without_parentheses_is_read_by_the_templates():
    _, info = env_info("blocksworld")
    t, _ = tllm_with(["I would pick up block_d."])
    assert t("take d", info).action == "(pick-up block_d)"


@pytest.mark.parametrize("answers", [["", ""], ["   \n ", "((("], ["I don't know.", "no idea"],
                                     ["<think>maybe (stack block_a block_b)</think>", ""]])
def test_tllm_empty_or_malformed_answers_give_none_with_an_error(answers):
    _, info = env_info("blocksworld")
    t, llm = tllm_with(answers)
    result = t("do it", info)
    assert result.action is None and result.method == "none" and result.error
    assert result.llm_calls == 2 == len(llm.calls)


def test_tllm_wrong_arity_then_corrected_on_retry():
    _, info = env_info("blocksworld")
    t, llm = tllm_with(["(stack block_a)", "(stack block_a block_b)"])
    result = t("put block_a on block_b", info)
    assert result.action == "(stack block_a block_b)" and result.llm_calls == 2 == len(llm.calls)
    assert result.confidence < 0.9  # answered on the retry
    retry = llm.calls[1]["messages"]
    assert retry[-2] == {"role": "assistant", "content": "(stack block_a)"}
    assert retry[-1]["role"] == "user"
    assert "stack takes 2 object(s)" in retry[-1]["content"] and "1 were given" in retry[-1]["content"]
    assert retry[:-2] == llm.calls[0]["messages"]  # the retry continues the same conversation


def test_tllm_unknown_object_twice_gives_none():
    _, info = env_info("logistics")
    t, llm = tllm_with(["(load-truck package_0 truck9 airport_0)", "(load-truck package_0 truck9 airport_0)",
                        "never used"])
    result = t("load the package into the truck", info)
    assert result.action is None and result.llm_calls == 2 == len(llm.calls)
    assert "unknown object truck9" in result.error
    assert "unknown object truck9; objects are" in llm.calls[1]["messages"][-1]["content"]


def test_tllm_unknown_action_and_type_mismatch_are_explained():
    _, info = env_info("depot")
    t, llm = tllm_with(["(teleport truck_0 depot_0)", "(drive crate_0 depot_0 depot_1)"])
    result = t("drive truck_0 somewhere", info)
    assert result.action is None
    assert "unknown action teleport" in llm.calls[1]["messages"][-1]["content"]
    assert "crate_0 is a crate" in result.error and "must be a truck" in result.error


def test_tllm_llm_failure_gives_none_and_counts_the_call():
    _, info = env_info("blocksworld")

    def broken(messages):
        raise LLMError("rate limited for good")

    result = TLLMTranslator(ScriptedLLM(broken))("pick up block_a", info)
    assert result.action is None and result.llm_calls == 1 and "LLM call failed" in result.error


def test_tllm_prompt_is_static_first_with_a_cache_mark_and_invented_example_objects():
    for domain in domain_names():
        _, info = env_info(domain)
        t, llm = tllm_with(["(nothing)", "(nothing)"])
        t("some instruction", info)
        messages = llm.calls[0]["messages"]
        assert messages[0]["role"] == "system"
        marked = [i for i, m in enumerate(messages) if m.get("cache")]
        assert marked == [len(messages) - 2], domain  # the static prefix ends right before the problem part
        static, last = messages[:-1], messages[-1]
        assert last["role"] == "user" and "some instruction" in last["content"]
        problem_objects = set(info["objects"])
        assert all(name in last["content"] for name in problem_objects)
        examples = [m["content"] for m in static if m["role"] == "assistant"]
        assert 1 <= len(examples) <= 5
        invented = {a for e in examples for a in e.strip("()").split()[1:]}
        schemas = {s["name"] for s in info["action_schemas"]}
        assert all(e.strip("()").split()[0] in schemas for e in examples)
        # Invented objects collide with no problem object (in any spelling) and are not in the object list.
        squash = {re.sub(r"[_\-\s]", "", o.lower()) for o in problem_objects}
        assert not {re.sub(r"[_\-\s]", "", o) for o in invented} & squash, domain
        assert not any(re.search(rf"(?<![\w-]){re.escape(o)}(?![\w-])", last["content"]) for o in invented)
        # The static prefix does not depend on the problem (prompt caching across problems).
        _, other = PDDLTextEnv(domain, problem=2).reset()
        t2, llm2 = tllm_with(["(nothing)", "(nothing)"])
        t2("another instruction", other)
        assert llm2.calls[0]["messages"][:-1] == static


def test_tllm_invented_objects_avoid_real_names():
    _, info = env_info("blocksworld")
    info["objects"] = {**info["objects"], "block_x1": "object", "block-x2": "object"}
    t, llm = tllm_with(["(nothing)", "(nothing)"])
    t("x", info)
    examples = " ".join(m["content"] for m in llm.calls[0]["messages"][:-1] if m["role"] != "system")
    assert not re.search(r"block_x1\b|block_x2\b", examples)


# ---- cascade ------------------------------------------------------------------------------------------------
def test_cascade_records_stages_and_llm_calls():
    _, info = env_info("blocksworld")
    llm = ScriptedLLM(["(stack block_c block_d)", "garbage", "more garbage"])
    cascade = make_translator("cascade", llm=llm)
    by_template = cascade("First, pick up block_a.", info)
    assert (by_template.method, by_template.llm_calls, by_template.tried) == ("template", 0, ["template"])
    assert make_translator("template")("pick up block_a", info).tried == ["template"]
    by_llm = cascade("place the third block onto the fourth", info)
    assert (by_llm.action, by_llm.method, by_llm.llm_calls) == ("(stack block_c block_d)", "tllm", 1)
    assert by_llm.tried == ["template", "tllm"]
    by_fuzzy = cascade("stakc blcok_a on top of block_b", info)  # the LLM answers garbage twice
    assert (by_fuzzy.action, by_fuzzy.method, by_fuzzy.llm_calls) == ("(stack block_a block_b)", "fuzzy", 2)
    assert by_fuzzy.tried == ["template", "tllm", "fuzzy"] and by_fuzzy.usage.input_tokens > 0
    assert len(llm.calls) == 3


def test_cascade_without_llm_skips_the_llm_stage():
    _, info = env_info("blocksworld")
    cascade = make_translator("cascade")
    result = cascade("stakc blcok_a on top of block_b", info)
    assert (result.action, result.method, result.llm_calls, result.usage) == ("(stack block_a block_b)", "fuzzy",
                                                                                0, None)
    assert result.tried == ["template", "fuzzy"]
    none = cascade("the weather is nice today", info)
    assert none.action is None and none.method == "none" and "template:" in none.error and "fuzzy:" in none.error


def test_cascade_prefers_the_first_action_named_even_if_misspelt():
    _, info = env_info("blocksworld")
    cascade = make_translator("cascade")
    text = "stack block_d on top of blcok_a, then unstack block_b from on top of block_c"
    assert make_translator("template")(text, info).action == "(unstack block_b block_c)"
    assert cascade(text, info).action == "(stack block_d block_a)"


def test_cascade_names_reading_is_checked_against_the_template_order():
    _, info = env_info("grid")
    # 'unlock {lockpos} from {curpos}': the names-only reading takes the objects in PDDL order, which is wrong.
    result = make_translator("cascade")("unlock place_0-1 place_0-0 with key_0 of the shape_0", info)
    assert result.action == "(unlock place_0-0 place_0-1 key_0 shape_0)"


@pytest.mark.parametrize("domain", domain_names())
def test_cascade_on_generated_noise(domain):
    env, info = env_info(domain)
    rng = random.Random(f"test:{domain}")
    schemas = {s["name"]: s for s in info["action_schemas"]}
    nouns = sorted(info["type_nouns"], key=len, reverse=True)
    texts = [env.text.action(a) for a in env.task.actions]
    cascade = make_translator("cascade")
    wrong = []
    for action, text in zip(env.task.actions, texts):
        for _ in range(3):
            variant = noisy(text, str(action), schemas[action.name], nouns, rng.choice(texts), rng)
            result = cascade(variant, info)
            if result.action != str(action):
                wrong.append((variant, str(action), result.action))
            assert result.llm_calls == 0
    assert len(wrong) <= 0.01 * 3 * len(texts), wrong[:5]


# ---- robustness ---------------------------------------------------------------------------------------------
def _garbage_llm(messages) -> str:
    return random.Random(len(messages[-1]["content"])).choice(["", "(", "((stack", "(stack block_a)", "ok",
                                                                "(pick-up block_a)", "\x00\u202e"])


@pytest.mark.parametrize("kind", KINDS)
@given(text=st.one_of(st.text(max_size=300), st.text(alphabet="()-_ *`#>:.,\n abcdekstuplo_0123", max_size=200),
                      st.none(), st.integers(), st.binary(max_size=50)))
@settings(max_examples=60, deadline=None)
def test_translators_never_raise(kind, text):
    _, info = env_info("blocksworld")
    translator = make_translator(kind, llm=ScriptedLLM(_garbage_llm) if kind in ("tllm", "cascade") else None)
    result = translator(text, info)
    assert isinstance(result, TranslationResult)
    assert result.action is None or result.action in {str(a) for a in _env_info("blocksworld")[0].task.actions}
    assert 0.0 <= result.confidence <= 1.0
    assert result.method in ("pddl", "template", "names", "tllm", "fuzzy", "none")
    assert result.action is not None or result.error
    assert not (result.error or "").startswith("internal error"), result.error


@pytest.mark.parametrize("text", ["", "   ", None, "x" * 200_000, "(" * 5000, "a " * 20_000, "\x00" * 10,
                                  "block_a " * 3000, "Action: " * 2000])
def test_degenerate_inputs(text):
    _, info = env_info("depot")
    for kind in ("template", "fuzzy", "cascade"):
        result = make_translator(kind)(text, info)
        assert result.action is None and result.error and result.raw is text


def test_bad_info_never_raises():
    t = make_translator("cascade")
    for info in (None, {}, {"action_schemas": []}, {"action_schemas": [{"nope": 1}], "objects": {"a": "b"}},
                 {"action_schemas": "x"}):
        result = t("pick up a", info)
        assert result.action is None and result.error


# ---- the TranslatedActions wrapper --------------------------------------------------------------------------
def test_translator_plugs_into_translated_actions():
    env = TranslatedActions(PDDLTextEnv("blocksworld", problem=1), make_translator("cascade"))
    _, info = env.reset()
    action = info["admissible_actions"][0]
    english = env.unwrapped.text.action(env.unwrapped.task.parse_action(action))
    _, _, _, _, info = env.step(f"First, {english}. It helps.")
    assert info["action_valid"] and info["action"] == action
    assert info["translation"]["method"] == "template" and info["translation"]["confidence"] == 1.0


def test_tllm_in_the_wrapper_with_a_script_file():
    llm = ScriptedLLM(DATA / "tllm_script.txt")
    env = TranslatedActions(PDDLTextEnv("blocksworld", problem=1), make_translator("cascade", llm=llm))
    _, info = env.reset()
    _, _, _, _, info = env.step("grab the second block")
    assert info["translation"]["method"] == "tllm" and info["action"] == "(pick-up block_b)"
    assert len(llm.calls) == 1
