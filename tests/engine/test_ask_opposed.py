"""T5/O4 through ask: an opposed outcome read from its events, the DJ's decision on it as
a command run in place of the last one (Combat/Session.replace_last), and the value a
sentinel's confirming TA rolls under."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sombra_tui.engine import (
    Combat,
    EventKind,
    LogEvent,
    Mark,
    Phase,
    Reading,
    ResolveOpposed,
    Role,
    SetMark,
    SombraError,
    ask,
)
from sombra_tui.engine.rules.opposition import Comparison
from sombra_tui.session import Session
from tests.engine.conftest import (
    ANA,
    BRUNO,
    CARLA,
    advance_to,
    declare,
    dice,
    events_of,
    started,
)
from tests.engine.test_rules_opposed import (
    carla_attacks_bruno,
    decline_if_prompted,
    roll,
    stealth,
    three_grab,
)

#: O2: Carla 9 (margin 6), Bruno 14 (margin 1: the best by T5), Ana 4 (éxito bajo).
GRAB_ROLLS = [roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(7, 4, 3)),
              roll("Ana", dice(1, 1, 2))]


def grabbed() -> tuple[Combat, ResolveOpposed, list[LogEvent]]:
    combat = three_grab()
    command = ResolveOpposed(character="Carla", rolls=GRAB_ROLLS)
    return combat, command, combat.execute(command)


def alarm_for_two_guards() -> tuple[Combat, ResolveOpposed, list[LogEvent]]:
    """O3 with several: Carla's alarm conditions Ana and Bruno; the DJ gave Ana her pair."""
    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", stealth(["Carla"], Role.CONDITIONED))
    declare(combat, "Bruno", stealth(["Carla"], Role.CONDITIONED, target=12))
    declare(combat, "Carla", stealth(["Ana", "Bruno"], Role.CONDITIONING))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    command = ResolveOpposed(character="Carla", winners=["Ana"], rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Ana", dice(1, 1, 2)),
        roll("Bruno", dice(5, 5, 4))])
    return combat, command, combat.execute(command)


# --------------------------------------------------------------------------- the outcome


def test_t5_o2_outcome_names_the_comparison_its_winner_and_the_losers() -> None:
    _, _, events = grabbed()
    outcome = ask.opposed_outcome(events)
    [comparison] = outcome.comparisons
    assert comparison.winner == "Bruno"
    assert sorted(comparison.members) == ["Ana", "Bruno", "Carla"]
    assert comparison.members[0] == "Carla"  # the initiator, as the event's actor
    assert set(outcome.losers) == {"Ana", "Carla"}
    assert outcome.confirm == ()


def test_o3_outcome_has_one_comparison_per_pair_and_each_loser_once() -> None:
    _, _, events = alarm_for_two_guards()
    outcome = ask.opposed_outcome(events)
    assert outcome.comparisons == (Comparison(("Carla", "Ana"), "Ana"),
                                   Comparison(("Carla", "Bruno"), "Carla"))
    assert outcome.losers == ("Carla", "Bruno")


def test_o4_outcome_lists_the_sentinel_to_confirm_and_its_target() -> None:
    """O4: a sentinel who won with both TAs failing gets a new TA to confirm, against the
    value it rolled under (Bruno's 14)."""
    combat = carla_attacks_bruno(Reading.STEALTH)
    events = combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(9, 6, 8)), roll("Bruno", dice(7, 7, 6))]))
    assert ask.opposed_outcome(events).confirm == ("Bruno",)
    assert ask.confirm_target(events, "Bruno") == 14
    assert ask.confirm_target(events, "Ana") is None  # rolled no TA there


def test_outcome_of_events_with_no_comparison_is_empty() -> None:
    assert ask.opposed_outcome([]) == ask.opposed_outcome(
        [e for e in grabbed()[2] if e.kind is not EventKind.OPPOSED])
    assert ask.opposed_outcome([]).comparisons == ()


# --------------------------------------------------------------------------- the decision


