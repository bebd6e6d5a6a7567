"""The speed-ups keep every result identical.

The engine builds some records without pydantic validation and caches positions in
the state (first pending step, declared prefix, character index); the panels update
the initiative table in place and render only the tail of a long log. Each test
here compares the fast path with the plain one over a long scripted history.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import Input, Select, SelectionList

from sombra_tui import config
from sombra_tui.app import SombraApp
from sombra_tui.engine import SombraError, machine, storage
from sombra_tui.engine import frozen as frozen_module
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import ActionKind, OppositionMode
from sombra_tui.engine.state import CombatState, Step, StepStatus
from sombra_tui.screens.dialogs import DeclarationEditor
from sombra_tui.screens.dialogs.action_form import ActionForm
from sombra_tui.session import Session
from sombra_tui.textual_compat import compositor_refreshes
from sombra_tui.widgets import resolution_log
from sombra_tui.widgets.declaration_queue import (
    DeclarationQueue,
    current_line,
    queue_lines,
    wrapped_height,
)
from sombra_tui.widgets.initiative_table import (
    InitiativeTable,
    acting_now,
    active_extended,
    row_for,
)
from sombra_tui.widgets.resolution_log import ResolutionLog
from tests import builders

ENCOUNTER = builders.build_encounter(24)
HISTORY = builders.build_history(ENCOUNTER, 900)


# --------------------------------------------------------------------------- engine


def test_trusted_records_equal_validated_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    fast = Combat(ENCOUNTER, HISTORY)
    monkeypatch.setattr(frozen_module, "VALIDATE_TRUSTED", True)
    checked = Combat(ENCOUNTER, HISTORY)
    assert fast.state == checked.state and fast.log == checked.log
    for key, declaration in checked.state.declarations.items():
        other = fast.state.declarations[key]
        assert other.model_fields_set == declaration.model_fields_set
        assert other.model_dump() == declaration.model_dump()


def plain_current_group(state: CombatState) -> list[Step]:
    pending = [step for step in state.steps if step.status is StepStatus.PENDING]
    return [step for step in pending if step.group == pending[0].group] if pending else []


def plain_next_declarer(state: CombatState) -> str | None:
    return next((name for name in state.declaration_order
                 if name not in state.current and name not in state.out
                 and any(ch.name == name for ch in state.characters)), None)


def check_queries(state: CombatState) -> None:
    group = plain_current_group(state)
    assert state.current_group() == group
    assert state.pending_steps() == [s for s in state.steps if s.status is StepStatus.PENDING]
    # P4 (issue 10): the acting group is in progress once a member has made its TA;
    # members skipped by a mark do not count.
    in_progress = bool(group) and any(
        s.group == group[0].group and s.status is StepStatus.DONE for s in state.steps)
    assert state.group_in_progress() == in_progress
    for number in {step.group for step in state.steps}:
        assert state.group_pending(number) == any(
            s.group == number and s.status is StepStatus.PENDING for s in state.steps)
    assert state.next_declarer == plain_next_declarer(state)
    order = state.declaration_order
    for name in [*order, "nobody"]:
        assert state.declaration_position(name) == (order.index(name) if name in order
                                                    else None)
    for character in state.characters:
        assert state.character(character.name) is character
    assert state.character("nobody") is None


def test_cached_queries_match_plain_scans() -> None:
    state = machine.initial_state(ENCOUNTER)
    for index, command in enumerate(HISTORY):
        machine.apply(state, command)
        check_queries(state)
        if index % 50 == 0:  # a clone starts with empty caches and must agree too
            check_queries(state.clone())


def test_clone_is_independent() -> None:
    combat = Combat(ENCOUNTER, HISTORY[:400])
    copy = combat.state.clone()
    assert copy == combat.state
    for command in HISTORY[400:600]:
        machine.apply(copy, command)
    assert combat.state == Combat(ENCOUNTER, HISTORY[:400]).state


def test_load_reads_current_files_in_one_pass_and_others_as_before() -> None:
    combat = Combat(ENCOUNTER, HISTORY[:300])
    text = storage.dumps(combat)
    save, problem = storage._read_current(text)
    assert save is not None and problem is None  # the one-pass read is the usual one
    assert save == storage._read(text, "x", None)[0]  # the general path reads it alike
    loaded = storage.loads(text)
    assert loaded.state == combat.state and loaded.commands == combat.commands

    data = json.loads(text)
    data["encounter"]["characters"][0]["primaria"] = str(
        data["encounter"]["characters"][0]["primaria"])  # "8" for 8: refused (issue 9)
    loose = json.dumps(data)
    save, problem = storage._read_current(loose)
    assert save is None and problem is not None
    with pytest.raises(SombraError, match=r"encounter\.characters\.0\.primaria"):
        storage.loads(loose)
    for key in ("format", "format_version"):
        data = json.loads(text)
        del data[key]
        assert storage._read_current(json.dumps(data))[0] is None


# --------------------------------------------------------------------------- panels


@pytest.fixture
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(config.CONFIG_DIR_ENV, str(tmp_path / "config"))
    monkeypatch.setenv(config.DATA_DIR_ENV, str(tmp_path / "data"))


def rendered(table: InitiativeTable) -> list[list[tuple[str, Any]]]:
    lines = [table.render_line(y) for y in range(table.scrollable_content_region.height)]
    return [[(segment.text, segment.style) for segment in line] for line in lines]


def redrawn(table: InitiativeTable) -> list[list[tuple[str, Any]]]:
    """What the table shows when every row is rendered from scratch."""
    table._strips.clear()
    return rendered(table)


async def play_table(commands: int) -> list[tuple[Any, ...]]:
    """Column widths, cells and cursor of the table after each command of the history."""
    combat = Combat(ENCOUNTER, HISTORY[:300])
    app = SombraApp(Session(combat), remember_theme=False, cursor_blink=False,
                    prepare_dialogs=False,
                    journal=False)
    seen = []
    async with app.run_test(size=(80, 24)) as pilot:  # small: the table scrolls
        await pilot.pause()
        table = app.main_screen.query_one(InitiativeTable)
        repaints: list[int] = []
        painted: list[set[int]] = []
        refresh = table.refresh

        def counting(*regions: Region, **kwargs: Any) -> Any:
            # Each new line once: Textual repaints the union of the regions asked for
            # (a changed row that is also the cursor's is asked for twice).
            lines = {y for region in regions for y in range(region.y, region.bottom)}
            new = lines - set().union(*(seen_lines for seen_lines in painted))
            painted.append(lines)
            repaints.append(len(new) if regions else -1)
            return refresh(*regions, **kwargs)

        table.refresh = counting  # type: ignore[method-assign]
        for command in HISTORY[300:300 + commands]:
            repaints.clear()
            painted.clear()
            assert app.main_screen.run_command(command) is not None
            await pilot.pause()
            state = combat.state
            active = active_extended(state)
            for name in table._order:  # the cells hold what row_for makes now
                assert table.get_row(name) == row_for(state, name, table._acting,
                                                      table.palette, active)
            shown = rendered(table)
            assert shown == redrawn(table)  # nothing stale is kept
            now = acting_now(state)
            if now:  # the cursor is on whoever acts, in view
                assert table.selected_name in now
                top = round(table.scroll_y)
                first, _height = table._row_lines(table.cursor_row)  # a row may wrap
                assert top <= first < top + table._shown_rows
            seen.append((table._widths, [table.get_row(name) for name in table._order],
                         table.cursor_row, list(repaints)))
    return seen


@pytest.mark.usefixtures("private_dirs")
async def test_table_repaints_only_changed_rows_and_shows_the_state() -> None:
    """After each command the table holds row_for of every character, renders what a
    table drawn from scratch renders, keeps the cursor on whoever acts and in view,
    and most commands repaint a few lines rather than the whole table."""
    seen = await play_table(120)
    # -1 is a refresh of everything; 8 lines or more is about the whole view (a scroll,
    # or a row that grew or lost a line, which moves the rows under it).
    whole = [repaints for *_, repaints in seen if -1 in repaints or sum(repaints) >= 8]
    lines = [repaints for *_, repaints in seen if repaints not in whole]
    # At 80x24 only 8 lines are in view, so the acting character often scrolls out of
    # it (a reactor far from the declarer); the rest repaint a few lines each.
    assert len(lines) >= len(seen) // 3 and lines
    assert all(sum(repaints) <= 6 for repaints in lines)


@pytest.mark.usefixtures("private_dirs")
async def test_long_log_shows_its_tail_then_older_pages(monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    monkeypatch.setattr(resolution_log, "TAIL", 30)
    monkeypatch.setattr(resolution_log, "PAGE", 40)
    combat = Combat(ENCOUNTER, HISTORY[:200])
    events = combat.log
    assert len(events) > 120
    app = SombraApp(Session(combat), remember_theme=False, cursor_blink=False,
                    prepare_dialogs=False,
                    journal=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        log = app.main_screen.query_one(ResolutionLog)
        assert log._first == len(events) - 30
        assert log.scroll_y == log.max_scroll_y > 0  # the first screen shows the newest
        pages = 0
        while log._first > 0:
            bottom = log.lines[-1]
            log.scroll_home(animate=False, immediate=True)
            await pilot.pause()
            pages += 1
            assert log.lines[-1] is bottom and log.scroll_y > 0  # the view did not jump
            assert pages < 10
        assert pages == -(-(len(events) - 30) // 40)
        incremental = [line.text for line in log.lines]
        log.clear()
        log._write_quietly(events)  # every event rendered in one go
        assert [line.text for line in log.lines] == incremental


def log_rewritten(log: ResolutionLog, events: list[Any]) -> list[str]:
    """The lines a log shows for `events` from its oldest rendered event, written anew."""
    lines, size, scroll = log.lines, log.virtual_size, log.scroll_y
    log.lines = []
    log._write_quietly(events[log._first:])
    text = [line.text for line in log.lines]
    log.lines = lines
    log.virtual_size = size  # the log sizes its scrollbar and scroll range at once
    log.scroll_y = scroll
    return text


@pytest.mark.usefixtures("private_dirs")
async def test_undo_drops_the_log_lines_of_what_it_undid(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    """Issue 24: undo removes the lines of the events it undid instead of rewriting the
    log (which made an undo cost twice a command); the log then shows exactly what a
    rewrite shows, across undos, redos, new commands and older pages scrolled in."""
    monkeypatch.setattr(resolution_log, "TAIL", 30)
    monkeypatch.setattr(resolution_log, "PAGE", 40)
    session = Session(Combat(ENCOUNTER, HISTORY[:200]))
    app = SombraApp(session, remember_theme=False, cursor_blink=False, journal=False,
                    prepare_dialogs=False)
    clears: list[int] = []
    clear = ResolutionLog.clear

    def counted(self: ResolutionLog) -> ResolutionLog:
        clears.append(1)
        return clear(self)

    monkeypatch.setattr(ResolutionLog, "clear", counted)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        main = app.main_screen
        log = main.query_one(ResolutionLog)
        clears.clear()
        for steps in (("undo",) * 5, ("redo",) * 3, ("undo",) * 12, ("redo",) * 14):
            for step in steps:
                getattr(main, f"action_{step}")()
                await pilot.pause()
                events = session.combat.log
                assert log._shown == events
                assert [line.text for line in log.lines] == log_rewritten(log, events)
                assert log.scroll_y == log.max_scroll_y  # the newest line in view
        log.scroll_home(animate=False, immediate=True)  # an older page comes in
        await pilot.pause()
        assert log._first < len(session.combat.log) - 30
        for _ in range(6):
            main.action_undo()
            await pilot.pause()
            assert [line.text for line in log.lines] == log_rewritten(log, session.combat.log)
        main.run_command(HISTORY[194])  # a new branch: the lines follow
        await pilot.pause()
        assert [line.text for line in log.lines] == log_rewritten(log, session.combat.log)
        assert clears == []  # never rewritten


@pytest.mark.parametrize("size", [(120, 40), (80, 24)], ids=["120x40", "80x24"])
@pytest.mark.usefixtures("private_dirs")
async def test_queue_repaints_only_what_changed(monkeypatch: pytest.MonkeyPatch,
                                                size: tuple[int, int]) -> None:
    """The queue skips a command that leaves it as it was, keeps its size whatever it
    shows (its lines scroll inside it), shows what a fresh panel shows, and keeps the
    part the DJ acts on now (the top prompt, the step acting now) in view."""
    combat = Combat(ENCOUNTER, HISTORY[:300])
    app = SombraApp(Session(combat), remember_theme=False, cursor_blink=False,
                    prepare_dialogs=False,
                    journal=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        queue = app.main_screen.query_one(DeclarationQueue)
        repaints: list[int] = []
        refresh = DeclarationQueue.refresh

        def counting(self: DeclarationQueue, *args: Any, **kwargs: Any) -> Any:
            repaints.append(1)
            return refresh(self, *args, **kwargs)

        monkeypatch.setattr(DeclarationQueue, "refresh", counting)
        table = app.main_screen.query_one(InitiativeTable)
        queue.show_state(combat.state, table.selected_name)
        assert repaints == []  # nothing changed: not even a repaint
        panel_size = queue.size
        scrolled = False
        for command in HISTORY[300:380]:
            assert app.main_screen.run_command(command) is not None
            await pilot.pause()
            # The panel shows the table's selected character's whole declaration too.
            fresh = queue_lines(combat.state, queue.palette, table.selected_name,
                                fit=queue.fit())
            assert [(line.plain, str(line.style), line.spans) for line in fresh] == \
                queue._shown
            width, room = queue.fit()
            assert queue.size == panel_size  # issue 24: no layout for new lines
            assert queue.virtual_size.height == wrapped_height(fresh, width)
            first, height = current_line(fresh, width)
            top = round(queue.scroll_y)
            # The hint (the key to press) is pinned on the first lines; the part acted on
            # scrolls into view beneath it, its top first if it is taller than what is left.
            pinned = min(wrapped_height(fresh[:1], width), room)
            shown = queue.render_line(0).text
            assert fresh[0].plain.startswith(shown.strip()[:10])  # the hint on top
            assert first < pinned or (top + pinned <= first and  # no part marked: the hint
                                      first + min(height, room - pinned) <= top + room)
            scrolled = scrolled or top > 0
        if size == (80, 24):
            assert scrolled  # a small panel scrolled to what the DJ acts on


@pytest.mark.usefixtures("private_dirs")
async def test_declaration_dialog_builds_extended_and_opposition_fields_on_demand() -> None:
    combat = Combat(ENCOUNTER)
    combat.execute(combat.start_command())
    app = SombraApp(Session(combat), remember_theme=False, cursor_blink=False,
                    prepare_dialogs=False,
                    journal=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, DeclarationEditor)
        assert not dialog.query("#a0-duration") and not dialog.query("#a0-against")
        assert not dialog.query(".field-error")  # error lines come with the first error
        form = dialog.query_one(ActionForm)
        dialog.query_one("#a0-kind", Select).value = ActionKind.EXTENDED
        dialog.query_one("#a0-opposition", Select).value = OppositionMode.DIRECT
        await pilot.pause()
        assert form.has_class("-extended", "-opposed")
        assert dialog.query_one("#a0-duration", Input).value == "2"
        assert dialog.query_one("#a0-against", SelectionList).display
        dialog.query_one("#a0-kind", Select).value = ActionKind.ROUND  # hidden, kept
        await pilot.pause()
        assert not form.has_class("-extended") and dialog.query("#a0-duration")


async def after_refreshes(screen: Any, count: int = 4) -> None:
    """Wait for `count` of the screen's own refresh cycles (its update timer, as when
    the DJ runs a command; Pilot's pause would force a frame of its own)."""
    for _i in range(count):
        done = asyncio.Event()
        screen.call_after_refresh(done.set)
        await asyncio.wait_for(done.wait(), 10)


