"""Where a domain's NL templates come from: curated nl.yaml, imported descriptions, or the rule-based generator.

Whatever the source, missing predicates and actions are filled in from the rule-based generator, so every
domain can be rendered.
"""

from __future__ import annotations

from pathlib import Path

from apb.engine.model import Domain
from apb.nl.nl_yaml import NL_KEYS, NLTemplateError, NLTemplates, read_yaml_with_lines
from apb.nl.template_builder import complete, load_nl_yaml, missing_entries

DESCRIPTIONS = ("curated", "rule", "pddl")


def rule_based(domain: Domain) -> NLTemplates:
    from apb.nl.rules import rule_templates

    return rule_templates(domain)


def find_curated(domain_file: str | Path | None) -> Path | None:
    """The hand-written description next to a domain file: nl.yaml, else AutoPlanBench's
    domain_description_seed*.json (lowest seed first)."""
    if domain_file is None:
        return None
    folder = Path(domain_file).parent
    if (folder / "nl.yaml").is_file():
        return folder / "nl.yaml"
    seeds = sorted(folder.glob("domain_description_seed*.json"))
    return seeds[0] if seeds else None


def load_description_file(path: str | Path, domain: Domain) -> NLTemplates:
    """An nl.yaml, an AutoPlanBench domain_description*.json or a PDDLGym-style YAML description."""
    path = Path(path)
    if not path.is_file():
        raise NLTemplateError("no such description file; give an nl.yaml, an AutoPlanBench "
                              "domain_description_seed*.json or a PDDLGym-style YAML file", file=path)
    if path.suffix.lower() == ".json":
        from apb.nl.importers import from_autoplanbench

        return from_autoplanbench(path, domain)
    if path.suffix.lower() not in (".yaml", ".yml"):
        raise NLTemplateError("unknown description format: use .yaml/.yml (apb nl.yaml or PDDLGym-style) or "
                              ".json (AutoPlanBench)", file=path)
    data, _ = read_yaml_with_lines(path)
    if isinstance(data, dict) and ("format" in data or (set(data) <= set(NL_KEYS) and _looks_like_nl_yaml(data))):
        return load_nl_yaml(path, domain)
    from apb.nl.importers import from_pddlgym_yaml

    return from_pddlgym_yaml(path, domain)


def _looks_like_nl_yaml(data: dict) -> bool:
    preds = data.get("predicates")
    return isinstance(preds, dict) and all(isinstance(v, dict) and "negated" in v for v in preds.values())


def load_templates(domain: Domain, description: str | Path = "curated", *,
                   domain_file: str | Path | None = None) -> NLTemplates:
    """The templates for `domain`: 'curated' (nl.yaml or AutoPlanBench description next to the domain file,
    else rule-based), 'rule', 'pddl' (same wording as curated; only the environment's texts change) or a
    path to a description file. Gaps are filled from the rule-based generator."""
    if isinstance(description, str) and description in ("curated", "pddl"):
        found = find_curated(domain_file)
        templates = load_description_file(found, domain) if found else rule_based(domain)
    elif isinstance(description, str) and description == "rule":
        return rule_based(domain)
    elif isinstance(description, str | Path) and (isinstance(description, Path) or "." in str(description)
                                                 or "/" in str(description)):
        templates = load_description_file(description, domain)
    else:
        raise NLTemplateError(f"unknown description {description!r}: use curated, rule, pddl or the path of an "
                              "nl.yaml / AutoPlanBench json / PDDLGym-style YAML file")
    if missing_entries(templates, domain):
        templates = complete(templates, rule_based(domain))
    return templates
