"""Issue 13: a dialog shown again is refilled, not built again (it opens in about a
frame), and a refilled dialog is exactly what a new one would be.

Each test compares the screen of a refilled dialog with the screen of a dialog built
new for the same character, after the DJ left the first one full of typing, ticks,
choices and errors; and plays the refilled dialog by keyboard, at full speed.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Checkbox, Input

from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import (
    Action,
    ActionKind,
    BodySide,
    Encounter,
    Settings,
    Side,
    Weapon,
)
from sombra_tui.engine.state import Phase
from sombra_tui.screens.dialogs import DeclarationEditor, ReactionDialog, TADialog
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import PickList
from sombra_tui.screens.dialogs.hit import HitDialog
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    char,
    choose,
    field_error,
    fill,
    focus,
    make_app,
    on_main_screen,
    send_keys,
    session_after,
    toggle,
    type_text,
)

#: The shelf's tests are about what is painted and when (prepared dialogs left with
#: nothing to repaint; a dialog shown again equal to a new one, style for style): every
#: frame is painted here, as the app does (tests/app/frames.py).
pytestmark = pytest.mark.paints


def three(ana: Side = Side.PC, others: Side = Side.NPC) -> Encounter:
    """Three characters whose dialogs differ: skills, weapons, main arm (and side)."""
    return Encounter(name="Estante", seed=3, settings=Settings(), characters=[
        char("Ana", 8, 3, 14, side=ana, skills={"Esquivar": 12},
             weapons=[Weapon(name="revólver", damage_type="II"),
                      Weapon(name="puños", damage_type="0")], default_weapon=1,
             main_arm=BodySide.LEFT),
        char("Bruno", 12, 5, 12, side=others, skills={"Pelea": 13, "Armas cortas": 11},
             weapons=[Weapon(name="navaja", damage_type="I")]),
        char("Carla", 15, 2, 13, side=others, skills={"Sigilo": 10})])


def everyone_declared(encounter: Encounter, *, attack: bool) -> list[c.Command]:
    """Set-up: everyone declares in turn; with `attack`, the last one aims at the two
    who declared before (both may react, D4), else everyone waits."""
    combat = Combat(encounter)
    commands: list[c.Command] = [c.StartCombat()]
    combat.execute(commands[0])
    names: list[str] = []
    while (name := combat.state.current_declarer) is not None:
        if attack and len(names) == 2:
            action = Action(description="ataca", skill="Pelea", targets=names)
            command = c.Declare(character=name, actions=[action], affected=names)
        else:
            command = c.Declare(character=name, actions=[Action(
                description=f"espera {name}", target=10 + len(names))])
        combat.execute(command)
        commands.append(command)
        names.append(name)
    return commands


def screen_text(app: SombraApp) -> list[str]:
    """Every line of the screen as the DJ sees it: its text, then each run's style."""
    strips = app.screen._compositor.render_strips()
    return [strip.text + " | " + " ".join(
        f"{len(segment.text)}:{segment.style}" for segment in strip.simplify())
        for strip in strips]


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    """Every message handled and every scroll done (a new dialog scrolls to its focused
    field with an animation)."""
    for _ in range(3):
        await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def press(pilot, *keys: str) -> None:  # type: ignore[no-untyped-def]
    """Press `keys` one by one, then settle (see `settle`)."""
    await pilot.press(*keys)
    await settle(pilot)


async def new_dialog_screen(app: SombraApp, pilot,  # type: ignore[no-untyped-def]
                            name: str, dialog: Dialog[Any] | None = None) -> list[str]:
    """The screen of a dialog built new (by default the declaration dialog for `name`),
    then cancelled."""
    main = app.main_screen
    if dialog is None:
        dialog = DeclarationEditor.for_use(app.session.combat.state, name, main.check)
    await app.push_screen(dialog)
    await settle(pilot)
    text = screen_text(app)
    await press(pilot, "escape")
    assert app.screen is main
    return text


