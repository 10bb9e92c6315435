"""Learned general policies (the `rl` extra): a relational GNN trained on small generated problems to estimate the
cost-to-go, acting greedily on problems of any size (apb.rl.policy), its training (apb.rl.train), evaluation against
random and BrFS (apb.rl.evaluate), the `gnn` agent (apb.rl.agent) and `apb rl` (apb.rl.cli). PyTorch is imported
only by the modules that need it."""
