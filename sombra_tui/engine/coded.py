"""Structured domain errors raised with the code first: `CodedError(code, message, ...)`.

Every `SombraError` carries a code, params and field (errors.py); `CodedError` is the
same error for modules that prefer to name the code first (formula, wounds,
conditions). Every `except SombraError` catches both.
"""

from __future__ import annotations

from collections.abc import Mapping

from sombra_tui.engine.errors import ParamValue, SombraError

__all__ = ["CodedError", "ParamValue"]


class CodedError(SombraError):
    """A refused value or rule with a stable `code` (e.g. "formula.empty") and `params`."""

    def __init__(self, code: str, message: str, *, params: Mapping[str, ParamValue] | None = None,
                 field: str | None = None) -> None:
        super().__init__(message, code=code, params=params, field=field)
