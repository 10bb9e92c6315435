"""The entry points benchmarks/adversarial.py attacks: every API that scores or executes model text.

Each `Entry` has `setup()` (run once, before the children fork), `cases(ctx)` (questions or problems it is called
on), `gold(ctx, case)` (the right answer, or None when one call cannot earn a reward), `call(ctx, case, text)` and
`reward(result)` (whether the result rewards the answer; None for entry points that give no reward). Entry points of
optional extras that are not installed are left out (`available_entries` says which and why).
"""

from __future__ import annotations

import asyncio
import importlib
import json
import tempfile
import types
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

ACP_DOMAIN = "ferry"
PLAN_DOMAIN = "blocksworld"
TEMPLATES = Path(__file__).resolve().parents[1] / "apb" / "integrations" / "templates"


@dataclass
class Entry:
    name: str
    setup: Callable[[], Any]
    call: Callable[[Any, int, str], Any]
    gold: Callable[[Any, int], str | None] = lambda ctx, case: None
    reward: Callable[[Any], bool] | None = None
    cases: Callable[[Any], int] = lambda ctx: 1
    official: Callable[[Any], bool] | None = None  # a verdict shown beside the reward, never used as one


# ---- shared set-ups (cached: each process builds them once) --------------------------------------------------------
@cache
def plan_task():
    from apb.datasets import resolve

    dataset = resolve(PLAN_DOMAIN)
    entry = dataset.problems[0]
    return dataset.task(entry.id), "\n".join(dataset.gold_plan(entry.id).actions)


@cache
def acp_questions(limit: int | None = None) -> list:
    """One question per reading apb's scorers make: a bool and an MCQ question (their readings do not depend on the
    task) and the generative question of every task (each its own reading and sound check); the first `limit`."""
    from apb.acp import generate

    questions, _ = generate(ACP_DOMAIN, count=1, seed=0)
    chosen = [q for q in questions if (q.task == "app" and q.format != "gen") or q.format == "gen"]
    return chosen[:limit]


def acp_gold(ctx, case: int) -> str:
    from apb.acp.evaluate import answer_text

    return answer_text(ctx[case])


@cache
def nl2pddl_pair() -> tuple[dict, Path]:
    from apb.nl2pddl import build_pairs

    folder = Path(tempfile.mkdtemp(prefix="apb-adversarial-pairs-"))
    [row] = build_pairs(PLAN_DOMAIN, 1, folder)
    return row, folder


def nl2pddl_domain():
    from apb.engine import load_domain
    from apb.nl2pddl.runner import domain_file_for

    row, folder = nl2pddl_pair()
    return load_domain(domain_file_for(row, folder))


def game_session(**options):
    from apb.integrations.game import GameSession

    session = GameSession(PLAN_DOMAIN, max_steps=None, **options)
    session.reset(problem=1)
    return session


def fresh_step(session, case: int, text: str):
    """One step from the initial state (the session is reset when a step ended the episode)."""
    if session.done:
        session.reset(problem=1)
    return session.step(text)


def template_module(name: str) -> types.ModuleType:
    """An lm-eval `utils.py` as `apb * export --format lm-eval` writes it."""
    module = types.ModuleType(f"apb_adversarial_{name}")
    exec(compile((TEMPLATES / name).read_text(encoding="utf-8"), str(TEMPLATES / name), "exec"), module.__dict__)
    return module


# ---- the entry points ------------------------------------------------------------------------------------------------
def _validate_entries() -> list[Entry]:
    return [Entry("Task.validate", lambda: plan_task(), lambda ctx, case, text: ctx[0].validate(text),
                  gold=lambda ctx, case: ctx[1], reward=lambda r: r.valid)]


