"""Human rendering of a PDDLTextEnv with rich: the last action and its feedback, coloured by outcome."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.panel import Panel

_console: Console | None = None


def console() -> Console:
    global _console
    if _console is None:
        _console = Console()
    return _console


def render_human(env) -> None:
    history = env._history
    if not history:
        return
    action, observation = history[-1]
    if not action:
        title = f"{escape(env.dataset.name)} · {escape(env.problem_id)}"
        console().print(Panel(escape(observation), title=title, border_style="cyan"))
        return
    failed = observation.startswith(("I cannot", "I am not finished")) or " failed" in observation
    style = "red" if failed else "green"
    console().print(f"[bold]> {escape(action)}[/bold]")
    console().print(f"[{style}]{escape(observation)}[/{style}]")
