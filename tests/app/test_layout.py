"""Nothing is cut where it matters (issue 22 item 9): the table fits its panel, the
panel's lists fit theirs, the TA dialog's GD breakdown and the footer's keys show
whole, at 80x24 and 120x40 in both languages; toasts leave a dialog's buttons in
sight."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from rich.cells import cell_len
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Static
from textual.widgets._toast import Toast, ToastRack

from sombra_tui.app import SombraApp
from sombra_tui.engine import i18n
from sombra_tui.engine.ask import row as ask_row
from sombra_tui.engine.history import Combat
from sombra_tui.screens.dialogs import TADialog
from sombra_tui.screens.dialogs.fields import Field
from sombra_tui.screens.dialogs.help import HelpScreen
from sombra_tui.session import Session
from sombra_tui.widgets import initiative_table as it
from sombra_tui.widgets.declaration_queue import DeclarationQueue
from sombra_tui.widgets.footer import FooterKeys, ShownKey
from sombra_tui.widgets.footer import footer_keys as shown_keys
from sombra_tui.widgets.initiative_table import InitiativeTable
from sombra_tui.widgets.row_marks import DUE, NOW
from tests.app import drivers as shots
from tests.app.conftest import make_app
from tests.app.harness import Harness, ta_dialog
from tests.app.layout_states import (
    FOUR_CONDITIONS,
    LONG_DECLARATION,
    crowded_round,
    long_declared,
    reaction_prompt,
    wounded_round,
    wounded_round_due,
)

SIZES = [(120, 40), (80, 24)]
LANGUAGES = ["es", "en"]


def app_on(combat: Combat, language: str, **kwargs: object) -> SombraApp:
    app = make_app(Session(combat), journal=False, language=language, **kwargs)
    return app


def lines_of(table: InitiativeTable) -> list[str]:
    """The table's lines as shown (the header, then every row's lines)."""
    height = table.header_height + sum(table._heights)
    return ["".join(segment.text for segment in table.render_line(y)) for y in range(height)]


def words(text: str) -> list[str]:
    return text.split()


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=["120x40", "80x24"])
@pytest.mark.parametrize("combat", [wounded_round, wounded_round_due], ids=["plain", "due"])
async def test_the_table_fits_its_panel_and_shows_every_mark_whole(
        size: tuple[int, int], language: str, combat: Callable[[], Combat]) -> None:
    """No column past the panel's edge (no "In" / "8/"): every heading and cell of the
    columns shown reads whole, Status wraps at words instead of cutting them, and Side
    and Ini are never pushed off by a long Status ("dolor intenso 3 sangra now"); nor
    by the mark of something due this asalto beside the acting Carla (issue 37 item 4:
    "▶◆", the marker column's widest)."""
    app = app_on(combat(), language)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        table = app.main_screen.query_one(InitiativeTable)
        assert table.virtual_size.width <= table.scrollable_content_region.width
        assert {it.NAME, it.POINTS, it.STATUS, it.SIDE, it.INI} <= set(table._columns)
        shown = lines_of(table)
        header = words(shown[0])
        for index in table._columns[1:]:
            assert words(i18n._(it.COLUMNS[index]))[0] in header
        text = words(" ".join(shown))
        state = app.session.combat.state
        for name in it.ordered_names(state):
            row = table.get_row(name)
            cells = it.shown_cells(row, table._columns, table._widths)
            for cell, index in zip(cells, table._columns, strict=True):
                if index == it.DECLARATION:
                    continue  # one line, cut with "…": the panel lists it whole
                for word in words(cell.plain):
                    assert word in text, f"{word!r} of {name}'s {it.COLUMNS[index]} is cut"
        # Carla's Status holds all her marks, in order, over one or more lines.
        status = i18n._("sangra")
        assert any(status in line for line in shown)
        assert "15/2" in " ".join(shown)
        if combat is wounded_round_due:  # issue 37 item 4: the forecast's mark
            assert [name for name in it.ordered_names(state) if DUE.glyph in
                    table.get_row(name)[it.MARKER].plain] == ["Carla", "Matón"]
            assert table.get_row("Carla")[it.MARKER].plain == NOW.glyph + DUE.glyph
            assert any(line.split()[:2] == [DUE.glyph, "Matón"] for line in shown), shown


@pytest.mark.parametrize("language", LANGUAGES)
async def test_a_row_that_reads_declared_now_keeps_the_declaration_column(
        language: str) -> None:
    """At 120x40 the Declaration column stays however long Status gets, with room to
    read; at 80x24 it makes way and Status says "declared" instead."""
    for size in SIZES:
        app = app_on(reaction_prompt(), language)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            table = app.main_screen.query_one(InitiativeTable)
            widths = dict(zip(table._columns, table._widths, strict=True))
            if size == (120, 40):
                assert it.DECLARATION in widths and widths[it.DECLARATION] >= it.DECLARATION_MIN
                assert it.ALERTA in widths
            else:
                assert it.DECLARATION not in widths
                assert i18n._("declared") in " ".join(lines_of(table))


@pytest.mark.parametrize("language", LANGUAGES)
async def test_the_declared_list_fits_under_a_reaction_prompt(language: str) -> None:
    """The panel's "Declared:" list fits what the prompt leaves at 120x40: one line a
    declaration (the cursor's row shows any one whole), the latest first to stay."""
    app = app_on(reaction_prompt(), language)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        queue = app.main_screen.query_one(DeclarationQueue)
        panel = app.main_screen.query_one("#queue-panel")
        assert queue.outer_size.height <= panel.scrollable_content_region.height
        assert panel.max_scroll_y == 0
        shown = [plain for plain, _style, _spans in queue._shown]
        assert i18n._("Declared:") in shown


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=["120x40", "80x24"])
async def test_the_ta_dialog_shows_the_whole_gd_breakdown(
        size: tuple[int, int], language: str) -> None:
    """H10: each wound's grade is named on a line of its own, wrapped, never cut where
    the field's label ends ("GD acción 0,")."""
    app = Harness(Session(wounded_round()), dialog=ta_dialog,
                  language=language)  # the DJ's space: the acting character's TA
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, TADialog)
        breakdown = dialog.query_one("#gd-breakdown", Static)
        hint = dialog.gd_hint()
        assert str(breakdown.content) == hint and hint.count("+1") == 2
        region = breakdown.region
        lines = breakdown.render_lines(Region(0, 0, region.width, region.height))
        shown = " ".join("".join(segment.text for segment in line) for line in lines)
        assert words(shown) == words(hint)
        assert breakdown.region in dialog.query_one("#dialog").region


