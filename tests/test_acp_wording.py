"""apb's ACP records read like ACPBench's: template by template against the released dev split.

Each (task, form) template of `apb/prompts/acp/questions.yaml` becomes a pattern (a placeholder matches any text);
every released dev record of that task and form must match one of the task's patterns (so the templates are the
release's, with every variant it uses), and so must every record apb generates on the released domains it bundles;
MCQ options follow the question inline as released; contexts open with a description of the domain, state the goal
and the legend of actions or propositions where the release does, in its order; instructions stay out of records.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from apb.acp import generate
from apb.acp.records import TASKS, task_formats
from apb.acp.wording import Wording, phrases

DEV = Path(__file__).resolve().parents[1] / ".." / "shared" / "reference" / "acpbench" / "dataset"
# the released domains apb bundles (Alfworld and Swap come only with the release's test split, not bundled)
DOMAINS = ("blocksworld", "depot", "ferry", "floortile", "goldminer", "grid", "grippers", "logistics", "rovers",
           "satellite", "visitall")
GOAL = "The goal is to reach a state where the following facts hold:"
LEGENDS = {"actions": "The available actions are: ", "propositions": "The available propositions are: "}
LEGEND_ITEM = r"\([^()\s]+(?: \?[^()\s]+)*\) - "
INSTRUCTIONS = ("Provide only", "Provide one", "in PDDL format", "Answer only")


def _pattern(template: str) -> re.Pattern:
    parts = re.split(r"\{[a-z_]+\}", template)
    return re.compile("(?s)" + ".+".join(re.escape(p) for p in parts))


def _variants(entry) -> list[str]:
    return entry if isinstance(entry, list) else [entry]


def _question_patterns(task: str, fmt: str) -> list[re.Pattern]:
    p = phrases()[task]
    return [_pattern(t) for t in _variants(p["mcq" if fmt == "mcq" else fmt])]


def _released(task: str, fmt: str) -> list[dict]:
    path = DEV / task / f"dev.{fmt}.json"
    if not path.is_file():
        pytest.skip(f"no ACPBench dev split at {DEV}")
    return json.loads(path.read_text())


def _description(domain: str, problem: str, description: str = "curated") -> str:
    from apb.datasets import resolve

    dataset = resolve(domain)
    return Wording(dataset.task(problem), description=description, domain_file=dataset.domain_file).description()


@pytest.fixture(scope="module")
def generated() -> dict[tuple[str, str], list[tuple[dict, str]]]:
    """(record, the description of its domain) per task and form, one per group and released domain apb bundles."""
    records: dict[tuple[str, str], list[tuple[dict, str]]] = {}
    for domain in DOMAINS:
        questions, _ = generate(domain, count=1, seed=0)
        description = _description(domain, questions[0].problem)
        for q in questions:
            records.setdefault((q.task, q.format), []).append((q.acpbench(), description))
    return records


def _check_question(record: dict, task: str, fmt: str) -> int:
    """The index of the template variant the record's question fits (AssertionError when none does)."""
    question = record["question"]
    if fmt == "mcq":
        inline = " " + " ".join(f"{label}. {text}." for label, text in
                                zip(record["choices"]["label"], record["choices"]["text"]))
        assert question.endswith(inline), f"options not inline as released: {question[-200:]!r}"
        question = question[: -len(inline)]
        assert any(p.fullmatch(record["query"]) for p in map(_pattern, _variants(phrases()[task]["query"]))), \
            f"{task} query {record['query']!r} is no template of the release"
    fits = [i for i, p in enumerate(_question_patterns(task, fmt)) if p.fullmatch(question)]
    assert fits, f"{task} {fmt} question {question[:300]!r} fits no template"
    return fits[0]


