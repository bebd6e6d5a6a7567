"""What opens after a roll on the main screen: the open proposals (a hit's numbers, an H7
or H11 question), settled before the next step, and an opposed roll's result dialog
(O4, T5), one after another.

`Proposals` is the main screen's keeper of them: it opens them over the screen and
sends what the DJ settles through the screen (`run_command`), which renders.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui.engine import LogEvent, Proposal, ProposalKind, ask
from sombra_tui.engine.ask import NextKind, Opens
from sombra_tui.engine.i18n import _, pgettext

if TYPE_CHECKING:
    from textual.app import App
    from textual.screen import Screen

    from sombra_tui.screens.dialogs.base import Dialog
    from sombra_tui.screens.flow import TableFlow
    from sombra_tui.screens.round_dialogs import RoundDialogs


class ProposalHost(Protocol):
    """What the keeper needs of the main screen."""

    app: App[Any]
    flow: TableFlow
    dialogs: RoundDialogs

    def run_command(self, command: c.Command) -> list[LogEvent] | None: ...
    def open_dialog(self, dialog: Dialog[Any], then: Callable[[Any], object]) -> None: ...
    def run_with(self, run: Callable[[Any], list[LogEvent]], command: Any
                 ) -> list[LogEvent] | None: ...
    def action_free_ta(self, name: str | None = None, target: int | None = None,
                       label: str = "") -> None: ...


class Proposals:
    """The open proposals and the opposed results, opened over the main screen."""

    def __init__(self, screen: ProposalHost) -> None:
        self.screen = screen

    def settle(self, proposal: Proposal, then: Callable[[], object] | None = None) -> None:
        """An open proposal: a hit (every number, editable) or an H7 / H11 question.
        Pushed at once, from the key (not from a worker), as every dialog of a round.

        With `then`: what follows once it is settled (not on escape)."""
        screen = self.screen

        def settled(command: c.Command) -> None:
            if screen.run_command(command) is not None and then is not None:
                then()

        if proposal.kind is ProposalKind.HIT:
            screen.open_dialog(screen.dialogs.take(Opens.HIT, proposal), settled)
            return

        def answered(confirm: bool) -> None:
            settled(c.ConfirmProposal(proposal_id=proposal.id) if confirm
                    else c.DeclineProposal(proposal_id=proposal.id))
        from sombra_tui.screens.dialogs.confirm import ConfirmDialog
        from sombra_tui.screens.dialogs.hit_numbers import proposal_question
        screen.app.push_screen(ConfirmDialog(
            proposal_question(proposal, screen.flow.state), yes=_("Confirm"),
            no=pgettext("proposal", "Decline")),
            callback=lambda confirm: answered(bool(confirm)))

    def settle_first(self, then: Callable[[], object]) -> None:
        """H1/H7/H11: the open proposals one after another, then `then` (at once when
        none is open); escape on a proposal drops `then`."""
        step = self.screen.flow.next_step()
        if step.proposal is None:
            then()
        else:
            self.settle(step.proposal, lambda: self.settle_first(then))

    def settle_over_dialog(self) -> None:
        """A dialog's command was refused only because a proposal is open (H1/H7/H11):
        the proposal opens over the dialog, which keeps what was typed and is sent
        again once the proposal is settled (TableFlow.check)."""
        dialog = self.screen.app.screen
        self.settle_first(lambda: self._submit_again(dialog))

    def _submit_again(self, dialog: Screen[Any]) -> None:
        from sombra_tui.screens.dialogs.base import Dialog
        if self.screen.app.screen is dialog and isinstance(dialog, Dialog):
            dialog.submit()

    def open_hits(self) -> None:
        """H1: a successful attack's hit proposal opens by itself (space accepts it as
        proposed); a second target's hit opens after the first is settled."""
        step = self.screen.flow.next_step()
        if step.kind is NextKind.SETTLE_HIT and step.proposal is not None:
            self.settle(step.proposal, self.open_hits)

    # ---- the opposed result (O4, T5) ---------------------------------------------------

    def opposed_result(self, opposed: c.ResolveOpposed) -> None:
        """Run the opposed resolution, then its result dialog (O4, the DJ's decision)."""
        self._show_result(opposed, self.screen.run_command(opposed))

    def _show_result(self, opposed: c.ResolveOpposed, events: list[LogEvent] | None) -> None:
        """The result dialog of `events`, shown again after each winner the DJ decides;
        once the outcome is read, the winning attack's hit (H1)."""
        if not events:
            self.open_hits()
            return

        from sombra_tui.screens.dialogs.opposed import OpposedResultDialog, ResultChoice

        def chosen(result: ResultChoice | None) -> None:
            leads_to, what = self.screen.flow.opposed_choice(opposed, events, result)
            if leads_to == "confirm":  # O4: the sentinel's confirming TA, against the
                # value its last TA rolled under
                self.screen.action_free_ta(what, ask.confirm_target(events, what),
                                           _("confirms the suspicion"))
            elif leads_to == "winner":  # T5: the DJ's decision, in place (same dice)
                self._show_result(what, self._give_outcome(what))
            else:  # the result read: the winning attack's hit
                self.open_hits()

        self.screen.app.push_screen(OpposedResultDialog(events), chosen)

    def _give_outcome(self, decided: c.ResolveOpposed) -> list[LogEvent] | None:
        """T5: the DJ's decision runs in place of the opposed command (same dice); a
        refusal is shown and nothing changes."""
        return self.screen.run_with(self.screen.flow.replace_last, decided)

