"""Inspect AI tasks: `apb/game` (the text games), `apb/acp` (ACP questions), `apb/nl2pddl` (NL -> PDDL) and
`apb/planbench` (PlanBench's tasks).

Installing apb with the `inspect` extra registers them through Inspect's `inspect_ai` package entry point:

    inspect eval apb/game -T domain=blocksworld -T problems=1-2 -T agent=react --model openai/gpt-4o-mini

`apb/game` plays each problem with one of apb's agents (act, react, closed-loop, ... exactly as `apb eval` runs
them), in plain text turns: the agent builds the prompts and its LLM calls go to the Inspect model (each one a
model event of the log), the env's feedback comes back as the next user turn, and apb's translator turns the
model's English into PDDL actions. The scorer says whether the goal was reached (1 or 0) and keeps the plan
length, the optimal length, the invalid actions, the stop reason and every step as metadata. `-T` parameters:
`domain`, `problems` (as in `apb eval`: 1-5, 1,3, all), `split`, `agent` (act, react, closed-loop:horizon=H, ...),
`description` (curated, rule, obfuscated, shuffled, an nl.yaml), `translator`, `seeds`, `max_steps`,
`require_finish`.

`apb/acp` asks ACP questions with `apb acp eval`'s messages (`-T questions=FILE_OR_DIR`, apb's or ACPBench's
released files, or `-T domain=D -T tasks=app,reach -T formats=bool -T count=N` to generate them; `shots`, `cot`)
and scores the extracted answer with apb's scorers: `official` (ACPBench's semantics) and `sound`. `apb/nl2pddl`
asks for a problem's PDDL from its description (`-T pairs=FILE`, or `-T dataset=D -T count=N` to build pairs) and
scores Planetarium's (parseable, solvable, correct) with apb's equivalence checker. `apb/planbench` asks a PlanBench
task's prompts for a config (`-T config=blocksworld -T task=t1`, `folder`, `instances=1-20`, `variant`) as `apb
planbench eval` does and scores `official` (PlanBench's verdict) and `sound` (apb's).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from apb.integrations import as_flag, require

require("inspect_ai", "inspect")

import anyio  # noqa: E402  (Inspect's own dependency, present once inspect_ai is)
from inspect_ai import Task, task  # noqa: E402
from inspect_ai.dataset import MemoryDataset, Sample  # noqa: E402
from inspect_ai.model import (  # noqa: E402
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageUser,
    GenerateConfig,
    Model,
    get_model,
)
from inspect_ai.scorer import CORRECT, INCORRECT, Score, Target, accuracy, scorer, stderr  # noqa: E402
from inspect_ai.solver import Generate, TaskState, solver  # noqa: E402

from apb.llm import Completion, Usage  # noqa: E402

INSPECT_MODEL = "inspect"  # the model name apb records for episodes whose LLM is Inspect's


class InspectLLM:
    """apb's LLM protocol on an Inspect model, for agents that run in a worker thread of Inspect's event loop:
    each `complete` goes back to the loop (`anyio.from_thread.run`), so Inspect logs it as a model event.
    `choices` (constrained decoding, the Act agent's `constrained` option) is not passed on: Inspect has no such
    option, so the answer is free text and the agent's translator reads it."""

    spec = INSPECT_MODEL

    def __init__(self, model: Model) -> None:
        self.model = model
        self.last_messages: list[Any] = []
        self.failure: BaseException | None = None  # the model's last error (401, 500 after retries, ...), re-raised

    def complete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                 choices=None) -> Completion:
        return anyio.from_thread.run(self._generate, list(messages), max_tokens, temperature, stop, seed)

    async def acomplete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None,
                        choices=None) -> Completion:
        return await self._generate(list(messages), max_tokens, temperature, stop, seed)

    async def _generate(self, messages, max_tokens, temperature, stop, seed) -> Completion:
        chat = [to_inspect_message(m) for m in messages]
        # Inspect's OpenAI provider ignores `seed` and `stop_seqs` on the Responses API and warns about them (on
        # every sample of a game): there, neither is sent, and the stop sequences are applied to the answer here.
        responses = bool(getattr(getattr(self.model, "api", None), "responses_api", False))
        stops = [s for s in stop or () if s]
        config = GenerateConfig(max_tokens=max_tokens, temperature=temperature, seed=None if responses else seed,
                                stop_seqs=None if responses or not stops else stops)
        start = time.perf_counter()
        try:
            output = await self.model.generate(chat, config=config)
        except Exception as err:
            self.failure = err  # apb's episode records it and stops; apb_agent raises it for Inspect
            raise
        text = output.completion
        if responses and stops:
            text = text[:min((text.find(s) for s in stops if s in text), default=len(text))]
        self.last_messages = [*chat, ChatMessageAssistant(content=text)]
        usage = output.usage
        return Completion(text,
                          Usage(usage.input_tokens, usage.output_tokens) if usage is not None else Usage(),
                          cost=None, latency=time.perf_counter() - start, model=str(self.model),
                          provider=INSPECT_MODEL, finish_reason=output.stop_reason)


