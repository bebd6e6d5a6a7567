"""D6, D7, D9, D11, D12, T4: the reacción's Alerta TA as the machine and the dialogs' previews
read it (alerta_roll), whose prompt it is, and a locked author offered no counter-reacción,
exactly.

Written against the mutation lane's survivors in rules/declaration.py (README, "The
mutation lane").
"""

from __future__ import annotations

import pytest

from sombra_tui.engine import Combat, Decline, EventKind, React, SombraError
from sombra_tui.engine.commands import AddCondition, AllowPrompt
from sombra_tui.engine.conditions import Condition, ConditionEffects
from sombra_tui.engine.rules.declaration import alerta_roll
from tests.engine.conftest import SUB, act, assert_refused, char, declare, dice, started


def prompted(**settings: object) -> Combat:
    """Ana (Alerta 10) declares; Bruno's attack on her opens her reacción prompt."""
    combat = started(char("Ana", 8), char("Bruno", 12), **settings)
    declare(combat, "Ana", act("waits", target=10))
    declare(combat, "Bruno", act("hits", "Ana", target=10))
    assert combat.state.top_prompt is not None
    return combat


def substitute(**fields: object) -> React:
    return React(character="Ana", mode=SUB, actions=[act("ducks", target=10)], **fields)


@pytest.mark.parametrize("quality", [True, False])
def test_d6_t4_the_alerta_ta_follows_the_quality_setting(quality: bool) -> None:
    """D6, T4: Ana substitutes (D9: GD +1): 1+1+2 = 4 + 5 = 9 under Alerta 10, a
    success; its quality is read only with niveles de calidad on."""
    combat = prompted(niveles_de_calidad=quality)
    result, gd, target = alerta_roll(combat.state, substitute(dice=dice(1, 1, 2)))
    assert result is not None
    assert (target, gd.total, result.total, result.success) == (10, 1, 9, True)
    assert (result.quality is not None) is quality


def test_d12_a_reaccion_accepted_without_a_roll_keeps_its_grade() -> None:
    """D12: the DJ accepts Ana's substitution without a roll: the TA is unrolled, at
    the reacción's GD (+1, D9) under her Alerta."""
    combat = prompted()
    result, gd, target = alerta_roll(combat.state, substitute(accept_without_roll=True))
    assert result is not None
    assert (result.unrolled, result.gd, result.target, gd.total, target) == (
        True, 1, 10, 1, 10)


def test_d6_the_preview_of_a_reaccion_with_no_prompt_open_says_why() -> None:
    """D6: read before any prompt is open, the Alerta TA of a reacción is refused,
    saying that Ana cannot react now."""
    combat = started(char("Ana", 8), char("Bruno", 12))
    with pytest.raises(SombraError) as info:
        alerta_roll(combat.state, substitute(dice=dice(1, 1, 2)))
    assert (info.value.code, str(info.value)) == (
        "prompt.none_open", "No reacción prompt is open; Ana cannot react now.")


def test_d11_a_prompt_is_answered_by_its_reactor_only() -> None:
    """D11: prompts are answered one at a time: Bruno answering Ana's open prompt is
    refused, naming both."""
    combat = prompted()
    error = assert_refused(combat, Decline(character="Bruno"))
    assert (error.code, error.params, str(error)) == (
        "prompt.not_yours", {"reactor": "Ana", "name": "Bruno"},
        "The open prompt is Ana's, not Bruno's (prompts are answered one at a time).")


def test_d7_d11_a_locked_author_is_offered_no_counter_reaccion() -> None:
    """D7, D11, D12: Tomás's reacción to Eva fails (locked); the DJ lets him react again
    and he substitutes, aimed at Bruno; Bruno's reacción answers him, but Tomás, locked,
    is offered no counter-reacción: skipped, saying why."""
    combat = started(char("Bruno", 4), char("Tomás", 5), char("Eva", 6))
    declare(combat, "Bruno", act("waits", target=10))
    declare(combat, "Tomás", act("hits", "Bruno", target=10))
    combat.execute(Decline(character="Bruno"))
    declare(combat, "Eva", act("hits", "Tomás", target=10))
    combat.execute(React(character="Tomás", mode=SUB, actions=[act("ducks", "Bruno",
                                                                  target=10)],
                         dice=dice(10, 9, 9)))
    assert combat.state.locked == ["Tomás"]
    combat.execute(AllowPrompt(character="Tomás", against="Eva"))
    combat.execute(React(character="Tomás", mode=SUB, actions=[act("ducks", "Bruno",
                                                                  target=10)],
                         dice=dice(1, 1, 2)))
    combat.execute(Decline(character="Eva"))
    events = combat.execute(React(character="Bruno", mode=SUB,
                                  actions=[act("runs", "Tomás", target=10)],
                                  dice=dice(1, 1, 2)))
    assert [(e.actor, e.rule, e.text) for e in events if e.kind is EventKind.SKIPPED] == [
        ("Tomás", "D11", "Tomás's prompt skipped: locked.")]
    assert combat.state.prompts == []


def test_d11_c4_an_author_kept_from_counter_reacting_by_two_conditions_names_both() -> None:
    """D11, C4: Bruno attacks Ana and her reacción prompt opens; the DJ then gives Bruno
    two conditions of his own naming, each of which stops him reacting. Ana's
    substitution answers Bruno, who is offered no counter-reacción: the skip names both
    conditions, in the order they began, joined by a comma."""
    combat = prompted()
    for name in ("atado", "cegado"):
        combat.execute(AddCondition(character="Bruno", condition=Condition(
            name=name, effects=ConditionEffects(cannot_react=True))))
    events = combat.execute(substitute(dice=dice(1, 1, 2)))
    assert [(e.actor, e.rule, e.text) for e in events if e.kind is EventKind.SKIPPED] == [
        ("Bruno", "D11", "Bruno's prompt skipped: atado, cegado.")]
    assert combat.state.prompts == []
