"""Nothing the DJ typed is lost, and nothing typed for one question answers another
(issue 35 items 4 and 5):

- Escape on a form the DJ changed asks first (keep editing, the answer in focus, or
  discard); an unchanged form closes at once.
- The open form's fields are kept as a draft beside the crash journal (the screen's
  state, ui_state.py, never the combat's history) while it is changed, so a resumed
  combat opens it again with what was typed (the main screen's `reopen_draft`).
- A new question (a reacción prompt to someone else than the one just answered) drops
  the keys that reach it before it has shown: they were typed for what came before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any, ClassVar

from textual.widget import Widget
from textual.widgets import Checkbox, Input, Select, SelectionList
from textual.widgets.select import InvalidSelectValueError

from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.summary import ResultT, Summarised

#: A field's value as the draft keeps it (JSON): text, a choice, ticks, a box.
Value = str | bool | list[str] | None


def field_values(root: Widget) -> dict[str, Value]:
    """Every field's value under `root`, by widget id (a Select's choice as its text)."""
    values: dict[str, Value] = {}
    for widget in root.walk_children(Widget):
        if widget.id is None:
            continue
        if isinstance(widget, Input):
            values[widget.id] = widget.value
        elif isinstance(widget, Select):
            value = widget.value  # Select.NULL: no choice (Select.BLANK is not that)
            values[widget.id] = None if value is Select.NULL else str(value)
        elif isinstance(widget, SelectionList):
            values[widget.id] = [str(v) for v in widget.selected]
        elif isinstance(widget, Checkbox):
            values[widget.id] = widget.value
    return values


def write_values(root: Widget, values: dict[str, Value]) -> list[str]:
    """Put `values` back in the fields under `root` (as the DJ left them); returns the
    ids not found (yet: a section still to be built)."""
    found = {widget.id: widget for widget in root.walk_children(Widget) if widget.id}
    missing = []
    for key, value in values.items():
        widget = found.get(key)
        if isinstance(widget, Input) and isinstance(value, str):
            widget.value = value
        elif isinstance(widget, Select) and isinstance(value, str | None):
            with contextlib.suppress(InvalidSelectValueError):  # an option no longer there
                # its options' values are str enums or str; None: left with no choice
                widget.value = Select.NULL if value is None else value
        elif isinstance(widget, SelectionList) and isinstance(value, list):
            widget.deselect_all()
            for name in value:
                widget.select(name)
        elif isinstance(widget, Checkbox) and isinstance(value, bool):
            widget.value = value
        else:
            missing.append(key)
    return missing


def draft_text(values: dict[str, Value]) -> str:
    """What the DJ typed in a draft, in a line (the notice of a draft that is dropped)."""
    return " · ".join(value for value in values.values()
                      if isinstance(value, str) and value.strip() and not value.isdigit())


class KeepsTyping(Summarised[ResultT]):
    """The dialog side of the module's three promises (its docstring)."""

    #: Escape on a changed form asks before it throws away what was typed. A form
    #: whose Escape only sets it aside to come back to (the hit proposal) says False.
    ASKS_ON_ESCAPE: ClassVar[bool | None] = None  # None: the forms with a summary

    #: The fields as the form opened (None: not read yet).
    _pristine: dict[str, Value] | None = None
    #: Where the draft goes while the form is changed (the screen gives it; None: nowhere).
    keep_draft: Any = None
    #: What the draft says this form is for: its kind, its character and, for a form
    #: about one thing, that thing's id (the screen reopens it from these), e.g.
    #: ("declaration", "Ana") or ("sheet_wound", "Ana", 2).
    draft_for: tuple[str, str] | tuple[str, str, int] | None = None

    def keep_drafts_in(self, keep: Callable[[dict[str, object] | None], None],
                       kind: str, who: str, *item: int) -> None:
        """While the DJ types, the fields are kept by `keep` (the session's, beside the
        journal) as a draft of `kind` for `who` (with the `item` it is about, if any)."""
        self.draft_for = (kind, who, item[0]) if item else (kind, who)
        self.keep_draft = keep

    def on_mount(self) -> None:
        self.mark_pristine()

    def fields_settled(self) -> None:
        self.save_draft()

    def mark_pristine(self) -> None:
        """The form as it opens: changed from now on is the DJ's typing."""
        self._pristine = field_values(self)

    def changed(self) -> bool:
        return self._pristine is not None and field_values(self) != self._pristine

    def asks_on_escape(self) -> bool:
        asks = self.ASKS_ON_ESCAPE
        return bool(self.SUMMARY if asks is None else asks)

    def save_draft(self) -> None:
        """Keep the fields beside the journal while they differ from the opening ones."""
        if self.keep_draft is None or self.draft_for is None or self._pristine is None:
            return
        kind, who, *item = self.draft_for
        values = field_values(self)
        draft: dict[str, object] = {"dialog": kind, "who": who, "values": values}
        if item:
            draft["item"] = item[0]
        self.keep_draft(draft if values != self._pristine else None)

    def drop_draft(self) -> None:
        if self.keep_draft is not None:
            self.keep_draft(None)

    def action_cancel(self) -> None:
        if not (self.asks_on_escape() and self.changed()):
            self.drop_draft()
            self.dismiss(None)
            return
        focused = self.focused

        def answered(discard: bool | None) -> None:
            if discard:
                self.drop_draft()
                self.dismiss(None)
            elif focused is not None and focused.is_attached:
                self.set_focus(focused)
        self.ask_to_discard(answered)

    def ask_to_discard(self, answered: Callable[[bool | None], None]) -> None:
        """Whether to throw the form's typing away (True: discard): the app asks it (its
        `ask_to_discard`: keep editing, in focus, or discard), for every form, opened
        from the main screen or from another dialog (the sheet's)."""
        ask = getattr(self.app, "ask_to_discard", None)
        if ask is None:  # an app that cannot ask: keep the form, as keep editing would
            answered(False)
            return
        ask(answered)

    # ---- a new question --------------------------------------------------------------

    #: A new question's keys typed before it showed (None: they are its own, as usual).
    _dropped: list[str] | None = None

    #: The field that gets the focus once the new question has shown.
    focus_after: Widget | None = None

    def refuse_typed_ahead(self, name: str) -> None:
        """A new question to `name` (issue 35 item 4): keys that reach it before it has
        shown were typed for what came before; they are dropped and the DJ is told.
        Until then no field has the focus (the app hands keys to the focused field, past
        the dialog), so every key comes to the dialog, which drops it."""
        self._dropped = []
        self.focus_after = self.focused
        self.set_focus(None)
        self.app.call_after_refresh(self._stop_dropping, name)  # after the queued keys

    def _stop_dropping(self, name: str) -> None:
        dropped, self._dropped = self._dropped, None
        target, self.focus_after = self.focus_after, None
        if target is not None and target.is_attached and self.is_active:
            self.set_focus(target)
        if dropped:
            self.app.notify(_("A new question for {name}: the keys typed before it showed "
                              "were not used ({keys}).").format(name=name, keys="".join(
                                  dropped)), severity="warning", timeout=6)