class EpisodeError(RuntimeError):
    """An apb episode ended in an error that was not the model's (an agent's or env's bug)."""


def to_inspect_message(message: dict) -> Any:
    role, content = message.get("role"), str(message.get("content", ""))
    if role == "system":
        return ChatMessageSystem(content=content)
    if role == "assistant":
        return ChatMessageAssistant(content=content)
    return ChatMessageUser(content=content)


# ---- apb/game -------------------------------------------------------------------------------------------------
def game_samples(domain: str, problems: Any, *, split: str = "test", agent: str = "act",
                 description: str = "curated", translator: str = "cascade", seeds: Any = 1,
                 max_steps: int | None = None, require_finish: bool = False) -> list[Sample]:
    """One Sample per episode `apb eval` would run for these settings (checked the same way before anything runs);
    its input is the problem's task text, its metadata the episode spec."""
    from apb.eval.episode import build_env
    from apb.eval.episode_specs import plan_episodes

    specs = plan_episodes([domain], [agent], problems, seeds, model=INSPECT_MODEL, split=split,
                          translator=translator, require_finish=require_finish, max_steps=max_steps,
                          description=description)
    samples = []
    for spec in specs:
        env, _ = build_env(spec)
        try:
            observation, info = env.reset(seed=spec.seed, options={"problem": spec.problem})
        finally:
            env.close()
        samples.append(Sample(input=observation, target="goal reached",
                              id=f"{spec.domain_name}-{info['problem_id']}-{spec.agent}-s{spec.seed}",
                              metadata={"spec": spec.to_dict(), "problem_id": info["problem_id"],
                                        "optimal_length": info.get("optimal_plan_length")}))
    return samples


def play_episode(spec_data: dict, llm: Any) -> dict:
    """Runs one apb episode (in a worker thread) and returns what the scorer needs."""
    from apb.agents import run_episode
    from apb.eval.episode import build_agent, build_env
    from apb.eval.trajectory import EpisodeSpec

    spec = EpisodeSpec(**spec_data)
    env, _ = build_env(spec)
    try:
        first = env.reset(seed=spec.seed, options={"problem": spec.problem})
        agent = build_agent(spec, llm)
        try:
            result = run_episode(env, agent, max_steps=spec.horizon, first=first)
        finally:
            agent.close()
    finally:
        env.close()
    plan = [s.action for s in result.steps if s.action_valid and s.action not in ("(finish)", "(look-around)")]
    return {"goal_reached": result.success, "stop_reason": result.stop_reason, "error": result.error,
            "detail": result.detail, "steps": len(result.steps), "invalid_actions": result.invalid_actions,
            "plan_length": len(plan), "plan": plan,
            "transcript": [{"action": s.action, "valid": s.action_valid, "observation": s.observation}
                           for s in result.steps]}


