"""Issue 10 in the app, by keyboard: the DJ's free TA (f, the palette, O4's button),
opposed actions with only those able to act (P4), several conditioned characters (O3)
and the DJ deciding an opposed outcome."""

from __future__ import annotations

from sombra_tui.engine import commands as c
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.model import (
    Action,
    ActionKind,
    Encounter,
    ExtendedMode,
    ExtendedSpec,
    Opposition,
    OppositionMode,
    Reading,
    Role,
)
from sombra_tui.engine.state import Phase, StepStatus
from sombra_tui.screens.dialogs import FreeTADialog, OpposedDialog, OpposedResultDialog, TADialog
from sombra_tui.widgets.initiative_table import InitiativeTable
from tests.app.conftest import (
    SIZE,
    assert_unchanged,
    char,
    field_error,
    fill,
    focus,
    make_app,
    on_main_screen,
    session_after,
    snapshot,
    text_of,
    worked_example_encounter,
)


def stealth(against: list[str], role: Role, target: int) -> Action:
    return Action(description="sneaks / watches", target=target, opposition=Opposition(
        mode=OppositionMode.CONDITIONED, against=against, role=role, reading=Reading.STEALTH))


def sneak_past_two_guards(*extra: c.Command) -> list[c.Command]:
    """Carla (15) sneaks past Ana and Bruno, who both watch for her (O3, several)."""
    return [c.StartCombat(),
            c.Declare(character="Ana", actions=[stealth(["Carla"], Role.CONDITIONED, 14)]),
            c.Declare(character="Bruno", actions=[stealth(["Carla"], Role.CONDITIONED, 12)]),
            c.Declare(character="Carla", actions=[stealth(["Ana", "Bruno"],
                                                          Role.CONDITIONING, 15)]),
            c.Advance(), c.Advance(), *extra]


