"""A person as the agent: the observation is printed, the next action is typed (PDDL or English).

English is read with the template parser built from the env's `info` alone (`parser_from_info`), so the human
agent works on any env that honours the contract, like every other agent. Commands, as in `apb play`:
`:state` (look around), `:goal`, `:actions`, `:history`, `:domain`, `:help`, `:quit`. End of input stops the
episode. `play` runs one such episode in a terminal (`apb play`).
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from apb.agents.base import FINISH, LOOK_AROUND, BaseAgent, StopEpisode
from apb.agents.episode import run_episode

COMMANDS = "Commands: :state (look around), :goal, :actions (applicable actions), :history, :domain, :help, :quit"
_QUIT = (":quit", ":q", ":exit", "quit", "exit")
_LOOK = (":state", ":look", "look", "look around")


class HumanAgent(BaseAgent):
    """Reads each action from `read` (default: `input`) after printing the observation to `console`."""

    name = "human"

    def __init__(self, *, read: Callable[[str], str] = input, console: Console | None = None,
                 seed: int | None = None, on_event: Callable[[dict], None] | None = None) -> None:
        super().__init__(seed=seed, on_event=on_event)
        self.read = read
        self.console = console if console is not None else Console(highlight=False)
        self._parser = None
        self._fresh = False  # the reset observation is printed once, not again at the first act
        self.history: list[tuple[str, str, bool]] = []  # (action sent, feedback, valid) of this episode

    def reset(self, observation: str, info: dict) -> None:
        from apb.nl.parse import parser_from_info

        self._parser = parser_from_info(info)
        self.history = []
        where = f"{info['domain']} · " if info.get("domain") else ""
        self.console.rule(f"[bold]{escape(where)}problem {escape(str(info.get('problem_id', '?')))}[/bold]")
        self.console.print(escape(observation))
        self.console.print(f"[dim]{escape(self.help_text(info))}[/dim]")
        self._fresh = True

    def help_text(self, info: dict) -> str:
        from apb.agents.act import english_action

        admissible = info.get("admissible_actions") or []
        example = f", e.g. {admissible[0]}" if admissible else ""
        english = f", or in English, e.g. {english_action(admissible[0], info)}" if admissible else " or in English"
        return f"Type an action in PDDL{example}{english}. {FINISH} declares the goal reached.\n{COMMANDS}"

    def act(self, observation: str, info: dict) -> str:
        if not self._fresh:
            self.record(observation, info)
        self._fresh = False
        while True:
            try:
                line = self.read("> ").strip()
            except EOFError:
                raise StopEpisode("end of input") from None
            if not line:
                continue
            command = line.lower()
            if command in _QUIT:
                raise StopEpisode("quit")
            if command in (":help", ":h", "?"):
                self.console.print(escape(self.help_text(info)))
            elif command == ":goal":
                self.console.print(f"My goal is that {escape(str(info.get('goal', '')))}.")
            elif command == ":domain":
                self.console.print(escape(str(info.get("domain_description", ""))))
            elif command == ":actions":
                self.console.print(escape("\n".join(info.get("admissible_actions") or []) or "(none)"))
            elif command == ":history":
                self.print_history()
            elif command in _LOOK:
                return LOOK_AROUND
            else:
                return self._action(line)

    def record(self, observation: str, info: dict) -> None:
        """Shows the feedback of the last action and keeps it for :history."""
        ok = bool(info.get("action_valid", True))
        self.history.append((str(info.get("action", "")), observation, ok))
        self.console.print(f"[{'green' if ok else 'red'}]{escape(observation)}[/]")

    def print_history(self) -> None:
        table = Table("step", "action", "feedback")
        for i, (action, feedback, ok) in enumerate(self.history, 1):
            table.add_row(str(i), escape(action), f"[{'green' if ok else 'red'}]{escape(feedback)}")
        self.console.print(table)

    def _action(self, line: str) -> str:
        """The PDDL action a typed line names; unparsed text is sent as is, for the env to explain."""
        parsed = self._parser.parse(line) if self._parser is not None else None
        action = parsed.action if parsed else line
        if parsed and parsed.method != "pddl":
            self.console.print(f"[dim]= {escape(action)}[/dim]")
        self.emit({"type": "human", "input": line, "action": action,
                   "method": parsed.method if parsed else None})
        return action


def play(env, console: Console, read: Callable[[str], str], *, problem=None, seed: int = 0,
         max_steps: int | None = None) -> dict:
    """One episode typed by a person (`apb play`); returns {goal_reached, steps, invalid_actions}."""
    agent = HumanAgent(read=read, console=console)
    result = run_episode(env, agent, seed=seed, options={"problem": problem} if problem is not None else None,
                         max_steps=max_steps)
    if result.steps and result.stop_reason != "agent_stopped":  # the env ended it: its last feedback is unseen
        last = result.steps[-1]
        agent.record(last.observation, {"action": last.action, "action_valid": last.action_valid})
    if result.stop_reason == "step_limit":
        console.print("[yellow]The step limit is reached.[/yellow]")
    console.print(f"[bold]{'Goal reached' if result.goal_reached else 'Goal not reached'}[/bold] after "
                  f"{len(result.steps)} step(s), {result.invalid_actions} invalid.")
    return {"goal_reached": result.goal_reached, "steps": len(result.steps),
            "invalid_actions": result.invalid_actions}