async def footer_keys(app: SombraApp) -> tuple[list[ShownKey], ShownKey]:
    keys = list(shown_keys(app.main_screen))
    palette = [key for key in keys if key.palette]
    assert len(palette) == 1
    return [key for key in keys if key not in palette], palette[0]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", [(120, 40), (100, 30), (80, 24)],
                         ids=["120x40", "100x30", "80x24"])
async def test_the_footer_leaves_a_key_out_whole_rather_than_cut_it(
        size: tuple[int, int], language: str) -> None:
    """Spanish "espacio Siguiente" is longer than "space Next": at 120 columns "Salir"
    was cut to "Sal" under the palette's key. Keys that do not fit are left out whole,
    the next step and quit last."""
    app = app_on(reaction_prompt(), language)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        keys, palette = await footer_keys(app)
        assert keys
        for key in keys:
            assert key.region.right <= palette.region.x, f"{key.description!r} is cut"
        actions = [key.action.rpartition(".")[2] for key in keys]
        assert {"next_step", "quit", "help"} <= set(actions)


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
async def test_a_click_on_a_footer_key_presses_it(size: tuple[int, int]) -> None:
    """The footer's keys are one line (issue 24); a click on one still presses it, and
    the mouse over it lights it as Textual's FooterKey does."""
    app = app_on(reaction_prompt(), "en")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        keys, _palette = await footer_keys(app)
        help_key = next(key for key in keys if key.name == "help")
        line = app.main_screen.query_one(FooterKeys)
        offset = (help_key.region.x - line.region.x + 1, 0)
        await pilot.hover(FooterKeys, offset=offset)
        assert line.hovered is not None and line.placed()[line.hovered][1].name == "help"
        await pilot.click(FooterKeys, offset=offset)
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)


async def test_toasts_leave_a_dialogs_buttons_in_sight() -> None:
    """At 80x24 a dialog reaches the footer, and Textual's toasts sit at the bottom
    right: they sit at the top right instead, over no button."""
    app = app_on(wounded_round(), "es")
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, TADialog)
        app.notify("Un aviso bastante largo, de los que ocupan varias líneas en una "
                   "terminal de ochenta columnas.", timeout=60)
        app.notify("Otro aviso.", severity="warning", timeout=60)
        await pilot.pause()
        await pilot.pause()
        rack = app.screen.get_child_by_type(ToastRack)
        toasts = [toast for toast in rack.query(Toast)]
        assert len(toasts) == 2
        buttons = list(app.screen.query(Button))
        assert buttons
        for toast in toasts:
            for button in buttons:
                assert not toast.region.overlaps(button.region), \
                    f"a toast covers {button.label}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=["120x40", "80x24"])