async def test_free_ta_key_rolls_any_character_logged_and_undone() -> None:
    """Item 6: f asks the selected character for a TA outside the steps (T2, T6)."""
    app = make_app(session_after(worked_example_encounter(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        app.main_screen.query_one(InitiativeTable).select_name("Bruno")
        before = snapshot(app)
        await pilot.press("f")
        assert isinstance(app.screen, FreeTADialog)
        await pilot.press("enter")  # no value to roll under: refused inline
        assert isinstance(app.screen, FreeTADialog)
        assert_unchanged(app, before)
        assert "value" in field_error(app, "target")
        await fill(pilot, "target", "12")
        await fill(pilot, "gd", "1")
        await fill(pilot, "modifier", "-2")
        await fill(pilot, "dice", "3 4 2")
        await fill(pilot, "label", "hears the door")
        # T2: 3 + 4 + 2 + 5 - 2 = 12 <= 12, shown live before it is logged.
        assert "12" in text_of(app, "#ta-preview")
        await pilot.press("enter")
        assert on_main_screen(app)
        command = app.session.combat.commands[-1]
        assert command == c.FreeTA(character="Bruno", target=12, gd=1, modifier=-2,
                                   dice=c.Dice.of(3, 4, 2), label="hears the door")
        event = app.session.combat.log[-1]
        assert event.kind is EventKind.TA and event.ta is not None
        assert (event.ta.total, event.ta.success) == (12, True)
        await pilot.press("u")
        assert_unchanged(app, before)


async def test_free_ta_from_the_palette_with_a_bad_die() -> None:
    app = make_app(session_after(worked_example_encounter(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        before = snapshot(app)
        command = next(cmd for cmd in app.get_system_commands(app.main_screen)
                       if cmd.title == "DJ: free TA")
        await command.callback()
        await pilot.pause()
        assert isinstance(app.screen, FreeTADialog)
        await fill(pilot, "target", "10")
        await fill(pilot, "dice", "3 11 2")
        await pilot.press("enter")
        assert "from 1 to 10" in field_error(app, "dice")
        assert_unchanged(app, before)
        await pilot.press("escape", "y")  # typed in: it asks, and y discards (issue 35)
        assert on_main_screen(app)
        assert_unchanged(app, before)


async def test_opposed_dialog_leaves_out_the_out_guard_and_reads_each_pair() -> None:
    """Items 2 and 7: Bruno is out, so only Carla and Ana roll; one pair, one reading."""
    app = make_app(session_after(worked_example_encounter(), *sneak_past_two_guards(
        c.SetMark(character="Bruno", mark=c.Mark.OUT))), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        assert app.session.combat.state.phase is Phase.ROUND
        await pilot.press("y")
        assert isinstance(app.screen, OpposedDialog)
        ids = {widget.id for widget in app.screen.query("Input")}
        assert not any(i and "Bruno" in i for i in ids)  # no dice asked of Bruno
        await fill(pilot, "p0_Carla-dice", "2 3 4")
        await fill(pilot, "p1_Ana-dice", "9 9 8")
        await pilot.press("enter")
        assert isinstance(app.screen, OpposedResultDialog)
        lines = " ".join(str(s.content) for s in app.screen.query(".result-line"))
        assert "Carla passes unseen" in lines and "Bruno does not take part" in lines
        await pilot.press("enter")
        assert on_main_screen(app)
        command = app.session.combat.commands[-1]
        assert isinstance(command, c.ResolveOpposed)
        assert [roll.character for roll in command.rolls] == ["Carla", "Ana"]
        assert {s.status for s in app.session.combat.state.steps} == {
            StepStatus.DONE, StepStatus.SKIPPED}


async def test_sentinel_win_offers_the_confirming_free_ta() -> None:
    """Item 6 and O4: a sentinel who won with both failing gets a button for a new TA."""
    app = make_app(session_after(worked_example_encounter(), *sneak_past_two_guards()),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        assert isinstance(app.screen, OpposedDialog)
        await fill(pilot, "p0_Carla-dice", "9 6 8")  # 23 > 15: fails by 8
        await fill(pilot, "p1_Ana-dice", "7 7 6")  # 20 - 5 = 15 > 14: fails by 1, wins
        await fill(pilot, "p2_Bruno-dice", "1 2 3")  # 6 - 5 = 1 <= 12: detects Carla
        await pilot.press("enter")
        assert isinstance(app.screen, OpposedResultDialog)
        assert str(app.screen.query_one("#confirm-0").label) == "Confirming TA: Ana (f)"
        await pilot.press("f")
        assert isinstance(app.screen, FreeTADialog)
        assert app.screen.query_one("#target").value == "14"  # her perception's value
        await fill(pilot, "dice", "1 2 3")
        await pilot.press("enter")
        assert on_main_screen(app)
        command = app.session.combat.commands[-1]
        assert isinstance(command, c.FreeTA)
        assert (command.character, command.target) == ("Ana", 14)
        assert command.label == "confirms the suspicion"


async def test_dj_gives_the_outcome_to_the_loser_from_the_result() -> None:
    """Item 8: "DJ: X wins" re-resolves with the same dice, logged as a DJ decision."""
    encounter = worked_example_encounter()
    grab = Action(description="grabs the idol", target=15,
                  opposition=Opposition(mode=OppositionMode.DIRECT, against=["Ana"]))
    app = make_app(session_after(encounter, c.StartCombat(), c.Declare(character="Ana"),
                                 c.Declare(character="Bruno", actions=[grab]),
                                 c.Declare(character="Carla"), c.Advance(), c.Advance()),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        assert isinstance(app.screen, OpposedDialog)
        await fill(pilot, "p0_Bruno-dice", "2 3 4")  # 9 <= 15, margin 6
        await fill(pilot, "p1_Ana-dice", "7 4 3")
        await fill(pilot, "p1_Ana-target", "15")  # 14 <= 15, margin 1: Ana wins
        await pilot.press("enter")
        assert isinstance(app.screen, OpposedResultDialog)
        commands = len(app.session.combat.commands)
        await focus(pilot, "winner-0")
        await pilot.press("enter")
        assert isinstance(app.screen, OpposedResultDialog)  # the new outcome is shown
        combat = app.session.combat
        assert len(combat.commands) == commands  # replaced, not added
        command = combat.commands[-1]
        assert isinstance(command, c.ResolveOpposed) and command.winners == ["Bruno"]
        assert [r.dice for r in command.rolls] == [c.Dice.of(2, 3, 4), c.Dice.of(7, 4, 3)]
        [event] = [e for e in combat.log if e.kind is EventKind.OPPOSED]
        assert event.winner == "Bruno" and event.override and "DJ decision" in event.text
        await pilot.press("enter")
        assert on_main_screen(app)


async def test_opposed_step_with_its_opponent_out_is_a_plain_ta() -> None:
    """Item 2: nobody able left to oppose it: t/y give the character's own TA."""
    app = make_app(session_after(
        Encounter(name="Duelo", seed=1, characters=[char("Ana", 8, 3, 14),
                                                      char("Carla", 15, 2, 13)]),
        c.StartCombat(),
        c.Declare(character="Ana", actions=[stealth(["Carla"], Role.CONDITIONED, 14)]),
        c.Declare(character="Carla", actions=[stealth(["Ana"], Role.CONDITIONING, 15)]),
        c.Advance(), c.Advance(), c.SetMark(character="Ana", mark=c.Mark.OUT)),
        journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        assert isinstance(app.screen, TADialog)
        await fill(pilot, "dice", "2 3 4")
        await pilot.press("enter")
        assert on_main_screen(app)
        command = app.session.combat.commands[-1]
        assert isinstance(command, c.Resolve) and command.character == "Carla"
        assert app.session.combat.state.pending_steps() == []


async def test_opposed_dialog_prefills_the_gd_the_dj_set_for_an_extended_action() -> None:
    """E3/E4: an extended opposed action's later TAs roll at the GD the DJ set; the
    dialog pre-fills that GD (it showed the action's first GD, and sent it)."""
    chase = Action(kind=ActionKind.EXTENDED, description="chases Bruno", target=12, gd=1,
                   extended=ExtendedSpec(mode=ExtendedMode.COMPLEX, successes=2),
                   opposition=Opposition(mode=OppositionMode.DIRECT, against=["Bruno"]))
    session = session_after(worked_example_encounter(), c.StartCombat(),
                            c.Declare(character="Ana", actions=[chase]),
                            c.Declare(character="Bruno"), c.Declare(character="Carla"),
                            c.Advance(), c.Advance())
    progress = session.combat.state.extended[0]
    session.execute(c.AdjustExtended(extended_id=progress.id, gd=3))
    session.execute(c.Advance())
    assert session.combat.state.phase is Phase.EXTENDED
    app = make_app(session, journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        assert isinstance(app.screen, OpposedDialog)
        dialog = app.screen
        assert dialog.value(f"{dialog.slugs['Ana']}-gd") == "3"


def duel() -> Encounter:
    """Bruno (12) and Carla (15), no weapons."""
    return Encounter(name="Duelo", seed=1, characters=[char("Bruno", 12, 5, 12),
                                                        char("Carla", 15, 2, 13)])


def attack_reading(description: str, target: int, against: str, role: Role) -> Action:
    """An O3 action aimed at `against`, read as attack against dodge (O4)."""
    return Action(description=description, target=target, targets=[against],
                  opposition=Opposition(mode=OppositionMode.CONDITIONED, against=[against],
                                        role=role, reading=Reading.ATTACK))


async def test_a_dodge_declared_first_is_rolled_with_the_plain_attack_once_each() -> None:
    """O3 with I4 (playtest): Bruno declares first and dodges Carla; Carla then declares
    her attack plain. At her turn t/y opens the opposed dialog for both, and nobody is
    asked for a second TA at Bruno's turn."""
    dodge = attack_reading("esquiva", 14, "Carla", Role.CONDITIONED)
    app = make_app(session_after(
        duel(),
        c.StartCombat(),
        c.Declare(character="Bruno", actions=[dodge]),
        c.Declare(character="Carla", actions=[Action(description="ataca a Bruno",
                                                     target=15, targets=["Bruno"])]),
        c.Decline(character="Bruno"), c.Advance(), c.Advance()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        assert isinstance(app.screen, OpposedDialog)
        assert "(conditioning Bruno)" in " ".join(
            str(s.content) for s in app.screen.query(".note"))
        await fill(pilot, "p0_Carla-dice", "2 3 4")  # 9 <= 15
        await fill(pilot, "p1_Bruno-dice", "3 3 4")  # 10 + 5 = 15 > 14: the dodge fails
        await pilot.press("enter")
        assert isinstance(app.screen, OpposedResultDialog)
        lines = " ".join(str(s.content) for s in app.screen.query(".result-line"))
        assert "Carla hits Bruno" in lines
        await pilot.press("enter")
        assert on_main_screen(app)
        combat = app.session.combat
        command = combat.commands[-1]
        assert isinstance(command, c.ResolveOpposed)
        assert [roll.character for roll in command.rolls] == ["Carla", "Bruno"]
        assert combat.state.pending_steps() == []
        assert [e.actor for e in combat.log if e.kind is EventKind.TA] == ["Carla", "Bruno"]


async def test_an_opponent_without_an_action_of_its_own_shows_its_value_is_needed() -> None:
    """O3 (playtest): Carla's attack conditions Bruno, who declared nothing that opposes
    it; his value field said "from their action", then Enter refused it."""
    shot = attack_reading("dispara a Bruno", 15, "Bruno", Role.CONDITIONING)
    app = make_app(session_after(
        duel(),
        c.StartCombat(), c.Declare(character="Bruno"),
        c.Declare(character="Carla", actions=[shot]), c.Decline(character="Bruno"),
        c.Advance(), c.Advance()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        assert isinstance(app.screen, OpposedDialog)
        carla = app.screen.query_one("#p0_Carla-target")
        bruno = app.screen.query_one("#p1_Bruno-target")
        assert (carla.value, bruno.value, bruno.placeholder) == ("15", "", "needed")
        assert app.screen.query_one("#p1_Bruno-gd").placeholder == "0"
        await fill(pilot, "p0_Carla-dice", "2 3 4")
        await fill(pilot, "p1_Bruno-dice", "1 1 2")
        await pilot.press("enter")  # refused at Bruno's value, the cursor put there
        assert isinstance(app.screen, OpposedDialog)
        assert "Bruno" in field_error(app, "p1_Bruno-target")
        assert app.focused is bruno
        await pilot.press("1", "2", "enter")  # typed where it belongs
        assert isinstance(app.screen, OpposedResultDialog)
        command = app.session.combat.commands[-1]
        assert isinstance(command, c.ResolveOpposed)
        assert [(r.character, r.target) for r in command.rolls] == [("Carla", 15), ("Bruno", 12)]
