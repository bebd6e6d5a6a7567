"""The one domain error of the engine.

Every illegal command, bad value or bad file raises `SombraError` with a
message a DJ understands. When a command raises it, the combat is left exactly
as it was before the command.
"""

from __future__ import annotations

import errno
from typing import NamedTuple

from pydantic import ValidationError


class SombraError(Exception):
    """A rule, a value or a file the engine refuses, with a readable reason."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        #: Dotted path of the offending field, where there is one (forms, files).
        self.field = field

    def __str__(self) -> str:
        return self.message


# ---- other errors, in words for a sentence ---------------------------------------------


def os_reason(error: OSError, *, plain: bool = False) -> str:
    """Why the system refused a file operation: its own words (``strerror``).

    With `plain`, the everyday causes of a failed save in plain words (full disk,
    permission, missing folder).
    """
    if plain:
        if error.errno == errno.ENOSPC:
            return "the disk is full"
        if error.errno in (errno.EACCES, errno.EPERM):
            return "permission denied"
        if error.errno == errno.ENOENT:
            return "the folder does not exist"
    return error.strerror or str(error)


class Problem(NamedTuple):
    """One problem pydantic found: where, what (its message), and its error type."""

    location: tuple[str | int, ...]
    message: str
    kind: str

    @property
    def path(self) -> str:
        """The dotted path of the field, or "(top level)"."""
        return ".".join(str(part) for part in self.location) or "(top level)"


def validation_problems(error: ValidationError) -> list[Problem]:
    """Every problem of a pydantic ValidationError, its message without pydantic's
    "Value error, " prefix (the rest is the model's own sentence).

    The offending input is not copied into the problems (a file's may be megabytes).
    """
    return [Problem(tuple(problem["loc"]), str(problem["msg"]).removeprefix("Value error, "),
                    problem["type"])
            for problem in error.errors(include_url=False, include_context=False,
                                        include_input=False)]


def describe_validation(error: ValidationError) -> str:
    """The first problem as "path: message", and how many more there are."""
    first = validation_problems(error)[0]
    more = error.error_count() - 1
    extra = f" (and {more} more problem{'s' if more != 1 else ''})" if more else ""
    return f"{first.path}: {first.message}{extra}"