async def leave_it_full(pilot) -> None:  # type: ignore[no-untyped-def]
    """Type, tick and choose everywhere, leave an error showing, then cancel."""
    app = pilot.app
    await type_text(pilot, "dispara")
    await fill(pilot, "a0-gd", "99")  # out of range: an error on submit
    await fill(pilot, "a0-skill", "Pel")
    await toggle(pilot, "a0-targets", [app.screen.others[-1]])
    await choose(pilot, "a0-scope", "legs")
    await focus(pilot, "a0-description")
    await pilot.press("enter")
    assert field_error(app, "a0-gd"), "the bad GD shows its error"
    await focus(pilot, "affected")
    await send_keys(pilot, "end")
    await press(pilot, "escape", "y")  # discard what was typed (it asks, issue 35)
    assert on_main_screen(app)


async def test_the_declaration_dialog_shown_again_is_the_same_one_and_as_new() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        declarer = app.session.combat.state.current_declarer
        assert declarer is not None
        await press(pilot, "d")
        first = app.screen
        assert isinstance(first, DeclarationEditor)
        built_new = screen_text(app)
        await leave_it_full(pilot)

        await press(pilot, "d")
        assert app.screen is first, "shown again, not built again"
        assert screen_text(app) == built_new
        assert app.focused is not None and app.focused.id == "a0-description"
        await pilot.press("escape")


async def test_the_next_declarer_gets_a_refilled_dialog_equal_to_a_new_one() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        state = app.session.combat.state
        await press(pilot, "d")
        first = app.screen
        assert isinstance(first, DeclarationEditor)
        first_name = first.character.name
        await leave_it_full(pilot)
        # The first declarer declares (a refilled dialog, typed at full speed).
        await send_keys(pilot, "d", *"espera", "enter")
        await settle(pilot)
        assert state.declaration_of(first_name) is not None
        assert state.declaration_of(first_name).actions[0].description == "espera"
        following = state.current_declarer
        assert following is not None and following != first_name

        expected = await new_dialog_screen(app, pilot, following)
        await press(pilot, "d")
        assert app.screen is first
        assert first.character.name == following
        assert screen_text(app) == expected
        await pilot.press("escape")


async def test_a_refilled_dialogs_keys_all_arrive_for_two_declarers_in_a_row(
        ) -> None:
    """Two whole declarations typed key after key: the second dialog is the first one
    refilled, and every key lands where it was meant (issue 13, item 4)."""
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        first = combat.state.current_declarer
        assert first is not None
        skill = next(iter(combat.state.character(first).skills))
        await pilot.press("d", *"se cubre", "tab", *skill, "enter",
                          "d", *"apunta", "enter")
        await settle(pilot)
        assert on_main_screen(app), f"still on {app.screen}"
        state = combat.state
        declared = [d for d in state.declarations.values() if d.actions]
        assert [(d.actions[0].description, d.actions[0].skill) for d in declared] == \
            [("se cubre", skill), ("apunta", "")]
        assert declared[0].author == first and declared[1].author != first
        assert len(combat.commands) == 3


async def test_a_dialog_the_dj_added_actions_to_is_built_anew_with_one_form() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "d")
        first = app.screen
        await press(pilot, "ctrl+n")
        assert isinstance(first, DeclarationEditor) and len(first.forms) == 2
        await press(pilot, "escape", "y")  # an action added: discard it (it asks)
        await press(pilot, "d")
        again = app.screen
        assert isinstance(again, DeclarationEditor)
        assert again is not first and len(again.forms) == 1
        await pilot.press("escape")


async def test_a_dialog_whose_extended_fields_were_opened_is_built_anew() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "d")
        first = app.screen
        await choose(pilot, "a0-kind", ActionKind.EXTENDED)
        assert first.query_one(".extended").children
        await press(pilot, "escape", "y")  # a kind chosen: discard it (it asks)
        await press(pilot, "d")
        assert app.screen is not first
        assert not app.screen.query(".extended").first().children
        await pilot.press("escape")


async def test_a_new_theme_or_language_builds_the_dialog_anew() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "d")
        first = app.screen
        await press(pilot, "escape")
        app.theme = next(name for name in app.available_themes if name != app.theme)
        await settle(pilot)
        await press(pilot, "d")
        second = app.screen
        assert isinstance(second, DeclarationEditor) and second is not first
        await press(pilot, "escape")
        app.switch_language("es")
        await settle(pilot)
        await press(pilot, "d")
        third = app.screen
        assert isinstance(third, DeclarationEditor) and third is not second
        assert str(third.query_one("#dialog-title").content).startswith("Declara ")
        await pilot.press("escape")
        app.switch_language("en")


