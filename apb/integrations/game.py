"""One apb text game played through text turns: the piece every turn-based adapter (verifiers, OpenEnv) shares.

    game = GameSession("blocksworld")
    first = game.reset(problem=1)          # the task text (the system prompt is game.system_prompt)
    turn = game.step("unstack block b from block d")   # free text -> apb's translator -> env.step
    turn.observation, turn.reward, turn.done, turn.valid; game.summary()

The env is `gymnasium.make("apb/PDDL-v0", domain=...)` as `apb eval` builds it, with the same default step limit
(twice the split's longest gold plan, at least AutoPlanBench's 24: `apb.eval.trajectory.split_step_limit`) and the
same reward (1.0 when the goal is reached). The model's text is read as Act
and ReAct read it (an "Action:" line, else the first line; "I am finished" and "look around" are commands) and
turned into a grounded action by `apb.translators.make_translator`; text no translator understands is sent as
it is, so the env's feedback says what is wrong with it. The prompts are the Act agent's (apb/prompts/agents/act).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from apb.agents.act import PDDL_ACTION, command_of, english_action, first_line, split_react
from apb.engine.errors import ApbError
from apb.engine.limits import MAX_TURN_CHARS, clean
from apb.integrations import as_steps
from apb.prompts import fill_prompt

DEFAULT_MAX_STEPS = "default"  # the split's step limit, as `apb eval` gives an LLM agent


@dataclass
class Turn:
    """What one model turn did: its text, the action sent to the env, and what the env answered."""

    text: str
    action: str
    observation: str
    reward: float
    terminated: bool
    truncated: bool
    valid: bool
    failure: dict[str, Any] | None
    info: dict[str, Any] = field(repr=False)

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    @property
    def goal_reached(self) -> bool:
        return bool(self.info.get("goal_reached"))


class GameSession:
    """A problem of an apb domain as a text game: `reset` gives the task text, `step(text)` plays one turn.

    `description`: curated | rule | pddl | a variant or nl.yaml path (as in `apb eval`); with `pddl` the model
    reads PDDL and writes PDDL actions. `hints`: list the admissible actions after each observation (off by
    default, as in the papers). `translator`: an `apb.translators` kind (`cascade` by default, as in `apb eval`;
    `tllm` and an LLM stage need `llm`)."""

    def __init__(self, domain: str = "blocksworld", *, split: str = "test", description: str = "curated",
                 translator: str = "cascade", llm: Any = None, max_steps: int | str | None = DEFAULT_MAX_STEPS,
                 require_finish: bool = False, hints: bool = False) -> None:
        import gymnasium

        from apb.envs.registration import GENERIC_ID, register_envs
        from apb.translators import make_translator

        max_steps = as_steps(max_steps)  # a command line's option (verifiers' --env.taskset.max-steps 4, GEM's kwargs)
        if max_steps == DEFAULT_MAX_STEPS:
            from apb.eval.trajectory import split_step_limit

            max_steps = split_step_limit(domain, split)
        if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 1):
            raise ApbError(f"bad max_steps {max_steps!r}: at least 1 step, 'default' or None for no limit")
        register_envs()
        self.domain, self.split, self.description = domain, split, description
        self.max_steps, self.hints = max_steps, hints
        self.env = gymnasium.make(GENERIC_ID, domain=domain, split=split, description=description,
                                  require_finish=require_finish, max_episode_steps=max_steps)
        self.translator = None if description == "pddl" else make_translator(translator, llm=llm)
        self.info: dict[str, Any] = {}
        self.turns: list[Turn] = []
        self.observation = ""

    # ---- the episode ------------------------------------------------------------------------------------------
    def reset(self, problem: int | str | None = None, seed: int | None = None) -> str:
        """Starts an episode on `problem` (number, id or path; None: the env's own choice, its `problem=` if it was
        made with one, else a problem drawn with `seed`, as `env.reset` does); returns the task text."""
        options = {"problem": problem} if problem is not None else None
        self.observation, self.info = self.env.reset(seed=seed, options=options)
        self.turns = []
        return self.with_hints(self.observation)

    @property
    def system_prompt(self) -> str:
        """The Act agent's instructions with the domain's description (PDDL domain for description=pddl)."""
        self._require_reset()
        if self.description == "pddl":
            return fill_prompt("agents/act/system_pddl", domain_pddl=str(self.info["domain_description"]).strip())
        return fill_prompt("agents/act/system", domain_description=str(self.info["domain_description"]).strip())

    def step(self, text: str) -> Turn:
        """One turn: the model's text -> a grounded action -> env.step. Never raises on any text: lone surrogates
        become U+FFFD, and a text over `apb.engine.limits.MAX_TURN_CHARS` goes to the env unread, which refuses it
        (an invalid action, a syntax failure)."""
        self._require_reset()
        if self.done:
            raise ApbError("the episode is over: call reset() before step()")
        text = clean(text if isinstance(text, str) else str(text))
        action = text if len(text) > MAX_TURN_CHARS else self.action_of(text)
        observation, reward, terminated, truncated, info = self.env.step(action)
        self.observation, self.info = observation, info
        turn = Turn(text, action, self.with_hints(observation), float(reward), bool(terminated), bool(truncated),
                    bool(info.get("action_valid", True)), info.get("failure"), info)
        self.turns.append(turn)
        return turn

    def action_of(self, text: str) -> str:
        """The action the env gets for a model's text (a PDDL action, a command, or the text itself)."""
        _, labelled = split_react(text)
        line = first_line(labelled if labelled is not None else text)
        command = command_of(line)
        if command is not None:
            return command
        if self.translator is None:  # the PDDL view: the first (...) of the text
            found = PDDL_ACTION.search(text)
            return " ".join(found.group(0).split()).lower() if found else line
        result = self.translator.translate(line, self.info)
        return result.action or line

    def with_hints(self, text: str) -> str:
        if not self.hints or self.info.get("goal_reached"):
            return text
        actions = [a if self.description == "pddl" else english_action(a, self.info)
                   for a in self.info.get("admissible_actions") or ()]
        return f"{text}\n\n{fill_prompt('agents/act/hints', actions=chr(10).join(actions))}"

    # ---- what happened ----------------------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return bool(self.turns) and self.turns[-1].done

    @property
    def goal_reached(self) -> bool:
        return bool(self.info.get("goal_reached"))

    @property
    def problem_id(self) -> str:
        return str(self.info.get("problem_id", ""))

    @property
    def plan(self) -> list[str]:
        """The executed (valid) actions, meta actions left out."""
        return [t.action for t in self.turns if t.valid and t.action not in ("(finish)", "(look-around)")]

    def summary(self) -> dict[str, Any]:
        """goal_reached, steps, invalid_actions, plan_length, optimal_length, valid_action_rate, plan_length_ratio
        (optimal / executed length when the goal was reached, else 0)."""
        steps = len(self.turns)
        invalid = sum(not t.valid for t in self.turns)
        optimal = self.info.get("optimal_plan_length")
        plan_length = len(self.plan)
        ratio = (optimal / plan_length if plan_length else 1.0) if self.goal_reached and optimal is not None else 0.0
        return {"domain": self.domain, "problem_id": self.problem_id, "goal_reached": self.goal_reached,
                "steps": steps, "invalid_actions": invalid, "plan_length": plan_length, "optimal_length": optimal,
                "valid_action_rate": (steps - invalid) / steps if steps else 0.0,
                "plan_length_ratio": min(1.0, ratio), "plan": self.plan}

    def close(self) -> None:
        self.env.close()

    def _require_reset(self) -> None:
        if not self.info:
            raise ApbError("the game has not started: call reset() first")