def _env_entries() -> list[Entry]:
    def setup():
        import gymnasium

        import apb  # noqa: F401 - registers the ids

        env = gymnasium.make(f"apb/{PLAN_DOMAIN.capitalize()}-v0")
        env.reset(options={"problem": 1})
        return env

    def step(env, case, text):
        env.reset(options={"problem": 1})
        return env.step(text)

    return [Entry("PDDLTextEnv.step", setup, step, reward=lambda r: r[1] > 0)]


def _translator_entries() -> list[Entry]:
    def setup(kind):
        from apb.translators import make_translator

        return make_translator(kind), game_session(translator="template").info

    return [Entry(f"translator {kind}", lambda kind=kind: setup(kind),
                  lambda ctx, case, text: ctx[0].translate(text, ctx[1])) for kind in ("template", "fuzzy", "cascade")]


def _game_entries() -> list[Entry]:
    from apb.agents.act import split_react

    return [Entry("agents split_react (Act, ReAct)", lambda: None, lambda ctx, case, text: split_react(text)),
            Entry("GameSession.step", lambda: game_session(), fresh_step, reward=lambda t: t.reward > 0),
            Entry("GameSession.step (pddl)", lambda: game_session(description="pddl"), fresh_step,
                  reward=lambda t: t.reward > 0)]


def _acp_entries() -> list[Entry]:
    from apb.acp.scorers import extract, score_response

    def choices(q):
        return (q.choices or {}).get("text")

    return [
        Entry("acp extract", acp_questions, lambda qs, i, text: extract(text, qs[i].task, qs[i].format, choices(qs[i])),
              cases=len),
        Entry("acp score_response", acp_questions, lambda qs, i, text: score_response(qs[i], text)[1],
              gold=acp_gold, reward=lambda s: s.sound, cases=len, official=lambda s: s.official),
    ]


def _nl2pddl_entries() -> list[Entry]:
    from apb.equivalence import check
    from apb.nl2pddl import evaluate
    from apb.nl2pddl.runner import score_answer

    def setup():
        row, _ = nl2pddl_pair()
        return row["problem_pddl"], nl2pddl_domain()

    def equiv(ctx, case, text):
        from apb.engine.errors import ApbError

        try:
            return check(ctx[1], ctx[0], text).verdict
        except ApbError:  # documented: unreadable PDDL raises the engine's located error
            return "unreadable"

    gold = lambda ctx, case: ctx[0]  # noqa: E731
    return [Entry("nl2pddl evaluate", setup, lambda ctx, case, text: evaluate(ctx[0], text, ctx[1]), gold=gold,
                  reward=lambda e: e.correct),
            Entry("nl2pddl score_answer", setup, lambda ctx, case, text: score_answer(ctx[0], text, ctx[1]),
                  gold=gold, reward=lambda r: r["correct"]),
            Entry("equivalence check", setup, equiv, gold=gold, reward=lambda v: v == "equivalent")]


