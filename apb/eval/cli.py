"""`apb run` (one episode with a live transcript), `apb eval` (many episodes, concurrent, resumable), `apb report`
(apb.eval.report.cli) and `apb generate` (new problems with gold plans for a bundled domain, written under eval's
output-folder rule).

`add_parsers(commands)` adds them to the `apb` command. Exit codes (the same for every command, apb.exit_codes): 0
every episode ran (solved or not), 1 an episode ended in an error (an LLM error, a crash: recorded, retried by
--resume), 2 bad input, 130 interrupted (finished episodes are kept).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape

from apb.agents import AGENTS, agent_class
from apb.agents.base import AgentWrapper
from apb.agents.registry import agent_spec
from apb.console import make_console
from apb.engine.errors import ApbError
from apb.engine.limits import clean
from apb.eval.config import ExperimentConfig, expand_domains, load_config
from apb.eval.episode import episode_llm, run_one
from apb.eval.episode_specs import EvalError, check_translator, resolve_problems
from apb.eval.report import cli as report_cli
from apb.eval.rundir import check_writable
from apb.eval.runner import run_episodes
from apb.eval.trajectory import EpisodeSpec, episode_id
from apb.exit_codes import EXIT_NEGATIVE, EXIT_OK
from apb.flags import (
    DEFAULT_CONCURRENCY,
    MAX_GENERATED,
    add_executor,
    add_llm_concurrency,
    at_most,
    non_negative_int,
    positive_float,
    positive_int,
)

MAX_DUPLICATES = 1_000  # apb generate stops after this many duplicate problems in a row
out = make_console()
err = make_console(stderr=True)


# ---- apb run ----------------------------------------------------------------------------------------------
class TranscriptAgent(AgentWrapper):
    """Prints what an agent does as it happens: its LLM outputs, translations, the action and the feedback."""

    def __init__(self, agent: Any, console: Console) -> None:
        super().__init__(agent)
        self._console = console
        self._step = 0

    def _print(self, markup: str) -> None:
        """A transcript line; model text may hold lone surrogates, which no terminal or file can take: echoed as
        U+FFFD (apb.engine.limits.clean), as `apb eval`'s trajectories and reports show them."""
        self._console.print(clean(markup))

    def _show_events(self) -> None:
        for event in getattr(self.agent, "events", ()):
            if event.get("type") == "llm":
                usage = event.get("usage") or {}
                tokens = f"{usage.get('input_tokens', 0)}+{usage.get('output_tokens', 0)} tokens"
                cached = ", cached" if event.get("cached") else ""
                self._print(f"  [cyan]{escape(str(event.get('role')))}[/cyan] ({tokens}{cached}): "
                                    f"{escape(str(event.get('text', '')).strip())}")
            elif event.get("type") == "translation":
                self._print(f"  [magenta]translation[/magenta] ({event.get('method')}): "
                                    f"{escape(str(event.get('action')))}")

    def reset(self, observation: str, info: dict) -> None:
        self._print(f"[bold]Task[/bold] {escape(str(info.get('problem_id', '')))}\n{escape(observation)}")
        self.agent.reset(observation, info)
        self._show_events()

    def act(self, observation: str, info: dict) -> str:
        if self._step:
            mark = "[green]ok[/green]" if info.get("action_valid", True) else "[red]invalid[/red]"
            self._print(f"  feedback {mark}: {escape(observation)}")
        self._step += 1
        action = self.agent.act(observation, info)
        self._show_events()
        self._print(f"[bold]{self._step:>3}[/bold] action: {escape(action)}")
        return action


