"""`apb bench llm`: the offline model's speed per thread count.

For each thread count: the model's load time (a fresh `Llama`, not the process's shared one), then after a
warm-up call, `repeats` streamed chat completions of a prompt of about `prompt_tokens` tokens with the prompt
cache cleared each time: first-token latency (prompt evaluation + the first token), generation tokens/s
(the tokens after the first), prompt-evaluation tokens/s (llama.cpp's own counters where available), and the
latency of a grammar-constrained choice among four PDDL actions. Figures are medians over the repeats.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

from apb import __version__
from apb.flags import positive_int
from apb.llm.base import LLMConfigError
from apb.llm.local import (
    INSTALL_HINT,
    LocalLLM,
    _Loaded,
    default_threads,
    import_llama_cpp,
    llama_cpp_available,
    load_llama,
    resolve_model_path,
)

FILLER = ("In the blocksworld domain a robot arm stacks blocks on a table. The arm holds at most one block; "
          "a block can be picked up only when nothing is on it and the arm is empty. ")
TASK = "Count from 1 to 200, separated by commas."
CHOICES = ("(pick-up a)", "(stack a b)", "(unstack c a)", "(put-down b)")
CHOICE_PROMPT = ("Block c is on block a, blocks a and b are on the table and the arm is empty. The goal is a on b. "
                 "Which action comes first?")


def _prompt(llama, prompt_tokens: int) -> list[dict[str, str]]:
    """A system message of about `prompt_tokens` tokens (filler text) and the counting task."""
    text = FILLER
    while len(llama.tokenize(text.encode("utf-8"), add_bos=False)) < prompt_tokens:
        text += FILLER
    return [{"role": "system", "content": text}, {"role": "user", "content": TASK}]


def _perf(llama):
    """llama.cpp's own counters for the last call, or None when this llama-cpp-python hides them."""
    try:
        import llama_cpp

        return llama_cpp.llama_perf_context(llama._ctx.ctx)
    except (AttributeError, ImportError):  # pragma: no cover - other llama-cpp-python internals
        return None


def _reset_perf(llama) -> None:
    try:
        import llama_cpp

        llama_cpp.llama_perf_context_reset(llama._ctx.ctx)
    except (AttributeError, ImportError):  # pragma: no cover
        pass


def streamed_call(llama, messages, max_tokens: int) -> dict[str, float]:
    """One streamed greedy completion from an empty prompt cache: first-token and total time, token counts."""
    llama.reset()
    _reset_perf(llama)
    t0 = time.perf_counter()
    first = None
    chunks = 0
    for chunk in llama.create_chat_completion(messages, temperature=0.0, max_tokens=max_tokens, stream=True, seed=0):
        if chunk["choices"][0]["delta"].get("content"):
            chunks += 1
            if first is None:
                first = time.perf_counter() - t0
    total = time.perf_counter() - t0
    first = total if first is None else first
    prompt_tokens = llama.n_tokens - chunks  # what the context holds: the prompt, then the generated tokens
    perf = _perf(llama)
    if perf is not None and perf.n_p_eval > 0 and perf.t_p_eval_ms > 0:
        prompt_tokens, prompt_per_s = perf.n_p_eval, perf.n_p_eval / (perf.t_p_eval_ms / 1000)
    else:
        prompt_per_s = prompt_tokens / first
    if perf is not None and perf.n_eval > 1 and perf.t_eval_ms > 0:
        generated, gen_per_s = perf.n_eval, perf.n_eval / (perf.t_eval_ms / 1000)
    else:
        generated = chunks
        gen_per_s = (chunks - 1) / (total - first) if chunks > 1 and total > first else 0.0
    return {"first_token_s": first, "total_s": total, "generated": generated, "gen_per_s": gen_per_s,
            "prompt_tokens": prompt_tokens, "prompt_per_s": prompt_per_s}


def bench_threads(path: Path, n_threads: int, *, prompt_tokens: int, max_tokens: int, repeats: int,
                  n_ctx: int) -> dict[str, Any]:
    t0 = time.perf_counter()
    llama = load_llama(path, n_threads, n_ctx)
    load = time.perf_counter() - t0
    try:
        messages = _prompt(llama, prompt_tokens)
        llama.create_chat_completion(messages[1:], temperature=0.0, max_tokens=4)  # warm-up
        runs = [streamed_call(llama, messages, max_tokens) for _ in range(repeats)]
        local = LocalLLM(path, n_threads=n_threads, n_ctx=n_ctx)
        local._loaded = _Loaded(llama, load_seconds=load)
        question = [{"role": "user", "content": CHOICE_PROMPT}]
        answer = local.complete(question, choices=CHOICES).text  # warm-up: checks the grammar once
        choice_ms = []
        for _ in range(repeats):
            llama.reset()
            t1 = time.perf_counter()
            answer = local.complete(question, choices=CHOICES).text
            choice_ms.append((time.perf_counter() - t1) * 1000)
    finally:
        close = getattr(llama, "close", None)
        if close is not None:
            close()
    med = statistics.median
    return {"threads": n_threads, "load_ms": round(load * 1000, 1),
            "first_token_ms": round(med(r["first_token_s"] for r in runs) * 1000, 1),
            "gen_tokens_per_s": round(med(r["gen_per_s"] for r in runs), 1),
            "prompt_tokens_per_s": round(med(r["prompt_per_s"] for r in runs), 1),
            "prompt_tokens": int(med(r["prompt_tokens"] for r in runs)),
            "generated_tokens": int(med(r["generated"] for r in runs)),
            "choice_ms": round(med(choice_ms), 1), "choice_answer": answer}


