"""`apb bench translate`: how well and how fast the translators map an agent's text to the intended action,
on a generated test set per bundled domain.

Cases: every ground action of the first test problems in its canonical English, plus seeded noisy variants of
it of the kinds LLM agents write: chatter before and after ('First, ...', 'Action: ...', '... because it gets me
closer to the goal'), capitals, articles and type words, punctuation and quotes, markdown (bold, bullets,
numbering, backticks), object names spelt with other separators, PDDL instead of English, a second action after
the first, left-out function words ('stack a on b') and swapped letters ('stakc'). AutoPlanBench's T-LLM spends
one LLM call per step on this; the report shows that apb's cascade needs none on these texts, and how often a
cascade with an LLM stage would call it.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

from apb import __version__
from apb.console import make_console
from apb.flags import non_negative_int, positive_int

VARIANTS = 3  # noisy variants per ground action, besides the canonical phrasing
AUTOPLANBENCH_LLM_CALLS_PER_STEP = 1.0

_PREFIXES = ("First, ", "Now please ", "Instruction: ", "Action: ", "Next action: ", "I will ", "I should now ",
             "Let's ", "OK, next I ", "The next step is to ", "Step 1: ", "1. ", "- ", "> ", "### Action\n",
             "**Action:** ", "Next, ", "I think I should ", "Thought: I am close now.\nAction: ", "Sure! ")
_SUFFIXES = (" because it gets me closer to the goal", ".", "!", ", since that is needed for the goal.",
             ". This moves me closer to the goal.", " - this should help", "\nReason: this clears the way.",
             " next", ". Then I will see what happens.", " (this is the best move)")


def head_nouns(schema: dict) -> list[str | None]:
    """Per parameter, the head noun the indefinite template uses for it ('a piece of cheese A' -> 'cheese')."""
    text = schema.get("indefinite") or ""
    out: list[str | None] = [None] * len(schema["parameters"])
    for match in re.finditer(r"\b(?:a|an)\s+(?:[a-z]+\s+){0,3}?([a-z]+)\s+([A-Z])\b", text):
        index = ord(match.group(2)) - ord("A")
        if 0 <= index < len(out):
            out[index] = match.group(1)
    return out


def render(schema: dict, args: list[str], nouns: list[str], rng: random.Random, *, articles: bool,
           types: bool) -> str:
    """The action's English from its template, with articles and type words added the way people add them:
    'pick up the block block_a', 'board the car car_0 onto the ferry at the location loc_0'."""
    text = schema.get("nl") or " ".join([schema["name"], *("{" + p + "}" for p, _ in schema["parameters"])])
    params = [p for p, _ in schema["parameters"]]
    heads = head_nouns(schema)
    out = []
    pos = 0
    for match in re.finditer(r"\{([^{}\s]+)\}", text):
        before = text[pos:match.start()]
        i = params.index(match.group(1))
        arg = args[i]
        noun = next((n for n in nouns if before.lower().endswith(" " + n + " ") or before.lower() == n + " "), None)
        if noun is not None:
            lead = before[: len(before) - len(noun) - 1]
            starts = arg.lower().startswith((noun.replace(" ", "_"), noun.replace(" ", "-")))
            keep = not starts or (types and rng.random() < 0.5)  # the renderer elides 'block' before block_a
            has_article = lead.lower().endswith((" the ", " a ", " an "))
            article = "the " if articles and not has_article else ""
            before = lead + (article + noun + " " if keep else article)
        else:
            has_article = before.lower().endswith((" the ", " a ", " an ")) or before.lower() in ("the ", "a ", "an ")
            article = "the " if articles and not has_article else ""
            word = heads[i] + " " if types and heads[i] and not arg.lower().startswith(heads[i]) else ""
            before = before + article + word
        out.append(before + arg)
        pos = match.end()
    out.append(text[pos:])
    return "".join(out)


def noisy(text: str, action: str, schema: dict, nouns: list[str], other: str, rng: random.Random) -> str:
    """One noisy variant of an action's English `text` (PDDL `action`; `other`: the English of another action)."""
    name, *args = action.strip("()").split()
    kinds = rng.sample(["prefix", "suffix", "case", "articles", "types", "punct", "markdown", "spelling",
                        "pddl", "second", "typo", "terse", "context"], k=rng.randint(1, 3))
    if "pddl" in kinds:
        text = action.upper() if rng.random() < 0.3 else action
    else:
        if "articles" in kinds or "types" in kinds:
            text = render(schema, args, nouns, rng, articles="articles" in kinds, types="types" in kinds)
        if "spelling" in kinds and args:
            target = rng.choice(args)
            if "_" in target or "-" in target:
                variant = re.sub(r"[_-]", rng.choice([" ", "-", "_"]), target)
                variant = variant.title() if rng.random() < 0.5 else variant
                text = re.sub(rf"(?<![\w-]){re.escape(target)}(?![\w-])", variant, text)
        if "terse" in kinds:
            text = terse(text, args, name, rng)
    if "typo" in kinds:
        text = typo(text, rng)
    if "context" in kinds:
        text = f"Since {rng.choice(args) if args else 'that'} is ready, I will " + text
    if "second" in kinds:
        text = f"{text}, then {other}"
    if "case" in kinds:
        choice = rng.random()
        text = text.upper() if choice < 0.2 else text.title() if choice < 0.5 else text[:1].upper() + text[1:]
    if "punct" in kinds:
        text = rng.choice(['"{}"', "'{}'", "`{}`", "{}.", "{}!", "{};", "({})", "{} ."]).format(text)
    if "markdown" in kinds:
        text = rng.choice(["**{}**", "*{}*", "1. {}", "- {}", "`{}`", "> {}", "## Next\n{}", "```\n{}\n```",
                           "__{}__"]).format(text)
    if "prefix" in kinds:
        text = rng.choice(_PREFIXES) + text
    if "suffix" in kinds:
        text += rng.choice(_SUFFIXES)
    return text