def regions(screen: Any) -> dict[int, tuple[Region, bool, bool]]:
    """Where every widget of the screen is (a new widget is new), and which scrollbars
    it shows (one that comes or goes changes the room its content has)."""
    return {id(widget): (widget.region, widget.show_vertical_scrollbar,
                         widget.show_horizontal_scrollbar)
            for widget in screen.walk_children()}


class Counts(NamedTuple):
    """A command: the frames it drew, its layout passes, whether it changed the phase
    (or the asalto), and whether it resized or moved no widget."""

    frames: int
    layouts: int
    phase_changed: bool
    steady: bool


async def frames_of_commands(monkeypatch: pytest.MonkeyPatch, size: tuple[int, int],
                             commands: int = 70) -> list[Counts]:
    """Play the demo's size of encounter (6 characters) for `commands` commands at
    `size`, counting the frames and layout passes of the screen each command brings."""
    encounter = builders.build_encounter(6)
    history = builders.build_history(encounter, commands)
    combat = Combat(encounter, history[:10])
    app = SombraApp(Session(combat), remember_theme=False, cursor_blink=False,
                    prepare_dialogs=False,
                    journal=False)
    frames: list[int] = []
    layouts: list[int] = []
    refresh_layout = Screen._refresh_layout  # Textual's one layout pass of a screen

    def counted(screen: Screen[Any], *args: Any, **kwargs: Any) -> None:
        layouts.append(1)
        refresh_layout(screen, *args, **kwargs)

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    seen: list[Counts] = []
    with compositor_refreshes(lambda screen: frames.append(1)):
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            main = app.main_screen
            await after_refreshes(main)
            for command in history[10:]:
                before = regions(main)
                phase = (combat.state.phase, combat.state.round)
                frames.clear()
                layouts.clear()
                assert main.run_command(command) is not None
                await after_refreshes(main)
                seen.append(Counts(len(frames), len(layouts),
                                   phase != (combat.state.phase, combat.state.round),
                                   regions(main) == before))
    return seen


