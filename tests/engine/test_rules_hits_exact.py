"""H7, H11: the proposals' questions, word for word, in both languages, and when.

Written against the mutation lane's survivors (README, "Mutation testing").
"""

from __future__ import annotations

from sombra_tui.engine import Advance, EventKind, Phase, ProposalKind
from sombra_tui.engine.commands import ManualHit
from sombra_tui.engine.i18n import set_language
from sombra_tui.engine.rules.hits import proposal_question
from sombra_tui.engine.state import Proposal
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import advance_to, char, declare_all_inaction, started

DESARMADA = Proposal(id=1, kind=ProposalKind.PREVENT, character="Ana",
                     condition="desarmado", reason="dolor intenso")


def test_h11_the_question_names_the_condition_else_the_reason() -> None:
    """H11: "mark prevented?" names the condition that prevents; a proposal without one
    names its reason."""
    assert proposal_question(DESARMADA).english() == (
        "Ana is desarmado with a round action pending: mark Ana prevented?")
    by_reason = DESARMADA.model_copy(update={"condition": None, "reason": "aturdido"})
    assert proposal_question(by_reason).english() == (
        "Ana is aturdido with a round action pending: mark Ana prevented?")


def test_h11_the_question_agrees_with_a_feminine_character(spanish: str) -> None:
    """H11, in Spanish: the words agree with the character's gender."""
    assert str(proposal_question(DESARMADA, "femenino")) == (
        "Ana está desarmada con la acción de asalto pendiente: ¿marcar a Ana impedida?")
    assert str(proposal_question(DESARMADA)) == (
        "Ana está desarmado con la acción de asalto pendiente: ¿marcar a Ana impedido?")


def test_h7_the_proposal_is_made_in_the_asalto_under_way() -> None:
    """H7: reaching PV proposes muerto then inconsciente, in the asalto of the change."""
    combat = started(char("Ana", 8, resistencia=5, gender="femenino"), char("Bruno", 12))
    declare_all_inaction(combat)
    advance_to(combat, Phase.END_OF_ROUND)
    combat.execute(Advance())
    assert combat.state.round == 2
    events = combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=60))
    [proposal] = combat.state.proposals
    assert (proposal.kind, proposal.condition, proposal.round, proposal.then) == (
        ProposalKind.THRESHOLD, "muerto", 2, ("inconsciente",))
    [said] = [e for e in events if e.code == "threshold.proposed"]
    assert (said.kind, said.actor, said.rule, said.data, said.text) == (
        EventKind.PROPOSAL, "Ana", "H7", {"proposal": proposal.id, "condition": "muerto",
                                          "pv": 15},
        "Ana's W reaches PV 15: muerto? (the DJ confirms)")
    set_language("es")
    assert said.text == "La W de Ana llega a los PV 15: ¿muerta? (lo confirma el DJ)"