_FUNCTION_WORDS = frozenset({"on", "top", "of", "from", "to", "at", "in", "into", "onto", "the", "with", "off", "it",
                             "by", "using"})


def terse(text: str, args: list[str], name: str, rng: random.Random) -> str:
    """Leave out a function word the way terse writers do ('stack a on b' for 'stack a on top of b'); never one
    of the action's name ('switch on')."""
    words = text.split(" ")
    keep = set(re.split(r"[-_]", name.lower()))
    droppable = [i for i, w in enumerate(words) if i > 0 and w.lower() in _FUNCTION_WORDS and w.lower() not in keep]
    if droppable:
        del words[rng.choice(droppable)]
    return " ".join(words)


def typo(text: str, rng: random.Random) -> str:
    """Two neighbouring letters swapped in one word of four letters or more."""
    spans = [m for m in re.finditer(r"[A-Za-z]{4,}", text)]
    if not spans:
        return text
    m = rng.choice(spans)
    i = m.start() + rng.randrange(1, len(m.group(0)) - 2)
    return text[:i] + text[i + 1] + text[i] + text[i + 2:]


def translation_cases(domain: str, problems: int = 3, seed: int = 0,
                      variants: int = VARIANTS) -> list[tuple[dict, str, str]]:
    """[(info, text, expected PDDL action)] for the first `problems` test problems of a bundled domain."""
    from apb.envs.text_env import PDDLTextEnv

    rng = random.Random(f"{domain}:{seed}")
    env = PDDLTextEnv(domain)
    cases = []
    for problem_id in env.problem_ids[:problems]:
        _, info = env.reset(options={"problem": problem_id})
        schemas = {s["name"]: s for s in info["action_schemas"]}
        nouns = sorted(info.get("type_nouns") or (), key=len, reverse=True)
        actions = list(env.task.actions)
        texts = [env.text.action(a) for a in actions]
        for i, action in enumerate(actions):
            pddl = str(action)
            cases.append((info, texts[i], pddl))
            for _ in range(variants):
                other = texts[rng.randrange(len(texts))]
                cases.append((info, noisy(texts[i], pddl, schemas[action.name], nouns, other, rng), pddl))
    env.close()
    return cases


def _measure(translator, cases, oracle: dict | None = None) -> dict[str, float]:
    """Accuracy, LLM-free share, LLM calls and µs per translation; `oracle` (if given) is told each case's
    expected action first, for a scripted LLM that answers it."""
    correct = without_llm = 0
    llm_calls = 0
    elapsed = 0.0
    failures = []
    warmed = set()
    for info, text, _ in cases:  # per-problem set-up (parser, lexicon) is not what a translation costs
        if info["problem_id"] not in warmed:
            warmed.add(info["problem_id"])
            translator.translate(text, info)
    for info, text, expected in cases:
        if oracle is not None:
            oracle["answer"] = expected
        start = time.perf_counter()
        result = translator.translate(text, info)
        elapsed += time.perf_counter() - start
        if result.action == expected:
            correct += 1
        elif len(failures) < 5:
            failures.append({"text": text, "expected": expected, "got": result.action, "method": result.method})
        without_llm += result.llm_calls == 0
        llm_calls += result.llm_calls
    n = max(1, len(cases))
    return {"accuracy": correct / n, "without_llm": without_llm / n, "llm_calls_per_step": llm_calls / n,
            "us_per_translation": elapsed / n * 1e6, "failures": failures}


