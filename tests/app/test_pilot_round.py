"""Whole rounds played by keyboard through the app (pilot), checked against RULES.md.

Every number asserted here is worked out from the rules in the test itself:
T2 totals from the typed dice, D6/D9 grades, the D7 lock, D11 prompts and the
I3/I4 orders.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine.events import EventKind, LogEvent
from sombra_tui.engine.model import ActionKind, ExtendedMode
from sombra_tui.engine.state import (
    ExtendedStatus,
    Phase,
    PromptKind,
    ReactionMode,
    StepStatus,
)
from sombra_tui.screens.dialogs import (
    CharacterEditor,
    ChoiceDialog,
    ConfirmDialog,
    DeclarationEditor,
    ExtendedDialog,
    FileDialog,
    HelpScreen,
    ReactionDialog,
    SettingsDialog,
    TADialog,
)
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.hit import HitDialog
from sombra_tui.widgets.initiative_table import InitiativeTable
from tests.app.conftest import (
    SIZE,
    assert_unchanged,
    choose,
    fill,
    focus,
    make_app,
    notifications,
    on_main_screen,
    session_after,
    snapshot,
    text_of,
    toggle,
    type_text,
    worked_example_encounter,
)


def reactors(app: SombraApp) -> list[str]:
    """Open prompts as the DJ meets them: top of the stack first (D11)."""
    return [prompt.reactor for prompt in reversed(app.session.combat.state.prompts)]


def actions_of(app: SombraApp, name: str) -> list[str]:
    declaration = app.session.combat.state.declaration_of(name)
    assert declaration is not None, f"{name} has not declared"
    return [action.description for action in declaration.actions]


def new_events(app: SombraApp, since: int, kind: EventKind | None = None) -> list[LogEvent]:
    return [e for e in app.session.combat.log[since:] if kind is None or e.kind is kind]


async def declare(pilot: Pilot[Any], description: str, *, aimed_at: tuple[str, ...] = (),
                  key: str = "space", skill: str = "", kind: ActionKind | None = None) -> None:
    """The current declarer declares one action by keyboard (space or d opens the editor)."""
    await pilot.press(key)
    assert isinstance(pilot.app.screen, DeclarationEditor)
    await type_text(pilot, description)  # the description has the focus
    if kind is not None:
        await choose(pilot, "a0-kind", kind)
        await focus(pilot, "a0-description")
    if skill:
        await fill(pilot, "a0-skill", skill)
    if aimed_at:
        await toggle(pilot, "a0-targets", aimed_at)
    await pilot.press("enter")
    assert pilot.app.screen is pilot.app.main_screen


async def react(pilot: Pilot[Any], description: str, dice: str, *, key: str = "r",
                combine: bool = False, aimed_at: tuple[str, ...] = (),
                skill: str = "") -> str:
    """Answer the open prompt: the new action, combine (ctrl+t) or not, typed Alerta dice.

    Returns the live GD breakdown the dialog showed just before Enter.
    """
    await pilot.press(key)
    assert isinstance(pilot.app.screen, ReactionDialog)
    if combine:
        await pilot.press("ctrl+t")
    # The description has the focus, or the dice do when the table rolls (a PC's).
    await focus(pilot, "a0-description")
    await type_text(pilot, description)
    if skill:
        await fill(pilot, "a0-skill", skill)
    if aimed_at:
        await toggle(pilot, "a0-targets", aimed_at)
    await fill(pilot, "dice", dice)
    breakdown = text_of(pilot.app, "#gd-breakdown")
    await pilot.press("enter")
    assert pilot.app.screen is pilot.app.main_screen
    return breakdown


# ---- (a) the worked example ----------------------------------------------------------------


async def test_worked_example_played_by_keyboard_d4_to_d11() -> None:
    """RULES.md "Worked example (D4-D11)" from the first space to the round phase."""
    app = make_app(session_after(worked_example_encounter()))
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await pilot.press("space")  # starts round 1
        assert (combat.state.round, combat.state.phase) == (1, Phase.DECLARATION)
        assert combat.state.declaration_order == ["Ana", "Bruno", "Carla"]  # I3

        # 1. Ana declares: aims at the door. Affects nobody.
        await declare(pilot, "aims at the door")
        assert combat.state.declaration_of("Ana").affected == []  # type: ignore[union-attr]
        assert combat.state.prompts == []
        assert combat.state.current_declarer == "Bruno"

        # 2. Bruno shoots Ana, Ana ticked in "aimed at": she is affected and prompted (D4).
        await declare(pilot, "shoots Ana", aimed_at=("Ana",))
        assert combat.state.declaration_of("Bruno").affected == ["Ana"]  # type: ignore[union-attr]
        assert reactors(app) == ["Ana"]
        # Ana substitutes: +1 GD (substitute, first reaction), dice 3 4 2 -> 9 + 5 = 14 <= 14.
        count = len(combat.log)
        shown = await react(pilot, "dives behind the desk", "3 4 2", key="space")
        assert shown.endswith("GD +1 = substitute 1")
        [reaction] = new_events(app, count, EventKind.REACTION)
        assert reaction.actor == "Ana" and reaction.rule == "D8"
        assert reaction.gd is not None and reaction.ta is not None
        assert (reaction.gd.substitution, reaction.gd.earlier_reactions) == (1, 0)
        assert reaction.gd.total == 1
        assert (reaction.ta.total, reaction.ta.target) == (3 + 4 + 2 + 5 * 1, 14)
        assert reaction.ta.success
        assert actions_of(app, "Ana") == ["dives behind the desk"]

        # 3. Bruno may counter-react (D9): substitutes at GD 0; 6 6 2 -> 14 > 12: fails.
        assert reactors(app) == ["Bruno"]
        assert combat.state.top_prompt.kind is PromptKind.COUNTER  # type: ignore[union-attr]
        count = len(combat.log)
        shown = await react(pilot, "runs to flank her", "6 6 2")
        assert shown.endswith("GD 0")  # D9: substituting adds nothing in a counter
        [counter] = new_events(app, count, EventKind.REACTION)
        assert counter.gd is not None and counter.ta is not None
        assert (counter.gd.substitution, counter.gd.total) == (0, 0)
        assert (counter.ta.total, counter.ta.target) == (6 + 6 + 2, 12)
        assert not counter.ta.success and counter.rule == "D7"
        assert actions_of(app, "Bruno") == ["shoots Ana"]  # D7: as if he had not tried
        assert combat.state.locked == ["Bruno"]
        assert combat.state.prompts == []
        assert combat.state.current_declarer == "Carla"

        # 4. Carla throws a grenade at Ana and Bruno: Ana is prompted, Bruno (locked) is not.
        count = len(combat.log)
        await declare(pilot, "throws a grenade", aimed_at=("Ana", "Bruno"), key="d")
        carla = combat.state.declaration_of("Carla")
        assert carla is not None and carla.affected == ["Ana", "Bruno"]
        assert [e.actor for e in new_events(app, count, EventKind.PROMPT)] == ["Ana"]
        assert reactors(app) == ["Ana"]
        # Ana combines: GD +1 (one earlier reaction), no substitution grade (D6).
        before = len(combat.commands)
        count = len(combat.log)
        shown = await react(pilot, "covers her head", "2 3 1", combine=True)
        assert shown.endswith("GD +1 = 1 earlier reacción")
        command = combat.commands[before]
        assert isinstance(command, c.React)
        assert command.mode is ReactionMode.COMBINE and command.character == "Ana"
        [combined] = new_events(app, count, EventKind.REACTION)
        assert combined.gd is not None and combined.ta is not None
        assert (combined.gd.substitution, combined.gd.earlier_reactions) == (0, 1)
        assert combined.gd.total == 1
        assert combined.ta.total == 2 + 3 + 1 + 5 * 1 and combined.ta.success
        # D9 gives Carla a counter prompt; the example goes on, so she declines (x).
        assert reactors(app) == ["Carla"]
        await pilot.press("x")
        assert combat.state.prompts == [] and combat.state.current_declarer is None

        # The final declarations (D7, D8).
        assert actions_of(app, "Ana") == ["dives behind the desk", "covers her head"]
        assert actions_of(app, "Bruno") == ["shoots Ana"]
        assert actions_of(app, "Carla") == ["throws a grenade"]
        assert combat.state.reactions_made == {"Ana": 2}
        assert combat.state.locked == ["Bruno"]

        # 5. Action order Carla (15), Bruno (12), Ana (8): space to the round phase.
        await pilot.press("space")
        assert combat.state.phase is Phase.INSTANT and combat.state.steps == []
        await pilot.press("space")
        state = combat.state
        assert state.phase is Phase.ROUND
        assert [s.character for s in state.steps] == ["Carla", "Bruno", "Ana", "Ana"]
        assert [s.character for s in state.current_group()] == ["Carla"]

        # The log, in order, with the numbers (S2).
        log = combat.log
        kinds = [e.kind for e in log]
        assert kinds == [
            EventKind.ROUND, EventKind.DECLARE, EventKind.DECLARE, EventKind.PROMPT,
            EventKind.REACTION, EventKind.PROMPT, EventKind.REACTION, EventKind.DECLARE,
            EventKind.PROMPT, EventKind.REACTION, EventKind.PROMPT, EventKind.DECLINE,
            EventKind.PHASE, EventKind.PHASE, EventKind.PHASE]
        reactions = [e for e in log if e.kind is EventKind.REACTION]
        assert [(e.ta.total, e.ta.target, e.ta.success) for e in reactions  # type: ignore[union-attr]
                ] == [(14, 14, True), (14, 12, False), (11, 14, True)]
        assert "14 vs 14" in reactions[0].plain() and "14 vs 12" in reactions[1].plain()
        assert "substitutes" in reactions[0].text and "fails" in reactions[1].text
        assert "combines" in reactions[2].text
        assert [e.actor for e in log if e.kind is EventKind.PROMPT] == [
            "Ana", "Bruno", "Ana", "Carla"]


# ---- (b) the demo encounter, a whole round ----------------------------------------------


def assert_t2(event: LogEvent) -> None:
    """T2: total = dS + d+ + d- + 5 x GD + modifier; success iff total <= target."""
    ta = event.ta
    assert ta is not None
    dice = ta.dice
    assert dice is not None
    assert ta.total == dice.ds + dice.a + dice.b + 5 * ta.gd + ta.modifier
    assert ta.success is (ta.total <= ta.target)
    assert ta.margin == ta.target - ta.total


async def test_demo_round_by_keyboard_reaction_counter_and_every_phase() -> None:
    """D1-D11, P1-P6, E1-E2, T2, T6 on the demo encounter: round 1 into round 2."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await pilot.press("space")
        state = combat.state
        # I3: ascending primaria, ties (Matón 10/2, Iker 10/6) by ascending secundaria.
        assert state.declaration_order == ["Ana", "Matón", "Iker", "Bruno", "Lucía", "Carla"]

        await declare(pilot, "shoot")
        await pilot.press("space")  # Matón: inaction (ctrl+b)
        assert isinstance(app.screen, DeclarationEditor)
        await pilot.press("ctrl+b")
        await declare(pilot, "duck", skill="Atletismo", kind=ActionKind.INSTANT, key="d")
        assert combat.state.prompts == []  # nobody aimed at someone who declared before

        # Bruno shoots Ana, who declared before him: Ana is prompted (D4).
        await declare(pilot, "shoot Ana", aimed_at=("Ana",))
        assert reactors(app) == ["Ana"]
        count = len(combat.log)
        # Ana substitutes (D6: +1): 1 2 3 -> 6 + 5 = 11 <= 14.
        await react(pilot, "dive", "1 2 3", skill="Esquivar")
        [reaction] = new_events(app, count, EventKind.REACTION)
        assert reaction.ta is not None and reaction.gd is not None
        assert (reaction.gd.total, reaction.ta.total, reaction.ta.success) == (1, 11, True)
        assert actions_of(app, "Ana") == ["dive"]
        # Bruno counter-reacts (D9: substitution adds nothing): 2 2 3 -> 7 <= 12.
        assert reactors(app) == ["Bruno"]
        count = len(combat.log)
        await react(pilot, "shoot the water", "2 2 3", skill="Armas cortas",
                    aimed_at=("Ana",))
        [counter] = new_events(app, count, EventKind.REACTION)
        assert counter.ta is not None and counter.gd is not None
        assert (counter.gd.total, counter.ta.total, counter.ta.success) == (0, 7, True)
        assert counter.rule == "D9"
        assert actions_of(app, "Bruno") == ["shoot the water"]
        # D10/D11: Ana may react again to the counter-reaction; she declines (x).
        assert reactors(app) == ["Ana"]
        assert combat.state.top_prompt.kind is PromptKind.REACTION  # type: ignore[union-attr]
        await pilot.press("x")
        assert combat.state.prompts == [] and combat.state.locked == []
        assert combat.state.reactions_made == {"Ana": 1, "Bruno": 1}

        # Lucía starts a simple extended action of 1 round (E2).
        await pilot.press("space")
        assert isinstance(app.screen, DeclarationEditor)
        await type_text(pilot, "hack the gate")
        await choose(pilot, "a0-kind", ActionKind.EXTENDED)
        await fill(pilot, "a0-target", "15")
        await fill(pilot, "a0-duration", "1")
        await pilot.press("enter")
        assert app.screen is app.main_screen
        # Carla's grenade at Ana and Iker: prompts in declaration order, Ana on top (D11).
        await declare(pilot, "grenade", skill="Lanzar", aimed_at=("Ana", "Iker"))
        assert reactors(app) == ["Ana", "Iker"]
        await pilot.press("z")  # DJ denies Ana's prompt (D12)
        assert reactors(app) == ["Iker"]
        await pilot.press("x")  # Iker declines: no roll, no count, no lock (D4)
        assert combat.state.prompts == [] and combat.state.current_declarer is None
        assert combat.state.reactions_made == {"Ana": 1, "Bruno": 1}

        # P1/P2: the instant phase; Iker's instant action, rolled by the tracker (t).
        await pilot.press("space")
        state = combat.state
        assert state.phase is Phase.INSTANT
        assert [(p.owner, p.mode) for p in state.extended] == [("Lucía", ExtendedMode.SIMPLE)]
        assert [s.character for s in state.steps] == ["Iker"]
        await pilot.press("t")
        assert combat.state.steps[0].status is StepStatus.DONE
        assert combat.state.steps[0].result is not None

        # P3: round actions in action order (I4): Carla 15, Bruno 12, Ana 8.
        await pilot.press("space")
        state = combat.state
        assert state.phase is Phase.ROUND
        assert [s.character for s in state.steps] == ["Carla", "Bruno", "Ana"]
        await pilot.press("t")  # Carla: the tracker rolls
        await settle_hits(pilot, app)  # H1: a grenade that succeeds proposes hits
        assert [s.character for s in combat.state.current_group()] == ["Bruno"]
        count = len(combat.log)
        await pilot.press("y")  # Bruno: the DJ types the player's dice
        assert isinstance(app.screen, TADialog)
        await type_text(pilot, "4 4 1")  # the dice field has the focus (target known)
        await pilot.press("enter")
        [bruno_ta] = new_events(app, count, EventKind.TA)
        assert bruno_ta.ta is not None
        assert (bruno_ta.ta.total, bruno_ta.ta.target, bruno_ta.ta.success) == (9, 14, True)
        # H1: Bruno's pistol hits Ana: the proposal opens by itself, space accepts it.
        assert [p.character for p in combat.state.proposals] == ["Ana"]
        assert isinstance(app.screen, HitDialog)
        await pilot.press("space")
        assert app.screen is app.main_screen and combat.state.proposals == []
        assert combat.state.body("Ana").counters.w == 4 + 1  # dS 4: left arm, d+ + d- = 5
        count = len(combat.log)
        await pilot.press("space")  # Ana: space types dice too
        assert isinstance(app.screen, TADialog)
        await type_text(pilot, "10 10 10")
        await pilot.press("enter")
        [ana_ta] = new_events(app, count, EventKind.TA)
        assert ana_ta.ta is not None  # 30 > 12 with three equal dice: fracaso alto (T4)
        assert (ana_ta.ta.total, ana_ta.ta.target, ana_ta.ta.success) == (30, 12, False)
        assert combat.state.pending_steps() == []

        # P5: the extended phase; Lucía's action is due after 1 round (E2).
        await pilot.press("space")
        state = combat.state
        assert state.phase is Phase.EXTENDED
        assert [s.character for s in state.steps] == ["Lucía"]
        count = len(combat.log)
        await pilot.press("t")
        [extended_ta] = new_events(app, count, EventKind.TA)
        assert extended_ta.ta is not None
        progress = combat.state.extended[0]
        assert progress.attempts == 1
        # E2: success finishes it; failure restarts it from the beginning.
        assert progress.status is (ExtendedStatus.DONE if extended_ta.ta.success
                                   else ExtendedStatus.ACTIVE)

        # P6: end of the round, then round 2 opens with declarations.
        await pilot.press("space")
        assert combat.state.phase is Phase.END_OF_ROUND
        await pilot.press("space")
        state = combat.state
        assert (state.round, state.phase) == (2, Phase.DECLARATION)
        assert state.current_declarer == "Ana" and state.current == {}
        assert app.main_screen.sub_title.startswith("Asalto 2")

        log = combat.log
        assert {e.phase for e in log} == set(Phase) - {Phase.SETUP}
        assert {e.round for e in log} == {1, 2}
        tas = [e for e in log if e.kind is EventKind.TA]
        assert [e.actor for e in tas] == ["Iker", "Carla", "Bruno", "Ana", "Lucía"]
        for event in tas:
            assert_t2(event)
        assert [e.actor for e in log if e.kind is EventKind.DECLINE] == ["Ana", "Iker"]
        assert [e.actor for e in log if e.kind is EventKind.OVERRIDE] == ["Ana"]


