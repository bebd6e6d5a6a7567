"""Every use of Textual's private names, in one place (checked against textual 8.2.8).

The rest of sombra-tui uses Textual's public API only (tests/test_architecture.py
checks it). What is here has no public equivalent in Textual 8; each entry says why
it is needed and what to look at when Textual changes (README, "Textual versions").
A new major version of Textual may rename or drop any of these: the tests named with
each one fail then.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from rich.console import RenderableType
from textual import events
from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.keys import _character_to_key
from textual.screen import Screen
from textual.scroll_view import ScrollView
from textual.visual import VisualType
from textual.widget import AwaitMount, Widget
from textual.widgets import Footer, Header, RichLog, Select
from textual.widgets._footer import FooterKey
from textual.widgets._header import HeaderTitle
from textual.widgets._select import SelectCurrent, SelectOverlay

#: The textual version these were checked against.
CHECKED_AGAINST = "8.2.8"

__all__ = ["CHECKED_AGAINST", "FooterKey", "HoldsKeys", "SteadyHeader", "SteadyScrollbars",
           "StopsOnceComposed", "being_composed", "character_to_key", "composed",
           "compositor_refreshes", "footer_bindings_ready", "forward_key",
           "mount_screen_unshown", "repaint_unshown", "rich_log_has_size",
           "rich_log_holds_lines", "rich_log_lines_replaced", "rich_log_write_held_lines",
           "show_select_choice"]


# ---- keys (keys.py: keymaps in Textual's key names) -----------------------------------

def character_to_key(character: str) -> str:
    """Textual's name of a printable character ("?" -> "question_mark"). Textual has
    the public inverse (`key_to_character`) only. Tests: tests/app/test_keys.py."""
    return _character_to_key(character)


# ---- keys typed while a dialog opens (dialogs/base.py) ---------------------------------

class HoldsKeys:
    """A screen that may keep keys the app hands it before one of its widgets has the
    focus (`hold_key` says), to hand them on later with `forward_key`.

    Textual hands each key to the focused widget, or to the screen when none is; a
    dialog pushed from a key (every flow's first dialog) has no focused widget until
    it is composed and mounted, and the screen does not hand the keys it got on to the
    widget focused later: Textual drops them. Textual has no public hook between the
    app and the focused widget: this overrides `Screen._forward_event`.
    Tests: tests/app/test_at_the_table.py (a whole dialog's keys typed at once),
    tests/app/test_typing_after_keys.py.
    """

    def hold_key(self, key: events.Key) -> bool:  # overridden
        return False

    def _forward_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and self.hold_key(event):
            return
        super()._forward_event(event)  # type: ignore[misc]


def forward_key(target: Widget, key: events.Key) -> None:
    """Hand a held key to `target` as the app hands keys: before any key the app
    hands on after it (posting a new Key would send it back to the app)."""
    if isinstance(target, HoldsKeys) and isinstance(target, Screen):
        Screen._forward_event(target, key)  # past its own holding
    else:
        target._forward_event(key)


# ---- dialogs built before they are shown (dialogs/shelf.py) --------------------------

def mount_screen_unshown(app: App[Any], screen: Screen[Any]) -> None:
    """Mount `screen` (compose it, style its widgets, run its on_mount) without showing
    it: pushed later, it is only resumed, as a screen shown before and popped is.
    `App.push_screen` does exactly this registration (`App._register`) and then puts
    the screen on the stack; Textual has no public way to build a screen before it is
    shown (`install_screen` only names it). Used while the app is idle, so that the
    round's dialogs open at once the first time too (issue 21).
    Laid out and rendered unshown until nothing moves; `Compositor._dirty_regions` is
    then cleared, so that the first showing repaints what the use changed and then the
    whole screen (its resume, which draws the dimmed screen below), as a later showing
    does, not the whole screen twice. What its widgets ask to repaint after that is
    repainted by `repaint_unshown`.
    Tests: tests/app/test_dialog_shelf.py (a prepared dialog opens without composing
    again and looks as a new one; left with nothing to repaint)."""
    if not screen.is_running:
        app.call_next(AwaitMount(screen, app._register(app, screen)))
        # Laid out and rendered at the app's size too, once mounted: its widgets keep
        # their lines, so its first frame repaints only what the use changed. Nothing
        # shows (Textual draws only the current screen; `render_strips` only returns
        # the lines); a screen never shown ignores Resize events.
        screen.call_later(_lay_out_unshown, screen, app.size)


def _lay_out_unshown(screen: Screen[Any], size: Size) -> None:
    compositor = screen._compositor
    # Laid out and rendered until nothing moves (at most 4 passes): a pass may show a
    # scrollbar, which narrows what is inside it for the next one, and a list sizes its
    # options when it renders them, as Textual's next layouts would at the first showing.
    # The compositor notes what each pass moved (`Compositor._dirty_regions`).
    for _pass in range(4):
        compositor._dirty_regions.clear()
        screen._refresh_layout(size)
        moved = bool(compositor._dirty_regions)
        compositor.render_strips()
        if not moved:
            break
    # Nothing is left to repaint: the first showing repaints what the use changed and
    # then the whole screen (its resume), as a later showing does. Left dirty, the
    # whole screen was repainted twice at the first showing.
    compositor._dirty_regions.clear()


def repaint_unshown(screen: Screen[Any]) -> bool:
    """Repaint, unshown, what changed in `screen` since `mount_screen_unshown` laid it
    out: its widgets ask for their repaint after that (their size set, their content
    written), and a screen that is not shown keeps those requests for its first
    showing, where they cost what a new screen's first frame does; a layout asked for
    meanwhile (`Screen._layout_required`) is run first, unshown. As Textual repaints
    a shown screen (`Screen._dirty_widgets` handed to the compositor, then rendered),
    but only into the widgets' kept lines: nothing is drawn. Call it while the app is
    idle, after `mount_screen_unshown`, until it returns True: the screen is laid out
    and had nothing left to repaint (False: not laid out yet, or it repainted). Nothing
    is done to a screen on the stack (True). Checked against Textual 8.2.8.
    Tests: tests/app/test_dialog_shelf.py."""
    if screen in screen.app.screen_stack:
        return True
    if not screen.is_running or screen._compositor.root is None:
        return False  # not mounted or not laid out yet
    if screen._layout_required:  # asked for once laid out: laid out again
        screen._layout_required = False
        _lay_out_unshown(screen, screen.app.size)
        return False
    if not screen._dirty_widgets:
        return True
    compositor = screen._compositor
    compositor.update_widgets(screen._dirty_widgets)
    screen._dirty_widgets.clear()
    compositor.render_strips()
    compositor._dirty_regions.clear()
    return False


# ---- stopping while a screen is being composed (app.py, dialogs/shelf.py) --------------

def being_composed(screen: Screen[Any]) -> bool:
    """Whether `screen` is being composed: its task is started (or about to start) and
    its Mount not yet over (`is_mounted` turns True after the screen's Mount handlers,
    which Textual runs once every widget under it is composed and mounted).
    Tests: tests/app/test_dialog_shelf.py (the app stops while a dialog is prepared)."""
    task = screen._task
    return task is not None and not task.done() and not screen.is_mounted


async def composed(screen: Screen[Any]) -> None:
    """Once `screen` is composed and mounted (or its task ended another way)."""
    task = screen._task
    if task is None or task.done() or screen.is_mounted:
        return
    mounted: asyncio.Future[bool] = asyncio.ensure_future(screen._mounted_event.wait())
    try:
        await asyncio.wait({mounted, task}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        mounted.cancel()


AppResultT = TypeVar("AppResultT")


class StopsOnceComposed(App[AppResultT]):
    """An app that stops only once no screen is being composed (issue 41).

    Textual stops building a screen's widgets as soon as the app is asked to stop:
    `App.mount_all` mounts nothing once `App.exit` was called, a widget registered
    after `App._shutdown` began never runs, and one closed while it composes mounts no
    children. Yet it still runs the Mount handlers of the half-built screen and of its
    widgets, which find none of the children they count on: Select's own finds no
    label in its SelectCurrent ("No nodes match '#label' on SelectCurrent"), a dialog
    filled on mount finds none of its fields ("No nodes match '#mode' on
    ReactionDialog()"). The app builds the round's dialogs unshown while it is idle
    (dialogs/shelf.py), which takes a second or more in a large encounter on a loaded
    machine: a DJ who quit then met that crash.

    So `exit` (every way out, Textual's included) keeps the app running until every
    screen being composed is mounted, then exits; `_shutdown`, which `App.run_test`
    calls when a test leaves it (the benchmark's apps too), waits for them first in
    the same way. `stopping` tells the app to build nothing more meanwhile.
    Tests: tests/app/test_dialog_shelf.py (the app stops while a dialog is prepared).
    """

    #: True once the app was asked to stop: nothing more is built unshown.
    stopping = False

    def screens_composing(self) -> list[Screen[Any]]:
        """The screens being composed now (`being_composed`)."""
        return [node for node in list(self._registry)
                if isinstance(node, Screen) and being_composed(node)]

    async def all_composed(self) -> None:
        """Once no screen is being composed (one may start another: checked again)."""
        while composing := self.screens_composing():
            await composed(composing[0])

    def exit(self, result: AppResultT | None = None, return_code: int = 0,
             message: RenderableType | None = None) -> None:
        self.stopping = True
        if not self.screens_composing():
            super().exit(result, return_code, message)
            return

        async def once_composed() -> None:
            await self.all_composed()
            super(StopsOnceComposed, self).exit(result, return_code, message)

        self.run_worker(once_composed(), name="exit once composed", group="exit",
                        exclusive=True)

    async def _shutdown(self) -> None:
        self.stopping = True
        await self.all_composed()
        await super()._shutdown()


# ---- selects shown again (dialogs/base.py, refill_select) ------------------------------

def show_select_choice(select: Select[Any], prompt: str, index: int) -> None:
    """Show `prompt` as the select's choice and highlight option `index` in its list.
    Textual redraws the shown choice only when the value changes; a dialog shown again
    may keep the value worded anew. Tests: tests/app/test_dialog_shelf.py."""
    select.query_one(SelectCurrent).update(prompt)
    select.query_one(SelectOverlay).highlighted = index


# ---- the footer (widgets/footer.py) ----------------------------------------------------

def footer_bindings_ready(footer: Footer) -> bool:
    """Whether Textual's footer shows keys yet (it shows none until the screen's
    bindings are first ready); the footer skips rebuilding the same keys and must not
    skip that first build. Tests: tests/app/test_snapshots.py (every footer)."""
    return bool(footer._bindings_ready)


# ---- the header (screens/main.py) -----------------------------------------------------

class SteadyHeaderTitle(HeaderTitle):
    """Header's title line, repainted without a layout pass when the title changes.

    Header updates its HeaderTitle (a Static) when the screen's title or sub-title
    changes, and `Static.update` asks for a layout pass by default, although the
    title's size is the header's own (`width: 100%`, one line) whatever it says
    (issue 24: the phase in the sub-title changes with commands). The same title
    again (Header's own watcher, after SteadyHeader.show_title) is no repaint."""

    _shown: tuple[str, object] | None = None

    def update(self, content: VisualType = "", *, layout: bool = False) -> None:
        shown = (str(content), getattr(content, "spans", None))
        if shown != self._shown:
            self._shown = shown
            super().update(content, layout=False)


class SteadyHeader(Header):
    """Textual's Header with a SteadyHeaderTitle (the same CSS and looks: Header finds
    it as its HeaderTitle). HeaderTitle is not exported by Textual.
    Tests: tests/test_performance.py, tests/app/test_snapshots.py."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            yield SteadyHeaderTitle() if type(widget) is HeaderTitle else widget

    def show_title(self) -> None:
        """Show the screen's title now, in the frame of the command that changed it:
        Header's own watchers are async and land in a frame of their own."""
        for title in self.query(SteadyHeaderTitle):
            title.update(self.format_title())


# ---- the initiative table (widgets/initiative_table.py) --------------------------------

class SteadyScrollbars(ScrollView):
    """A ScrollView that skips its scrollbars' repaint when no size changed.

    Every layout pass of the screen (the log grows a line per command) calls
    `ScrollView._size_updated`, which repaints both scrollbars in a frame of their own
    even when nothing moved; Textual has no public hook there.
    Tests: tests/test_performance.py, tests/app/test_table.py."""

    _sizes: tuple[Size, ...] = ()

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size,
                      layout: bool = True) -> bool:
        key = (size, virtual_size, container_size, self.virtual_size)
        if key == self._sizes:
            return False
        self._sizes = key
        updated = super()._size_updated(size, virtual_size, container_size, layout=layout)
        self.sizes_changed()
        return updated

    def sizes_changed(self) -> None:
        """A size changed (the widget's, its content's or its container's): override."""


# ---- the log (widgets/resolution_log.py) -----------------------------------------------

def rich_log_has_size(log: RichLog) -> bool:
    """Whether RichLog writes lines at once (it holds them back until it has a size,
    and scrolls when it writes them then).
    Tests: tests/test_performance.py, tests/app/test_theme_palette.py."""
    return bool(log._size_known)


def rich_log_holds_lines(log: RichLog) -> bool:
    """Whether RichLog still holds lines back (written before it had a size).
    Tests: tests/app/test_theme_palette.py, tests/test_performance.py."""
    return bool(log._deferred_renders)


def rich_log_write_held_lines(log: RichLog) -> list[int]:
    """Once the log has a size: write the lines RichLog held back until then, one
    write at a time, and say how many lines each wrapped to (RichLog's own resize
    handler, which runs after, then finds none). The log drops an undone event's
    lines by these heights (issue 24).
    Tests: tests/app/test_theme_palette.py, tests/test_performance.py."""
    log._size_known = True
    deferred = log._deferred_renders
    heights: list[int] = []
    while deferred:
        before = len(log.lines)
        log.write(*deferred.popleft())
        heights.append(len(log.lines) - before)
    return heights


def rich_log_lines_replaced(log: RichLog) -> None:
    """After changing `RichLog.lines` in place (older lines put before the shown
    ones): drop its rendered lines and size it to the new lines. RichLog only appends
    (`write`) or clears.
    Tests: tests/test_performance.py, tests/app/test_theme_palette.py."""
    log._line_cache.clear()
    log.virtual_size = Size(log._widest_line_width, len(log.lines))


# ---- the benchmark (tests/tools/bench.py) --------------------------------------------

@contextlib.contextmanager
def compositor_refreshes(after: Callable[[Screen[Any]], None]) -> Iterator[None]:
    """Call `after(screen)` each time a screen has painted a frame (the benchmark
    times a command to its frame on screen): wraps `Screen._compositor_refresh`, the
    one place every frame goes through. Tests: tests/test_bench.py."""
    original = Screen._compositor_refresh

    def hooked(screen: Screen[Any]) -> None:
        original(screen)
        after(screen)

    Screen._compositor_refresh = hooked  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        Screen._compositor_refresh = original  # type: ignore[method-assign]
