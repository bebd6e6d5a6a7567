"""Colour themes: TOML files, validated by pydantic, turned into Textual themes.

A theme file is flat TOML, one key per colour, plus an optional
``[variables]`` table of Textual theme-variable overrides::

    name = "mi-tema"
    dark = true
    primary = "#c8893a"
    ...                       # secondary, accent, foreground, background,
                              # surface, panel, warning, error, success
    [variables]
    footer-key-foreground = "#f0b44c"

Built-in themes ship in the package (``sombra_tui/themes`` in a wheel, the
top-level ``themes`` folder in a source checkout); the user's own go in
``config.user_themes_dir()`` and override built-ins of the same name. A bad
user file is skipped with a problem message naming the file and the field;
loading never raises.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Container
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    field_validator,
)
from pydantic_core import PydanticCustomError
from textual.color import Color, ColorParseError
from textual.theme import Theme

from sombra_tui import config
from sombra_tui.engine import (
    SombraError,
    invalid,
    os_reason,
    read_regular_file,
    trusted,
    validation_problems,
)
from sombra_tui.engine.i18n import N_, _

THEME_SUFFIX = ".toml"
#: A theme file larger than this is not a theme; refuse it (never read further).
MAX_THEME_BYTES = 256 * 1024
COLOUR_FIELDS = ("primary", "secondary", "accent", "foreground", "background", "surface",
                 "panel", "warning", "error", "success")
#: Textual adds the CSS class ``-theme-<name>``, so keep names class-safe.
_NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]*$")
_VARIABLE_PATTERN = re.compile(r"^[a-z][a-z0-9-]*$")
_PACKAGE_DIR = Path(__file__).resolve().parent


class ThemeFileError(Exception):
    """A theme file could not be read or is not a valid theme. The message names the file."""


class ThemeSpec(BaseModel):
    """One theme as written in a TOML file."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str
    dark: StrictBool
    primary: str
    secondary: str
    accent: str
    foreground: str
    background: str
    surface: str
    panel: str
    warning: str
    error: str
    success: str
    variables: dict[str, str] = Field(default_factory=dict)

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        return _checked_name(value)

    @field_validator(*COLOUR_FIELDS)
    @classmethod
    def _check_colour(cls, value: str) -> str:
        return _checked_colour(value)

    @field_validator("variables")
    @classmethod
    def _check_variables(cls, value: dict[str, str]) -> dict[str, str]:
        return _checked_variables(value)

    @classmethod
    def read(cls, data: dict[str, Any]) -> ThemeSpec:
        """The theme in a file's `data`, validated: raises ValidationError as
        `model_validate` does. A file pydantic would take as it is, with every field of
        its exact type, is checked here by the same checks without building pydantic's
        validator (issue 24 item 5: the first screen's theme is read before it); any
        other goes to `model_validate`, which names what is wrong. The two agree
        (tests/app/test_themes.py)."""
        quick = _read_exact(data)
        return quick if quick is not None else cls.model_validate(data)

    def to_textual(self) -> Theme:
        return Theme(
            name=self.name,
            dark=self.dark,
            primary=self.primary,
            secondary=self.secondary,
            accent=self.accent,
            foreground=self.foreground,
            background=self.background,
            surface=self.surface,
            panel=self.panel,
            warning=self.warning,
            error=self.error,
            success=self.success,
            variables=dict(self.variables),
        )


def _checked_name(value: str) -> str:
    if not _NAME_PATTERN.match(value):
        raise invalid("theme.usable_theme_name_letters", N_("{value} is not a usable theme "
                                                            "name; use letters, digits, '-'"
                                                            " and '_' (e.g. 'mi-tema')"),
                      value=repr(value))
    return value


def _checked_colour(value: str) -> str:
    value = value.strip()
    try:
        Color.parse(value)
    except ColorParseError:
        raise invalid("theme.colour_c_rgb_or", N_("{value} is not a colour; use e.g. "
                                                  "'#c8893a', 'rgb(200, 137, 58)' or a "
                                                  "colour name like 'white'"),
                      value=repr(value)) from None
    return value


def _checked_variables(value: dict[str, str]) -> dict[str, str]:
    for key, setting in value.items():
        if not _VARIABLE_PATTERN.match(key):
            raise invalid("theme.bad_variable_name",
                          N_("{key} is not a theme variable name (lowercase words joined "
                             "by '-', e.g. 'footer-key-foreground')"), key=repr(key))
        if not setting.strip() or any(char in setting for char in ";{}\n"):
            raise invalid("theme.has_unusable_value", N_("{key} has an unusable value "
                                                         "{setting}"),
                          key=repr(key), setting=repr(setting))
    return value


_REQUIRED = ("name", "dark", *COLOUR_FIELDS)


def _read_exact(data: dict[str, Any]) -> ThemeSpec | None:
    """ThemeSpec's own checks on a file whose every field has its exact type (str, a
    bool for `dark`, a table of strings for `variables`), without pydantic: the spec,
    or None for any file `model_validate` should judge (a missing, extra or mistyped
    field, a value its checks refuse)."""
    if not all(key in data for key in _REQUIRED) or \
            not data.keys() <= {*_REQUIRED, "variables"} or type(data["dark"]) is not bool:
        return None
    variables = data.get("variables", {})
    if type(variables) is not dict or not all(
            type(key) is str and type(value) is str for key, value in variables.items()):
        return None
    if not all(type(data[field]) is str for field in ("name", *COLOUR_FIELDS)):
        return None
    try:
        values = {"name": _checked_name(data["name"]), "dark": data["dark"],
                  **{field: _checked_colour(data[field]) for field in COLOUR_FIELDS},
                  "variables": _checked_variables(dict(variables))}
    except PydanticCustomError:
        return None
    given = {key: values[key] for key in data}  # the fields set, as validation gives it
    return trusted(ThemeSpec, **given)


