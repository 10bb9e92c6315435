"""Natural-language layer: per-domain nl.yaml templates and rendering of domains, states, actions, failures."""
