"""A form left open when sombra-tui stopped (issue 35 item 5), on the main screen.

While the DJ types in a form, its fields are kept beside the journal (`keep`); after a
resume, `reopen` opens the form again with what was typed, if its command still
applies (TableFlow.draft_opening says how), else shows its text in a notice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from sombra_tui.engine.i18n import _
from sombra_tui.screens.preparing import SETTLE_TURNS

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from sombra_tui.screens.dialogs.base import Dialog
    from sombra_tui.screens.flow import TableFlow
    from sombra_tui.screens.round_dialogs import RoundDialogs


class DraftHost(Protocol):
    """What the keeper needs of the main screen."""

    app: App[Any]
    flow: TableFlow
    dialogs: RoundDialogs

    def call_after_refresh(self, callback: Any, *args: Any) -> bool: ...
    def notify(self, message: str, **kwargs: Any) -> None: ...
    def select(self, name: str) -> None: ...


class Drafts:
    """The main screen's kept forms."""

    def __init__(self, screen: DraftHost) -> None:
        self.screen = screen

    def keep(self, dialog: Dialog[Any], kind: str, who: str, *item: int) -> None:
        """While the DJ types in `dialog`, its fields are kept beside the journal (with
        the `item` it is about, an extended action's id)."""
        dialog.keep_drafts_in(self.screen.flow.session.keep_draft, kind, who, *item)

    def reopen(self, tries: int = SETTLE_TURNS) -> None:
        """After a resume: the form the DJ was typing in when sombra-tui stopped, with
        what was typed, if its command still applies; else a notice with its text."""
        screen, dialogs = self.screen, self.screen.dialogs
        if not dialogs.on_top():  # the offer to resume is still closing
            if tries:
                screen.call_after_refresh(self.reopen, tries - 1)
            else:  # a pending hit opened first: once it is closed
                dialogs.draft_waits = True
                dialogs.wait_until_on_top()
            return
        if screen.flow.state.proposals:  # a pending hit (or question) first, as after the TA
            dialogs.draft_waits = True
            dialogs.wait_until_on_top()
            return
        dialogs.draft_waits = False
        draft = screen.flow.session.resumed_draft()
        if draft is None:
            return
        from sombra_tui.screens.dialogs.keeping import draft_text
        kind, who, values = draft.get("dialog"), draft.get("who"), draft.get("values")
        item = draft.get("item")  # what the form was about: a wound's id, say (or none)
        if not isinstance(values, dict) or not isinstance(who, str):
            return
        group = draft.get("group")  # the dice typed for a group's members not sent yet
        kept = {name: dice for name, dice in group.items() if isinstance(dice, str)} \
            if isinstance(group, dict) else {}
        screen.flow.group_dice.update(kept)  # their dialog (or the last one's) opens with them
        dialog = self._open(str(kind), who, *((item,) if isinstance(item, int) else ()))
        if dialog is None:
            for name in kept:
                screen.flow.group_dice.pop(name, None)
            screen.notify(_("The form left open when sombra-tui stopped no longer applies; "
                            "it held: {text}").format(text=draft_text(values) or "—"),
                          severity="warning", timeout=20)
            return
        for index in range(1, sum(1 for key in values if key.endswith("-description"))):
            if hasattr(dialog, "action_add_action") and index < 4:
                dialog.action_add_action()
        screen.call_after_refresh(self.write, dialog, values, 2)

    def _open(self, kind: str, who: str, *item: int) -> Dialog[Any] | None:
        """Open the draft's form again, as the DJ's key opened it; None when its
        command no longer applies."""
        screen = self.screen
        opening = screen.flow.draft_opening(kind, who, item, screen.dialogs.draft_forms())
        if opening is None:
            return None
        if opening.select:
            screen.select(opening.select)
        getattr(screen, opening.opens)(*opening.args)
        if opening.form:
            getattr(screen.app.screen, opening.form)(*opening.item)  # that dialog's key
        from sombra_tui.screens.dialogs.base import Dialog
        shown: Screen[Any] = screen.app.screen
        return shown if isinstance(shown, Dialog) and shown.draft_for == (
            kind, who, *item) else None

    def write(self, dialog: Dialog[Any], values: dict[str, Any], passes: int) -> None:
        """Put the draft's values in `dialog`; what is not built yet (a section its
        choices open) in a later pass."""
        from sombra_tui.screens.dialogs.keeping import write_values
        missing = write_values(dialog, values)
        if missing and passes > 1:
            self.screen.call_after_refresh(self.write, dialog,
                                           {key: values[key] for key in missing}, passes - 1)
