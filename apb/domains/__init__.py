"""Bundled benchmark domains (data: domain.pddl, nl.yaml, problems/, plans/) and their registry."""
