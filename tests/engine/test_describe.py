"""ask.describe (issue 35, D2): any command in the DJ's words, as a form's summary line
shows it before Enter sends it: the weapon and targets (H1), whose dice (T6) and the
TA's whole GD (T2, D6, H10), in both languages."""

from __future__ import annotations

import pytest

from sombra_tui.engine import TO_ROLL, ask, i18n
from sombra_tui.engine import commands as c
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import (
    Action,
    Character,
    Encounter,
    Opposition,
    OppositionMode,
    Side,
)
from sombra_tui.engine.wounds import Weapon

PISTOLA = Weapon(name="pistola", damage_type="II", skill="Armas cortas")


def encounter() -> Encounter:
    return Encounter(name="E", seed=1, characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14, side=Side.PC,
                  skills={"Armas cortas": 12, "Esquivar": 12}, weapons=[PISTOLA]),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12,
                  skills={"Pelea": 13})])


def shot(gd: int = 1) -> c.Declare:
    return c.Declare(character="Ana", actions=[Action(
        description="dispara a Bruno", skill="Armas cortas", targets=["Bruno"],
        weapon=PISTOLA, gd=gd)])


def in_both(state: object, command: c.Command) -> tuple[str, str]:
    """The description rendered in English, then in Spanish."""
    message = ask.describe(state, command)  # type: ignore[arg-type]
    i18n.set_language("en")
    english = message.render()
    i18n.set_language("es")
    spanish = message.render()
    i18n.set_language("en")
    return english, spanish


def test_h1_a_declared_attack_names_its_weapon_skill_gd_and_target() -> None:
    """H1: the summary of an attack names the weapon it is declared with and whom it is
    aimed at; the action's GD is there too."""
    combat = Combat(encounter(), [c.StartCombat()])
    english, spanish = in_both(combat.state, shot())
    assert english == ("Ana declares “dispara a Bruno” (Armas cortas, with pistola, GD +1) "
                       "against Bruno")
    assert spanish == ("Ana declara «dispara a Bruno» (Armas cortas, con pistola, GD +1) "
                       "contra Bruno")


def test_h1_an_action_without_weapon_names_none_and_gd_0_is_not_said() -> None:
    """H1: a run with a target but no weapon is no attack: no weapon is named."""
    combat = Combat(encounter(), [c.StartCombat()])
    run = c.Declare(character="Ana", actions=[Action(
        description="corre hacia la puerta", skill="Esquivar", targets=["Bruno"])])
    english, _spanish = in_both(combat.state, run)
    assert english == "Ana declares “corre hacia la puerta” (Esquivar) against Bruno"
    assert "with" not in english and "GD" not in english


def test_d1_inaction_and_an_opposed_action() -> None:
    combat = Combat(encounter(), [c.StartCombat()])
    assert in_both(combat.state, c.Declare(character="Ana"))[1] == "Ana declara inacción"
    opposed = c.Declare(character="Ana", actions=[Action(
        description="forcejea", target=10,
        opposition=Opposition(mode=OppositionMode.DIRECT, against=["Bruno"]))])
    english, _spanish = in_both(combat.state, opposed)
    assert english == "Ana declares “forcejea” (under 10, opposed (direct) with Bruno)"


def round_of_ana_and_bruno() -> Combat:
    return Combat(encounter(), [
        c.StartCombat(), c.Declare(character="Ana", actions=[Action(
            description="apunta", skill="Armas cortas", gd=1)]),
        c.Declare(character="Bruno", actions=[Action(description="golpea", skill="Pelea")]),
        c.Advance(), c.Advance()])


