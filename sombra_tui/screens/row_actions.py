"""The main screen's keys on the selected row and on the encounter as a whole: the
sheet and the forecast, hits and points by hand, a free TA, the prompts answered
without a dialog, the marks, the characters, extended actions, settings, undo and redo.

`RowActions` is part of `MainScreen` (screens/main.py): the screen's actions by job,
the round's own (declaring, reacting, resolving) staying in the screen's module. Each
action is thin: it opens a dialog and sends what it returns, or sends a command.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui.engine import Character, LogEvent, Phase, SombraError, ask
from sombra_tui.engine.i18n import _

if TYPE_CHECKING:
    from sombra_tui.screens.dialogs.base import Dialog
    from sombra_tui.screens.drafts import Drafts
    from sombra_tui.screens.flow import TableFlow


class RowActions:
    """The main screen's actions that are not the round's steps (a mixin of MainScreen)."""

    if TYPE_CHECKING:  # what MainScreen gives
        flow: TableFlow
        drafts: Drafts

        def selected(self, *, quiet: bool = False) -> str | None: ...
        def select(self, name: str) -> None: ...
        def run_command(self, command: c.Command) -> list[LogEvent] | None: ...
        def open_dialog(self, dialog: Dialog[Any], then: Callable[[Any], object]) -> None: ...
        def notify(self, message: str, **kwargs: Any) -> None: ...
        def key_in_force(self, binding_id: str) -> str: ...
        def _changed(self) -> None: ...

    # ---- the sheet, the forecast, hits and points by hand, a free TA ------------------

    def action_forecast(self) -> None:
        """What the coming asaltos hold (ask.forecast), and the DJ's notes: each change
        runs here as the DJ makes it (the dialog stays open)."""
        from sombra_tui.screens.dialogs.forecast import ForecastDialog
        forecast = ForecastDialog(lambda: self.flow.state, self.flow.check)
        forecast.keep_draft = self.flow.session.keep_draft  # its note form keeps its draft
        self.open_dialog(forecast, self.run_command)

    def action_sheet(self) -> None:
        """The selected character's sheet: wounds, conditions, weapons, with their keys."""
        name = self.selected()
        if name is None:
            return
        from sombra_tui.screens.dialogs.sheet import CharacterSheet
        sheet = CharacterSheet(lambda: self.flow.state, name, self.flow.check)
        sheet.keep_draft = self.flow.session.keep_draft  # its forms keep their drafts
        self.open_dialog(sheet, self.run_command)

    def action_reveal_character(self) -> None:
        """The players' view shows the selected character (as v on its sheet)."""
        name = self.selected()
        if name is not None:
            self.run_command(c.RevealCharacter(character=name))

    def action_hide_character(self) -> None:
        """The players' view leaves the selected character out until shown again."""
        name = self.selected()
        if name is not None:
            self.run_command(c.HideCharacter(character=name))

    def action_manual_hit(self) -> None:
        name = self.selected()
        if name is None:
            return
        from sombra_tui.screens.dialogs.hit import ManualHitDialog
        dialog = ManualHitDialog(name, self.flow.check)
        self.drafts.keep(dialog, "manual_hit", name)
        self.open_dialog(dialog, self.run_command)

    def action_quick_points(self, sign: str) -> None:
        """Quick damage or healing on the selected row (issue 39 item 4)."""
        if (name := self.selected()) is not None:
            from sombra_tui.screens.dialogs.quick_points import QuickPointsDialog
            dialog = QuickPointsDialog(self.flow.state, name, sign, self.flow.check)
            self.drafts.keep(dialog, "quick_points", name)  # a resume brings it back
            self.open_dialog(dialog, self.run_command)

    def action_free_ta(self, name: str | None = None, target: int | None = None,
                       label: str = "") -> None:
        """The DJ asks any character for a TA outside the steps (perception, first aid,
        O4's confirming TA)."""
        state = self.flow.state
        if not state.characters:
            self.notify(_("Add a character first."), severity="warning")
            return
        who = name if name is not None else self.selected(quiet=True)
        from sombra_tui.screens.dialogs.free_ta import FreeTADialog
        dialog = FreeTADialog(state, who, self.flow.check, self.flow.session.combat.roll,
                              target=target, label=label)
        self.drafts.keep(dialog, "free_ta", who or "")
        self.open_dialog(dialog, self.run_command)

    # ---- reacción prompts answered without a dialog (D4, D12) -------------------------

    def action_decline(self) -> None:
        if (prompt := self._prompt()) is not None:
            self.run_command(c.Decline(character=prompt.reactor))

    def action_deny_prompt(self) -> None:
        if (prompt := self._prompt()) is not None:
            self.run_command(c.DenyPrompt(character=prompt.reactor))

    def _prompt(self) -> Any:
        prompt = self.flow.state.top_prompt
        if prompt is None:
            self.notify(_("No reacción prompt is open."), severity="warning")
        return prompt

    def action_allow_prompt(self) -> None:
        """D12: let the selected character react to the latest declaration."""
        name = self.selected()
        if name is None:
            return
        author = self.flow.latest_author()
        if author is None:
            self.notify(_("Nobody has declared yet this round."), severity="warning")
            return
        self.run_command(c.AllowPrompt(character=name, against=author))

    # ---- marks ------------------------------------------------------------------------

    def action_prevent(self) -> None:
        name = self.selected()
        if name is None:
            return
        mark = c.Mark.UNPREVENT if name in self.flow.state.prevented else c.Mark.PREVENTED
        self.run_command(c.SetMark(character=name, mark=mark))

    def action_toggle_out(self) -> None:
        name = self.selected()
        if name is None:
            return
        mark = c.Mark.BACK if name in self.flow.state.out else c.Mark.OUT
        self.run_command(c.SetMark(character=name, mark=mark))

    # ---- history --------------------------------------------------------------------

    def action_undo(self) -> None:
        self._travel(self.flow.session.undo, _("Undone: {command}"))

    def action_redo(self) -> None:
        self._travel(self.flow.session.redo, _("Redone: {command}"))

    def _travel(self, step: Callable[[], c.Command], message: str) -> None:
        """One step through the history (undo or redo), told in `message`."""
        try:
            command = step()
        except SombraError as error:
            self.notify(str(error), severity="warning")
            return
        self.notify(message.format(command=ask.command_label(command)), timeout=3)
        self._changed()

    # ---- characters, extended actions, settings ---------------------------------------------

    def action_add_character(self) -> None:
        """A new character; "4 Matón" adds Matón 1 ... Matón 4 as one command."""
        def command(character: Character) -> c.Command:
            return self.flow.add_command(character, editor.count)

        from sombra_tui.screens.dialogs.character import CharacterEditor
        editor = CharacterEditor(None, lambda ch: self.flow.check(command(ch)), many=True,
                                 state=self.flow.state, side=ask.new_character_side(
                                     self.flow.state, self.selected(quiet=True)))
        editor.command_of = command  # its summary line: the command it adds (D2)
        self.drafts.keep(editor, "character", "")
        self.open_dialog(editor, lambda ch: self._add(command(ch)))

    def action_duplicate_character(self) -> None:
        """A copy of the selected row's sheet, numbered ("Matón 2" -> the next Matón)."""
        name = self.selected()
        if name is None:
            return
        character = self.flow.state.character(name)
        assert character is not None
        self._add(c.AddCharacters(character=character, count=1))

    def _add(self, command: c.Command) -> None:
        events = self.run_command(command)
        added = [event.actor for event in events or () if event.actor]
        if added:
            self.select(added[0])
            if len(added) > 1:
                self.notify(_("Added {count} characters: {names}.").format(
                    count=len(added), names=", ".join(added)), timeout=4)

    def action_edit_character(self) -> None:
        name = self.selected()
        if name is None:
            return
        character = self.flow.state.character(name)
        assert character is not None

        def edited(result: Character) -> None:
            if result != character:
                self.run_command(c.EditCharacter(name=name, character=result))
        from sombra_tui.screens.dialogs.character import CharacterEditor
        editor = CharacterEditor(
            character, lambda ch: self.flow.check(c.EditCharacter(name=name, character=ch)),
            state=self.flow.state)
        editor.command_of = lambda ch: c.EditCharacter(name=name, character=ch)
        self.drafts.keep(editor, "character", name)
        self.open_dialog(editor, edited)

    def action_remove_character(self) -> None:
        name = self.selected()
        if name is None:
            return

        def answered(sure: bool) -> None:
            if sure:
                self.run_command(c.RemoveCharacter(name=name))
        from sombra_tui.screens.dialogs.confirm import ConfirmDialog
        self.open_dialog(ConfirmDialog(
            _("Remove {name} from the encounter? The log keeps what {name} did; undo ({undo}) "
              "brings them back.").format(name=name, undo=self.key_in_force("undo")),
            yes=_("Remove")), answered)

    def action_adjust_extended(self) -> None:
        chosen = self.flow.running_extended(self.selected(quiet=True))
        if chosen is None:
            self.notify(_("No extended action is running."), severity="warning")
            return
        self.adjust_extended(chosen.id)

    def adjust_extended(self, extended_id: int) -> None:
        """The extended action `extended_id`'s form, if it is still running."""
        chosen = self.flow.running_extended(None, extended_id)
        if chosen is None:
            return
        from sombra_tui.screens.dialogs.extended import ExtendedDialog
        dialog = ExtendedDialog(chosen, self.flow.check)
        self.drafts.keep(dialog, "extended", chosen.owner, chosen.id)
        self.open_dialog(dialog, self.run_command)

    def action_settings(self) -> None:
        state = self.flow.state

        def apply(commands: list[c.Command]) -> None:
            for command in commands:
                self.run_command(command)
        from sombra_tui.screens.dialogs.settings import SettingsDialog
        dialog = SettingsDialog(state.name, state.settings, self.flow.check,
                                started=state.phase is not Phase.SETUP)
        self.drafts.keep(dialog, "settings", "")
        self.open_dialog(dialog, apply)
