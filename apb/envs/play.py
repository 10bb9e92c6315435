"""`apb play`: a person plays a PDDLTextEnv in the terminal (PDDL or English actions, state on demand)."""

from __future__ import annotations

from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from apb.envs.text_env import PDDLTextEnv
from apb.nl.parse import TemplateParser

COMMANDS = "Commands: :state (look around), :goal, :actions (applicable actions), :history, :domain, :help, :quit"


def help_text(env: PDDLTextEnv, info: dict) -> str:
    example = info["admissible_actions"][0] if info["admissible_actions"] else str(env.task.actions[0])
    english = env._current.text.action(env.task.parse_action(example))
    finish = " Type (finish) when the goal is reached." if env.require_finish else ""
    return (f"Type an action in PDDL, e.g. {example}, or in English, e.g. {english}.{finish}\n{COMMANDS}")


def make_parser(env: PDDLTextEnv, info: dict) -> TemplateParser:
    return TemplateParser(env.templates, info["objects"], [a["name"] for a in info["action_schemas"]],
                          [str(a) for a in env.task.actions])


def play(env: PDDLTextEnv, console: Console, read: Callable[[str], str], *, problem=None, seed: int = 0,
         max_steps: int | None = None) -> dict:
    """Runs one episode with actions typed by a person; returns a summary (goal_reached, steps, invalid)."""
    obs, info = env.reset(seed=seed, options={"problem": problem} if problem is not None else None)
    parser = make_parser(env, info)
    console.rule(f"[bold]{escape(env.dataset.name)} · problem {escape(info['problem_id'])}[/bold]")
    console.print(escape(obs))
    console.print(f"[dim]{escape(help_text(env, info))}[/dim]")
    history: list[tuple[str, str, bool]] = []
    steps = invalid = 0
    terminated = False
    while not terminated and (max_steps is None or steps < max_steps):
        try:
            line = read("> ").strip()
        except EOFError:
            break
        if not line:
            continue
        command = line.lower()
        if command in (":quit", ":q", ":exit", "quit", "exit"):
            break
        if command in (":help", ":h", "?"):
            console.print(escape(help_text(env, info)))
            continue
        if command == ":goal":
            console.print(f"My goal is that {escape(info['goal'])}.")
            continue
        if command == ":domain":
            console.print(escape(info["domain_description"]))
            continue
        if command == ":actions":
            console.print(escape("\n".join(info["admissible_actions"]) or "(none)"))
            continue
        if command == ":history":
            table = Table("step", "action", "feedback")
            for i, (action, feedback, ok) in enumerate(history, 1):
                table.add_row(str(i), escape(action), f"[{'green' if ok else 'red'}]{escape(feedback)}")
            console.print(table)
            continue
        if command in (":state", ":look", "look", "look around"):
            line = "(look-around)"
        parsed = parser.parse(line)
        action = parsed.action if parsed else line
        if parsed and parsed.method != "pddl":
            console.print(f"[dim]= {escape(action)}[/dim]")
        obs, _, terminated, truncated, info = env.step(action)
        steps += 1
        ok = info["action_valid"]
        invalid += not ok
        history.append((info["action"], obs, ok))
        console.print(f"[{'green' if ok else 'red'}]{escape(obs)}[/]")
        if truncated:
            console.print("[yellow]The step limit is reached.[/yellow]")
            break
    reached = bool(info.get("goal_reached"))
    console.print(f"[bold]{'Goal reached' if reached else 'Goal not reached'}[/bold] after {steps} step(s), "
                  f"{invalid} invalid.")
    return {"goal_reached": reached, "steps": steps, "invalid_actions": invalid}
