"""The relational GNN: object embeddings refined by messages along the state's and the goal's atoms, read out as
the state's estimated cost-to-go. Needs the `rl` extra (PyTorch).

One iteration: every atom r(o1..ok) sends an MLP_r of its objects' embeddings back to each of them (max
aggregation per object), and each object updates its embedding with a GRU cell from that message and the graph's
nullary flags. The weights are shared across iterations, so a larger problem can run more of them: training draws
the number of iterations per batch from a range, which keeps the embeddings stable when more are run. The value is
the sum over objects of a per-object MLP, so it scales with the number of objects like the cost-to-go does.
"""

from __future__ import annotations

import torch
from torch import nn

from apb.rl.graphs import Batch


def _mlp(inputs: int, outputs: int, hidden: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, outputs))


class RelationalGNN(nn.Module):
    def __init__(self, arities: list[int], num_types: int, num_flags: int, hidden: int = 32) -> None:
        super().__init__()
        self.hidden = hidden
        self.arities = list(arities)
        self.embed = nn.Linear(num_types, hidden)
        self.relations = nn.ModuleList(_mlp(k * hidden, k * hidden, 2 * hidden) for k in self.arities)
        self.update = nn.GRUCell(hidden + num_flags, hidden)
        self.value = _mlp(hidden, 1, hidden)

    def forward(self, batch: Batch, iterations: int) -> torch.Tensor:
        """The estimated cost-to-go of each graph of the batch (shape: num_graphs)."""
        types = torch.from_numpy(batch.types)
        graph = torch.from_numpy(batch.graph)
        flags = torch.from_numpy(batch.flags)[graph]
        atoms = [torch.from_numpy(a) for a in batch.atoms]
        h = torch.tanh(self.embed(types))
        n, k = h.shape
        for _ in range(iterations):
            incoming = torch.zeros(n, k)
            for mlp, arity, index in zip(self.relations, self.arities, atoms):
                if not len(index):
                    continue
                gathered = h[index].reshape(len(index), arity * k)
                messages = mlp(gathered).reshape(len(index) * arity, k)
                target = index.reshape(-1, 1).expand(-1, k)
                incoming = incoming.scatter_reduce(0, target, messages, reduce="amax", include_self=True)
            h = self.update(torch.cat([incoming, flags], dim=1), h)
        per_object = self.value(h).squeeze(1)
        return torch.zeros(batch.num_graphs).index_add(0, graph, per_object)


def default_iterations(num_objects: int, trained: tuple[int, int]) -> int:
    """Iterations for a problem: the most seen in training (far more make the estimates drift: measured on
    20-block Blocksworld, 36 iterations gave 28% longer plans than 24), more only for very large problems."""
    return int(max(trained[1], num_objects // 2))