def cmd_run(args: argparse.Namespace) -> int:
    from apb.agents import needs_llm

    if agent_spec(args.agent)[0] not in AGENTS:
        raise EvalError(f"unknown agent {args.agent!r}: use one of {', '.join(AGENTS)}")
    if needs_llm(args.agent) and not args.llm:
        raise EvalError(f"the {args.agent} agent needs an LLM: pass --llm SPEC (e.g. local, scripted:answers.txt)")
    check_translator(args.translator)
    spec = EpisodeSpec(domain=args.domain, problem=_problem(args.problem), agent=args.agent,
                       model=args.llm if needs_llm(args.agent) else None, seed=args.seed,
                       split=args.split, translator=args.translator, require_finish=args.require_finish,
                       max_steps=args.max_steps, agent_options=_run_agent_options(args))
    resolve_problems(spec.domain, spec.split, [spec.problem], hint="pass --problem with one of them")
    if args.out:
        check_writable(args.out)
    warn_step_limits([spec])
    llm = episode_llm(spec, cache=args.cache, llm_concurrency=args.llm_concurrency)
    last: list[Any] = []
    if args.out:
        target = Path(args.out)
        final = target / "episodes" / f"{episode_id(spec)}.jsonl"
        if final.exists():
            raise EvalError(f"{final} exists already; remove it or choose another --out")
        footer = run_one(spec, target, llm=llm, wrap_agent=lambda a: TranscriptAgent(a, out), on_step=last.append)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            footer = run_one(spec, tmp, llm=llm, wrap_agent=lambda a: TranscriptAgent(a, out), on_step=last.append)
    if last:  # the transcript shows feedback before each next action: the last step's comes here
        mark = "[green]ok[/green]" if last[-1].action_valid else "[red]invalid[/red]"
        out.print(clean(f"  feedback {mark}: {escape(last[-1].observation)}"))
    tokens = footer["input_tokens"] + footer["output_tokens"]
    cost = "unknown cost" if footer["cost_usd"] is None else f"${footer['cost_usd']:.4f}"
    result = "[green]solved[/green]" if footer["success"] else "[red]not solved[/red]"
    out.print(f"{result}: {footer['steps']} step(s), {footer['invalid_actions']} invalid, stop: "
              f"{footer['stop_reason']}, {sum(footer['llm_calls'].values())} LLM call(s), {tokens} tokens, {cost}"
              + (f", optimal length {footer['optimal_plan_length']}" if footer.get("optimal_plan_length") else ""))
    if footer.get("error"):
        err.print(clean(f"[red]error[/red]: {escape(str(footer['error']))}"))
        return EXIT_NEGATIVE
    if args.out:
        out.print(f"trajectory: {final}")
    return EXIT_OK


def _problem(value: str) -> int | str:
    return int(value) if str(value).isdigit() else value


def add_parsers(commands) -> None:
    """Adds `run`, `eval`, `report` and `generate` to the `apb` command (see apb.cli.Commands)."""
    _add_run_parser(commands)
    _add_eval_parser(commands)
    report_cli.add_parsers(commands)
    _add_generate_parser(commands)


def _add_run_parser(commands) -> argparse.ArgumentParser:
    p = commands.add_parser("run")
    p.add_argument("domain", help="a bundled domain or a dataset folder")
    p.add_argument("--agent", required=True, help="agent name (act, react, bfs, random, ...)")
    p.add_argument("--llm", help="LLM spec: openai:<model>, anthropic:<model>, local, scripted:<file>, ...")
    add_llm_concurrency(p)
    p.add_argument("--problem", default="1", help="problem number or id (default 1)")
    p.add_argument("--split", default="test")
    p.add_argument("--translator", default="cascade", help="template, fuzzy, tllm or cascade (default)")
    p.add_argument("--seed", type=non_negative_int, default=0)
    p.add_argument("--max-steps", type=positive_int, default=None, help=MAX_STEPS_HELP)
    _add_agent_option_arguments(p)
    p.add_argument("--require-finish", action="store_true")
    p.add_argument("--cache", default="rw", choices=("rw", "replay", "off"), help="LLM answer cache mode")
    p.add_argument("--out", help="write the trajectory under this folder")
    p.set_defaults(func=cmd_run)
    return p


MAX_STEPS_HELP = ("step limit per episode (default: twice the split's longest gold plan, at least 24; random: "
                  "24, AutoPlanBench's; closed-loop: at least 50)")


def warn_step_limits(specs: list[EpisodeSpec]) -> int:
    """Warns (stderr) for every problem whose optimal plan is longer than its episode's step limit: it cannot be
    solved. Returns how many episodes that concerns."""
    from apb.datasets import optimal_length, resolve

    short: dict[tuple, tuple[int, int]] = {}
    datasets: dict[tuple, Any] = {}
    for spec in specs:
        key = (spec.domain, spec.split)
        try:
            dataset = datasets.get(key) or datasets.setdefault(key, resolve(spec.domain, spec.split))
            entry = dataset.entry(spec.problem)
            plan = dataset.gold_plan(entry.id)
            length = optimal_length(dataset, entry, list(plan) if plan is not None else None)
        except Exception:
            continue  # the episode reports an unreadable problem itself
        if length is not None and length > spec.horizon:
            short[(spec.domain_name, entry.id, spec.agent)] = (length, spec.horizon)
    for (domain, problem, agent), (length, limit) in sorted(short.items()):
        err.print(f"[yellow]warning[/yellow]: {escape(domain)} {escape(problem)} ({escape(agent)}): its optimal plan "
                  f"has {length} steps but the step limit is {limit}, so it cannot be solved; raise --max-steps")
    return len(short)


