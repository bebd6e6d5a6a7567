"""Crash journal: what was applied survives; a torn last line is ignored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sombra_tui.engine import (
    Action,
    Character,
    Combat,
    Declare,
    Dice,
    Encounter,
    React,
    StartCombat,
    storage,
)
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.journal import find_journals, recover, summarize
from sombra_tui.session import Session


def encounter() -> Encounter:
    return Encounter(name="Diario", characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12),
    ])


def play(session: Session) -> None:
    session.execute(StartCombat())
    session.execute(Declare(character="Ana", actions=[Action(description="aims")]))
    session.execute(Declare(character="Bruno", actions=[
        Action(description="shoots Ana", targets=["Ana"])]))


def test_journal_recovers_exactly_the_applied_commands(tmp_path: Path) -> None:
    session = Session.new(encounter())
    session.start_journal(tmp_path)
    play(session)
    session.undo()
    session.redo()
    session.execute(React(character="Ana", mode="substitute",
                          actions=[Action(description="dives")], dice=Dice.of(3, 4, 2)))
    [journal] = find_journals(tmp_path)
    recovered = recover(journal)
    assert recovered.combat.state == session.combat.state
    assert recovered.combat.commands == session.combat.commands
    assert recovered.combat.log == session.combat.log
    assert recovered.clean is False
    summary = summarize(journal)
    assert (summary.name, summary.round, summary.phase) == ("Diario", 1, "declaration")


def test_a_torn_last_line_is_ignored(tmp_path: Path) -> None:
    session = Session.new(encounter())
    session.start_journal(tmp_path)
    play(session)
    assert session.journal is not None
    text = session.journal.path.read_text(encoding="utf-8")
    session.journal.path.write_text(text + '{"op": "do", "comm', encoding="utf-8")
    recovered = recover(session.journal.path)
    assert recovered.combat.commands == session.combat.commands


def test_a_saved_journal_is_clean_and_keeps_the_path(tmp_path: Path) -> None:
    session = Session.new(encounter())
    session.start_journal(tmp_path / "journal")
    play(session)
    target = tmp_path / "combate.json"
    session.save(target)
    assert session.journal is not None
    recovered = recover(session.journal.path)
    assert recovered.clean is True
    assert recovered.saved_path == target
    restored = Session.recovered(recovered)
    assert restored.dirty is False and restored.path == target


def test_recovered_unsaved_session_is_dirty(tmp_path: Path) -> None:
    session = Session.new(encounter())
    session.start_journal(tmp_path)
    play(session)
    assert session.journal is not None
    assert Session.recovered(recover(session.journal.path)).dirty is True


def test_journal_that_is_not_a_journal_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "x.journal.jsonl"
    bad.write_text("hello\n", encoding="utf-8")
    with pytest.raises(SombraError, match="no valid header"):
        recover(bad)


def test_discard_removes_the_journal(tmp_path: Path) -> None:
    session = Session.new(encounter())
    session.start_journal(tmp_path)
    play(session)
    session.discard_journal()
    assert find_journals(tmp_path) == []


def test_unwritable_journal_folder_is_reported_not_fatal(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    session = Session(Combat(encounter()))
    session.start_journal(blocker / "journal")
    assert session.journal is None
    assert session.journal_problem is not None and "journal" in session.journal_problem
    play(session)  # the combat goes on
    assert session.combat.state.round == 1


def test_a_resumed_combat_that_was_never_saved_stays_unsaved(tmp_path: Path) -> None:
    """Issue 9: save, play on, crash; resume, crash again before any change: the second
    journal must still say the work was never saved (it was lost before)."""
    target = tmp_path / "combate.json"
    session = Session.new(encounter())
    session.start_journal(tmp_path / "journal")
    session.execute(StartCombat())
    session.save(target)
    session.execute(Declare(character="Ana", actions=[Action(description="aims")]))
    assert session.journal is not None
    first = recover(session.journal.path)
    assert first.clean is False
    resumed = Session.recovered(first)
    assert resumed.dirty and resumed.path == target
    resumed.start_journal(tmp_path / "journal")  # the resumed combat's own journal
    assert resumed.journal is not None
    second = recover(resumed.journal.path)  # killed before pressing anything
    assert second.clean is False
    assert second.saved_path == target
    assert second.combat.commands == session.combat.commands
    again = Session.recovered(second)
    assert again.dirty is True
    # Saved after the resume: now clean, and the file holds the declaration.
    again.start_journal(tmp_path / "journal")
    again.save()
    assert again.journal is not None
    assert recover(again.journal.path).clean is True
    assert storage.load(target).commands == session.combat.commands


def test_a_journal_of_nothing_is_clean(tmp_path: Path) -> None:
    """Issue 9: an untouched fresh encounter has nothing to resume; any command, undo or
    redo the DJ made does."""
    session = Session.new(encounter())
    session.start_journal(tmp_path)
    assert session.journal is not None
    assert recover(session.journal.path).clean is True
    assert summarize(session.journal.path).clean is True
    session.execute(StartCombat())
    assert recover(session.journal.path).clean is False
    session.undo()  # back to nothing, but the DJ did something: redo is there to resume
    assert recover(session.journal.path).clean is False


def test_an_opened_file_journal_is_clean_until_a_change(tmp_path: Path) -> None:
    target = tmp_path / "combate.json"
    combat = Combat(encounter())
    combat.execute(StartCombat())
    storage.save(combat, target)
    session = Session.open(target)
    session.start_journal(tmp_path / "journal")
    assert session.journal is not None
    assert recover(session.journal.path).clean is True
    session.execute(Declare(character="Ana", actions=[Action(description="aims")]))
    assert recover(session.journal.path).clean is False


def test_a_journal_header_without_the_unsaved_field_reads_as_before(tmp_path: Path) -> None:
    """Journals written before the header said whether the combat was saved: a combat
    with a file and no change is clean; one with history and no file is not."""
    session = Session.new(encounter())
    play(session)
    session.start_journal(tmp_path)
    assert session.journal is not None
    lines = session.journal.path.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    header.pop("unsaved", None)
    session.journal.path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert recover(session.journal.path).clean is False
    header["saved_path"] = str(tmp_path / "x.json")
    session.journal.path.write_text(json.dumps(header) + "\n", encoding="utf-8")
    assert recover(session.journal.path).clean is True


def test_t6_a_recovered_combat_does_not_roll_its_draws_again(tmp_path: Path) -> None:
    """T6: the journal keeps how many rolls were drawn: after a crash, the tracker's next
    roll is the one the combat would have rolled, never one it rolled before."""
    session = Session.new(encounter())
    session.start_journal(tmp_path)
    session.execute(StartCombat())
    session.combat.roll()  # shown in a dialog, then cancelled
    session.execute(Declare(character="Ana", actions=[Action(description="aims")]))
    [journal] = find_journals(tmp_path)
    recovered = recover(journal).combat
    assert recovered.dice_drawn == session.combat.dice_drawn == 1
    assert recovered.roll() == session.combat.roll()
