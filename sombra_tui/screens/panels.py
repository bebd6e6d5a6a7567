"""The main screen's top panels: the initiative table beside the declaration queue.

The queue shows the cursor's character's whole declaration; the row the DJ chose is
kept beside the encounter (ui_state), so that a resume or a reopening puts the cursor
back there. The panels follow the cursor themselves: a command's render does not come
back to the screen for it (issue 36 item 7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from sombra_tui.engine import Phase
from sombra_tui.engine.i18n import _
from sombra_tui.ui_state import Cursor
from sombra_tui.widgets.declaration_queue import DeclarationQueue
from sombra_tui.widgets.initiative_table import InitiativeTable

if TYPE_CHECKING:
    from sombra_tui.screens.flow import TableFlow
    from sombra_tui.session import Session


class TablePanels(Horizontal):
    """The initiative table and the declaration queue, side by side."""

    def __init__(self, flow: TableFlow, **kwargs: str) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        #: The screen's table flow: the encounter shown (open, resume replace it).
        self.flow = flow
        #: The session whose kept cursor was put back, and the cursor last kept.
        self._cursor_session: Session | None = None
        self._remembered: Cursor | None = None

    def compose(self) -> ComposeResult:
        with Vertical(id="initiative-panel"):
            yield InitiativeTable(id="initiative")
        with Vertical(id="queue-panel"):
            yield DeclarationQueue(id="queue")

    @property
    def selected_name(self) -> str | None:
        """The character on the table's cursor (None on an empty table)."""
        return self.query_one(InitiativeTable).selected_name

    def show_state(self) -> bool:
        """The state shown; True when its session is shown here for the first time
        (another encounter: open, resume): the cursor goes back where the DJ left it."""
        state, session = self.flow.state, self.flow.session
        table = self.query_one(InitiativeTable)
        table.show_state(state)
        first = self._cursor_session is not session
        if first:
            self._cursor_session = session
            self._recall_cursor()
        self.query_one(DeclarationQueue).show_state(state, table.selected_name)
        panel = self.query_one("#queue-panel")
        title = (_("Declarations") if state.phase in (Phase.SETUP, Phase.DECLARATION)
                 else _("Resolution"))
        if panel.border_title != title:  # setting it repaints the whole panel
            panel.border_title = title
        return first

    def relabel(self) -> None:
        """The panels again in the language in force (the app switched it)."""
        self.query_one("#queue-panel").border_title = ""
        for widget in (self.query_one(InitiativeTable), self.query_one(DeclarationQueue)):
            relabel = getattr(widget, "relabel", None)
            if callable(relabel):
                relabel()

    @on(InitiativeTable.CursorMoved)
    def _cursor_moved(self) -> None:
        """The queue panel shows the selected character's whole declaration; the row
        the DJ chose is kept for a resume (ui_state)."""
        table = self.query_one(InitiativeTable)
        self.query_one(DeclarationQueue).show_state(self.flow.state, table.selected_name)
        self.remember_cursor()

    def remember_cursor(self) -> None:
        """Keep the row the DJ chose (or that they chose none) under the encounter's
        file and journal, so a resume or a reopening puts the cursor back there."""
        table = self.query_one(InitiativeTable)
        name = table.selected_name
        cursor = (Cursor(name, self.flow.state.round)
                  if table.dj_chose and name is not None else None)
        if cursor != self._remembered:
            self._remembered = cursor
            self.flow.session.keep_cursor(cursor)

    def _recall_cursor(self) -> None:
        """A session shown for the first time: the cursor where the DJ left it, if they
        had chosen a row in this asalto (otherwise it follows the play, as it did)."""
        cursor = self.flow.session.kept_cursor()
        table = self.query_one(InitiativeTable)
        state = self.flow.state
        if cursor is not None and cursor.round == state.round \
                and state.character(cursor.name) is not None:
            table.select_name(cursor.name)
            table.dj_chose = True
        self._remembered = cursor
