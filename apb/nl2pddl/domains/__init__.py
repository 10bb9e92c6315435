"""Benchmark domain files shipped as data (apb.nl2pddl.registry resolves them)."""
