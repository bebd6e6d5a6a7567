"""The Textual application: wiring only (session, themes, files, screens)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen
from textual.theme import Theme

from sombra_tui import config, themes
from sombra_tui.demo import demo_encounter
from sombra_tui.engine import journal, storage
from sombra_tui.engine.errors import SombraError
from sombra_tui.screens.dialogs import (
    ChoiceDialog,
    ConfirmDialog,
    FileDialog,
    HelpScreen,
    RosterDialog,
)
from sombra_tui.screens.main import MainScreen
from sombra_tui.session import Session

#: (action on the main screen, palette title, palette help) for the command palette.
PALETTE_COMMANDS: list[tuple[str, str, str]] = [
    ("next_step", "Next step", "Start, declare, react, resolve, next phase or round (space)"),
    ("declare", "Declare", "The current character declares (d)"),
    ("react", "React", "Answer the open reaction prompt (r)"),
    ("decline", "Decline the reaction", "The prompted character does not react (x)"),
    ("allow_prompt", "DJ: allow a reaction", "Let the selected character react (A, D12)"),
    ("deny_prompt", "DJ: deny the reaction", "Withdraw the open prompt (z, D12)"),
    ("roll", "Roll the TA", "Roll the acting character's TA (t)"),
    ("type_dice", "Type dice", "Type the dice the player rolled, dS first (y)"),
    ("free_ta", "DJ: free TA", "Ask any character for a TA outside the steps: perception, "
     "first aid, a sentinel's confirming TA (f)"),
    ("prevent", "Mark prevented", "The selected character's round action is cancelled (p)"),
    ("toggle_out", "Mark out / back", "The selected character is out, or back (o)"),
    ("undo", "Undo", "Undo the last command (u)"),
    ("redo", "Redo", "Redo the undone command (U)"),
    ("add_character", "Add a character", "A new character or reinforcement (a)"),
    ("edit_character", "Edit the character", "Edit the selected character (e)"),
    ("remove_character", "Remove the character", "Remove the selected character (delete)"),
    ("adjust_extended", "Adjust an extended action", "Duration, successes, GD; abandon (j)"),
    ("settings", "Encounter settings", "Reacción, niveles de calidad, iniciativa variable (g)"),
]


def slugify(name: str) -> str:
    slug = re.sub(r"[^\w-]+", "-", name.strip().lower()).strip("-")
    return slug or "encuentro"


class SombraApp(App[None]):
    CSS_PATH = "sombra.tcss"
    TITLE = "sombra-tui"
    BINDINGS = [
        Binding("ctrl+s", "save", "Save"),
        Binding("f2", "save_as", "Save as", show=False),
        Binding("ctrl+o", "open", "Open", show=False),
        Binding("i", "import_roster", "Import", show=False),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit_safely", "Quit"),
        Binding("ctrl+q", "quit_safely", "Quit", show=False, priority=True),
    ]

    def __init__(self, session: Session | None = None, *, theme: str | None = None,
                 seed: int | None = None, remember_theme: bool = True,
                 cursor_blink: bool = True, journal: bool = True) -> None:
        super().__init__()
        #: Crash journal and the offer to resume an unfinished combat at start-up.
        self.journaling = journal
        #: False for screenshots and snapshot tests: dialogs' inputs then do not blink.
        self.cursor_blink = cursor_blink
        self.requested_theme = theme
        self.remember_theme = remember_theme
        self.startup_problems: list[str] = []
        self._session = session or Session.new(demo_encounter(seed if seed is not None else 7))
        self.main_screen = MainScreen(self._session)

    @property
    def session(self) -> Session:
        """The open encounter. The app owns it and hands it to the main screen to show."""
        return self._session

    @session.setter
    def session(self, session: Session) -> None:
        self._session = session
        self.main_screen.session = session

    # ---- start-up -----------------------------------------------------------------

    def on_mount(self) -> None:
        loaded = themes.load_all_themes()
        for theme in loaded.themes.values():
            self.register_theme(theme)
        self.startup_problems.extend(loaded.problems)
        preferences = config.load_preferences()
        if preferences.warning:
            self.startup_problems.append(preferences.warning)
        wanted = self.requested_theme or preferences.preferences.theme
        name, warning = themes.pick_theme(wanted, self.available_themes)
        if warning:
            self.startup_problems.append(warning)
        self.theme = name
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.push_screen(self.main_screen)
        for problem in self.startup_problems:
            self.notify(problem, severity="warning", timeout=8)
        if self.journaling:
            # After the first frame: starting the journal writes the whole combat
            # (megabytes after a long evening), and the DJ should see the screen first.
            # Nothing is lost meanwhile: the journal starts with the combat as it is.
            self.call_after_refresh(self.offer_recovery)

    # ---- crash recovery --------------------------------------------------------------

    @work
    async def offer_recovery(self) -> None:
        """Offer to resume each unfinished combat a crash left journaled; then journal ours."""
        folder = config.journal_dir()
        for path in journal.find_journals(folder):
            try:
                summary = journal.summarize(path)
            except SombraError as error:
                self.notify(f"{error} The journal was left in place.", severity="warning",
                            timeout=10)
                continue
            if summary.clean:  # everything in it was saved: nothing to recover
                path.unlink(missing_ok=True)
                continue
            when = summary.changed.astimezone().strftime("%Y-%m-%d %H:%M")
            choice = await self.push_screen_wait(ChoiceDialog(
                f"An unfinished combat was found: \"{summary.name}\", asalto "
                f"{summary.round} ({summary.phase}), last change {when}. It was not saved "
                "when sombra-tui stopped. Resume it?",
                [("r", "Resume", "resume"), ("l", "Later", "later"),
                 ("d", "Discard", "discard")]))
            if choice == "resume":
                self.session = Session.recovered(journal.recover(path))
                self.session.start_journal(folder)
                if self.session.journal is not None:
                    path.unlink(missing_ok=True)
                self.main_screen.render_state(force_log=True)
                self.notify(f"Resumed \"{summary.name}\".", timeout=4)
                return
            if choice == "discard":
                sure = await self.push_screen_wait(ConfirmDialog(
                    f"Discard \"{summary.name}\" for good? Its unsaved changes are lost.",
                    yes="Discard"))
                if sure:
                    path.unlink(missing_ok=True)
        self.session.start_journal(folder)
        self._report_journal_problem()

    def _report_journal_problem(self) -> None:
        if self.session.journal_problem:
            self.notify(f"{self.session.journal_problem} Crash recovery is off for this "
                        "combat; save often.", severity="warning", timeout=10)
            self.session.journal_problem = None

    def _theme_changed(self, theme: Theme) -> None:
        # The panels and dialogs follow the theme themselves (widgets/theme.py).
        if not self.remember_theme:
            return
        try:
            config.save_preferences(config.Preferences(theme=theme.name))
        except OSError as error:
            self.notify(f"Could not remember the theme: {error}", severity="warning")

    def on_main_screen_changed(self, message: MainScreen.Changed) -> None:
        """The main screen changed the session (and rendered it)."""
        self._report_journal_problem()

    def _saved(self) -> None:
        self.main_screen.render_state()  # the title loses its unsaved mark
        self._report_journal_problem()

    # ---- command palette -------------------------------------------------------------

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        main = self.main_screen
        for action, title, help_text in PALETTE_COMMANDS:
            if main.check_action(action, ()) is False:
                continue
            yield SystemCommand(title, help_text,
                                lambda action=action: main.run_action(action))
        yield SystemCommand("Save", "Save the encounter (ctrl+s)", self.action_save)
        yield SystemCommand("Save as", "Save the encounter to a new file (f2)",
                            self.action_save_as)
        yield SystemCommand("Open", "Open an encounter file (ctrl+o)", self.action_open)
        yield SystemCommand("Import characters", "Bring characters from another encounter "
                            "file, e.g. the party (i)", self.action_import_roster)
        yield SystemCommand("Help", "Keys and rules summary (?)", self.action_help)

    # ---- files -----------------------------------------------------------------------

    def default_folder(self) -> Path:
        folder = config.data_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return Path.cwd()
        return folder

    def action_save(self) -> None:
        if self.session.path is None:
            self.action_save_as()
            return
        self._save_to(self.session.path)

    def _save_to(self, path: Path) -> bool:
        try:
            saved = self.session.save(path)
        except SombraError as error:
            self.notify(f"{error} The encounter is still open; nothing was lost.",
                        title="Not saved", severity="error", timeout=10)
            return False
        self.notify(f"Saved to {saved}", timeout=3)
        self._saved()
        return True

    @work
    async def action_save_as(self) -> None:
        folder = self.session.path.parent if self.session.path else self.default_folder()
        suggested = (self.session.path.name if self.session.path
                     else f"{slugify(self.session.name)}.json")
        path = await self.push_screen_wait(FileDialog("save", folder, suggested))
        if path is not None:
            self._save_to(path)

    @work
    async def action_open(self) -> None:
        if self.session.dirty and not await self._settle_unsaved("opening another file"):
            return
        folder = self.session.path.parent if self.session.path else self.default_folder()
        path = await self.push_screen_wait(FileDialog("open", folder))
        if path is None:
            return
        self.open_path(path)

    @work
    async def action_import_roster(self) -> None:
        folder = self.session.path.parent if self.session.path else self.default_folder()
        path = await self.push_screen_wait(FileDialog("open", folder))
        if path is None:
            return
        try:
            roster = storage.read_roster(path)
        except SombraError as error:
            self.notify(f"{error} Nothing was imported.", title="Not imported",
                        severity="error", timeout=10)
            return
        names = [ch.name for ch in self.session.combat.state.characters]
        command = await self.push_screen_wait(
            RosterDialog(roster, storage.roster_clashes(roster, names)))
        if command is not None and self.main_screen.run_command(command) is not None:
            self.notify(f"Imported {len(command.characters)} characters from {roster.source}.",
                        timeout=4)

    def open_path(self, path: Path) -> bool:
        try:
            session = Session.open(path)
        except SombraError as error:
            self.notify(f"{error} The current encounter stays open.", title="Not opened",
                        severity="error", timeout=10)
            return False
        self.session.discard_journal()
        self.session = session
        if self.journaling:
            session.start_journal(config.journal_dir())
        self.main_screen.render_state(force_log=True)
        self.notify(f"Opened {path}", timeout=3)
        return True

    async def _settle_unsaved(self, doing: str) -> bool:
        """Ask what to do with unsaved changes; True when it is fine to go on."""
        choice = await self.push_screen_wait(ChoiceDialog(
            f"The encounter has unsaved changes. Save them before {doing}?",
            [("s", "Save", "save"), ("d", "Discard", "discard"), ("escape", "Cancel",
                                                                  "cancel")]))
        if choice == "save":
            if self.session.path is None:
                folder = self.default_folder()
                path = await self.push_screen_wait(
                    FileDialog("save", folder, f"{slugify(self.session.name)}.json"))
                if path is None:
                    return False
                return self._save_to(path)
            return self._save_to(self.session.path)
        return choice == "discard"

    # ---- help and quit ------------------------------------------------------------------

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    @work
    async def action_quit_safely(self) -> None:
        if self.session.dirty and not await self._settle_unsaved("quitting"):
            return
        self.session.discard_journal()  # saved or discarded on purpose: nothing to recover
        self.exit()
