"""Issue 35 items 2 and 8, the dice fields by keys (T6): the opposed dialog opens on
the first value the table must type (the PC's dice when the table rolls the PCs), each
dice field says whose dice it takes and who rolls them, and a typed 0 reads as 10 with
the reading shown beside the field, in every dice field; any other value outside 1..10
is refused naming the die."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input

from sombra_tui.engine import commands as c
from sombra_tui.engine import i18n
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.i18n import _
from sombra_tui.engine.model import (
    Action,
    Encounter,
    Opposition,
    OppositionMode,
    Reading,
    Role,
    Side,
)
from sombra_tui.screens.dialogs import (
    FreeTADialog,
    OpposedDialog,
    OpposedResultDialog,
    ReactionDialog,
    TADialog,
)
from sombra_tui.screens.dialogs.fields import Field
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    char,
    field_error,
    fill,
    make_app,
    send_keys,
    session_after,
    type_text,
)
from tests.app.harness import Harness, reaction_dialog, ta_dialog

BOTH_SIZES = pytest.mark.parametrize("size", [SIZE, MIN_SIZE])


@pytest.fixture
def language(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    chosen = str(request.param)
    monkeypatch.setenv("LANGUAGE", chosen)
    i18n.set_language(chosen)
    return chosen


def encounter() -> Encounter:
    """Ana (PC, primaria 8) and Matón (NPC, 10): by default the table rolls Ana's dice
    and the tracker Matón's."""
    return Encounter(name="Callejón", seed=2, characters=[
        char("Ana", 8, 3, 14, side=Side.PC, skills={"Esquivar": 12}),
        char("Matón", 10, 2, 10, side=Side.NPC, skills={"Pelea": 13})])


def attack_against_dodge() -> list[c.Command]:
    """Ana dodges Matón's punch (O3: the attack conditions the dodge); Matón acts
    first, and the opposed dialog lists him first."""
    def reading(description: str, target: int, against: str, role: Role) -> Action:
        return Action(description=description, target=target, targets=[against],
                      opposition=Opposition(mode=OppositionMode.CONDITIONED,
                                            against=[against], role=role,
                                            reading=Reading.ATTACK))
    return [c.StartCombat(),
            c.Declare(character="Ana", actions=[reading("esquiva", 12, "Matón",
                                                        Role.CONDITIONED)]),
            c.Declare(character="Matón", actions=[reading("le pega a Ana", 13, "Ana",
                                                          Role.CONDITIONING)]),
            c.Decline(character="Ana"), c.Advance(), c.Advance()]


def label_of(app: Any, field_id: str) -> str:
    return app.screen.query_one(f"#field-{field_id}", Field).label


def hint_of(app: Any, field_id: str) -> str:
    return app.screen.query_one(f"#field-{field_id}", Field).hint


@BOTH_SIZES
@pytest.mark.parametrize("language", ["en", "es"], indirect=True)
async def test_t6_the_players_dice_typed_at_once_land_in_the_pcs_field(
        language: str, size: tuple[int, int]) -> None:
    """Item 2: the opposed dialog opened on Matón's dice although the table rolls Ana's:
    the player's dice landed in the NPC's field. It opens on Ana's, each field saying
    whose dice it takes and who rolls them; Matón's, left empty, the tracker rolls."""
    app = make_app(session_after(encounter(), *attack_against_dodge()), journal=False,
                   language=language)
    async with app.run_test(size=size) as pilot:
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, OpposedDialog)
        assert app.screen.participants == ["Matón", "Ana"]
        assert label_of(app, "p1_Ana-dice") == _(
            "{name}'s dice, dS first (the table rolls)").format(name="Ana")
        assert label_of(app, "p0_Mat_n-dice") == _(
            "{name}'s dice, dS first (the tracker rolls)").format(name="Matón")
        await send_keys(pilot, *"1 2 1")  # the player's dice, straight away
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, OpposedResultDialog)
        command = app.session.combat.commands[-1]
        assert isinstance(command, c.ResolveOpposed)
        rolls = {roll.character: roll.dice for roll in command.rolls}
        assert rolls["Ana"] == Dice(ds=1, a=2, b=1)
        assert rolls["Matón"] != Dice(ds=1, a=2, b=1)  # rolled by the tracker