@solver
def apb_agent():
    """Plays the sample's episode with the apb agent of its spec, the Inspect model answering the agent's calls. An
    episode that ended in an error (the model's, an API's, the agent's) is the sample's error, as Inspect records
    it for any task (log status `error`; `--retry-on-error` and `eval-retry` run it again), never a wrong answer."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        llm = InspectLLM(get_model())
        outcome = await anyio.to_thread.run_sync(play_episode, state.metadata["spec"], llm)
        if outcome["stop_reason"] == "error":
            if llm.failure is not None:
                raise llm.failure
            raise EpisodeError(f"the apb episode failed: {outcome['error']}")
        if llm.last_messages:
            state.messages = llm.last_messages
        state.metadata["apb"] = outcome
        state.output.completion = "\n".join(outcome["plan"])
        state.completed = True
        return state

    return solve


@scorer(metrics=[accuracy(), stderr()])
def goal_reached():
    """1 when the episode reached the goal, else 0; plan length, optimal length and the steps as metadata."""

    async def score(state: TaskState, target: Target) -> Score:
        outcome = state.metadata.get("apb") or {}
        optimal = state.metadata.get("optimal_length")
        reached = bool(outcome.get("goal_reached"))
        explanation = (f"goal reached in {outcome.get('plan_length')} actions (optimal {optimal})" if reached else
                       f"goal not reached: {outcome.get('stop_reason')} {outcome.get('detail') or ''}".strip())
        return Score(value=CORRECT if reached else INCORRECT, answer="\n".join(outcome.get("plan", [])),
                     explanation=explanation,
                     metadata={**{k: outcome.get(k) for k in ("plan_length", "steps", "invalid_actions",
                                                               "stop_reason", "error", "transcript")},
                               "optimal_length": optimal})

    return score


@task
def game(domain: str = "blocksworld", problems: str = "1-5", split: str = "test", agent: str = "act",
         description: str = "curated", translator: str = "cascade", seeds: int = 1, max_steps: int | None = None,
         require_finish: bool = False) -> Task:
    """apb's text game as an agent task: the model plays each problem through apb's agent, scored by goal reached."""
    samples = game_samples(domain, _text(problems), split=split, agent=agent, description=description,
                           translator=translator, seeds=int(seeds),
                           max_steps=None if max_steps is None else int(max_steps),
                           require_finish=as_flag(require_finish))
    return Task(dataset=MemoryDataset(samples, name=f"apb-{domain}"), solver=apb_agent(), scorer=goal_reached(),
                metadata={"apb_domain": domain, "apb_agent": agent, "apb_description": description})


# ---- apb/acp --------------------------------------------------------------------------------------------------
def acp_samples(questions: list, *, shots: int = 2, cot: bool = False, examples: list | None = None) -> list[Sample]:
    """One Sample per ACP question: the messages `apb acp eval` sends (system, shots, question), the gold answer
    as the target (as a model is asked to write it) and the question record for the scorer."""
    from apb.acp.evaluate import answer_text, build_messages, pick_shots

    pool: dict[str, list] = {}
    for q in questions if examples is None else examples:
        pool.setdefault(q.group, []).append(q)
    return [Sample(input=[to_inspect_message(m) for m in build_messages(q, pick_shots(q, pool, shots), cot)],
                   target=answer_text(q), id=f"{q.group}-{q.id}",
                   metadata={"question": q.to_dict(), "group": q.group, "domain": q.domain})
            for q in questions]


@scorer(metrics={"official": [accuracy(), stderr()], "sound": [accuracy(), stderr()]})
def acp_answer():
    """apb's ACP scorers on the response: `official` (ACPBench's code, reading the raw text) and `sound` (apb's,
    on the extracted answer)."""

    async def score(state: TaskState, target: Target) -> Score:
        from apb.acp import MISSING, Question
        from apb.acp.scorers import score_response

        q = Question.from_dict(state.metadata["question"])
        answer, verdict = score_response(q, state.output.completion)  # as apb acp eval scores a response
        return Score(value={"official": float(verdict.official), "sound": float(verdict.sound)},
                     answer=None if answer is MISSING else str(answer), explanation=verdict.reason,
                     metadata={"extracted": answer is not MISSING, "gold": q.answer})

    return score


@task
def acp(questions: str | None = None, domain: str = "blocksworld", tasks: str = "all", formats: str = "all",
        count: int = 2, seed: int = 0, shots: int = 2, cot: bool = False) -> Task:
    """ACP questions: `questions` (an apb questions file/folder or ACPBench's released files, as `apb acp eval`
    reads them), else `count` fresh ones per task and format about `domain`; scored by apb's ACP scorers."""
    from apb.acp import FORMATS, TASKS, generate, read_questions

    if questions:
        items = read_questions(questions, scored_by="the apb/acp task (its scorer compares with the gold)")
        name = f"apb-acp-{Path(str(questions)).stem}"
    else:
        items, _ = generate(domain, tasks=_choices(tasks, TASKS, "task"), formats=_choices(formats, FORMATS, "format"),
                            count=int(count), seed=int(seed))
        name = f"apb-acp-{domain}"
    return Task(dataset=MemoryDataset(acp_samples(items, shots=int(shots), cot=as_flag(cot)), name=name),
                solver=generate_answer(), scorer=acp_answer())


