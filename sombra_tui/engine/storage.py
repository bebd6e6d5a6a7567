"""Save and load encounters as versioned JSON, via pydantic.

A file holds the encounter as set up plus the command history (and the redo
stack); loading replays the history, so a loaded combat is equal to the saved
one, mid-chain included. Loading never executes anything from the file.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from sombra_tui.engine.commands import ChangeSettings, Command
from sombra_tui.engine.errors import (
    SombraError,
    describe_validation,
    json_reason,
    os_reason,
    validation_problems,
)
from sombra_tui.engine.files import DuplicateKeyError, check_unique_keys, loads_json
from sombra_tui.engine.files import MissingFileError as MissingFileError
from sombra_tui.engine.files import read_regular_file as read_regular_file
from sombra_tui.engine.history import SNAPSHOT_DIFFERS, Combat, bulk
from sombra_tui.engine.i18n import N_, Msg, _
from sombra_tui.engine.model import CarriedBody, Character, Encounter, Settings, name_clashes
from sombra_tui.engine.state import CombatState

# MissingFileError and read_regular_file live in files.py (read at start-up without the
# file format's models); storage gives them too, as before.

FORMAT_NAME = "sombra-tui encounter"
FORMAT_VERSION = 4
#: Refuse larger files (never read past this). An app-written 10,000-command combat is
#: about 3.4 MB since format version 2 (2.6 MB in version 1: weapons and scopes in the
#: declarations, hits settled), 3.6 MB with the state snapshot of issue 24 (which does
#: not grow with the history), a week of play and more, so 8 MiB leaves room for over
#: twice that; and the worst file under the limit is refused or loaded in about a
#: second and a half: an app-written file of 6.9 MiB (24,000 commands of the bench's
#: DJ, hits included) loads in ~1.5 s on 2 shared cores (issue 9 measured ~0.8 s for
#: 6 MiB of version 1). Raising it makes a worst-case file proportionally slower.
MAX_FILE_BYTES = 8 * 1024 * 1024
FILE_SUFFIX = ".sombra.json"
#: Issue 24: a history at least this long is checked after it is shown when opened from
#: its snapshot (loads(background=True)); a shorter one replays in about 25 ms at 200
#: characters, so it is replayed at once, as before, and the app has its log from the
#: first frame.
BACKGROUND_FROM = 256
#: A combat's name in its file (SaveFile.combat_id): opaque lowercase letters.
COMBAT_ID_PATTERN = r"^[a-z]{1,32}$"


class SaveFile(BaseModel):
    """An encounter file. Read strictly: every value must have its exact JSON type (no
    "8" for 8, no true for a die, no 1e-400 or 5.0 for a whole number)."""

    model_config = ConfigDict(defer_build=True)

    format: Literal["sombra-tui encounter"] = "sombra-tui encounter"
    format_version: int = FORMAT_VERSION
    encounter: Encounter
    # fail_fast: a list of a million wrong commands is refused at the first, not after
    # building a million error reports.
    commands: list[Command] = Field(default_factory=list, fail_fast=True)
    redo: list[Command] = Field(default_factory=list, fail_fast=True)
    #: T6: rollers the tracker has handed out (Combat.dice_drawn), so that a reopened
    #: combat never rolls from a generator state it used before. Optional (0 when
    #: absent): files without it read as before, and an older sombra-tui ignores it.
    dice_drawn: int = Field(0, ge=0)
    #: Issue 24: the state after the last command, so that opening a long history can
    #: show it at once while a replay checks it afterwards (Combat.from_snapshot;
    #: the replay wins if they differ). Optional: files without it replay as before, and
    #: an older sombra-tui ignores it. Never trusted alone: see loads(background=...).
    snapshot: CombatState | None = None
    #: Which combat this is (Combat.identity: the players' view tells another combat
    #: from this one after a save as and a restart). Optional: a file without it is
    #: named from its place, as before, and an older sombra-tui ignores it.
    combat_id: str | None = Field(None, pattern=COMBAT_ID_PATTERN)


class _Envelope(BaseModel):
    """The two values that decide how the rest of a file is read (other keys skipped)."""

    model_config = ConfigDict(defer_build=True)

    format: Any = None
    format_version: Any = None


def to_save_file(combat: Combat) -> SaveFile:
    combat.settle()  # a snapshot is written only once checked
    return SaveFile(encounter=combat.encounter, commands=combat.commands,
                    redo=combat.redo_stack, dice_drawn=combat.dice_drawn,
                    snapshot=combat.state, combat_id=combat.identity)


def dumps(combat: Combat) -> str:
    return _text_of(to_save_file(combat))


def _text_of(save: SaveFile) -> str:
    """A file's text as the app writes it (`dumps`); `_unique_keys` compares with it."""
    return save.model_dump_json(indent=1, exclude_defaults=False)