@cache
def planbench_records() -> tuple:
    """(config, records of t1/t2, t3 and t7, their gold answers) on PlanBench's blocksworld instance 5, the queries
    stating what apb reads back (the t3 plan, the t7 action sequence) in the config's wording."""
    from apb.datasets.planbench import load_config
    from apb.planbench.problems import base_task
    from apb.planbench.wording import object_text
    from apb.planners import solve

    config = load_config("blocksworld", "plan-bench")
    data = config.data
    task = base_task(config, 5)
    plan = [str(a) for a in solve(task, "astar").plan]

    def say(action: str) -> str:
        name, *args = action[1:-1].split()
        return data["actions"][name].format(*[object_text(a, data) for a in args])

    def state(facts) -> str:
        texts = [data["predicates"][f[1:-1].split()[0]].format(*[object_text(a, data) for a in f[1:-1].split()[1:]])
                 for f in sorted(facts)]
        return ", ".join(texts[:-1]) + " and " + texts[-1]

    lines = "\n".join(say(a) for a in plan)
    t1 = {"instance_id": 5, "query": "", "ground_truth_plan": "\n".join(plan)}
    # t3 asks whether a plan is valid: "The plan is valid" (a claim of success elsewhere) is an answer here, so the
    # plan asked about is invalid (its last step left out) and the right answer is "invalid"
    prefix = "\n".join(say(a) for a in plan[:-1])
    t3 = {"instance_id": 5, "query": f"[STATEMENT]\nMy plan is as follows:\n\n[PLAN]\n{prefix}\n[PLAN END]\n",
          "ground_truth_plan": "The above plan is invalid. These are the unmet goal conditions:\n"}
    after = task.facts(task.apply(task.initial_state, plan[0]))
    t7 = {"instance_id": 5, "query": f"[STATEMENT]\n[ACTION SEQUENCE]\n{say(plan[0])}\n[ACTION SEQUENCE END]\n",
          "ground_truth_plan": ["_".join(f[1:-1].split()) for f in after]}
    golds = {"t1": lines + "\n[PLAN END]", "t2": lines + f"\n[PLAN END]\nThe total time to execute the plan is "
             f"{len(plan)} minutes.", "t3": "The above plan is invalid.", "t7": state(after)}
    return config, {"t1": t1, "t2": t1, "t3": t3, "t7": t7}, golds


@cache
def planbench_questions() -> list:
    """Two PlanBench prompts of blocksworld_3 (as apb planbench prompts writes them): t1's first, and a t3 prompt
    whose plan is invalid (so "The plan is valid", a claim of success elsewhere, is t3's wrong answer here)."""
    from apb.planbench.questions import questions

    t3 = next(q for q in questions("blocksworld_3", "t3") if "invalid" in str(q.record["ground_truth_plan"]))
    return [questions("blocksworld_3", "t1", instances={2})[0], t3]  # t1's first prompt is instance 2


def planbench_gold(ctx, case: int) -> str:
    from apb.planbench.questions import gold_answer

    return gold_answer(ctx[case])


def _planbench_entries() -> list[Entry]:
    from apb.planbench.verdicts import score_record

    def entry(task: str, official: str) -> Entry:
        def call(ctx, case, text):
            config, records, _ = ctx
            return score_record(config, task, {**records[task], "llm_raw_response": text})

        return Entry(f"planbench score_record {task}", planbench_records, call,
                     gold=lambda ctx, case: ctx[2][task], reward=lambda r: r.get("apb_correct") is True,
                     official=lambda r: bool(r.get(official)))

    return [entry("t1", "llm_correct"), entry("t2", "llm_correct"), entry("t3", "llm_correct_binary"),
            entry("t7", "llm_correct")]


def _reasoning_gym_entries() -> list[Entry]:
    def plans():
        import reasoning_gym

        import apb.integrations.reasoning_gym  # noqa: F401

        data = reasoning_gym.create_dataset(f"apb_{PLAN_DOMAIN}", size=1, seed=3)
        return data, data[0]

    def acp(fmt):
        import reasoning_gym

        import apb.integrations.reasoning_gym  # noqa: F401

        data = reasoning_gym.create_dataset("apb_acp_app", size=1, seed=1, domain=ACP_DOMAIN, format=fmt)
        return data, data[0]

    def planbench(task):
        import reasoning_gym

        import apb.integrations.reasoning_gym  # noqa: F401

        data = reasoning_gym.create_dataset(f"apb_planbench_{task}", size=1, seed=1, config="blocksworld_3")
        # t3: a prompt whose plan is invalid ("The plan is valid" is its wrong answer: see planbench_questions)
        entry = next(e for e in (data[i] for i in range(100)) if "plan is valid" not in e["answer"])
        return data, entry

    score = lambda ctx, case, text: ctx[0].score_answer(text, ctx[1])  # noqa: E731
    gold = lambda ctx, case: ctx[1]["answer"]  # noqa: E731
    return [Entry("reasoning-gym apb_blocksworld", plans, score, gold=gold, reward=lambda r: r > 0),
            *[Entry(f"reasoning-gym apb_planbench_{task}", lambda task=task: planbench(task), score, gold=gold,
                    reward=lambda r: r > 0) for task in ("t1", "t3", "t7")],
            *[Entry(f"reasoning-gym apb_acp_app ({fmt})", lambda fmt=fmt: acp(fmt), score, gold=gold,
                    reward=lambda r: r > 0) for fmt in ("bool", "mcq", "gen")]]


