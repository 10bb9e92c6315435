"""Batched stepping for the native vector env: every sub-env's state as a row of 64-bit words over the split's one
fact index, and applicability, apply, the goal test, the action masks and the multi-hot observations as numpy
operations on all rows at once.

The grounded tasks of a split share one action table over `Encoding.action_names` (each action's positive and
negative preconditions, adds and deletes as fact words of the split's index, `Encoding.fact_names`); a table of
which actions each problem has (`present`) and per-problem costs, goals and initial states let sub-envs on
different problems step together without grouping. States hold the problem's static facts too (they never change,
and the facts observation shows them), so an observation is the state's bits unpacked, then the goal's.

`batch_tables(encoding, tasks)` returns the tables, or the reason the batch path cannot serve the split (a task with
conditional effects, complex preconditions or goals, or axioms; an action whose preconditions or effects differ
between problems); the vector env then steps its sub-envs one by one.
"""

from __future__ import annotations

import numpy as np

from apb.engine.bits import bit_ids
from apb.engine.task import Task
from apb.envs.observations import Encoding

# The info keys the batch path computes itself; any other key (feedback text, failure explanations, state text,
# schemas, PDDL) needs the sub-env's own step.
BATCH_INFO_KEYS = frozenset({"problem_id", "admissible_actions", "action_valid", "goal_reached", "action_mask",
                             "step", "action", "action_cost", "look_around"})


def _words(ids, size: int) -> np.ndarray:
    """A row of `size` little-endian uint64 words with the bits of the fact indices `ids` set."""
    flags = np.zeros(size * 64, dtype=np.uint8)
    flags[np.asarray(ids, dtype=np.int64)] = 1
    return np.packbits(flags, bitorder="little").view("<u8")


class BatchTables:
    """The split's shared action table and per-problem rows (see the module docstring); problem k is `tasks[k]`."""

    def __init__(self, encoding: Encoding, tasks: list[Task], pre: list, neg: list, add: list, delete: list) -> None:
        facts, actions = len(encoding.fact_names), len(encoding.action_names)
        self.num_facts, self.num_actions = facts, actions
        self.words = max(1, (facts + 63) // 64)
        words = self.words
        self.action_names = np.array(encoding.action_names, dtype=object)
        # (words, actions): word w of each action's preconditions, for the applicability test of all rows at once;
        # only the words some action tests are kept (the others cannot make an action inapplicable).
        pre_rows = np.stack([_words(ids, words) for ids in pre]).T if actions else np.zeros((words, 0), "<u8")
        neg_rows = np.stack([_words(ids, words) for ids in neg]).T if actions else np.zeros((words, 0), "<u8")
        self.tests = [(w, np.ascontiguousarray(pre_rows[w]), np.ascontiguousarray(neg_rows[w]) if neg_rows[w].any()
                       else None) for w in range(words) if pre_rows[w].any() or neg_rows[w].any()]
        # (actions, words): what an action deletes and adds, gathered per row by the chosen actions.
        self.delete = np.stack([_words(ids, words) for ids in delete]) if actions else np.zeros((0, words), "<u8")
        self.add = np.stack([_words(ids, words) for ids in add]) if actions else np.zeros((0, words), "<u8")
        self.keep = ~self.delete
        problems = len(tasks)
        self.present = np.zeros((problems, actions), dtype=np.bool_)
        self.cost = np.zeros((problems, actions), dtype=np.float64)
        self.initial = np.zeros((problems, words), dtype="<u8")
        self.goal_pos = np.zeros((problems, words), dtype="<u8")
        self.goal_neg = np.zeros((problems, words), dtype="<u8")
        self.goal_vector = np.zeros((problems, facts), dtype=np.int8)
        for k, task in enumerate(tasks):
            tables = encoding.tables(task)
            fact_map = tables.fact_map
            self.present[k, tables.action_map] = True
            self.cost[k, tables.action_map] = [float(a.cost) for a in task.actions]
            statics = np.flatnonzero(tables.static_vector).tolist()
            self.initial[k] = _words(fact_map[bit_ids(task.initial_state.bits)].tolist() + statics, words)
            self.goal_pos[k] = _words(fact_map[list(task.goal_pos)], words)
            self.goal_neg[k] = _words(fact_map[list(task.goal_neg)], words)
            self.goal_vector[k] = tables.goal_vector

    # ---- all rows at once ---------------------------------------------------------------------------------------
    def applicable(self, states: np.ndarray, problems: np.ndarray) -> np.ndarray:
        """(rows, actions) bool: the actions applicable in each row's state (`problems`: each row's problem)."""
        ok = self.present[problems]
        for w, pre, neg in self.tests:
            state = states[:, w:w + 1]
            bad = pre & ~state
            if neg is not None:
                bad |= neg & state
            ok &= bad == 0
        return ok

    def apply(self, states: np.ndarray, actions: np.ndarray) -> np.ndarray:
        """The successor states of the rows under their (applicable) actions: deletes first, then adds."""
        return (states & self.keep[actions]) | self.add[actions]

    def is_goal(self, states: np.ndarray, problems: np.ndarray) -> np.ndarray:
        positive, negative = self.goal_pos[problems], self.goal_neg[problems]
        return ((states & positive) == positive).all(axis=1) & ~(states & negative).any(axis=1)

    def observe(self, states: np.ndarray, problems: np.ndarray) -> np.ndarray:
        """(rows, 2 * facts) int8 facts observations: each state's facts (static ones included), then its goal's."""
        facts = self.num_facts
        out = np.empty((len(states), 2 * facts), dtype=np.int8)
        bits = np.unpackbits(states.view(np.uint8), axis=1, bitorder="little")
        out[:, :facts] = bits[:, :facts]
        out[:, facts:] = self.goal_vector[problems]
        return out


def batch_tables(encoding: Encoding, tasks: list[Task]) -> BatchTables | str:
    """The batch tables of a split (one entry of `tasks` per problem), or why its tasks cannot be batched."""
    for task in tasks:
        if not task.is_strips:
            return (f"problem {task.problem.name} has conditional effects, complex preconditions or goals, or "
                    "axioms")
    actions = len(encoding.action_names)
    table: list[tuple | None] = [None] * actions
    owner: list[str] = [""] * actions
    for task in tasks:
        tables = encoding.tables(task)
        fact_map = tables.fact_map
        for action, index in zip(task.actions, tables.action_map.tolist()):
            row = tuple(frozenset(fact_map[list(ids)].tolist()) for ids in (action.pre, action.neg, action.add,
                                                                             action.delete))
            known = table[index]
            if known is None:
                table[index], owner[index] = row, task.problem.name
            elif known != row:
                return (f"action {action} has other preconditions or effects in problem {task.problem.name} than "
                        f"in {owner[index]}")
    empty = (frozenset(),) * 4
    rows = [row if row is not None else empty for row in table]
    return BatchTables(encoding, tasks, *([sorted(row[k]) for row in rows] for k in range(4)))
