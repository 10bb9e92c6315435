"""The rovers benchmark domain: domain.pddl, problem generator, bundled problems and gold plans."""