async def settle_hits(pilot: Any, app: SombraApp) -> None:
    """Accept every open hit proposal as read (it opens by itself, space accepts; space
    opens one that did not: e.g. the DJ escaped it)."""
    while app.session.combat.state.proposals:
        await pilot.pause()
        if not isinstance(app.screen, HitDialog):
            await pilot.press("space")
        await pilot.press("space")


# ---- (c) undo and redo ---------------------------------------------------------------------


def worked_example_commands() -> list[c.Command]:
    from sombra_tui.engine.dice import Dice
    from sombra_tui.engine.model import Action

    def act(description: str, *targets: str) -> list[Action]:
        return [Action(description=description, targets=list(targets))]

    return [
        c.StartCombat(),
        c.Declare(character="Ana", actions=act("aims at the door")),
        c.Declare(character="Bruno", actions=act("shoots Ana", "Ana")),
        c.React(character="Ana", mode=ReactionMode.SUBSTITUTE, actions=act("dives"),
                dice=Dice.of(3, 4, 2)),
        c.React(character="Bruno", mode=ReactionMode.SUBSTITUTE, actions=act("flanks"),
                dice=Dice.of(6, 6, 2)),
        c.Declare(character="Carla", actions=act("grenade", "Ana", "Bruno")),
    ]


async def test_undo_and_redo_keys_restore_the_exact_state_s1() -> None:
    """S1: u / ctrl+z undo and U / ctrl+y redo give exactly the replayed states."""
    from sombra_tui.engine.history import Combat

    commands = worked_example_commands()
    encounter = worked_example_encounter()
    app = make_app(session_after(encounter, *commands))

    def replayed(count: int) -> Any:
        return Combat(encounter, commands[:count]).state

    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        full = snapshot(app)
        assert full.state == replayed(6) and reactors(app) == ["Ana"]
        await pilot.press("u")
        assert combat.state == replayed(5) and combat.state.prompts == []
        await pilot.press("ctrl+z")
        assert combat.state == replayed(4)
        assert combat.state.locked == [] and reactors(app) == ["Bruno"]
        assert len(combat.commands) == 4 and len(combat.redo_stack) == 2
        await pilot.press("U")
        assert combat.state == replayed(5) and combat.state.locked == ["Bruno"]
        await pilot.press("ctrl+y")
        assert_unchanged(app, full)
        assert [c.type for c in combat.commands] == [c.type for c in commands]
        assert any("Redone" in message for _, message in notifications(app))

        # A new command after an undo drops the redo stack: redo is refused, nothing changes.
        await pilot.press("u")
        assert reactors(app) == []
        selected = app.main_screen.query_one(InitiativeTable).selected_name
        await pilot.press("o")  # the selected character is out (P4)
        assert combat.state.out == [selected] and combat.redo_stack == []
        after = snapshot(app)
        await pilot.press("U")
        assert_unchanged(app, after)
        assert ("warning", "Nothing to redo.") in notifications(app)


