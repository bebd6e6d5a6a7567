"""Where sombra-tui keeps its files, and the user's preferences.

Paths come from platformdirs (per-user data and config folders) unless the
environment overrides them:

* ``SOMBRA_TUI_DATA_DIR``: encounters live here by default;
* ``SOMBRA_TUI_CONFIG_DIR``: ``preferences.json`` and the ``themes`` folder.

Nothing here creates a folder except :func:`save_preferences`, and loading
preferences never raises: a missing file gives the defaults silently, a bad
one gives the defaults plus a warning for the app to show.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, NamedTuple

from platformdirs import user_config_dir, user_data_dir
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sombra_tui.engine import (
    DuplicateKeyError,
    MissingFileError,
    SombraError,
    json_reason,
    loads_json,
    read_regular_file,
    trusted,
    validation_problems,
)
from sombra_tui.engine.i18n import _

APP_NAME = "sombra-tui"
DATA_DIR_ENV = "SOMBRA_TUI_DATA_DIR"
CONFIG_DIR_ENV = "SOMBRA_TUI_CONFIG_DIR"
PREFERENCES_FILE = "preferences.json"
DEFAULT_THEME = "sombra"
#: A preferences file larger than this is not ours; refuse it (never read further).
MAX_PREFERENCES_BYTES = 1024 * 1024


def _from_env(variable: str) -> Path | None:
    value = os.environ.get(variable, "").strip()
    return Path(value).expanduser() if value else None


@contextlib.contextmanager
def folders_under(folder: Path) -> Iterator[None]:
    """Data and config under `folder` meanwhile, then as they were: the benchmark and
    the screenshots run the real app without touching the user's own files."""
    saved = {name: os.environ.get(name) for name in (DATA_DIR_ENV, CONFIG_DIR_ENV)}
    os.environ[DATA_DIR_ENV] = str(folder / "data")
    os.environ[CONFIG_DIR_ENV] = str(folder / "config")
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def data_dir() -> Path:
    """The folder for encounters (not created here)."""
    return _from_env(DATA_DIR_ENV) or Path(user_data_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    """The folder for preferences and user themes (not created here)."""
    return _from_env(CONFIG_DIR_ENV) or Path(user_config_dir(APP_NAME, appauthor=False))


def user_themes_dir() -> Path:
    """The folder of the user's own ``*.toml`` themes (not created here)."""
    return config_dir() / "themes"


def journal_dir() -> Path:
    """The crash journals of running (or crashed) sessions (created when used)."""
    return data_dir() / "journal"


def preferences_path() -> Path:
    return config_dir() / PREFERENCES_FILE


class Preferences(BaseModel):
    """User preferences, saved as JSON. Unknown keys are ignored (newer versions)."""

    model_config = ConfigDict(extra="ignore", validate_assignment=True, defer_build=True)

    theme: str = Field(default=DEFAULT_THEME, min_length=1)
    #: The DJ's language ("es" or "en"); None: --lang, else the locale decides.
    language: Literal["es", "en"] | None = None
    #: The DJ's own keys: binding id (sombra_tui/keys.py) -> key(s), e.g.
    #: ``{"declare": "ctrl+d", "undo": "u,backspace"}``; checked by keys.resolve_keymap.
    keys: dict[str, Any] = Field(default_factory=dict)
    #: The players' view (issue 23) on the local network (phones), not only this machine.
    players_lan: bool = False
    #: The odds before each roll in the DJ's dialogs (issue 37): a DJ's own display
    #: choice, like the language and the theme, kept for every encounter.
    show_odds: bool = True

    @classmethod
    def read(cls, data: dict[str, Any]) -> Preferences:
        """The preferences in a file's `data`, validated: raises ValidationError as
        `model_validate` does. A file whose every field has its exact type is checked
        here without building pydantic's validator (issue 24 item 5: they are read
        before the first screen); any other goes to `model_validate`, which names what
        is wrong. The two agree (tests/app/test_config.py)."""
        quick = _read_exact(data)
        return quick if quick is not None else cls.model_validate(data)

    @classmethod
    def default(cls) -> Preferences:
        """`Preferences()`, without building pydantic's validator."""
        return trusted(cls)


def _read_exact(data: dict[str, Any]) -> Preferences | None:
    """Preferences' own checks on fields of their exact types (unknown keys ignored, as
    the model ignores them), without pydantic; None for data `model_validate` should
    judge."""
    given = {key: data[key] for key in Preferences.model_fields if key in data}
    theme = given.get("theme", DEFAULT_THEME)
    if type(theme) is not str or not theme or given.get("language") not in ("es", "en", None):
        return None
    keymap = given.get("keys", {})
    if type(keymap) is not dict or not all(type(key) is str for key in keymap):
        return None
    if any(type(given.get(flag, False)) is not bool for flag in ("players_lan", "show_odds")):
        return None
    if "keys" in given:
        given["keys"] = dict(keymap)
    return trusted(Preferences, **given)


class LoadedPreferences(NamedTuple):
    preferences: Preferences
    #: ``None`` when the file was fine or absent; otherwise a sentence for the user.
    warning: str | None


def _bad_fields(error: ValidationError) -> list[str]:
    return sorted({str(problem.location[0]) for problem in validation_problems(error)
                   if problem.location})


def load_preferences(path: Path | None = None) -> LoadedPreferences:
    """Read the preferences; never raises.

    Returns ``(preferences, warning)``. A missing file gives the defaults and no
    warning. An unreadable or corrupt file (a key twice in one object included) gives
    the defaults and a warning; a
    file with some bad values keeps the good ones, resets the bad ones to their
    defaults and warns naming them. The file itself is never modified here.
    """
    path = preferences_path() if path is None else Path(path)
    try:
        text = read_regular_file(path, MAX_PREFERENCES_BYTES,
                                         what=_("a preferences file")).decode("utf-8")
    except MissingFileError:
        return LoadedPreferences(Preferences.default(), None)
    except SombraError as error:
        return LoadedPreferences(Preferences.default(), _("{problem}; using the default "
                                                   "preferences.").format(
                                                    problem=str(error).removesuffix('.')))
    except UnicodeDecodeError as error:
        return LoadedPreferences(Preferences.default(),
                                 _("Could not read {path} (it is not UTF-8 text, byte "
                                   "{byte}); using the default preferences.").format(
                                     path=path, byte=error.start))
    try:
        data: Any = loads_json(text)
    except DuplicateKeyError as error:
        return LoadedPreferences(Preferences.default(),
                                 _('{path} has the key "{key}" twice in the same object, at '
                                   '{where}; using the default preferences.').format(
                                     path=path, key=error.key, where=error.path))
    except json.JSONDecodeError as error:
        return LoadedPreferences(Preferences.default(),
                                 _("{path} is not valid JSON (line {lineno}, column "
                                    "{colno}: {msg}); using the default preferences.").format(
                                     path=path, lineno=error.lineno, colno=error.colno,
                                     msg=json_reason(error.msg)))
    if not isinstance(data, dict):
        return LoadedPreferences(Preferences.default(),
                                 _("{path} does not hold a JSON object; using the default "
                                    "preferences.").format(
                                     path=path))
    try:
        return LoadedPreferences(Preferences.read(data), None)
    except ValidationError as error:
        bad = _bad_fields(error)
        first = validation_problems(error)[0]
    kept = {key: value for key, value in data.items() if key not in bad}
    try:
        preferences = Preferences.model_validate(kept)
    except ValidationError:  # pragma: no cover - dropping the bad keys leaves defaults
        preferences = Preferences.default()
    names = ", ".join(repr(name) for name in bad)
    return LoadedPreferences(preferences,
                             _("{path} has a bad value for {names} ({problem}); using the "
                               "default for that instead.").format(
                                 path=path, names=names,
                                 problem=f"{first.path}: {first.message}"))


def save_preferences(preferences: Preferences, path: Path | None = None) -> Path:
    """Write the preferences atomically, creating folders as needed.

    Writes a temporary file in the same folder, then ``os.replace`` puts it in
    place, so a crash never leaves a half-written file. Returns the path
    written. Raises ``OSError`` if the folder or file cannot be written (the
    caller decides how to tell the user).
    """
    path = preferences_path() if path is None else Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = preferences.model_dump_json(indent=2, exclude_none=True) + "\n"
    handle = tempfile.NamedTemporaryFile(  # noqa: SIM115 - closed before os.replace
        "w", encoding="utf-8", dir=path.parent, prefix=f".{path.name}.",
        suffix=".tmp", delete=False)
    try:
        with handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(handle.name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(handle.name)
        raise
    return path