def _gem_entries() -> list[Entry]:
    def game():
        import gem

        import apb.integrations.gem  # noqa: F401

        env = gem.make(f"apb:{PLAN_DOMAIN.capitalize()}-v0", problem=1)
        env.reset()
        return env

    def step(env, case, text):
        env.reset()
        return env.step(text)

    def rg():
        import gem

        import apb.integrations.gem  # noqa: F401

        env = gem.make(f"rg:apb_{PLAN_DOMAIN}")
        env.reset()
        return env

    return [Entry("GEM apb:Blocksworld-v0 step", game, step, reward=lambda r: r[1] > 0),
            Entry("GEM rg:apb_blocksworld step", rg, lambda env, case, text: env.step(text),
                  gold=lambda env, case: "\\boxed{" + env.data["answer"] + "}", reward=lambda r: r[1] > 0)]


def _verifiers_entries() -> list[Entry]:
    def setup():
        from apb.integrations.verifiers import load_environment

        env = load_environment(domain=PLAN_DOMAIN, problems="1", max_steps=1)
        [task] = env.taskset
        return env, task

    def rollout(ctx, case, text):
        from contextlib import asynccontextmanager

        import verifiers.v1 as vf

        env, task = ctx
        trace = vf.Trace(task=vf.TraceTask(type=type(task).__name__, data=task.data),
                         agent=vf.AgentInfo(config=env.config.player, name="player"))

        class Interaction:
            def __init__(self):
                self.trace = trace

            async def turn(self, message=None):
                return vf.Segment(messages=[], root_reply=text)

        class Agents:
            class player:  # verifiers names an agent by its config field
                @staticmethod
                @asynccontextmanager
                async def interaction(task):
                    yield Interaction()

        asyncio.run(env.run(task, Agents))
        return trace.reward

    return [Entry("verifiers rollout", setup, rollout, reward=lambda r: r > 0)]


def _inspect_entries() -> list[Entry]:
    def state(text: str, metadata: dict):
        from inspect_ai.model import ModelOutput
        from inspect_ai.solver import TaskState

        return TaskState(model="mockllm/model", sample_id=1, epoch=1, input="", messages=[],
                         output=ModelOutput.from_content("mockllm/model", text), metadata=metadata)

    def acp(qs, case, text):
        from inspect_ai.scorer import Target

        from apb.integrations.inspect_tasks import acp_answer

        return asyncio.run(acp_answer()(state(text, {"question": qs[case].to_dict()}), Target("")))

    def nl2pddl(ctx, case, text):
        from inspect_ai.scorer import Target

        from apb.integrations.inspect_tasks import problem_equivalence

        gold, domain_pddl = ctx
        return asyncio.run(problem_equivalence()(state(text, {"domain_pddl": domain_pddl, "is_placeholder": False}),
                                                 Target(gold)))

    def nl2pddl_setup():
        from apb.nl2pddl.runner import domain_file_for

        row, folder = nl2pddl_pair()
        return row["problem_pddl"], domain_file_for(row, folder).read_text(encoding="utf-8")

    def planbench(qs, case, text):
        from inspect_ai.scorer import Target

        from apb.integrations.inspect_tasks import planbench_verdict

        return asyncio.run(planbench_verdict()(state(text, {"planbench": qs[case].to_dict()}), Target("")))

    return [Entry("Inspect acp_answer", lambda: acp_questions(4), acp, gold=acp_gold,
                  reward=lambda s: s.value["sound"] > 0, cases=len),
            Entry("Inspect planbench_verdict", planbench_questions, planbench, gold=planbench_gold,
                  reward=lambda s: s.value["sound"] > 0, cases=len, official=lambda s: s.value["official"] > 0),
            Entry("Inspect problem_equivalence", nl2pddl_setup, nl2pddl, gold=lambda ctx, case: ctx[0],
                  reward=lambda s: s.value["correct"] > 0)]


