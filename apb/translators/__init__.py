"""Translators from an LLM's free-text action to a grounded PDDL action: template, fuzzy, T-LLM, cascade."""
