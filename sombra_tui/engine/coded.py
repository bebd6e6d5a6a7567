"""Structured domain errors: a `SombraError` with a stable code and its parameters.

The project is moving from message-only errors to coded ones, so that a later
message catalog (Spanish) can render the same error from `code` and `params`.
New engine modules raise subclasses of `CodedError`; `SombraError` itself is
unchanged, so every existing `except SombraError` still catches them.
"""

from __future__ import annotations

from collections.abc import Mapping

from sombra_tui.engine.errors import SombraError

#: Values a message parameter may hold (kept simple so they serialise as JSON).
ParamValue = str | int | float | bool | None


class CodedError(SombraError):
    """A refused value or rule with a stable `code` (e.g. "formula.empty") and `params`."""

    def __init__(self, code: str, message: str, *, params: Mapping[str, ParamValue] | None = None,
                 field: str | None = None) -> None:
        super().__init__(message, field=field)
        #: Stable identifier of the problem, dotted "<module>.<problem>".
        self.code = code
        #: The values the message is built from, by name.
        self.params: dict[str, ParamValue] = dict(params or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, params={self.params!r})"
