"""`apb.errors` is the one place a user imports errors from: every ApbError subclass of the package is there (the
very class its home raises), and importing `apb.errors` loads no layer above it."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import apb.errors

PACKAGE = Path(apb.errors.__file__).resolve().parent


def error_classes() -> dict[str, str]:
    """Every public class of apb/ that derives from ApbError (through any chain of bases): name -> module."""
    bases: dict[str, tuple[str, set[str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                names = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", "") for b in node.bases}
                bases[node.name] = (".".join(parts), names)
    found = {"ApbError"}
    changed = True
    while changed:
        changed = False
        for name, (_, parents) in bases.items():
            if name not in found and parents & found:
                found.add(name)
                changed = True
    return {name: bases[name][0] for name in found if not name.startswith("_")}


def test_every_user_error_is_importable_from_apb_errors():
    classes = error_classes()
    assert len(classes) >= 33 and {"LLMError", "AgentError", "ACPError", "InputFileError"} <= set(classes)
    for name, module in sorted(classes.items()):
        assert name in apb.errors.__all__, f"{name} ({module}) is not exported by apb.errors"
        home = __import__(module, fromlist=[name])
        assert getattr(apb.errors, name) is getattr(home, name), name
        assert issubclass(getattr(apb.errors, name), apb.errors.ApbError)
    assert "LLMError" in dir(apb.errors)


def test_an_unknown_name_is_an_attribute_error():
    try:
        apb.errors.NoSuchError  # noqa: B018
    except AttributeError as err:
        assert "NoSuchError" in str(err)
    else:
        raise AssertionError("apb.errors.NoSuchError did not raise")


def test_importing_apb_errors_loads_no_higher_layer():
    code = ("import sys, apb.errors; print(sorted(m for m in sys.modules if m.split('.')[:2] in "
            "[['apb', p] for p in ('llm', 'eval', 'acp', 'agents', 'nl', 'nl2pddl', 'cli', 'integrations', 'envs')]))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=PACKAGE.parent).stdout
    assert out.strip() == "[]"
