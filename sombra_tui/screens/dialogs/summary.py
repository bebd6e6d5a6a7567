"""A form's summary line (issue 35, D2): the command Enter would send now, in the DJ's
words, or the first problem that stops it.

One builder: the line is the dialog's own `build` run dry (nothing rolled, nothing
sent) and read back by the engine (`ask.describe`); Enter runs the same `build` and
sends what it returns, and the line then shows that command. Dice the tracker would
roll on Enter are not rolled for the line: it reads "to be rolled by the tracker"
(parsing.DRY_RUN).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel
from textual import on
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Checkbox, Input, Select, SelectionList, Static

from sombra_tui.engine import SombraError, ask
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.fields import Field
from sombra_tui.screens.dialogs.parsing import DRY_RUN, FormError

ResultT = TypeVar("ResultT")


class Summarised(ModalScreen[ResultT], Generic[ResultT]):
    """A dialog whose form shows, above its buttons, the command it would send."""

    DEFAULT_CSS = """
    Summarised #summary { height: auto; color: $text; text-style: bold; }
    Summarised #summary.-problem { color: $warning; text-style: none; }
    """

    #: The form sends a command: its summary line is shown (above the error line).
    SUMMARY: ClassVar[bool] = False

    #: The command a result stands for, where the result is not one (a character
    #: sheet, which the screen adds or edits): given by whoever opens the dialog.
    command_of: Callable[[Any], BaseModel] | None = None

    _summary_due = False

    def build(self) -> ResultT | None:  # the dialog's own (base.Dialog)
        raise NotImplementedError

    def on_mount(self) -> None:
        if not self.SUMMARY:
            return
        try:
            error_line = self.query_one("#form-error")
        except NoMatches:
            return
        error_line.parent.mount(Static("", id="summary"), before=error_line)  # type: ignore[union-attr]
        self.summary_soon()

    @on(Input.Changed)
    @on(Select.Changed)
    @on(SelectionList.SelectedChanged)
    @on(SelectionList.SelectionToggled)
    @on(Checkbox.Changed)
    def _field_changed(self, event: Input.Changed | Select.Changed | Checkbox.Changed
                       | SelectionList.SelectedChanged[str]
                       | SelectionList.SelectionToggled[str]) -> None:
        """A field changed: its error line goes (a submit shows it again if the value is
        still wrong), and the summary follows."""
        widget = event.control
        field = next((node for node in widget.ancestors if isinstance(node, Field)), None)
        if field is not None and field.widget is widget and field.has_class("-invalid"):
            field.set_error(None)
        self.summary_soon()

    def summary_soon(self) -> None:
        """The summary again once the changes queued now are handled (one build for a
        burst of keys; the fields that follow others, a skill's target, have caught up)."""
        if not self._summary_due:
            self._summary_due = True
            self.call_after_refresh(self._fields_settled)

    def _fields_settled(self) -> None:
        self.show_summary()
        self.fields_settled()

    def fields_settled(self) -> None:
        """After a burst of changes to the fields (keeping.py keeps the draft)."""

    def summary_state(self) -> Any:
        """The combat state the command is read against (None: none needed)."""
        return getattr(self, "state", None)

    def command_for(self, result: Any) -> BaseModel | None:
        if self.command_of is not None:
            return self.command_of(result)
        return result if isinstance(result, BaseModel) else None

    def would_send(self) -> ResultT | None:
        """The dialog's result as Enter would make it now, dry: nothing rolled."""
        token = DRY_RUN.set(True)
        try:
            return self.build()
        finally:
            DRY_RUN.reset(token)

    def show_summary(self, result: Any = None) -> None:
        """The line: `result` (what Enter is sending), else the dry build's command, else
        the first problem that stops it."""
        self._summary_due = False
        if not self.SUMMARY or not getattr(self, "used", True):
            return
        try:
            line = self.query_one("#summary", Static)
        except NoMatches:
            return
        problem = None
        try:
            if result is None:
                result = self.would_send()
        except FormError as error:
            problem = error.message
        except SombraError as error:
            problem = str(error)
        except Exception:  # a half-typed form must never stop the DJ: no line then
            result = None
        # A form may send several commands (the settings: a rename and the settings).
        results = result if isinstance(result, list) else [result]
        commands = [command for each in results if each is not None
                    and (command := self.command_for(each)) is not None]
        if problem is not None:
            text = problem
        elif not commands:
            text = ""
        else:
            state = self.summary_state()
            text = _("{key} sends: {command}").format(
                key=self.key_in_force("dialog.confirm"),
                command="; ".join(ask.describe(state, command).render()
                                  for command in commands))
        line.set_class(problem is not None, "-problem")
        line.update(text)

    def key_in_force(self, binding_id: str) -> str:  # the dialog's own (base.Dialog)
        raise NotImplementedError
