"""The one domain error of the engine.

Every illegal command, bad value or bad file raises `SombraError` with a
message a DJ understands. When a command raises it, the combat is left exactly
as it was before the command.

Each error also carries a stable `code` ("<area>.<problem>", e.g.
"declare.not_turn"), the `params` its message is built from, and, where one field
is at fault, that `field`: callers route an error by code and field, never by its
text (which a translation will change).
"""

from __future__ import annotations

import errno
from collections.abc import Mapping
from typing import NamedTuple

from pydantic import ValidationError

from sombra_tui.engine.i18n import _

#: Values a message parameter may hold (kept simple so they serialise as JSON).
ParamValue = str | int | float | bool | None

#: The code of an error raised without one (a test keeps sombra_tui free of them).
UNCODED = "error.uncoded"


class SombraError(Exception):
    """A rule, a value or a file the engine refuses, with a readable reason."""

    def __init__(self, message: str, *, code: str = UNCODED,
                 params: Mapping[str, ParamValue] | None = None,
                 field: str | None = None) -> None:
        super().__init__(message)
        #: The English template of the message (its msgid), filled from `params`.
        self.template = message
        #: Stable identifier of the problem, dotted "<area>.<problem>".
        self.code = code
        #: The values the message is built from, by name.
        self.params: dict[str, ParamValue] = dict(params or {})
        #: Dotted path of the offending field, where there is one (forms, files).
        self.field = field

    @property
    def message(self) -> str:
        """The message in the language in force: the template through the catalog,
        filled from `params` (rendered each time, so a language switch follows)."""
        return fill(_(self.template), self.params)

    @property
    def english(self) -> str:
        """The message in the source language (logs and journals for developers)."""
        return fill(self.template, self.params)

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r}, params={self.params!r})"


def fill(template: str, params: Mapping[str, ParamValue]) -> str:
    """`template` with its {placeholders} filled from `params`; a message that is no
    template (already a sentence, braces and all) is returned as it is."""
    if not params or "{" not in template:
        return template
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


# ---- other errors, in words for a sentence ---------------------------------------------


def os_reason(error: OSError, *, plain: bool = False) -> str:
    """Why the system refused a file operation: its own words (``strerror``).

    With `plain`, the everyday causes of a failed save in plain words (full disk,
    permission, missing folder).
    """
    if plain:
        if error.errno == errno.ENOSPC:
            return _("the disk is full")
        if error.errno in (errno.EACCES, errno.EPERM):
            return _("permission denied")
        if error.errno == errno.ENOENT:
            return _("the folder does not exist")
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