@solver
def generate_answer():
    """One completion of the sample's messages at temperature 0 (as `apb acp eval` / `apb nl2pddl eval` ask)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        return await generate(state, temperature=0.0)

    return solve


# ---- apb/nl2pddl ----------------------------------------------------------------------------------------------
def nl2pddl_samples(rows: list[dict], base: Path, *, shots: int = 0) -> list[Sample]:
    """One Sample per (description, gold problem) pair: `apb nl2pddl eval`'s messages, the gold as the target."""
    from apb.nl2pddl.runner import domain_file_for, messages_for, shots_for

    samples = []
    for row in rows:
        path = domain_file_for(row, base)
        domain_pddl = path.read_text(encoding="utf-8")
        messages = messages_for(row, domain_pddl, shots_for(rows, row, shots))
        samples.append(Sample(input=[to_inspect_message(m) for m in messages], target=row["problem_pddl"],
                              id=str(row["id"]), metadata={"domain_pddl": domain_pddl, "domain": row.get("domain"),
                                                          "is_placeholder": bool(row.get("is_placeholder"))}))
    return samples


@scorer(metrics={"parseable": [accuracy()], "solvable": [accuracy()], "correct": [accuracy(), stderr()]})
def problem_equivalence():
    """Planetarium's triple for the generated problem against the gold one, by apb's checker."""

    async def score(state: TaskState, target: Target) -> Score:
        from apb.engine import load_domain
        from apb.nl2pddl.runner import score_answer

        result = await anyio.to_thread.run_sync(  # as apb nl2pddl eval scores an answer
            lambda: score_answer(target.text, state.output.completion, load_domain(state.metadata["domain_pddl"]),
                                 placeholder=state.metadata["is_placeholder"]))
        return Score(value={k: float(bool(result[k])) for k in ("parseable", "solvable", "correct")},
                     answer=result["predicted"],
                     explanation=(result.get("gold_error") or result.get("answer_error") or result.get("reason")
                                  or result.get("verdict")),
                     metadata={k: result.get(k) for k in ("planner_status", "verdict", "gold_error")})

    return score


