"""The session's hook for the players' view (issue 23): a snapshot after every command,
undo and redo, numbered with an increasing sequence, for the page's event stream and a
second terminal."""

from __future__ import annotations

from pathlib import Path

import pytest

from sombra_tui.engine import (
    Declare,
    Encounter,
    HideCharacter,
    PlayersSnapshot,
    PlayerViewSettings,
    RevealCharacter,
    Settings,
    Side,
    SombraError,
    StartCombat,
    i18n,
)
from sombra_tui.engine.journal import recover
from sombra_tui.session import Session
from tests.engine.conftest import act, char


def session() -> Session:
    return Session.new(Encounter(characters=[
        char("Ana", 8, 3, 14, side=Side.PC), char("Bruno", 12, 5, 12)]))


def test_listeners_get_a_snapshot_after_every_command_undo_and_redo() -> None:
    s = session()
    got: list[PlayersSnapshot] = []
    stop = s.add_players_listener(got.append)
    s.execute(HideCharacter(character="Bruno"))
    s.undo()
    s.redo()
    s.execute(StartCombat())
    assert [snapshot.sequence for snapshot in got] == [1, 2, 3, 4]
    assert ["Bruno" in snapshot.model_dump_json() for snapshot in got] \
        == [False, True, False, False]
    stop()
    s.execute(RevealCharacter(character="Bruno"))
    assert len(got) == 4
    assert s.players_snapshot().sequence == 5


def test_a_refused_command_sends_nothing() -> None:
    s = session()
    got: list[PlayersSnapshot] = []
    s.add_players_listener(got.append)
    with pytest.raises(SombraError):
        s.execute(RevealCharacter(character="Bruno"))  # not hidden
    assert got == [] and s.players_snapshot().sequence == 0


def test_replace_last_moves_the_sequence_on() -> None:
    s = session()
    s.execute(HideCharacter(character="Bruno"))
    before = s.players_snapshot().sequence
    s.replace_last(HideCharacter(character="Bruno", until_acts=True))
    assert s.players_snapshot().sequence > before


def test_a_failing_listener_never_stops_the_combat() -> None:
    s = session()
    got: list[PlayersSnapshot] = []

    def broken(snapshot: PlayersSnapshot) -> None:
        raise RuntimeError("the page went away")

    s.add_players_listener(broken)
    s.add_players_listener(got.append)
    s.execute(StartCombat())
    assert s.combat.state.round == 1
    assert s.players_problem == "the page went away"
    assert len(got) == 1


def test_the_snapshot_is_kept_until_something_changes() -> None:
    s = session()
    first = s.players_snapshot()
    assert s.players_snapshot() is first
    i18n.set_language("es")
    spanish = s.players_snapshot()
    assert spanish is not first and spanish.language == "es"
    assert spanish.now == "El combate no ha empezado."


def test_a_recovered_journal_keeps_who_is_hidden(tmp_path: Path) -> None:
    s = session()
    s.start_journal(tmp_path)
    s.execute(HideCharacter(character="Bruno"))
    assert s.journal is not None
    recovered = Session.recovered(recover(s.journal.path))
    assert "Bruno" not in recovered.players_snapshot().model_dump_json()


def test_watchers_are_told_without_a_snapshot_being_built() -> None:
    """The page's server is told of each change and reads the snapshot later, once the
    DJ's screen is drawn: nothing is built for it on the DJ's path."""
    s = session()
    told: list[int] = []
    stop = s.add_players_watcher(lambda: told.append(s.combat.revision))
    s.execute(StartCombat())
    s.undo()
    s.redo()
    assert told == [1, 2, 3]
    assert s._players_cache is None  # nobody asked for it yet
    assert s.players_snapshot().sequence == 3
    stop()
    s.execute(HideCharacter(character="Bruno"))
    assert told == [1, 2, 3]


def test_a_failing_watcher_never_stops_the_combat() -> None:
    s = session()

    def broken() -> None:
        raise RuntimeError("the server went away")

    s.add_players_watcher(broken)
    s.execute(StartCombat())
    assert s.combat.state.round == 1 and s.players_problem == "the server went away"


def prompted_session() -> Session:
    """Ana (a PC, Alerta 14) asked whether she reacts to Bruno's shot; her own odds shown
    to the players (issue 37 item 3)."""
    s = Session.new(Encounter(settings=Settings(players=PlayerViewSettings(
        reaction_odds=True)), characters=[char("Ana", 8, 3, 14, side=Side.PC),
                                          char("Bruno", 12, 5, 12)]))
    s.execute(StartCombat())
    s.execute(Declare(character="Ana", actions=[act("aims at the door")]))
    s.execute(Declare(character="Bruno", actions=[act("shoots Ana", "Ana")]))
    return s


def test_d6_the_players_odds_follow_the_grades_typed_for_the_open_prompt() -> None:
    """D6, D9: the grades typed in the DJ's reacción dialog reach the players at once
    (the same sequence: the same state, a newer reading), while that prompt is open;
    closed, the players read the state's grades again."""
    s = prompted_session()
    prompt = s.combat.state.top_prompt
    assert prompt is not None
    told: list[PlayersSnapshot] = []
    s.add_players_listener(told.append)
    at_zero = "Ana: 35 % combining · 8 % substituting"
    assert s.players_snapshot().prompt_odds == at_zero
    s.grades_typed(prompt, (1, 0))
    assert [t.prompt_odds for t in told] == ["Ana: 8 % combining · <1 % substituting"]
    assert told[-1].sequence == s.combat.revision
    assert s.players_snapshot() == told[-1]
    s.grades_typed(prompt, (1, 0))  # nothing new: nobody told again
    assert len(told) == 1
    s.grades_typed(prompt, None)  # "-" typed: no figure, as the DJ's line shows none
    assert s.players_snapshot().prompt_odds is None
    s.grades_typed(prompt, (0, -2))
    assert s.players_snapshot().prompt_odds == "Ana: 94 % combining · 72 % substituting"
    s.grades_typed(None)  # the dialog closed without sending
    assert s.players_snapshot().prompt_odds == at_zero
    assert len(told) == 4


def test_d6_grades_typed_for_another_prompt_are_not_read() -> None:
    """Grades typed for a prompt no longer open (a late message) never move the
    players' figures of the prompt open now."""
    s = prompted_session()
    prompt = s.combat.state.top_prompt
    assert prompt is not None
    s.grades_typed(prompt.model_copy(update={"id": prompt.id + 100}), (1, 0))
    assert s.players_snapshot().prompt_odds == "Ana: 35 % combining · 8 % substituting"
