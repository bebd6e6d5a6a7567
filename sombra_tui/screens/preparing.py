"""The round's dialogs built while the DJ reads the screen (issue 21): one at a time,
unshown, after the first screen, then repainted unshown until nothing is left; and,
after each command, the kept dialog the next step opens refilled for that use and
repainted unshown, so that it opens at the key as quickly as the same one again.
`Preparing` is the round dialogs' keeper's (screens/round_dialogs.py) part for this.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from sombra_tui.textual_compat import repaint_unshown

if TYPE_CHECKING:
    from textual.screen import Screen
    from textual.timer import Timer

    from sombra_tui.screens.dialogs.shelf import DialogShelf

#: The round's dialogs are built unshown this long after the first screen, one every
#: PREPARE_EVERY seconds (each is a few hundred ms of CPU: keys typed meanwhile wait).
PREPARE_AFTER = 0.5
PREPARE_EVERY = 0.3
#: Turns at most (every REPAINT_EVERY seconds), once the dialogs are built, until each
#: has nothing left to repaint.
SETTLE_TURNS = 10
#: Seconds after a command before the kept dialog its next step opens is filled for
#: that use, unshown (the next declarer's, say: its lists of names change), and then
#: every REPAINT_EVERY seconds repainted unshown until nothing is left.
REFILL_AFTER = 0.05
REPAINT_EVERY = 0.02


class Keeper(Protocol):
    """What Preparing needs of the round dialogs' keeper (RoundDialogs)."""

    @property
    def screen(self) -> Any: ...
    @property
    def shelf(self) -> DialogShelf: ...
    def key(self, kind: str, shape: bool = False) -> tuple[str, Callable[[], Any]]: ...
    def shapes(self) -> list[tuple[str, bool]]: ...
    def use_now(self) -> tuple[str, Callable[[], Any], Callable[[Any], bool]] | None: ...
    def on_top(self) -> bool: ...


class Preparing:
    """Builds the round's dialogs ahead and refills the next one (module docstring)."""

    def __init__(self, dialogs: Keeper) -> None:
        self.dialogs = dialogs
        #: Whether the preparing's last turn ran (prepare_soon starts it again).
        self.prepared = False
        #: Turns run since every dialog was built, to repaint them unshown.
        self._settling = 0
        #: The timer of the next refill (a command's replaces the one before).
        self.refill_timer: Timer | None = None

    def all_prepared(self) -> bool:
        """Whether every dialog of `shapes` is built, mounted and repainted unshown."""
        dialogs = self.dialogs
        kept = [dialogs.shelf.kept(dialogs.key(*shape)[0]) for shape in dialogs.shapes()]
        return self.prepared and all(dialog is not None and dialog.is_mounted
                                     for dialog in kept)

    def prepare_soon(self) -> None:
        """Build the round's dialogs unshown, one at a time, while the DJ reads the
        screen: each then opens the first time as fast as it opens again."""
        screen = self.dialogs.screen
        if getattr(screen.app, "prepare_dialogs", False) and screen.is_mounted:
            self.prepared = False
            screen.set_timer(PREPARE_AFTER, self._prepare_next)

    def _prepare_next(self) -> None:
        screen = self.dialogs.screen
        if getattr(screen.app, "stopping", False):  # nothing more is built (app.py)
            return
        # The dialog the next step opens is filled for that use before it is laid out:
        # its first opening then lays out and draws only what a refill changes.
        use = self.dialogs.use_now()
        shapes = [self.dialogs.key(kind, shape) for kind, shape in self.dialogs.shapes()]
        # What the dialogs built before asked to repaint once laid out (their widgets'
        # sizes, the contents written) is repainted now, unshown, not at their first
        # showing, where it cost what a new dialog's first frame does.
        settled = [repaint_unshown(kept) for key, _make in shapes
                   if (kept := self.dialogs.shelf.kept(key)) is not None]
        for key, make in shapes:
            fill = use[2] if use is not None and use[0] == key else None
            if self.dialogs.shelf.prepare(key, make, fill):
                screen.set_timer(PREPARE_EVERY, self._prepare_next)
                return
        if not all(settled) and self._settling < SETTLE_TURNS:
            # A repaint is a few ms, not a build: the next turn comes as soon as the
            # widgets' own turns have asked for theirs (a key waits at most that long).
            self._settling += 1
            screen.set_timer(REPAINT_EVERY, self._prepare_next)
            return
        self._settling = 0
        self.prepared = True
        # All built: Python's full collection, due after so many new lasting objects,
        # runs now, while the DJ reads the screen, not inside the first opening of a
        # dialog (100-350 ms at 200 characters, seen in the benchmark).
        gc.collect()

    def refill_soon(self) -> None:
        """Once the round's dialogs are prepared: shortly after a command, the kept
        dialog the next step opens is filled for that use and repainted, unshown, while
        the DJ reads the screen, as the first one was prepared (issue 21). The next
        declarer's dialog then opens as quickly as the same one again: what changed
        (two lists of some 200 names) is laid out and drawn before the key. At the key
        it is filled again, by the same code, for the state then."""
        if not (self.prepared and self.dialogs.screen.is_mounted):
            return
        if self.refill_timer is not None:
            self.refill_timer.stop()
        self.refill_timer = self.dialogs.screen.set_timer(REFILL_AFTER, self._refill_next)

    def _refill_next(self) -> None:
        self.refill_timer = None
        if not self.dialogs.on_top():  # a dialog is open: the DJ is not reading
            return
        use = self.dialogs.use_now()
        dialog = self.dialogs.shelf.refill(use[0], use[2]) if use is not None else None
        if dialog is not None:
            # Once its widgets have asked for what the fill changed (their own turns).
            self.dialogs.screen.set_timer(
                REPAINT_EVERY, lambda: self._repaint_unshown(dialog, SETTLE_TURNS))

    def _repaint_unshown(self, dialog: Screen[Any], turns: int, quiet: int = 0) -> None:
        """Repaint `dialog` unshown until it had nothing left twice in a row (a layout
        asks for repaints in its widgets' next turns), at most `turns` times."""
        quiet = quiet + 1 if repaint_unshown(dialog) else 0
        if quiet < 2 and turns:
            self.dialogs.screen.set_timer(
                REPAINT_EVERY, lambda: self._repaint_unshown(dialog, turns - 1, quiet))
