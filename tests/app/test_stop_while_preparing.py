"""Issue 41 item 1: the app stops cleanly while it prepares the round's dialogs.

The app builds the round's dialogs unshown while the DJ reads the screen
(screens/dialogs/shelf.py). Composing one takes a second or more in a large encounter
on a loaded machine; if the app stopped meanwhile, Textual mounted no more of its
widgets but still ran the Mount handlers of the half-built ones, and the app crashed
on its way out. Here composing is made slow deterministically: a gate the test holds
stops one widget's parts from being mounted until the test opens it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

import pytest
from textual import events
from textual.widget import Widget
from textual.widgets._select import SelectCurrent

from sombra_tui.app import SombraApp
from sombra_tui.engine import Encounter, ReactionMode, Settings
from sombra_tui.engine import commands as c
from sombra_tui.engine.history import Combat
from sombra_tui.screens import preparing as main_module
from sombra_tui.screens.dialogs import ReactionDialog, TADialog
from sombra_tui.screens.dialogs.fields import Field
from sombra_tui.screens.dialogs.shelf import ShelfDialog
from sombra_tui.session import Session
from tests import builders
from tests.app.conftest import SIZE, char, make_app, on_main_screen, session_after
from tests.app.test_dialog_shelf import everyone_declared, three, to_the_round


@dataclass
class Gate:
    """Held by the test: the parts of a `widget` inside a dialog of type `inside` are
    mounted only once the test opens it (a composing as slow as the test wants)."""

    entered: asyncio.Event = field(default_factory=asyncio.Event)
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    held: list[Widget] = field(default_factory=list)

    def open(self) -> None:
        self.opened.set()


def hold_composing(monkeypatch: pytest.MonkeyPatch, widget: type[Widget],
                   inside: type[ShelfDialog[Any]]) -> Gate:
    gate = Gate()
    original = widget.mount_composed_widgets

    async def held(self: Widget, widgets: list[Widget]) -> None:
        if isinstance(self.screen, inside) and not gate.opened.is_set():
            gate.held.append(self)
            gate.entered.set()
            await gate.opened.wait()
        await original(self, widgets)

    monkeypatch.setattr(widget, "mount_composed_widgets", held)
    return gate


async def stopped(app: Any) -> None:
    """The app asked to stop as the DJ's quit does (after its question), then run until
    it has stopped (it may wait for a dialog being composed)."""
    app.exit()
    await app.workers.wait_for_complete()


def app_at(monkeypatch: pytest.MonkeyPatch, encounter: Encounter,
           commands: list[c.Command]) -> SombraApp:
    """The app after `commands`, as the DJ runs it (its dialogs prepared), but the
    preparing waits for `prepare_now` (the test runs its commands first)."""
    monkeypatch.setattr(main_module, "PREPARE_AFTER", 3600)
    return make_app(session_after(encounter, *commands), prepare_dialogs=True)


def prepare_now(monkeypatch: pytest.MonkeyPatch, app: SombraApp) -> None:
    """The round's dialogs prepared from now on, one right after another."""
    monkeypatch.setattr(main_module, "PREPARE_AFTER", 0.01)
    monkeypatch.setattr(main_module, "PREPARE_EVERY", 0.01)
    app.main_screen.prepare_dialogs_soon()


def post_keys(app: SombraApp, *keys: str) -> None:
    """Keys the DJ types in quick succession, queued at once (not waiting for the app:
    a dialog being composed holds the app's queue until it is mounted)."""
    for key in keys:
        app.post_message(events.Key(key, key))


