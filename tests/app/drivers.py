"""The demo driven by keys to the states the snapshot tests and the screenshots picture.

Each driver takes a ``Pilot`` of an app from `make_app` (the demo encounter, fixed
seed, typed dice only) and plays the DJ's keys to one state; the snapshot tests
(``tests/app/test_snapshots.py`` and others) and the screenshots tool
(``python -m tests.tools.screenshots``) share them, so each sequence is written once.
`settle` waits until the screen has nothing left to do.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any

from textual import events
from textual.pilot import Pilot
from textual.screen import Screen

from sombra_tui.app import SombraApp
from sombra_tui.demo import demo_encounter
from sombra_tui.engine import Command
from sombra_tui.engine.state import Phase
from sombra_tui.screens.dialogs import DeclarationEditor, HelpScreen, ReactionDialog, TADialog
from sombra_tui.screens.dialogs.condition import ConditionDialog
from sombra_tui.screens.dialogs.hit import HitDialog, ManualHitDialog
from sombra_tui.screens.dialogs.sheet import CharacterSheet
from sombra_tui.session import Session
from sombra_tui.widgets.initiative_table import InitiativeTable

#: Terminal size of the screenshots (columns, rows).
SIZE = (120, 40)
#: The demo encounter's dice seed; only typed dice are used, but the seed is fixed anyway.
DEMO_SEED = 7
THEMES = ("sombra", "papel", "alto-contraste")

Driver = Callable[[Pilot[Any]], Awaitable[None]]


def make_app(theme: str | None = None, size: tuple[int, int] = SIZE,
             language: str = "en", resume: Driver | None = None) -> SombraApp:
    """The real app on the demo encounter, in `language`, set up for stable pictures.

    The Rich console behind the app is pinned to the terminal size: headless, it
    would otherwise guess 80 columns (or the size of whatever terminal runs the
    script) and the log would wrap at that width instead of the panel's.

    `resume`, the driver about to run: when a state it passes through was already
    reached by keys in this process (see `resumable`), the app opens at that state,
    its commands replayed into the engine, and the driver types only the rest.
    """
    session = None
    played = _played_before(resume, language)
    if played:
        session = Session.new(demo_encounter(DEMO_SEED))
        for command in played:
            session.execute(command)
    app = SombraApp(session, theme=theme, seed=DEMO_SEED, remember_theme=False,
                    cursor_blink=False, journal=False, language=language,
                    prepare_dialogs=False)
    app.console.size = size
    _LANGUAGE_OF[app] = language
    return app


# ---- states reached once, replayed after ----------------------------------------------
#
# The tests picture a dozen states, each in two languages and two sizes, and most of
# them pass through the same declarations and TAs. Typed through the dialogs once per
# language and test process, a state's commands are kept; a later app starting there
# replays them into the engine (milliseconds) instead of opening a dozen dialogs again.
# The pictures do not change: the snapshot baselines are the same whichever way a
# state was reached, and the first test of each process still reaches it by keys.

#: (state, language) -> the commands the keys produced to reach it, and where the
#: table's cursor was (the screen's own state: it follows the steps as they are played).
_PLAYED: dict[tuple[str, str], tuple[tuple[Command, ...], str | None, bool]] = {}
#: The language each app of `make_app` was made in (the pseudo-language tests switch
#: the catalog after making the app; the commands are the same).
_LANGUAGE_OF: weakref.WeakKeyDictionary[SombraApp, str] = weakref.WeakKeyDictionary()
#: A driver -> the resumable state it passes through last; a resumable state -> the
#: one it starts from.
_RESUMES_AT: dict[Driver, Driver] = {}
_PARENT: dict[Driver, Driver | None] = {}


def resumable(parent: Driver | None) -> Callable[[Driver], Driver]:
    """Mark a state with no dialog open that others start from; `parent`, the state
    it starts from itself."""
    def mark(driver: Driver) -> Driver:
        name = driver.__name__

        @functools.wraps(driver)
        async def drive(pilot: Pilot[Any]) -> None:
            app = _app(pilot)
            key = (name, _LANGUAGE_OF.get(app, "en"))
            table = app.main_screen.query_one(InitiativeTable)
            played = _PLAYED.get(key)
            if played is not None and played[0] == tuple(app.session.combat.commands):
                # The app opened here: the cursor where the keys left it.
                _commands, cursor, table.dj_chose = played
                if cursor is not None:
                    table.select_name(cursor)
                await settle(pilot)
                return
            await driver(pilot)
            _PLAYED.setdefault(key, (tuple(app.session.combat.commands),  # for the next app
                                     table.selected_name, table.dj_chose))

        _RESUMES_AT[drive] = drive
        _PARENT[drive] = parent
        return drive
    return mark


def resumes_at(base: Driver) -> Callable[[Driver], Driver]:
    """Mark a driver that passes through the resumable state `base`."""
    def mark(driver: Driver) -> Driver:
        _RESUMES_AT[driver] = base
        return driver
    return mark


def _played_before(driver: Driver | None, language: str) -> tuple[Command, ...]:
    """The commands of the latest state `driver` passes through that keys already
    reached in `language`, else none."""
    at = _RESUMES_AT.get(driver) if driver is not None else None
    while at is not None:
        played = _PLAYED.get((at.__name__, language))
        if played is not None:
            return played[0]
        at = _PARENT.get(at)
    return ()


# ---- small steps --------------------------------------------------------------------


def _app(pilot: Pilot[Any]) -> SombraApp:
    app = pilot.app
    if not isinstance(app, SombraApp):
        raise TypeError(f"expected a SombraApp, got {type(app).__name__}")
    return app


def _fail(pilot: Pilot[Any], doing: str) -> RuntimeError:
    state = _app(pilot).session.combat.state
    return RuntimeError(f"screenshot script lost its way {doing}: phase {state.phase}, "
                        f"screen {type(pilot.app.screen).__name__}, "
                        f"declarer {state.current_declarer}, prompt {state.top_prompt}")


async def wait_for_screen(pilot: Pilot[Any], kind: type[Screen[Any]], doing: str) -> None:
    """Dialogs open from workers: give them a few turns of the event loop."""
    for _ in range(50):
        if isinstance(pilot.app.screen, kind):
            await pilot.pause()
            # A dialog that centres its focused field once laid out (Dialog.centred):
            # typing before that lands the scroll elsewhere, so the picture would depend
            # on the machine's load.
            for _ in range(100):
                if getattr(pilot.app.screen, "centred", True):
                    break
                await pilot.pause(0.01)
            return
        await pilot.pause(0.01)
    raise _fail(pilot, doing)


async def type_text(pilot: Pilot[Any], text: str) -> None:
    """Into the focused field, as a terminal paste: one event instead of one per key
    (same result, and much faster than a Pilot key press per character)."""
    pilot.app.post_message(events.Paste(text))
    await pilot.pause()


async def toggle_names(pilot: Pilot[Any], options: Sequence[str], wanted: Iterable[str]) -> None:
    """In a focused SelectionList of `options` (highlight on the first), tick `wanted`."""
    at = 0
    for index in sorted(options.index(name) for name in wanted):
        await pilot.press(*["down"] * (index - at), "space")
        at = index


def others(pilot: Pilot[Any], name: str) -> list[str]:
    """The names in a dialog's 'aimed at' and 'affected' lists for `name`."""
    return [ch.name for ch in _app(pilot).session.combat.state.characters if ch.name != name]


