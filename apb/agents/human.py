"""A person as the agent: the observation is printed, the next action is typed (PDDL or English).

English is read with the template parser built from the env's `info` alone (`parser_from_info`), so the human
agent works on any env that honours the contract, like every other agent. Commands, as in `apb play`:
`:state` (look around), `:goal`, `:actions`, `:domain`, `:help`, `:quit`. End of input stops the episode.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape

from apb.agents.base import FINISH, LOOK_AROUND, BaseAgent, StopEpisode

COMMANDS = "Commands: :state (look around), :goal, :actions (applicable actions), :domain, :help, :quit"
_QUIT = (":quit", ":q", ":exit", "quit", "exit")
_LOOK = (":state", ":look", "look", "look around")


class HumanAgent(BaseAgent):
    """Reads each action from `read` (default: `input`) after printing the observation to `console`."""

    name = "human"

    def __init__(self, *, read: Callable[[str], str] = input, console: Console | None = None,
                 on_event: Callable[[dict], None] | None = None) -> None:
        super().__init__(on_event=on_event)
        self.read = read
        self.console = console if console is not None else Console(highlight=False)
        self._parser = None
        self._fresh = False  # the reset observation is printed once, not again at the first act

    def reset(self, observation: str, info: dict) -> None:
        from apb.nl.parse import parser_from_info

        self._parser = parser_from_info(info)
        self.console.rule(f"[bold]problem {escape(str(info.get('problem_id', '?')))}[/bold]")
        self.console.print(escape(observation))
        self.console.print(f"[dim]{escape(self.help_text(info))}[/dim]")
        self._fresh = True

    def help_text(self, info: dict) -> str:
        admissible = info.get("admissible_actions") or []
        example = f", e.g. {admissible[0]}" if admissible else ""
        schema = (info.get("action_schemas") or [{}])[0]
        english = f", or in English, e.g. {schema['nl']}" if schema.get("nl") else " or in English"
        return f"Type an action in PDDL{example}{english}. {FINISH} declares the goal reached.\n{COMMANDS}"

    def act(self, observation: str, info: dict) -> str:
        if not self._fresh:
            ok = info.get("action_valid", True)
            self.console.print(f"[{'green' if ok else 'red'}]{escape(observation)}[/]")
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
            elif command in _LOOK:
                return LOOK_AROUND
            else:
                return self._action(line)

    def _action(self, line: str) -> str:
        """The PDDL action a typed line names; unparsed text is sent as is, for the env to explain."""
        parsed = self._parser.parse(line) if self._parser is not None else None
        action = parsed.action if parsed else line
        if parsed and parsed.method != "pddl":
            self.console.print(f"[dim]= {escape(action)}[/dim]")
        self.emit({"type": "human", "input": line, "action": action,
                   "method": parsed.method if parsed else None})
        return action