# ---- (d) escape in every dialog ---------------------------------------------------------


async def escape_from(pilot: Pilot[Any], keys: tuple[str, ...],
                      dialog: type[Dialog[Any]]) -> None:
    """Open a dialog with `keys`, back out with escape: nothing changed, main screen back."""
    app = pilot.app
    assert isinstance(app, SombraApp)
    before = snapshot(app)
    await pilot.press(*keys)
    assert isinstance(app.screen, dialog), f"{keys} opened {app.screen!r}"
    await pilot.press("escape")
    await pilot.pause()
    assert on_main_screen(app), f"after escaping {dialog.__name__}: {app.screen!r}"
    assert_unchanged(app, before)


async def test_escape_in_every_declaration_phase_dialog_changes_nothing() -> None:
    """Escape backs out of each dialog; the main screen gets the keys back every time."""
    app = make_app(session_after(worked_example_encounter(), *worked_example_commands()[:3]))
    async with app.run_test(size=SIZE) as pilot:
        await escape_from(pilot, ("r",), ReactionDialog)
        await pilot.press("x")  # the keys work: Ana declines, Carla is to declare
        assert app.session.combat.state.current_declarer == "Carla"
        await escape_from(pilot, ("d",), DeclarationEditor)
        await escape_from(pilot, ("a",), CharacterEditor)
        await escape_from(pilot, ("enter",), CharacterEditor)  # enter on a row edits it
        await escape_from(pilot, ("g",), SettingsDialog)
        await escape_from(pilot, ("ctrl+s",), FileDialog)  # never saved: save as
        await escape_from(pilot, ("question_mark",), HelpScreen)
        await escape_from(pilot, ("delete",), ConfirmDialog)
        await escape_from(pilot, ("q",), ChoiceDialog)
        assert app.return_code is None  # still running