#: Format version N -> N+1 converters, applied in order when an older file is loaded.
#: Each is a pure function of the parsed JSON.
Migration = Callable[[dict[str, Any]], dict[str, Any]]


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 adds sections H and C (issue 14): Resistencia, PV, main arm, protection
    and weapons on each character, the wound settings, an action's weapon and scope, and
    the hit, wound and condition commands. A version-1 file keeps its meaning: its
    characters get Resistencia 5 and no weapons (spelled out here, not left to the
    defaults), no protection, its settings RULES.md's defaults, and its commands replay
    unchanged (none of them names a weapon). Values are then read as strictly as any
    version-2 file."""
    encounter = data.get("encounter")
    if isinstance(encounter, dict):
        for character in encounter.get("characters") or []:
            if isinstance(character, dict):
                character.setdefault("resistencia", 5)
                character.setdefault("weapons", [])
    return data


#: The settings a history of format version 2 was played with, where version 3 reads
#: otherwise: a new aturdido cancelled a pending round action at once (H11, C4), a plain
#: action against which another was declared opposed resolved on its own (O2, O3) and a
#: dodge naming a weapon proposed hits (O4). Nested as Settings is.
V2_READINGS: dict[str, Any] = {"oppositions_v3": False,
                               "wounds": {"unable_asks_prevented": False}}
#: The settings a history of format version 3 was played with, where version 4 reads
#: RULES.md's fourth pass (Settings.rules_v4: P4's marks during a group, C4's and H11's
#: timing, O3's dodge of a character aimed at others, O5's unable opponents).
V3_READINGS: dict[str, Any] = {"rules_v4": False}
#: Every reading a history of format version N (the key) was played with and a later
#: version reads otherwise: a version-2 history keeps version 3's readings too.
READINGS_BEFORE: dict[int, dict[str, Any]] = {2: {**V2_READINGS, **V3_READINGS},
                                              3: V3_READINGS}


def keep_readings(settings: Any, readings: dict[str, Any]) -> None:
    """`readings` into `settings`, parsed JSON of Settings (a file's encounter's, or a
    change_settings command's): the history replays as it was played."""
    if not isinstance(settings, dict):
        return
    for key, value in readings.items():
        if isinstance(value, dict):
            nested = settings.setdefault(key, {})
            if isinstance(nested, dict):
                nested.update(value)
        else:
            settings[key] = value


def played_settings(settings: Settings, version: int) -> Settings:
    """The readings a history of format `version` was played with, on a parsed Settings
    (a journal's, whose version is its file format's: journal.FILE_VERSION_OF)."""
    readings = READINGS_BEFORE.get(version, {})
    return settings.model_copy(update={
        key: getattr(settings, key).model_copy(update=value) if isinstance(value, dict)
        else value for key, value in readings.items()})


def played_command(command: Command, version: int) -> Command:
    """A command of a history of format `version` as it was played: a change of settings
    keeps the readings of that version (played_settings); any other command as it is."""
    if isinstance(command, ChangeSettings) and version in READINGS_BEFORE:
        return command.model_copy(update={"settings": played_settings(command.settings,
                                                                      version)})
    return command


def _keep_in_history(data: dict[str, Any], readings: dict[str, Any]) -> dict[str, Any]:
    """`readings` in a parsed file's settings and in every change of settings in its
    history."""
    encounter = data.get("encounter")
    if isinstance(encounter, dict):
        keep_readings(encounter.setdefault("settings", {}), readings)
    for key in ("commands", "redo"):
        history = data.get(key)
        for command in history if isinstance(history, list) else ():
            if isinstance(command, dict) and command.get("type") == "change_settings":
                keep_readings(command.get("settings"), readings)
    return data


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    """Version 3 asks the DJ before a new aturdido cancels a pending round action (H11)
    and makes a plain action the other side of an opposition declared against it (O2,
    O3): a version-2 file keeps playing as it was played, in its settings and in every
    change of settings in its history (the DJ may turn H11's question on in the
    encounter settings)."""
    return _keep_in_history(data, V2_READINGS)


def _v3_to_v4(data: dict[str, Any]) -> dict[str, Any]:
    """Version 4 reads RULES.md's fourth pass (Settings.rules_v4): a version-3 file keeps
    playing as it was played, in its settings and in every change of settings."""
    return _keep_in_history(data, V3_READINGS)


MIGRATIONS: dict[int, Migration] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}
#: What the app says, once, when it opens a file of that version.
MIGRATION_NOTICES: dict[int, str] = {
    1: N_("Opened a version-1 file: its characters got Resistencia 5 and no weapons "
          "(wounds and conditions are new)."),
    2: N_("Opened a version-2 file: a new aturdido still cancels a pending round action "
          "at once, and an attack declared plain against a dodge is still its own TA, as "
          "when it was played (the encounter settings can make the aturdido ask first)."),
    3: N_("Opened a file of an earlier version: marks, conditions and oppositions follow "
          "the readings it was played with; saving writes version 4."),
}


