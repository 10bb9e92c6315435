"""Explicit state spaces through the engine's public API: enumeration from a state with a node budget,
forward closures, goal distances (h*) and witness paths.

Everything here steps with `task.applicable` / `task.apply`, so it follows whatever semantics the engine has
(STRIPS today, conditional effects when they land). A space is *complete* when every state reachable from its
root was enumerated within the budget: only then do "never" claims (unreachable, landmark, h*) rest on it.
"""

from __future__ import annotations

import heapq
import math
from collections import deque
from collections.abc import Callable

from apb.engine import ApbError, GroundAction, State, Task

DEFAULT_BUDGET = 20000  # states enumerated at most per space
TIME_LIMIT = 1800  # seconds per generated (task, format) group: a safety net only (apb.acp.generate)


class StateSpace:
    """The states reachable from `root` (breadth first, at most `budget` of them) with their transitions.

    Node 0 is the root. `succ[n]` lists (action index into `actions`, successor node). `complete` says whether
    the enumeration finished within the budget.
    """

    def __init__(self, task: Task, root: State, budget: int = DEFAULT_BUDGET) -> None:
        self.task = task
        self.budget = budget
        self.states: list[State] = [root]
        self.index: dict[State, int] = {root: 0}
        self.parent: list[int] = [-1]
        self.via: list[int] = [-1]
        self.actions: list[GroundAction] = []
        self._action_ids: dict[int, int] = {}
        self.succ: list[list[tuple[int, int]]] = []
        self.complete = self._enumerate()
        self._goal_dist: list[float] | None = None
        self._component: list[int] | None = None
        self._closures: dict[int, list[int]] = {}
        self._complete: dict[int, bool] = {}

    def _enumerate(self) -> bool:
        task, states, index = self.task, self.states, self.index
        ids = self._action_ids  # id(action) -> position in self.actions (task actions live as long as the task)
        actions = self.actions
        head = 0
        while head < len(states):
            state = states[head]
            edges = []
            for action in task.applicable(state):
                aid = ids.get(id(action))
                if aid is None:
                    aid = ids[id(action)] = len(actions)
                    actions.append(action)
                nxt = task.successor(state, action)
                node = index.get(nxt)
                if node is None:
                    if len(states) >= self.budget:
                        self.succ.append(edges)
                        return False
                    node = index[nxt] = len(states)
                    states.append(nxt)
                    self.parent.append(head)
                    self.via.append(aid)
                edges.append((aid, node))
            self.succ.append(edges)
            head += 1
        return True

    def __len__(self) -> int:
        return len(self.states)

    # ---- closures and paths -------------------------------------------------------------------------------------
    def components(self) -> list[int]:
        """The strongly connected component of every node (iterative Tarjan); nodes of one component reach the
        same nodes, so closures are computed once per component."""
        if self._component is None:
            n = len(self.states)
            succ = self.succ
            index = [-1] * n
            low = [0] * n
            comp = [-1] * n
            on_stack = [False] * n
            stack: list[int] = []
            counter = count = 0
            for root in range(n):
                if index[root] >= 0:
                    continue
                work = [(root, 0)]
                while work:
                    v, i = work[-1]
                    if i == 0:
                        index[v] = low[v] = counter
                        counter += 1
                        stack.append(v)
                        on_stack[v] = True
                    edges = succ[v] if v < len(succ) else ()
                    if i < len(edges):
                        work[-1] = (v, i + 1)
                        w = edges[i][1]
                        if index[w] < 0:
                            work.append((w, 0))
                        elif on_stack[w]:
                            low[v] = min(low[v], index[w])
                        continue
                    work.pop()
                    if work:
                        parent = work[-1][0]
                        low[parent] = min(low[parent], low[v])
                    if low[v] == index[v]:
                        while True:
                            w = stack.pop()
                            on_stack[w] = False
                            comp[w] = count
                            if w == v:
                                break
                        count += 1
            self._component = comp
        return self._component

    def closure(self, node: int) -> list[int]:
        """Nodes reachable from `node` (itself included) inside the enumerated part, breadth first."""
        comp = self.components()[node]
        cached = self._closures.get(comp)
        if cached is None:
            cached = self._closures[comp] = self._bfs(node)
        return cached

    def _bfs(self, node: int) -> list[int]:
        seen = {node}
        order = [node]
        head = 0
        succ = self.succ
        while head < len(order):
            n = order[head]
            head += 1
            if n >= len(succ):
                continue
            for _, m in succ[n]:
                if m not in seen:
                    seen.add(m)
                    order.append(m)
        return order

    def closure_complete(self, node: int) -> bool:
        """Whether every state reachable from `node` is enumerated (true when the whole space is complete, or
        when the closure never touches the unexpanded frontier)."""
        if self.complete:
            return True
        comp = self.components()[node]
        if comp not in self._complete:
            expanded = len(self.succ)
            self._complete[comp] = all(n < expanded for n in self.closure(node))
        return self._complete[comp]

    def path(self, source: int, accept: Callable[[int], bool], avoid: Callable[[int], bool] | None = None
             ) -> list[GroundAction] | None:
        """A shortest action path from `source` to a node that `accept`s, never entering an `avoid`ed node."""
        if avoid is not None and avoid(source):
            return None
        if accept(source):
            return []
        back = {source: (-1, -1)}
        queue = deque([source])
        succ = self.succ
        while queue:
            n = queue.popleft()
            if n >= len(succ):
                continue
            for aid, m in succ[n]:
                if m in back or (avoid is not None and avoid(m)):
                    continue
                back[m] = (n, aid)
                if accept(m):
                    steps = []
                    while m != source:
                        m, aid = back[m]
                        steps.append(self.actions[aid])
                    return steps[::-1]
                queue.append(m)
        return None

    # ---- goal distances -------------------------------------------------------------------------------------------
    def goal_distances(self) -> list[float]:
        """h* of every enumerated node under the task's action costs (inf where no goal state is reachable);
        exact only for complete closures. Backward breadth-first for unit costs, else backward Dijkstra."""
        if self._goal_dist is None:
            costs = [self.task.cost(a) for a in self.actions]
            pred: list[list[tuple[int, float]]] = [[] for _ in self.states]
            for n, edges in enumerate(self.succ):
                for aid, m in edges:
                    pred[m].append((n, costs[aid]))
            dist = [math.inf] * len(self.states)
            heap = [(0.0, n) for n, s in enumerate(self.states) if self.task.is_goal(s)]
            for _, n in heap:
                dist[n] = 0
            heapq.heapify(heap)
            while heap:
                d, m = heapq.heappop(heap)
                if d > dist[m]:
                    continue
                for n, cost in pred[m]:
                    if d + cost < dist[n]:
                        dist[n] = d + cost
                        heapq.heappush(heap, (d + cost, n))
            self._goal_dist = [int(d) if d != math.inf and d == int(d) else d for d in dist]
        return self._goal_dist


def replay(task: Task, start: State, plan: list[str]) -> list[State] | None:
    """The states visited by executing `plan` (PDDL strings) from `start`, or None if a step does not apply."""
    states = [start]
    state = start
    for text in plan:
        try:
            action = task.parse_action(text)
        except ApbError:
            return None
        if task.explain(state, action):
            return None
        state = task.apply(state, action)
        states.append(state)
    return states
