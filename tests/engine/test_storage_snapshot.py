"""Issue 24, item 3: a file keeps a snapshot of the state after its last command, so the
app opens a long history at once; a replay, a step at a time between the app's frames,
checks the snapshot and wins if they differ (S1: the state is still the replay of the
commands)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from sombra_tui.engine import Combat, SombraError, i18n, storage
from sombra_tui.engine.journal import recover
from sombra_tui.session import Session
from tests import builders


@pytest.fixture(scope="module")
def long_combat() -> Combat:
    """The bench's scripted DJ on 12 characters: hits, wounds, conditions, reactions."""
    encounter = builders.build_encounter(12)
    commands = builders.build_history(encounter, 400)
    return Combat(encounter, commands[:380], redo=list(reversed(commands[380:])))


def edited(text: str, change: Any) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data)


def test_s1_a_file_keeps_the_state_after_its_last_command(long_combat: Combat) -> None:
    data = json.loads(storage.dumps(long_combat))
    assert data["snapshot"] == json.loads(long_combat.state.model_dump_json())


def test_s1_a_snapshot_loads_to_exactly_the_replayed_state_and_log(
        long_combat: Combat) -> None:
    combat = storage.loads(storage.dumps(long_combat), background=True)
    assert combat.state == long_combat.state  # at once: the snapshot
    combat.settle()
    assert not combat.checking and combat.check_problem is None
    assert combat.state == long_combat.state
    assert combat.log == long_combat.log
    assert combat.commands == long_combat.commands
    assert combat.redo_stack == long_combat.redo_stack
    assert combat.dice_drawn == long_combat.dice_drawn
    # And it goes on as the replayed one does: undo past the checkpoints, redo.
    for _ in range(3):
        combat.undo()
        long_copy = Combat(long_combat.encounter, combat.commands)
        assert combat.state == long_copy.state and combat.log == long_copy.log
    for _ in range(3):
        combat.redo()
    assert combat.state == long_combat.state and combat.log == long_combat.log


def test_s1_an_undo_before_the_check_is_done_finishes_it_first(long_combat: Combat) -> None:
    combat = storage.loads(storage.dumps(long_combat), background=True)
    assert not combat.check_step(10)  # partly checked
    assert combat.checking and combat.log == []  # the log is the replay's: not yet
    undone = combat.undo()
    assert not combat.checking
    assert undone == long_combat.commands[-1]
    shorter = Combat(long_combat.encounter, long_combat.commands[:-1])
    assert combat.state == shorter.state and combat.log == shorter.log