def test_t5_dj_decision_on_a_clear_outcome_replaces_the_command_and_logs_both() -> None:
    """T5: the DJ may decide any opposed outcome; the log keeps what T5 gave."""
    combat, command, events = grabbed()
    decided = ask.decide_opposed(command, events, "Ana")
    assert decided.winners == ["Ana"]
    assert decided.rolls == command.rolls  # the same dice
    before = len(combat.commands)
    new_events = combat.replace_last(decided)
    assert len(combat.commands) == before and combat.commands[-1] == decided
    [event] = events_of(new_events, EventKind.OPPOSED)
    assert event.winner == "Ana" and event.override
    assert "Bruno would win" in event.text  # what T5 gave, beside the decision
    assert combat.redo_stack == []


def test_t5_dj_decision_keeps_earlier_decisions_on_other_comparisons() -> None:
    """O3 with several pairs: giving Bruno his pair keeps Ana's; giving Carla both pairs
    drops Ana's (they were compared)."""
    combat, command, events = alarm_for_two_guards()
    assert ask.decide_opposed(command, events, "Bruno").winners == ["Bruno", "Ana"]
    assert ask.decide_opposed(command, events, "Carla").winners == ["Carla"]
    new_events = combat.replace_last(ask.decide_opposed(command, events, "Bruno"))
    assert [e.winner for e in events_of(new_events, EventKind.OPPOSED)] == ["Ana", "Bruno"]


def test_t5_dj_decision_can_be_decided_again() -> None:
    combat, command, events = grabbed()
    first = ask.decide_opposed(command, events, "Ana")
    events = combat.replace_last(first)
    second = ask.decide_opposed(first, events, "Carla")
    assert second.winners == ["Carla"]
    combat.replace_last(second)
    [event] = events_of(combat.log, EventKind.OPPOSED)
    assert event.winner == "Carla"


# --------------------------------------------------------------------------- replace_last


def test_replace_last_refused_leaves_history_redo_stack_and_state_as_they_were() -> None:
    combat, command, events = grabbed()
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    combat.undo()  # a redo stack to keep
    state, commands, redo, log = (combat.state.model_copy(deep=True), combat.commands,
                                  combat.redo_stack, combat.log)
    refused = ask.decide_opposed(command, events, "Dani")  # Dani does not roll
    with pytest.raises(SombraError, match="Dani"):
        combat.replace_last(refused)
    assert (combat.state, combat.commands, combat.redo_stack, combat.log) == (
        state, commands, redo, log)


def test_replace_last_with_nothing_to_undo_is_refused() -> None:
    combat = Combat(three_grab().encounter)
    with pytest.raises(SombraError) as info:
        combat.replace_last(ResolveOpposed(character="Carla", rolls=GRAB_ROLLS))
    assert info.value.code == "history.nothing_to_undo"


def journal_ops(session: Session) -> list[str]:
    assert session.journal is not None
    lines = session.journal.path.read_text(encoding="utf-8").splitlines()[1:]  # no header
    return [json.loads(line)["op"] for line in lines]


@pytest.mark.parametrize("who", ["Ana", "Dani"])  # accepted, refused
def test_session_replace_last_journals_what_undo_execute_redo_would(tmp_path: Path,
                                                                    who: str) -> None:
    """S1: the journal of a replaced command replays to the same history."""
    from sombra_tui.engine.journal import recover

    sessions = []
    for folder in ("replace", "by_hand"):
        combat, command, _ = grabbed()
        session = Session(combat)
        session.start_journal(tmp_path / folder)
        decided = ask.decide_opposed(command, combat.log, who)
        if folder == "replace":
            try:
                session.replace_last(decided)
            except SombraError:
                assert who == "Dani"
        else:
            session.undo()
            try:
                session.execute(decided)
            except SombraError:
                session.redo()
        sessions.append(session)
    replaced, by_hand = sessions
    assert journal_ops(replaced) == journal_ops(by_hand)
    assert journal_ops(replaced) == (["undo", "do"] if who == "Ana" else ["undo", "redo"])
    assert replaced.combat.commands == by_hand.combat.commands
    assert replaced.combat.redo_stack == by_hand.combat.redo_stack
    assert replaced.journal is not None
    recovered = recover(replaced.journal.path)
    assert recovered.combat.commands == replaced.combat.commands
    assert recovered.combat.state == replaced.combat.state
