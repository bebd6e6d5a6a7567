"""Issue 24: undo and redo are swaps (or, past the kept states, a replay from the
nearest checkpoint and one command applied), and both give exactly the
state and log a replay of the history gives (S1), at every point of a long history,
past the kept states and across checkpoints; checkpoints share what did not change."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sombra_tui.engine import history
from sombra_tui.engine.history import Combat
from tests import builders

ENCOUNTER = builders.build_encounter(10)
HISTORY = builders.build_history(ENCOUNTER, 260)


@contextmanager
def small(undo_states: int, every: int) -> Iterator[None]:
    with mock.patch.object(history, "UNDO_STATES", undo_states), \
            mock.patch.object(history, "CHECKPOINT_EVERY", every):
        yield


def assert_replays(combat: Combat) -> None:
    replayed = Combat(combat.encounter, combat.commands)
    assert combat.state == replayed.state, "S1: the state differs from a replay"
    assert combat.log == replayed.log, "S1: the log differs from a replay"


@settings(max_examples=20, deadline=None)
@given(start=st.integers(0, 240), undo_states=st.sampled_from([1, 3, 16]),
       every=st.sampled_from([5, 64]),
       steps=st.lists(st.tuples(st.sampled_from(["undo", "redo", "execute"]),
                                st.integers(1, 20)), min_size=1, max_size=6))
def test_s1_undo_and_redo_give_the_replayed_state_at_random_points(
        start: int, undo_states: int, every: int, steps: list[tuple[str, int]]) -> None:
    """S1: from a loaded history of random length, runs of undos, redos and new
    commands (the scripted DJ's) leave the state and the log a fresh replay gives."""
    with small(undo_states, every):
        combat = Combat(ENCOUNTER, HISTORY[:start])
        dj = builders.ScriptedDJ(seed=start)
        for kind, count in steps:
            for _ in range(count):
                if kind == "undo" and combat.can_undo:
                    combat.undo()
                elif kind == "redo" and combat.can_redo:
                    combat.redo()
                elif kind == "execute":
                    combat.execute(dj.next_command(combat.state))
                assert_replays(combat)


def test_s1_undo_of_a_live_command_is_a_swap_without_replay() -> None:
    """Issue 24: undoing the last UNDO_STATES commands, then redoing them, replays
    nothing; the states put back are the replayed ones."""
    combat = Combat(ENCOUNTER, HISTORY[:100])
    for command in HISTORY[100:100 + history.UNDO_STATES]:
        combat.execute(command)
    with mock.patch.object(history.machine, "apply",
                           side_effect=AssertionError("replayed")):
        for length in range(100 + history.UNDO_STATES - 1, 99, -1):
            combat.undo()
            assert len(combat.commands) == length
    assert_replays(combat)
    with mock.patch.object(history.machine, "apply",
                           side_effect=AssertionError("replayed")):
        for _ in range(history.UNDO_STATES):  # redo puts back the state it left
            combat.redo()
    assert combat.commands == HISTORY[:100 + history.UNDO_STATES]
    assert_replays(combat)


def test_s1_redo_of_a_loaded_redo_stack_applies_one_command() -> None:
    """A redo stack read from a file has no states: redo applies its command once."""
    combat = Combat(ENCOUNTER, HISTORY[:100], redo=list(reversed(HISTORY[100:103])))
    calls = 0
    real = history.machine.apply

    def counted(*args: object) -> object:
        nonlocal calls
        calls += 1
        return real(*args)  # type: ignore[arg-type]

    with mock.patch.object(history.machine, "apply", side_effect=counted):
        combat.redo()
    assert calls == 1 and combat.commands == HISTORY[:101]
    assert_replays(combat)


def test_s1_a_loaded_history_undoes_from_its_nearest_checkpoint() -> None:
    """A history replayed at load keeps the states before its last UNDO_STATES
    commands (issue 41 item 6: the first undo after opening is a swap too); an undo
    past them replays from the nearest checkpoint (never the start) and keeps what it
    passes for the next ones."""
    combat = Combat(ENCOUNTER, HISTORY[:200])
    calls = 0
    real = history.machine.apply

    def counted(*args: object) -> object:
        nonlocal calls
        calls += 1
        return real(*args)  # type: ignore[arg-type]

    with mock.patch.object(history.machine, "apply", side_effect=counted):
        for _ in range(history.UNDO_STATES):
            combat.undo()
        assert calls == 0  # the states the load kept: swaps
        length = 200 - history.UNDO_STATES
        nearest = length - length % history.CHECKPOINT_EVERY
        combat.undo()
        assert calls == length - nearest  # from the nearest checkpoint, not from 0
        calls = 0
        for _ in range(5):
            combat.undo()
        assert calls == 0
    assert_replays(combat)


def test_checkpoints_share_what_did_not_change_and_stay_independent() -> None:
    """Issue 24: a checkpoint holds its predecessor's containers and records where
    nothing changed; the state cloned from it is independent of both."""
    with small(16, 8):
        combat = Combat(ENCOUNTER, HISTORY[:250])
        points = combat._checkpoints
        first, second = points[232], points[240]
        shared = [name for name, value in second.__dict__.items()
                  if isinstance(value, list | dict) and value
                  and value is first.__dict__[name]]
        assert shared, "no container shared between consecutive checkpoints"
        before = second.model_dump()
        copy = second.clone()
        for command in HISTORY[240:250]:
            history.machine.apply(copy, command)
        assert second.model_dump() == before  # the checkpoint did not change
        assert copy == combat.state


@pytest.mark.parametrize("cut", [0, 1, 64, 127, 128, 129, 257])
def test_s1_undo_everything_from_a_length_near_a_checkpoint(cut: int) -> None:
    combat = Combat(ENCOUNTER, HISTORY[:cut])
    while combat.can_undo:
        combat.undo()
        if len(combat.commands) % 9 == 0:
            assert_replays(combat)
    assert_replays(combat)
    while combat.can_redo:
        combat.redo()
    assert combat.commands == HISTORY[:cut]
    assert_replays(combat)