def test_s1_the_check_runs_a_step_at_a_time(long_combat: Combat) -> None:
    combat = storage.loads(storage.dumps(long_combat), background=True)
    steps = 1
    while not combat.check_step(50):
        steps += 1
        assert combat.checking and combat.log == []
    assert steps == -(-len(long_combat.commands) // 50)
    combat.settle()
    assert combat.log == long_combat.log and combat.check_problem is None


def test_s1_an_older_file_without_a_snapshot_replays_as_before(long_combat: Combat) -> None:
    text = edited(storage.dumps(long_combat), lambda data: data.pop("snapshot"))
    combat = storage.loads(text, background=True)
    assert not combat.checking
    assert combat.state == long_combat.state and combat.log == long_combat.log


def test_s1_without_background_the_history_is_replayed_and_wins(long_combat: Combat) -> None:
    """read_roster and the other readers: the replay, as always, whatever the snapshot."""
    text = edited(storage.dumps(long_combat),
                  lambda data: data["snapshot"].update(round=999))
    combat = storage.loads(text)
    assert not combat.checking and combat.state == long_combat.state


def test_s1_a_snapshot_with_a_bad_value_is_refused(tmp_path: Path,
                                                   long_combat: Combat) -> None:
    path = tmp_path / "malo.sombra.json"
    path.write_text(edited(storage.dumps(long_combat),
                           lambda data: data["snapshot"].update(round="tres")))
    with pytest.raises(SombraError, match="bad value") as info:
        storage.load(path, background=True)
    assert info.value.field == "snapshot.round"


def wrong_snapshot(long_combat: Combat) -> str:
    def change(data: dict[str, Any]) -> None:
        data["snapshot"]["round"] += 5
        data["snapshot"]["characters"][0]["primaria"] = 1

    return edited(storage.dumps(long_combat), change)


@pytest.mark.parametrize("language", ["en", "es"])
def test_s1_a_snapshot_that_disagrees_gives_way_to_the_replay(
        tmp_path: Path, long_combat: Combat, language: str) -> None:
    path = tmp_path / "editado.sombra.json"
    path.write_text(wrong_snapshot(long_combat))
    i18n.set_language(language)
    session = Session.open(path)
    assert session.combat.state.round == long_combat.state.round + 5  # shown at once
    problem = asyncio.run(session.checked())
    assert problem is not None
    if language == "en":
        assert "is not what its commands give" in problem
    else:
        assert "no es el que dan sus órdenes" in problem
    assert "snapshot" not in problem and "round" not in problem
    assert session.combat.state == long_combat.state
    assert session.combat.log == long_combat.log
    assert asyncio.run(session.checked()) is None  # said once


def test_s1_a_command_made_while_the_check_runs_is_kept(long_combat: Combat) -> None:
    """The DJ's command finishes the check first, then applies to the replayed state."""
    combat = storage.loads(wrong_snapshot(long_combat), background=True)
    assert not combat.check_step(100)  # the check is under way
    command = long_combat.redo_stack[-1]
    combat.execute(command)
    assert not combat.checking and combat.check_problem is not None
    expected = Combat(long_combat.encounter, [*long_combat.commands, command])
    assert combat.commands == expected.commands
    assert combat.state == expected.state and combat.log == expected.log


def test_s1_the_session_checks_between_the_loops_turns_and_keeps_a_command(
        tmp_path: Path, long_combat: Combat) -> None:
    """Session.checked lets the event loop in between steps: a command given then
    (as a key would) is kept, and the DJ is still told once."""
    path = tmp_path / "editado.sombra.json"
    path.write_text(wrong_snapshot(long_combat))
    session = Session.open(path)
    command = long_combat.redo_stack[-1]

    async def dj() -> None:
        await asyncio.sleep(0)  # the check has taken a step
        assert session.combat.checking
        session.execute(command)

    async def both() -> str | None:
        problem, _none = await asyncio.gather(session.checked(), dj())
        return problem

    problem = asyncio.run(both())
    assert problem is not None and "not what its commands give" in problem
    expected = Combat(long_combat.encounter, [*long_combat.commands, command])
    assert session.combat.state == expected.state and session.combat.log == expected.log


def test_s1_a_history_that_does_not_replay_is_cut_and_named(long_combat: Combat) -> None:
    """A snapshot never makes a history that does not replay acceptable: the combat is
    what the replay gives up to the failing command, and the DJ is told which."""
    def drop_start(data: dict[str, Any]) -> None:
        del data["commands"][0]

    combat = storage.loads(edited(storage.dumps(long_combat), drop_start), background=True)
    combat.settle()
    assert combat.check_problem is not None
    message = combat.check_problem.render()
    assert "does not replay" in message and "Command 1 of the history" in message
    assert combat.commands == [] and combat.redo_stack == []
    assert combat.state == Combat(long_combat.encounter).state


def test_s1_saving_while_checking_writes_the_checked_state(
        tmp_path: Path, long_combat: Combat) -> None:
    combat = storage.loads(wrong_snapshot(long_combat), background=True)
    path = tmp_path / "guardado.sombra.json"
    storage.save(combat, path)
    assert not combat.checking
    data = json.loads(path.read_text())
    assert data["snapshot"] == json.loads(long_combat.state.model_dump_json())


def test_s1_the_journal_of_an_opened_file_recovers_by_replaying(
        tmp_path: Path, long_combat: Combat) -> None:
    path = tmp_path / "abierto.sombra.json"
    path.write_text(wrong_snapshot(long_combat))
    session = Session.open(path)
    session.start_journal(tmp_path / "journal")  # before the check
    assert session.combat.checking
    session.execute(long_combat.redo_stack[-1])
    assert session.journal is not None
    recovered = recover(session.journal.path)
    assert recovered.combat.state == session.combat.state
    assert recovered.combat.log == session.combat.log


def test_s1_a_short_history_is_replayed_at_once_and_a_wrong_snapshot_still_said(
        long_combat: Combat) -> None:
    """Under BACKGROUND_FROM commands the replay costs less than a frame: done at once
    (the log from the first frame), and a snapshot that disagrees is still reported."""
    short = Combat(long_combat.encounter, long_combat.commands[:storage.BACKGROUND_FROM - 1])
    combat = storage.loads(storage.dumps(short), background=True)
    assert not combat.checking and combat.check_problem is None
    assert combat.state == short.state and combat.log == short.log
    wrong = storage.loads(wrong_snapshot(short), background=True)
    assert not wrong.checking and wrong.state == short.state
    assert wrong.check_problem is not None
    assert "not what its commands give" in wrong.check_problem.render()


def test_s1_every_state_reads_back_equal_from_its_snapshot() -> None:
    """No false alarm: after each command of the scripted DJ (hits waiting for their
    group, wounds, conditions, prompts included), the state written as a snapshot reads
    back, strictly, equal to itself, so a faithful file is never reported."""
    from sombra_tui.engine import machine
    from sombra_tui.engine.state import CombatState

    encounter = builders.build_encounter(6, seed=2)
    state = machine.initial_state(encounter)
    waited = 0
    for command in builders.build_history(encounter, 700, seed=2):
        machine.apply(state, command)
        waited += bool(state.deferred_hits)
        assert CombatState.model_validate_json(state.model_dump_json(), strict=True) == state
    assert waited  # the case a text kept as a message makes: really covered


def test_s1_a_cut_history_restarts_the_journal_so_recovery_gives_what_the_dj_sees(
        tmp_path: Path, long_combat: Combat) -> None:
    def drop_start(data: dict[str, Any]) -> None:
        del data["commands"][0]

    path = tmp_path / "roto.sombra.json"
    path.write_text(edited(storage.dumps(long_combat), drop_start))
    session = Session.open(path)
    session.start_journal(tmp_path / "journal")
    assert session.combat.checking and session.journal is not None
    first = session.journal.path
    session.execute(long_combat.commands[0])  # the check cuts the history, then this
    assert session.combat.commands == long_combat.commands[:1] and session.dirty
    assert session.journal is not None and session.journal.path != first
    assert not first.exists()
    recovered = recover(session.journal.path)
    assert recovered.combat.commands == session.combat.commands
    assert recovered.combat.state == session.combat.state and not recovered.clean
