"""Issue 13: a dialog shown again is refilled, not built again (it opens in about a
frame), and a refilled dialog is exactly what a new one would be.

Each test compares the screen of a refilled dialog with the screen of a dialog built
new for the same character, after the DJ left the first one full of typing, ticks,
choices and errors; and plays the refilled dialog by keyboard, at full speed.
"""

from __future__ import annotations

from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine.model import ActionKind, BodySide, Encounter, Settings, Side, Weapon
from sombra_tui.screens.dialogs import DeclarationEditor
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    char,
    choose,
    field_error,
    fill,
    focus,
    make_app,
    on_main_screen,
    send_keys,
    session_after,
    toggle,
    type_text,
)


def three() -> Encounter:
    """Three characters whose dialogs differ: skills, weapons, main arm, side."""
    return Encounter(name="Estante", seed=3, settings=Settings(), characters=[
        char("Ana", 8, 3, 14, side=Side.PC, skills={"Esquivar": 12},
             weapons=[Weapon(name="revólver", damage_type="II"),
                      Weapon(name="puños", damage_type="0")], default_weapon=1,
             main_arm=BodySide.LEFT),
        char("Bruno", 12, 5, 12, skills={"Pelea": 13, "Armas cortas": 11},
             weapons=[Weapon(name="navaja", damage_type="I")]),
        char("Carla", 15, 2, 13, skills={"Sigilo": 10})])


def screen_text(app: SombraApp) -> list[str]:
    """Every line of the screen as the DJ sees it: its text, then each run's style."""
    strips = app.screen._compositor.render_strips()
    return [strip.text + " | " + " ".join(
        f"{len(segment.text)}:{segment.style}" for segment in strip.simplify())
        for strip in strips]


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):
        await pilot.pause()


async def new_dialog_screen(app: SombraApp, pilot, name: str) -> str:  # type: ignore[no-untyped-def]
    """The screen of a declaration dialog built new for `name` (then cancelled)."""
    main = app.main_screen
    dialog = DeclarationEditor(app.session.combat.state, name, main.check)
    await app.push_screen(dialog)
    await settle(pilot)
    text = screen_text(app)
    await pilot.press("escape")
    await settle(pilot)
    return text


async def leave_it_full(pilot) -> None:  # type: ignore[no-untyped-def]
    """Type, tick and choose everywhere, leave an error showing, then cancel."""
    app = pilot.app
    await type_text(pilot, "dispara")
    await fill(pilot, "a0-gd", "99")  # out of range: an error on submit
    await fill(pilot, "a0-skill", "Pel")
    await toggle(pilot, "a0-targets", [app.screen.others[-1]])
    await choose(pilot, "a0-scope", "legs")
    await focus(pilot, "a0-description")
    await pilot.press("enter")
    assert field_error(app, "a0-gd"), "the bad GD shows its error"
    await focus(pilot, "affected")
    await send_keys(pilot, "end")
    await pilot.press("escape")
    await settle(pilot)
    assert on_main_screen(app)


async def test_the_declaration_dialog_shown_again_is_the_same_one_and_as_new() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        declarer = app.session.combat.state.current_declarer
        assert declarer is not None
        await pilot.press("d")
        await settle(pilot)
        first = app.screen
        assert isinstance(first, DeclarationEditor)
        built_new = screen_text(app)
        await leave_it_full(pilot)

        await pilot.press("d")
        await settle(pilot)
        assert app.screen is first, "shown again, not built again"
        assert screen_text(app) == built_new
        assert app.focused is not None and app.focused.id == "a0-description"
        await pilot.press("escape")


async def test_the_next_declarer_gets_a_refilled_dialog_equal_to_a_new_one() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        state = app.session.combat.state
        await pilot.press("d")
        await settle(pilot)
        first = app.screen
        assert isinstance(first, DeclarationEditor)
        first_name = first.character.name
        await leave_it_full(pilot)
        # The first declarer declares (a refilled dialog, typed at full speed).
        await send_keys(pilot, "d", *"espera", "enter")
        await settle(pilot)
        assert state.declaration_of(first_name) is not None
        assert state.declaration_of(first_name).actions[0].description == "espera"
        following = state.current_declarer
        assert following is not None and following != first_name

        expected = await new_dialog_screen(app, pilot, following)
        await pilot.press("d")
        await settle(pilot)
        assert app.screen is first
        assert first.character.name == following
        assert screen_text(app) == expected
        await pilot.press("escape")


async def test_a_refilled_dialogs_keys_all_arrive_for_two_declarers_in_a_row(
        ) -> None:
    """Two whole declarations typed key after key: the second dialog is the first one
    refilled, and every key lands where it was meant (issue 13, item 4)."""
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        first = combat.state.current_declarer
        assert first is not None
        skill = next(iter(combat.state.character(first).skills))
        await pilot.press("d", *"se cubre", "tab", *skill, "enter",
                          "d", *"apunta", "enter")
        await settle(pilot)
        assert on_main_screen(app), f"still on {app.screen}"
        state = combat.state
        declared = [d for d in state.declarations.values() if d.actions]
        assert [(d.actions[0].description, d.actions[0].skill) for d in declared] == \
            [("se cubre", skill), ("apunta", "")]
        assert declared[0].author == first and declared[1].author != first
        assert len(combat.commands) == 3


async def test_a_dialog_the_dj_added_actions_to_is_built_anew_with_one_form() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await settle(pilot)
        first = app.screen
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert isinstance(first, DeclarationEditor) and len(first.forms) == 2
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        again = app.screen
        assert isinstance(again, DeclarationEditor)
        assert again is not first and len(again.forms) == 1
        await pilot.press("escape")


async def test_a_dialog_whose_extended_fields_were_opened_is_built_anew() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await settle(pilot)
        first = app.screen
        await choose(pilot, "a0-kind", ActionKind.EXTENDED)
        assert first.query_one(".extended").children
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert app.screen is not first
        assert not app.screen.query(".extended").first().children
        await pilot.press("escape")


async def test_a_new_theme_or_language_builds_the_dialog_anew() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await settle(pilot)
        first = app.screen
        await pilot.press("escape")
        await settle(pilot)
        app.theme = next(name for name in app.available_themes if name != app.theme)
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        second = app.screen
        assert isinstance(second, DeclarationEditor) and second is not first
        await pilot.press("escape")
        await settle(pilot)
        app.switch_language("es")
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        third = app.screen
        assert isinstance(third, DeclarationEditor) and third is not second
        assert str(third.query_one("#dialog-title").content).startswith("Declara ")
        await pilot.press("escape")
        app.switch_language("en")


async def test_a_dialog_shown_again_after_a_resize_fits_the_new_width() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await settle(pilot)
        first = app.screen
        assert not first.has_class("-narrow")
        await pilot.press("escape")
        await pilot.resize_terminal(*MIN_SIZE)
        await settle(pilot)
        expected = await new_dialog_screen(app, pilot, first.character.name)
        await pilot.press("d")
        await settle(pilot)
        assert app.screen is first and first.has_class("-narrow")
        assert screen_text(app) == expected
        await pilot.press("escape")


async def test_keys_typed_right_after_enter_never_close_the_main_screen() -> None:
    """Enter, then keys at once (no pause): Textual may hand those keys to the dialog
    being closed; a second Enter among them must not close the screen below."""
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        first = combat.state.current_declarer
        await send_keys(pilot, "d", *"espera", "enter", "enter", "enter")
        await settle(pilot)
        assert app.screen is app.main_screen
        declaration = combat.state.declaration_of(first)
        assert declaration is not None and declaration.actions[0].description == "espera"