def _check_context(record: dict, task: str, fmt: str, description: str | None) -> None:
    context, p = record["context"], phrases()[task]
    assert context.index("Currently, ") > 0, "the context states the state after the domain's description"
    if description is not None:
        assert context.startswith(description + (" \n" if fmt == "gen" else " ")), context[:200]
    assert (GOAL in context) == bool(p.get("goal")), f"{task} {fmt}: goal sentence, goal task: {p.get('goal')}"
    for kind, start in LEGENDS.items():
        wanted = fmt == "gen" and p["legend"] == kind
        assert (start in context) == wanted, f"{task} {fmt}: legend {kind} {'missing' if wanted else 'added'}"
        if wanted:
            assert re.match(LEGEND_ITEM, context.split(start, 1)[1]), context.split(start, 1)[1][:120]
            if p.get("goal"):
                assert (context.index(start) < context.index(GOAL)) == bool(p.get("legend_first"))
    if fmt == "gen":
        assert " \n" in context.split("Currently,")[0], "generative contexts break the lines as released"


@pytest.mark.parametrize("task", TASKS)
def test_every_released_record_fits_apbs_templates(task):
    """The templates are the release's: each released dev record of a task and form fits one of them, and every
    variant apb has is one the release uses."""
    for fmt in task_formats(task):
        records = _released(task, fmt)
        used = set()
        for record in records:
            used.add(_check_question(record, task, fmt))
            _check_context(record, task, fmt, None)
        assert used == set(range(len(_question_patterns(task, fmt)))), f"{task} {fmt}: a variant the release lacks"


@pytest.mark.parametrize("task", TASKS)
def test_generated_records_read_like_the_release(task, generated):
    """apb's records on the released domains it bundles: the release's question, query and inline options, and a
    context that opens with the domain's description, states the goal and the legend where the release does."""
    for fmt in task_formats(task):
        records = generated.get((task, fmt), [])
        assert len(records) >= len(DOMAINS) - 2, f"{task} {fmt}: {len(records)} records on {len(DOMAINS)} domains"
        for record, description in records:
            _check_question(record, task, fmt)
            _check_context(record, task, fmt, description)
            assert not any(s in record["question"] for s in INSTRUCTIONS), record["question"]


def test_context_opens_with_the_description():
    """A description file's intro opens the context; without one (rule-based templates), a description built from
    the domain's NL templates does, never the placeholder "I am acting in ..."."""
    from apb.datasets import resolve

    for description in ("curated", "rule"):
        questions, _ = generate("ferry", tasks=["app"], formats=["bool", "gen"], count=1, seed=0,
                                description=description)
        opening = _description("ferry", questions[0].problem, description)
        for q in questions:
            _check_context(q.acpbench(), q.task, q.format, opening)
    dataset = resolve("ferry")
    curated = Wording(dataset.task(questions[0].problem), domain_file=dataset.domain_file)
    assert _description("ferry", questions[0].problem) == curated.templates.intro  # the description file's
    built = _description("ferry", questions[0].problem, "rule")
    assert built.startswith("This is the ferry domain. The actions are: ") and "sail" in built, built
    assert "I am acting" not in built


@pytest.mark.parametrize("task", TASKS)
def test_the_prompt_carries_the_lm_eval_configs_instructions(task, generated):
    """How to answer is in the prompt, where ACPBench's lm-eval config of the task puts it, not in the record."""
    import yaml

    from apb.acp.evaluate import build_messages
    from apb.acp.records import Question

    name = {"areach": "act_reach", "nexta": "next_act"}.get(task, task)
    config = DEV.parent / "configs" / "tasks" / "acp_gen_chat" / f"{name}.yaml"
    if not config.is_file():
        pytest.skip(f"no ACPBench lm-eval configs at {config.parent}")
    suffix = yaml.safe_load(config.read_text())["doc_to_text"].replace("{{context}} {{question}}", "").strip()
    record, _ = generated[task, "gen"][0]
    q = Question(id=record["id"], task=task, format="gen", context=record["context"], question=record["question"])
    prompt = build_messages(q, [], cot=False)[-1]["content"]
    assert record["question"] in prompt and suffix in prompt
    assert not suffix or suffix not in record["question"]