async def test_eight_characters_stay_on_screen_with_four_conditions_on_one(
        size: tuple[int, int], language: str) -> None:
    """Issue 39 item 5 (C1, C3): 8 characters, Carla with four conditions: every row is
    inside the table's region without scrolling, Carla's conditions fold into one line
    (abbreviated, then counted), and the panel says them whole with their asaltos left."""
    app = app_on(crowded_round(), language)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        table = app.main_screen.query_one(InitiativeTable)
        state = app.session.combat.state
        names = it.ordered_names(state)
        assert len(names) == 8
        assert table.max_scroll_y == 0 and round(table.scroll_y) == 0
        assert table.header_height + sum(table._heights) <= \
            table.scrollable_content_region.height
        shown = lines_of(table)
        for name in names:
            assert any(line.split()[:2] in ([name], ["▶", name]) or
                       name in line.split()[:2] for line in shown), f"{name} is not shown"
        assert table._heights[names.index("Carla")] == 1
        carla = next(line for line in shown if "Carla" in line)
        assert i18n._("sangra") in carla.split()
        conditions = ask_row(state, "Carla").conditions
        assert len([c for c in conditions if c.name != "sangrando"]) == len(FOUR_CONDITIONS)
        queue = app.main_screen.query_one(DeclarationQueue)
        panel = " ".join(plain for plain, _style, _spans in queue._shown)
        for condition in conditions:
            assert condition.label in panel, f"the panel leaves out {condition.label!r}"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", SIZES, ids=["120x40", "80x24"])
async def test_a_long_declaration_in_the_panel_is_cut_at_a_word_and_keeps_its_target(
        size: tuple[int, int], language: str) -> None:
    """Issue 39 item 5 (D1): the panel's "Declared:" list gives each declaration one
    line; Matón's, longer than the line, is cut after a whole word ("…") and still
    names Iker, whom it is aimed at."""
    app = app_on(long_declared(), language)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        queue = app.main_screen.query_one(DeclarationQueue)
        width = queue.scrollable_content_region.width
        line = next(plain for plain, _style, _spans in queue._shown
                    if plain.startswith("  Matón: "))
        assert cell_len(line) <= width, line
        target = i18n._("at {names}").format(names="Iker")
        assert line.endswith(" · " + target), line
        head = line.removeprefix("  Matón: ").removesuffix(" · " + target)
        assert head.endswith("…") and len(head) < len(LONG_DECLARATION), head
        kept = head.removesuffix("…")
        assert LONG_DECLARATION.startswith(kept)
        assert LONG_DECLARATION[len(kept)] == " ", f"{head!r} cuts a word"


def visible_lines(widget: Widget, clip: Region) -> str:
    """What `widget` shows inside `clip` (screen coordinates), its lines joined."""
    region = widget.region
    lines = widget.render_lines(Region(0, 0, region.width, region.height))
    return " ".join("".join(segment.text for segment in line)
                    for y, line in enumerate(lines) if clip.contains(region.x, region.y + y))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("driver", [
    shots.reaction_dialog,
    shots.hit_proposal], ids=["reaction", "hit"])
async def test_the_reaction_and_hit_dialogs_show_their_fields_whole_at_80x24(
        driver: shots.Driver, language: str) -> None:
    """Issue 39 item 5 (D6, H1): at 80x24 every field label in view reads whole, no field
    shows in its form without its label (the reacción's description showed the bottom
    of its box alone), and every empty field's placeholder fits its box ("cobertura,
    u")."""
    app = shots.make_app(size=(80, 24), language=language)
    async with app.run_test(size=(80, 24)) as pilot:
        await driver(pilot)
        await shots.settle(pilot)
        dialog = app.screen.query_one("#dialog")
        for field in app.screen.query(Field):
            scroll = next(node for node in field.ancestors_with_self
                          if isinstance(node, ScrollableContainer))
            view = scroll.scrollable_content_region.intersection(dialog.region)
            if not field.region.overlaps(view):
                continue  # scrolled out whole
            label = field.query_one(".field-label", Label)
            text = label.visual.plain if hasattr(label.visual, "plain") else field.label
            assert view.contains_region(label.region), \
                f"{field.label!r} shows without its label"
            assert words(visible_lines(label, view)) == words(text), f"{text!r} is cut"
        for box in app.screen.query(Input):
            if box.region.overlaps(dialog.region) and box.placeholder and not box.value:
                assert cell_len(box.placeholder) <= box.content_region.width, \
                    f"{box.placeholder!r} is cut"
