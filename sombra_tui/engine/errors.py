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
from pydantic_core import PydanticCustomError

from sombra_tui.engine import i18n
from sombra_tui.engine.i18n import N_, _

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
        #: The catalog context of a message about a feminine subject (i18n.FEMININE).
        self.context: str | None = None

    def about(self, gender: str | None) -> SombraError:
        """This error about a subject of `gender` (its Spanish words agree)."""
        self.context = i18n.context_of(gender)
        return self

    @property
    def message(self) -> str:
        """The message in the language in force: the template through the catalog,
        filled from `params` (rendered each time, so a language switch follows)."""
        return fill(i18n.translate(self.template, self.context),
                    {key: i18n.agree(value, self.context)
                     if key in i18n.AGREEING_PARAMS and isinstance(value, str) else value
                     for key, value in self.params.items()})

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

#: The json module's reasons (JSONDecodeError.msg, CPython 3.11-3.13), in the DJ's words.
JSON_REASONS = {
    "Expecting value": N_("a value is missing"),
    "Expecting property name enclosed in double quotes": N_("a name in double quotes is "
                                                            "expected (or a comma too many)"),
    "Expecting ':' delimiter": N_("a ':' is missing"),
    "Expecting ',' delimiter": N_("a ',' is missing"),
    "Unterminated string starting at": N_("a text is not closed with its double quote"),
    "Invalid control character at": N_("a text holds a control character"),
    "Invalid \\escape": N_("a text holds a wrong backslash escape"),
    "Invalid \\uXXXX escape": N_("a text holds a wrong \\u escape"),
    "Extra data": N_("there is more after the end of the data"),
    "Illegal trailing comma before end of object": N_("a comma too many"),
    "Illegal trailing comma before end of array": N_("a comma too many"),
}


def json_reason(message: str) -> str:
    """A JSONDecodeError's `msg` in the language in force (a reason the json module
    gives that is not listed reads as a general one: its words are English only)."""
    return _(JSON_REASONS.get(message, UNKNOWN_JSON_REASON))


#: A reason of the json module not in JSON_REASONS (a Python of another version).
UNKNOWN_JSON_REASON = N_("something there cannot be read")