async def test_escape_in_resolution_dialogs_changes_nothing() -> None:
    from sombra_tui.engine.model import Action, ExtendedSpec

    extended = Action(kind=ActionKind.EXTENDED, description="picks the lock", target=12,
                      extended=ExtendedSpec(duration=3))
    app = make_app(session_after(
        worked_example_encounter(), c.StartCombat(),
        c.Declare(character="Ana", actions=[extended]),
        c.Declare(character="Bruno", actions=[]),
        c.Declare(character="Carla", actions=[Action(description="shoots", target=13)]),
        c.Advance(), c.Advance()))
    async with app.run_test(size=SIZE) as pilot:
        assert app.session.combat.state.phase is Phase.ROUND
        await escape_from(pilot, ("y",), TADialog)
        await escape_from(pilot, ("j",), ExtendedDialog)
        await pilot.press("y")
        assert isinstance(app.screen, TADialog)
        await type_text(pilot, "1 2 3")
        await pilot.press("enter")
        assert on_main_screen(app) and app.session.combat.state.pending_steps() == []


# ---- (e) refused actions ----------------------------------------------------------------


async def test_refused_keys_notify_and_change_nothing() -> None:
    app = make_app(session_after(worked_example_encounter(), *worked_example_commands()[:2]),
                   journal=False)  # two apps in one data folder: no "unfinished combat"
    async with app.run_test(size=SIZE) as pilot:
        before = snapshot(app)
        for key in ("r", "x", "z"):
            await pilot.press(key)
            assert notifications(app)[-1] == ("warning", "No reacción prompt is open.")
            assert_unchanged(app, before)
        await pilot.press("j")
        assert notifications(app)[-1] == ("warning", "No extended action is running.")
        await pilot.press("t", "y")  # no TA in the declaration phase: the keys are off
        assert app.screen is app.main_screen
        assert_unchanged(app, before)
        await pilot.press("U")
        assert notifications(app)[-1] == ("warning", "Nothing to redo.")
        # D12 allow for a character who has not declared: the engine refuses it.
        await pilot.press("down")
        selected = app.main_screen.query_one(InitiativeTable).selected_name
        assert selected in ("Bruno", "Carla")
        await pilot.press("A")
        severity, message = notifications(app)[-1]
        assert severity == "error" and f"{selected} has not declared yet" in message
        assert_unchanged(app, before)
    # Nor can the next declarer skip an open prompt (D11).
    app = make_app(session_after(worked_example_encounter(), *worked_example_commands()[:3]),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        before = snapshot(app)
        await pilot.press("d")
        await app.workers.wait_for_complete()
        assert notifications(app)[-1] == ("warning", "First settle Ana's reacción prompt.")
        assert app.screen is app.main_screen
        assert_unchanged(app, before)
