"""The base of every modal dialog, and the one contract the dialogs keep (issue 21):

- A dialog returns its result through `dismiss`, to the callback given with its push
  (`push_screen(dialog, callback)`); nothing awaits a dialog. Escape returns None.
- Enter and the primary button run `submit`, written once here: the dialog's `build`
  makes the result from its fields (a FormError shows at its field), the engine's dry
  run (`check`, through `problem_with`) may refuse it (shown at its field, the dialog
  stays open with everything typed), and `finish` closes with it. A dialog writes
  `build`, and where it needs to `refused`, `accepted` or `problem_with`.
- The primary button submits and any other backs out, unless the dialog sets
  OWN_BUTTONS and handles its buttons itself. Form widgets: fields.py; parsers: parsing.py.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, ClassVar

from textual import events
from textual.await_complete import AwaitComplete
from textual.css.query import NoMatches
from textual.widget import Widget
from textual.widgets import Button, Input, Static

from sombra_tui import keys
from sombra_tui.engine import SombraError
from sombra_tui.screens.dialogs.fields import Field
from sombra_tui.screens.dialogs.keeping import KeepsTyping
from sombra_tui.screens.dialogs.parsing import FormError
from sombra_tui.screens.dialogs.summary import ResultT
from sombra_tui.screens.dialogs.whole_fields import scroll_to_field
from sombra_tui.textual_compat import HoldsKeys, forward_key

#: The engine's dry run of a command (the screen's `check`): why it would be refused, or None.
Check = Callable[[Any], SombraError | None]


class Dialog(HoldsKeys, KeepsTyping[ResultT]):
    """Base dialog: Escape backs out without changing anything.

    Nothing the DJ types is lost: keys that arrive while the dialog is opening (before
    its first field has the focus) are kept and handed to that field once it has it,
    in order; Tab moves the focus at once (a priority binding), so text typed right
    after it lands in the next field, not in the one being left.
    """

    # Enter confirms from text fields (Input.Submitted) and pick lists (PickList). It
    # is not a priority binding on purpose: that would overtake keys still queued for
    # a field (fast typing, paste) and submit the form before the text arrived.
    BINDINGS = keys.bindings(keys.Scope.DIALOG)

    DEFAULT_CSS = """
    Dialog { align: center middle; }
    Dialog > #dialog {
        width: 90; max-width: 95%; height: auto; max-height: 95%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    Dialog #dialog-title { text-style: bold; color: $accent; width: 1fr; }
    Dialog #form-error { color: $error; height: auto; }
    Dialog .buttons { height: auto; align-horizontal: right; margin-top: 1; }
    Dialog .buttons Button { margin-left: 1; min-width: 8; }
    Dialog .row { height: auto; }
    Dialog .row > * { width: 1fr; margin-right: 1; }
    Dialog .note { color: $text-muted; height: auto; }
    /* A narrow terminal (80x24): buttons two a row, one line high, none cut. */
    Dialog.-narrow .buttons {
        layout: grid; grid-size: 2; grid-gutter: 0 1; grid-rows: 1; height: auto;
        margin-top: 0;
    }
    Dialog.-narrow .buttons Button { width: 100%; margin-left: 0; }
    """

    #: Below this many columns the dialog packs its buttons (two a row, compact).
    NARROW_BELOW = 100

    def __init__(self) -> None:
        super().__init__()
        #: Keys that came before any field had the focus (the dialog still opening).
        self._early_keys: list[events.Key] = []
        self._opened = False
        #: Shown again after a refill (DialogShelf): its styles are already in force.
        self._styled = False

    def hold_key(self, key: events.Key) -> bool:
        if self._dropped is not None:  # a new question's keys typed ahead (keeping.py)
            self._dropped.append(key.character if key.is_printable and key.character
                                 else f"[{key.key}]")
            return True
        if self.focused is None and not self._opened:
            self._early_keys.append(key)  # handed on once a field has the focus
            return True
        return False

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True,
                  from_app_focus: bool = False) -> None:
        if self._dropped is not None and widget is not None:  # a new question (keeping.py)
            self.focus_after = widget
            return
        super().set_focus(widget, scroll_visible, from_app_focus)
        self._hand_on_early_keys()

    def _hand_on_early_keys(self) -> None:
        if not self._early_keys:
            return
        target: Widget | None = self.focused
        if target is None and not self._opened:
            return
        keys, self._early_keys = self._early_keys, []
        for key in keys:
            # In order, before any key the app forwards from now on (it now sees the focus).
            forward_key(target or self, key)

    def on_mount(self) -> None:
        # Runs after the subclass's on_mount (which asked for the focus). Once the first
        # screen is up, a dialog that focused nothing gets its keys itself.
        self.call_after_refresh(self._finish_opening)

    def on_resize(self, event: events.Resize) -> None:
        self._fit_width(event.size.width)

    def _fit_width(self, width: int) -> None:
        narrow = width < self.NARROW_BELOW
        self.set_class(narrow, "-narrow")
        for button in self.walk_children(Button):
            button.compact = narrow

    # ---- shown again (DialogShelf, dialogs/shelf.py) ----------------------------------

    #: Once laid out, the dialog scrolls its focused field to the centre (a dialog whose
    #: first field may be below the fold; it gives the focus without scrolling). New or
    #: shown again alike: Textual's own scroll on focus, asked before the first layout
    #: of a new dialog, lands elsewhere than the same scroll asked of a refilled one.
    CENTRE_FOCUSED = False

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # Runs before Screen's own handler (Textual calls a message's handlers from the
        # subclass up): a dialog shown again keeps its styles (the shelf drops it when
        # the theme or language changes), which saves restyling every widget in it.
        if self._styled:
            event.refresh_styles = False
        if self.CENTRE_FOCUSED:
            # After the refresh that lays the dialog out (the first one after the push
            # is the screen below's).
            self.centred = False
            self.call_after_refresh(self.call_after_refresh, self._centre_focused)

    #: False from the dialog's showing until its focused field is centred (CENTRE_FOCUSED):
    #: what a script that types into it as soon as it opens waits for (screenshots).
    centred = True

    def scroll_to_center(self, widget: Widget, animate: bool = True, **kwargs: Any) -> None:
        # Textual's scroll on focus (and _centre_focused): a field in a form comes into
        # view whole, no field above it cut to its box (whole_fields.py).
        if not scroll_to_field(widget):
            super().scroll_to_center(widget, animate, **kwargs)

    def _centre_focused(self) -> None:
        if self.focused is not None and self.is_active:
            self.scroll_to_center(self.focused, animate=False, origin_visible=True)
        self.centred = True

    def _finish_opening(self) -> None:
        self._opened = True
        self._hand_on_early_keys()

    def dismiss(self, result: ResultT | None = None) -> AwaitComplete:
        """Close with `result`, only if this dialog is the one on top. A key typed
        right after the Enter that closed it can still reach one of its fields (Textual
        hands keys on before the field has handled the Enter); a second close then
        would take away the screen below (the main screen)."""
        if not self.is_active:
            # Textual leaves AwaitComplete.nothing unannotated; it returns an AwaitComplete.
            return AwaitComplete.nothing()  # type: ignore[no-untyped-call,no-any-return]
        self.drop_draft()  # closed: nothing left to bring back (keeping.py)
        return super().dismiss(result)

    #: Where this dialog's results go: the callback the screen gave when it pushed it.
    results_to: Callable[[ResultT | None], object] | None = None

    def deliver(self, result: ResultT) -> None:
        """Hand `result` to the screen without closing (a dialog that stays open across
        several results, the sheet); `dismiss` hands the last one and closes."""
        if self.results_to is not None:
            self.results_to(result)

    def key_in_force(self, binding_id: str) -> str:
        """The first key of `binding_id` as the DJ reads it, their keymap applied."""
        return keys.first_key_in_force(binding_id, getattr(self.app, "keymap_in_force", {}))

    def keyed(self, message: str, binding_id: str) -> str:
        """`message` (translated, with a {key} placeholder) naming the key in force."""
        return message.format(key=self.key_in_force(binding_id))

    def action_submit(self) -> None:
        self.submit()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit()

    def clear_errors(self) -> None:
        # By type and id, not by CSS queries: every opening of a dialog shown again runs
        # this over all its widgets, and a query matches selectors against each one.
        for field in self.walk_children(Field):
            field.set_error(None)
        with contextlib.suppress(NoMatches):
            error = self.query_one("#form-error")
            if isinstance(error, Static):
                error.update("")

    def show_error(self, field: str | None, message: str) -> None:
        """Show a problem next to its field, or under the form when it has none."""
        if field:
            matches = self.query(f"#field-{field}")
            if matches:
                target = matches.first(Field)
                target.set_error(message)
                target.widget.focus()
                return
        self.query_one("#form-error", Static).update(message)

    #: The engine's field of an error (SombraError.field) -> the dialog's field for it.
    ERROR_FIELDS: dict[str, str] = {}

    def show_problem(self, error: SombraError) -> None:
        """Show an error the engine gave, next to its field when the dialog has it
        (by the error's field, never its text), else under the form."""
        self.show_error(self.ERROR_FIELDS.get(error.field or ""), str(error))

    def value(self, field: str) -> str:
        return self.query_one(f"#{field}", Input).value

    # ---- the one submit path ----------------------------------------------------------
    # Every dialog's Enter and primary button: build the result from the fields (a
    # field's error shown at its field), ask the engine, finish. A dialog writes `build`,
    # and where it needs to, `refused`, `accepted` or `problem_with`; never `submit`.

    def build(self) -> ResultT | None:
        """The dialog's result from its fields (mostly the engine command), or raise
        FormError naming the field that is wrong. None: nothing to send (nothing
        changed); the dialog closes as if backed out."""
        raise NotImplementedError

    def submit(self) -> None:
        self.clear_errors()
        try:
            result = self.build()
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        if result is None:
            self.dismiss(None)
            return
        self.show_summary(result)  # the very command sent (D2)
        self.finish(result)

    #: The engine's dry run of a command (the screen's `check`): why it would be
    #: refused, or None. Dialogs that build a command keep it here; None: nothing to check.
    check: Check | None = None

    def problem_with(self, result: ResultT) -> SombraError | None:
        """Why the engine would refuse `result`, or None (its dry run, `check`)."""
        return None if self.check is None else self.check(result)

    def refused(self, result: ResultT) -> None:
        """The engine refused `result`: before its reason shows (e.g. keep rolled dice)."""

    def accepted(self, result: ResultT) -> None:
        """`result` passed the engine's check: just before the dialog closes with it."""

    def finish(self, result: ResultT) -> None:
        """Close with `result`, unless the engine would refuse it: then show why, next
        to its field when the dialog has it, and stay open with everything typed."""
        problem = self.problem_with(result)
        if problem:
            self.refused(result)
            self.show_problem(problem)
            return
        self.accepted(result)
        self.dismiss(result)

    #: The dialog handles its buttons in its own `on_button_pressed` (more buttons than
    #: submit and back out). Textual calls this class's handler after a subclass's own,
    #: so the flag keeps it from acting a second time.
    OWN_BUTTONS: ClassVar[bool] = False

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The primary button submits; any other backs out (unless OWN_BUTTONS)."""
        if self.OWN_BUTTONS:
            return
        if event.button.variant == "primary":
            self.submit()
        else:
            self.action_cancel()
