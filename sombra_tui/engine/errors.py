"""The one domain error of the engine.

Every illegal command, bad value or bad file raises `SombraError` with a
message a DJ understands. When a command raises it, the combat is left exactly
as it was before the command.
"""

from __future__ import annotations


class SombraError(Exception):
    """A rule, a value or a file the engine refuses, with a readable reason."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        #: Dotted path of the offending field, where there is one (forms, files).
        self.field = field

    def __str__(self) -> str:
        return self.message
