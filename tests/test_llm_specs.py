"""Spec strings and the price table."""

from __future__ import annotations

import pytest

from apb.llm import LLMConfigError, Spec, Usage, load_prices, parse_spec
from apb.llm.pricing import ModelPrice, PriceTable, default_prices


# ---- specs ----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "spec"), [
    ("openai:gpt-4o", Spec("openai", "gpt-4o")),
    ("anthropic:claude-haiku-4-5", Spec("anthropic", "claude-haiku-4-5")),
    ("openai-compatible:http://localhost:11434/v1:llama3:8b",
     Spec("openai-compatible", "llama3:8b", base_url="http://localhost:11434/v1")),
    ("openai-compatible:http://localhost:8000:qwen2.5:7b-instruct",
     Spec("openai-compatible", "qwen2.5:7b-instruct", base_url="http://localhost:8000")),
    ("openai-compatible:https://api.together.xyz/v1:meta-llama/Llama-3.3-70B-Instruct-Turbo",
     Spec("openai-compatible", "meta-llama/Llama-3.3-70B-Instruct-Turbo", base_url="https://api.together.xyz/v1")),
    ("openai-compatible:http://[::1]:8080/v1:phi3", Spec("openai-compatible", "phi3", base_url="http://[::1]:8080/v1")),
    ("openai-compatible:http://gpu-box/v1/:mistral", Spec("openai-compatible", "mistral", base_url="http://gpu-box/v1")),
    ("local", Spec("local")),
    ("local:/models/qwen2.5-0.5b.Q4_K_M.gguf", Spec("local", "/models/qwen2.5-0.5b.Q4_K_M.gguf",
                                                    path="/models/qwen2.5-0.5b.Q4_K_M.gguf")),
    ("scripted:tests/data/answers.json", Spec("scripted", "tests/data/answers.json", path="tests/data/answers.json")),
    ("OpenAI:gpt-4o", Spec("openai", "gpt-4o")),
])
def test_parse_spec(text, spec):
    assert parse_spec(text) == spec


@pytest.mark.parametrize("text", ["openai:gpt-4o", "openai-compatible:http://localhost:11434/v1:llama3:8b", "local",
                                  "local:m.gguf", "scripted:a.txt"])
def test_spec_round_trip(text):
    assert str(parse_spec(text)) == text


@pytest.mark.parametrize(("text", "why"), [
    ("", "empty"),
    ("gpt-4o", "unknown provider"),
    ("azure:gpt-4o", "unknown provider 'azure'"),
    ("openai", "needs a model"),
    ("anthropic:", "needs a model"),
    ("openai:gpt 4o", "whitespace"),
    ("scripted:", "needs a file"),
    ("openai-compatible:localhost:11434:llama3", "base URL"),
    ("openai-compatible:http://localhost:11434/v1", "no model"),
    ("openai-compatible:http://localhost:11434", "no model"),
    ("openai-compatible:ftp://host/v1:m", "base URL"),
])
def test_bad_specs_list_the_accepted_forms(text, why):
    with pytest.raises(LLMConfigError) as info:
        parse_spec(text)
    message = str(info.value)
    assert why in message
    assert "openai-compatible:<base_url>:<model>" in message and "scripted:<file>" in message


# ---- prices ---------------------------------------------------------------------------------------------------
def test_bundled_prices_cover_the_main_models():
    table = default_prices()
    for model in ("gpt-4o", "gpt-4o-mini", "gpt-4.1", "gpt-4.1-mini", "gpt-4.1-nano", "o3", "o4-mini",
                  "claude-sonnet-4-5", "claude-haiku-4-5", "claude-opus-4-1"):
        price = table.lookup(model)
        assert price is not None and price.input > 0 and price.output > price.input, model


@pytest.mark.parametrize(("model", "base"), [
    ("gpt-4o-2024-08-06", "gpt-4o"), ("gpt-4o-mini-2024-07-18", "gpt-4o-mini"), ("gpt-4.1-2025-04-14", "gpt-4.1"),
    ("claude-sonnet-4-20250514", "claude-sonnet-4"), ("claude-3-5-sonnet-latest", "claude-3-5-sonnet"),
    ("GPT-4o", "gpt-4o"),
])
def test_dated_names_take_the_base_price(model, base):
    table = default_prices()
    assert table.lookup(model) == table.lookup(base) is not None


