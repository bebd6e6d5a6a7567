"""The resolution log wraps its entries again after a resize, both ways (playtest).

RichLog keeps its lines as they were wrapped when written: after a resize from 120x40
to 80x24 the old lines were cut at the panel's edge (a horizontal scrollbar, the
middle of long entries out of view), lines written at 80 columns stayed that narrow
back at 120, and the smaller log was left scrolled up, its latest entries out of view.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from sombra_tui.app import SombraApp
from sombra_tui.session import Session
from sombra_tui.widgets.formatting import event_text
from sombra_tui.widgets.resolution_log import ResolutionLog
from tests.app import drivers as shots
from tests.app.conftest import MIN_SIZE, SIZE


async def resize(pilot: Pilot[Any], width: int, height: int) -> None:
    """Resize the terminal, and the Rich console behind the app with it (as a real
    terminal's does; shots.make_app pins it to the terminal's size)."""
    pilot.app.console.size = (width, height)
    await pilot.resize_terminal(width, height)
    await pilot.pause()


def words(text: str) -> str:
    return " ".join(text.split())


def log_of(app: SombraApp) -> ResolutionLog:
    return app.main_screen.query_one(ResolutionLog)


def shown_lines(log: ResolutionLog) -> list[str]:
    """The log's lines as the screen shows them (its scrollable region, scrolled)."""
    return [log.render_line(y).text for y in range(log.scrollable_content_region.height)]


def assert_fits_and_shows_the_end(app: SombraApp) -> None:
    log = log_of(app)
    width = log.scrollable_content_region.width
    assert all(line.cell_length <= width for line in log.lines), "a line is cut"
    assert log.virtual_size.width <= width
    assert not log.show_horizontal_scrollbar
    assert log.is_vertical_scroll_end, "the log does not show its end"
    view = app.session.combat.log_view()
    newest = words(event_text(view[len(view) - 1], log.palette).plain)
    assert newest in words(" ".join(shown_lines(log))), "the newest entry is not in view"


async def test_the_log_wraps_again_after_a_resize_both_ways() -> None:
    app = shots.make_app(size=SIZE, language="es", resume=shots.resolution_mid_round)
    async with app.run_test(size=SIZE) as pilot:
        await shots.resolution_mid_round(pilot)
        log = log_of(app)
        at_120 = [line.text for line in log.lines]
        assert max(line.cell_length for line in log.lines) > MIN_SIZE[0], \
            "the log needs entries longer than the narrow panel's width"

        await resize(pilot, *MIN_SIZE)
        assert_fits_and_shows_the_end(app)
        assert len(log.lines) > len(at_120)  # wrapped to more, narrower lines

        # The rest of the round resolved at 80x24: its entries are wrapped narrow.
        for dice in shots.ROUND_DICE[2:]:
            await shots.resolve_typed(pilot, dice)
        await shots.settle(pilot)
        assert_fits_and_shows_the_end(app)

        await resize(pilot, *SIZE)
        assert_fits_and_shows_the_end(app)
        back = [line.text for line in log.lines]
        assert back[:len(at_120)] == at_120  # the old entries as they were at 120
        commands = tuple(app.session.combat.commands)

    # Every entry, the ones written at 80 columns too, as a log written at 120 shows it.
    session = Session.new(shots.demo_encounter(shots.DEMO_SEED))
    for command in commands:
        session.execute(command)
    fresh = SombraApp(session, seed=shots.DEMO_SEED, remember_theme=False,
                      cursor_blink=False, journal=False, language="es",
                      prepare_dialogs=False)
    fresh.console.size = SIZE
    async with fresh.run_test(size=SIZE) as pilot:
        await shots.settle(pilot)
        assert [line.text for line in log_of(fresh).lines] == back


async def test_a_log_scrolled_up_keeps_its_top_entry_after_a_resize() -> None:
    app = shots.make_app(size=SIZE, language="es", resume=shots.resolution_mid_round)
    async with app.run_test(size=SIZE) as pilot:
        await shots.resolution_mid_round(pilot)
        log = log_of(app)
        view = app.session.combat.log_view()
        top = log._first + 2  # the third entry rendered at the top of the view
        log.scroll_to(y=sum(log._heights[:2]), animate=False, immediate=True)
        await pilot.pause()
        entry = words(event_text(view[top], log.palette).plain)
        assert entry.startswith(words(shown_lines(log)[0]))
        for size in (MIN_SIZE, SIZE):
            await resize(pilot, *size)
            width = log.scrollable_content_region.width
            assert all(line.cell_length <= width for line in log.lines)
            assert not log.is_vertical_scroll_end  # not sent to the end
            assert entry.startswith(words(shown_lines(log)[0])), f"at {size}"


async def test_at_80x24_the_panels_key_line_stays_on_top_of_what_scrolls() -> None:
    """Playtest: the declarations panel kept the step acting now in view by scrolling,
    and at 80x24 its first lines, the key to press, scrolled away."""
    from sombra_tui.engine import ask
    from sombra_tui.widgets.declaration_queue import DeclarationQueue, next_step_hint

    app = shots.make_app(size=MIN_SIZE, language="en", resume=shots.resolution_mid_round)
    async with app.run_test(size=MIN_SIZE) as pilot:
        await shots.resolution_mid_round(pilot)
        queue = app.main_screen.query_one(DeclarationQueue)
        assert queue.scroll_y > 0, "the panel no longer scrolls: the case is not tested"
        height = queue.scrollable_content_region.height
        shown = words(" ".join(queue.render_line(y).text for y in range(height)))
        hint = words(next_step_hint(app.session.combat.state, app.main_screen.keymap))
        assert shown.startswith(hint), shown
        acting = ask.next_step(app.session.combat.state).who[0]
        assert f"▶ {acting}:" in shown  # and the step acting now, under it
