"""Policy-ready observations and actions for PDDLTextEnv and the native vector env: `obs_mode` and `action_mode`.

One `Encoding` is built per env over every problem of its split (the index is stable: sorted names, the same for
every problem the env can pick):

- `obs_mode="facts"`: `MultiBinary(2 * len(fact_names))` int8 — the true facts of the state (static facts included,
  as in `info["state_pddl"]`), then the positive goal facts, over `fact_names` (every fluent, derived and static
  fact of every problem, sorted).
- `obs_mode="graph"`: an object-centric graph in a `gymnasium.spaces.Graph` (`GraphInstance(nodes, edges,
  edge_links)`): one node per object (the problem's object order, `info["objects"]`), then one per true state atom
  (static facts first, then the others in fact-id order), then one per positive goal atom. Node features (float32,
  `node_features` names them): kind (object / state atom / goal atom), the object's type and its supertypes, the
  atom's predicate. An edge links an atom node to the object
  in argument position k (`edge_links[e] = [atom node, object node]`, `edges[e] = k`). `graph_facts` reads the facts
  back; `apb.envs.graph_data.to_data` / `to_heterodata` convert it to PyTorch Geometric in one call.
- `action_mode="index"`: `Discrete(len(action_names))` over every ground action of every problem (sorted);
  `action_mode="lifted"`: `MultiDiscrete([schemas] + [max objects] * max parameters)`, a schema index (domain order)
  then object indices into the problem's objects (unused slots are ignored), so a policy can transfer across sizes.
- The action mask (every mode): `mask(task, bits)` over `action_names` (int8, 1 = applicable).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium.spaces import Box, Discrete, Graph, GraphInstance, MultiBinary, MultiDiscrete

from apb.engine.errors import ApbError
from apb.engine.task import Task
from apb.envs.spaces import PrintableText, action_index

OBS_MODES = ("text", "facts", "graph")
ACTION_MODES = ("text", "index", "lifted")
NODE_KINDS = ("object", "atom", "goal")
CACHE_LIMIT = 20_000  # states per problem whose facts vector and applicable actions are kept


def check_modes(obs_mode: str, action_mode: str) -> None:
    """ApbError naming the value when `obs_mode` / `action_mode` is not one of the known ones."""
    if obs_mode not in OBS_MODES:
        raise ApbError(f"obs_mode={obs_mode!r} is not an observation mode: use one of {', '.join(OBS_MODES)}")
    if action_mode not in ACTION_MODES:
        raise ApbError(f"action_mode={action_mode!r} is not an action mode: use one of {', '.join(ACTION_MODES)}")


def _parts(fact: str) -> list[str]:
    return fact.strip()[1:-1].split()


class _TaskTables:
    """Per-problem arrays: task fact id -> global fact index, task action index -> global action index, and the
    graph pieces (object node features, each fact's predicate and argument objects, the goal atoms)."""

    __slots__ = ("action_map", "applicable", "fact_args", "fact_map", "fact_pred", "facts", "goal_args", "goal_pred",
                 "goal_vector", "graphs", "nbytes", "object_features", "objects", "static_args", "static_bits",
                 "static_pred", "static_vector")

    def __init__(self, encoding: Encoding, task: Task) -> None:
        self.fact_map = np.array([encoding.fact_index[f] for f in task.fact_names], dtype=np.int64)
        self.action_map = np.array([encoding.action_index[str(a)] for a in task.actions], dtype=np.int64)
        self.static_bits = task._static_bits
        self.nbytes = max(1, (len(task.fact_names) + 7) // 8)
        self.facts: dict[int, np.ndarray] = {}  # state bits -> facts vector, for states seen again
        self.applicable: dict[int, tuple[list[int], np.ndarray]] = {}  # state bits -> (applicable ids, mask)
        self.graphs: dict[int, GraphInstance] = {}  # state bits -> graph observation
        self.objects = list(task.objects)
        position = {o: i for i, o in enumerate(self.objects)}
        goal = np.zeros(len(encoding.fact_names), dtype=np.int8)
        goal_facts = [str(g) for g in task.goal if g.positive and g.predicate != "="]
        goal[[encoding.fact_index[g] for g in goal_facts if g in encoding.fact_index]] = 1
        self.goal_vector = goal
        statics = sorted(task.static_facts)
        self.static_vector = np.zeros(len(encoding.fact_names), dtype=np.int8)
        self.static_vector[[encoding.fact_index[f] for f in statics]] = 1
        # graph tables
        features = np.zeros((len(self.objects), encoding.node_dim), dtype=np.float32)
        features[:, 0] = 1.0
        for i, name in enumerate(self.objects):
            for t in encoding.domain.ancestors(task.objects[name]):
                if t in encoding.type_index:
                    features[i, encoding.type_index[t]] = 1.0
        self.object_features = features
        preds = [_parts(f) for f in task.fact_names]
        self.fact_pred = np.array([encoding.predicate_index[p[0]] for p in preds], dtype=np.int64)
        self.fact_args = [np.array([position[a] for a in p[1:]], dtype=np.int64) for p in preds]
        goal_parts = [_parts(g) for g in goal_facts]
        self.goal_pred = np.array([encoding.predicate_index[p[0]] for p in goal_parts], dtype=np.int64)
        self.goal_args = [np.array([position[a] for a in p[1:]], dtype=np.int64) for p in goal_parts]
        static_parts = [_parts(f) for f in statics]
        self.static_pred = np.array([encoding.predicate_index[p[0]] for p in static_parts], dtype=np.int64)
        self.static_args = [np.array([position[a] for a in p[1:]], dtype=np.int64) for p in static_parts]


class Encoding:
    """The fixed index of one env's split and the spaces of its modes (see the module docstring)."""

    def __init__(self, domain, tasks: list[Task], obs_mode: str = "text", action_mode: str = "text") -> None:
        check_modes(obs_mode, action_mode)
        self.domain = domain
        self.obs_mode = obs_mode
        self.action_mode = action_mode
        facts: set[str] = set()
        actions: set[str] = set()
        for task in tasks:
            facts.update(task.fact_names)
            facts.update(task.static_facts)
            actions.update(str(a) for a in task.actions)
        self.fact_names: list[str] = sorted(facts)
        self.fact_index = {name: i for i, name in enumerate(self.fact_names)}
        self.action_names: list[str] = sorted(actions)
        self.action_index = {name: i for i, name in enumerate(self.action_names)}
        self.predicates: list[str] = sorted(domain.predicates)
        self.predicate_index = {p: i for i, p in enumerate(self.predicates)}
        self.types: list[str] = sorted(set(domain.types) | {"object"})
        offset = len(NODE_KINDS)
        self.type_index = {t: offset + i for i, t in enumerate(self.types)}
        self.predicate_offset = offset + len(self.types)
        self.node_features: list[str] = ([f"kind:{k}" for k in NODE_KINDS] + [f"type:{t}" for t in self.types]
                                         + [f"predicate:{p}" for p in self.predicates])
        self.node_dim = len(self.node_features)
        self.max_arity = max([len(p.parameters) for p in domain.predicates.values()] + [1])
        self.schemas: list[str] = [a.name for a in domain.actions]
        self.max_parameters = max([len(a.parameters) for a in domain.actions] + [1])
        self.max_objects = max([len(t.objects) for t in tasks] + [1])
        self._tables: dict[Task, _TaskTables] = {}

    # ---- spaces ---------------------------------------------------------------------------------------------
    def observation_space(self, text_length: int):
        if self.obs_mode == "facts":
            return MultiBinary(2 * len(self.fact_names))
        if self.obs_mode == "graph":
            return Graph(node_space=Box(0.0, 1.0, (self.node_dim,), dtype=np.float32),
                         edge_space=Discrete(self.max_arity))
        return PrintableText(text_length)

    def action_space(self, text_length: int):
        if self.action_mode == "index":
            return Discrete(len(self.action_names))
        if self.action_mode == "lifted":
            return MultiDiscrete([len(self.schemas)] + [self.max_objects] * self.max_parameters)
        return PrintableText(text_length)

    # ---- per task -------------------------------------------------------------------------------------------
    def tables(self, task: Task) -> _TaskTables:
        tables = self._tables.get(task)
        if tables is None:
            tables = self._tables[task] = _TaskTables(self, task)
        return tables

    def _fact_ids(self, tables: _TaskTables, bits: int) -> np.ndarray:
        bits &= ~tables.static_bits
        flags = np.unpackbits(np.frombuffer(bits.to_bytes(tables.nbytes, "little"), dtype=np.uint8),
                              bitorder="little")
        return np.flatnonzero(flags)

    def observe(self, task: Task, bits: int) -> Any:
        """The observation of the state with these bits in this encoding's obs_mode (facts or graph)."""
        return self.facts_vector(task, bits) if self.obs_mode == "facts" else self.graph(task, bits)

    def facts_vector(self, task: Task, bits: int) -> np.ndarray:
        """The facts observation (multi-hot state, then goal) of the state with these bits."""
        tables = self.tables(task)
        vector = tables.facts.get(bits)
        if vector is None:
            ids = self._fact_ids(tables, bits)
            size = len(self.fact_names)
            vector = np.zeros(2 * size, dtype=np.int8)
            vector[tables.fact_map[ids]] = 1
            vector[:size] |= tables.static_vector
            vector[size:] = tables.goal_vector
            if len(tables.facts) >= CACHE_LIMIT:
                tables.facts.clear()
            tables.facts[bits] = vector
        return vector.copy()

    def graph(self, task: Task, bits: int) -> GraphInstance:
        """The graph observation of the state with these bits (fresh arrays; built once per state)."""
        tables = self.tables(task)
        known = tables.graphs.get(bits)
        if known is None:
            if len(tables.graphs) >= CACHE_LIMIT:
                tables.graphs.clear()
            known = tables.graphs[bits] = self._graph(tables, self._fact_ids(tables, bits))
        return GraphInstance(known.nodes.copy(), known.edges.copy(), known.edge_links.copy())

    def _graph(self, tables: _TaskTables, ids: np.ndarray) -> GraphInstance:
        n_objects = len(tables.objects)
        preds = np.concatenate([tables.static_pred, tables.fact_pred[ids], tables.goal_pred])
        n_state = len(tables.static_pred) + len(ids)
        atoms = np.zeros((len(preds), self.node_dim), dtype=np.float32)
        atoms[:n_state, 1] = 1.0
        atoms[n_state:, 2] = 1.0
        atoms[np.arange(len(preds)), self.predicate_offset + preds] = 1.0
        args = tables.static_args + [tables.fact_args[i] for i in ids] + tables.goal_args
        lengths = np.array([len(a) for a in args], dtype=np.int64)
        if lengths.sum():
            targets = np.concatenate(args)
            sources = np.repeat(np.arange(n_objects, n_objects + len(args)), lengths)
            positions = np.concatenate([np.arange(k) for k in lengths])
        else:
            targets = sources = positions = np.zeros(0, dtype=np.int64)
        return GraphInstance(nodes=np.concatenate([tables.object_features, atoms]), edges=positions,
                             edge_links=np.stack([sources, targets], axis=1).astype(np.int64))

    def graph_facts(self, graph: GraphInstance, objects: list[str] | dict) -> tuple[list[str], list[str]]:
        """(state facts, goal facts) of a graph observation as sorted PDDL strings; `objects` is the problem's
        object list (`info["objects"]`), whose order the object nodes follow."""
        names = list(objects)
        nodes = np.asarray(graph.nodes)
        args: dict[int, dict[int, str]] = {}
        for (atom, obj), k in zip(np.asarray(graph.edge_links).tolist(), np.asarray(graph.edges).tolist()):
            args.setdefault(atom, {})[k] = names[obj]
        state, goal = [], []
        for node in np.flatnonzero(nodes[:, 0] == 0):
            pred = self.predicates[int(np.argmax(nodes[node, self.predicate_offset:]))]
            given = args.get(int(node), {})
            text = "(" + " ".join([pred] + [given[k] for k in sorted(given)]) + ")"
            (goal if nodes[node, 2] else state).append(text)
        return sorted(state), sorted(goal)

    def mask(self, task: Task, bits: int) -> np.ndarray:
        """int8 mask over `action_names` of the actions applicable in the state with these bits."""
        return self.applicable(task, bits)[1].copy()

    def applicable(self, task: Task, bits: int) -> tuple[list[int], np.ndarray]:
        """(the task's applicable action indices, the mask over `action_names`) of a state, cached by its bits:
        treat both as read-only."""
        tables = self.tables(task)
        known = tables.applicable.get(bits)
        if known is None:
            ids = task.applicable_ids(bits)
            mask = np.zeros(len(self.action_names), dtype=np.int8)
            mask[tables.action_map[ids]] = 1
            if len(tables.applicable) >= CACHE_LIMIT:
                tables.applicable.clear()
            known = tables.applicable[bits] = (ids, mask)
        return known

    def space_mask(self, task: Task, bits: int) -> np.ndarray:
        """The mask in the shape of the action space (MaskablePPO's `action_masks()`): over `action_names` for
        index and text actions; for lifted actions, per dimension (schema, then each parameter slot) the values
        that occur in some applicable action (MaskablePPO's factored MultiDiscrete mask, an over-approximation)."""
        if self.action_mode != "lifted":
            return self.mask(task, bits).astype(bool)
        tables = self.tables(task)
        parts = [np.zeros(len(self.schemas), dtype=bool)] + [np.zeros(self.max_objects, dtype=bool)
                                                              for _ in range(self.max_parameters)]
        position = {o: i for i, o in enumerate(tables.objects)}
        schema_index = {s: i for i, s in enumerate(self.schemas)}
        for i in task.applicable_ids(bits):
            action = task.actions[i]
            parts[0][schema_index[action.name]] = True
            for k in range(self.max_parameters):
                if k < len(action.args):
                    parts[k + 1][position[action.args[k]]] = True
                else:
                    parts[k + 1][0] = True
        return np.concatenate(parts)

    # ---- actions --------------------------------------------------------------------------------------------
    def action_text(self, task: Task, action: Any) -> Any:
        """The grounded PDDL string of an index or lifted action (text actions are returned unchanged)."""
        if self.action_mode == "index":
            return self.action_names[action_index(action, len(self.action_names), "action_mode='index'")]
        if self.action_mode == "lifted":
            values = np.asarray(action).reshape(-1)
            if values.shape != (1 + self.max_parameters,) or not np.issubdtype(values.dtype, np.integer):
                raise ApbError(f"a lifted action is {1 + self.max_parameters} integers (schema index, then object "
                               f"indices), got {action!r}")
            if not 0 <= values[0] < len(self.schemas):
                raise ApbError(f"schema index {values[0]} is out of range 0-{len(self.schemas) - 1}")
            objects = self.tables(task).objects
            schema = self.domain.actions[int(values[0])]
            args = [objects[v] if 0 <= v < len(objects) else f"object-{v}"  # an unknown object: invalid, explained
                    for v in values[1:1 + len(schema.parameters)].tolist()]
            return "(" + " ".join([schema.name, *args]) + ")"
        return action

    def lifted(self, task: Task, action_name: str) -> np.ndarray:
        """The lifted encoding (schema index, object indices padded with 0) of a grounded action string."""
        parts = _parts(action_name)
        objects = self.tables(task).objects
        values = [self.schemas.index(parts[0])] + [objects.index(a) for a in parts[1:]]
        return np.array(values + [0] * (1 + self.max_parameters - len(values)), dtype=np.int64)
