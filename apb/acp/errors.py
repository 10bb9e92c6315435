"""The error of the ACP package: bad input a user can cause (files, values, specs)."""

from apb.engine import ApbError


class ACPError(ApbError):
    """Bad input to ACP generation, evaluation, import or audit: names the file or value and what to do."""