def _check_version(version: Any, source: str) -> int:
    if isinstance(version, bool) or not isinstance(version, int):
        raise SombraError(N_("{source} has no valid format_version (found {version})."),
                          code="storage.no_version",
                          params={"source": str(source), "version": _as_json(version)},
                          field="format_version")
    if version > FORMAT_VERSION:
        raise SombraError(N_("{source} was written by a newer sombra-tui (format version "
                             "{version}); this one reads up to version {supported}."),
                          code="storage.newer_version",
                          params={"source": str(source), "version": version,
                                  "supported": FORMAT_VERSION},
                          field="format_version")
    return version


def _as_json(value: Any) -> str:
    """A value of a file as the file writes it (null, true, "1"), not as Python would."""
    try:
        return json.dumps(value, ensure_ascii=False)[:80]
    except (TypeError, ValueError, RecursionError):
        return str(value)[:80]


def migrate(data: dict[str, Any], *, source: str = "the file") -> dict[str, Any]:
    """Bring a parsed file up to FORMAT_VERSION, or say why it cannot be read."""
    version = _check_version(data.get("format_version"), source)
    while version < FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SombraError(N_("{source} has format version {version}, which this "
                                 "sombra-tui cannot convert (it reads version {supported})."),
                              code="storage.unconvertible",
                              params={"source": str(source), "version": version,
                                      "supported": FORMAT_VERSION},
                              field="format_version")
        data = step(dict(data))
        version += 1
        data["format_version"] = version
    return data


def loads(text: str, *, source: str = "the file", background: bool = False) -> Combat:
    """Parse, migrate, validate and replay a saved encounter. Only SombraError escapes.

    With `background` (opening a file in the app, issue 24), a file that keeps a
    snapshot of its state gives a combat showing it at once, checked by a replay run
    later, in steps between the app's frames or all at once when the combat is first
    changed (Combat.from_snapshot: the replay wins if they differ, and says so).
    Without it, without a snapshot, or for a history shorter than BACKGROUND_FROM, the
    history is replayed here, as always, and the snapshot is not read further than its
    validation."""
    with bulk():  # tens of thousands of fresh objects: no cyclic GC passes meanwhile
        return _loads(text, source, background)


def _loads(text: str, source: str, background: bool = False) -> Combat:
    save, problem = _read_current(text)
    notices: list[str] = []
    if save is not None:
        _unique_keys(text, source, save)
    else:
        save, version = _read(text, source, problem)
        notices = [MIGRATION_NOTICES[v] for v in range(version, FORMAT_VERSION)
                   if v in MIGRATION_NOTICES]
    if background and save.snapshot is not None and \
            len(save.commands) >= BACKGROUND_FROM:
        combat = Combat.from_snapshot(save.encounter, save.commands, save.redo,
                                      save.snapshot, dice_drawn=save.dice_drawn)
        combat.notices = notices
        combat.identity = save.combat_id
        return combat
    try:
        combat = Combat(save.encounter, save.commands, save.redo,
                        dice_drawn=save.dice_drawn)
    except SombraError as error:
        raise SombraError(N_("{source}: {reason}"),
                          code="storage.migration_failed",
                          params={"source": str(source), "reason": str(error)}) from error
    combat.notices = notices
    combat.identity = save.combat_id
    if background and save.snapshot is not None and save.snapshot != combat.state:
        combat.check_problem = Msg(SNAPSHOT_DIFFERS)  # the replay wins, as always
    return combat