async def fill_action(pilot: Pilot[Any], author: str, description: str, skill: str = "",
                      targets: Sequence[str] = ()) -> None:
    """From the focused description field: description, skill (the target value fills
    itself from the sheet) and the characters the action is aimed at."""
    # A reaction of the table's side opens on its dice: start from the description.
    pilot.app.screen.query_one("#a0-description").focus()
    await pilot.pause()
    await type_text(pilot, description)
    if skill:
        await pilot.press("tab")
        await type_text(pilot, skill)
    if targets:
        await pilot.press(*["tab"] * (2 if skill else 3))
        await toggle_names(pilot, others(pilot, author), targets)


async def declare(pilot: Pilot[Any], author: str, description: str, skill: str = "",
                  targets: Sequence[str] = ()) -> None:
    """space opens `author`'s declaration; fill one round action and confirm with enter."""
    if _app(pilot).session.combat.state.current_declarer != author:
        raise _fail(pilot, f"before {author} declares")
    await pilot.press("space")
    await wait_for_screen(pilot, DeclarationEditor, f"opening {author}'s declaration")
    await fill_action(pilot, author, description, skill, targets)
    await pilot.press("enter")
    await pilot.pause()
    if author not in _app(pilot).session.combat.state.current:
        raise _fail(pilot, f"after {author} declared")


async def open_reaction(pilot: Pilot[Any], reactor: str) -> None:
    prompt = _app(pilot).session.combat.state.top_prompt
    if prompt is None or prompt.reactor != reactor:
        raise _fail(pilot, f"before {reactor}'s reaction")
    await pilot.press("space")
    await wait_for_screen(pilot, ReactionDialog, f"opening {reactor}'s reaction")


