"""apb: classical PDDL planning domains as Gymnasium text games for LLM and RL agents."""

__version__ = "0.1.0"
