"""Issue 35, item 3, by keys: a dodge declared as a reacción to an attack is rolled
once, with the attack, when the attacker acts (O2, O3, O5, D5, D8), in both languages
and at 80x24."""

from __future__ import annotations

import pytest

from sombra_tui.engine import ask
from sombra_tui.engine import commands as c
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.i18n import _, set_language
from sombra_tui.engine.model import (
    Action,
    Encounter,
    Opposition,
    OppositionMode,
    Reading,
    Role,
    Side,
)
from sombra_tui.engine.state import StepStatus
from sombra_tui.engine.wounds import Weapon
from sombra_tui.screens.dialogs import OpposedDialog, OpposedResultDialog, ReactionDialog
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    char,
    fill,
    focus,
    make_app,
    on_main_screen,
    session_after,
    toggle,
    type_text,
)

PISTOLA = Weapon(name="pistola", damage_type="II")


def encounter() -> Encounter:
    """Ana (a PC: the table rolls her dice, 8/3, Alerta 14) and Matón (12/5), armed."""
    return Encounter(name="Callejón", seed=3, characters=[
        char("Ana", 8, 3, 14, side=Side.PC, weapons=[PISTOLA]),
        char("Matón", 12, 5, 12, weapons=[PISTOLA])])


def shot() -> Action:
    """Matón shoots Ana, the attack declared as conditioning her (O3, attack vs dodge)."""
    return Action(description="dispara a Ana", target=15, targets=["Ana"], weapon=PISTOLA,
                  opposition=Opposition(mode=OppositionMode.CONDITIONED, against=["Ana"],
                                        role=Role.CONDITIONING, reading=Reading.ATTACK))


@pytest.mark.parametrize(("language", "size", "combine"), [
    ("en", SIZE, False), ("es", MIN_SIZE, True), ("en", MIN_SIZE, False)])
async def test_a_reacting_dodge_is_rolled_once_with_the_attack(
        language: str, size: tuple[int, int], combine: bool) -> None:
    """O3/D5 (issue 35 item 3): Ana reacts to Matón's shot with "esquiva" (substituted or
    combined). At Matón's turn the opposed dialog takes Ana's value from her dodge (it
    said "needed", and Enter refused it); both roll once; her dodge is then done and is
    not asked again as her own TA."""
    set_language(language)
    app = make_app(session_after(
        encounter(), c.StartCombat(),
        c.Declare(character="Ana", actions=[Action(description="apunta a la puerta",
                                                   target=12)]),
        c.Declare(character="Matón", actions=[shot()])), journal=False)
    async with app.run_test(size=size) as pilot:
        combat = app.session.combat
        await pilot.press("r")  # Ana's reacción prompt
        assert isinstance(app.screen, ReactionDialog)
        if combine:
            await pilot.press("ctrl+t")
        await focus(pilot, "a0-description")
        await type_text(pilot, "esquiva")
        await fill(pilot, "a0-target", "14")
        await toggle(pilot, "a0-targets", ["Matón"])
        await fill(pilot, "dice", "1 1 2")
        await pilot.press("enter")
        assert on_main_screen(app)
        await pilot.press("x")  # Matón declines the contrarreacción
        await pilot.press("space", "space")  # to the instant actions, then the round's
        await pilot.press("y")
        assert isinstance(app.screen, OpposedDialog)
        dialog = app.screen
        ana = dialog.slugs["Ana"]
        assert list(dialog.slugs) == ["Matón", "Ana"]
        target = dialog.query_one(f"#{ana}-target")
        assert target.placeholder == _("from their action") != _("needed")
        await fill(pilot, f"{dialog.slugs['Matón']}-dice", "9 9 8")  # 26 > 15: fails
        await fill(pilot, f"{ana}-dice", "1 1 2")  # 4 - 5 (GD -1) <= 14: avoids it
        await pilot.press("enter")
        assert isinstance(app.screen, OpposedResultDialog)
        await pilot.press("enter")
        assert on_main_screen(app)
        command = combat.commands[-1]
        assert isinstance(command, c.ResolveOpposed)
        assert [(roll.character, roll.target) for roll in command.rolls] == [
            ("Matón", 15), ("Ana", None)]
        assert [e.actor for e in combat.log if e.kind is EventKind.TA] == ["Matón", "Ana"]
        dodge = next(s for s in combat.state.steps if s.character == "Ana"
                     and combat.state.step_action(s).description == "esquiva")
        assert dodge.status is StepStatus.DONE
        left = [combat.state.step_action(s).description
                for s in combat.state.pending_steps()]
        assert left == (["apunta a la puerta"] if combine else [])
        assert combat.state.proposals == []  # avoiding is no hit (H1)
        assert ask.next_step(combat.state).kind is (
            ask.NextKind.RESOLVE if combine else ask.NextKind.NEXT_PHASE)
