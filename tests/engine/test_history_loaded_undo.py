"""S1 (issue 41 item 6): the first undo after opening a file is as quick as the second.

A loaded history used to keep no state before its last commands: its first undo
replayed up to CHECKPOINT_EVERY commands from a checkpoint (3.2x a command to screen
at 200 characters), the next ones were swaps. The replay that loads it (or that checks
its snapshot) now keeps them on the way, so every undo after a load is a swap, and
gives the state a replay of the shorter history gives.
"""

from __future__ import annotations

import pytest

from sombra_tui.engine import Combat, storage
from sombra_tui.engine.history import UNDO_STATES
from tests import builders


@pytest.fixture(scope="module")
def history() -> tuple[object, list[object]]:
    encounter = builders.build_encounter(12)
    return encounter, builders.build_history(encounter, 300)


def undone_without_replay(combat: Combat, monkeypatch: pytest.MonkeyPatch,
                          times: int) -> None:
    """Undo `times` commands, failing if any undo replays the history (_refill)."""
    def replays() -> None:
        raise AssertionError("an undo replayed the history: no state was kept")

    monkeypatch.setattr(combat, "_refill", replays)
    for _undo in range(times):
        combat.undo()


@pytest.mark.parametrize("background", [False, True], ids=["replayed", "from its snapshot"])
def test_s1_every_undo_after_opening_a_file_is_a_swap(
        history: tuple[object, list[object]], monkeypatch: pytest.MonkeyPatch,
        background: bool) -> None:
    encounter, commands = history
    saved = Combat(encounter, commands)  # type: ignore[arg-type]
    text = storage.dumps(saved)
    monkeypatch.setattr(storage, "BACKGROUND_FROM", 1)
    opened = storage.loads(text, background=background)
    assert opened.checking is background
    opened.settle()  # what the app does between frames (and any undo first)
    undone_without_replay(opened, monkeypatch, UNDO_STATES)
    expected = Combat(encounter, commands[:-UNDO_STATES])  # type: ignore[arg-type]
    assert opened.state == expected.state
    assert opened.commands == expected.commands


def test_s1_a_short_history_keeps_the_state_before_each_command(
        history: tuple[object, list[object]], monkeypatch: pytest.MonkeyPatch) -> None:
    encounter, commands = history
    combat = Combat(encounter, commands[:3])  # type: ignore[arg-type]
    undone_without_replay(combat, monkeypatch, 3)
    assert combat.state == Combat(encounter).state  # type: ignore[arg-type]
