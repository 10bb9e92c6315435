"""Grippers: robots with two grippers each carry balls between rooms."""
