"""Crash journal: every change to a combat is appended (and fsynced) as it happens, so a
killed process loses at most the command being typed.

A journal is a JSON-lines file. The first line is a header with the combat as it stood
when journaling began (encounter, history and redo stack, where it is saved, and
whether that combat held work that was never saved, as a resumed combat does);
every later line is one operation: a command applied, an undo, a redo, or a save.
Recovery replays the header and the operations; a last line cut short by the crash
is ignored. Nothing in a journal is ever executed: commands are data, validated by
pydantic and replayed by the rules engine.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from sombra_tui.engine import storage
from sombra_tui.engine.commands import Command
from sombra_tui.engine.errors import (
    ParamValue,
    SombraError,
    describe_validation,
    os_reason,
    validation_problems,
)
from sombra_tui.engine.files import DuplicateKeyError, check_unique_keys
from sombra_tui.engine.history import Combat
from sombra_tui.engine.i18n import N_, _
from sombra_tui.engine.model import Encounter

JOURNAL_FORMAT = "sombra-tui journal"
#: 2: H11 asks the DJ before a new aturdido cancels a pending round action, and an
#: opposition declared against a plain action binds it (O2, O3); a journal of version 1
#: replays with both off, as it was played (as storage._v2_to_v3).
#: 3: RULES.md's fourth pass (Settings.rules_v4); a journal of version 2 replays without
#: it (as storage._v3_to_v4).
JOURNAL_VERSION = 3
#: The encounter file format whose readings a journal of each version was played with.
FILE_VERSION_OF: dict[int, int] = {1: 2, 2: 3, 3: storage.FORMAT_VERSION}
JOURNAL_SUFFIX = ".journal.jsonl"
#: A journal holds the combat as it started plus every change since: room for an
#: encounter file of the largest size and a long evening on top.
MAX_JOURNAL_BYTES = 4 * storage.MAX_FILE_BYTES


class JournalHeader(BaseModel):
    model_config = ConfigDict(defer_build=True)

    format: Literal["sombra-tui journal"] = "sombra-tui journal"
    format_version: int = JOURNAL_VERSION
    started: datetime
    saved_path: str | None = None
    #: True when the combat at the start already held work no file has (a combat
    #: resumed from an earlier journal); None in journals written before this field,
    #: read as "unsaved unless it has a file or no history at all".
    unsaved: bool | None = None
    encounter: Encounter
    commands: list[Command] = Field(default_factory=list)
    redo: list[Command] = Field(default_factory=list)
    #: T6: Combat.dice_drawn when journaling began (0 in older journals).
    dice_drawn: int = Field(0, ge=0)
    #: Combat.identity (None in older journals: the resumed combat is then named from
    #: its file's place, as before).
    combat_id: str | None = Field(None, pattern=storage.COMBAT_ID_PATTERN)


class DoOp(BaseModel):
    model_config = ConfigDict(defer_build=True)

    op: Literal["do"] = "do"
    command: Command
    #: T6: Combat.dice_drawn after the command (None in older journals).
    dice_drawn: int | None = Field(None, ge=0)


class UndoOp(BaseModel):
    model_config = ConfigDict(defer_build=True)

    op: Literal["undo"] = "undo"


class RedoOp(BaseModel):
    model_config = ConfigDict(defer_build=True)

    op: Literal["redo"] = "redo"


class SavedOp(BaseModel):
    model_config = ConfigDict(defer_build=True)

    op: Literal["saved"] = "saved"
    path: str


Operation = Annotated[DoOp | UndoOp | RedoOp | SavedOp, Field(discriminator="op")]
_OPERATION: TypeAdapter[Operation] = TypeAdapter(Operation,
                                                 config=ConfigDict(defer_build=True))


@dataclass
class Recovered:
    """What a journal gives back: the combat, where it was saved, and when it changed."""

    combat: Combat
    saved_path: Path | None
    #: True when discarding loses nothing: the last operation was a save, or there is no
    #: operation and the combat at the start was saved (or an untouched new one).
    clean: bool
    changed: datetime
    operations: int
    #: The journal it was read from.
    source: Path | None = None


class JournalSummary(BaseModel):
    """Enough to ask the DJ whether to resume: name, round, time."""

    model_config = ConfigDict(defer_build=True)

    path: Path
    name: str
    round: int
    phase: str
    changed: datetime
    clean: bool


def now() -> datetime:
    return datetime.now(UTC)


class Journal:
    """Appends operations to one journal file; each write is flushed and fsynced."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)

    @classmethod
    def start(cls, folder: Path, combat: Combat, saved_path: Path | None, *,
              unsaved: bool) -> Journal:
        """Begin a journal for `combat` in `folder` (created if needed). `unsaved`: the
        combat already holds work that no file has (recovery must not count it clean)."""
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise SombraError(N_("Could not create the journal folder {folder}: {reason}."),
                              code="journal.folder_failed",
                              params={"folder": str(folder), "reason": os_reason(error)}) from error
        # Unique even for two sessions of one process in the same second; "x" never
        # overwrites another session's journal.
        stamp = now().strftime("%Y%m%d-%H%M%S")
        path = folder / f"{stamp}-{os.getpid()}-{uuid.uuid4().hex[:8]}{JOURNAL_SUFFIX}"
        journal = cls(path)
        header = JournalHeader(started=now(), encounter=combat.encounter,
                               commands=combat.commands, redo=combat.redo_stack,
                               saved_path=str(saved_path) if saved_path else None,
                               unsaved=unsaved, dice_drawn=combat.dice_drawn,
                               combat_id=combat.identity)
        journal._write(header.model_dump_json(), mode="x")
        # The models are built on first use (issue 24 item 5): the one every command's
        # record needs is built now, with the header (after the app's first frame),
        # rather than at the DJ's first command (about 10 ms).
        DoOp.model_rebuild()
        return journal

    def record(self, command: Command, dice_drawn: int | None = None) -> None:
        self._write(DoOp(command=command, dice_drawn=dice_drawn).model_dump_json())

    def record_undo(self) -> None:
        self._write(UndoOp().model_dump_json())

    def record_redo(self) -> None:
        self._write(RedoOp().model_dump_json())

    def record_saved(self, path: Path) -> None:
        self._write(SavedOp(path=str(path)).model_dump_json())

    def discard(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    def _write(self, line: str, mode: str = "a") -> None:
        try:
            with open(self.path, mode, encoding="utf-8") as stream:
                stream.write(line + "\n")
                stream.flush()
                os.fsync(stream.fileno())
        except OSError as error:
            raise SombraError(N_("Could not write the crash journal {path}: {reason}."),
                              code="journal.write_failed",
                              params={"path": str(self.path),
                                      "reason": os_reason(error)}) from error


def _twice(path: Path, number: int, error: DuplicateKeyError) -> SombraError:
    """A journal line whose object holds a key twice (json would keep the last)."""
    return SombraError(N_('The journal {path} has the key "{key}" twice in the same object, '
                          'at {where} on line {number}.'),
                       code="journal.duplicate_key",
                       params={"path": str(path), "key": error.key, "where": error.path,
                               "number": number})


def _bad_header(path: Path, line: str, error: ValidationError) -> SombraError:
    """A first line that is no journal's header, or a header with a bad value, named
    with its place as a file's is (storage: "has a bad value at")."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or data.get("format") != JOURNAL_FORMAT:
        return SombraError(N_("The journal {path} has no valid header."),
                           code="journal.no_header", params={"path": str(path)})
    version = data.get("format_version")
    if isinstance(version, int) and not isinstance(version, bool) \
            and version not in FILE_VERSION_OF:  # a newer journal may hold more
        return _unknown_version(path, version)
    first = validation_problems(error)[0]
    return SombraError(N_("The journal {path} has a bad value on line 1, at {problem}"),
                       code="journal.bad_header",
                       params={"path": str(path), "problem": describe_validation(error)},
                       field=".".join(str(part) for part in first.location))


def _unknown_version(path: Path, version: int) -> SombraError:
    """A journal of a version this sombra-tui does not know (S1): refused as storage
    refuses such a file, never read as the current version."""
    params: dict[str, ParamValue] = {"path": str(path), "version": version,
                                     "supported": JOURNAL_VERSION}
    if version > JOURNAL_VERSION:
        return SombraError(N_("The journal {path} was written by a newer sombra-tui "
                              "(journal version {version}); this one reads up to version "
                              "{supported}."),
                           code="journal.newer_version", params=params,
                           field="format_version")
    return SombraError(N_("The journal {path} has format version {version}, which this "
                          "sombra-tui cannot resume (it reads versions 1 to {supported})."),
                       code="journal.unknown_version", params=params,
                       field="format_version")


def _played_version(path: Path, version: int) -> int:
    """The encounter file format whose readings a journal of `version` was played with."""
    if version not in FILE_VERSION_OF:
        raise _unknown_version(path, version)
    return FILE_VERSION_OF[version]


def recover(path: Path) -> Recovered:
    """Rebuild the combat a journal describes. Raises SombraError if it is unusable."""
    path = Path(path)
    try:
        raw = storage.read_regular_file(path, MAX_JOURNAL_BYTES, what=_("a journal"))
        changed = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    except OSError as error:
        raise SombraError(N_("Could not read the journal {path}: {reason}."),
                          code="journal.read_failed",
                          params={"path": str(path), "reason": os_reason(error)}) from error
    lines = raw.decode("utf-8", errors="replace").split("\n")
    complete = lines[:-1]  # text after the last newline was cut short by the crash
    if not complete:
        raise SombraError(N_("The journal {path} is empty."),
                          code="journal.empty", params={"path": str(path)})
    try:
        check_unique_keys(complete[0])
        header = JournalHeader.model_validate_json(complete[0])
    except DuplicateKeyError as error:
        raise _twice(path, 1, error) from None
    except ValidationError as error:
        raise _bad_header(path, complete[0], error) from error
    encounter, commands, redo = header.encounter, header.commands, header.redo
    #: An older journal replays as it was played (storage._v2_to_v3, _v3_to_v4).
    version = _played_version(path, header.format_version)
    if version < storage.FORMAT_VERSION:
        encounter = encounter.model_copy(update={
            "settings": storage.played_settings(encounter.settings, version)})
        commands = [storage.played_command(each, version) for each in commands]
        redo = [storage.played_command(each, version) for each in redo]
    try:
        combat = Combat(encounter, commands, redo, dice_drawn=header.dice_drawn)
    except SombraError as error:
        raise SombraError(N_("The journal {path} does not replay: {reason}"),
                          code="journal.replay_failed",
                          params={"path": str(path), "reason": str(error)}) from error
    combat.identity = header.combat_id
    saved_path = Path(header.saved_path) if header.saved_path else None
    if header.unsaved is None:  # an older journal: the rule Session used to start one
        clean = saved_path is not None or not (header.commands or header.redo)
    else:
        clean = not header.unsaved
    count = 0
    for number, line in enumerate(complete[1:], start=2):
        if not line.strip():
            continue
        try:
            check_unique_keys(line)
            operation = _OPERATION.validate_json(line)
        except DuplicateKeyError as error:
            raise _twice(path, number, error) from None
        except ValidationError:
            # Only a torn last write can be malformed; stop at the first bad line.
            break
        try:
            if isinstance(operation, DoOp):
                combat.execute(storage.played_command(operation.command, version))
                if operation.dice_drawn is not None:  # T6: never reuse a draw
                    combat.dice_drawn = max(combat.dice_drawn, operation.dice_drawn)
            elif isinstance(operation, UndoOp):
                combat.undo()
            elif isinstance(operation, RedoOp):
                combat.redo()
            else:
                saved_path = Path(operation.path)
        except SombraError as error:
            raise SombraError(N_("The journal {path} does not replay at line {number}: "
                                 "{reason}"),
                              code="journal.replay_line_failed",
                              params={"path": str(path), "number": number,
                                      "reason": str(error)}) from error
        clean = isinstance(operation, SavedOp)
        count += 1
    return Recovered(combat=combat, saved_path=saved_path, clean=clean, changed=changed,
                     operations=count, source=path)


def summarize(path: Path) -> JournalSummary:
    recovered = recover(path)
    state = recovered.combat.state
    return JournalSummary(path=path, name=state.name, round=state.round,
                          phase=state.phase.value, changed=recovered.changed,
                          clean=recovered.clean)


def find_journals(folder: Path) -> list[Path]:
    """Journals left in `folder`, newest first."""
    try:
        found = [p for p in folder.iterdir() if p.name.endswith(JOURNAL_SUFFIX)]
    except OSError:
        return []
    return sorted(found, key=_changed, reverse=True)


def _changed(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:  # gone meanwhile, or a dangling link: last; recover() reports it
        return 0.0
