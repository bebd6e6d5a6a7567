"""Issue 22, the dialogs of an attack as the DJ plays them by keyboard: the condition
dialog's focus order and its keys that cannot go where they were typed, Enter and space
from any field (lists open with their own key), the reacción's text right after its
dice, Rechazar from the reason field and the DJ's outcome without a target value."""

from __future__ import annotations

from typing import Any

import pytest
from textual import events
from textual.widgets import Input, Select

from sombra_tui import keys
from sombra_tui.engine import commands as c
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.i18n import _
from sombra_tui.engine.model import Action, Encounter, Settings, Side
from sombra_tui.engine.wounds import Weapon
from sombra_tui.screens.dialogs import DeclarationEditor, ReactionDialog, TADialog
from sombra_tui.screens.dialogs.condition import ConditionDialog
from sombra_tui.screens.dialogs.sheet import CharacterSheet
from sombra_tui.screens.dialogs.ta import DJ_SUCCESS
from tests.app.conftest import (
    SIZE,
    char,
    choose,
    field_error,
    focus,
    make_app,
    send_keys,
    session_after,
    type_text,
    worked_example_encounter,
)


def iker_is_prompted() -> Any:
    """Iker (a PC: the table rolls his dice) is prompted to react to Bruno's punch."""
    iker = char("Iker", 10, 6, 12, side=Side.PC, skills={"Esquivar": 11})
    bruno = char("Bruno", 12, 5, 12, skills={"Pelea": 12})
    encounter = Encounter(name="Mesa", seed=3, settings=Settings(), characters=[iker, bruno])
    punch = Action(description="pega a Iker", skill="Pelea", targets=["Iker"])
    return session_after(encounter, c.StartCombat(), c.Declare(character="Iker", actions=[]),
                         c.Declare(character="Bruno", actions=[punch]))


async def test_a_pcs_reaccion_text_is_one_tab_after_its_dice() -> None:
    app = make_app(iker_is_prompted(), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        assert app.session.combat.state.top_prompt.reactor == "Iker"
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, ReactionDialog)
        assert app.focused is not None and app.focused.id == "dice"
        await type_text(pilot, "3 4 5")
        await send_keys(pilot, "tab")
        await type_text(pilot, "esquiva")
        assert app.screen.query_one("#a0-description", Input).value == "esquiva"
        await send_keys(pilot, "tab")
        await type_text(pilot, "Esquivar")
        assert app.screen.query_one("#a0-skill", Input).value == "Esquivar"
        await pilot.press("enter")
        await pilot.pause()
        react = app.session.combat.commands[-1]
        assert isinstance(react, c.React)
        assert react.actions[0].description == "esquiva" and react.dice is not None


# ---- the condition dialog (sheet, c) ---------------------------------------------------


async def open_condition(pilot: Any) -> ConditionDialog:
    """Ana's sheet (w), then its condition dialog (c): the focus is on the condition at
    once and stays there (it never lands on one field and jumps to another)."""
    app = pilot.app
    await pilot.press("w")
    assert isinstance(app.screen, CharacterSheet)
    await pilot.press("c")
    dialog = app.screen
    assert isinstance(dialog, ConditionDialog)
    assert app.focused is dialog.query_one("#kind", Select)
    await pilot.pause()
    await pilot.pause()
    assert app.focused is dialog.query_one("#kind", Select)
    return dialog


