"""The house rule: imports point down the layer order written in docs/architecture.md's Layers section, and no
module imports itself back through a cycle. Every module of `apb/` is read with `ast` (nothing is imported)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
PACKAGE = ROOT / "apb"


def layer_order() -> list[str]:
    """The layers top to bottom as module-name prefixes (`apb.cli`, `apb.eval`, ...), from the architecture page."""
    section = ARCHITECTURE.read_text(encoding="utf-8").split("\n## Layers\n", 1)[1]
    block = re.search(r"```\n(.*?)```", section, flags=re.S).group(1)
    layers = []
    for line in block.splitlines():
        match = re.match(r"(apb/[\w/.]*)", line)
        if match:
            path = match.group(1).rstrip("/").removesuffix(".py").removesuffix("/__init__")
            layers.append(path.replace("/", "."))
    return layers


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(name: str, source: str, is_package: bool) -> set[str]:
    """The apb modules a module's source imports (module names, and `module.name` for `from module import name`)."""
    found: set[str] = set()
    package = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "apb")
        elif isinstance(node, ast.ImportFrom):
            base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else (node.module or "")
            if base.split(".")[0] == "apb":
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, set[str]]:
    """module -> the modules of `sources` it imports (`sources`: module -> (source text, is a package))."""
    graph = {}
    for name, (source, is_package) in sources.items():
        graph[name] = {m for m in imports_of(name, source, is_package) if m in sources and m != name}
    return graph


def package_sources(root: Path = PACKAGE) -> dict[str, tuple[str, bool]]:
    return {module_name(p, root): (p.read_text(encoding="utf-8"), p.name == "__init__.py")
            for p in sorted(root.rglob("*.py"))}


def layer_of(module: str, layers: list[str]) -> int | None:
    """The index (0 = top) of the most specific layer prefix of a module; the root `apb` is the bottom layer."""
    best = None
    for index, prefix in enumerate(layers):
        if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > len(layers[best])):
            best = index
    return best


def violations(graph: dict[str, set[str]], layers: list[str]) -> list[str]:
    """Every import that goes up the layer order, and every module outside the listed layers."""
    problems = []
    for module, targets in sorted(graph.items()):
        mine = layer_of(module, layers)
        if mine is None:
            problems.append(f"{module} is in no layer of docs/architecture.md's Layers list: add its package there")
            continue
        for target in sorted(targets):
            theirs = layer_of(target, layers)
            if theirs is not None and theirs < mine:
                problems.append(f"{module} ({layers[mine]}) imports {target} from the higher layer {layers[theirs]}")
    return problems


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles (strongly connected components with more than one module, or a self-loop)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(root: str) -> None:  # iterative Tarjan
        nonlocal counter
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return found


def test_the_architecture_page_lists_the_layers():
    layers = layer_order()
    assert layers[0] == "apb.__main__" and layers[-1] == "apb"
    assert {"apb.engine", "apb.datasets", "apb.envs", "apb.agents", "apb.eval", "apb.cli"} <= set(layers)
    assert layers.index("apb.engine") > layers.index("apb.planners") > layers.index("apb.datasets")


def test_no_import_goes_up_the_layers():
    assert violations(import_graph(package_sources()), layer_order()) == []


def test_no_import_cycles():
    assert cycles(import_graph(package_sources())) == []


def test_an_upward_import_and_a_cycle_are_caught():
    sources = package_sources()
    sources["apb.engine.synthetic"] = ("from apb.eval.runner import run_eval\n", False)
    problems = violations(import_graph(sources), layer_order())
    assert problems == ["apb.engine.synthetic (apb.engine) imports apb.eval.runner from the higher layer apb.eval"]
    sources = {"apb.a": ("from apb.b import x\n", False), "apb.b": ("import apb.a\n", False)}
    assert cycles(import_graph(sources)) == [["apb.a", "apb.b"]]
    sources = {"apb.nl.x": ("from . import y\n", False), "apb.nl.y": ("from .x import f\n", False)}
    assert cycles(import_graph(sources)) == [["apb.nl.x", "apb.nl.y"]]
