"""The DJ's notes pinned to an asalto, from the forecast (issue 37 item 5): `a` pins one,
`e` (or enter) changes the highlighted one, `del` removes it; each form says the command
Enter sends before it is sent, Escape on a changed form asks, bad input is named at its
field and nothing typed is lost. By keys, in both languages, at 120x40 and 80x24."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from sombra_tui.engine import commands as c
from sombra_tui.screens.dialogs.confirm import ConfirmDialog
from sombra_tui.screens.dialogs.forecast import ForecastDialog
from sombra_tui.screens.dialogs.note import NoteDialog
from sombra_tui.session import Session
from tests.app.conftest import MIN_SIZE, SIZE, field_error, fill, focus, make_app, type_text
from tests.app.harness import Harness
from tests.app.layout_states import with_notes

SAID = {
    "en": {"add": "enter sends: Pin a note to asalto 3: “se abre la trampilla” (the "
                  "players' view shows it then)",
           "edit": "enter sends: Change the note to asalto 3: “se abre el techo” (the "
                   "players' view shows it then)",
           "hint": "a add a note · e edit the note · del remove the note",
           "public": "se abre la trampilla  (players see it)"},
    "es": {"add": "intro envía: Fijar una nota en el asalto 3: «se abre la trampilla» (la "
                  "vista de los jugadores la muestra entonces)",
           "edit": "intro envía: Cambiar la nota al asalto 3: «se abre el techo» (la "
                   "vista de los jugadores la muestra entonces)",
           "hint": "a añadir nota · e editar la nota · del quitar la nota",
           "public": "se abre la trampilla  (los jugadores la ven)"},
}


def summary(app: object) -> str:
    return " ".join(str(app.screen.query_one("#summary", Static).content).split())  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE], ids=["120x40", "80x24"])
@pytest.mark.parametrize("language", ["en", "es"])
async def test_the_dj_pins_changes_and_removes_a_note_from_the_forecast(
        language: str, size: tuple[int, int]) -> None:
    said = SAID[language]
    app = make_app(Session(with_notes()), journal=False, language=language)
    async with app.run_test(size=size) as pilot:
        await pilot.press("l")
        await pilot.pause()
        forecast = app.screen
        assert isinstance(forecast, ForecastDialog)
        assert " ".join(str(forecast.query_one(".note", Static).content).split()) \
            == said["hint"]
        await pilot.press("a")
        await pilot.pause()
        assert isinstance(app.screen, NoteDialog)
        await type_text(pilot, "se abre la trampilla")
        await fill(pilot, "round", "3")
        await focus(pilot, "public")
        await pilot.press("space")
        await pilot.pause()
        assert summary(app) == said["add"]
        before = len(app.session.combat.commands)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is forecast
        notes = app.session.combat.state.notes
        assert len(app.session.combat.commands) == before + 1
        added = notes[-1]
        assert (added.round, added.text, added.character, added.public) == (
            3, "se abre la trampilla", None, True)
        assert said["public"] in forecast.shown()
        assert forecast.selected_note() == added.id  # the new note is highlighted
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, NoteDialog)
        await fill(pilot, "text", "se abre el techo")
        await pilot.pause()
        assert summary(app) == said["edit"]
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is forecast
        assert [n.text for n in app.session.combat.state.notes if n.id == added.id] == [
            "se abre el techo"]
        await pilot.press("delete")
        await pilot.pause()
        assert added.id not in {n.id for n in app.session.combat.state.notes}
        assert "se abre" not in forecast.shown()
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main_screen
        await pilot.press("u")  # undo brings the note back, as it was changed
        await pilot.pause()
        assert [n.text for n in app.session.combat.state.notes if n.id == added.id] == [
            "se abre el techo"]


async def test_escape_on_a_changed_note_asks_and_keeps_the_typing() -> None:
    app = make_app(Session(with_notes()), journal=False, language="en")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("l", "a")
        await pilot.pause()
        await type_text(pilot, "humo")
        before = len(app.session.combat.commands)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")  # keep editing
        await pilot.pause()
        assert isinstance(app.screen, NoteDialog) and app.screen.value("text") == "humo"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")  # discard
        await pilot.pause()
        assert isinstance(app.screen, ForecastDialog)
        assert len(app.session.combat.commands) == before
        await pilot.press("a")  # an unchanged form closes at once
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ForecastDialog)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_bad_note_is_named_at_its_field_and_nothing_is_lost(language: str) -> None:
    """An empty note, an asalto out of bounds, and one already over (the engine's
    refusal, rules/notes.py), each at its field; the form keeps the typing."""
    words = {"en": ("A note needs some text.", "Asalto must be from 1 to 9999, not 0.",
                    "Asalto 1 is already over: pin the note to asalto 2 or later."),
             "es": ("Una nota necesita algo de texto.", "Asalto: debe ir de 1 a 9999, no 0.",
                    "El asalto 1 ya ha terminado: fija la nota en el asalto 2 o más adelante.")}
    empty, not_a_number, over = words[language]
    combat = with_notes()
    while combat.state.round < 2:
        if combat.state.current_declarer is not None:
            combat.execute(c.Declare(character=combat.state.current_declarer, actions=[]))
        else:
            combat.execute(c.Advance())
    app = Harness(Session(combat), dialog=lambda h: ForecastDialog(lambda: h.state, h.check),
                  language=language)  # the DJ's l
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        before = len(app.session.combat.commands)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NoteDialog)
        assert field_error(app, "text") == empty
        await type_text(pilot, "sirenas")
        await fill(pilot, "round", "0")
        await pilot.press("enter")
        await pilot.pause()
        assert field_error(app, "round").startswith(not_a_number)
        await fill(pilot, "round", "1")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NoteDialog)
        assert field_error(app, "round") == over
        assert app.screen.value("text") == "sirenas"
        assert len(app.session.combat.commands) == before