def started_app(language: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The worked example's encounter, round 1 begun, in `language`."""
    from sombra_tui.engine import i18n
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    return make_app(session_after(worked_example_encounter(), c.StartCombat()),
                    journal=False, language=language)


def last_condition(app: Any) -> Any:
    return app.session.combat.state.body("Ana").conditions[-1]


@pytest.mark.parametrize("language", ["en", "es"])
async def test_c2_the_condition_then_tab_then_how_long(
        language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tab then 1 is aturdido for 1 asalto, not "until removed" (C3)."""
    app = started_app(language, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_condition(pilot)
        await send_keys(pilot, "tab")
        assert app.focused is dialog.query_one("#duration", Input)
        await type_text(pilot, "1")
        await send_keys(pilot, "tab")  # the own fields are off for a built-in condition
        assert app.focused is not None and app.focused.id == "add"
        await pilot.press("enter")
        await pilot.pause()
        aturdido = last_condition(app)
        assert aturdido.name == "aturdido" and aturdido.duration == 1
        # A number typed at once on the condition is how long: it goes to Asaltos.
        await pilot.press("c")
        await send_keys(pilot, "2", "3")
        dialog = app.screen
        assert isinstance(dialog, ConditionDialog)
        assert dialog.query_one("#duration", Input).value == "23"
        # A letter in Asaltos is refused with a word, not in silence.
        await type_text(pilot, "x")
        assert dialog.query_one("#duration", Input).value == "23"
        assert field_error(app, "duration") == \
            _("{label} takes a whole number (digits only).").format(label=_("Asaltos"))
        assert field_error(app, "duration").startswith(
            {"en": "Asaltos takes a whole number", "es": "Asaltos: solo un número"}[language])
        await send_keys(pilot, "backspace")
        assert field_error(app, "duration") == ""  # its value changed: the line goes
        await pilot.press("enter")
        await pilot.pause()
        assert last_condition(app).duration == 2


@pytest.mark.parametrize("language", ["en", "es"])
async def test_c2_a_letter_picks_the_condition_and_other_opens_its_own_fields(
        language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app = started_app(language, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_condition(pilot)
        kind = dialog.query_one("#kind", Select)
        await type_text(pilot, "d")
        assert kind.value == "dolor intenso"
        await type_text(pilot, "d")
        assert kind.value == "desarmado"
        await type_text(pilot, "o")  # (other) / (otro)
        assert kind.value == "(other)"
        await send_keys(pilot, "tab", "3", "tab")
        assert app.focused is dialog.query_one("#own", Input)
        await type_text(pilot, "derribado")
        await pilot.press("enter")
        await pilot.pause()
        own = last_condition(app)
        assert (own.name, own.duration) == ("derribado", 3)


# ---- Enter from any field of the declaration; lists open with their own key ------------


PISTOL = Weapon(name="pistola", damage_type="II", skill="Armas cortas")
KNIFE = Weapon(name="cuchillo", damage_type="I")


async def test_enter_declares_after_picking_a_weapon_from_its_list() -> None:
    iker = char("Iker", 10, 6, 12, skills={"Armas cortas": 14}, weapons=[PISTOL, KNIFE])
    bruno = char("Bruno", 12, 5, 12)
    encounter = Encounter(name="Mesa", seed=3, settings=Settings(), characters=[iker, bruno])
    app = make_app(session_after(encounter, c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")
        assert isinstance(app.screen, DeclarationEditor)
        await type_text(pilot, "apuñala a Bruno")
        await choose(pilot, "a0-weapon", "1")  # down opens the list, enter picks
        assert isinstance(app.screen, DeclarationEditor)
        await pilot.press("enter")  # on the list just picked from: declares
        await pilot.pause()
        assert app.screen is app.main_screen
        declared = app.session.combat.commands[-1]
        assert isinstance(declared, c.Declare) and declared.actions[0].weapon == KNIFE
        # From the kind list too.
        await pilot.press("space")
        assert isinstance(app.screen, DeclarationEditor)
        await type_text(pilot, "se cubre")
        await focus(pilot, "a0-kind")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.main_screen
        assert app.session.combat.commands[-1].character == "Bruno"


@pytest.mark.parametrize(("language", "help_text"), [
    ("en", "Open the focused dropdown list"), ("es", "Abrir la lista desplegable")])
def test_the_key_that_opens_a_list_is_in_the_key_table(
        language: str, help_text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from sombra_tui.engine import i18n
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    [row] = [line for line in keys.key_table().splitlines() if "`dialog.open_list`" in line]
    assert row.startswith("| ↓, ↑ |") and help_text in row
    assert help_text in keys.help_keys()


# ---- "DJ: success, no roll" asks for no target value (D12) --------------------------------


@pytest.mark.parametrize("language", ["en", "es"])
async def test_d12_the_djs_outcome_needs_no_target_value(
        language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from sombra_tui.engine import i18n
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    app = make_app(session_after(
        worked_example_encounter(), c.StartCombat(),
        c.Declare(character="Ana", actions=[]), c.Declare(character="Bruno", actions=[]),
        c.Declare(character="Carla", actions=[Action(description="dispara")]),
        c.Advance(), c.Advance()), journal=False, language=language)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")  # Carla's TA: no skill, no target value
        assert isinstance(app.screen, TADialog)
        assert app.screen.query_one("#target", Input).value == ""
        await choose(pilot, "outcome", DJ_SUCCESS)
        await pilot.press("enter")  # from the list just picked from
        await pilot.pause()
        assert app.screen is app.main_screen, field_error(app, "target")
        command = app.session.combat.commands[-1]
        assert isinstance(command, c.Resolve) and command.accept and command.target is None
        [event] = [e for e in app.session.combat.log if e.kind is EventKind.TA]
        assert event.ta is not None and event.ta.unrolled and event.ta.success
        assert event.ta.describe() == _("accepted without a roll (success)")
        assert {"en": "accepted without a roll", "es": "sin tirada"}[language] in \
            event.ta.describe()


@pytest.mark.parametrize(("language", "said"), [
    ("en", "DJ: Ana has dolor intenso"), ("es", "DJ: Ana tiene dolor intenso")])
async def test_c2_dolor_intenso_begun_by_keys_reads_as_the_language_says_it(
        language: str, said: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The log said "Ana está dolor intenso" (a noun after "está")."""
    app = started_app(language, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        await open_condition(pilot)
        pilot.app.post_message(events.Paste("dolor"))  # a name on the condition picks it
        await pilot.pause()
        await send_keys(pilot, "tab")
        await type_text(pilot, "2")
        await pilot.press("enter")
        await pilot.pause()
        assert last_condition(app).name == "dolor intenso"
        assert any(event.text.startswith(said) for event in app.session.combat.log)
