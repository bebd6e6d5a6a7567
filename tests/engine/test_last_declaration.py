"""The declaration the form repeats (issue 39 item 2, ask.last_declaration): each
character's last own declaration with actions (D1), not a reacción that replaced it (D4,
D8) and not inaction; kept across an asalto in which it declared nothing."""

from __future__ import annotations

from sombra_tui.engine import Mark, ReactionMode, SetMark, ask
from sombra_tui.engine.state import Phase
from tests.engine.conftest import (
    ANA,
    BRUNO,
    CARLA,
    act,
    advance_to,
    declare,
    decline,
    dice,
    react,
    started,
)


def next_asalto(combat) -> None:  # type: ignore[no-untyped-def]
    """Everyone's round action prevented (P4), so the asalto ends without rolls."""
    for name in ("Ana", "Bruno", "Carla"):
        if name not in combat.state.prevented:
            combat.execute(SetMark(character=name, mark=Mark.PREVENTED))
    round_ = combat.state.round
    while combat.state.round == round_:
        advance_to(combat, Phase.END_OF_ROUND)
        advance_to(combat, Phase.DECLARATION)


def test_d1_d8_the_last_own_declaration_not_the_reaccion_nor_inaction() -> None:
    combat = started(ANA, BRUNO, CARLA)
    watch = act("vigila la puerta")
    declare(combat, "Ana", watch)
    declare(combat, "Bruno", act("dispara a Ana", "Ana"))
    react(combat, "Ana", ReactionMode.SUBSTITUTE, act("se tira al suelo"), roll=dice(1, 2, 3))
    own = next(d for d in combat.state.declarations.values() if d.author == "Ana"
               and d.answers is None)
    assert combat.state.current["Ana"] != own.id  # the reacción replaced it (D8)
    decline(combat, "Bruno")  # no contrarreacción (D9)
    declare(combat, "Carla")  # inaction
    assert ask.last_declaration(combat.state, "Ana") is None  # no earlier asalto yet
    next_asalto(combat)
    assert combat.state.round == 2
    assert ask.last_declaration(combat.state, "Ana").actions == [watch]  # type: ignore[union-attr]
    assert ask.last_declaration(combat.state, "Bruno").actions == [  # type: ignore[union-attr]
        act("dispara a Ana", "Ana")]
    assert ask.last_declaration(combat.state, "Carla") is None
    for name in ("Ana", "Bruno", "Carla"):
        declare(combat, name)  # inaction, all
    next_asalto(combat)
    assert combat.state.round == 3
    assert ask.last_declaration(combat.state, "Ana").actions == [watch]  # type: ignore[union-attr]
