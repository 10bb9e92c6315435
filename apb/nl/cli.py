"""`apb nl ...` commands: `apb nl generate DOMAIN_FILE --llm SPEC --out nl.yaml [--force]` writes the NL templates
of a domain with an LLM (the AutoPlanBench method, apb.nl.generator).

`add_parsers(commands)` adds `nl` to the `apb` command; handlers raise ApbError subclasses for bad input,
which the main CLI prints before exiting with code 2.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.markup import escape

from apb.console import make_console
from apb.engine import load_domain
from apb.exit_codes import EXIT_OK
from apb.flags import add_llm_concurrency
from apb.nl.generator import GeneratedTemplates, GenerationEvent, NLGenerateError, generate_templates

OUTCOME_STYLE = {"ok": "green", "repaired": "yellow", "filled": "yellow", "fallback": "red"}


def add_parsers(commands) -> None:
    """Adds `nl` (with its subcommand `generate`) to the `apb` command (see apb.cli.Commands)."""
    parser = commands.add_parser("nl")
    sub = commands.add_subparsers(parser, dest="nl_command", metavar="NL_COMMAND", required=True)
    p = sub.add_parser("generate", help="write an nl.yaml for a PDDL domain with an LLM (AutoPlanBench method)",
                       description="One LLM call per predicate, then one per action (shown with its preconditions "
                                   "and effects in the new wording), then one for the intro line. Answers with the "
                                   "wrong placeholders, or not about their predicate, action or domain (no word of "
                                   "its name, types or rule wording), get one repair turn, then fall back to "
                                   "rule-based wording; the summary counts both.")
    p.add_argument("domain_file", metavar="DOMAIN_FILE", help="the PDDL domain file")
    p.add_argument("--llm", required=True, metavar="SPEC",
                   help="the LLM: openai:<model>, anthropic:<model>, openai-compatible:<base_url>:<model>, local, "
                        "local:<path.gguf>, scripted:<file>")
    p.add_argument("--out", required=True, metavar="FILE", help="the nl.yaml file to write")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.add_argument("--cache", choices=("rw", "replay", "off"), default="rw",
                   help="the LLM answer cache: rw (read and write, default), replay (cached answers only), off")
    add_llm_concurrency(p)
    p.add_argument("--examples", metavar="FILE",
                   help="few-shot examples (YAML shaped like apb/prompts/nl_generate/examples.yaml)")
    p.set_defaults(func=cmd_nl_generate)


def make_llm(spec: str, cache: str = "rw", concurrency: int | None = None):
    """The LLM of a spec string, from apb.llm's factory (imported here: `apb.nl.cli` loads without it)."""
    from apb.llm import make_llm as factory

    return factory(spec, cache=cache, concurrency=concurrency)


def check_output(out: Path, force: bool) -> None:
    """NLGenerateError unless `out` may be written: no overwrite without --force, and its folder must exist."""
    if out.is_dir():
        raise NLGenerateError(f"{out} is a folder; give the path of the nl.yaml file to write")
    if out.exists() and not force:
        raise NLGenerateError(f"{out} exists; pass --force to overwrite it")
    if not out.parent.is_dir():
        raise NLGenerateError(f"{out}: the folder {out.parent} does not exist")


def progress_printer(console: Console):
    """An on_progress callback printing one line per generated entry."""

    def show(event: GenerationEvent) -> None:
        style = OUTCOME_STYLE.get(event.outcome, "white")
        line = (f"  {event.stage} {event.index}/{event.total} [bold]{escape(event.name)}[/bold]: "
                f"[{style}]{event.outcome}[/{style}]")
        if event.reason and event.outcome != "ok":
            line += f" ({escape(event.reason)})"
        console.print(line)

    return show


def summary_lines(templates: GeneratedTemplates, out: Path) -> list[str]:
    """The run summary (rich markup): entries, repairs, fallbacks, LLM calls, tokens, cost."""
    report = templates.report
    entry_fallbacks = [f for f in templates.fallbacks if f.kind != "intro" and f.fields == ("all",)]
    lines = [f"Wrote [bold]{escape(str(out))}[/bold]: {len(templates.predicates)} predicates and "
             f"{len(templates.actions)} actions of domain {escape(templates.domain)} "
             f"(source {escape(templates.source)})"]
    if report is not None:
        intro_fallback = any(f.kind == "intro" for f in templates.fallbacks)
        lines.append(f"  from the LLM: {len(report.generated)} entries, {len(report.repaired)} of them fixed by a "
                     f"repair turn ({len(report.repairs)} repair turns); rule-based fallbacks: "
                     f"{len(entry_fallbacks)} of {report.entries} entries"
                     + (", and the intro" if intro_fallback else ""))
        if report.off_topic:
            fell_back = {f.label for f in templates.fallbacks if f.fields == ("all",)}
            still = sum(label in fell_back for label in report.off_topic)
            lines.append(f"  off-topic answers (not about their entry or domain): {len(report.off_topic)} "
                         f"({escape(', '.join(report.off_topic))}); {len(report.off_topic) - still} fixed by the "
                         f"repair turn, {still} fell back to rule wording")
        cost = "unknown" if report.cost is None else f"${report.cost:.4f}"
        from_cache = f" ({report.cached_responses} from the response cache)" if report.cached_responses else ""
        lines.append(f"  LLM calls: {report.calls}{from_cache}; tokens: {report.input_tokens:,} in "
                     f"({report.cached_tokens:,} cached), {report.output_tokens:,} out; cost: {cost}")
    if templates.fallbacks:
        lines.append("[yellow]Rule-based wording used for:[/yellow]")
        lines += [f"  - {escape(str(f))}" for f in templates.fallbacks]
    return lines


def file_header(templates: GeneratedTemplates) -> str:
    """Comment lines saying where the file came from and which entries are rule-based, for the reviewer."""
    lines = [f"# Written by `apb nl generate` with {templates.source.removeprefix('llm:')}; review before use."]
    if templates.fallbacks:
        lines.append("# Rule-based wording (the LLM's answers did not fit):")
        lines += [f"#   {fallback.label}" + ("" if fallback.fields == ("all",) else f" ({', '.join(fallback.fields)})")
                  for fallback in templates.fallbacks]
    return "\n".join(lines) + "\n"


def cmd_nl_generate(args: argparse.Namespace, *, console: Console | None = None,
                    progress: Console | None = None) -> int:
    """`apb nl generate`: checks the output path first, generates, writes the file, prints a summary."""
    console = console or make_console()
    progress = progress or make_console(stderr=True)
    out = Path(args.out)
    check_output(out, args.force)
    domain = load_domain(args.domain_file)
    llm = make_llm(args.llm, getattr(args, "cache", "rw"), getattr(args, "llm_concurrency", None))
    progress.print(f"Generating NL templates for domain [bold]{escape(domain.name)}[/bold] with "
                   f"{escape(str(getattr(llm, 'spec', args.llm)))}: {len(domain.predicates)} predicates, "
                   f"{len(domain.actions)} actions, intro")
    templates = generate_templates(domain, llm, examples=getattr(args, "examples", None),
                                   on_progress=progress_printer(progress))
    check_output(out, args.force)  # the file may have appeared while the LLM was working
    try:
        out.write_text(file_header(templates) + templates.to_yaml(), encoding="utf-8")
    except OSError as err:
        raise NLGenerateError(f"{out}: cannot write the file: {err.strerror or err}") from None
    for line in summary_lines(templates, out):
        console.print(line)
    return EXIT_OK


__all__ = ["add_parsers", "check_output", "cmd_nl_generate", "file_header", "make_llm", "summary_lines"]