class LoadedThemes(NamedTuple):
    themes: dict[str, Theme]
    #: One sentence per skipped file or other trouble, naming the file (and field).
    problems: list[str]


def _describe(error: ValidationError) -> str:
    parts = []
    for problem in validation_problems(error):
        if problem.kind == "missing":
            message = _("is missing (every theme needs it)")
        elif problem.kind == "extra_forbidden":
            message = _("is not a theme field (a typo?)")
        else:
            message = problem.message
        parts.append(_("field '{path}' {message}").format(path=problem.path, message=message))
    return "; ".join(parts)


#: Where tomllib says it stopped, at the end of its (English) message.
TOML_PLACE = re.compile(r"\(at line (\d+), column (\d+)\)$")


def _toml_place(error: tomllib.TOMLDecodeError) -> str:
    """Where a theme file stops being TOML, in the language in force (tomllib's own
    words are English only)."""
    found = TOML_PLACE.search(str(error))
    if found is None:
        return _("at the end of the file")
    return _("line {line}, column {column}").format(line=found[1], column=found[2])


def load_theme_file(path: Path) -> ThemeSpec:
    """Read and validate one theme file. Raises ThemeFileError naming the file (and field)."""
    path = Path(path)
    try:
        raw = read_regular_file(path, MAX_THEME_BYTES, what=_("a theme file"))
        data: dict[str, Any] = tomllib.loads(raw.decode("utf-8"))
    except SombraError as error:
        raise ThemeFileError(str(error)) from error
    except tomllib.TOMLDecodeError as error:
        raise ThemeFileError(_("Theme file {path} is not valid TOML ({where}).").format(
            path=path, where=_toml_place(error))) from error
    except UnicodeDecodeError as error:
        raise ThemeFileError(_("Theme file {path} is not UTF-8 text.").format(
            path=path)) from error
    try:
        return ThemeSpec.read(data)
    except ValidationError as error:
        raise ThemeFileError(_("Theme file {path}: {problem}.").format(
            path=path, problem=_describe(error))) from error


def load_theme_folder(folder: Path) -> LoadedThemes:
    """Load every ``*.toml`` in ``folder`` (sorted by file name; hidden files skipped).

    A missing folder is not a problem. Bad files are skipped and reported; if
    two files define the same theme name, the later file wins and it is reported.
    """
    folder = Path(folder)
    themes: dict[str, Theme] = {}
    sources: dict[str, Path] = {}
    problems: list[str] = []
    try:
        if not folder.exists():
            return LoadedThemes(themes, problems)
        if not folder.is_dir():
            return LoadedThemes(themes, [_("{folder} should be a folder of theme files, but "
                                           "it is a file.").format(folder=folder)])
        paths = sorted(path for path in folder.iterdir()
                       if path.suffix == THEME_SUFFIX and not path.name.startswith("."))
    except OSError as error:
        return LoadedThemes(themes, [_("Could not read the theme folder {folder}: "
                                       "{reason}.").format(folder=folder,
                                                           reason=os_reason(error))])
    for path in paths:
        try:
            spec = load_theme_file(path)
        except ThemeFileError as error:
            problems.append(_("{error} Skipped.").format(error=error))
            continue
        if spec.name in sources:
            problems.append(_("Theme files {first} and {path} both define the theme "
                              "{name!r}; using {path}.").format(first=sources[spec.name],
                                                                path=path, name=spec.name))
        sources[spec.name] = path
        themes[spec.name] = spec.to_textual()
    return LoadedThemes(themes, problems)


def builtin_themes_dir() -> Path | None:
    """The shipped themes: ``sombra_tui/themes`` in a wheel, ``../themes`` in a checkout."""
    for candidate in (_PACKAGE_DIR / "themes", _PACKAGE_DIR.parent / "themes"):
        if candidate.is_dir() and any(candidate.glob(f"*{THEME_SUFFIX}")):
            return candidate
    return None


def load_builtin_themes() -> LoadedThemes:
    folder = builtin_themes_dir()
    if folder is None:
        return LoadedThemes({}, [_("The built-in themes are missing from this installation "
                                   "(looked in {inside} and {beside}).").format(
                                       inside=_PACKAGE_DIR / "themes",
                                       beside=_PACKAGE_DIR.parent / "themes")])
    return load_theme_folder(folder)


def load_user_themes() -> LoadedThemes:
    return load_theme_folder(config.user_themes_dir())


def load_all_themes() -> LoadedThemes:
    """Built-in themes, then the user's (which override built-ins of the same name)."""
    builtin = load_builtin_themes()
    user = load_user_themes()
    return LoadedThemes({**builtin.themes, **user.themes}, builtin.problems + user.problems)


def pick_theme(preferred: str, available: Container[str]) -> tuple[str, str | None]:
    """Choose the theme to show: ``preferred`` if available, else a fallback.

    ``available`` is anything supporting ``in`` (e.g. ``App.available_themes``).
    Returns ``(name, warning)``; the warning is ``None`` when ``preferred`` is used.
    """
    if preferred in available:
        return preferred, None
    fallback = config.DEFAULT_THEME if config.DEFAULT_THEME in available else "textual-dark"
    return fallback, _("Theme {preferred!r} is not available; using {fallback!r}.").format(
        preferred=preferred, fallback=fallback)