def run_llm_bench(model_path=None, threads=(1, 2), prompt_tokens: int = 256, max_tokens: int = 64,
                  repeats: int = 3, n_ctx: int = 4096) -> dict[str, Any]:
    """Speed of the local model (default: the bundled SmolLM2) for each thread count; LLMConfigError (an
    ApbError) when llama-cpp-python or the model is missing."""
    if not llama_cpp_available():
        raise LLMConfigError(f"apb bench llm needs llama-cpp-python: {INSTALL_HINT}")
    llama_cpp = import_llama_cpp()
    path = resolve_model_path(model_path)
    threads = tuple(threads)
    if not threads or any(int(t) < 1 for t in threads):
        raise LLMConfigError(f"thread counts must be positive integers, got {threads}")
    if max_tokens < 2 or prompt_tokens < 1 or repeats < 1:
        raise LLMConfigError("max_tokens must be at least 2, prompt_tokens and repeats at least 1")
    rows = [bench_threads(path, int(t), prompt_tokens=prompt_tokens, max_tokens=max_tokens, repeats=repeats,
                          n_ctx=n_ctx) for t in threads]
    system_info = llama_cpp.llama_print_system_info()
    if isinstance(system_info, bytes):
        system_info = system_info.decode("utf-8", "replace")
    return {"apb_version": __version__, "python": platform.python_version(), "machine": platform.machine(),
            "llama_cpp_python": getattr(llama_cpp, "__version__", "?"), "system_info": system_info.strip(),
            "cpu_count": os.cpu_count(), "default_threads": default_threads(), "model": path.name,
            "model_mb": round(path.stat().st_size / 2**20, 1), "prompt_tokens": prompt_tokens,
            "max_tokens": max_tokens, "repeats": repeats, "rows": rows,
            "best_threads": max(rows, key=lambda r: r["gen_tokens_per_s"])["threads"]}


def print_llm_report(report: dict[str, Any], console) -> None:
    from rich.table import Table

    table = Table(title=f"apb {report['apb_version']} local model {report['model']} ({report['model_mb']} MB, "
                        f"llama-cpp-python {report['llama_cpp_python']}, {report['cpu_count']} cores, "
                        f"medians of {report['repeats']})")
    for column in ("threads", "load ms", "first token ms", "gen tok/s", "prompt tok/s", "prompt / gen tokens",
                   "choice ms"):
        table.add_column(column, justify="right", no_wrap=True)
    for r in report["rows"]:
        table.add_row(str(r["threads"]), f"{r['load_ms']:.0f}", f"{r['first_token_ms']:.0f}",
                      f"{r['gen_tokens_per_s']:.1f}", f"{r['prompt_tokens_per_s']:.0f}",
                      f"{r['prompt_tokens']} / {r['generated_tokens']}", f"{r['choice_ms']:.0f}")
    console.width = max(console.width, 120)
    console.print(table)
    console.print(f"fastest generation with {report['best_threads']} thread(s); default here: "
                  f"{report['default_threads']} (set APB_LOCAL_THREADS to change); choice call answered "
                  f"{report['rows'][-1]['choice_answer']}", markup=False, highlight=False)


def _parse_threads(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated thread counts like 1,2, got {text!r}") from None
    if not values or any(v < 1 for v in values):
        raise argparse.ArgumentTypeError(f"thread counts must be positive, got {text!r}")
    return values


def cmd_bench_llm(args: argparse.Namespace) -> int:
    from apb.bench.output import show_report

    report = run_llm_bench(args.model, threads=args.threads, prompt_tokens=args.prompt_tokens,
                           max_tokens=args.max_tokens, repeats=args.repeats)
    return show_report(report, print_llm_report, args.json)


def add_bench_llm_parser(bench_subparsers) -> argparse.ArgumentParser:
    """Adds `apb bench llm` to the `apb bench` subparsers."""
    b = bench_subparsers.add_parser("llm", help="local model load time, first-token latency and tokens/s per thread "
                                               "count")
    b.add_argument("--model", metavar="PATH", help="GGUF file (default: the bundled SmolLM2-135M-Instruct)")
    b.add_argument("--threads", type=_parse_threads, default=(1, 2), help="comma-separated thread counts (default 1,2)")
    b.add_argument("--max-tokens", type=positive_int, default=64, help="tokens generated per timed call (default 64)")
    b.add_argument("--prompt-tokens", type=positive_int, default=256, help="prompt length in tokens (default 256)")
    b.add_argument("--repeats", type=positive_int, default=3, help="timed calls per thread count (default 3)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench_llm)
    return b
