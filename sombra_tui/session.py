"""The open encounter: a Combat plus where it is saved and whether it changed.

No Textual here: the app holds one Session and renders it.
"""

from __future__ import annotations

from pathlib import Path

from sombra_tui.engine import storage
from sombra_tui.engine.commands import Command
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import LogEvent
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import Encounter


class Session:
    def __init__(self, combat: Combat, path: Path | None = None) -> None:
        self.combat = combat
        self.path = path
        self._saved_marker = self._marker() if path is not None else None

    @classmethod
    def new(cls, encounter: Encounter) -> Session:
        return cls(Combat(encounter))

    @classmethod
    def open(cls, path: Path) -> Session:
        return cls(storage.load(path), path)

    # The saved marker is the history's length and last command object: undo
    # then redo puts the same object back, so the file counts as unchanged.
    def _marker(self) -> tuple[int, int, int]:
        commands = self.combat.commands
        return (len(commands), id(commands[-1]) if commands else 0,
                len(self.combat.redo_stack))

    @property
    def dirty(self) -> bool:
        return self._saved_marker != self._marker()

    @property
    def name(self) -> str:
        return self.combat.state.name

    def execute(self, command: Command) -> list[LogEvent]:
        return self.combat.execute(command)

    def undo(self) -> Command:
        return self.combat.undo()

    def redo(self) -> Command:
        return self.combat.redo()

    def save(self, path: Path | None = None) -> Path:
        target = path or self.path
        if target is None:
            raise SombraError("Choose where to save the encounter first (save as).")
        storage.save(self.combat, target)
        self.path = target
        self._saved_marker = self._marker()
        return target
