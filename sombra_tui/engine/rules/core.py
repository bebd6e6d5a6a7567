"""What every rule module shares; it imports no area module."""

from __future__ import annotations

from typing import Any

from sombra_tui.engine.events import EventKind, LogEvent
from sombra_tui.engine.i18n import Msg
from sombra_tui.engine.state import CombatState


class Emitter:
    """Collects the events of one command, stamped with round and phase."""

    def __init__(self, state: CombatState) -> None:
        self.state = state
        self.events: list[LogEvent] = []

    def __call__(self, kind: EventKind, text: str | Msg, **fields: Any) -> None:
        self.events.append(LogEvent.of(text, round=self.state.round, phase=self.state.phase,
                                       kind=kind, **fields))