async def react(pilot: Pilot[Any], reactor: str, description: str, skill: str,
                targets: Sequence[str], dice: str) -> None:
    """space opens the prompt; substitute with one action, Alerta dice typed, enter."""
    await open_reaction(pilot, reactor)
    await fill_action(pilot, reactor, description, skill, targets)
    await confirm_with_dice(pilot, dice, ReactionDialog, f"confirming {reactor}'s reaction")


async def resolve_typed(pilot: Pilot[Any], dice: str) -> None:
    """space opens the TA of the acting character; type the dice and confirm; a hit it
    proposes is accepted as read (it opens by itself, space accepts)."""
    await pilot.press("space")
    await wait_for_screen(pilot, TADialog, "opening a TA")
    await confirm_with_dice(pilot, dice, TADialog, f"resolving a TA with {dice}")
    while _app(pilot).session.combat.state.proposals:
        if not isinstance(pilot.app.screen, HitDialog):
            await pilot.press("space")
            await pilot.pause()
        if not isinstance(pilot.app.screen, HitDialog):
            return  # an H7 / H11 question: left for the DJ
        await pilot.press("space")
        await pilot.pause()


async def confirm_with_dice(pilot: Pilot[Any], dice: str, dialog: type[Screen[Any]],
                            doing: str) -> None:
    """Type the dice into the open dialog's dice field and press enter; it must close."""
    pilot.app.screen.query_one("#dice").focus()
    await type_text(pilot, dice)
    await pilot.press("enter")
    await pilot.pause()
    if isinstance(pilot.app.screen, dialog):
        raise _fail(pilot, doing)


async def advance_to(pilot: Pilot[Any], phase: Phase) -> None:
    """space until the encounter is in `phase` (only for steps that open no dialog)."""
    for _ in range(6):
        if _app(pilot).session.combat.state.phase is phase:
            return
        await pilot.press("space")
        await pilot.pause()
    raise _fail(pilot, f"advancing to {phase}")


async def settle(pilot: Pilot[Any]) -> None:
    """No toasts (they are time-dependent) and nothing left moving."""
    pilot.app.clear_notifications()
    await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


# ---- the states the pictures show -------------------------------------------------------
#
# Round 1 of the demo encounter declares in the order Ana, Matón, Iker, Bruno, Lucía,
# Carla (I3). Bruno shooting Ana opens Ana's reaction prompt; Ana's reaction opens
# Bruno's counter-reaction prompt; Bruno's counter-reaction opens a last prompt for Ana.

#: (Ana's Alerta TA, Bruno's Alerta TA): both succeed.
REACTION_DICE = ("2 3 1", "4 2 3")
#: Round actions in resolution order (highest initiative first), with their typed dice.
ROUND_DICE = ("5 2 1", "3 6 4", "9 8 7", "2 2 5", "4 1 3", "6 5 3")


@resumable(None)
async def start(pilot: Pilot[Any]) -> None:
    """Round 1 started: Ana declares first."""
    await advance_to(pilot, Phase.DECLARATION)
    await settle(pilot)


@resumable(start)
async def to_reaction_prompt(pilot: Pilot[Any]) -> None:
    """Ana, Matón and Iker declared; Bruno shoots Ana: Ana's prompt is pending."""
    await start(pilot)
    await declare(pilot, "Ana", "vigila la puerta del almacén", "Armas cortas")
    await declare(pilot, "Matón", "golpea a Iker", "Pelea", ["Iker"])
    await declare(pilot, "Iker", "corre hacia la verja", "Atletismo")
    await declare(pilot, "Bruno", "dispara a Ana", "Armas cortas", ["Ana"])
    await settle(pilot)


@resumes_at(to_reaction_prompt)
async def reaction_dialog(pilot: Pilot[Any]) -> None:
    """Ana's reaction dialog open, description and skill typed; the dialog is not
    scrolled yet, so the Alerta GD breakdown at its top is in view."""
    await to_reaction_prompt(pilot)
    await open_reaction(pilot, "Ana")
    await fill_action(pilot, "Ana", "se tira tras las cajas y dispara a Bruno",
                      "Armas cortas")
    await settle(pilot)


@resumes_at(start)
async def declaration_editor(pilot: Pilot[Any]) -> None:
    """Matón's declaration editor open with description, skill and target filled."""
    await start(pilot)
    await declare(pilot, "Ana", "vigila la puerta del almacén", "Armas cortas")
    await pilot.press("space")
    await wait_for_screen(pilot, DeclarationEditor, "opening Matón's declaration")
    await fill_action(pilot, "Matón", "golpea a Iker con una barra", "Pelea", ["Iker"])
    await settle(pilot)


