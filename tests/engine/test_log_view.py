"""Issue 24 item 4: a long history keeps the events of its latest commands only; the
log view replays older ones from their checkpoints when read. What it gives must be the
log a replay keeping every event gives, through undo, redo and a file's check, and its
keys must tell a UI which events it still shows (the widget compares keys, not objects).
"""

from __future__ import annotations

import pytest

from sombra_tui.engine import history
from sombra_tui.engine.history import CHECKPOINT_EVERY, KEPT_EVENT_BLOCKS, Combat, LogView
from tests import builders

ENCOUNTER = builders.build_encounter(12)
#: Over four checkpoints: the events of the first blocks are not kept.
HISTORY = builders.build_history(ENCOUNTER, 4 * CHECKPOINT_EVERY + 90)


def every_event_kept(monkeypatch: pytest.MonkeyPatch, commands: list) -> Combat:
    """The same history replayed keeping every command's events (as before)."""
    with monkeypatch.context() as patch:
        patch.setattr(history, "KEPT_EVENT_BLOCKS", len(commands) + 1)
        combat = Combat(ENCOUNTER, commands)
    assert all(events is not None for events in combat._events)
    return combat


def test_only_the_latest_blocks_events_are_kept() -> None:
    combat = Combat(ENCOUNTER, HISTORY)
    kept = [index for index, events in enumerate(combat._events) if events is not None]
    length = len(HISTORY)
    assert kept == list(range(length - length % CHECKPOINT_EVERY
                              - (KEPT_EVENT_BLOCKS - 1) * CHECKPOINT_EVERY, length))


def test_the_log_view_is_the_log_every_event_kept_gives(
        monkeypatch: pytest.MonkeyPatch) -> None:
    expected = every_event_kept(monkeypatch, HISTORY).log
    view = Combat(ENCOUNTER, HISTORY).log_view()
    assert len(view) == len(expected)
    assert list(view) == expected
    assert list(reversed(view)) == expected[::-1]
    assert view[-60:] == expected[-60:]
    assert view[3:700] == expected[3:700]
    assert view[10:900:7] == expected[10:900:7]
    assert [view[i] for i in range(-1, -len(view), -97)] == expected[-1:-len(view):-97]
    with pytest.raises(IndexError):
        view[len(view)]


def test_undo_and_redo_across_blocks_keep_the_log(monkeypatch: pytest.MonkeyPatch) -> None:
    combat = Combat(ENCOUNTER, HISTORY)
    undone = 2 * CHECKPOINT_EVERY + 40  # past the kept events and states
    for _i in range(undone):
        combat.undo()
    assert combat.log == every_event_kept(monkeypatch, HISTORY[:-undone]).log
    for _i in range(undone // 2):
        combat.redo()
    assert combat.log == every_event_kept(monkeypatch, HISTORY[:-undone // 2]).log
    assert combat.events_since(len(HISTORY) - undone) == \
        combat.log[combat.log_view().start_of(len(HISTORY) - undone):]


def test_a_checked_snapshot_gives_the_same_log(monkeypatch: pytest.MonkeyPatch) -> None:
    combat = Combat(ENCOUNTER, HISTORY)
    loaded = Combat.from_snapshot(ENCOUNTER, HISTORY, [], combat.state.clone())
    assert len(loaded.log_view()) == 0  # the log is the check's, once done
    loaded.settle()
    assert loaded.check_problem is None
    assert loaded.log == every_event_kept(monkeypatch, HISTORY).log


def test_keys_tell_the_same_events_from_new_ones() -> None:
    combat = Combat(ENCOUNTER, HISTORY)
    before = combat.log_view()
    again = combat.log_view()
    assert before is not again
    assert [before.key(i) for i in range(len(before))] == \
        [again.key(i) for i in range(len(again))]
    assert len({before.key(i) for i in range(len(before))}) == len(before)
    last = combat.undo()
    cut = combat.log_view()
    assert all(cut.key(i) == before.key(i) for i in range(len(cut)))
    combat.redo()  # the same events back (a swap): the same keys
    assert combat.log_view().key(-1) == before.key(-1)
    combat.undo()
    combat.execute(last)  # applied anew: equal events, a new batch
    anew = combat.log_view()
    assert anew[-1] == before[-1]
    assert anew.key(-1) != before.key(-1)


def test_a_view_stays_what_it_was() -> None:
    combat = Combat(ENCOUNTER, HISTORY)
    view = combat.log_view()
    expected = list(view)
    for _i in range(CHECKPOINT_EVERY + 10):  # its checkpoints dropped from the combat
        combat.undo()
    combat.execute(HISTORY[-CHECKPOINT_EVERY - 10])
    assert isinstance(view, LogView)
    assert list(view) == expected
    assert view == expected


def test_reading_the_whole_log_keeps_no_more_events() -> None:
    """What a view replays is its own (one block at a time), never the combat's."""
    combat = Combat(ENCOUNTER, HISTORY)
    kept = sum(events is not None for events in combat._events)
    view = combat.log_view()
    assert len(list(view)) == len(view)
    assert sum(events is not None for events in combat._events) == kept
    assert len(view._made) <= CHECKPOINT_EVERY


def test_older_checkpoints_are_thinned_out(monkeypatch: pytest.MonkeyPatch) -> None:
    every, length = 16, len(HISTORY)
    monkeypatch.setattr(history, "CHECKPOINT_EVERY", every)
    combat = Combat(ENCOUNTER, HISTORY)
    latest = length - length % every
    dense = set(range(latest - (history.DENSE_CHECKPOINTS - 1) * every, latest + 1, every))
    sparse = set(range(0, latest + 1, history.SPARSE_CHECKPOINTS * every))
    assert set(combat._checkpoints) == dense | sparse
    assert len(combat._checkpoints) < length // every // 3
    assert combat.log == every_event_kept(monkeypatch, HISTORY).log


def test_undo_to_the_start_through_thinned_checkpoints(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """S1: every undo, far past the kept states and the dense checkpoints, gives the
    state and the log a fresh replay gives; the checkpoints it passes are put back, in
    order."""
    monkeypatch.setattr(history, "CHECKPOINT_EVERY", 8)
    commands = HISTORY[:150]
    combat = Combat(ENCOUNTER, commands)
    assert len(combat._checkpoints) < 150 // 8
    for length in range(len(commands) - 1, -1, -1):
        combat.undo()
        if length % 7 == 0 or length < 20:
            fresh = Combat(ENCOUNTER, commands[:length])
            assert combat.state == fresh.state, length
            assert combat.log == fresh.log, length
        points = list(combat._checkpoints)
        assert points == sorted(points)
        assert all(point <= length for point in points)
    for _i in range(len(commands)):
        combat.redo()
    assert combat.state == Combat(ENCOUNTER, commands).state
    assert combat.log == Combat(ENCOUNTER, commands).log