def test_t6_a_resolution_says_whose_dice_and_the_whole_gd() -> None:
    """T6/T2: the table's dice are said to be the table's; the tracker's, still to roll
    when Enter sends them, are said to be rolled then; the GD is the TA's whole GD."""
    combat = round_of_ana_and_bruno()
    state = combat.state
    assert [s.character for s in state.current_group()] == ["Bruno"]
    english, spanish = in_both(state, c.Resolve(character="Bruno", dice=TO_ROLL))
    assert english == "Resolve Bruno's TA: dice to be rolled by the tracker, GD 0"
    assert spanish == "Resolver la TA de Bruno: dados: los tira el programa, GD 0"
    combat.execute(c.Resolve(character="Bruno", dice=Dice.of(5, 5, 5)))
    english, spanish = in_both(combat.state, c.Resolve(character="Ana",
                                                       dice=Dice.of(3, 4, 2), target=11))
    assert english == "Resolve Ana's TA: dice 3·4·2 (the table) under 11, GD +1"
    assert spanish == "Resolver la TA de Ana: dados 3·4·2 (la mesa) bajo 11, GD +1"


def test_d6_a_reaction_names_the_prompt_its_action_and_the_alerta_gd() -> None:
    """D6/D9: the reacción's answer names whom it answers, its own action, the Alerta
    dice and GD (+1 for substituting a declared action); a contrarreacción says so."""
    combat = Combat(encounter(), [
        c.StartCombat(), c.Declare(character="Ana", actions=[Action(
            description="vigila", skill="Esquivar")]),
        c.Declare(character="Bruno", actions=[Action(
            description="golpea a Ana", skill="Pelea", targets=["Ana"])])])
    react = c.React(character="Ana", mode=c.ReactionMode.SUBSTITUTE, actions=[Action(
        description="se agacha", targets=["Bruno"])], dice=Dice.of(3, 4, 2))
    gd = ask.ta_preview(combat.state, react).gd.total
    assert gd == 1
    english, spanish = in_both(combat.state, react)
    assert english == ("Ana reacts to Bruno (substitute): “se agacha” against Bruno; "
                       "Alerta dice 3·4·2 (the table), GD +1")
    assert spanish == ("Ana reacciona a Bruno (sustituye): «se agacha» contra Bruno; "
                       "Alerta dados 3·4·2 (la mesa), GD +1")
    combat.execute(react)
    counter = c.React(character="Bruno", mode=c.ReactionMode.SUBSTITUTE, actions=[Action(
        description="empuja", targets=["Ana"])], dice=TO_ROLL)
    english, spanish = in_both(combat.state, counter)
    assert english.startswith("Bruno's contrarreacción to Ana (substitute): “empuja”")
    assert spanish.startswith("Contrarreacción de Bruno a Ana (sustituye): «empuja»")
    assert english.endswith("Alerta dice to be rolled by the tracker, GD "
                            f"{ask.ta_preview(combat.state, counter).gd.total:+d}"
                            .replace("+0", "0"))


def test_o2_an_opposed_resolution_names_each_one_s_dice() -> None:
    """O2/T6: each participant's dice under their own name: the player's dice are Ana's."""
    combat = round_of_ana_and_bruno()
    command = c.ResolveOpposed(character="Bruno", rolls=[
        c.OpposedRoll(character="Bruno", dice=TO_ROLL),
        c.OpposedRoll(character="Ana", dice=Dice.of(3, 4, 2), target=12, gd=1)])
    english, spanish = in_both(combat.state, command)
    assert english == ("Resolve Bruno's opposed TA: Bruno dice to be rolled by the tracker; "
                       "Ana dice 3·4·2 (the table) under 12, GD +1")
    assert spanish == ("Resolver la TA enfrentada de Bruno: Bruno dados: los tira el "
                       "programa; Ana dados 3·4·2 (la mesa) bajo 12, GD +1")


@pytest.mark.parametrize("command", [
    c.FreeTA(character="Ana", skill="Esquivar", dice=Dice.of(1, 2, 3), gd=-1),
    c.SetMark(character="Ana", mark=c.Mark.OUT),
    c.AddCharacters(character=Character(name="Matón", primaria=9, secundaria=2, alerta=10),
                    count=3),
])
def test_every_command_has_words_with_its_character(command: c.Command) -> None:
    combat = Combat(encounter(), [c.StartCombat()])
    english, spanish = in_both(combat.state, command)
    name = getattr(command, "character", None)
    name = name if isinstance(name, str) else "Matón"
    assert name in english and name in spanish and english[:1].isupper()
