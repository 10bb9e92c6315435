"""Visitall: a robot must visit a set of cells on a grid."""
