"""The LLM request cap where users set it, against a local OpenAI-compatible server (apb.bench.llm_server):
self-hosted servers get as many requests in flight as the run's --concurrency, --llm-concurrency caps them the same
way on every command, hosted providers keep their safe defaults, a 429 is retried after its retry-after, and
`apb bench llm-throughput` runs. Nothing here is timed: the server counts the requests in flight."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from apb import cli, flags
from apb.bench.llm_server import FALLBACK, AnswerTable, LLMServer, message_key
from apb.llm import make_llm, request_cap
from apb.llm import retry as retry_module
from apb.request_caps import DEFAULT_REQUEST_CAPS, caps_text

ROOT = Path(__file__).resolve().parents[1]

COMPATIBLE = "openai-compatible:http://127.0.0.1:8000/v1:m"


@pytest.fixture(autouse=True)
def fresh_limits(monkeypatch):
    monkeypatch.setattr(retry_module, "_limits", {})  # each test starts from the providers' defaults


@pytest.fixture(scope="module")
def gold(tmp_path_factory):
    """Questions, pairs and episodes of Blocksworld with their gold answers: (table, questions.jsonl, pairs)."""
    from apb.acp.evaluate import answer_text, build_messages
    from apb.acp.generate import generate
    from apb.bench.llm_throughput import episode_answers, nl2pddl_pairs

    folder = tmp_path_factory.mktemp("gold")
    table = AnswerTable()
    questions, _ = generate("blocksworld", tasks=["app", "val"], formats=["bool"], count=6, seed=0)
    path = folder / "questions.jsonl"
    path.write_text("".join(json.dumps(q.to_dict()) + "\n" for q in questions), encoding="utf-8")
    for q in questions:
        table.exact[message_key(build_messages(q, [], False)[-1]["content"])] = answer_text(q)
    pairs = nl2pddl_pairs(8, folder / "pairs", table)
    episode_answers(8, table)
    return table, path, pairs


def serve(table, **options) -> tuple[LLMServer, str]:
    server = LLMServer(table, **options).start()
    return server, f"openai-compatible:{server.url}:gold"


def test_request_cap_follows_concurrency_for_self_hosted_servers_only():
    assert request_cap(COMPATIBLE, None, 16) == 16
    assert request_cap(COMPATIBLE, 3, 16) == 3  # --llm-concurrency wins
    assert request_cap("openai:gpt-4o", None, 16) is None and request_cap("anthropic:claude-x", None, 64) is None
    assert request_cap("openai:gpt-4o", 20, 64) == 20
    assert request_cap("local", None, 8) is None and request_cap("scripted:a.txt", None, 8) is None
    make_llm(COMPATIBLE, cache="off", concurrency=request_cap(COMPATIBLE, None, 16))
    make_llm("openai:gpt-4o", cache="replay", concurrency=request_cap("openai:gpt-4o", None, 16))
    assert retry_module.provider_limit("openai-compatible:127.0.0.1:8000").limit == 16
    assert retry_module.provider_limit("openai").limit == 8  # a hosted provider keeps its safe default


def test_the_default_caps_users_read_are_the_ones_apb_uses():
    """apb.request_caps owns the providers' default caps: the limits start from it, `--llm-concurrency`'s help
    prints it, and the pages that restate it (README, docs/cli.md) say the same numbers."""
    hosted = caps_text(without=frozenset({"openai-compatible"}))  # openai-compatible: --concurrency in a run
    assert [retry_module.provider_limit(p).limit for p in DEFAULT_REQUEST_CAPS] == list(DEFAULT_REQUEST_CAPS.values())
    assert hosted in flags.LLM_CONCURRENCY_HELP
    pages = {name: " ".join((ROOT / name).read_text(encoding="utf-8").split()) for name in ("README.md", "docs/cli.md")}
    assert f"--concurrency` for an openai-compatible server, else {hosted}." in pages["docs/cli.md"]
    per_host = ", ".join(f"{p} {n}" + (" per host" if p == "openai-compatible" else "")
                         for p, n in DEFAULT_REQUEST_CAPS.items())
    assert f"({per_host};" in pages["README.md"]


def test_acp_eval_has_concurrency_requests_in_flight_on_a_self_hosted_server(tmp_path, gold, capsys):
    table, questions, _ = gold
    server, spec = serve(table, gather=6)  # before: at most 4 (the per-host cap), whatever --concurrency said
    try:
        code = cli.main(["acp", "eval", str(questions), "--llm", spec, "--concurrency", "6", "--cache", "off",
                         "--no-progress", "--out", str(tmp_path / "acp")])
    finally:
        server.stop()
    assert code == 0 and server.peak_in_flight == 6
    assert "official 100.0%" in capsys.readouterr().out


def test_eval_episodes_have_concurrency_requests_in_flight(tmp_path, gold):
    table, _, _ = gold
    server, spec = serve(table, gather=8)
    try:
        code = cli.main(["eval", "--domains", "blocksworld", "--agents", "act", "--problems", "1-8", "--llm", spec,
                         "--concurrency", "8", "--cache", "off", "--no-progress", "--out", str(tmp_path / "eval")])
    finally:
        server.stop()
    footers = [json.loads(p.read_text().splitlines()[-1]) for p in (tmp_path / "eval" / "episodes").glob("*.jsonl")]
    assert code == 0 and server.peak_in_flight == 8
    assert len(footers) == 8 and all(f["success"] for f in footers)  # the server answered the gold plans


def test_nl2pddl_eval_defaults_to_the_same_concurrency_as_the_others(tmp_path, gold):
    table, _, pairs = gold
    server, spec = serve(table, gather=4)  # before: --concurrency defaulted to 1 here, 4 elsewhere
    try:
        code = cli.main(["nl2pddl", "eval", str(pairs), "--llm", spec, "--cache", "off", "--out", str(tmp_path / "n")])
    finally:
        server.stop()
    records = [json.loads(line) for line in (tmp_path / "n" / "results.jsonl").read_text().splitlines()]
    assert code == 0 and server.peak_in_flight == 4 and len(records) == 8 and all(r["correct"] for r in records)


@pytest.mark.parametrize("command", ["acp", "nl2pddl"])
def test_llm_concurrency_caps_requests_the_same_way_on_every_command(tmp_path, gold, command):
    table, questions, pairs = gold
    server, spec = serve(table, latency=0.05)
    argv = ["acp", "eval", str(questions), "--no-progress"] if command == "acp" else ["nl2pddl", "eval", str(pairs)]
    try:
        code = cli.main([*argv, "--llm", spec, "--concurrency", "8", "--llm-concurrency", "2", "--cache", "off",
                         "--out", str(tmp_path / command)])
    finally:
        server.stop()
    assert code == 0 and len(server.requests) >= 8 and server.peak_in_flight <= 2


def test_llm_concurrency_is_checked_like_every_flag(capsys):
    with pytest.raises(SystemExit) as info:
        cli.build_parser().parse_args(["eval", "--domains", "ferry", "--agents", "act", "--llm-concurrency", "0"])
    assert info.value.code == 2 and "--llm-concurrency: 0 must be at least 1" in capsys.readouterr().err


def test_429_with_retry_after_is_waited_out_and_retried(gold):
    table, _, _ = gold
    server, spec = serve(table, status_script=[(429, {"retry-after": "0.01"}), (503, {"retry-after-ms": "5"})])
    try:
        answer = make_llm(spec, cache="off").complete([{"role": "user", "content": "hello"}])
    finally:
        server.stop()
    assert answer.text == FALLBACK and len(server.requests) == 3  # two refusals, then the answer


def test_429_in_a_run_is_not_an_error(tmp_path, gold, capsys):
    table, questions, _ = gold
    server, spec = serve(table, status_script=[(429, {"retry-after": "0.01"})] * 3)
    try:
        code = cli.main(["acp", "eval", str(questions), "--llm", spec, "--cache", "off", "--no-progress",
                         "--out", str(tmp_path / "acp")])
    finally:
        server.stop()
    assert code == 0 and "0 LLM error(s)" in capsys.readouterr().out
    assert len(server.requests) == 12 + 3


def test_bench_llm_throughput_runs_every_kind_against_its_own_server():
    from apb.bench.llm_throughput import print_throughput_report, run_throughput_bench
    from apb.console import make_console

    report = run_throughput_bench(latency=0.05, concurrency=4, episodes=4, questions=8, pairs=4)
    assert [r["command"] for r in report["rows"]] == ["apb eval", "apb acp eval", "apb nl2pddl eval"]
    for row in report["rows"]:
        assert row["exit"] == 0 and row["ok"] == row["items"] > 0, row
        assert row["calls"] == row["server_requests"] and 0 < row["peak_in_flight"] <= 4
        assert row["bound_s"] > 0 and row["seconds"] > 0 and row["cpu_ms_per_call"] > 0
    console = make_console()
    print_throughput_report(report, console)


def test_an_experiment_file_sets_llm_concurrency(tmp_path):
    from apb.eval.config import ConfigError, load_config

    path = tmp_path / "exp.yaml"
    path.write_text("domains: [ferry]\nagents: [act]\nconcurrency: 16\nllm_concurrency: 3\n", encoding="utf-8")
    config = load_config(path)
    assert (config.concurrency, config.llm_concurrency) == (16, 3)
    path.write_text("domains: [ferry]\nagents: [act]\nllm_concurrency: 0\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="llm_concurrency"):
        load_config(path)