async def test_quitting_while_the_ta_dialog_is_composed_stops_cleanly(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41, first crash: commands in quick succession on the main screen while
    the round's dialogs are prepared, and the app stops while the TA dialog is still
    composed (its outcome select's parts held by the test). Textual ran the select's
    Mount in the half-built dialog: "FormSelect(id='outcome') on mount ->
    SelectCurrent.update -> No nodes match '#label' on SelectCurrent". The app stops
    only once the dialog is composed (the keys typed meanwhile handled), and builds
    nothing more meanwhile."""
    encounter = three()
    app = app_at(monkeypatch, encounter, to_the_round(encounter))
    gate = hold_composing(monkeypatch, SelectCurrent, TADialog)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        before = len(combat.commands)
        await pilot.press("o", "o", "u")  # out, back, undo: the first is out
        assert len(combat.commands) == before + 1
        prepare_now(monkeypatch, app)
        post_keys(app, "o", "u", "U")  # back, undo, redo
        await gate.entered.wait()
        held = gate.held[0].screen
        assert isinstance(held, TADialog) and not held.is_mounted
        shelf = app.main_screen.shelf
        kept = list(shelf._kept)
        app.exit()
        gate.open()
        await app.workers.wait_for_complete()
    assert app.return_code == 0 and held.is_mounted
    assert list(shelf._kept) == kept  # nothing more built once stopping
    assert len(combat.commands) == before + 2  # the keys typed meanwhile, handled


async def test_a_prepared_reaction_dialog_composed_as_the_app_stops_is_filled_whole(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41, second crash: a command run on the main screen (a prompted character
    does not react), then the reacción dialog is prepared for the next prompt, filled
    for it before it is composed, and is still composed (its fields' parts held by the
    test, as a 200-character encounter on a loaded 2-core machine held them) when the
    app stops as a test or the benchmark leaves it. Textual ran the dialog's Mount,
    which writes its use, with its fields missing: "ReactionDialog on mount -> show
    -> No nodes match '#mode' on ReactionDialog()" (here, on today's code, its mode
    select's own Mount fails first, on its missing label). The app stops once it is
    composed; it is filled then, whole."""
    # The tracker rolls for everyone and no one has a weapon: the reacción dialog is
    # the last one prepared (no hit dialog), so it is the one left being composed.
    encounter = Encounter(name="Sin armas", seed=3, settings=Settings(), characters=[
        char("Ana", 8, 3, 14, skills={"Esquivar": 12}), char("Bruno", 12, 5, 12),
        char("Carla", 15, 2, 13, skills={"Pelea": 13})])
    app = app_at(monkeypatch, encounter, everyone_declared(encounter, attack=True))
    gate = hold_composing(monkeypatch, Field, ReactionDialog)
    shown: list[tuple[ReactionDialog, str, ReactionMode]] = []
    show = ReactionDialog.show

    def showing(dialog: ReactionDialog) -> None:  # what the DJ would see, once filled
        show(dialog)
        shown.append((dialog, dialog.character.name, dialog.mode()))

    monkeypatch.setattr(ReactionDialog, "show", showing)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await pilot.press("x")  # the prompted character does not react
        assert isinstance(combat.commands[-1], c.Decline)
        prompt = combat.state.top_prompt
        assert prompt is not None
        prepare_now(monkeypatch, app)
        await gate.entered.wait()
        dialog = gate.held[0].screen
        assert isinstance(dialog, ReactionDialog) and dialog.used
        assert dialog.prompt == prompt and not dialog.is_mounted
        main = app.main_screen
        assert main.round_dialog_shapes()[-1] == ("reaction", False)
        others = [main.shelf.kept(main._shelved(*shape)[0])
                  for shape in main.round_dialog_shapes()[:-1]]
        for _turn in range(100_000):  # by turns of the event loop, no clock
            if all(other is not None and other.is_mounted for other in others):
                break
            await asyncio.sleep(0)
        gate.open()
    assert shown == [(dialog, prompt.reactor, ReactionMode.SUBSTITUTE)]


async def test_a_dialog_dropped_while_it_is_composed_is_removed_once_mounted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The kept dialogs are dropped when the theme or the language changes; one still
    being composed then is removed only once composed (removed half-built, its
    widgets' Mount handlers failed as in the crashes above)."""
    encounter = three()
    app = app_at(monkeypatch, encounter, to_the_round(encounter))
    gate = hold_composing(monkeypatch, SelectCurrent, TADialog)
    async with app.run_test(size=SIZE) as pilot:
        prepare_now(monkeypatch, app)
        await gate.entered.wait()
        held = gate.held[0].screen
        assert isinstance(held, TADialog)
        app.main_screen.shelf.clear()
        assert app.main_screen.shelf.kept(app.main_screen._shelved("ta")[0]) is None
        gate.open()
        for _turn in range(200):  # by turns of the event loop, no clock
            if held.is_mounted and not held.is_attached:
                break
            await pilot.pause()
        assert held.is_mounted and not held.is_attached  # composed whole, then removed
        await stopped(app)
    assert app.return_code == 0


# ---- large encounters (builders.build_encounter, builders.build_history) ----------------------

async def run_at_size(monkeypatch: pytest.MonkeyPatch, characters: int,
                      commands: int) -> None:
    """The app at `characters` characters after `commands` scripted ones (but those
    after the last with no proposal open, which holds other commands back), its dialogs
    prepared as the DJ runs it (at once): commands by keys (a character out, undo,
    redo) while they are prepared, the dialog of the next step opened and
    closed, then the app stops while a dialog is being composed; no error."""
    monkeypatch.setattr(main_module, "PREPARE_AFTER", 0.01)
    monkeypatch.setattr(main_module, "PREPARE_EVERY", 0.01)
    encounter = builders.build_encounter(characters)
    history = builders.build_history(encounter, commands)
    combat = Combat(encounter)
    for count, command in enumerate(history, 1):  # ending with no proposal open
        combat.execute(command)
        if not combat.state.proposals:
            settled = count
    history = history[:settled]
    app = make_app(Session(Combat(encounter, history)), prepare_dialogs=True)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        before = len(combat.commands)
        await pilot.press("o", "u", "U", "u", "U")
        assert len(combat.commands) == before + 1 and on_main_screen(app)
        await pilot.press("space")
        assert app.screen is not app.main_screen  # the next step's dialog
        await pilot.press("escape", "u")
        assert len(combat.commands) == before and on_main_screen(app)
        # The kept dialogs dropped (as a new theme drops them) and prepared again: the
        # app stops while one is being composed.
        app.main_screen.shelf.clear()
        app.main_screen.prepare_dialogs_soon()
        shelf = app.main_screen.shelf
        for _turn in range(100_000):  # by turns of the event loop, no clock
            if composing := [kept for kept in shelf._kept.values()
                             if kept.is_running and not kept.is_mounted]:
                break
            await asyncio.sleep(0)
        assert composing
        await stopped(app)
    assert app.return_code == 0


@pytest.mark.serial
async def test_200_characters_run_commands_by_keys_and_stop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41: 200 characters with 600 commands."""
    await run_at_size(monkeypatch, 200, 600)


@pytest.mark.serial
async def test_1000_characters_run_commands_by_keys_and_stop(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 41: 1,000 characters (with 300 commands: the scripted history of 3,000
    takes half a minute to build)."""
    await run_at_size(monkeypatch, 1000, 300)
