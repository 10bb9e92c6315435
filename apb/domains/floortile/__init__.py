"""Floortile: robots paint a grid of floor tiles in a checkerboard of two colours."""
