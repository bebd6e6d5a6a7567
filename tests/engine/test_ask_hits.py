"""engine/ask.py, hits and conditions (issue 20, plan step B2): the questions the hit
dialog and the sheet ask, answered by the rules' own code (H6, H7, H9, H11, C3)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from sombra_tui.engine import ask
from sombra_tui.engine.commands import (
    AcceptHit,
    AddCondition,
    DeclineProposal,
    ManualHit,
    Resolve,
    SetCounters,
)
from sombra_tui.engine.conditions import Condition, ConditionError, builtin
from sombra_tui.engine.history import Combat
from sombra_tui.engine.i18n import Msg
from sombra_tui.engine.rules.hits import hit_preview, proposal_question, pv_of
from sombra_tui.engine.state import ProposalKind
from sombra_tui.engine.wounds import (
    Counters,
    Location,
    Severity,
    Wound,
    with_bleed_rate,
)
from tests.engine.conftest import char, dice, started
from tests.engine.test_ask import shooters

THRESHOLD_QUESTION = "{name}'s {which} has reached PV: mark {name} {condition} (out)?"
PREVENT_QUESTION = "{name} is {condition} with a round action pending: mark {name} prevented?"


def pair() -> Combat:
    return started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12, resistencia=7))


# ---- H7 / H11: the proposal's question --------------------------------------------------


def test_h7_muerto_names_w_and_inconsciente_names_g() -> None:
    """H7: one lethal change bringing G and W to PV proposes muerto (W reached PV), then,
    declined, inconsciente (G): the wording follows what the engine decided."""
    combat = pair()
    combat.execute(ManualHit(character="Bruno", location=Location.PECHO, damage=60))
    [muerto] = combat.state.proposals
    assert (muerto.kind, muerto.condition) == (ProposalKind.THRESHOLD, "muerto")
    question = ask.proposal_question(muerto)
    assert question == Msg(THRESHOLD_QUESTION, name="Bruno", which="W", condition="muerto")
    assert question.english() == "Bruno's W has reached PV: mark Bruno muerto (out)?"
    combat.execute(DeclineProposal(proposal_id=muerto.id))
    [inconsciente] = combat.state.proposals
    assert inconsciente.condition == "inconsciente"
    assert ask.proposal_question(inconsciente).english() == (
        "Bruno's G has reached PV: mark Bruno inconsciente (out)?")


def test_h7_a_non_lethal_change_to_pv_asks_inconsciente_naming_g() -> None:
    combat = pair()
    combat.execute(SetCounters(character="Bruno", g=pv_of(combat.state, "Bruno"), w=0))
    [proposal] = combat.state.proposals
    assert proposal_question(proposal).english() == (
        "Bruno's G has reached PV: mark Bruno inconsciente (out)?")


def test_h11_the_prevent_question_names_the_condition() -> None:
    combat = shooters()
    combat.execute(AddCondition(character="Ana", condition=builtin("desarmado", began=0)))
    [proposal] = combat.state.proposals
    assert proposal.kind is ProposalKind.PREVENT
    assert ask.proposal_question(proposal) == Msg(PREVENT_QUESTION, name="Ana",
                                                  condition="desarmado")


def test_the_questions_keep_their_spanish(spanish: str) -> None:
    combat = pair()
    combat.execute(ManualHit(character="Bruno", location=Location.PECHO, damage=60))
    [muerto] = combat.state.proposals
    text = str(ask.proposal_question(muerto))
    assert "Bruno" in text and "W" in text and text != ask.proposal_question(muerto).english()


# ---- H6: the hit dialog's points ---------------------------------------------------------


def test_h6_hit_preview_as_read_is_what_accepting_it_does() -> None:
    combat = shooters()
    combat.execute(Resolve(character="Carla", dice=dice(5, 4, 3)))
    [proposal] = combat.state.proposals
    assert proposal.reading is not None and proposal.reading.assessment is not None
    preview = ask.hit_preview(combat.state, proposal)
    assert preview is not None
    assert preview.before == Counters() and preview.pv == pv_of(combat.state, "Bruno")
    damage = proposal.reading.assessment.damage
    assert preview.after == (Counters(g=damage, w=damage) if proposal.reading.lethal
                             else Counters(g=damage))
    combat.execute(AcceptHit(proposal_id=proposal.id))
    assert combat.state.body("Bruno").counters == preview.after


def test_h6_h12_hit_preview_with_the_djs_values_is_what_accepting_them_does() -> None:
    combat = shooters()
    combat.execute(Resolve(character="Carla", dice=dice(5, 4, 3)))
    [proposal] = combat.state.proposals
    edits = AcceptHit(proposal_id=proposal.id, damage=3, lethal=False)
    preview = ask.hit_preview(combat.state, proposal, edits)
    assert preview is not None and preview.after == Counters(g=3, w=0)
    combat.execute(edits)
    assert combat.state.body("Bruno").counters == preview.after


def test_h4_h5_h9_hit_preview_gives_the_wounds_with_the_djs_values() -> None:
    """The hit dialog shows the severity and consequences of the values being edited
    (issue 22): the preview's wounds are the ones accepting them makes."""
    combat = shooters()
    combat.execute(Resolve(character="Carla", dice=dice(5, 4, 3)))
    [proposal] = combat.state.proposals
    assert proposal.reading is not None
    as_read = ask.hit_preview(combat.state, proposal)
    assert as_read is not None and as_read.assessments == (proposal.reading.assessment,)
    edits = AcceptHit(proposal_id=proposal.id, damage=15)
    preview = ask.hit_preview(combat.state, proposal, edits)
    assert preview is not None
    [wound] = preview.assessments
    assert wound.damage_in == 15
    assert wound.severity != proposal.reading.assessment.severity  # type: ignore[union-attr]
    combat.execute(edits)
    [made] = combat.state.body("Bruno").wounds
    assert (made.severity, made.damage) == (wound.severity, wound.damage)