@task
def nl2pddl(pairs: str | None = None, dataset: str = "blocksworld", count: int = 5, shots: int = 0) -> Task:
    """NL -> PDDL: `pairs` (a pairs file from `apb nl2pddl build` or Planetarium's import), else the pairs of the
    first `count` problems of `dataset`; scored (parseable, solvable, correct) by apb's checker."""
    import tempfile

    from apb.nl2pddl import build_pairs
    from apb.nl2pddl.planetarium import read_pairs

    if pairs:
        rows, base = read_pairs(pairs), Path(pairs).resolve().parent
        samples = nl2pddl_samples(rows, base, shots=int(shots))
    else:  # the samples carry the domain text, so the pairs' folder is not needed once they are built
        with tempfile.TemporaryDirectory(prefix="apb-nl2pddl-") as folder:
            rows = build_pairs(dataset, int(count), Path(folder))
            samples = nl2pddl_samples(rows, Path(folder), shots=int(shots))
    return Task(dataset=MemoryDataset(samples, name=f"apb-nl2pddl-{dataset}"),
                solver=generate_answer(), scorer=problem_equivalence())


# ---- apb/planbench ---------------------------------------------------------------------------------------------
def planbench_samples(items: list) -> list[Sample]:
    """One Sample per PlanBench prompt: `apb planbench eval`'s messages (PlanBench's system message and query), the
    gold answer as the prompt asks for it, the question for the scorer."""
    from apb.planbench.questions import gold_answer

    return [Sample(input=[to_inspect_message(m) for m in q.messages()], target=gold_answer(q), id=q.id,
                   metadata={"planbench": q.to_dict()}) for q in items]


@scorer(metrics={"official": [accuracy(), stderr()], "sound": [accuracy(), stderr()]})
def planbench_verdict():
    """PlanBench's verdict (`official`, as its evaluation computes it; t3: binary) and apb's sound one."""

    async def score(state: TaskState, target: Target) -> Score:
        from apb.planbench.questions import PlanBenchQuestion, verdict

        q = PlanBenchQuestion.from_dict(state.metadata["planbench"])
        result = await anyio.to_thread.run_sync(lambda: verdict(q, state.output.completion))
        record = result["record"] or {}
        return Score(value={"official": float(result["official"]), "sound": float(result["sound"])},
                     answer=None if record.get("apb_plan") is None else str(record["apb_plan"]),
                     explanation=record.get("apb_reason"))

    return score


@task
def planbench(config: str = "blocksworld", task: str = "t1", folder: str | None = None, instances: Any = None,
              variant: str = "prompts", max_tokens: int = 2048) -> Task:
    """A PlanBench task's prompts for a config (`apb planbench prompts`), asked as `apb planbench eval` asks them;
    scored by PlanBench's verdict and apb's sound one."""
    from apb.planbench.questions import parse_instances, questions

    items = questions(config, task, folder=folder, variant=variant,
                      instances=parse_instances(None if instances is None else _text(instances)))
    name = f"apb-planbench-{config}-{items[0].task if items else task}"
    return Task(dataset=MemoryDataset(planbench_samples(items), name=name), solver=generate_answer(),
                scorer=planbench_verdict(), config=GenerateConfig(max_tokens=int(max_tokens)))


def _choices(value: Any, allowed: tuple[str, ...], what: str) -> list[str]:
    from apb.acp import ACPError

    text = _text(value)
    names = list(allowed) if text == "all" else [v.strip().lower() for v in text.split(",") if v.strip()]
    for name in names:
        if name not in allowed:
            raise ACPError(f"unknown {what} {name!r}: use {', '.join(allowed)} or all")
    return names


def _text(value: Any) -> str:
    """A -T value as the text it was typed as: Inspect splits `a,b` into a list (`-T problems=1,3`)."""
    return ",".join(str(v) for v in value) if isinstance(value, list | tuple) else str(value)


__all__ = ["InspectLLM", "acp", "acp_answer", "acp_samples", "apb_agent", "game", "game_samples", "goal_reached",
           "nl2pddl", "nl2pddl_samples", "planbench", "planbench_samples", "planbench_verdict", "play_episode",
           "problem_equivalence"]
