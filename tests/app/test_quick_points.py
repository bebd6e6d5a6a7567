"""Quick damage and healing from the table (issue 39 item 4): "-" or "+" on a row opens
one line for that character; "-7 pecho" is the sheet's hit by hand (H1-H9, assessed by
the engine), "+3" the sheet's healing (H12), shown before Enter, undoable; bad input
names its problem and keeps the line; Escape on a changed line asks."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from sombra_tui.engine import commands as c
from sombra_tui.engine import i18n
from sombra_tui.engine.history import Combat
from sombra_tui.engine.wounds import Location
from sombra_tui.screens.dialogs import ConfirmDialog
from sombra_tui.screens.dialogs.quick_points import QuickPointsDialog
from sombra_tui.widgets.initiative_table import InitiativeTable
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    field_error,
    make_app,
    on_main_screen,
    session_after,
    text_of,
    worked_example_encounter,
)

#: The same hit by hand, in each language's words, and how the line announces it.
WORDS = {"en": ("7 chest", "enter sends: A hit on Bruno: chest, damage 7",
                "enter sends: Heal 3 herida points of Bruno"),
         "es": ("7 pecho", "intro envía: Un impacto en Bruno: pecho, daño 7",
                "intro envía: Curar 3 puntos de herida de Bruno")}
CASES = pytest.mark.parametrize(("language", "size"), [
    ("en", SIZE), ("es", SIZE), ("en", MIN_SIZE), ("es", MIN_SIZE)],
    ids=["en-120x40", "es-120x40", "en-80x24", "es-80x24"])


def speak(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)


def started() -> list[c.Command]:
    return [c.StartCombat()]


def directly(*commands: c.Command) -> Combat:
    """The combat with `commands` sent as the sheet's forms send them."""
    combat = session_after(worked_example_encounter(), *started()).combat
    for command in commands:
        combat.execute(command)
    return combat


@CASES
async def test_h12_minus_7_chest_is_the_sheets_hit_by_hand_and_plus_3_its_healing(
        language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """H1-H9 through the sheet's command (ManualHit), H12 healing (Heal): the line shows
    the command before Enter; the state is the one the command sent directly makes;
    undo restores each."""
    speak(language, monkeypatch)
    typed, hit_line, heal_line = WORDS[language]
    app = make_app(session_after(worked_example_encounter(), *started()), journal=False,
                   language=language)
    async with app.run_test(size=size) as pilot:
        combat = app.session.combat
        before = combat.state.clone()  # the state is changed in place
        await pilot.press("down")  # Bruno's row
        assert app.main_screen.query_one(InitiativeTable).selected_name == "Bruno"
        await pilot.press("minus", *typed)
        await pilot.pause()
        assert isinstance(app.screen, QuickPointsDialog)
        assert app.screen.query_one("#quick", Input).value == f"-{typed}"
        assert text_of(app, "#summary").startswith(hit_line)
        await pilot.press("enter")
        await pilot.pause()
        assert on_main_screen(app)
        hit = c.ManualHit(character="Bruno", location=Location.PECHO, damage=7)
        assert combat.commands[-1] == hit
        assert combat.state == directly(hit).state
        hurt = combat.state.clone()
        await pilot.press("plus", "3")
        await pilot.pause()
        assert text_of(app, "#summary").startswith(heal_line)
        await pilot.press("enter")
        await pilot.pause()
        heal = c.Heal(character="Bruno", points=3)
        assert combat.commands[-1] == heal
        assert combat.state == directly(hit, heal).state
        await pilot.press("u")
        await pilot.pause()
        assert combat.state == hurt
        await pilot.press("u")
        await pilot.pause()
        assert combat.state == before


#: What the DJ types after "-" or "+", and a few words of the message in each language.
BAD = [("minus", "7", {"en": "needs a location", "es": "necesita una localización"}),
       ("minus", "7 rodilla", {"en": "Unknown location 'rodilla'",
                               "es": "Localización desconocida 'rodilla'"}),
       ("minus", "7 brazo", {"en": "left arm or right arm",
                             "es": "brazo izquierdo o brazo derecho"}),
       ("minus", " pecho", {"en": "A number is missing", "es": "Falta un número"}),
       ("plus", "3 foo", {"en": "golpe or herida", "es": "golpe o herida"})]


@CASES
async def test_h2_bad_input_names_its_problem_and_keeps_the_line(
        language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """A hit by hand needs a location (H2): "-7" says so; an unknown or ambiguous
    location, a missing number, a healing's unknown word: each named, nothing sent,
    the line kept as typed."""
    speak(language, monkeypatch)
    app = make_app(session_after(worked_example_encounter(), *started()), journal=False,
                   language=language)
    async with app.run_test(size=size) as pilot:
        combat = app.session.combat
        sent = len(combat.commands)
        for key, typed, words in BAD:
            await pilot.press(key, *typed)
            await pilot.pause()
            assert words[language] in text_of(app, "#summary"), typed
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, QuickPointsDialog)
            assert words[language] in field_error(app, "quick"), typed
            line = app.screen.query_one("#quick", Input).value
            assert line == ("-" if key == "minus" else "+") + typed
            assert len(combat.commands) == sent
            await pilot.press("escape")  # changed: asks, as every form
            assert isinstance(app.screen, ConfirmDialog)
            await pilot.press("y")  # discard
            await pilot.pause()
            assert on_main_screen(app)


async def test_escape_on_the_line_as_opened_closes_at_once() -> None:
    app = make_app(session_after(worked_example_encounter(), *started()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("minus")
        await pilot.pause()
        assert isinstance(app.screen, QuickPointsDialog)
        await pilot.press("escape")
        await pilot.pause()
        assert on_main_screen(app)


@pytest.mark.parametrize(("typed", "location"), [
    ("pecho", Location.PECHO), ("chest", Location.PECHO), ("pe", Location.PECHO),
    ("Cabeza", Location.CABEZA), ("head", Location.CABEZA), ("abd", Location.ABDOMEN),
    ("brazo izq", Location.BRAZO_IZQUIERDO), ("bi", Location.BRAZO_IZQUIERDO),
    ("l arm", Location.BRAZO_IZQUIERDO), ("ra", Location.BRAZO_DERECHO),
    ("b. der.", Location.BRAZO_DERECHO), ("pierna d", Location.PIERNA_DERECHA),
    ("ll", Location.PIERNA_IZQUIERDA)])
@pytest.mark.parametrize("language", ["en", "es"])
def test_h2_a_location_by_its_names_in_either_language_or_short(
        typed: str, location: Location, language: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from sombra_tui.screens.dialogs.quick_parsing import read_quick
    speak(language, monkeypatch)
    state = directly().state
    assert read_quick(f"-7 {typed}", state, "Bruno") == c.ManualHit(
        character="Bruno", location=location, damage=7)
    assert read_quick(f"-7 {typed} nl", state, "Bruno").lethal is False  # type: ignore[union-attr]


def test_h6_plus_heals_golpe_points_when_there_are_no_herida_points() -> None:
    """H6: a non-lethal hit leaves golpe points only; "+2" heals those (as the heal form
    would be set), "+2 herida" says which."""
    from sombra_tui.screens.dialogs.quick_parsing import read_quick
    beaten = directly(c.ManualHit(character="Bruno", location=Location.PECHO, damage=3,
                                  lethal=False)).state
    assert read_quick("+2", beaten, "Bruno") == c.Heal(character="Bruno", points=2,
                                                       kind=c.HealKind.GOLPE)
    assert read_quick("+2 herida", beaten, "Bruno").kind is c.HealKind.HERIDA  # type: ignore[union-attr]