# ---- apb eval ---------------------------------------------------------------------------------------------
def _list(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


def eval_config(args: argparse.Namespace) -> ExperimentConfig:
    """The experiment: the --config file (if any) with the command-line flags on top."""
    config = load_config(args.config) if args.config else ExperimentConfig()
    for key, value in (("domains", _list(args.domains)), ("agents", _list(args.agents)), ("llm", args.llm),
                       ("problems", args.problems), ("seeds", args.seeds), ("split", args.split),
                       ("concurrency", args.concurrency), ("llm_concurrency", args.llm_concurrency),
                       ("out", args.out), ("translator", args.translator),
                       ("max_steps", args.max_steps), ("description", args.description)):
        if value is not None:
            setattr(config, key, value)
    if args.require_finish:
        config.require_finish = True
    for key, value in cli_agent_options(args).items():
        takers = [a for a in config.agents if agent_spec(a)[0] in AGENTS and key in agent_class(a).options]
        if not takers:
            raise EvalError(f"--{key.replace('_', '-')} applies to none of the agents {', '.join(config.agents)}: "
                            f"it is an option of {', '.join(_agents_with(key))}")
        for agent in takers:
            config.agent_options.setdefault(agent, {})[key] = value
    if not config.domains:
        raise EvalError("no domains: pass --domains LIST (or all), or domains: in --config")
    if not config.agents:
        raise EvalError("no agents: pass --agents LIST, or agents: in --config")
    if not config.out:
        raise EvalError("no output folder: pass --out DIR, or out: in --config")
    if isinstance(config.concurrency, bool) or not isinstance(config.concurrency, int) or config.concurrency < 1:
        raise EvalError(f"bad --concurrency {config.concurrency!r}: it must be a whole number, at least 1")
    if config.max_steps is not None and (isinstance(config.max_steps, bool) or not isinstance(config.max_steps, int)
                                         or config.max_steps < 1):
        raise EvalError(f"bad --max-steps {config.max_steps!r}: it must be a whole number, at least 1 (or leave it "
                        "out for the default)")
    check_writable(config.out)
    config.domains = expand_domains(config.domains)
    return config


def _add_agent_option_arguments(p: argparse.ArgumentParser) -> None:
    """Agent options as flags; each goes to the agents of the run whose class lists it in `options`."""
    p.add_argument("--horizon", type=_horizon, default=argparse.SUPPRESS,
                   help="closed-loop: actions grounded per plan (1, 5, ... or 'all')")
    p.add_argument("--hints", action="store_true", default=None,
                   help="act/react/basic/cot: feedback hints (the admissible actions after a failure)")
    p.add_argument("--constrained", action="store_true", default=None,
                   help="act/react: choose among the admissible actions")
    p.add_argument("--shots", type=_shots, default=argparse.SUPPRESS,
                   help="LLM agents: 1 (default) gives the one-shot example, 0 leaves it out (a shorter prompt)")


def _shots(value: str) -> int:
    if value.strip() not in ("0", "1"):
        raise argparse.ArgumentTypeError(f"bad shots {value!r}: 1 (the one-shot example) or 0 (none)")
    return int(value)


def _horizon(value: str) -> int | None:
    if value.strip().lower() in ("all", "none"):
        return None
    try:
        horizon = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad horizon {value!r}: a number of actions (1, 5) or 'all'") from None
    if horizon < 1:
        raise argparse.ArgumentTypeError(f"bad horizon {value!r}: at least 1 (or 'all')")
    return horizon


def cli_agent_options(args: argparse.Namespace) -> dict[str, Any]:
    """The agent options given as flags (--horizon, --hints, --constrained)."""
    options = {}
    for key in ("horizon", "shots"):
        if hasattr(args, key):
            options[key] = getattr(args, key)
    for key in ("hints", "constrained"):
        if getattr(args, key, None):
            options[key] = True
    return options


def _run_agent_options(args: argparse.Namespace) -> dict[str, Any]:
    options = cli_agent_options(args)
    for key in options:
        if key not in agent_class(args.agent).options:
            raise EvalError(f"--{key.replace('_', '-')} is not an option of the {args.agent} agent: it is one of "
                            f"{', '.join(_agents_with(key))}")
    return options


def _agents_with(option: str) -> list[str]:
    return [name for name in AGENTS if option in agent_class(name).options]


def cmd_eval(args: argparse.Namespace) -> int:
    config = eval_config(args)
    specs = config.episodes()
    if args.shard:
        index, count = args.shard
        specs = specs[index::count]  # episodes are planned in a fixed order, so shards never overlap
    warn_step_limits(specs)
    progress = not args.no_progress and sys.stderr.isatty()
    summary = run_episodes(specs, config.out, concurrency=config.concurrency, resume=args.resume,
                           overwrite=args.overwrite, progress=progress, cache=args.cache,
                           executor=args.executor, llm_concurrency=config.llm_concurrency)
    # Ctrl-C: RunInterrupted, reported by apb.cli.main
    cost = "cost unknown" if summary["cost_usd"] is None else f"${summary['cost_usd']:.4f}"
    cached = f" ({summary['cached_calls']} from the answer cache)" if summary.get("cached_calls") else ""
    out.print(f"{summary['total']} episode(s): {summary['ran']} run, {summary['skipped']} already finished, "
              f"{summary['solved']} solved, {summary['errors']} error(s); {summary['llm_calls']} LLM call(s){cached}, "
              f"{summary['tokens']} tokens, {cost}, {summary['seconds']:.1f}s -> {escape(config.out)}")
    if summary["errors"]:
        err.print(f"[red]{summary['errors']} episode(s) ended in an error[/red] (see their trajectories' footers); "
                  "rerun with --resume to retry them")
        return EXIT_NEGATIVE
    return EXIT_OK


def _shard(value: str) -> tuple[int, int]:
    """'0/4' -> (0, 4): this machine runs every 4th episode starting with the first."""
    try:
        index, count = (int(v) for v in value.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad shard {value!r}: write I/N, e.g. 0/4") from None
    if count < 1 or not 0 <= index < count:
        raise argparse.ArgumentTypeError(f"bad shard {value!r}: I must be 0..N-1")
    return index, count


def _seeds(value: str) -> int | list[int]:
    try:
        seeds = int(value) if "," not in value else [int(v) for v in value.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad seeds {value!r}: a count (3) or a list (0,7)") from None
    if isinstance(seeds, int) and seeds < 1:
        raise argparse.ArgumentTypeError(f"bad seeds {value!r}: the count must be at least 1")
    if isinstance(seeds, list) and (not seeds or min(seeds) < 0):
        raise argparse.ArgumentTypeError(f"bad seeds {value!r}: seeds are 0 or more")
    return seeds


def _add_eval_parser(commands) -> argparse.ArgumentParser:
    p = commands.add_parser("eval")
    p.add_argument("--config", help="an experiment YAML file (flags override its keys)")
    p.add_argument("--domains", help="comma-separated bundled domains or dataset folders, or 'all'")
    p.add_argument("--agents", help="comma-separated agent names")
    p.add_argument("--llm", help="LLM spec for the LLM agents")
    p.add_argument("--problems", help="e.g. 1-20, 1,3,5 or p07; all (default): every problem of the split")
    p.add_argument("--seeds", type=_seeds,
                   help="number of seeds K (0..K-1) or a list 0,7 (default 1); planners (bfs, astar, ...) run once")
    p.add_argument("--split", help="test (default), example, scaled, or study (Baking: the closed-loop study)")
    p.add_argument("--concurrency", type=positive_int, help=f"episodes at a time (default {DEFAULT_CONCURRENCY})")
    add_llm_concurrency(p)
    p.add_argument("--translator", choices=("template", "fuzzy", "tllm", "cascade"),
                   help="template, fuzzy, tllm or cascade (default)")
    p.add_argument("--max-steps", type=positive_int, help=MAX_STEPS_HELP)
    p.add_argument("--description", help="the env's text: curated (default), rule, or a robustness variant: "
                   "obfuscated (meaningless names), shuffled (object names permuted)")
    _add_agent_option_arguments(p)
    p.add_argument("--require-finish", action="store_true")
    p.add_argument("--cache", default="rw", choices=("rw", "replay", "off"), help="LLM answer cache mode")
    p.add_argument("--out", help="output folder (must be empty unless --resume or --overwrite)")
    p.add_argument("--resume", action="store_true",
                   help="continue the run in --out (same settings): skip finished episodes, retry errors")
    p.add_argument("--overwrite", action="store_true", help="delete the earlier run in --out and start again")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_executor(p, "episodes")
    p.add_argument("--shard", type=_shard, metavar="I/N",
                   help="run only shard I of N (0-based); merge the shards' folders with apb report DIR1 DIR2 ...")
    p.set_defaults(func=cmd_eval)
    return p


# ---- apb generate -----------------------------------------------------------------------------------------
def _add_generate_parser(commands) -> argparse.ArgumentParser:
    p = commands.add_parser("generate")
    p.add_argument("domain", help="a bundled domain, or ipc2023:<domain> (the IPC 2023 track's domain file under "
                                  "$APB_IPC2023, the organisers' size parameters; --param size=easy: a split's sizes)")
    p.add_argument("--out", required=True, help="folder to write domain.pddl, problems/ and plans/ into")
    p.add_argument("--count", type=at_most(MAX_GENERATED), default=5,
                   help=f"problems to generate (default 5, at most {MAX_GENERATED})")
    p.add_argument("--seed", type=non_negative_int, default=0, help="first seed; problem i uses seed + i")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="generator parameter (repeatable)")
    p.add_argument("--timeout", type=positive_float, default=60.0, help="seconds per problem for A*, then for GBFS")
    p.add_argument("--force", action="store_true", help="replace problems already in --out")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_generate)
    return p


def _parse_params(pairs: list[str]) -> dict:
    params: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise ApbError(f"--param {pair!r}: write it as NAME=VALUE, e.g. --param blocks=6")
        try:
            params[key] = int(value)
        except ValueError:
            params[key] = value
    return params


def cmd_generate(args: argparse.Namespace) -> int:
    import shutil
    import time

    from apb import domains
    from apb.datasets import ipc2023, ipc2023_generate
    from apb.domains.builder import build, write_set
    from apb.engine import load_domain

    params = _parse_params(args.param or [])
    if args.domain.startswith(ipc2023.PREFIX):  # the track's domain file, the organisers' size parameters
        domain_file, generate, candidates = ipc2023_generate.prepare(args.domain, params, args.seed, args.count * 10)
    else:
        domain_file, module = domains.domain_file(args.domain), domains.generator(args.domain)
        unknown = sorted(set(params) - set(module.PARAMETERS))
        if unknown:
            raise ApbError(f"unknown parameter(s) {', '.join(unknown)} for {args.domain}: "
                           f"it takes {', '.join(f'{k} (default {v})' for k, v in module.PARAMETERS.items())}")
        generate, candidates = module.generate, [(args.seed + i, params) for i in range(args.count * 10)]
    out_dir = check_writable(args.out)
    if (out_dir / "problems").is_dir() and any((out_dir / "problems").iterdir()) and not args.force:
        raise ApbError(f"{out_dir / 'problems'} is not empty: choose another --out or pass --force")
    if args.count < 1:
        raise ApbError("--count must be at least 1")
    start = time.perf_counter()

    def log(line: str) -> None:
        if not args.json:
            err.print(escape(line))

    built = build(load_domain(domain_file), generate, candidates, count=args.count,
                  timeout=args.timeout, log=log, max_duplicates=MAX_DUPLICATES)
    if not built:
        raise ApbError(f"no solvable problem came out of seeds {args.seed}.. with {params or 'default parameters'}")
    out_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(domain_file, out_dir / "domain.pddl")
    write_set(out_dir, [(f"p{i:02d}", b) for i, b in enumerate(built, start=1)], clear=args.force)
    report = {"domain": args.domain, "out": str(out_dir), "problems": len(built), "params": params,
              "plan_lengths": [b.length for b in built], "optimal": [b.optimal for b in built],
              "seconds": round(time.perf_counter() - start, 3)}
    if args.json:
        out.print_json(data=report)
    else:
        out.print(f"wrote {len(built)} problem(s) with gold plans to {escape(str(out_dir))} "
                  f"(plan lengths {report['plan_lengths']}, {report['seconds']:.1f} s)")
    return EXIT_OK if len(built) == args.count else EXIT_NEGATIVE