def _read_current(text: str) -> tuple[SaveFile | None, ValidationError | None]:
    """The usual case in one pass: a file of the current format version, parsed and
    validated by pydantic's JSON parser in strict mode. Otherwise no file, and the
    strict reading's objection if it had one (the message for a current-version file)."""
    try:
        save = SaveFile.model_validate_json(text, strict=True)
    except ValidationError as error:
        return None, error
    except (ValueError, RecursionError):
        return None, None
    given = save.model_fields_set  # the general path requires both, defaults or not
    if {"format", "format_version"} <= given and save.format_version == FORMAT_VERSION:
        return save, None
    return None, None


def _unique_keys(text: str, source: str, save: SaveFile | None = None) -> None:
    """Refuse a file with a key twice in one object, which the parsers read silently
    (the last value winning), naming the key and where it is. The strict reading gives
    no sign of one: a file read by it (`save`) whose text is exactly what the app would
    write for it has none (the usual case: a file the app saved, checked by writing it
    again, at about half the cost of parsing it); any other is parsed once more."""
    if save is not None and _text_of(save) == text:
        return
    try:
        check_unique_keys(text)
    except DuplicateKeyError as error:
        raise _twice(source, error) from None


def _twice(source: str, error: DuplicateKeyError) -> SombraError:
    return SombraError(N_('{source} has the key "{key}" twice in the same object, at '
                          '{path}; each key may appear only once: remove one of them.'),
                       code="storage.duplicate_key",
                       params={"source": str(source), "key": error.key, "path": error.path},
                       field=error.path)


def _parse(text: str, source: str) -> Any:
    try:
        return loads_json(text)
    except DuplicateKeyError as error:
        raise _twice(source, error) from None
    except json.JSONDecodeError as error:
        raise SombraError(N_("{source} is not valid JSON (line {line}, column {column}: "
                             "{detail})."),
                          code="storage.bad_json",
                          params={"source": str(source), "line": error.lineno,
                                  "column": error.colno,
                                  "detail": json_reason(error.msg)}) from error
    except (ValueError, RecursionError) as error:  # absurd numbers, absurd nesting
        reason = (N_("it is nested too deeply") if isinstance(error, RecursionError) else
                  N_("a number in it has too many digits"))
        raise SombraError(N_("{source} is not a usable JSON file ({reason})."),
                          code="storage.unusable_json",
                          params={"source": str(source), "reason": _(reason)}) from error


def _bad_value(source: str, error: ValidationError) -> SombraError:
    first = validation_problems(error)[0]
    return SombraError(N_("{source} has a bad value at {problem}"),
                       code="storage.bad_value",
                       params={"source": str(source), "problem": describe_validation(error)},
                       field=".".join(str(part) for part in first.location))


def _read(text: str, source: str, strict: ValidationError | None
          ) -> tuple[SaveFile, int]:
    """Why the strict reading refused the file, or the file read by way of the
    migrations: as strict, on the file brought up to the current version (with the
    version it was written in)."""
    try:
        envelope: _Envelope | None = _Envelope.model_validate_json(text)
    except (ValidationError, ValueError, RecursionError):
        envelope = None  # not JSON, or not an object: the JSON parser gives the message
    if envelope is None:
        data: Any = _parse(text, source)
        if not isinstance(data, dict):
            raise SombraError(N_("{source} is not a sombra-tui encounter file."),
                              code="storage.not_encounter", params={"source": str(source)})
        envelope = _Envelope(format=data.get("format"),
                             format_version=data.get("format_version"))
    if envelope.format != FORMAT_NAME:
        raise SombraError(N_("{source} is not a sombra-tui encounter file."),
                          code="storage.not_encounter", params={"source": str(source)})
    version = _check_version(envelope.format_version, source)
    if version == FORMAT_VERSION and strict is not None:
        _unique_keys(text, source)  # a key twice may be the cause of the bad value
        raise _bad_value(source, strict) from strict
    data = migrate(_parse(text, source), source=source)
    try:
        return SaveFile.model_validate_json(json.dumps(data), strict=True), version
    except ValidationError as error:
        raise _bad_value(source, error) from error
    except (ValueError, RecursionError) as error:
        raise SombraError(N_("{source} is nested too deeply to be an encounter."),
                          code="storage.too_deep", params={"source": str(source)}) from error


def json_schema() -> dict[str, Any]:
    """The JSON Schema of the encounter file format (`sombra-tui schema`)."""
    schema = SaveFile.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"sombra-tui encounter, format version {FORMAT_VERSION}"
    return schema


def backup_path(path: Path) -> Path:
    """Where the previous version of a saved file is kept."""
    return path.with_name(path.name + ".bak")


