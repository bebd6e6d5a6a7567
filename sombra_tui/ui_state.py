"""Where the DJ left the table's cursor, and the form left open, per encounter: UI
state, not the combat's.

The engine's files and journal hold the combat (what happened); the row the DJ had
chosen is the screen's, so it is kept beside them, in one small file of the data
folder, under the keys of the encounter's file and of its crash journal. A resumed
journal or a reopened file puts the cursor back where the DJ left it. Losing this
file loses nothing but that convenience: every problem reading or writing it is
ignored.

A form the DJ was typing in is kept the same way (issue 35 item 5), in
`form-draft.json`, under the crash journal's key only: a resumed combat opens it
again with what was typed; closing the form forgets it. Beside it, in the same file
under its own key, the dice typed for the members of a group rolled together and not
sent yet (the screen's `group_dice`): kept until those TAs are sent, whatever form is
kept meanwhile, so a resume brings them back into the group's next dialog.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import NamedTuple

from sombra_tui import config

FILE_NAME = "table-cursor.json"
DRAFT_FILE_NAME = "form-draft.json"
#: Entries kept (the newest): one per encounter file or journal.
MAX_ENTRIES = 64


class Cursor(NamedTuple):
    """The row the DJ chose (by name) in asalto `round` (0: before the combat)."""

    name: str
    round: int


def path() -> Path:
    return config.data_dir() / FILE_NAME


def draft_path() -> Path:
    return config.data_dir() / DRAFT_FILE_NAME


def file_key(encounter: Path) -> str:
    return "file:" + str(Path(encounter).resolve())


def journal_key(journal: Path) -> str:
    return "journal:" + Path(journal).name


def _load(where: Path | None = None) -> dict[str, dict[str, object]]:
    try:
        data = json.loads((where or path()).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {key: value for key, value in data.items() if isinstance(value, dict)} \
        if isinstance(data, dict) else {}


def recall(keys: list[str]) -> Cursor | None:
    """The cursor kept under the first of `keys` that has one."""
    entries = _load()
    for key in keys:
        entry = entries.get(key)
        if entry is None:
            continue
        name, round_ = entry.get("name"), entry.get("round")
        if isinstance(name, str) and isinstance(round_, int):
            return Cursor(name, round_)
    return None


def remember(keys: list[str], cursor: Cursor | None) -> None:
    """Keep `cursor` under each of `keys` (None: the DJ chose no row; forget it)."""
    if not keys:
        return
    entries = _load()
    for key in keys:
        entries.pop(key, None)  # re-added last: the newest stay
        if cursor is not None:
            entries[key] = {"name": cursor.name, "round": cursor.round}
    _write(path(), entries)


def _write(target: Path, entries: dict[str, dict[str, object]]) -> None:
    """`entries` (the newest MAX_ENTRIES) to `target`, atomically: written beside it,
    then renamed over it."""
    kept = dict(list(entries.items())[-MAX_ENTRIES:])
    scratch = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        scratch.write_text(json.dumps(kept, ensure_ascii=False), encoding="utf-8")
        os.replace(scratch, target)
    except OSError:
        scratch.unlink(missing_ok=True)


# ---- the encounters opened last (sombra-tui --paths, the help) -----------------------------

RECENT_FILE = "recent.json"
#: Encounter files kept in the list (the newest).
MAX_RECENT = 10


def recent_path() -> Path:
    return config.data_dir() / RECENT_FILE


def recently_opened() -> list[Path]:
    """The encounter files opened or saved last, newest first (any problem: none)."""
    try:
        data = json.loads(recent_path().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    if not isinstance(data, list):
        return []
    return [Path(item) for item in data if isinstance(item, str)][:MAX_RECENT]


def opened(encounter: Path) -> None:
    """`encounter` was opened or saved: first in the list of the last ones."""
    name = str(Path(encounter).resolve())
    kept = [name, *(str(path) for path in recently_opened() if str(path) != name)]
    target = recent_path()
    scratch = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        scratch.write_text(json.dumps(kept[:MAX_RECENT], ensure_ascii=False),
                           encoding="utf-8")
        os.replace(scratch, target)
    except OSError:
        scratch.unlink(missing_ok=True)


# ---- the form left open (issue 35 item 5) ------------------------------------------------

def recall_draft(key: str) -> dict[str, object] | None:
    """The form left open under `key` (a journal's): {"dialog", "who", "values"}."""
    return _load(draft_path()).get(key)


def remember_draft(key: str, draft: dict[str, object] | None) -> None:
    """Keep the open form's `draft` under `key` (None: forget it)."""
    entries = _load(draft_path())
    if entries.get(key) == draft:
        return
    entries.pop(key, None)
    if draft is not None:
        entries[key] = draft
    _write(draft_path(), entries)


# ---- the dice typed for a group's members not sent yet (issue 39 item 3, H1) ------------

def _group_key(key: str) -> str:
    return "group-dice:" + key


def recall_group_dice(key: str) -> dict[str, str]:
    """The dice kept under `key` (a journal's) for a group's members, by name."""
    dice = _load(draft_path()).get(_group_key(key), {})
    return {name: typed for name, typed in dice.items() if isinstance(typed, str) and typed}


def remember_group_dice(key: str, dice: dict[str, str]) -> None:
    """Keep `dice` (by name) under `key`, apart from the open form (empty: forget them)."""
    entries = _load(draft_path())
    if entries.get(_group_key(key), {}) == dice:
        return
    entries.pop(_group_key(key), None)
    if dice:
        entries[_group_key(key)] = dict(dice)
    _write(draft_path(), entries)
