"""What a call costs: a price table in USD per million tokens (defaults in `prices.yaml`, overridable).

Cost = uncached input x input + cached input x cached_input + cache writes x cache_write + output x output,
where `Usage.input_tokens` counts all input tokens (cached and cache-written included). A model the table does
not know has cost None (unknown), never 0.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from apb.engine.input_files import MAX_CONFIG_BYTES, read_input
from apb.llm.base import LLMConfigError, Usage

PRICES_ENV = "APB_PRICES"
DEFAULT_PRICES_FILE = Path(__file__).with_name("prices.yaml")
PRICE_FIELDS = ("input", "cached_input", "cache_write", "output")

# A dated or aliased model name: the base name plus -20250514, -2024-08-06 or -latest.
_SUFFIX = re.compile(r"-(?:\d{8}|\d{4}-\d{2}-\d{2}|latest)$")


@dataclass(frozen=True)
class ModelPrice:
    """USD per million tokens. `cached_input` and `cache_write` default to `input` when a table omits them."""

    input: float
    output: float
    cached_input: float | None = None
    cache_write: float | None = None

    def cost(self, usage: Usage) -> float:
        cached = max(0, usage.cached_tokens)
        written = max(0, usage.cache_write_tokens)
        uncached = max(0, usage.input_tokens - cached - written)
        cached_price = self.input if self.cached_input is None else self.cached_input
        write_price = self.input if self.cache_write is None else self.cache_write
        total = (uncached * self.input + cached * cached_price + written * write_price
                 + usage.output_tokens * self.output)
        return total / 1_000_000


class PriceTable:
    """Model name -> ModelPrice, with dated names (`gpt-4o-2024-08-06`) falling back to their base name."""

    def __init__(self, prices: Mapping[str, ModelPrice] | None = None) -> None:
        self.prices = {name.lower(): price for name, price in (prices or {}).items()}

    def lookup(self, model: str) -> ModelPrice | None:
        name = model.strip().lower()
        if name in self.prices:
            return self.prices[name]
        base = _SUFFIX.sub("", name)
        return self.prices.get(base) if base != name else None

    def cost(self, model: str, usage: Usage) -> float | None:
        """USD for one call, or None when the model has no price."""
        price = self.lookup(model)
        return None if price is None else price.cost(usage)

    def merged(self, entries: Mapping[str, Mapping[str, Any]], source: str = "<prices>") -> PriceTable:
        """A new table: `entries` ({model: {input, output, ...}}) merged field by field over this one."""
        prices = dict(self.prices)
        for name, entry in entries.items():
            key = str(name).lower()
            prices[key] = _price_entry(key, entry, prices.get(key), source)
        return PriceTable(prices)

    def __len__(self) -> int:
        return len(self.prices)

    def __contains__(self, model: object) -> bool:
        return isinstance(model, str) and self.lookup(model) is not None


PricesArg = PriceTable | Mapping[str, Any] | str | Path | None


def _price_entry(name: str, entry: Any, base: ModelPrice | None, source: str) -> ModelPrice:
    if not isinstance(entry, Mapping):
        raise LLMConfigError(f"{source}: the price of {name!r} must be a mapping like "
                             "{input: 2.5, output: 10.0} (USD per million tokens)")
    unknown = sorted(set(map(str, entry)) - set(PRICE_FIELDS))
    if unknown:
        raise LLMConfigError(f"{source}: unknown price field(s) {', '.join(unknown)} for {name!r}; "
                             f"use {', '.join(PRICE_FIELDS)}")
    values: dict[str, float] = {}
    for key, value in entry.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise LLMConfigError(f"{source}: {name}.{key} must be a non-negative number (USD per million tokens), "
                                 f"got {value!r}")
        values[str(key)] = float(value)
    if base is not None:
        return replace(base, **values)
    missing = [k for k in ("input", "output") if k not in values]
    if missing:
        raise LLMConfigError(f"{source}: {name!r} needs {' and '.join(missing)} (USD per million tokens)")
    return ModelPrice(**{f.name: values.get(f.name) for f in fields(ModelPrice)})


def read_price_file(path: str | Path) -> dict[str, Any]:
    """The `models` mapping of a price file (or the whole file when it has no `models` key)."""
    path = Path(path).expanduser()
    text = read_input(path, "price file", limit=MAX_CONFIG_BYTES,
                      error=lambda reason: LLMConfigError(f"{path}: {reason}"))
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as err:
        raise LLMConfigError(f"{path}: invalid YAML in the price file: {err}") from None
    if data is None:
        return {}
    if isinstance(data, Mapping) and isinstance(data.get("models"), Mapping):
        data = data["models"]
    if not isinstance(data, Mapping):
        raise LLMConfigError(f"{path}: a price file maps model names to {{input: ..., output: ...}} "
                             "(optionally under a top-level 'models:' key)")
    return dict(data)


@cache
def default_prices() -> PriceTable:
    """The bundled table (`apb/llm/prices.yaml`)."""
    return PriceTable().merged(read_price_file(DEFAULT_PRICES_FILE), str(DEFAULT_PRICES_FILE))


def load_prices(prices: PricesArg = None) -> PriceTable:
    """The bundled table, then `$APB_PRICES`, then `prices` (a file, a {model: {...}} mapping or a table)."""
    if isinstance(prices, PriceTable):
        return prices
    table = default_prices()
    env_file = os.environ.get(PRICES_ENV)
    if env_file:
        table = table.merged(read_price_file(env_file), env_file)
    if isinstance(prices, str | Path):
        table = table.merged(read_price_file(prices), str(prices))
    elif isinstance(prices, Mapping):
        entries = prices.get("models") if isinstance(prices.get("models"), Mapping) else prices
        table = table.merged(entries, "prices")
    elif prices is not None:
        raise LLMConfigError(f"prices must be a path, a mapping or a PriceTable, not {type(prices).__name__}")
    return table
