"""Issue 39 item 3: the declaration editor's "also for" list. One declaration for several
characters of one side ("los 4 Matones disparan a Tomás"): the editor sends one
DeclareGroup, which the engine expands into each member's own Declare (D1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.widgets import Static

from sombra_tui import keys
from sombra_tui.engine import CombatState, Declare, DeclareGroup, ask
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.fields import Field, PickList, refill_picks

if TYPE_CHECKING:
    from textual.screen import Screen

    _Base = Screen[Any]
else:
    _Base = object


class Together(_Base):
    """The part of the declaration editor that chooses the other members of a group:
    whom the engine says may declare together with the declarer (ask.together_with)."""

    #: The declarer's side's characters who declare right after it, in order.
    together_names: list[str] = []

    def together_field(self) -> Field:
        """The "also for" list; shown only when somebody may declare together."""
        return Field(_("Also declare it for (each in turn, in declaration order)"),
                     PickList(id="together"), field_id="together", hint=_("space toggles"))

    def together_note(self) -> Static:
        """A line under the title: whom the key adds, or whom the declaration is for."""
        return Static("", id="together-note", classes="note")

    def show_together_note(self) -> None:
        note = self.query_one("#together-note", Static)
        note.display = bool(self.together_names)
        key = keys.first_key_in_force("declaration.together",
                                      getattr(self.app, "keymap_in_force", {}))
        chosen = self.together_chosen()
        if chosen:
            note.update(_("Also for {names}, each in turn ({key}: none)").format(
                names=", ".join(chosen), key=key))
        else:
            note.update(_("{key}: the same for {names}, each in turn").format(
                key=key, names=", ".join(self.together_names)))

    def fill_together(self, state: CombatState, name: str) -> None:
        self.together_names = ask.together_with(state, name)

    def show_together(self) -> None:
        refill_picks(self.query_one("#together", PickList), self.together_names)
        self.query_one("#field-together", Field).display = bool(self.together_names)
        self.show_together_note()

    def action_together(self) -> None:
        """All of them ticked, or none when all are ticked already."""
        picks = self.query_one("#together", PickList)
        if not self.together_names:
            self.notify(_("Nobody of this side declares right after this character."),
                        severity="warning")
            return
        if set(picks.selected) >= set(self.together_names):
            picks.deselect_all()
        else:
            picks.select_all()

    def together_chosen(self) -> list[str]:
        """The members ticked, in declaration order."""
        chosen = set(self.query_one("#together", PickList).selected)
        return [name for name in self.together_names if name in chosen]

    def with_together(self, declare: Declare) -> Declare | DeclareGroup:
        """`declare`, or the group of it and the members ticked (the same actions and
        affected list; the engine leaves each member out of its own list)."""
        chosen = self.together_chosen()
        if not chosen:
            return declare
        return DeclareGroup(characters=[declare.character, *chosen],
                            actions=declare.actions, affected=declare.affected)
