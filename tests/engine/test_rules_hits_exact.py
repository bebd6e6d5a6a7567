"""H11: the prevented question, word for word, in both languages.

Written against the mutation lane's survivors (README, "Mutation testing").
"""

from __future__ import annotations

from sombra_tui.engine import ProposalKind
from sombra_tui.engine.rules.hits import proposal_question
from sombra_tui.engine.state import Proposal

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
