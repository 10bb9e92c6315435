"""Reports of evaluation runs (`apb report`): `write_report` writes summary.json / summary.csv, report.md and
report.html. The modules: writer (the files), tables (coverage, metrics, costs), plots, html_page, viewer (the
episode viewer), pictures (state pictures for it), study_table (the closed-loop study's layout), cli (the command)."""

from apb.eval.report.writer import (
    CONTRACT_KEYS,
    agent_label,
    coverage_matrix,
    coverage_tables,
    domain_label,
    render_markdown,
    write_csv,
    write_report,
)

__all__ = ["CONTRACT_KEYS", "agent_label", "coverage_matrix", "coverage_tables", "domain_label", "render_markdown",
           "write_csv", "write_report"]