@pytest.mark.parametrize("language", ["en", "es"], indirect=True)
async def test_t6_a_typed_0_reads_as_10_in_the_opposed_dialog(language: str) -> None:
    """Item 8: "0 4 0" typed for Ana reads dS 10 + 4 + 10, said beside the field, and
    resolves so; a value beyond 10 is refused naming the die."""
    app = make_app(session_after(encounter(), *attack_against_dodge()), journal=False,
                   language=language)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, OpposedDialog)
        await send_keys(pilot, *"0 4 0")
        read = Dice(ds=10, a=4, b=10)
        assert _("0 reads as 10: {dice}").format(dice=read) in hint_of(app, "p1_Ana-dice")
        await fill(pilot, "p0_Mat_n-dice", "3 11 2")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, OpposedDialog)  # refused, nothing lost
        assert _("second die") in field_error(app, "p0_Mat_n-dice")
        assert "11" in field_error(app, "p0_Mat_n-dice")
        assert app.screen.query_one("#p1_Ana-dice", Input).value == "0 4 0"
        await fill(pilot, "p0_Mat_n-dice", "3 0 2")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, OpposedResultDialog)
        command = app.session.combat.commands[-1]
        assert isinstance(command, c.ResolveOpposed)
        assert {r.character: r.dice for r in command.rolls} == {
            "Ana": read, "Matón": Dice(ds=3, a=10, b=2)}


@BOTH_SIZES
@pytest.mark.parametrize("language", ["en", "es"], indirect=True)
async def test_t6_a_typed_0_reads_as_10_in_the_ta_dialog(language: str,
                                                          size: tuple[int, int]) -> None:
    """Item 8: Ana's TA with "0 2 3" typed: the field names Ana and the table, shows the
    reading and resolves with a dS of 10 (it was refused: "not 0")."""
    run = Action(description="corre", skill="Esquivar")
    app = Harness(session_after(encounter(), c.StartCombat(),
                                c.Declare(character="Ana", actions=[run]),
                                c.Declare(character="Matón"), c.Advance(), c.Advance()),
                  dialog=ta_dialog, language=language)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TADialog)
        assert label_of(app, "dice") == _(
            "{name}'s dice, dS first (the table rolls)").format(name="Ana")
        await send_keys(pilot, *"0 2 3")
        assert _("0 reads as 10: {dice}").format(dice=Dice(ds=10, a=2, b=3)) in hint_of(
            app, "dice")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.base
        command = app.session.combat.commands[-1]
        assert isinstance(command, c.Resolve) and command.dice == Dice(ds=10, a=2, b=3)


@pytest.mark.parametrize("language", ["en", "es"], indirect=True)
async def test_t6_the_alerta_dice_say_whose_and_read_0_as_10(language: str) -> None:
    """Items 2 and 8 in the reaction's Alerta dice: whose dice, who rolls, 0 = 10."""
    punch = Action(description="le pega a Ana", skill="Pelea", targets=["Ana"])
    app = Harness(session_after(encounter(), c.StartCombat(),
                                c.Declare(character="Ana"),
                                c.Declare(character="Matón", actions=[punch])),
                  dialog=reaction_dialog, language=language)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReactionDialog)
        assert label_of(app, "dice") == _(
            "{name}'s Alerta dice, dS first (the table rolls)").format(name="Ana")
        assert app.focused is not None and app.focused.id == "dice"
        await type_text(pilot, "5 0 1")
        assert _("0 reads as 10: {dice}").format(dice=Dice(ds=5, a=10, b=1)) in hint_of(
            app, "dice")


@pytest.mark.parametrize("language", ["en", "es"], indirect=True)
async def test_t6_the_free_ta_dice_say_whose_and_read_0_as_10(language: str) -> None:
    """Items 2 and 8 in the DJ's free TA, for an NPC: the tracker rolls, 0 = 10."""
    app = Harness(session_after(encounter(), c.StartCombat()),
                  dialog=lambda h: FreeTADialog(h.state, "Matón", h.check, h.roll),
                  language=language)  # the DJ's f on Matón's row
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, FreeTADialog)
        assert label_of(app, "dice") == _(
            "{name}'s dice, dS first (the tracker rolls)").format(name="Matón")
        await fill(pilot, "dice", "10 0 0")
        assert _("0 reads as 10: {dice}").format(dice=Dice(ds=10, a=10, b=10)) in hint_of(
            app, "dice")
