"""Evaluation: async episode runner with resume, JSONL trajectories, metrics and reports."""
