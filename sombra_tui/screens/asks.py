"""The app's dialogs, as its controllers ask for them (`sombra_tui/control/host.py`,
`Asks`): each pushes its dialog over the app's screens at once and hands the answer to
the callback given. Every dialog module is imported on first use (issue 24)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from sombra_tui import keys
from sombra_tui.engine.i18n import _, pgettext

if TYPE_CHECKING:
    from textual.app import App

    from sombra_tui.control.host import Answered, Resume, Unsaved
    from sombra_tui.engine import CarryPlan, CombatState, Encounter, ImportCharacters, Roster
    from sombra_tui.players.server import PlayersServer


class DialogAsks:
    """`Asks` over `app`'s screen stack."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app

    def resume(self, name: str, round: int, phase: str, when: str,
               answered: Callable[[Resume], None]) -> None:
        from sombra_tui.screens.dialogs.confirm import ChoiceDialog, choice_keys
        self.app.push_screen(ChoiceDialog(
            _("An unfinished combat was found: \"{name}\", asalto {round} ({phase}), "
              "last change {when}. It was not saved when sombra-tui stopped. Resume it?"
              ).format(name=name, round=round, phase=recovered_phase(phase), when=when),
            [(choice_keys(pgettext("key of Resume", "r"), "r"), _("Resume"), "resume"),
             (choice_keys(pgettext("key of Later", "l"), "l"), _("Later"), "later"),
             (choice_keys(pgettext("key of Discard", "d"), "d"), _("Discard"), "discard")]),
            answered)  # type: ignore[arg-type]

    def unsaved(self, question: str, answered: Callable[[Unsaved], None]) -> None:
        from sombra_tui.screens.dialogs.confirm import ChoiceDialog, choice_keys
        self.app.push_screen(ChoiceDialog(
            question,
            [(choice_keys(pgettext("key of Save", "s"), "s"), _("Save"), "save"),
             (choice_keys(pgettext("key of Discard", "d"), "d"), _("Discard"), "discard"),
             ("escape", _("Cancel"), "cancel")]), answered)  # type: ignore[arg-type]

    def confirm(self, question: str, yes: str, answered: Answered[bool | None]) -> None:
        from sombra_tui.screens.dialogs.confirm import ConfirmDialog
        self.app.push_screen(ConfirmDialog(question, yes=yes), answered)

    def file(self, mode: Literal["open", "save"], folder: Path,
             answered: Callable[[Path | None], None], suggested: str = "", *,
             title: str | None = None, confirm: str | None = None) -> None:
        from sombra_tui.screens.dialogs.files import FileDialog
        self.app.push_screen(FileDialog(mode, folder, suggested, title=title,
                                        confirm=confirm), answered)

    def new_encounter(self, folder: Path,
                      answered: Callable[[Encounter | None], None]) -> None:
        from sombra_tui.screens.dialogs.new_encounter import NewEncounterDialog
        self.app.push_screen(NewEncounterDialog(folder), answered)

    def roster(self, roster: Roster, clashes: list[str],
               answered: Callable[[ImportCharacters | None], None]) -> None:
        from sombra_tui.screens.dialogs.roster import RosterDialog
        self.app.push_screen(RosterDialog(roster, clashes), answered)

    def carry_on(self, state: CombatState, seed: int,
                 answered: Callable[[CarryPlan | None], None]) -> None:
        from sombra_tui.screens.dialogs.carry import CarryOnDialog
        self.app.push_screen(CarryOnDialog(state, seed), answered)

    def players_page(self, server: PlayersServer, stop: Callable[[], Awaitable[None]],
                     move: Callable[[bool], Awaitable[None]]) -> None:
        """The page's address and QR code: stop it, or move it to the local network
        (True) or to this machine only."""
        from sombra_tui.screens.dialogs.players import LAN, LOCAL, STOP, PlayersViewDialog

        async def chosen(choice: str | None) -> None:
            if choice == STOP:
                await stop()
            elif choice in (LAN, LOCAL):
                await move(choice == LAN)
        keymap: dict[str, str] = getattr(self.app, "keymap_in_force", {})
        self.app.push_screen(PlayersViewDialog(
            server.url, lan=server.lan, clients=server.clients,
            stop_keys=keymap.get("players_view") or keys.BY_ID["players_view"].keys,
            shown_as=keys.keys_in_force("players_view", keymap)), chosen)


def recovered_phase(phase: str) -> str:
    """A journal's phase as the DJ reads it ("Round actions", not its code name); one
    this version does not know is shown as it was written."""
    from sombra_tui.engine import Phase
    from sombra_tui.widgets.formatting import phase_label
    try:
        return phase_label(Phase(phase))
    except ValueError:
        return phase