def save(combat: Combat, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, flushed and fsynced, then
    renamed over the old file, whose previous version is kept as `<name>.bak`.

    The backup is made the same way: a hard link to the old file (which costs no disk
    space) or, where links are not possible, a fsynced temporary copy, renamed over the
    old `.bak` only once the new file is in place. On any failure the old file and its
    `.bak` are left exactly as they were, the temporary files are removed and a
    SombraError says what went wrong; the combat in memory is untouched.
    """
    path = Path(path)
    folder = path.parent
    try:
        existing = os.stat(path)
    except FileNotFoundError:
        existing = None
    except OSError as error:
        raise SombraError(N_("Could not save to {path}: {reason}."),
                          code="storage.save_stat_failed",
                          params={"path": str(path),
                                  "reason": os_reason(error, plain=True)}) from error
    if existing is not None and stat.S_ISDIR(existing.st_mode):
        raise SombraError(N_("Could not save to {path}: it is a folder."),
                          code="storage.save_to_folder", params={"path": str(path)})
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        raise SombraError(N_("Could not save to {path}: it is not a regular file (a device, "
                             "a named pipe or a socket)."),
                          code="storage.save_not_regular", params={"path": str(path)})
    if not folder.is_dir():
        raise SombraError(N_("Could not save to {path}: the folder {folder} does not exist."),
                          code="storage.save_no_folder",
                          params={"path": str(path), "folder": str(folder)})
    data = dumps(combat).encode("utf-8")
    temporary: str | None = None
    backup: str | None = None
    try:
        temporary = _write_temporary(folder, path.name, data)
        if existing is not None:
            backup = _stage_backup(path)
        os.replace(temporary, path)
        temporary = None
    except OSError as error:
        raise SombraError(N_("Could not save to {path}: {reason}. The file on disk was not "
                             "changed."),
                          code="storage.save_failed",
                          params={"path": str(path),
                                  "reason": os_reason(error, plain=True)}) from error
    finally:
        for leftover in (temporary, backup if temporary is not None else None):
            if leftover is not None:
                with contextlib.suppress(OSError):
                    os.unlink(leftover)
    # The new file is in place: the save has happened. The old .bak gives way to the
    # previous version; should that rename fail, the old .bak simply stays.
    if backup is not None:
        try:
            os.replace(backup, backup_path(path))
        except OSError:
            with contextlib.suppress(OSError):
                os.unlink(backup)
    _fsync_folder(folder)


def _write_temporary(folder: Path, name: str, data: bytes) -> str:
    """`data` in a new hidden file beside `name`, flushed and fsynced; its path."""
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return temporary


def _stage_backup(path: Path) -> str:
    """The current version of `path` under a hidden temporary name beside it, to become
    the .bak: a hard link where the disk allows it, else a fsynced copy."""
    target = backup_path(path)
    linked = str(target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp"))
    try:
        os.link(path, linked)
        return linked
    except OSError:
        pass  # FAT, some network or FUSE disks, another disk for a linked file
    with open(path, "rb") as source:
        return _write_temporary(path.parent, target.name, source.read())


def _fsync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); harmless where folders cannot be opened."""
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def load(path: Path, *, background: bool = False) -> Combat:
    """The encounter in `path` (see loads, and its `background`)."""
    path = Path(path)
    name = str(path)
    raw = read_regular_file(path, MAX_FILE_BYTES)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise SombraError(N_("{name} is not UTF-8 text (byte {byte})."),
                          code="storage.not_utf8",
                          params={"name": name, "byte": error.start}) from error
    return loads(text, source=name, background=background)


class Roster(BaseModel):
    """The characters another encounter file holds, for reuse (a party)."""

    model_config = ConfigDict(defer_build=True)

    source: str
    characters: list[Character]
    #: Issue 38: what they would bring along (G, W, wounds, conditions), for those with any.
    carried: dict[str, CarriedBody] = Field(default_factory=dict)


def read_roster(path: Path) -> Roster:
    """Characters of an encounter file as they stand at the end of its history, and
    the wounds and conditions they would bring along (issue 38)."""
    from sombra_tui.engine.carry import carried_bodies

    combat = load(path)
    return Roster(source=Path(path).name, characters=list(combat.state.characters),
                  carried=carried_bodies(combat.state))


def roster_clashes(roster: Roster, names: list[str]) -> list[str]:
    """Names in the roster that the open encounter already uses (case-insensitive)."""
    return name_clashes((ch.name for ch in roster.characters), names)
