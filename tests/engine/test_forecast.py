"""What the coming asaltos hold (issue 37): the forecast says what the machine then does.

A hypothesis test builds a combat with wounds that bleed (H9), conditions with
durations (C3), some of which leave a character unable to act (C4), extended actions of
both kinds (E2, E3) and characters marked out (P5), at any phase; reads the forecast;
then plays the asaltos on with no command that changes them (inaction, the extended TAs
rolled, H7's proposals declined) and checks that what happened in each asalto is
exactly what was forecast (bleeding, conditions ending) and, for the extended TAs, that
each one forecast is made, in its asalto, and they are the owner's first ones: all the
certain ones for an owner able to act throughout (a simple action's next TA, a complex
one's TAs while it cannot be done yet before them), none for one who is out (P5).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import event, given, settings
from hypothesis import strategies as st

from sombra_tui.engine import (
    Advance,
    Combat,
    DeclineProposal,
    ExtendedStatus,
    Phase,
    Resolve,
    StepStatus,
)
from sombra_tui.engine.commands import AddCondition, ManualHit, Mark, SetMark
from sombra_tui.engine.conditions import Condition, ConditionEffects
from sombra_tui.engine.forecast import (
    DueKind,
    due_now,
    first_round_ahead,
    forecast,
    standing,
)
from sombra_tui.engine.model import Action, ActionKind, ExtendedMode, ExtendedSpec
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import char, declare, dice, started

NAMES = ("Ana", "Bruno", "Carla")


def combat_for(data: st.DataObject) -> Combat:
    combat = started(*(char(name, 8 + 2 * i, i, 12, resistencia=3, pv=200,
                            skills={"Forzar": 14}) for i, name in enumerate(NAMES)))
    for name in NAMES:
        for _ in range(data.draw(st.integers(0, 2))):
            combat.execute(ManualHit(character=name,
                                     location=data.draw(st.sampled_from(list(Location))),
                                     damage=data.draw(st.integers(3, 9)),
                                     lethal=data.draw(st.booleans())))
            while combat.state.proposals:
                combat.execute(DeclineProposal(proposal_id=combat.state.proposals[0].id))
        if data.draw(st.booleans()):
            combat.execute(AddCondition(character=name, condition=Condition(
                name="derribado", duration=data.draw(st.integers(1, 6)),
                effects=ConditionEffects(cannot_act=data.draw(st.booleans())))))
    for name in NAMES:
        if combat.state.current_declarer != name:
            continue
        if data.draw(st.booleans()):
            mode = data.draw(st.sampled_from(list(ExtendedMode)))
            spec = ExtendedSpec(mode=mode, duration=data.draw(st.integers(1, 4)),
                                successes=data.draw(st.integers(1, 3)),
                                interval=data.draw(st.integers(1, 3)))
            declare(combat, name, Action(kind=ActionKind.EXTENDED, description="fuerza",
                                         skill="Forzar", extended=spec))
        else:
            declare(combat, name)
    for _ in range(data.draw(st.integers(0, 6))):  # somewhere in a later phase
        play_one(combat, data)
    for name in data.draw(st.lists(st.sampled_from(NAMES), max_size=2, unique=True)):
        if name not in combat.state.out and not combat.state.proposals:
            combat.execute(SetMark(character=name, mark=Mark.OUT))  # P5
    return combat


def play_one(combat: Combat, data: st.DataObject | None = None) -> None:
    """One command that changes nothing forecast: inaction, an extended TA rolled, H7's
    proposal declined, or on to the next phase."""
    state = combat.state
    if state.proposals:
        combat.execute(DeclineProposal(proposal_id=state.proposals[0].id))
    elif state.phase is Phase.DECLARATION and state.current_declarer is not None:
        declare(combat, state.current_declarer)
    elif pending := [s for s in state.current_group() if s.status is StepStatus.PENDING]:
        roll = (dice(1, 2, 3) if data is None or data.draw(st.booleans())
                else dice(10, 9, 8))
        combat.execute(Resolve(character=pending[0].character, dice=roll))
    else:
        combat.execute(Advance())


def happened(combat: Combat, since: int) -> Counter[tuple[int, DueKind, str]]:
    """What the log says the rules did from event `since` on, by asalto."""
    found: Counter[tuple[int, DueKind, str]] = Counter()
    for logged in combat.log[since:]:
        if logged.code == "wound.bled":
            found[(logged.round, DueKind.BLEEDS, logged.actor or "")] += 1
        elif logged.code == "condition.expired":
            found[(logged.round, DueKind.CONDITION_ENDS, logged.actor or "")] += 1
    return found


def extended_tas(combat: Combat) -> dict[int, tuple[int, str]]:
    """The extended TAs made in this phase so far, by step: (asalto, owner). A step
    skipped (its owner out, P5, or unable, C4) made none."""
    return {step.id: (combat.state.round, step.character) for step in combat.state.steps
            if step.extended_id is not None and step.result is not None}


def able_throughout(combat: Combat, name: str, rounds: range) -> bool:
    """Whether `name` is not out and no condition leaves it unable to act in `rounds`
    (its extended action then counts every one of them: P5, C4)."""
    if name in combat.state.out:
        return False
    return not any(condition.active_in(round_) and (condition.effects.cannot_act
                                                    or condition.effects.out)
                   for condition in combat.state.body(name).conditions for round_ in rounds)


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_h9_c3_e2_e3_p5_the_forecast_is_what_happens(data: st.DataObject) -> None:
    combat = combat_for(data)
    ahead = 8  # a grave wound of asalto 1 bleeds at the end of asalto 6 (H9)
    first = first_round_ahead(combat.state)
    window = range(first, first + ahead)
    expected = forecast(combat.state, ahead)
    assert all(due.round in window for due in expected)
    # The table's mark (issue 37 item 4): whoever the first asalto ahead holds something for.
    assert due_now(combat.state) == {due.character for due in expected
                                     if due.round == first and due.character is not None}
    # E2: a simple action's next TA is certain; E3: a complex one's, while it cannot be
    # done before them (read now: the state changes as the combat goes on).
    owners = {progress.owner: 1 if progress.mode is ExtendedMode.SIMPLE
              else progress.successes_needed - progress.successes
              for progress in combat.state.extended
              if progress.status is ExtendedStatus.ACTIVE}
    if combat.state.phase is Phase.DECLARATION:  # declared: they start once all have (E1)
        for name in combat.state.declaration_order:
            declaration = combat.state.declaration_of(name)
            for action in declaration.actions if declaration else ():
                if action.extended is not None:
                    owners[name] = (1 if action.extended.mode is ExtendedMode.SIMPLE
                                    else action.extended.successes)
    able = {name for name in owners if able_throughout(combat, name, window)}
    made_before = set(extended_tas(combat))  # rolled before the forecast was read
    since = len(combat.log)
    tas: dict[int, tuple[int, str]] = {}
    while combat.state.round < first + ahead:
        if combat.state.phase is Phase.EXTENDED:
            tas |= extended_tas(combat)
        play_one(combat, data)
    seen = happened(combat, since)
    seen = Counter({key: n for key, n in seen.items() if key[0] in window})
    told = Counter((due.round, due.kind, due.character) for due in expected
                   if due.kind not in (DueKind.EXTENDED_TA, DueKind.NOTE))
    assert told == seen  # H9, C3: every point bled and condition ended, and no other
    made = sorted(ta for step, ta in tas.items() if step not in made_before)
    for name in {*owners, *(due.character for due in expected
                            if due.kind is DueKind.EXTENDED_TA)}:
        rounds = [round_ for round_, owner in made if owner == name and round_ in window]
        forecast_rounds = [due.round for due in expected
                           if due.kind is DueKind.EXTENDED_TA and due.character == name]
        # E2, E3: each TA forecast is made, in its asalto, and they are the first ones.
        assert forecast_rounds == rounds[:len(forecast_rounds)], (name, rounds)
        if name in able:  # all the certain ones are forecast for an owner able to act
            assert len(forecast_rounds) == min(len(rounds), owners[name]), (name, rounds)
        if name in combat.state.out:  # P5: out throughout, it made none
            assert rounds == [] and forecast_rounds == []
    for kind in {due.kind for due in expected}:
        event(f"forecast holds {kind.value}")
    if combat.state.out:
        event("someone out (P5)")


def test_h9_the_worked_example_bleeds_at_the_end_of_round_18() -> None:
    """RULES.md's worked example: Bruno's leve wound taken in round 2 bleeds at the end of
    round 18 (the 16th round counted); the forecast from round 14 on says so."""
    combat = started(char("Bruno", 12, 5, 12, resistencia=7), char("Carla", 15, 2, 13))
    while combat.state.round < 2:
        play_one(combat)
    combat.execute(ManualHit(character="Bruno", location=Location.BRAZO_DERECHO, damage=11))
    assert not [due for due in forecast(combat.state) if due.kind is DueKind.BLEEDS]
    while combat.state.round < 14:
        play_one(combat)
    bleeds = [due for due in forecast(combat.state) if due.kind is DueKind.BLEEDS]
    assert [(due.round, due.character) for due in bleeds] == [(18, "Bruno")]
    assert "Bruno" in bleeds[0].what.render()


def test_c3_aturdido_of_the_worked_example_ends_at_the_end_of_round_6() -> None:
    """Ana, clubbed on the head in round 4 (leve): aturdido for rounds 5 and 6 (C3)."""
    combat = started(char("Ana", 8, 3, 14, resistencia=6), char("Carla", 15, 2, 13))
    while combat.state.round < 4:
        play_one(combat)
    combat.execute(ManualHit(character="Ana", location=Location.CABEZA, damage=7,
                             lethal=False))
    while combat.state.proposals:
        combat.execute(DeclineProposal(proposal_id=combat.state.proposals[0].id))
    ends = [due for due in forecast(combat.state) if due.kind is DueKind.CONDITION_ENDS]
    assert [(due.round, due.character) for due in ends] == [(6, "Ana")]
    assert "aturdido" in ends[0].what.render()


def test_p5_e3_an_out_owner_has_no_extended_ta_forecast_and_is_standing() -> None:
    from sombra_tui.engine.commands import Mark, SetMark

    combat = started(char("Ana", 8, 3, 14, skills={"Forzar": 14}), char("Carla", 15, 2, 13))
    declare(combat, "Ana", Action(kind=ActionKind.EXTENDED, description="fuerza",
                                  skill="Forzar", extended=ExtendedSpec(
                                      mode=ExtendedMode.COMPLEX, successes=3, interval=2)))
    declare(combat, "Carla")
    rolls = [due for due in forecast(combat.state) if due.kind is DueKind.EXTENDED_TA]
    assert [(due.round, due.character) for due in rolls] == [(2, "Ana"), (4, "Ana")]
    assert "3 successes to go" in rolls[0].what.render()
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    assert not [due for due in forecast(combat.state) if due.kind is DueKind.EXTENDED_TA]
    assert [name for name, _ in standing(combat.state)] == ["Ana"]


def test_h9_c3_an_asalto_begins_saying_what_it_holds() -> None:
    """The log of the worked examples: round 6 begins with Ana's aturdido ending in it
    (C3); round 18 with Bruno's bleeding point due at its end (H9)."""
    combat = started(char("Ana", 8, 3, 14, resistencia=6), char("Bruno", 12, 5, 12,
                                                                 resistencia=7))
    while combat.state.round < 2:
        play_one(combat)
    combat.execute(ManualHit(character="Bruno", location=Location.BRAZO_DERECHO, damage=11))
    while combat.state.round < 4:
        play_one(combat)
    combat.execute(ManualHit(character="Ana", location=Location.CABEZA, damage=7,
                             lethal=False))
    while combat.state.proposals:
        combat.execute(DeclineProposal(proposal_id=combat.state.proposals[0].id))
    while combat.state.round < 19:
        play_one(combat)
    said = [(event.round, event.text) for event in combat.log
            if event.code == "forecast.due"]
    assert said == [(6, "This asalto: aturdido ends for Ana."),
                    (18, "This asalto: Bruno bleeds 1 point (right arm).")]
    # S2: each line is about its character, with what is due as data.
    assert [(event.actor, event.data) for event in combat.log
            if event.code == "forecast.due"] == [("Ana", {"kind": "condition_ends"}),
                                                 ("Bruno", {"kind": "bleeds"})]


