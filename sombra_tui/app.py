"""The Textual application: wiring only (session, themes, files, screens)."""

from __future__ import annotations

import asyncio
import functools
import gc
import re
import secrets
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import work
from textual.actions import SkipAction
from textual.app import SystemCommand
from textual.command import CommandPalette
from textual.screen import Screen
from textual.theme import Theme

from sombra_tui import config, keys, resume_gc, themes, ui_state
from sombra_tui.engine import CarryPlan, Encounter, ImportCharacters, SombraError, i18n
from sombra_tui.engine.i18n import _, pgettext
from sombra_tui.players.ports import DEFAULT_PORT, PortInUse
from sombra_tui.screens.main import MainScreen
from sombra_tui.session import Session
from sombra_tui.textual_compat import StopsOnceComposed

if TYPE_CHECKING:  # imported where first used (issue 24: a lean cold start)
    from sombra_tui.players.server import PlayersServer
    from sombra_tui.screens.dialogs.settings import LanguageChosen, OddsShown


def slugify(name: str) -> str:
    slug = re.sub(r"[^\w-]+", "-", name.strip().lower()).strip("-")
    return slug or "encuentro"


class SombraApp(StopsOnceComposed[None]):
    CSS_PATH = "sombra.tcss"
    TITLE = "sombra-tui"
    # Built from the one list of keys (sombra_tui/keys.py), as every screen's are.
    BINDINGS = keys.bindings(keys.Scope.APP)

    def __init__(self, session: Session | None = None, *, theme: str | None = None,
                 seed: int | None = None, remember_theme: bool = True,
                 cursor_blink: bool = True, journal: bool = True,
                 language: str | None = None, prepare_dialogs: bool = True) -> None:
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
        #: Build the round's dialogs unshown once the first screen is up (MainScreen);
        #: False in tests, which would spend that CPU on dialogs they never open.
        self.prepare_dialogs = prepare_dialogs
        self.requested_theme = theme
        self.remember_theme = remember_theme
        self.startup_problems: list[str] = []
        #: The DJ's rebindings that Textual applies (binding id -> keys; keys.py).
        self.keymap_in_force: dict[str, str] = {}
        self._quitting = False
        if session is None:  # the demo, loaded only when it is shown (issue 41 item 6)
            from sombra_tui.demo import demo_encounter

            session = Session.new(demo_encounter(seed if seed is not None else 7))
        self._session = session
        self.main_screen = MainScreen(self._session)
        #: The players' view (issue 23): the page's server while it runs, and what
        #: stops it following the session.
        self.players_server: PlayersServer | None = None
        self._players_unfollow: Callable[[], None] | None = None
        #: The port it tries first (0: any free port, for the tests).
        self.players_port = DEFAULT_PORT
        #: The port the page last ran on while the app runs (None before the first
        #: start): F8 starts it there again, so a page following the old address
        #: reconnects by itself; if it is taken, `players_port` as the first time.
        self._players_last_port: int | None = None
        #: The local network's token, kept while the app runs: a phone following the
        #: page reconnects by itself after the DJ stops and starts it again.
        self._players_token = secrets.token_urlsafe(12)

    @property
    def session(self) -> Session:
        """The open encounter. The app owns it and hands it to the main screen to show."""
        return self._session

    @session.setter
    def session(self, session: Session) -> None:
        self._session = session
        self.main_screen.session = session
        self.main_screen.prepare_dialogs_soon()  # another encounter, other shapes
        self._follow_players()  # another encounter: the page shows it at once
        self._remember_opened()

    def _remember_opened(self) -> None:
        """The open encounter's file heads the list of the last ones (`--paths`)."""
        if self._session.path is not None:
            ui_state.opened(self._session.path)

    # ---- start-up -----------------------------------------------------------------

    def on_mount(self) -> None:
        # `sombra-tui` paused the cyclic garbage collector for the start (issue 24 item
        # 5); it runs again once the first screen is drawn.
        self.call_after_refresh(resume_gc)
        self.call_after_refresh(self._remember_opened)
        loaded = themes.load_all_themes()
        for theme in loaded.themes.values():
            self.register_theme(theme)
        self.startup_problems.extend(loaded.problems)
        preferences = self.preferences
        if preferences.warning:
            self.startup_problems.append(preferences.warning)
        resolved = keys.resolve_keymap(preferences.preferences.keys,
                                       str(config.preferences_path()))
        self.startup_problems.extend(resolved.problems)
        self.keymap_in_force = resolved.keymap
        self.set_keymap(resolved.keymap)
        if "command_palette" in resolved.keymap:  # the footer shows it by this key
            self.COMMAND_PALETTE_BINDING = resolved.keymap["command_palette"].split(",")[0]
        wanted = self.requested_theme or preferences.preferences.theme
        name, warning = themes.pick_theme(wanted, self.available_themes)
        if warning:
            self.startup_problems.append(warning)
        self.theme = name
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.push_screen(self.main_screen)
        for problem in self.startup_problems:
            self.notify(str(problem), severity="warning", timeout=8)
        self._say_notices(self._session)
        if self.journaling:
            # After the first frame: starting the journal writes the whole combat
            # (megabytes after a long evening), and the DJ should see the screen first.
            # Nothing is lost meanwhile: the journal starts with the combat as it is.
            self.call_after_refresh(self.offer_recovery)

    # ---- crash recovery --------------------------------------------------------------

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
                self.notify(_("{error} The journal was left in place.").format(error=error),
                            severity="warning",
                            timeout=10)
                continue
            if summary.clean:  # everything in it was saved: nothing to recover
                path.unlink(missing_ok=True)
                continue
            when = summary.changed.astimezone().strftime("%Y-%m-%d %H:%M")
            from sombra_tui.screens.dialogs.confirm import ChoiceDialog, choice_keys
            self.push_screen(ChoiceDialog(
                _("An unfinished combat was found: \"{name}\", asalto {round} ({phase}), "
                  "last change {when}. It was not saved when sombra-tui stopped. Resume it?"
                  ).format(name=summary.name, round=summary.round,
                           phase=recovered_phase(summary.phase), when=when),
                [(choice_keys(pgettext("key of Resume", "r"), "r"), _("Resume"), "resume"),
                 (choice_keys(pgettext("key of Later", "l"), "l"), _("Later"), "later"),
                 (choice_keys(pgettext("key of Discard", "d"), "d"), _("Discard"),
                  "discard")]),
                functools.partial(self._recovery_chosen, path=path, name=summary.name,
                                  paths=paths))
            return
        self.session.start_journal(config.journal_dir())
        self._report_journal_problem()

    def _recovery_chosen(self, choice: str | None, path: Path, name: str,
                         paths: list[Path]) -> None:
        if choice == "resume":
            from sombra_tui.engine import recover

            folder = config.journal_dir()
            self.session = Session.recovered(recover(path))
            self.session.start_journal(folder)
            if self.session.journal is not None:
                path.unlink(missing_ok=True)
            self.main_screen.render_state(force_log=True)
            self.notify(_("Resumed \"{name}\".").format(name=name), timeout=4)
            self.main_screen.reopen_draft()  # the form left open, with what was typed
            return
        if choice == "discard":
            from sombra_tui.screens.dialogs.confirm import ConfirmDialog

            def confirmed(sure: bool | None) -> None:
                if sure:
                    path.unlink(missing_ok=True)
                self._offer_next_recovery(paths)

            self.push_screen(ConfirmDialog(
                _("Discard \"{name}\" for good? Its unsaved changes are lost.").format(
                    name=name), yes=_("Discard")), confirmed)
            return
        self._offer_next_recovery(paths)  # later (or backed out): the next one

    def _report_players_problem(self) -> None:
        server = self.players_server
        problem = (server.problem if server else None) or self.session.players_problem
        if problem:
            self.notify(_("The players' view missed a change: {problem}").format(
                problem=problem), severity="warning", timeout=10)
            self.session.players_problem = None
            if server is not None:
                server.problem = None

    def _report_journal_problem(self) -> None:
        if self.session.journal_problem:
            self.notify(_("{problem} Crash recovery is off for this combat; save often."
                          ).format(problem=self.session.journal_problem),
                        severity="warning", timeout=10)
            self.session.journal_problem = None

    def _theme_changed(self, theme: Theme) -> None:
        # The panels and dialogs follow the theme themselves (widgets/theme.py); the
        # kept dialogs were styled for the old one.
        self.main_screen.prepare_dialogs_soon()
        if not self.remember_theme:
            return
        self._remember(theme=theme.name)

    def _remember(self, **changes: object) -> None:
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
        if self.players_server is not None:  # the page reloads in the new language
            self.players_server.refresh()

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

    def on_odds_shown(self, message: OddsShown) -> None:
        """Issue 37: the odds before each roll shown or hidden, from now on, remembered."""
        self.preferences.preferences.show_odds = message.shown
        if self.remember_theme:
            self._remember(show_odds=message.shown)

    def on_main_screen_changed(self, message: MainScreen.Changed) -> None:
        """The main screen changed the session (and rendered it)."""
        self._report_journal_problem()
        self._report_players_problem()

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
        # Textual's "Quit" runs our quit too, which asks first if unsaved.
        yield SystemCommand(_("Quit"), _("Quit sombra-tui (asks first if there are unsaved "
                                         "changes)") + f" ({self._keys_of('quit')})",
                            self.action_quit_anywhere)
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
        for key in keys.palette_keys(keys.Scope.MAIN):
            if main.check_action(key.action, ()) is False:
                continue
            # The app's own actions bound on the main screen (ctrl+n) run as the app's.
            callback = (getattr(self, f"action_{key.action.removeprefix('app.')}")
                        if key.action.startswith("app.")
                        else lambda action=key.action: main.run_action(action))
            yield SystemCommand(_(key.title or key.description), self._palette_help(key),
                                callback)
        for key in keys.palette_keys(keys.Scope.APP):
            action = getattr(self, f"action_{key.action}")
            # A key of the main screen only (Key.main_only) works from the palette over
            # any screen, as it always did.
            callback = (partial(self.call_later, action, anywhere=True) if key.main_only
                        else action)
            yield SystemCommand(_(key.title or key.description), self._palette_help(key),
                                callback)
        yield SystemCommand(_("Carry the party on"), _(  # issue 38
            "A new encounter from the end of this one: the characters you pick with their "
            "wounds and conditions, after the time between the scenes"),
            partial(self.call_later, self.action_carry_on))
        for code in i18n.LANGUAGES:
            if code != i18n.language():
                # Each language named in itself, so a DJ who cannot read the other finds it.
                yield SystemCommand(_("Language: {language}").format(
                                        language=i18n.LANGUAGE_NAMES[code]),
                                    _("Speak {language} from now on (remembered)").format(
                                        language=i18n.LANGUAGE_NAMES[code]),
                                    lambda code=code: self.switch_language(code))

    def _keys_of(self, binding_id: str) -> str:
        return keys.keys_in_force(binding_id, self.keymap_in_force)

    def _palette_help(self, key: keys.Key) -> str:
        return f"{_(key.help)} ({self._keys_of(key.id)})"

    # ---- files -----------------------------------------------------------------------

    def default_folder(self) -> Path:
        folder = config.data_dir()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return Path.cwd()
        return folder

    def action_save(self, anywhere: bool = False) -> None:
        self._main_screen_only(anywhere)
        if self.session.path is None:
            self.action_save_as(anywhere=True)
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
        ui_state.opened(saved)
        self._saved()
        return True

    # ---- flows of dialogs -----------------------------------------------------------------
    #
    # Save as, open, import, new encounter, the players' view and quit each push their
    # first dialog from the key's action, at once (their keys are priority bindings,
    # keys.py): Textual runs a priority binding's action as it reads the key, so the
    # dialog is on the stack before the next key is read, and keys typed right behind
    # it land in it (Dialog keeps them until its first field has the focus). Each next
    # step is chained from the dialog's callback.

    def _main_screen_only(self, anywhere: bool = False) -> None:
        """The keys of these actions act on the main screen only (Key.main_only): in
        front of a dialog the key is the dialog's (typed in a field, say), and skipping
        the action hands it on. (Not check_action: the main screen's footer, under the
        dialog, would lose them.) The palette runs them `anywhere`, as it always did."""
        if not anywhere and self.screen is not self.main_screen:
            raise SkipAction()

    def _folder(self) -> Path:
        """Where the file dialogs start: the open file's folder, else the data folder."""
        return self.session.path.parent if self.session.path else self.default_folder()

    def action_save_as(self, anywhere: bool = False) -> None:
        self._main_screen_only(anywhere)
        suggested = (self.session.path.name if self.session.path
                     else f"{slugify(self.session.name)}.json")

        def chosen(path: Path | None) -> None:
            if path is not None:
                self._save_to(path)
        from sombra_tui.screens.dialogs.files import FileDialog
        self.push_screen(FileDialog("save", self._folder(), suggested), chosen)

    def action_open(self, anywhere: bool = False) -> None:
        self._main_screen_only(anywhere)

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_path(path)

        def go_on() -> None:
            from sombra_tui.screens.dialogs.files import FileDialog
            self.push_screen(FileDialog("open", self._folder()), chosen)
        self._settle_unsaved_then(_("The encounter has unsaved changes. Save them before "
                                    "opening another file?"), go_on)

    def action_new_encounter(self) -> None:
        """An empty encounter (or one with a party), after asking about unsaved changes.
        (Its key is bound on the main screen only.)"""
        def go_on() -> None:
            from sombra_tui.screens.dialogs.new_encounter import NewEncounterDialog
            self.push_screen(NewEncounterDialog(self._folder()), self._start_encounter)
        self._settle_unsaved_then(_("The encounter has unsaved changes. Save them before "
                                    "starting a new encounter?"), go_on)

    def _start_encounter(self, encounter: Encounter | None) -> None:
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
                   if count else _("New encounter \"{name}\": add characters with {add} (or "
                                   "'4 Matón')."))
        self.notify(message.format(name=encounter.name, count=count, add=keys.first_key_in_force(
            "add_character", self.keymap_in_force)), timeout=5)

    def action_import_roster(self, anywhere: bool = False) -> None:
        self._main_screen_only(anywhere)
        from sombra_tui.screens.dialogs.files import FileDialog
        self.push_screen(FileDialog(
            "open", self._folder(), title=_("Import characters from an encounter file"),
            confirm=_("Import ({key})")), self._import_from)

    def _import_from(self, path: Path | None) -> None:
        if path is None:
            return
        from sombra_tui.engine import read_roster, roster_clashes

        try:
            roster = read_roster(path)
        except SombraError as error:
            self.notify(_("{error} Nothing was imported.").format(error=error),
                        title=_("Not imported"), severity="error", timeout=10)
            return
        names = [ch.name for ch in self.session.combat.state.characters]

        def chosen(command: ImportCharacters | None) -> None:
            if command is not None and self.main_screen.run_command(command) is not None:
                self.notify(i18n.ngettext("Imported {count} character from {source}.",
                                          "Imported {count} characters from {source}.",
                                          len(command.characters)).format(
                    count=len(command.characters), source=roster.source),
                            timeout=4)
        from sombra_tui.screens.dialogs.roster import RosterDialog
        self.push_screen(RosterDialog(roster, roster_clashes(roster, names)), chosen)

    def action_report(self, anywhere: bool = False) -> None:
        """Issue 38: the combat's report, Markdown and HTML, beside the encounter's file
        (the data folder if unsaved), each under a new name; says where."""
        self._main_screen_only(anywhere)
        from sombra_tui.report import write_beside

        path = self.session.path
        try:
            written = write_beside(self.session.combat, self._folder(),
                                   path.name if path else slugify(self.session.name))
        except OSError as error:
            self.notify(_("cannot write the report to {path}: {reason}").format(
                path=error.filename, reason=error.strerror), title=_("No report"),
                severity="error", timeout=10)
            return
        self.notify(_("Report written: {paths}").format(
            paths=", ".join(str(p) for p in written)), title=_("Combat report"), timeout=8)

    def action_carry_on(self) -> None:
        """Issue 38: pick who goes on and the time between; see what it did; start."""
        from sombra_tui.screens.dialogs.carry import CarryOnDialog
        self.push_screen(CarryOnDialog(self.session.combat.state, secrets.randbelow(2**31)),
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
                self._settle_unsaved_then(_("The encounter has unsaved changes. Save them "
                                            "before carrying the party on?"),
                                          partial(self._start_encounter, plan.encounter))
        from sombra_tui.screens.dialogs.confirm import ConfirmDialog
        self.push_screen(ConfirmDialog(question, yes=_("Start")), confirmed)

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
        self._say_notices(session)
        return True

    def get_key_display(self, binding: Any) -> str:
        """A key as the footer shows it: a key named by a word in the DJ's language
        ("espacio"), as the panel's hints and the buttons say it."""
        if not binding.key_display and binding.key in keys.SPOKEN:
            return _(keys.SPOKEN[binding.key])
        return super().get_key_display(binding)

    def _say_notices(self, session: Session) -> None:
        """What loading the file had to say, once (an older format converted)."""
        for notice in session.combat.notices:
            self.notify(_(notice), title=_("Older file"), timeout=10)
        session.combat.notices = []
        if session.combat.checking or session.combat.check_problem is not None:
            self._check_opened(session)  # a worker from now on: app.workers waits for it

    @work(group="check")
    async def _check_opened(self, session: Session) -> None:
        """Issue 24: the file's check between frames (after the screen's first one), then
        the log and its word if any."""
        painted = asyncio.Event()
        self.call_after_refresh(painted.set)  # the screen first
        await painted.wait()
        problem = await session.checked()
        if session is self.session:
            self.main_screen.render_state(force_log=True)
            if problem:
                self.notify(problem, title=_("File checked"), severity="warning", timeout=15)

    def _settle_unsaved_then(self, question: str, go_on: Callable[[], object],
                             stopped: Callable[[], object] | None = None) -> None:
        """`go_on` at once if nothing is unsaved; else ask `question` (save / discard /
        cancel) and `go_on` once saved or discarded, or `stopped` if not."""
        if not self.session.dirty:
            go_on()
            return

        def saved_to(path: Path | None) -> None:
            (go_on if path is not None and self._save_to(path) else stopped or _nothing)()

        def chosen(choice: str | None) -> None:
            if choice == "save" and self.session.path is None:
                from sombra_tui.screens.dialogs.files import FileDialog
                self.push_screen(FileDialog("save", self.default_folder(),
                                            f"{slugify(self.session.name)}.json"), saved_to)
                return
            fine = (choice == "discard" or
                    (choice == "save" and self.session.path is not None
                     and self._save_to(self.session.path)))
            (go_on if fine else stopped or _nothing)()
        from sombra_tui.screens.dialogs.confirm import ChoiceDialog, choice_keys
        self.push_screen(ChoiceDialog(
            question,
            [(choice_keys(pgettext("key of Save", "s"), "s"), _("Save"), "save"),
             (choice_keys(pgettext("key of Discard", "d"), "d"), _("Discard"), "discard"),
             ("escape", _("Cancel"), "cancel")]), chosen)

    # ---- the players' view (issue 23) ------------------------------------------------------

    async def action_players_view(self, anywhere: bool = False) -> None:
        """Start the players' page and show its address and QR code; stop it if it runs.
        Textual awaits this action before it reads the next key: keys typed right after
        the key wait for the page's dialog, as for every flow's first dialog."""
        self._main_screen_only(anywhere)
        server = self.players_server
        if server is not None and server.running:
            await self._stop_players()
            return
        last = self._players_last_port
        await self._start_players(
            self.preferences.preferences.players_lan,
            self.players_port if last is None else last, self._show_players,
            fallback=None if last in (None, self.players_port) else self.players_port)

    async def _start_players(self, lan: bool, port: int, started: Callable[[], object],
                             fallback: int | None = None) -> None:
        """Start the page's server, then `started`; a port in use offers the free one
        it found, or (`fallback`: `port` was the page's last address) the DJ is told
        and `fallback` is tried as the first time."""
        from sombra_tui.players.server import PlayersServer  # aiohttp: on first use
        server = PlayersServer(self.session.players_snapshot, lan=lan, port=port,
                               token=self._players_token)
        try:
            await server.start()
        except PortInUse as error:
            if fallback is not None:
                self.notify(_("Port {port}, the players' view's last address, is in use "
                              "now: the page moves to another address (give it to the "
                              "players again).").format(port=port),
                            severity="warning", timeout=8)
                await self._start_players(lan, fallback, started)
                return
            problem, suggestion = str(error), error.suggestion
            if suggestion is None:
                self.notify(problem, severity="error", timeout=8)
                return

            async def answered(yes: bool | None) -> None:
                if yes:
                    await self._start_players(lan, suggestion, started)
                else:
                    self.notify(problem, severity="error", timeout=8)
            from sombra_tui.screens.dialogs.confirm import ConfirmDialog
            self.push_screen(ConfirmDialog(_("{problem} Use port {port}?").format(
                problem=problem, port=suggestion),
                yes=_("Use port {port}").format(port=suggestion)), answered)
            return
        except OSError as error:
            self.notify(_("The players' view could not start: {error}").format(
                error=error.strerror or error), severity="error", timeout=8)
            return
        self.players_server = server
        self._players_last_port = server.port
        self._follow_players()
        started()

    def _follow_players(self) -> None:
        """The page follows the open session (after every command, undo and redo)."""
        if self._players_unfollow is not None:
            self._players_unfollow()
            self._players_unfollow = None
        server = self.players_server
        if server is None or not server.running:
            return
        server.snapshot = self.session.players_snapshot
        self._players_unfollow = self.session.add_players_watcher(server.changed)
        server.refresh()

    async def _stop_players(self, *, quiet: bool = False) -> None:
        server, self.players_server = self.players_server, None
        self._follow_players()
        if server is not None:
            await server.stop()
            if not quiet:
                self.notify(_("The players' view stopped."))

    def _show_players(self) -> None:
        """The address and QR code; the DJ may move it to the local network or back
        (then it is shown again), or stop it."""
        server = self.players_server
        if server is None or not server.running:
            return
        from sombra_tui.screens.dialogs.players import LAN, LOCAL, STOP, PlayersViewDialog

        async def chosen(choice: str | None) -> None:
            if choice == STOP:
                await self._stop_players()
            elif choice in (LAN, LOCAL):
                lan = choice == LAN
                port = server.port
                await self._stop_players(quiet=True)
                self.preferences.preferences.players_lan = lan
                if self.remember_theme:
                    self._remember(players_lan=lan)
                await self._start_players(lan, port, self._show_players)
        self.push_screen(PlayersViewDialog(
            server.url, lan=server.lan, clients=server.clients,
            stop_keys=(self.keymap_in_force.get("players_view")
                       or keys.BY_ID["players_view"].keys),
            shown_as=self._keys_of("players_view")), chosen)

    async def on_unmount(self) -> None:
        resume_gc()  # if the app stops before its first screen
        if self.players_server is not None:
            await self.players_server.stop()

    # ---- help and quit ------------------------------------------------------------------

    def ask_to_discard(self, answered: Callable[[bool | None], None]) -> None:
        """Escape on a form the DJ typed in (issue 35 item 5): keep editing, the answer
        in focus (a second Escape or Enter keeps it), or discard (True)."""
        from sombra_tui.screens.dialogs.confirm import ConfirmDialog
        self.push_screen(ConfirmDialog(
            _("Throw away what you typed in this form?"), yes=_("Discard"),
            no=_("Keep editing")), answered)

    def action_help(self, anywhere: bool = False) -> None:
        self._main_screen_only(anywhere)
        from sombra_tui.screens.dialogs.help import HelpScreen  # markdown: on first use
        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(self.keymap_in_force))

    def action_quit(self) -> None:  # type: ignore[override]
        """q and ctrl+c: the main screen's (Key.main_only)."""
        self._main_screen_only()
        self.action_quit_anywhere()

    def action_quit_anywhere(self) -> None:
        """Every way out: q, ctrl+q, ctrl+c and the palette's Quit. With unsaved changes
        it asks first (save / discard / cancel)."""
        if self._quitting:  # the question is already open
            return
        self._quitting = True

        def stopped() -> None:
            self._quitting = False

        def leave() -> None:
            self._quitting = False
            self.session.discard_journal()  # saved or discarded on purpose: nothing to recover
            self.exit()
        self._settle_unsaved_then(
            _("The encounter has unsaved changes. Save them before quitting?"), leave, stopped)


def _nothing() -> None:
    pass


# Issue 24 item 5 (cold start): the modules loaded so far (Textual, the screens, the
# widgets) live as long as the app; out of the collector's scans, as the engine's are.
gc.freeze()


def recovered_phase(phase: str) -> str:
    """A journal's phase as the DJ reads it ("Round actions", not its code name); one
    this version does not know is shown as it was written."""
    from sombra_tui.engine import Phase
    from sombra_tui.widgets.formatting import phase_label
    try:
        return phase_label(Phase(phase))
    except ValueError:
        return phase
