"""The Textual application: wiring only (session, themes, files, screens)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from textual import work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.screen import Screen
from textual.theme import Theme

from sombra_tui import config, themes
from sombra_tui.demo import demo_encounter
from sombra_tui.engine import i18n, journal, storage
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.i18n import N_, _
from sombra_tui.screens.dialogs import (
    ChoiceDialog,
    ConfirmDialog,
    FileDialog,
    HelpScreen,
    NewEncounterDialog,
    RosterDialog,
)
from sombra_tui.screens.dialogs.settings import LanguageChosen
from sombra_tui.screens.main import MainScreen
from sombra_tui.session import Session

#: (action on the main screen, palette title, palette help) for the command palette.
PALETTE_COMMANDS: list[tuple[str, str, str]] = [
    ("next_step", N_("Next step"),
     N_("Start, declare, react, resolve, next phase or round (space)")),
    ("declare", N_("Declare"), N_("The current character declares (d)")),
    ("react", N_("React"), N_("Answer the open reaction prompt (r)")),
    ("decline", N_("Decline the reaction"), N_("The prompted character does not react (x)")),
    ("allow_prompt", N_("DJ: allow a reaction"),
     N_("Let the selected character react (A)")),
    ("deny_prompt", N_("DJ: deny the reaction"), N_("Withdraw the open prompt (z)")),
    ("roll", N_("Roll the TA"), N_("Roll the acting character's TA (t)")),
    ("type_dice", N_("Type dice"), N_("Type the dice the player rolled, dS first (y)")),
    ("free_ta", N_("DJ: free TA"),
     N_("Ask any character for a TA outside the steps: perception, first aid, a sentinel's "
        "confirming TA (f)")),
    ("prevent", N_("Mark prevented"),
     N_("The selected character's round action is cancelled (p)")),
    ("toggle_out", N_("Mark out / back"), N_("The selected character is out, or back (o)")),
    ("undo", N_("Undo"), N_("Undo the last command (u)")),
    ("redo", N_("Redo"), N_("Redo the undone command (U)")),
    ("add_character", N_("Add a character"),
     N_("A new character or reinforcement; '4 Matón' adds Matón 1-4 (a)")),
    ("edit_character", N_("Edit the character"), N_("Edit the selected character (e)")),
    ("duplicate_character", N_("Duplicate the character"),
     N_("A copy of the selected character's sheet, numbered: Matón 2 gives the next "
        "Matón (c)")),
    ("remove_character", N_("Remove the character"),
     N_("Remove the selected character (delete)")),
    ("adjust_extended", N_("Adjust an extended action"),
     N_("Duration, successes, GD; abandon (j)")),
    ("settings", N_("Encounter settings"),
     N_("Reacción, niveles de calidad, iniciativa variable, whose dice; language (g)")),
]


def slugify(name: str) -> str:
    slug = re.sub(r"[^\w-]+", "-", name.strip().lower()).strip("-")
    return slug or "encuentro"


class SombraApp(App[None]):
    CSS_PATH = "sombra.tcss"
    TITLE = "sombra-tui"
    BINDINGS = [
        Binding("ctrl+s", "save", N_("Save")),
        Binding("f2", "save_as", N_("Save as"), show=False),
        Binding("ctrl+o", "open", N_("Open"), show=False),
        Binding("i", "import_roster", N_("Import"), show=False),
        Binding("question_mark", "help", N_("Help")),
        Binding("q", "quit_safely", N_("Quit")),
        Binding("ctrl+q", "quit_safely", N_("Quit"), show=False, priority=True),
    ]

    def __init__(self, session: Session | None = None, *, theme: str | None = None,
                 seed: int | None = None, remember_theme: bool = True,
                 cursor_blink: bool = True, journal: bool = True,
                 language: str | None = None) -> None:
        # The language first: everything built from here on speaks it (--lang, else the
        # saved preference, else the locale, else Spanish).
        self.preferences = config.load_preferences()
        i18n.set_language(i18n.choose_language(language,
                                               self.preferences.preferences.language))
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
        preferences = self.preferences
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
            self.notify(str(problem), severity="warning", timeout=8)
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
                self.notify(_("{error} The journal was left in place.").format(error=error),
                            severity="warning",
                            timeout=10)
                continue
            if summary.clean:  # everything in it was saved: nothing to recover
                path.unlink(missing_ok=True)
                continue
            when = summary.changed.astimezone().strftime("%Y-%m-%d %H:%M")
            choice = await self.push_screen_wait(ChoiceDialog(
                _("An unfinished combat was found: \"{name}\", asalto {round} ({phase}), "
                  "last change {when}. It was not saved when sombra-tui stopped. Resume it?"
                  ).format(name=summary.name, round=summary.round,
                           phase=_(summary.phase), when=when),
                [("r", _("Resume"), "resume"), ("l", _("Later"), "later"),
                 ("d", _("Discard"), "discard")]))
            if choice == "resume":
                self.session = Session.recovered(journal.recover(path))
                self.session.start_journal(folder)
                if self.session.journal is not None:
                    path.unlink(missing_ok=True)
                self.main_screen.render_state(force_log=True)
                self.notify(_("Resumed \"{name}\".").format(name=summary.name), timeout=4)
                return
            if choice == "discard":
                sure = await self.push_screen_wait(ConfirmDialog(
                    _("Discard \"{name}\" for good? Its unsaved changes are lost.").format(
                        name=summary.name),
                    yes=_("Discard")))
                if sure:
                    path.unlink(missing_ok=True)
        self.session.start_journal(folder)
        self._report_journal_problem()

    def _report_journal_problem(self) -> None:
        if self.session.journal_problem:
            self.notify(_("{problem} Crash recovery is off for this combat; save often."
                          ).format(problem=self.session.journal_problem),
                        severity="warning", timeout=10)
            self.session.journal_problem = None

    def _theme_changed(self, theme: Theme) -> None:
        # The panels and dialogs follow the theme themselves (widgets/theme.py).
        if not self.remember_theme:
            return
        self._remember(theme=theme.name)

    def _remember(self, **changes: str) -> None:
        """Save preferences with `changes`, keeping the others as they were."""
        current = config.load_preferences().preferences
        try:
            config.save_preferences(current.model_copy(update=changes))
        except OSError as error:
            self.notify(_("Could not remember the preference: {error}").format(error=error),
                        severity="warning")

    # ---- language ------------------------------------------------------------------------

    def switch_language(self, code: str) -> None:
        """Speak `code` from now on, remember it, and re-render every screen at once."""
        i18n.set_language(code)
        if self.remember_theme:
            self._remember(language=code)
        self.relabel()

    def relabel(self) -> None:
        """Render every screen again in the language in force (no restart)."""
        self.title = _(self.TITLE)
        for screen in self.screen_stack:
            relabel = getattr(screen, "relabel", None)
            if callable(relabel):  # the main screen, the help (a form keeps what is typed)
                self.call_later(relabel)
            else:
                screen.refresh(layout=True)
        self.refresh_bindings()

    def on_language_chosen(self, message: LanguageChosen) -> None:
        if message.code != i18n.language():
            self.switch_language(message.code)

    def on_main_screen_changed(self, message: MainScreen.Changed) -> None:
        """The main screen changed the session (and rendered it)."""
        self._report_journal_problem()

    def _saved(self) -> None:
        self.main_screen.render_state()  # the title loses its unsaved mark
        self._report_journal_problem()

    # ---- command palette -------------------------------------------------------------

    def action_command_palette(self) -> None:
        """Textual's command palette, its prompt in the DJ's language."""
        if self.use_command_palette and not CommandPalette.is_open(self):
            self.push_screen(CommandPalette(placeholder=_("Search for commands…"),
                                            id="--command-palette"))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        # Textual's own commands (Theme, Quit, Keys, Maximize, Screenshot) are yielded
        # here in the DJ's language instead of super()'s English ones.
        yield SystemCommand(_("Theme"), _("Change the current theme"),
                            self.action_change_theme)
        yield SystemCommand(_("Quit"), _("Quit sombra-tui (asks first if there are unsaved "
                                         "changes)"), self.action_quit_safely)
        if screen.query("HelpPanel"):
            yield SystemCommand(_("Keys"), _("Hide the keys and widget help panel"),
                                self.action_hide_help_panel)
        else:
            yield SystemCommand(_("Keys"), _("Show help for the focused widget and a summary "
                                             "of available keys"),
                                self.action_show_help_panel)
        if screen.maximized is not None:
            yield SystemCommand(_("Minimize"), _("Minimize the widget and restore to normal "
                                                 "size"), screen.action_minimize)
        elif screen.focused is not None and screen.focused.allow_maximize:
            yield SystemCommand(_("Maximize"), _("Maximize the focused widget"),
                                screen.action_maximize)
        yield SystemCommand(_("Screenshot"), _("Save an SVG 'screenshot' of the current "
                                               "screen"),
                            lambda: self.set_timer(0.1, self.deliver_screenshot))
        main = self.main_screen
        for action, title, help_text in PALETTE_COMMANDS:
            if main.check_action(action, ()) is False:
                continue
            yield SystemCommand(_(title), _(help_text),
                                lambda action=action: main.run_action(action))
        yield SystemCommand(_("New encounter"), _("Start an empty encounter, optionally with "
                                                  "a party file's characters (ctrl+n)"),
                            self.action_new_encounter)
        yield SystemCommand(_("Save"), _("Save the encounter (ctrl+s)"), self.action_save)
        yield SystemCommand(_("Save as"), _("Save the encounter to a new file (f2)"),
                            self.action_save_as)
        yield SystemCommand(_("Open"), _("Open an encounter file (ctrl+o)"), self.action_open)
        yield SystemCommand(_("Import characters"), _("Bring characters from another "
                                                      "encounter file, e.g. the party (i)"),
                            self.action_import_roster)
        yield SystemCommand(_("Help"), _("Keys and rules summary (?)"), self.action_help)
        for code in i18n.LANGUAGES:
            if code != i18n.language():
                # Each language named in itself, so a DJ who cannot read the other finds it.
                yield SystemCommand(_("Language: {language}").format(
                                        language=i18n.LANGUAGE_NAMES[code]),
                                    _("Speak {language} from now on (remembered)").format(
                                        language=i18n.LANGUAGE_NAMES[code]),
                                    lambda code=code: self.switch_language(code))

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
            self.notify(_("{error} The encounter is still open; nothing was lost.").format(
                error=error), title=_("Not saved"), severity="error", timeout=10)
            return False
        self.notify(_("Saved to {path}").format(path=saved), timeout=3)
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
        if self.session.dirty and not await self._settle_unsaved(
                _("The encounter has unsaved changes. Save them before opening another "
                  "file?")):
            return
        folder = self.session.path.parent if self.session.path else self.default_folder()
        path = await self.push_screen_wait(FileDialog("open", folder))
        if path is None:
            return
        self.open_path(path)

    @work
    async def action_new_encounter(self) -> None:
        """An empty encounter (or one with a party), after asking about unsaved changes."""
        if self.session.dirty and not await self._settle_unsaved(
                "starting a new encounter"):
            return
        folder = self.session.path.parent if self.session.path else self.default_folder()
        encounter = await self.push_screen_wait(NewEncounterDialog(folder))
        if encounter is None:
            return
        self.session.discard_journal()
        self.session = Session.new(encounter)
        if self.journaling:
            self.session.start_journal(config.journal_dir())
        self.main_screen.render_state(force_log=True)
        count = len(encounter.characters)
        message = (i18n.ngettext("New encounter \"{name}\" with {count} character.",
                                 "New encounter \"{name}\" with {count} characters.", count)
                   if count else _("New encounter \"{name}\": add characters with a (or "
                                   "'4 Matón')."))
        self.notify(message.format(name=encounter.name, count=count), timeout=5)

    @work
    async def action_import_roster(self) -> None:
        folder = self.session.path.parent if self.session.path else self.default_folder()
        path = await self.push_screen_wait(FileDialog("open", folder))
        if path is None:
            return
        try:
            roster = storage.read_roster(path)
        except SombraError as error:
            self.notify(_("{error} Nothing was imported.").format(error=error),
                        title=_("Not imported"), severity="error", timeout=10)
            return
        names = [ch.name for ch in self.session.combat.state.characters]
        command = await self.push_screen_wait(
            RosterDialog(roster, storage.roster_clashes(roster, names)))
        if command is not None and self.main_screen.run_command(command) is not None:
            self.notify(i18n.ngettext("Imported {count} character from {source}.",
                                      "Imported {count} characters from {source}.",
                                      len(command.characters)).format(
                count=len(command.characters), source=roster.source),
                        timeout=4)

    def open_path(self, path: Path) -> bool:
        try:
            session = Session.open(path)
        except SombraError as error:
            self.notify(_("{error} The current encounter stays open.").format(error=error),
                        title=_("Not opened"), severity="error", timeout=10)
            return False
        self.session.discard_journal()
        self.session = session
        if self.journaling:
            session.start_journal(config.journal_dir())
        self.main_screen.render_state(force_log=True)
        self.notify(_("Opened {path}").format(path=path), timeout=3)
        return True

    async def _settle_unsaved(self, question: str) -> bool:
        """Ask `question` about unsaved changes; True when it is fine to go on."""
        choice = await self.push_screen_wait(ChoiceDialog(
            question,
            [("s", _("Save"), "save"), ("d", _("Discard"), "discard"),
             ("escape", _("Cancel"), "cancel")]))
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
        if self.session.dirty and not await self._settle_unsaved(
                _("The encounter has unsaved changes. Save them before quitting?")):
            return
        self.session.discard_journal()  # saved or discarded on purpose: nothing to recover
        self.exit()
