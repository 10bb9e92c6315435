"""Gripper: one robot with two grippers carries balls between two rooms (the Grippers domain, for scaling)."""