@resumable(to_reaction_prompt)
async def declarations_done(pilot: Pilot[Any]) -> None:
    """Every declaration made: a reaction, a counter-reaction, two declined prompts."""
    await to_reaction_prompt(pilot)
    await react(pilot, "Ana", "se tira tras las cajas y dispara a Bruno", "Armas cortas",
                ["Bruno"], REACTION_DICE[0])
    await react(pilot, "Bruno", "se cubre tras el coche y dispara a Ana", "Armas cortas",
                ["Ana"], REACTION_DICE[1])
    await pilot.press("x")  # Ana lets Bruno's counter-reaction be
    await declare(pilot, "Lucía", "abre la verja con el portátil", "Electrónica")
    await declare(pilot, "Carla", "dispara a Iker", "Armas cortas", ["Iker"])
    await pilot.press("x")  # Iker keeps running
    await pilot.pause()
    state = _app(pilot).session.combat.state
    if state.prompts or state.current_declarer is not None:
        raise _fail(pilot, "finishing the declarations")
    await settle(pilot)


@resumable(declarations_done)
async def resolution_mid_round(pilot: Pilot[Any]) -> None:
    """Round actions: the first two resolved with typed dice, the third one next."""
    await declarations_done(pilot)
    await advance_to(pilot, Phase.ROUND)
    for dice in ROUND_DICE[:2]:
        await resolve_typed(pilot, dice)
    await settle(pilot)


@resumes_at(resolution_mid_round)
async def ta_dialog(pilot: Pilot[Any]) -> None:
    """The TA dialog of the third round action, dice typed (live result shown)."""
    await resolution_mid_round(pilot)
    await pilot.press("space")
    await wait_for_screen(pilot, TADialog, "opening the third TA")
    pilot.app.screen.query_one("#dice").focus()
    await type_text(pilot, ROUND_DICE[2])
    await settle(pilot)


@resumable(resolution_mid_round)
async def end_of_round(pilot: Pilot[Any]) -> None:
    """Every round action resolved; the round is over."""
    await resolution_mid_round(pilot)
    for dice in ROUND_DICE[2:]:
        await resolve_typed(pilot, dice)
    await advance_to(pilot, Phase.END_OF_ROUND)
    await settle(pilot)


@resumes_at(declarations_done)
async def hit_proposal(pilot: Pilot[Any]) -> None:
    """Carla's shot at Iker succeeds: the hit proposal, every number and its source."""
    await declarations_done(pilot)
    await advance_to(pilot, Phase.ROUND)
    await pilot.press("space")
    await wait_for_screen(pilot, TADialog, "opening Carla's TA")
    await confirm_with_dice(pilot, "5 4 3", TADialog, "resolving Carla's shot")
    await wait_for_screen(pilot, HitDialog, "opening the hit proposal")  # by itself
    await settle(pilot)


async def _sheet_of_bruno(pilot: Pilot[Any]) -> None:
    """End of round 1; Bruno's sheet with a hit by hand (chest 12) and aturdido 2."""
    await end_of_round(pilot)
    _app(pilot).main_screen.query_one(InitiativeTable).select_name("Bruno")
    await pilot.pause()
    await pilot.press("w")
    await wait_for_screen(pilot, CharacterSheet, "opening Bruno's sheet")
    await pilot.press("h")
    await wait_for_screen(pilot, ManualHitDialog, "opening the hit by hand")
    await type_text(pilot, "12")
    await pilot.press("enter")
    await wait_for_screen(pilot, CharacterSheet, "applying the hit by hand")
    await pilot.press("c")
    await wait_for_screen(pilot, ConditionDialog, "opening the condition")
    await type_text(pilot, "2")
    await pilot.press("enter")
    await wait_for_screen(pilot, CharacterSheet, "adding aturdido")


@resumes_at(end_of_round)
async def character_sheet(pilot: Pilot[Any]) -> None:
    """Bruno's sheet: points, wounds (one bleeding), conditions with rounds left."""
    await _sheet_of_bruno(pilot)
    await settle(pilot)


@resumes_at(end_of_round)
async def wounds_table(pilot: Pilot[Any]) -> None:
    """The table after round 1 with G/W of PV, wounds and conditions with rounds left."""
    await _sheet_of_bruno(pilot)
    await pilot.press("escape")
    await pilot.pause()
    await settle(pilot)


@resumable(end_of_round)
async def round_two(pilot: Pilot[Any]) -> None:
    """Round 2 started: the log holds every phase of round 1."""
    await end_of_round(pilot)
    await pilot.press("space")
    await pilot.pause()
    if _app(pilot).session.combat.state.round != 2:
        raise _fail(pilot, "starting round 2")
    await settle(pilot)


@resumes_at(start)
async def help_screen(pilot: Pilot[Any]) -> None:
    await start(pilot)
    await pilot.press("question_mark")
    await wait_for_screen(pilot, HelpScreen, "opening the help")
    await settle(pilot)