@pytest.mark.parametrize("model", ["llama3:8b", "gpt-4o-audio-preview", "claude-opus-9", "gpt-4x", "my-model"])
def test_unknown_models_have_no_price(model):
    assert default_prices().lookup(model) is None
    assert default_prices().cost(model, Usage(1000, 100)) is None


def test_cost_formula():
    price = ModelPrice(input=3.0, output=15.0, cached_input=0.3, cache_write=3.75)
    usage = Usage(input_tokens=10_000, output_tokens=1_000, cached_tokens=6_000, cache_write_tokens=2_000)
    assert price.cost(usage) == pytest.approx((2_000 * 3.0 + 6_000 * 0.3 + 2_000 * 3.75 + 1_000 * 15.0) / 1e6)
    plain = ModelPrice(input=2.0, output=8.0)  # cached and cache-write prices default to the input price
    assert plain.cost(usage) == pytest.approx((10_000 * 2.0 + 1_000 * 8.0) / 1e6)
    assert PriceTable({"m": plain}).cost("m", Usage()) == 0.0


def test_price_override_file_merges_over_the_defaults(tmp_path, monkeypatch):
    monkeypatch.delenv("APB_PRICES", raising=False)
    override = tmp_path / "prices.yaml"
    override.write_text("models:\n  gpt-4o: {output: 12.0}\n  llama3:8b: {input: 0, output: 0}\n"
                        "  my-model: {input: 1.5, cached_input: 0.5, output: 6}\n", encoding="utf-8")
    table = load_prices(override)
    assert table.lookup("gpt-4o") == ModelPrice(input=2.5, output=12.0, cached_input=1.25)
    assert table.cost("llama3:8b", Usage(1000, 1000)) == 0.0
    assert table.cost("my-model", Usage(1_000_000, 0, 500_000)) == pytest.approx(0.75 + 0.25)
    assert table.lookup("gpt-4.1") == default_prices().lookup("gpt-4.1")
    assert default_prices().lookup("gpt-4o").output == 10.0  # the defaults are untouched


def test_apb_prices_environment_then_argument(tmp_path, monkeypatch):
    env_file, arg_file = tmp_path / "env.yaml", tmp_path / "arg.yaml"
    env_file.write_text("gpt-4o: {input: 1.0, output: 2.0}\nmy-model: {input: 7, output: 7}\n", encoding="utf-8")
    arg_file.write_text("models:\n  gpt-4o: {input: 3.0}\n", encoding="utf-8")
    monkeypatch.setenv("APB_PRICES", str(env_file))
    assert load_prices().lookup("gpt-4o").input == 1.0
    table = load_prices(arg_file)
    assert (table.lookup("gpt-4o").input, table.lookup("gpt-4o").output) == (3.0, 2.0)
    assert table.lookup("my-model").input == 7
    assert load_prices({"gpt-4o": {"input": 9}}).lookup("gpt-4o").input == 9


@pytest.mark.parametrize(("content", "why"), [
    ("models:\n  new-model: {input: 1}\n", "needs output"),
    ("models:\n  gpt-4o: {inptu: 1}\n", "unknown price field"),
    ("models:\n  gpt-4o: {input: -1}\n", "non-negative"),
    ("models:\n  gpt-4o: 2.5\n", "must be a mapping"),
    ("- just a list\n", "maps model names"),
    ("models: {gpt-4o: [unclosed\n", "invalid YAML"),
])
def test_bad_price_files(tmp_path, monkeypatch, content, why):
    monkeypatch.delenv("APB_PRICES", raising=False)
    path = tmp_path / "prices.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(LLMConfigError, match=why) as info:
        load_prices(path)
    assert str(path) in str(info.value)


def test_missing_price_file(tmp_path, monkeypatch):
    monkeypatch.setenv("APB_PRICES", str(tmp_path / "nope.yaml"))
    with pytest.raises(LLMConfigError, match=r"nope\.yaml"):
        load_prices()