#: The system's reasons a DJ may meet (OSError.errno), in words for the catalog.
OS_REASONS: dict[int, str] = {
    errno.ENOSPC: N_("the disk is full"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"),
    errno.EROFS: N_("the disk is read-only"),
    errno.EISDIR: N_("it is a folder"),
    errno.ENOTDIR: N_("a part of the path is not a folder"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.ELOOP: N_("too many symbolic links"),
    errno.EIO: N_("the disk could not be read or written"),
}


def os_reason(error: OSError, *, plain: bool = False) -> str:
    """Why the system refused a file operation: in English its own words
    (``strerror``), in another language the words of OS_REASONS (or the error's
    number: the system's words are English only).

    With `plain`, the everyday causes of a failed save in plain words (full disk,
    permission, missing folder) in every language.
    """
    if plain:
        if error.errno == errno.ENOENT:
            return _("the folder does not exist")
        if error.errno in (errno.ENOSPC, errno.EACCES, errno.EPERM):
            return _(OS_REASONS[error.errno])
    if i18n.language() == "en":
        return error.strerror or str(error)
    if error.errno == errno.ENOENT:
        return _("it does not exist")
    if error.errno in OS_REASONS:
        return _(OS_REASONS[error.errno])
    if error.errno is None:
        return _("the system refused it")
    return _("the system refused it (error {number})").format(number=error.errno)


#: The English templates of the models' own refusals, by their error type (a code),
#: filled at display time from the error's context (see `invalid`).
MODEL_MESSAGES: dict[str, str] = {}

#: pydantic's own error types a file or form can hit, in words for the catalog; filled
#: from the error's context (a value that is a file's object or list is named as JSON
#: names it, never by a class of the code). A type not listed reads UNKNOWN_PROBLEM.
PYDANTIC_MESSAGES: dict[str, str] = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "int_type": N_("Input should be a valid integer"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional "
                         "part"),
    "float_type": N_("Input should be a valid number"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "bool_type": N_("Input should be a valid boolean"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "string_type": N_("Input should be a valid string"),
    "list_type": N_("Input should be a list"),
    "tuple_type": N_("Input should be a list"),
    "set_type": N_("Input should be a list"),
    "frozen_set_type": N_("Input should be a list"),
    "dict_type": N_("Input should be an object"),
    "model_type": N_("Input should be an object"),
    "model_attributes_type": N_("Input should be an object"),
    "dataclass_type": N_("Input should be an object"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "string_pattern_mismatch": N_("The text does not have the expected form"),
    "literal_error": N_("Input should be {expected}"),
    "enum": N_("Input should be {expected}"),
    "union_tag_invalid": N_("Input tag {tag} found using {discriminator} does not match any "
                            "of the expected tags: {expected_tags}"),
    "union_tag_not_found": N_("Unable to extract tag using discriminator {discriminator}"),
    "int_too_big": N_("The number is too big"),
    "finite_number": N_("Input should be a finite number"),
    "none_required": N_("Input should be null"),
    "json_invalid": N_("The text is not valid JSON"),
    "datetime_type": N_("Input should be a valid date and time"),
    "datetime_parsing": N_("Input should be a valid date and time"),
    "datetime_from_date_parsing": N_("Input should be a valid date and time"),
    "timezone_aware": N_("Input should be a valid date and time"),
}



def counted_message(kind: str, params: Mapping[str, ParamValue]) -> str | None:
    """A problem of a length (a text's, a list's) in the language in force, its words
    agreeing with the number ("at least 1 character"); None for another type."""
    low, high = params.get("min_length"), params.get("max_length")
    if kind == "string_too_short" and isinstance(low, int):
        return i18n.ngettext("String should have at least {min_length} character",
                             "String should have at least {min_length} characters", low)
    if kind == "string_too_long" and isinstance(high, int):
        return i18n.ngettext("String should have at most {max_length} character",
                             "String should have at most {max_length} characters", high)
    if kind == "too_short" and isinstance(low, int):
        return i18n.ngettext(
            "The list should have at least {min_length} item, not {actual_length}",
            "The list should have at least {min_length} items, not {actual_length}", low)
    if kind == "too_long" and isinstance(high, int):
        return i18n.ngettext(
            "The list should have at most {max_length} item, not {actual_length}",
            "The list should have at most {max_length} items, not {actual_length}", high)
    return None


#: What any other problem pydantic finds reads in a language other than English (its
#: place is named beside it): pydantic's own words are English only.
UNKNOWN_PROBLEM = N_("This value is not valid here")

#: A tag pydantic found, as Python writes it, in the file's own words (JSON).
JSON_WORDS = {"None": "null", "True": "true", "False": "false"}

#: The context values that list what a value may be ("'a', 'b' or 'c'"), shown with
#: the language's own "or".
CHOICES = ("expected", "expected_tags")


def choices(expected: str) -> str:
    """pydantic's list of the values allowed ("'a', 'b' or 'c'") joined by the
    language's words; the values themselves (a file's words) are kept."""
    head, separator, last = expected.rpartition(" or ")
    if not separator:
        return expected
    return _("{choices} or {last}").format(choices=head, last=last)


def invalid(code: str, template: str, **params: ParamValue) -> PydanticCustomError:
    """A model's refusal for pydantic: its type is `code`, its context the `params` and
    its template (an N_ msgid) is rendered in the DJ's language when shown."""
    MODEL_MESSAGES[code] = template
    return PydanticCustomError(code, fill(template, params), dict(params))


def problem_message(problem: Mapping[str, object]) -> str:
    """One pydantic problem in the language in force, by its error type and context:
    the models' own (`invalid`) and pydantic's common types (PYDANTIC_MESSAGES) through
    the catalog, in English too (so no language names an object by a class of the
    code); a type not listed in pydantic's own words in English, in another language a
    general sentence (UNKNOWN_PROBLEM). An error type of the engine's own
    ("<area>.<problem>", raised with its words in the language in force) keeps its
    message."""
    kind = str(problem["type"])
    context = problem.get("ctx")
    params: dict[str, ParamValue] = (
        {str(key): value if isinstance(value, str | int | float | bool) else str(value)
         for key, value in context.items()} if isinstance(context, dict) else {})
    english = str(problem["msg"]).removeprefix("Value error, ")
    if kind in MODEL_MESSAGES:
        return fill(_(MODEL_MESSAGES[kind]), params)
    counted = counted_message(kind, params)
    if counted is not None:
        return fill(counted, params)
    if "." in kind or (kind not in PYDANTIC_MESSAGES and i18n.language() == "en"):
        return english
    if kind not in PYDANTIC_MESSAGES:
        return _(UNKNOWN_PROBLEM)
    return fill(_(PYDANTIC_MESSAGES[kind]), {
        key: choices(value) if key in CHOICES and isinstance(value, str) else
        JSON_WORDS.get(str(value), value) if key == "tag" else value
        for key, value in params.items()})


class Problem(NamedTuple):
    """One problem pydantic found: where, what (its message), and its error type."""

    location: tuple[str | int, ...]
    message: str
    kind: str

    @property
    def path(self) -> str:
        """The dotted path of the field, or "(top level)"; a key of an object that is
        itself refused is marked in the language in force (pydantic's "[key]")."""
        return ".".join(_(KEY_MARK) if part == "[key]" else str(part)
                        for part in self.location) or _("(top level)")


#: pydantic's mark, in a problem's place, of a key (not its value) being refused.
KEY_MARK = N_("[key]")


def validation_problems(error: ValidationError) -> list[Problem]:
    """Every problem of a pydantic ValidationError, its message without pydantic's
    "Value error, " prefix (the rest is the model's own sentence).

    The offending input is not copied into the problems (a file's may be megabytes).
    """
    return [Problem(tuple(problem["loc"]), problem_message(problem), problem["type"])
            for problem in error.errors(include_url=False, include_context=True,
                                        include_input=False)]


def describe_validation(error: ValidationError) -> str:
    """The first problem as "path: message", and how many more there are."""
    first = validation_problems(error)[0]
    more = error.error_count() - 1
    extra = (" " + i18n.ngettext("(and {count} more problem)", "(and {count} more problems)",
                                 more).format(count=more)) if more else ""
    return f"{first.path}: {first.message}{extra}"
