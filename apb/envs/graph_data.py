"""Graph observations (obs_mode="graph") as PyTorch Geometric data in one call; needs the `rl` extra.

`to_data(graph)`: a homogeneous `Data` — `x` the node features, `edge_index` atom -> object links in both directions
(2 x 2E, the reverse edges after the forward ones), `edge_attr` the one-hot argument position (with a last column
marking reverse edges). `to_heterodata(graph)`: `HeteroData` with node types "object" and "atom" (state and goal
atoms, their kind in the features) and edge types ("atom", "arg", "object") / ("object", "rev_arg", "atom") whose
`edge_attr` is the argument position.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def _torch():
    try:
        import torch
        import torch_geometric.data as pyg_data
    except ImportError as error:  # the rl extra is optional
        from apb.engine.errors import ApbError

        raise ApbError("graph observations to PyTorch Geometric need the rl extra: pip install 'apb[rl]'") from error
    return torch, pyg_data


def to_data(graph: Any, max_arity: int | None = None) -> Any:
    """A `torch_geometric.data.Data` of a graph observation (`GraphInstance`)."""
    torch, pyg_data = _torch()
    nodes = np.asarray(graph.nodes, dtype=np.float32)
    links = np.asarray(graph.edge_links, dtype=np.int64).reshape(-1, 2)
    positions = np.asarray(graph.edges, dtype=np.int64).reshape(-1)
    arity = max_arity if max_arity is not None else int(positions.max(initial=-1)) + 1
    forward = np.zeros((len(positions), arity + 1), dtype=np.float32)
    forward[np.arange(len(positions)), positions] = 1.0
    backward = forward.copy()
    backward[:, arity] = 1.0
    edge_index = np.concatenate([links.T, links[:, ::-1].T], axis=1)
    return pyg_data.Data(x=torch.from_numpy(nodes), edge_index=torch.from_numpy(np.ascontiguousarray(edge_index)),
                         edge_attr=torch.from_numpy(np.concatenate([forward, backward])))


def to_heterodata(graph: Any) -> Any:
    """A `torch_geometric.data.HeteroData` of a graph observation, objects and atoms as separate node types."""
    torch, pyg_data = _torch()
    nodes = np.asarray(graph.nodes, dtype=np.float32)
    links = np.asarray(graph.edge_links, dtype=np.int64).reshape(-1, 2)
    positions = torch.from_numpy(np.asarray(graph.edges, dtype=np.int64).reshape(-1))
    is_object = nodes[:, 0] == 1.0
    n_objects = int(is_object.sum())
    data = pyg_data.HeteroData()
    data["object"].x = torch.from_numpy(nodes[is_object])
    data["atom"].x = torch.from_numpy(nodes[~is_object])
    arg = np.stack([links[:, 0] - n_objects, links[:, 1]])
    data["atom", "arg", "object"].edge_index = torch.from_numpy(np.ascontiguousarray(arg))
    data["atom", "arg", "object"].edge_attr = positions
    data["object", "rev_arg", "atom"].edge_index = torch.from_numpy(np.ascontiguousarray(arg[::-1]))
    data["object", "rev_arg", "atom"].edge_attr = positions
    return data
