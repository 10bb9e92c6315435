"""What every `apb bench ...` command does with its report: JSON on stdout, or a rich table at least 120 columns
wide (also when piped, so rows do not wrap)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from rich.console import Console

from apb.console import make_console


def comma_list(value: str | None) -> list[str] | None:
    """'ferry, logistics' -> ['ferry', 'logistics']; None or blank -> None (the command's default)."""
    items = [v.strip() for v in (value or "").split(",") if v.strip()]
    return items or None


def show_report(report: dict[str, Any], print_table: Callable[[dict[str, Any], Console], None],
                as_json: bool) -> int:
    """Prints the report as JSON or with `print_table`; returns exit code 0."""
    if as_json:
        print(json.dumps(report, indent=2))
        return 0
    console = make_console()
    print_table(report, console)
    return 0