async def test_a_dialog_shown_again_after_a_resize_fits_the_new_width() -> None:
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await press(pilot, "d")
        first = app.screen
        assert not first.has_class("-narrow")
        await pilot.press("escape")
        await pilot.resize_terminal(*MIN_SIZE)
        await settle(pilot)
        expected = await new_dialog_screen(app, pilot, first.character.name)
        await press(pilot, "d")
        assert app.screen is first and first.has_class("-narrow")
        assert screen_text(app) == expected
        await pilot.press("escape")


async def test_keys_typed_right_after_enter_never_close_the_main_screen() -> None:
    """Enter, then keys at once (no pause): Textual may hand those keys to the dialog
    being closed; a second Enter among them must not close the screen below."""
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        first = combat.state.current_declarer
        await send_keys(pilot, "d", *"espera", "enter", "enter", "enter")
        await settle(pilot)
        assert app.screen is app.main_screen
        declaration = combat.state.declaration_of(first)
        assert declaration is not None and declaration.actions[0].description == "espera"


@pytest.mark.parametrize("side", [Side.NPC, Side.PC], ids=["tracker rolls", "table rolls"])
async def test_the_reaction_dialog_for_the_next_prompt_is_refilled_and_as_new(side: Side
                                                                              ) -> None:
    app = make_app(session_after(three(side, side), *everyone_declared(
        three(side, side), attack=True)), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        state = app.session.combat.state
        first_prompt = state.top_prompt
        assert first_prompt is not None
        await press(pilot, "r")
        first = app.screen
        assert isinstance(first, ReactionDialog)
        await fill(pilot, "dice", "3 5 2")
        await fill(pilot, "base", "2")
        await fill(pilot, "a0-description", "se aparta")
        await toggle(pilot, "a0-targets", [first.others[0]])
        await focus(pilot, "accept")
        await send_keys(pilot, "space")
        assert first.query_one("#accept", Checkbox).value
        await pilot.press("ctrl+b")  # declines: the next prompt is the other one's
        await settle(pilot)
        following = state.top_prompt
        assert following is not None and following.reactor != first_prompt.reactor

        main = app.main_screen
        combat = app.session.combat
        expected = await new_dialog_screen(app, pilot, "", ReactionDialog.for_use(
            state, following, main.check, combat.roll))
        await press(pilot, "r")
        assert app.screen is first and first.character.name == following.reactor
        assert screen_text(app) == expected
        # And it answers: typed at full speed, the reacción is the new reactor's.
        await send_keys(pilot, *("3 5 2" if side is Side.PC else "se cubre"))
        if side is Side.PC:
            await focus(pilot, "a0-description")
            await type_text(pilot, "se cubre")
        await press(pilot, "enter")
        assert on_main_screen(app), f"still on {app.screen}"
        react = app.session.combat.commands[-1]  # (its Alerta TA may fail: no new version)
        assert isinstance(react, c.React) and react.character == following.reactor
        assert [action.description for action in react.actions] == ["se cubre"]
        assert react.affected == [] and react.base_gd == 0 and not react.accept_without_roll
        if side is Side.PC:
            assert react.dice is not None and (react.dice.ds, react.dice.a, react.dice.b) == \
                (3, 5, 2)


def to_the_round(encounter: Encounter) -> list[c.Command]:
    """Set-up: everyone waits (everyone_declared), then past the (empty) instant phase."""
    commands = everyone_declared(encounter, attack=False)
    combat = Combat(encounter)
    for command in commands:
        combat.execute(command)
    while combat.state.phase is not Phase.ROUND:
        commands.append(c.Advance())
        combat.execute(commands[-1])
    return commands


@pytest.mark.parametrize("side", [Side.NPC, Side.PC], ids=["tracker rolls", "table rolls"])
async def test_the_ta_dialog_for_the_next_step_is_refilled_and_as_new(side: Side) -> None:
    encounter = three(side, side)
    commands = to_the_round(encounter)
    app = make_app(session_after(encounter, *commands), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        state = app.session.combat.state
        assert state.phase is Phase.ROUND
        await press(pilot, "y")
        first = app.screen
        assert isinstance(first, TADialog)
        acting = first.step.character
        await fill(pilot, "extra", "3")
        await fill(pilot, "modifier", "-2")
        await fill(pilot, "target", "7")
        await fill(pilot, "dice", "1 1 1")
        await press(pilot, "escape", "y")  # discard what was typed (it asks, issue 35)
        expected = await new_dialog_screen(app, pilot, "", TADialog.for_use(
            state, first.step, app.main_screen.check, app.session.combat.roll))
        await press(pilot, "y")
        assert app.screen is first and screen_text(app) == expected
        await fill(pilot, "dice", "3 5 2")
        await press(pilot, "enter")
        assert on_main_screen(app)
        following = next(s for s in state.current_group() if s.character != acting)
        expected = await new_dialog_screen(app, pilot, "", TADialog.for_use(
            state, following, app.main_screen.check, app.session.combat.roll))
        await press(pilot, "y")
        assert app.screen is first and first.step.character == following.character
        assert screen_text(app) == expected
        await pilot.press("escape")


def two_attacks_on_bruno() -> tuple[Encounter, list[c.Command]]:
    """Set-up: Carla shoots Bruno and Ana punches him; the first attack has hit (its hit
    proposal is open, H1) and the second is still to be rolled."""
    pistol = Weapon(name="pistola", damage_type="II")
    fists = Weapon(name="puños", damage_type="0")
    encounter = Encounter(name="Golpes", seed=1, settings=Settings(), characters=[
        char("Ana", 8, 3, 14, resistencia=6, skills={"Pelea": 30}, weapons=[fists]),
        char("Bruno", 12, 5, 12, resistencia=7, skills={"Armas": 15}, weapons=[pistol]),
        char("Carla", 15, 2, 13, skills={"Armas": 17}, weapons=[pistol])])
    attacks = {"Ana": Action(description="golpea a Bruno", skill="Pelea", targets=["Bruno"],
                             weapon=fists),
               "Carla": Action(description="dispara a Bruno", skill="Armas",
                               targets=["Bruno"], weapon=pistol)}
    combat = Combat(encounter)
    commands: list[c.Command] = []

    def run(command: c.Command) -> None:
        combat.execute(command)
        commands.append(command)
    run(c.StartCombat())
    while combat.state.phase is Phase.DECLARATION:
        state = combat.state
        if state.top_prompt is not None:
            run(c.Decline(character=state.top_prompt.reactor))
        elif (name := state.current_declarer) is not None:
            action = attacks.get(name)
            run(c.Declare(character=name, actions=[action] if action else [],
                          affected=["Bruno"] if action else []))
        else:
            run(c.Advance())
    while combat.state.phase is not Phase.ROUND:
        run(c.Advance())
    first = next(s for s in combat.state.current_group() if s.character in attacks)
    run(c.Resolve(character=first.character, dice=Dice(ds=5, a=2, b=1)))
    assert combat.state.proposals, "the first attack hits"
    return encounter, commands


async def test_the_hit_dialog_for_the_next_hit_is_refilled_and_as_new() -> None:
    encounter, commands = two_attacks_on_bruno()
    app = make_app(session_after(encounter, *commands), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        state = app.session.combat.state
        # The pending hit opens by itself with the encounter (issue 35 item 6).
        await hit_opened(pilot)
        first = app.screen
        assert isinstance(first, HitDialog)
        await fill(pilot, "damage", "4")
        await choose(pilot, "severity", "grave")
        await fill(pilot, "reason", "x")
        await focus(pilot, "lethal")
        await send_keys(pilot, "space")  # not lethal
        await focus(pilot, "accept")
        await press(pilot, "enter")
        assert on_main_screen(app) and not state.proposals
        accepted = app.session.combat.commands[-1]
        assert isinstance(accepted, c.AcceptHit) and accepted.damage == 4
        assert accepted.lethal is False

        await pilot.press("y")  # the second attack: the DJ types its dice
        await settle(pilot)
        await fill(pilot, "dice", "4 1 2")
        await press(pilot, "enter")
        [proposal] = state.proposals
        assert app.screen is first and first.proposal == proposal  # opened by itself
        await press(pilot, "escape")
        expected = await new_dialog_screen(app, pilot, "", HitDialog.for_use(
            state, proposal, app.main_screen.check))
        await press(pilot, "space")
        assert app.screen is first and first.proposal == proposal
        assert screen_text(app) == expected
        await pilot.press("space")  # accepts as proposed
        await settle(pilot)
        accepted = app.session.combat.commands[-1]
        assert isinstance(accepted, c.AcceptHit) and accepted.proposal_id == proposal.id
        assert (accepted.damage, accepted.lethal, accepted.severity) == (None, None, None)


async def test_the_mouse_on_a_dialogs_buttons_submits_adds_or_backs_out() -> None:
    """The primary button submits and any other backs out (Dialog's default), but a
    dialog's own buttons keep their use: "Another action" adds one and stays open."""
    app = make_app(session_after(three(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await pilot.press("d")
        dialog = app.screen
        assert isinstance(dialog, DeclarationEditor)
        await pilot.click("#add")
        await settle(pilot)
        assert app.screen is dialog and len(dialog.forms) == 2
        await pilot.click("#cancel")
        await press(pilot, "y")  # an action added: the question to discard it
        await settle(pilot)
        assert on_main_screen(app) and len(combat.commands) == 1

        name = app.main_screen.selected()
        assert name is not None
        await pilot.press("h")  # a hit by hand: a dialog with no buttons of its own
        await settle(pilot)
        await type_text(pilot, "3")
        await pilot.click("#apply")
        await settle(pilot)
        assert on_main_screen(app)
        hit = combat.commands[-1]
        assert isinstance(hit, c.ManualHit) and (hit.character, hit.damage) == (name, 3)
        await press(pilot, "h")
        await pilot.click("#cancel")
        await settle(pilot)
        assert on_main_screen(app) and combat.commands[-1] is hit


# ---- issue 21 item 3: built while the app is idle, filled by the code that composes ----

async def prepared_app(monkeypatch: pytest.MonkeyPatch, encounter: Encounter,
                       *commands: c.Command) -> SombraApp:
    """An app as the DJ runs it, after `commands` (default: the combat started): the
    round's dialogs prepared at once (no wait)."""
    from sombra_tui.screens import preparing as main_module
    monkeypatch.setattr(main_module, "PREPARE_AFTER", 0.01)
    monkeypatch.setattr(main_module, "PREPARE_EVERY", 0.01)
    return make_app(session_after(encounter, *(commands or [c.StartCombat()])),
                    prepare_dialogs=True)


async def all_prepared(app: SombraApp, pilot) -> list[Dialog[Any]]:  # type: ignore[no-untyped-def]
    """Wait (by turns of the event loop, no clock) until every dialog is built."""
    main = app.main_screen
    for _turn in range(200):
        if main.round_dialogs_prepared():
            return [dialog for kind, shape in main.round_dialog_shapes()
                    if (dialog := main.shelf.kept(main._shelved(kind, shape)[0]))]
        await pilot.pause()
    raise AssertionError("the round's dialogs were not prepared")


async def test_the_round_dialogs_are_built_unshown_after_the_first_screen(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shape the encounter can ask for (Ana's side is rolled by the table, the
    others' by the tracker; no tipo IV weapon) is built, mounted and never shown: the
    main screen stays on top and keeps the focus."""
    app = await prepared_app(monkeypatch, three())
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        assert main.round_dialog_shapes() == [
            ("declaration", False), ("ta", False), ("ta", True), ("reaction", False),
            ("reaction", True), ("hit", False)]
        prepared = await all_prepared(app, pilot)
        assert len(prepared) == 6
        assert app.screen is main and main.focused is not None
        assert all(dialog not in app.screen_stack for dialog in prepared)


async def test_a_prepared_dialog_opens_as_built_new_and_takes_typing_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The first declaration opens the prepared dialog itself (not composed again),
    filled by the same code a new one is: its screen equals a dialog built new for
    the same character, style for style; and what the DJ types right after the key
    lands in it."""
    app = await prepared_app(monkeypatch, three())
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        await all_prepared(app, pilot)
        prepared = main.shelf.kept(main._shelved("declaration")[0])
        composed: list[object] = []
        monkeypatch.setattr(DeclarationEditor, "compose",
                            lambda self: composed.append(self) or iter(()))
        await press(pilot, "d")
        assert app.screen is prepared and composed == []
        name = app.session.combat.state.current_declarer
        assert name is not None and prepared.character.name == name
        shown = screen_text(app)
        await press(pilot, "escape")
        monkeypatch.undo()
        assert shown == await new_dialog_screen(app, pilot, name)
        await pilot.press("d", *"dispara")  # no pause: typed as the dialog opens
        await settle(pilot)
        assert app.screen is prepared
        assert app.screen.query_one("#a0-description").value == "dispara"


async def test_a_prepared_ta_dialog_equals_one_built_new(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The TA dialog, prepared before it was asked for, shows the first step's TA
    exactly as a dialog built for it."""
    encounter = three()
    app = await prepared_app(monkeypatch, encounter, *to_the_round(encounter))
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        await all_prepared(app, pilot)
        state = app.session.combat.state
        assert state.phase is Phase.ROUND
        await press(pilot, "y")
        dialog = app.screen
        assert isinstance(dialog, TADialog)
        step = dialog.step
        assert dialog is main.shelf.kept(main._shelved("ta", state.table_rolls(
            step.character))[0])
        shown = screen_text(app)
        await press(pilot, "escape")
        expected = await new_dialog_screen(app, pilot, "", TADialog.for_use(
            state, step, main.check, app.session.combat.roll))
        assert shown == expected


async def test_a_dialog_taken_while_it_is_being_prepared_opens_filled_with_the_keys(
        ) -> None:
    """The DJ's key comes in the same turn of the event loop as the dialog's preparation
    (before it is mounted): it opens filled for the declarer, and the keys typed at
    once land in it."""
    app = make_app(session_after(three(), c.StartCombat()))
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        await pilot.pause()
        assert main.shelf.prepare(*main._shelved("declaration"))
        prepared = main.shelf.kept(main._shelved("declaration")[0])
        assert prepared is not None and not prepared.is_mounted
        main.action_declare()
        await pilot.press(*"dispara")
        await settle(pilot)
        assert app.screen is prepared
        name = app.session.combat.state.current_declarer
        assert isinstance(prepared, DeclarationEditor) and prepared.character.name == name
        assert prepared.query_one("#a0-description").value == "dispara"


async def test_the_dialog_the_next_step_opens_is_prepared_for_it_with_nothing_to_repaint(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: the dialog the next step opens (here a reacción) is filled for that use
    while it is prepared, and every prepared dialog is left laid out with nothing to
    repaint, so its first opening costs what a later one does. Opened, it is still
    filled again by the same code and equals a dialog built new, style for style; the
    keys typed with the opening key land in it."""
    from sombra_tui.textual_compat import repaint_unshown
    encounter = three()
    app = await prepared_app(monkeypatch, encounter,
                             *everyone_declared(encounter, attack=True))
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        prepared = await all_prepared(app, pilot)
        assert all(repaint_unshown(dialog) for dialog in prepared)
        state = app.session.combat.state
        prompt = state.top_prompt
        assert prompt is not None
        reaction = main.shelf.kept(main._shelved("reaction", state.table_rolls(
            prompt.reactor))[0])
        assert isinstance(reaction, ReactionDialog) and reaction.used
        assert reaction.character.name == prompt.reactor and reaction not in app.screen_stack
        # The others, which the next step does not open, wait for their use.
        declaration = main.shelf.kept(main._shelved("declaration")[0])
        assert declaration is not None and not declaration.used
        await press(pilot, "r")
        assert app.screen is reaction
        shown = screen_text(app)
        await press(pilot, "escape")
        assert shown == await new_dialog_screen(app, pilot, "", ReactionDialog.for_use(
            state, prompt, main.check, app.session.combat.roll))
        typed = "3 5 2" if reaction.table else "se aparta"
        await pilot.press("r", *typed)  # no pause: typed as the dialog opens
        await settle(pilot)
        assert app.screen is reaction
        field = "#dice" if reaction.table else "#a0-description"
        assert reaction.query_one(field, Input).value == typed


async def test_after_a_declaration_the_next_declarers_dialog_is_refilled_unshown(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: once a declaration is sent, the kept dialog is filled for the next
    declarer and repainted while the DJ reads the screen (its lists of names change),
    not at the key; opened, it is filled again by the same code, equals a dialog built
    new, style for style, and the keys typed with the opening key land in it."""
    from sombra_tui.screens import preparing as main_module
    from sombra_tui.textual_compat import repaint_unshown
    monkeypatch.setattr(main_module, "REFILL_AFTER", 0.01)
    monkeypatch.setattr(main_module, "REPAINT_EVERY", 0.01)
    app = await prepared_app(monkeypatch, three())
    async with app.run_test(size=SIZE) as pilot:
        main = app.main_screen
        await all_prepared(app, pilot)
        dialog = main.shelf.kept(main._shelved("declaration")[0])
        assert isinstance(dialog, DeclarationEditor)
        state = app.session.combat.state
        first = state.current_declarer
        await send_keys(pilot, "d", *"espera", "enter")
        await settle(pilot)
        following = state.current_declarer
        assert following is not None and following != first and on_main_screen(app)
        for _turn in range(400):  # by turns of the event loop, no clock
            if dialog.character.name == following and main._refill_timer is None \
                    and repaint_unshown(dialog):
                break
            await pilot.pause()
        assert dialog.character.name == following and dialog not in app.screen_stack
        assert [o.value for o in dialog.query_one("#affected", PickList).options] == \
            [ch.name for ch in state.characters if ch.name != following]
        assert repaint_unshown(dialog)  # nothing left to lay out or repaint
        await press(pilot, "d")
        assert app.screen is dialog and dialog.character.name == following
        shown = screen_text(app)
        await press(pilot, "escape")
        assert shown == await new_dialog_screen(app, pilot, following)
        await pilot.press("d", *"apunta")  # no pause: typed as the dialog opens
        await settle(pilot)
        assert app.screen is dialog
        assert dialog.query_one("#a0-description", Input).value == "apunta"


async def test_a_pick_list_refilled_with_the_same_names_keeps_its_options_unticked(
        ) -> None:
    """The same names again (the same character's dialog) only untick the list, which
    keeps its options; other names (the next character's) replace them, the options of
    the names kept put back as they were, unticked, in the new order."""
    from textual.app import App, ComposeResult

    from sombra_tui.screens.dialogs.fields import PickList, refill_picks

    class One(App[None]):
        def compose(self) -> ComposeResult:
            yield PickList(id="picks")

    app = One()
    async with app.run_test() as pilot:
        picks = app.query_one(PickList)
        refill_picks(picks, ["Ana", "Bruno"])
        picks.select("Bruno")
        await pilot.pause()
        options = list(picks.options)
        refill_picks(picks, ["Ana", "Bruno"])
        assert picks.options == options and picks.selected == []
        assert picks.highlighted == 0
        bruno = picks.get_option_at_index(1)
        picks.select("Bruno")
        refill_picks(picks, ["Carla", "Bruno", "Dora"])
        assert [option.value for option in picks.options] == ["Carla", "Bruno", "Dora"]
        assert picks.get_option_at_index(1) is bruno
        assert picks.selected == [] and picks.highlighted == 0
        picks.highlighted = 1
        picks.action_select()  # the space on the kept option ticks it, at its new place
        await pilot.pause()
        assert picks.selected == ["Bruno"]
        picks.deselect("Bruno")
        picks.select("Dora")
        assert picks.selected == ["Dora"]


async def hit_opened(pilot: Any) -> None:
    """Wait for the hit dialog that opens by itself, laid out (its fields mounted)."""
    for _turn in range(100):
        screen = pilot.app.screen
        if isinstance(screen, HitDialog) and screen.query("#severity"):
            break
        await pilot.pause(0.01)
    await pilot.pause()
