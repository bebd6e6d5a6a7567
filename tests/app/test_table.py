"""The initiative table by keyboard and mouse: the cursor, scrolling, Enter to edit."""

from __future__ import annotations

from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import Action, Encounter
from sombra_tui.screens.dialogs import CharacterEditor
from sombra_tui.session import Session
from sombra_tui.widgets.initiative_table import InitiativeTable
from tests.app.conftest import MIN_SIZE, char, make_app

NAMES = [f"PJ{index:02d}" for index in range(30)]


def crowd() -> Session:
    """30 characters in the DJ's order: more than the table shows at 80x24."""
    encounter = Encounter(name="Multitud", characters=[
        char(name, 10, index % 10, 10) for index, name in enumerate(NAMES)])
    return Session(Combat(encounter))


def visible(table: InitiativeTable) -> range:
    top = round(table.scroll_y)
    return range(top, top + table._shown_rows)


async def test_arrows_pages_home_end_move_the_cursor_and_keep_it_in_view() -> None:
    app = make_app(crowd())
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.pause()
        table = app.main_screen.query_one(InitiativeTable)
        assert table.has_focus and table.selected_name == NAMES[0]
        shown = table._shown_rows
        assert 0 < shown < len(NAMES)
        await pilot.press("down", "down")
        assert table.selected_name == NAMES[2]
        await pilot.press("end")
        await pilot.pause()
        assert table.selected_name == NAMES[-1] and table.cursor_row in visible(table)
        assert round(table.scroll_y) > 0
        await pilot.press("pageup")
        await pilot.pause()
        assert table.cursor_row == len(NAMES) - 1 - (shown - 1)
        assert table.cursor_row in visible(table)
        await pilot.press("home")
        await pilot.pause()
        assert table.selected_name == NAMES[0] and round(table.scroll_y) == 0
        await pilot.press("up")  # stays on the first row
        assert table.cursor_row == 0
        await pilot.press("pagedown")
        await pilot.pause()
        assert table.cursor_row == shown - 1 and table.cursor_row in visible(table)


async def test_enter_or_a_click_on_the_cursor_row_edits_that_character() -> None:
    app = make_app(crowd())
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.pause()
        table = app.main_screen.query_one(InitiativeTable)
        await pilot.press("down", "enter")
        await pilot.pause()
        editor = app.screen
        assert isinstance(editor, CharacterEditor)
        assert editor.query_one("#name").value == NAMES[1]  # type: ignore[attr-defined]
        await pilot.press("escape")
        await pilot.pause()
        # The header is line 0 of the table; a click on line 4 is the fourth row.
        await pilot.click(InitiativeTable, offset=(5, 4))
        await pilot.pause()
        assert table.selected_name == NAMES[3] and app.screen is app.main_screen
        await pilot.click(InitiativeTable, offset=(5, 4))
        await pilot.pause()
        assert isinstance(app.screen, CharacterEditor)


async def test_a_combat_opened_mid_round_shows_whoever_acts_on_the_first_screen() -> None:
    """The acting character far down the order is in view as soon as the app starts."""
    session = crowd()
    session.execute(session.combat.start_command())
    for name in session.combat.state.declaration_order[:25]:
        session.execute(c.Declare(character=name, actions=[Action(description="waits")]))
    acting = session.combat.state.current_declarer
    assert acting is not None
    app = make_app(session)
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.pause()
        table = app.main_screen.query_one(InitiativeTable)
        assert table.selected_name == acting and table.cursor_row >= 25
        assert table.cursor_row in visible(table)


async def test_after_a_theme_switch_the_table_paints_as_if_started_in_that_theme() -> None:
    def painted(app: SombraApp) -> list[list[tuple[str, object]]]:
        table = app.main_screen.query_one(InitiativeTable)
        return [[(segment.text, segment.style) for segment in table.render_line(y)]
                for y in range(table.scrollable_content_region.height)]

    switched = make_app(crowd(), theme="sombra", journal=False)
    async with switched.run_test(size=MIN_SIZE) as pilot:
        await pilot.pause()
        await pilot.press("down", "down")
        switched.theme = "papel"
        await pilot.pause()
        after_switch = painted(switched)
    fresh = make_app(crowd(), theme="papel", journal=False)
    async with fresh.run_test(size=MIN_SIZE) as pilot:
        await pilot.pause()
        await pilot.press("down", "down")
        await pilot.pause()
        assert painted(fresh) == after_switch
