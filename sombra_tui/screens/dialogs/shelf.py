"""The round's dialogs, built once and shown again, each time filled by the same code.

Building a dialog is mostly Textual's work: styling, laying out and painting some
seventy to a hundred widgets costs about 200-300 ms of CPU, a wait the DJ would have at
every declaration. So the round's dialogs (declaration, reacción, TA, hit proposal) are
`ShelfDialog`s, built in two parts:

* `compose` builds the widgets of the dialog's *shape* only (which side rolls the dice,
  a tipo IV hit's extra field): nothing in it depends on the character, the step or the
  state;
* `show` writes everything that does (titles, values, options, the focus), from the use
  given by `fill`. It runs when the dialog is mounted and again each time it is handed
  out: a dialog shown again is produced by the same code as a new one.

The shelf keeps one dialog per key (the shape). `prepare` builds one while the app is
idle, before the DJ asks for it (filled for the use the next step would give it, if
any, so that its first showing lays out and draws no more than a refill does); `take`
hands out the kept one, filled for this use, and
builds a new one only when the kept one cannot take it (the DJ added actions to it) or
is on the screen. The kept dialogs are dropped when the theme or the language changes,
as they were styled and worded for the old ones.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

from textual.app import App
from textual.containers import VerticalScroll
from textual.widgets import Checkbox, Input, Select, SelectionList

from sombra_tui.engine import i18n
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.summary import ResultT
from sombra_tui.textual_compat import mount_screen_unshown


class ShelfDialog(Dialog[ResultT]):
    """A dialog composed by shape and filled by `show` for each use (module docstring)."""

    #: Whether `fill` gave it a use (a dialog prepared while the app was idle has none).
    used = False
    SUMMARY = True  # the round's forms say what Enter sends (issue 35, D2)

    #: `show` gives the focus. Textual's own first focus (at compose) would go to the
    #: first focusable widget, and taking it away from a scrolling form restyles all of
    #: it: the first opening would cost twice a later one.
    AUTO_FOCUS = ""

    def show(self) -> None:
        """Write everything that depends on the use into the widgets, and the focus."""
        raise NotImplementedError

    def prepare_reuse(self) -> None:
        """Before the shelf fills it again: the dialog as it opens, no error, no open list.
        Called inside `quietly()`, so that nothing it sets counts as the DJ's."""
        self.clear_errors()
        for select in self.walk_children(Select):
            select.expanded = False
        for scroll in self.walk_children(VerticalScroll):
            scroll.scroll_home(animate=False)
        self._early_keys = []
        # One still being prepared (not mounted) holds the keys until it is, as a new one.
        self._opened = self.is_mounted
        self._styled = True
        self._fit_width(self.app.size.width)

    def quietly(self) -> contextlib.AbstractContextManager[None]:
        """No change message while filling: they would read as the DJ's own edits."""
        return self.prevent(Input.Changed, Select.Changed, SelectionList.SelectedChanged,
                            SelectionList.SelectionToggled, Checkbox.Changed)

    def show_quietly(self) -> None:
        """`show`, with no change message: they would read as the DJ's own edits."""
        with self.quietly():
            self.show()
        self.mark_pristine()
        self.summary_soon()

    def shown_if_mounted(self) -> None:
        """After `fill` took a use: written now if the widgets exist, else on mount."""
        self.used = True
        if self.is_mounted:
            self.show_quietly()

    #: The shelf dropped it while it was being composed: removed once mounted (one
    #: removed while it composes is left half-built, and its widgets' Mount handlers,
    #: which Textual still runs, find none of their parts).
    dropped = False

    def on_mount(self) -> None:
        # Runs before Dialog's own on_mount (Textual calls a message's handlers from the
        # subclass up), which hands on the keys typed while it opened once it has a focus.
        # Textual runs it once every widget of the dialog is composed and mounted: the
        # use given by a `fill` before that (prepared, or taken while being prepared) is
        # written now. (The app does not stop while a dialog is composed: app.py.)
        if self.dropped:
            self.call_next(self.remove)
        elif self.used:
            self.show_quietly()


ShelvedT = TypeVar("ShelvedT", bound=ShelfDialog[Any])


class DialogShelf:
    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self._kept: dict[str, ShelfDialog[Any]] = {}
        self._looks: tuple[str, str] | None = None

    def take(self, key: str, make: Callable[[], ShelvedT],
             fill: Callable[[ShelvedT], bool]) -> ShelvedT:
        """The dialog for `key`, filled for this use: the kept one, or a new one (then
        kept). `make` builds a new one of the key's shape; `fill` gives it its use and
        returns False when the dialog cannot take it."""
        self._check_looks()
        kept = self._kept.get(key)
        if kept is not None and not self._in_use(kept):
            with kept.quietly():
                kept.prepare_reuse()
                if fill(kept):  # type: ignore[arg-type]
                    return kept  # type: ignore[return-value]
            self._drop(key)
        elif kept is not None:  # still on the stack (cannot happen from the main screen)
            return self._filled(make(), fill)
        dialog = self._filled(make(), fill)
        self.app.install_screen(dialog, self._name(key))
        self._kept[key] = dialog
        return dialog

    def prepare(self, key: str, make: Callable[[], ShelvedT],
                fill: Callable[[ShelvedT], bool] | None = None) -> bool:
        """Build the dialog for `key` now, unshown, if none is kept: its first opening is
        then as quick as a later one. With `fill`, the use the app expects next, written
        before the dialog is laid out (`take` fills it again, by the same code, when it
        is asked for). Returns whether it built one."""
        self._check_looks()
        if key in self._kept or getattr(self.app, "stopping", False):
            return False  # none built once the app is stopping (app.py)
        dialog = make()
        if fill is not None:
            fill(dialog)
        self.app.install_screen(dialog, self._name(key))
        self._kept[key] = dialog
        mount_screen_unshown(self.app, dialog)
        return True

    def refill(self, key: str, fill: Callable[[ShelvedT], bool]) -> ShelvedT | None:
        """Fill the kept dialog for `key`, unshown, for the use the app expects next
        (`take` fills it again, by the same code, when it is asked for): the kept
        dialog, or None when none is kept and mounted, it is on the screen, or it
        cannot take the use (`take` builds a new one then)."""
        self._check_looks()
        kept = self._kept.get(key)
        if kept is None or not kept.is_mounted or self._in_use(kept):
            return None
        with kept.quietly():
            kept.prepare_reuse()
            if fill(kept):  # type: ignore[arg-type]
                return kept  # type: ignore[return-value]
        return None

    def kept(self, key: str) -> ShelfDialog[Any] | None:
        return self._kept.get(key)

    def clear(self) -> None:
        for key in list(self._kept):
            if not self._in_use(self._kept[key]):
                self._drop(key)

    @staticmethod
    def _filled(dialog: ShelvedT, fill: Callable[[ShelvedT], bool]) -> ShelvedT:
        if not fill(dialog):
            raise ValueError(f"{dialog!r} was made for another shape than its use")
        return dialog

    def _check_looks(self) -> None:
        looks = (self.app.theme, i18n.language())
        if looks != self._looks:
            self.clear()
            self._looks = looks

    def _in_use(self, dialog: ShelfDialog[Any]) -> bool:
        return dialog in self.app.screen_stack

    def _drop(self, key: str) -> None:
        dialog = self._kept.pop(key)
        self.app.uninstall_screen(self._name(key))
        if dialog.is_mounted:
            dialog.remove()
        else:  # being composed (or never shown): removed once mounted, if ever
            dialog.dropped = True

    @staticmethod
    def _name(key: str) -> str:
        return f"shelf-{key}"
