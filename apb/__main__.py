"""`python -m apb` runs the apb command."""

from apb.cli import run

run()
