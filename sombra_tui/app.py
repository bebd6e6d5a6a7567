"""The Textual application: wiring only. It owns the session and composes its jobs
(issue 36 item 2): the files and crash recovery (`control/files.py`), the players'
server (`control/players.py`), each a plain controller over the session that asks the
DJ through the app's dialogs (`screens/asks.py`); the app keeps the palette, the
language, the theme and the keys' actions, which hand each job to its controller."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from textual.actions import SkipAction
from textual.app import SystemCommand
from textual.command import CommandPalette
from textual.screen import Screen
from textual.theme import Theme

from sombra_tui import config, keys, resume_gc, themes, ui_state
from sombra_tui.control.files import Files
from sombra_tui.control.players import Players
from sombra_tui.engine import i18n
from sombra_tui.engine.i18n import _
from sombra_tui.screens.asks import DialogAsks
from sombra_tui.screens.main import MainScreen
from sombra_tui.session import Session
from sombra_tui.textual_compat import StopsOnceComposed

if TYPE_CHECKING:  # imported where first used (issue 24: a lean cold start)
    from sombra_tui.players.server import PlayersServer
    from sombra_tui.screens.dialogs.odds_line import ReactionGradesTyped
    from sombra_tui.screens.dialogs.settings import LanguageChosen, OddsShown


class SombraApp(StopsOnceComposed[None]):
    CSS_PATH = "sombra.tcss"
    TITLE = "sombra-tui"
    # Built from the one list of keys (sombra_tui/key_list.py), as every screen's are.
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
        asks = DialogAsks(self)
        #: The open encounter's files and crash recovery.
        self.files = Files(self, self.main_screen, asks)
        #: The players' view (issue 23): the page's server.
        self.players = Players(self, asks,
                               lan=lambda: self.preferences.preferences.players_lan,
                               lan_chosen=self._lan_chosen)

    @property
    def session(self) -> Session:
        """The open encounter. The app owns it and hands it to the main screen to show."""
        return self._session

    @session.setter
    def session(self, session: Session) -> None:
        self._session = session
        self.main_screen.session = session
        self.main_screen.prepare_dialogs_soon()  # another encounter, other shapes
        self.players.follow()  # another encounter: the page shows it at once
        self._remember_opened()

    @property
    def players_server(self) -> PlayersServer | None:
        """The players' page's server while it runs."""
        return self.players.server

    @property
    def players_port(self) -> int:
        """The port the players' page tries first (0: any free port, for the tests)."""
        return self.players.port

    @players_port.setter
    def players_port(self, port: int) -> None:
        self.players.port = port

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
            # Textual types it ClassVar but reads it from the app: set for this app only.
            self.COMMAND_PALETTE_BINDING = (  # type: ignore[misc]
                resolved.keymap["command_palette"].split(",")[0])
        wanted = self.requested_theme or preferences.preferences.theme
        name, warning = themes.pick_theme(wanted, self.available_themes)
        if warning:
            self.startup_problems.append(warning)
        self.theme = name
        self.theme_changed_signal.subscribe(self, self._theme_changed)
        self.push_screen(self.main_screen)
        for problem in self.startup_problems:
            self.notify(str(problem), severity="warning", timeout=8)
        self.files.say_notices(self._session)
        if self.journaling:
            # After the first frame: starting the journal writes the whole combat
            # (megabytes after a long evening), and the DJ should see the screen first.
            # Nothing is lost meanwhile: the journal starts with the combat as it is.
            self.call_after_refresh(self.files.offer_recovery)

    # ---- preferences: theme, language, odds, the page's network ------------------------

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

    def switch_language(self, code: str) -> None:
        """Speak `code` from now on, remember it, and re-render every screen at once."""
        i18n.set_language(code)
        if self.remember_theme:
            self._remember(language=code)
        self.relabel()
        self.players.refresh()  # the page reloads in the new language

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

    def on_reaction_grades_typed(self, message: ReactionGradesTyped) -> None:
        """Issue 37 item 3: the players' odds follow the open reacción dialog's grades."""
        self.players.grades_typed(message.prompt, message.grades)

    def _lan_chosen(self, lan: bool) -> None:
        """The players' page moved to the local network (True) or back: remembered."""
        self.preferences.preferences.players_lan = lan
        if self.remember_theme:
            self._remember(players_lan=lan)

    def on_main_screen_changed(self, message: MainScreen.Changed) -> None:
        """The main screen changed the session (and rendered it)."""
        self.files.report_journal_problem()
        self.players.report_problem()

    # ---- command palette -------------------------------------------------------------

    def action_command_palette(self) -> None:
        """Textual's command palette, its prompt in the DJ's language."""
        # Textual asks for an App[object] (invariant) where any app does: it reads its screen.
        if self.use_command_palette and not CommandPalette.is_open(self):  # type: ignore[arg-type]
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

    # ---- the keys' actions: each hands its job to its controller ------------------------
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

    def action_save(self, anywhere: bool = False) -> None:
        self._main_screen_only(anywhere)
        self.files.save()

    def action_save_as(self, anywhere: bool = False) -> None:
        self._main_screen_only(anywhere)
        self.files.save_as()

    def action_open(self, anywhere: bool = False) -> None:
        self._main_screen_only(anywhere)
        self.files.open()

    def action_new_encounter(self) -> None:
        """An empty encounter (or one with a party), after asking about unsaved changes.
        (Its key is bound on the main screen only.)"""
        self.files.new_encounter()

    def action_import_roster(self, anywhere: bool = False) -> None:
        self._main_screen_only(anywhere)
        self.files.import_roster()

    def action_report(self, anywhere: bool = False) -> None:
        """Issue 38: the combat's report beside the encounter's file."""
        self._main_screen_only(anywhere)
        self.files.report()

    def action_carry_on(self) -> None:
        """Issue 38: a new encounter from the end of this one."""
        self.files.carry_on()

    async def action_players_view(self, anywhere: bool = False) -> None:
        """Start the players' page and show its address and QR code; stop it if it runs.
        Textual awaits this action before it reads the next key: keys typed right after
        the key wait for the page's dialog, as for every flow's first dialog."""
        self._main_screen_only(anywhere)
        await self.players.toggle()

    def get_key_display(self, binding: Any) -> str:
        """A key as the footer shows it: a key named by a word in the DJ's language
        ("espacio"), as the panel's hints and the buttons say it."""
        if not binding.key_display and binding.key in keys.SPOKEN:
            return _(keys.SPOKEN[binding.key])
        return super().get_key_display(binding)

    async def on_unmount(self) -> None:
        resume_gc()  # if the app stops before its first screen
        await self.players.close()

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
        self.files.settle_unsaved_then(
            _("The encounter has unsaved changes. Save them before quitting?"), leave, stopped)


# Issue 24 item 5 (cold start): the modules loaded so far (Textual, the screens, the
# widgets) live as long as the app; out of the collector's scans, as the engine's are.
gc.freeze()
