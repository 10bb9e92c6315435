"""Test-only: a stand-in for tiktoken's o200k_base encoding in the processes the tests start with this folder on
PYTHONPATH (Python imports `sitecustomize` at start-up).

Inspect's mock model (`--model mockllm/model`) counts the tokens of an answer that carries no usage with tiktoken's
o200k_base, whose ranks tiktoken downloads on first use, and the tests run without a network. The stand-in is a
byte-level encoding (one token per byte) registered under that name: the mock model's counts become byte counts,
which nothing in the tests reads.
"""

from __future__ import annotations

try:
    import tiktoken
    from tiktoken import registry
except ImportError:  # nothing to stand in for
    pass
else:
    registry.ENCODINGS["o200k_base"] = tiktoken.Encoding(
        name="o200k_base", pat_str=r"\S+|\s+", mergeable_ranks={bytes([b]): b for b in range(256)},
        special_tokens={})
