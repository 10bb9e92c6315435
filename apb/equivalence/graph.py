"""Scene graphs and labelled isomorphism (networkx VF2, or rustworkx's when installed: `pip install 'apb[fast]'`).

A scene graph has one node per object, labelled by its type (a domain constant by its own name, since a renaming
must fix it), and one node per proposition, labelled by its scene (init or goal) and predicate, with an edge to the
object at each argument position labelled by that position. Two problems are the same up to renaming objects
exactly when their graphs are isomorphic under these labels; the isomorphism is the renaming.
"""

from __future__ import annotations

import functools
import importlib.util
import sys
from collections import Counter
from collections.abc import Iterable, Mapping

import networkx as nx
from networkx.algorithms import isomorphism

BACKENDS = ("auto", "networkx", "rustworkx")
REFINE_ROUNDS = 4


class SceneGraph:
    """Nodes with hashable labels and position-labelled edges from propositions to objects (backend neutral)."""

    def __init__(self, objects: Mapping[str, str], constants: Iterable[str],
                 scenes: Mapping[str, Iterable[tuple]]) -> None:
        self.labels: list[tuple] = []
        self.names: list[str | None] = []
        self.edges: list[tuple[int, int, int]] = []
        index: dict[str, int] = {}
        for name in sorted(objects):
            index[name] = self._node(("object", objects[name]), name)
        for name in sorted(constants):
            if name not in index:
                index[name] = self._node(("constant", name), name)
        for scene in sorted(scenes):
            for atom in sorted(scenes[scene]):
                node = self._node((scene, atom[0]), None)
                for pos, arg in enumerate(atom[1:]):
                    if arg not in index:  # an undeclared name: a constant of its own
                        index[arg] = self._node(("constant", arg), arg)
                    self.edges.append((node, index[arg], pos))

    def _node(self, label: tuple, name: str | None) -> int:
        self.labels.append(label)
        self.names.append(name)
        return len(self.labels) - 1

    def relabelled(self, labels: list) -> SceneGraph:
        """The same graph with new node labels (e.g. refined colours)."""
        copy = object.__new__(SceneGraph)
        copy.labels, copy.names, copy.edges = list(labels), self.names, self.edges
        return copy

    def to_networkx(self) -> nx.DiGraph:
        """The graph for networkx's matcher: node attribute `label`, edge attribute `pos`."""
        graph = nx.DiGraph()
        for node, label in enumerate(self.labels):
            graph.add_node(node, label=label)
        for src, dst, pos in self.edges:
            if graph.has_edge(src, dst):  # the same object twice in one atom: positions as a tuple
                graph.edges[src, dst]["pos"] = tuple(sorted((*_as_tuple(graph.edges[src, dst]["pos"]), pos)))
            else:
                graph.add_edge(src, dst, pos=pos)
        return graph


def _as_tuple(value) -> tuple:
    return value if isinstance(value, tuple) else (value,)


def _joint_refinement(a: SceneGraph, b: SceneGraph, rounds: int = REFINE_ROUNDS) -> tuple[list[int], list[int]]:
    """Colour refinement (1-dimensional Weisfeiler-Leman) of both graphs at once, so colours mean the same in both:
    each node's colour is extended, round by round, with its neighbours' colours and the edge positions. An
    isomorphism preserves colours, so non-isomorphic graphs usually differ in their colour counts already, and VF2
    only pairs nodes of equal colour (this is what keeps symmetric scenes fast). At most `rounds` rounds: the first
    few split almost everything a scene graph has to split, and each round costs a pass over the edges."""
    offset = len(a.labels)
    labels = a.labels + b.labels
    out_edges: list[list] = [[] for _ in labels]
    in_edges: list[list] = [[] for _ in labels]
    for src, dst, pos in [*a.edges, *((s + offset, d + offset, p) for s, d, p in b.edges)]:
        out_edges[src].append((pos, dst))
        in_edges[dst].append((pos, src))
    ids = {label: i for i, label in enumerate(sorted(set(labels)))}
    colours = [ids[label] for label in labels]
    classes = len(ids)
    for _ in range(rounds):
        signatures = [(colours[n], tuple(sorted((p, colours[d]) for p, d in out_edges[n])),
                       tuple(sorted((p, colours[s]) for p, s in in_edges[n]))) for n in range(len(labels))]
        ids = {sig: i for i, sig in enumerate(sorted(set(signatures)))}
        colours = [ids[sig] for sig in signatures]
        if len(ids) == classes:
            break
        classes = len(ids)
    return colours[:offset], colours[offset:]


def have_rustworkx() -> bool:
    """Whether the optional rustworkx backend is importable (looked up once: a failed import on every check cost
    milliseconds and the import lock, which `apb nl2pddl eval`'s scoring threads then queued on)."""
    if "rustworkx" in sys.modules:
        return sys.modules["rustworkx"] is not None
    return _rustworkx_installed()


@functools.cache
def _rustworkx_installed() -> bool:
    return importlib.util.find_spec("rustworkx") is not None


def _networkx_mapping(a: SceneGraph, b: SceneGraph) -> dict[int, int] | None:
    matcher = isomorphism.DiGraphMatcher(a.to_networkx(), b.to_networkx(),
                                         node_match=isomorphism.categorical_node_match("label", None),
                                         edge_match=isomorphism.categorical_edge_match("pos", None))
    for mapping in matcher.isomorphisms_iter():
        return dict(mapping)
    return None


def _rustworkx_mapping(a: SceneGraph, b: SceneGraph) -> dict[int, int] | None:
    import rustworkx as rx

    def build(graph: SceneGraph):
        g = rx.PyDiGraph()
        g.add_nodes_from(graph.labels)
        merged: dict[tuple[int, int], tuple] = {}
        for src, dst, pos in graph.edges:
            merged[(src, dst)] = tuple(sorted((*merged.get((src, dst), ()), pos)))
        g.add_edges_from([(s, d, p) for (s, d), p in merged.items()])
        return g

    mappings = rx.vf2_mapping(build(a), build(b), node_matcher=lambda x, y: x == y,
                              edge_matcher=lambda x, y: x == y, id_order=False)
    for mapping in mappings:
        return dict(mapping.items())
    return None


RUSTWORKX_MISSING = ("--backend rustworkx needs the rustworkx package, which is not installed: pip install "
                     "'apb[fast]' (or use --backend auto or networkx)")


def isomorphism_mapping(a: SceneGraph, b: SceneGraph, backend: str = "auto") -> dict[str, str] | None:
    """The object renaming (a's names -> b's) under which the graphs are equal, or None if there is none."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: choose one of {', '.join(BACKENDS)}")
    if backend == "rustworkx" and not have_rustworkx():
        raise ModuleNotFoundError(RUSTWORKX_MISSING, name="rustworkx")
    if len(a.labels) != len(b.labels) or len(a.edges) != len(b.edges) or Counter(a.labels) != Counter(b.labels):
        return None
    colours_a, colours_b = _joint_refinement(a, b)
    if Counter(colours_a) != Counter(colours_b):
        return None
    a, b = a.relabelled(colours_a), b.relabelled(colours_b)
    use_rx = backend == "rustworkx" or (backend == "auto" and have_rustworkx())
    nodes = _rustworkx_mapping(a, b) if use_rx else _networkx_mapping(a, b)
    if nodes is None:
        return None
    return {a.names[i]: b.names[j] for i, j in nodes.items() if a.names[i] is not None}
