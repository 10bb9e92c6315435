"""Each ACP task is one module: `apb/acp/tasks/<task>.py` owns what is that task's, behind the protocol of
`apb.acp.tasks.base.ACPTask`, and the shared modules call it by name through the registry (issue 33)."""

from __future__ import annotations

import ast
from pathlib import Path

from apb.acp.records import TASKS as NAMES
from apb.acp.tasks import TASKS
from apb.acp.tasks.base import SHAPES

ACP = Path(__file__).resolve().parents[1] / "apb" / "acp"


def naming_modules(task: str) -> set[str]:
    """The modules of apb/acp whose code (docstrings aside) names `task`: as a string, or a name it defines or uses."""
    found = set()
    for path in ACP.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                      and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            named = ((isinstance(node, ast.Constant) and node.value == task and id(node) not in docstrings)
                     or (isinstance(node, ast.Name) and node.id == task)
                     or (isinstance(node, ast.FunctionDef) and node.name == task)
                     or (isinstance(node, ast.alias) and node.name.split(".")[-1] == task))
            if named:
                found.add(path.relative_to(ACP).as_posix())
                break
    return found


def test_the_registry_holds_every_task_in_order_with_its_parts():
    assert tuple(TASKS) == NAMES
    for name, spec in TASKS.items():
        assert spec.name == name and spec.shape in SHAPES
        assert all(callable(part) for part in (spec.generate, spec.solve, spec.official, spec.sound, spec.audit))
    assert [name for name, spec in TASKS.items() if spec.decide is None] == ["nexta"]  # generative only


def test_a_task_is_named_in_its_module_the_registry_and_records_only():
    for task in NAMES:
        assert naming_modules(task) <= {f"tasks/{task}.py", "tasks/__init__.py", "records.py"}, task