def test_hit_preview_is_none_without_damage_read() -> None:
    """No dice (the DJ decided the TA): the dialog shows no points line."""
    combat = shooters()
    combat.execute(Resolve(character="Carla", accept=True))
    [proposal] = combat.state.proposals
    assert proposal.reading is None
    assert hit_preview(combat.state, proposal) is None


# ---- H9: the bleed rate the sheet edits ----------------------------------------------------


def wound(rate: int | None, counted: int) -> Wound:
    return Wound(id=1, location=Location.PECHO, damage=8, lethal=True, severity=Severity.LEVE,
                 round=1, bleed_rate=rate, bleed_counted=counted)


def test_h9_with_bleed_rate_keeps_the_count_below_the_new_rate() -> None:
    assert with_bleed_rate(wound(16, 7), 5).bleed_counted == 4  # clamped to rate - 1
    assert with_bleed_rate(wound(16, 3), 5).bleed_counted == 3  # kept
    assert ask.wound_with_bleed_rate(wound(16, 7), 1).bleed_counted == 0
    stopped = ask.wound_with_bleed_rate(wound(16, 7), None)
    assert (stopped.bleed_rate, stopped.bleed_counted) == (None, 0)
    started_again = with_bleed_rate(wound(None, 0), 16)
    assert (started_again.bleed_rate, started_again.bleed_counted) == (16, 0)
    assert with_bleed_rate(wound(16, 7), 5).model_dump(exclude={"bleed_rate", "bleed_counted"}) \
        == wound(16, 7).model_dump(exclude={"bleed_rate", "bleed_counted"})


def test_h9_with_bleed_rate_checks_the_rate_as_a_wound_does() -> None:
    low, high = ask.bounds(Wound, "bleed_rate")
    with pytest.raises(ValidationError):
        with_bleed_rate(wound(16, 0), high + 1)
    with pytest.raises(ValidationError):
        with_bleed_rate(wound(16, 0), low - 1)


# ---- C3: asaltos left, and back ------------------------------------------------------------


@pytest.mark.parametrize("began", [0, 3])
@pytest.mark.parametrize("duration", [1, 2, 5])
def test_c3_duration_for_left_reverses_rounds_left(began: int, duration: int) -> None:
    """C3: "n asaltos" begun in round r covers r+1..r+n; the rounds left read from any
    round before it begins, inside it, or the round after it ends give n back."""
    condition = Condition(name="derribado", began=began, duration=duration)
    last = began + duration
    rounds = [*range(0, began + 1), *range(began + 1, last + 1), last + 1]
    for round_ in rounds:
        left = condition.rounds_left(round_)
        assert left is not None
        assert condition.duration_for_left(round_, left) == duration, (round_, left)
        assert ask.condition_duration(condition, round_, left) == duration
        assert ask.condition_left(condition, round_) == left


def test_c3_asaltos_left_counts_from_the_round_in_force() -> None:
    """Begun in round 3, at round 6 with 2 asaltos left: it covers 4..7, so 4 asaltos."""
    condition = Condition(name="derribado", began=3, duration=1)
    assert condition.duration_for_left(6, 2) == 4
    assert condition.duration_for_left(1, 2) == 2  # not begun: counts from round 4


def test_c3_less_than_one_asalto_is_refused_with_a_catalog_message() -> None:
    condition = Condition(name="derribado", began=3, duration=2)
    for round_, left in ((3, 0), (4, 0), (1, 0), (4, -1)):
        with pytest.raises(ConditionError) as info:
            ask.condition_duration(condition, round_, left)
        assert info.value.code == "condition.too_short" and info.value.field == "left"
        assert info.value.template == ("At least 1 asalto: remove the condition to end it "
                                       "now.")


def test_the_reads_change_no_state() -> None:
    combat = shooters()
    combat.execute(Resolve(character="Carla", dice=dice(5, 4, 3)))
    before = combat.state.model_copy(deep=True)
    [proposal] = combat.state.proposals
    ask.hit_preview(combat.state, proposal)
    ask.hit_preview(combat.state, proposal, AcceptHit(proposal_id=proposal.id, damage=9))
    assert combat.state == before