def _lm_eval_entries() -> list[Entry]:
    def acp_setup():
        return template_module("lm_eval_utils.py.txt"), acp_questions(4)

    def nl2pddl_setup():
        from apb.nl2pddl.runner import domain_file_for

        row, folder = nl2pddl_pair()
        doc = {"target": row["problem_pddl"], "domain_file": str(domain_file_for(row, folder)),
               "is_placeholder": False}
        return template_module("lm_eval_nl2pddl_utils.py.txt"), doc

    return [Entry("lm-eval acp process_results", acp_setup,
                  lambda ctx, i, text: ctx[0].process_results({"question": json.dumps(ctx[1][i].to_dict())}, [text]),
                  gold=lambda ctx, i: acp_gold(ctx[1], i), reward=lambda r: r["sound"] > 0,
                  cases=lambda ctx: len(ctx[1])),
            Entry("lm-eval planbench process_results",
                  lambda: (template_module("lm_eval_planbench_utils.py.txt"), planbench_questions()),
                  lambda ctx, i, text: ctx[0].process_results({"question": json.dumps(ctx[1][i].to_dict())}, [text]),
                  gold=lambda ctx, i: planbench_gold(ctx[1], i), reward=lambda r: r["sound"] > 0,
                  cases=lambda ctx: len(ctx[1]), official=lambda r: r["official"] > 0),
            Entry("lm-eval nl2pddl process_results", nl2pddl_setup,
                  lambda ctx, case, text: ctx[0].process_results(ctx[1], [text]),
                  gold=lambda ctx, case: ctx[1]["target"], reward=lambda r: r["correct"] > 0)]


def _openenv_entries() -> list[Entry]:
    def step(ctx, case, text):
        import os

        from fastapi.testclient import TestClient

        from apb.integrations.openenv import create_app

        # an app and a client per process: the server's worker threads made before a fork exist in the parent only
        client = ctx.get(os.getpid()) or ctx.setdefault(os.getpid(), TestClient(create_app(PLAN_DOMAIN, problem=1)))
        # json.dumps escapes a lone surrogate (\ud800), as a JSON client sends it
        response = client.post("/step", content=json.dumps({"action": {"text": text}}),
                               headers={"content-type": "application/json"})
        if response.status_code >= 500:
            raise RuntimeError(f"HTTP {response.status_code}: {response.text[:200]}")
        return response.json()

    return [Entry("OpenEnv /step", dict, step, reward=lambda r: (r.get("reward") or 0) > 0)]


def available_entries() -> tuple[list[Entry], list[tuple[str, str]]]:
    """(the entry points whose packages are installed, [(group, why it is left out)])."""
    groups = {"verifiers": ("verifiers.v1", _verifiers_entries), "inspect": ("inspect_ai", _inspect_entries),
              "lm-eval": ("lm_eval", _lm_eval_entries), "openenv": ("openenv.core", _openenv_entries),
              "reasoning-gym": ("reasoning_gym", _reasoning_gym_entries), "gem": ("gem", _gem_entries)}
    entries = [*_validate_entries(), *_env_entries(), *_translator_entries(), *_game_entries(), *_acp_entries(),
               *_nl2pddl_entries(), *_planbench_entries()]
    missing = []
    for group, (module, build) in groups.items():
        try:
            importlib.import_module(module)
        except ImportError as err:
            missing.append((group, str(err)))
            continue
        entries += build()
    return entries, missing
