"""The depot benchmark domain: domain.pddl, problem generator, bundled problems and gold plans."""