def run_translate_bench(domains: list[str] | None = None, problems: int = 3, seed: int = 0) -> dict[str, Any]:
    """Per domain: accuracy and speed of the template and cascade (no LLM) translators, the share answered
    without an LLM, and the LLM calls per step a cascade with an LLM would make (AutoPlanBench: 1)."""
    from apb.domains.registry import domain_names
    from apb.llm.scripted import ScriptedLLM
    from apb.translators import make_translator

    rows = []
    for domain in domains or domain_names():
        cases = translation_cases(domain, problems, seed)
        canonical = cases[::VARIANTS + 1]
        template = _measure(make_translator("template"), cases)
        template_canonical = _measure(make_translator("template"), canonical)
        cascade = _measure(make_translator("cascade"), cases)
        # With an LLM in the cascade (a scripted one that knows the answer): how often would it be called?
        oracle: dict[str, str] = {"answer": ""}
        llm = ScriptedLLM(lambda messages, oracle=oracle: oracle["answer"], name="oracle")
        with_llm = _measure(make_translator("cascade", llm=llm), cases, oracle)
        rows.append({"domain": domain, "cases": len(cases), "canonical_cases": len(canonical),
                     "template_canonical_accuracy": template_canonical["accuracy"],
                     "template_accuracy": template["accuracy"], "cascade_accuracy": cascade["accuracy"],
                     "without_llm": cascade["without_llm"],
                     "template_us": template["us_per_translation"], "cascade_us": cascade["us_per_translation"],
                     "llm_calls_per_step": cascade["llm_calls_per_step"],
                     "llm_calls_per_step_with_llm": with_llm["llm_calls_per_step"],
                     "cascade_with_llm_accuracy": with_llm["accuracy"],
                     "autoplanbench_llm_calls_per_step": AUTOPLANBENCH_LLM_CALLS_PER_STEP,
                     "template_failures": template["failures"], "cascade_failures": cascade["failures"]})
    cases_total = sum(r["cases"] for r in rows) or 1
    canonical_total = sum(r["canonical_cases"] for r in rows) or 1

    def weighted(key: str, size: str = "cases", total: int = cases_total) -> float:
        return sum(r[key] * r[size] for r in rows) / total

    summary = {"cases": sum(r["cases"] for r in rows),
               "template_canonical_accuracy": weighted("template_canonical_accuracy", "canonical_cases",
                                                       canonical_total),
               "template_accuracy": weighted("template_accuracy"), "cascade_accuracy": weighted("cascade_accuracy"),
               "without_llm": weighted("without_llm"),
               "llm_calls_per_step_with_llm": weighted("llm_calls_per_step_with_llm")}
    return {"apb_version": __version__, "problems_per_domain": problems, "seed": seed, "variants": VARIANTS,
            "rows": rows, "summary": summary}


def print_translate_report(report: dict[str, Any], console=None) -> None:
    """The report as a table: accuracy of template (canonical texts, all texts) and cascade without an LLM, the
    share answered without an LLM, µs per translation, LLM calls per step (apb vs AutoPlanBench's T-LLM)."""
    from rich.table import Table

    console = console or make_console()
    table = Table(title=f"apb {report['apb_version']} translators: first {report['problems_per_domain']} test "
                        f"problems, each ground action canonical + {report['variants']} noisy (seed {report['seed']})")
    for column in ("domain", "cases", "tmpl canon", "tmpl acc", "casc acc", "no LLM", "tmpl µs", "casc µs",
                   "LLM/step", "w/ LLM", "APB LLM/step"):
        table.add_column(column, justify="left" if column == "domain" else "right", no_wrap=True)
    for r in report["rows"]:
        table.add_row(r["domain"], str(r["cases"]), _pct(r["template_canonical_accuracy"]),
                      _pct(r["template_accuracy"]), _pct(r["cascade_accuracy"]), _pct(r["without_llm"]),
                      f"{r['template_us']:.0f}", f"{r['cascade_us']:.0f}", f"{r['llm_calls_per_step']:g}",
                      f"{r['llm_calls_per_step_with_llm']:.3f}", f"{r['autoplanbench_llm_calls_per_step']:g}")
    s = report["summary"]
    table.add_row("all", str(s["cases"]), _pct(s["template_canonical_accuracy"]), _pct(s["template_accuracy"]),
                  _pct(s["cascade_accuracy"]), _pct(s["without_llm"]), "", "", "0",
                  f"{s['llm_calls_per_step_with_llm']:.3f}", f"{AUTOPLANBENCH_LLM_CALLS_PER_STEP:g}", style="bold")
    console.print(table)
    console.print("LLM/step: LLM calls per translated step of the cascade without an LLM; w/ LLM: with an LLM as its "
                  "second stage (scripted to answer right), called only when the template stage cannot decide; "
                  "APB: AutoPlanBench's T-LLM, one call per step.", markup=False, highlight=False)
    for r in report["rows"]:
        for f in r["cascade_failures"][:3]:
            console.print(f"{r['domain']}: {f['text']!r} -> {f['got']} (expected {f['expected']}, {f['method']})",
                          markup=False, highlight=False)


def _pct(value: float) -> str:
    return f"{value:.1%}"


def add_bench_translate_parser(bench_subparsers) -> None:
    """Adds `apb bench translate` to the `apb bench` subparsers."""
    p = bench_subparsers.add_parser("translate", help="translator accuracy and speed on generated action texts")
    p.add_argument("--domains", help="comma-separated bundled domains (default: all)")
    p.add_argument("--problems", type=positive_int, default=3, help="test problems per domain (default 3)")
    p.add_argument("--seed", type=non_negative_int, default=0, help="seed of the noisy variants (default 0)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(func=cmd_bench_translate)


def cmd_bench_translate(args) -> int:
    from apb.bench.output import comma_list, show_report

    report = run_translate_bench(comma_list(getattr(args, "domains", None)), problems=args.problems, seed=args.seed)
    return show_report(report, print_translate_report, getattr(args, "json", False))
