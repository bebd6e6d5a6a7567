"""Dialogs built once and shown again, refilled for each use (issue 13).

Building a dialog is mostly Textual's work: styling, laying out and painting some
seventy widgets costs about 200 ms of CPU on a slow laptop, a wait the DJ has at every
declaration. A dialog that is only refilled and shown again opens in about a frame.

The shelf keeps one dialog per key. Taking a dialog refills the kept one when it can
(`refill` returns False when the dialog's shape no longer fits, e.g. the DJ added
actions to it) and builds a new one otherwise. The kept dialogs are dropped when the
theme or the language changes, as they were styled and worded for the old ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from textual.app import App

from sombra_tui.engine import i18n
from sombra_tui.screens.dialogs.base import Dialog

DialogT = TypeVar("DialogT", bound=Dialog[Any])


class DialogShelf:
    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self._kept: dict[str, Dialog[Any]] = {}
        self._looks: tuple[str, str] | None = None

    def take(self, key: str, make: Callable[[], DialogT],
             refill: Callable[[DialogT], bool]) -> DialogT:
        """The dialog for `key`: the kept one refilled, or a new one (then kept)."""
        looks = (self.app.theme, i18n.language())
        if looks != self._looks:
            self.clear()
            self._looks = looks
        kept = self._kept.get(key)
        if kept is not None and not self._in_use(kept):
            with kept.quietly():
                kept.prepare_refill()
                if refill(kept):  # type: ignore[arg-type]
                    return kept  # type: ignore[return-value]
            self._drop(key)
        elif kept is not None:  # still on the stack (cannot happen from the main screen)
            return make()
        dialog = make()
        self.app.install_screen(dialog, self._name(key))
        self._kept[key] = dialog
        return dialog

    def clear(self) -> None:
        for key in list(self._kept):
            if not self._in_use(self._kept[key]):
                self._drop(key)

    def _in_use(self, dialog: Dialog[Any]) -> bool:
        return dialog in self.app.screen_stack

    def _drop(self, key: str) -> None:
        dialog = self._kept.pop(key)
        self.app.uninstall_screen(self._name(key))
        if dialog.is_running:
            dialog.remove()

    @staticmethod
    def _name(key: str) -> str:
        return f"shelf-{key}"
