"""Files and crash recovery: one controller over the app's open session (issue 36 item
2). Open, save, save as, import characters, a new encounter, the combat's report and
carrying the party on; the crash journal, and the offer at start-up to resume each
unfinished combat it kept. Plain Python: it asks through `Asks`, tells through the
app's `notify`, shows through the main screen's `Table`; no screen, no Textual."""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from sombra_tui import config, keys, ui_state
from sombra_tui.engine import SombraError, i18n, os_reason
from sombra_tui.engine.i18n import _
from sombra_tui.session import Session

if TYPE_CHECKING:
    from sombra_tui.control.host import Asks, Resume, Table, Unsaved, Worker
    from sombra_tui.engine import CarryPlan, Encounter, ImportCharacters


def slugify(name: str) -> str:
    slug = re.sub(r"[^\w-]+", "-", name.strip().lower()).strip("-")
    return slug or "encuentro"


class Files:
    """The open encounter's files and its crash journal, over `host.session`."""

    def __init__(self, host: Worker, table: Table, asks: Asks) -> None:
        self.host = host
        self.table = table
        self.asks = asks

    @property
    def session(self) -> Session:
        return self.host.session

    # ---- where ---------------------------------------------------------------------

    def default_folder(self) -> Path:
        folder = config.data_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return Path.cwd()
        return folder

    def folder(self) -> Path:
        """Where the file dialogs start: the open file's folder, else the data folder."""
        return self.session.path.parent if self.session.path else self.default_folder()

    # ---- save ----------------------------------------------------------------------

    def save(self) -> None:
        if self.session.path is None:
            self.save_as()
            return
        self.save_to(self.session.path)

    def save_as(self) -> None:
        suggested = (self.session.path.name if self.session.path
                     else f"{slugify(self.session.name)}.json")

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.save_to(path)
        self.asks.file("save", self.folder(), chosen, suggested)

    def save_to(self, path: Path) -> bool:
        try:
            saved = self.session.save(path)
        except SombraError as error:
            self.host.notify(_("{error} The encounter is still open; nothing was lost."
                               ).format(error=error), title=_("Not saved"),
                             severity="error", timeout=10)
            return False
        self.host.notify(_("Saved to {path}").format(path=saved), timeout=3)
        ui_state.opened(saved)
        self.table.render_state()  # the title loses its unsaved mark
        self.report_journal_problem()
        return True

    def settle_unsaved_then(self, question: str, go_on: Callable[[], object],
                            stopped: Callable[[], object] | None = None) -> None:
        """`go_on` at once if nothing is unsaved; else ask `question` (save / discard /
        cancel) and `go_on` once saved or discarded, or `stopped` if not."""
        if not self.session.dirty:
            go_on()
            return

        def saved_to(path: Path | None) -> None:
            (go_on if path is not None and self.save_to(path) else stopped or _nothing)()

        def chosen(choice: Unsaved) -> None:
            if choice == "save" and self.session.path is None:
                self.asks.file("save", self.default_folder(), saved_to,
                               f"{slugify(self.session.name)}.json")
                return
            fine = (choice == "discard" or
                    (choice == "save" and self.session.path is not None
                     and self.save_to(self.session.path)))
            (go_on if fine else stopped or _nothing)()
        self.asks.unsaved(question, chosen)

    # ---- open ----------------------------------------------------------------------

    def open(self) -> None:
        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_path(path)
        self.settle_unsaved_then(_("The encounter has unsaved changes. Save them before "
                                   "opening another file?"),
                                 lambda: self.asks.file("open", self.folder(), chosen))

    def open_path(self, path: Path) -> bool:
        """Open `path` in place of the open encounter; a file that cannot be read is
        refused with a message naming the problem, and the open encounter stays."""
        try:
            session = Session.open(path)
        except SombraError as error:
            self.host.notify(_("{error} The current encounter stays open.").format(
                error=error), title=_("Not opened"), severity="error", timeout=10)
            return False
        self.session.discard_journal()
        self.host.session = session
        if self.host.journaling:
            session.start_journal(config.journal_dir())
        self.table.render_state(force_log=True)
        self.host.notify(_("Opened {path}").format(path=path), timeout=3)
        self.say_notices(session)
        return True

    def say_notices(self, session: Session) -> None:
        """What loading the file had to say, once (an older format converted)."""
        for notice in session.combat.notices:
            self.host.notify(_(notice), title=_("Older file"), timeout=10)
        session.combat.notices = []
        if session.combat.checking or session.combat.check_problem is not None:
            # A worker from now on: app.workers waits for it.
            self.host.run_worker(self._check_opened(session), group="check")

    async def _check_opened(self, session: Session) -> None:
        """Issue 24: the file's check between frames (after the screen's first one), then
        the log and its word if any."""
        painted = asyncio.Event()
        self.host.call_after_refresh(painted.set)  # the screen first
        await painted.wait()
        problem = await session.checked()
        if session is self.session:
            self.table.render_state(force_log=True)
            if problem:
                self.host.notify(problem, title=_("File checked"), severity="warning",
                                 timeout=15)

    # ---- new encounters ------------------------------------------------------------

    def new_encounter(self) -> None:
        """An empty encounter (or one with a party), after asking about unsaved changes."""
        self.settle_unsaved_then(_("The encounter has unsaved changes. Save them before "
                                   "starting a new encounter?"),
                                 lambda: self.asks.new_encounter(self.folder(),
                                                                 self.start_encounter))

    def start_encounter(self, encounter: Encounter | None) -> None:
        if encounter is None:
            return
        self.session.discard_journal()
        self.host.session = Session.new(encounter)
        if self.host.journaling:
            self.session.start_journal(config.journal_dir())
        self.table.render_state(force_log=True)
        count = len(encounter.characters)
        message = (i18n.ngettext("New encounter \"{name}\" with {count} character.",
                                 "New encounter \"{name}\" with {count} characters.", count)
                   if count else _("New encounter \"{name}\": add characters with {add} (or "
                                   "'4 Matón')."))
        self.host.notify(message.format(name=encounter.name, count=count,
                                        add=keys.first_key_in_force(
                                            "add_character", self.host.keymap_in_force)),
                         timeout=5)

    def carry_on(self) -> None:
        """Issue 38: pick who goes on and the time between; see what it did; start."""
        self.asks.carry_on(self.session.combat.state, secrets.randbelow(2**31),
                           self._carry_on_with)

    def _carry_on_with(self, plan: CarryPlan | None) -> None:
        if plan is None:
            return
        names = ", ".join(ch.name for ch in plan.encounter.characters)
        lines = [str(line) for line in plan.changes] or [
            _("Nothing changes in the time between.")]
        question = "\n".join([_("Start a new encounter with {names}?").format(names=names),
                              *lines])

        def confirmed(yes: bool | None) -> None:
            if yes:
                self.settle_unsaved_then(_("The encounter has unsaved changes. Save them "
                                           "before carrying the party on?"),
                                         partial(self.start_encounter, plan.encounter))
        self.asks.confirm(question, _("Start"), confirmed)

    # ---- import and report ---------------------------------------------------------

    def import_roster(self) -> None:
        self.asks.file("open", self.folder(), self.import_from,
                       title=_("Import characters from an encounter file"),
                       confirm=_("Import ({key})"))

    def import_from(self, path: Path | None) -> None:
        if path is None:
            return
        from sombra_tui.engine import read_roster, roster_clashes

        try:
            roster = read_roster(path)
        except SombraError as error:
            self.host.notify(_("{error} Nothing was imported.").format(error=error),
                             title=_("Not imported"), severity="error", timeout=10)
            return
        names = [ch.name for ch in self.session.combat.state.characters]

        def chosen(command: ImportCharacters | None) -> None:
            if command is not None and self.table.run_command(command) is not None:
                count = len(command.characters)
                self.host.notify(i18n.ngettext(
                    "Imported {count} character from {source}.",
                    "Imported {count} characters from {source}.", count).format(
                        count=count, source=roster.source), timeout=4)
        self.asks.roster(roster, roster_clashes(roster, names), chosen)

    def report(self) -> None:
        """Issue 38: the combat's report, Markdown and HTML, beside the encounter's file
        (the data folder if unsaved), each under a new name; says where."""
        from sombra_tui.report import write_beside

        path = self.session.path
        try:
            written = write_beside(self.session.combat, self.folder(),
                                   path.name if path else slugify(self.session.name))
        except OSError as error:
            self.host.notify(_("cannot write the report to {path}: {reason}").format(
                path=error.filename, reason=os_reason(error)), title=_("No report"),
                severity="error", timeout=10)
            return
        self.host.notify(_("Report written: {paths}").format(
            paths=", ".join(str(p) for p in written)), title=_("Combat report"), timeout=8)

    # ---- crash recovery ------------------------------------------------------------

    def offer_recovery(self) -> None:
        """Offer to resume each unfinished combat a crash left journaled, one dialog at
        a time (each answer comes back by callback); then journal ours."""
        from sombra_tui.engine import find_journals  # after the first frame (issue 24)

        self._offer_next_recovery(list(find_journals(config.journal_dir())))

    def _offer_next_recovery(self, paths: list[Path]) -> None:
        from sombra_tui.engine import summarize

        while paths:
            path = paths.pop(0)
            try:
                summary = summarize(path)
            except SombraError as error:
                self.host.notify(_("{error} The journal was left in place.").format(
                    error=error), severity="warning", timeout=10)
                continue
            if summary.clean:  # everything in it was saved: nothing to recover
                path.unlink(missing_ok=True)
                continue
            when = summary.changed.astimezone().strftime("%Y-%m-%d %H:%M")
            self.asks.resume(summary.name, summary.round, summary.phase, when,
                             partial(self._recovery_chosen, path=path, name=summary.name,
                                     paths=paths))
            return
        self.session.start_journal(config.journal_dir())
        self.report_journal_problem()

    def _recovery_chosen(self, choice: Resume, path: Path, name: str,
                         paths: list[Path]) -> None:
        if choice == "resume":
            from sombra_tui.engine import recover

            folder = config.journal_dir()
            self.host.session = Session.recovered(recover(path))
            self.session.start_journal(folder)
            if self.session.journal is not None:
                path.unlink(missing_ok=True)
            self.table.render_state(force_log=True)
            self.host.notify(_("Resumed \"{name}\".").format(name=name), timeout=4)
            self.table.reopen_draft()  # the form left open, with what was typed
            return
        if choice == "discard":
            def confirmed(sure: bool | None) -> None:
                if sure:
                    path.unlink(missing_ok=True)
                self._offer_next_recovery(paths)

            self.asks.confirm(_("Discard \"{name}\" for good? Its unsaved changes are lost."
                                ).format(name=name), _("Discard"), confirmed)
            return
        self._offer_next_recovery(paths)  # later (or backed out): the next one

    def report_journal_problem(self) -> None:
        if self.session.journal_problem:
            self.host.notify(_("{problem} Crash recovery is off for this combat; save "
                               "often.").format(problem=self.session.journal_problem),
                             severity="warning", timeout=10)
            self.session.journal_problem = None


def _nothing() -> None:
    pass