@pytest.mark.usefixtures("private_dirs")
async def test_a_command_that_resizes_nothing_is_one_frame_without_layout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: at the demo's size (6 characters, 120x40 as the benchmark), a command
    that changes no widget's size or place repaints what changed in one frame, with no
    layout pass of the screen. The triggers were the log's growth and the table's rows
    (their virtual size), the queue's lines (its height), the phase in the header's
    title, the footer's keys, and the second layout pass each of them brought."""
    seen = await frames_of_commands(monkeypatch, (120, 40))
    steady = [(counts.frames, counts.layouts) for counts in seen if counts.steady]
    assert steady == [(1, 0)] * len(steady)  # (frames, layout passes) of each
    assert len(steady) >= 50  # nearly every command at the table resizes nothing


@pytest.mark.usefixtures("private_dirs")
async def test_a_phase_change_is_one_frame_without_layout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: a new phase or asalto offers other keys; Textual's footer built its
    keys anew (a widget each): a layout pass and four frames. The footer's keys are now
    one line repainted in the command's frame."""
    seen = await frames_of_commands(monkeypatch, (120, 40))
    phases = [counts for counts in seen if counts.phase_changed]
    assert len(phases) >= 10
    assert all(counts.steady for counts in phases)  # the footer keeps its widgets
    assert [(counts.frames, counts.layouts) for counts in phases] == [(1, 0)] * len(phases)


@pytest.mark.usefixtures("private_dirs")
async def test_at_80x24_a_command_is_one_frame_without_layout(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 24: at 80x24 the queue outgrew its small panel and its height followed its
    lines (a layout pass after most commands); it now scrolls inside the panel. What
    is left resizing is the table's scrollbar, coming or going with a wrapped row."""
    seen = await frames_of_commands(monkeypatch, (80, 24))
    steady = [(counts.frames, counts.layouts) for counts in seen if counts.steady]
    assert steady == [(1, 0)] * len(steady)
    assert len(steady) >= 50
