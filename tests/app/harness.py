"""One dialog or one widget over a state, without the whole app (issue 36 item 8).

`SombraApp` reads the preferences, the keymap and the themes, opens the crash journal
and composes the main screen (the table, the panel, the log, the footer) before a test
presses its first key, and the main screen is painted again under every frame of a
dialog. A test that checks what one dialog shows or does, or what one widget draws,
needs none of that: `Harness` is a bare Textual app with the app's stylesheet and
theme, in the language the test pins, showing just that dialog (pushed over an empty
screen, `base`) or just that widget (`widget`, filled with `show_state`).

    app = Harness(session, dialog=lambda h: FreeTADialog(h.state, "Ana", h.check, h.roll),
                  language="es")
    async with app.run_test(size=SIZE) as pilot:
        ...

It uses the dialogs' and widgets' public constructors (`for_use` for the round's
dialogs, as the main screen fills them) and nothing of the main screen or the app, so
it survives their moves. What a dialog returns is executed on the session, as the main
screen does (`run_command`): a test reads the command in `session.combat.commands`, a
refusal in `refusals`; the dialog closed, `app.screen is app.base`.

It starts in a fraction of the whole app's time (README, "Tests in lanes"). A test
that plays the main screen's keys, the app's files, the players' server, the shelf of
prepared dialogs or the screen behind a dialog still starts the whole app
(`make_app` in tests/app/conftest.py).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast, get_args

from textual.app import App, ComposeResult
from textual.screen import Screen
from textual.theme import Theme
from textual.widget import Widget

from sombra_tui import themes
from sombra_tui.app import SombraApp
from sombra_tui.engine import Command, SombraError, i18n
from sombra_tui.engine import commands as c
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.state import CombatState
from sombra_tui.screens.dialogs import (
    CharacterEditor,
    DeclarationEditor,
    ReactionDialog,
    TADialog,
)
from sombra_tui.session import Session

#: The app's own stylesheet, found as Textual finds it (beside the app's module).
CSS = Path(inspect.getfile(SombraApp)).parent / str(SombraApp.CSS_PATH)
#: The engine's command classes (`Command` is their tagged union).
COMMANDS: tuple[type, ...] = get_args(get_args(Command)[0])


@functools.cache
def _themes() -> tuple[Theme, ...]:
    """The built-in themes, read once per test process (they are files)."""
    return tuple(themes.load_all_themes().themes.values())


class Harness(App[None]):
    """A bare app showing one dialog (`dialog`) or one widget (`widget`) over
    `session`'s state, in `language` (module docstring)."""

    CSS_PATH = CSS

    def __init__(self, session: Session, *,
                 dialog: Callable[[Harness], Screen[Any]] | None = None,
                 widget: Callable[[Harness], Widget] | None = None,
                 language: str = "en", theme: str = "sombra") -> None:
        i18n.set_language(language)  # before anything is built: it speaks it
        super().__init__()
        self.session = session
        #: What the dialogs read from the app: the keys in force (none rebound), no
        #: blinking cursor (stable pictures), the odds shown (no preferences loaded).
        self.keymap_in_force: dict[str, str] = {}
        self.cursor_blink = False
        self.requested_theme = theme
        self._make_dialog = dialog
        self._make_widget = widget
        #: Every result a dialog delivered, in order (None for a dialog backed out of).
        self.results: list[Any] = []
        #: The engine's refusals of what a dialog returned (the main screen's toasts).
        self.refusals: list[SombraError] = []
        self.shown: Widget | None = None

    # ---- what the dialogs are given, as the main screen gives it ---------------------

    @property
    def state(self) -> CombatState:
        return self.session.combat.state

    def check(self, command: Any) -> SombraError | None:
        """The dry run a dialog checks its command with: None when the engine takes it."""
        try:
            self.session.combat.preview(command)
        except SombraError as error:
            return error
        return None

    def roll(self) -> Dice:
        return self.session.combat.roll()

    # ---- showing -----------------------------------------------------------------------

    @property
    def base(self) -> Screen[Any]:
        """The empty screen under the dialog: on top again once the dialog closed."""
        return self.screen_stack[0]

    @property
    def widget(self) -> Widget:
        """The widget shown (with `widget=`)."""
        assert self.shown is not None, "this harness shows a dialog, not a widget"
        return self.shown

    def compose(self) -> ComposeResult:
        if self._make_widget is not None:
            self.shown = self._make_widget(self)
            yield self.shown

    def on_mount(self) -> None:
        for theme in _themes():
            self.register_theme(theme)
        self.theme = self.requested_theme
        if self.shown is not None:
            show_state = getattr(self.shown, "show_state", None)
            if show_state is not None:
                show_state(self.state)
            self.shown.focus()
        if self._make_dialog is not None:
            self.open(self._make_dialog)

    def open(self, make: Callable[[Harness], Screen[Any]]) -> Screen[Any]:
        """Push the dialog `make` builds over the current state (as the main screen
        opens one: its results come back to `delivered`)."""
        dialog = make(self)
        deliver = functools.partial(self.delivered, command_of=getattr(
            dialog, "command_of", None))
        if hasattr(dialog, "results_to"):
            dialog.results_to = deliver
        self.push_screen(dialog, callback=deliver)
        return dialog

    def delivered(self, result: Any,
                  command_of: Callable[[Any], Command] | None = None) -> None:
        """A dialog's result: kept, and a command (or a list of them) executed; a
        dialog that returns what a command is made of (the character dialog) says how
        with its `command_of`, as the main screen gives it."""
        self.results.append(result)
        if result is not None and command_of is not None:
            result = command_of(result)
        commands = result if isinstance(result, list) else [result]
        for command in commands:
            if isinstance(command, COMMANDS):
                try:
                    self.session.execute(cast(Command, command))
                except SombraError as error:
                    self.refusals.append(error)


# ---- the round's dialogs, filled as the main screen fills them ---------------------------


def declaration_dialog(harness: Harness) -> DeclarationEditor:
    """The current declarer's declaration (the DJ's d, or space)."""
    state = harness.state
    assert state.current_declarer is not None, "nobody is to declare"
    return DeclarationEditor.for_use(state, state.current_declarer, harness.check)


def reaction_dialog(harness: Harness) -> ReactionDialog:
    """The answer to the open reacción prompt (the DJ's r, or space)."""
    prompt = harness.state.top_prompt
    assert prompt is not None, "no reacción prompt is open"
    return ReactionDialog.for_use(harness.state, prompt, harness.check, harness.roll)


def ta_dialog(harness: Harness) -> TADialog:
    """The TA of the acting group's first step (the DJ's y on a step not opposed)."""
    group = harness.state.current_group()
    assert group, "nothing to resolve"
    return TADialog.for_use(harness.state, group[0], harness.check, harness.roll)


# ---- other dialogs, made as the main screen makes them -----------------------------------


def character_editor(name: str) -> Callable[[Harness], CharacterEditor]:
    """`name`'s character dialog (the DJ's e on its row); Enter edits the character."""
    def make(harness: Harness) -> CharacterEditor:
        character = harness.state.character(name)
        assert character is not None, f"no {name} in the encounter"

        def command_of(edited: Any) -> c.EditCharacter:
            return c.EditCharacter(name=name, character=edited)
        editor = CharacterEditor(character, lambda edited: harness.check(command_of(edited)))
        editor.command_of = command_of
        return editor
    return make
