"""Natural-language layer: per-domain nl.yaml templates and rendering of domains, states, actions, failures."""

from apb.nl.nl_yaml import NLTemplateError, NLTemplates
from apb.nl.render import DomainText, TaskText
from apb.nl.sources import DESCRIPTIONS, find_curated, load_description_file, load_templates
from apb.nl.template_builder import load_nl_yaml

__all__ = ["DESCRIPTIONS", "DomainText", "NLTemplateError", "NLTemplates", "TaskText", "find_curated",
           "load_description_file", "load_nl_yaml", "load_templates"]
