"""System checks of the import (``manage.py check`` and every start-up run them)."""

from __future__ import annotations

from typing import Any

from django.core.checks import Error


def xlsx_reader_is_defused(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """openpyxl parses the uploaded XLSX through defusedxml only when defusedxml is
    installed and ``OPENPYXL_DEFUSEDXML`` is not ``False`` (openpyxl decides once, when it
    is imported): without it an XML entity in a hostile workbook would be expanded."""
    import openpyxl

    if openpyxl.DEFUSEDXML:
        return []
    return [
        Error(
            "openpyxl would read uploaded XLSX files without defusedxml.",
            hint="Install the pinned defusedxml (pyproject.toml) and leave "
            "OPENPYXL_DEFUSEDXML unset.",
            id="history.E001",
        )
    ]