def test_h9_c3_e3_the_row_marks_who_has_something_due_this_asalto() -> None:
    """Issue 37 item 4: the row reading (the DJ's table) marks whoever the forecast has
    something for in the first asalto ahead: Ana's aturdido ending (C3), Bruno's
    bleeding point (H9), Carla's extended TA (E3, P5), the DJ's note about someone; and
    nobody else. Once the asalto is over, the mark moves to the next one's."""
    from sombra_tui.engine import ask
    from sombra_tui.engine.commands import AddNote

    combat = started(char("Ana", 8, 3, 14, resistencia=6), char("Bruno", 12, 5, 12,
                                                                 resistencia=7),
                     char("Carla", 15, 2, 13, skills={"Forzar": 14}),
                     char("Dani", 10, 1, 12))
    combat.execute(AddCondition(character="Ana", condition=Condition(
        name="derribado", duration=1)))  # begun in asalto 1: ends at the end of asalto 2
    while combat.state.round < 2:
        play_one(combat)
    combat.execute(ManualHit(character="Bruno", location=Location.PECHO, damage=14))
    while combat.state.proposals:
        combat.execute(DeclineProposal(proposal_id=combat.state.proposals[0].id))
    declare(combat, "Ana")
    declare(combat, "Dani")
    declare(combat, "Bruno")
    declare(combat, "Carla", Action(kind=ActionKind.EXTENDED, description="fuerza",
                                    skill="Forzar", extended=ExtendedSpec(
                                        mode=ExtendedMode.COMPLEX, successes=2,
                                        interval=1)))

    def marked() -> set[str]:
        return {row.name for row in ask.rows(combat.state) if row.due}
    assert marked() == {"Ana", "Carla"}  # Bruno's grave wound bleeds in asalto 7
    combat.execute(AddNote(round=2, text="se cae la estantería", character="Dani"))
    assert marked() == {"Ana", "Carla", "Dani"}
    assert ask.row(combat.state, "Dani").due and not ask.row(combat.state, "Bruno").due
    while combat.state.round < 7:
        play_one(combat)
    assert "Bruno" in marked() and "Ana" not in marked() and "Dani" not in marked()
    while combat.state.phase is not Phase.END_OF_ROUND:
        play_one(combat)
    assert "Bruno" not in marked()  # bled at the end of asalto 7; next at 12's (H9)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_h9_e2_e3_the_forecasts_records_are_the_validated_ones(data: st.DataObject) -> None:
    """Issue 41 item 6: the bleed ticks (H9) and the declared extended actions (E2, E3)
    that the forecast (and the end of an asalto) makes are built from checked values
    without validating them again, so a file's first screen builds no validator for
    them; validating gives equal records, with the same fields given."""
    from sombra_tui.engine import frozen
    from sombra_tui.engine.forecast import _declared
    from sombra_tui.engine.wounds import bleed_at_end_of_round

    state = combat_for(data).state
    rounds = range(state.round, state.round + 8)

    def made() -> list[Any]:
        ticks = [bleed_at_end_of_round(wound, round_) for body in state.bodies.values()
                 for wound in body.wounds for round_ in rounds]
        return [*ticks, *_declared(state)]

    quick = made()
    frozen.VALIDATE_TRUSTED = True  # `trusted` validates now
    try:
        validated = made()
    finally:
        frozen.VALIDATE_TRUSTED = False
    assert quick == validated
    assert [record.model_fields_set for record in quick] == \
        [record.model_fields_set for record in validated]
    assert [type(record) for record in quick] == [type(record) for record in validated]
    event(f"{len(quick)} records")
