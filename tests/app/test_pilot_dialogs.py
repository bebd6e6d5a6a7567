"""Dialog validation by keyboard: errors show inline and nothing is committed until valid.

Each wrong input must leave the dialog open with the message next to its field
(or under the form) and the engine state, history and log untouched; the
fixed input then commits exactly one command.
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, Select, SelectionList

from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.model import Action, ActionKind, ExtendedSpec, OppositionMode
from sombra_tui.engine.state import ExtendedStatus, Phase, ReactionMode, StepStatus
from sombra_tui.screens.dialogs import (
    CharacterEditor,
    DeclarationEditor,
    ExtendedDialog,
    ReactionDialog,
    SettingsDialog,
    TADialog,
)
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.ta import DJ_SUCCESS
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    Snapshot,
    assert_unchanged,
    choose,
    field_error,
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
from tests.app.drivers import settle
from tests.app.harness import Harness, reaction_dialog


async def refused(pilot: Pilot[Any], dialog: type[Dialog[Any]], before: Snapshot,
                  field: str | None) -> str:
    """Enter on a wrong form: it stays open, the error shows inline, nothing changes.

    Returns the message shown next to `field` (or under the form when None).
    """
    app = pilot.app
    assert isinstance(app, SombraApp | Harness)
    await pilot.press("enter")
    assert isinstance(app.screen, dialog), "a wrong form must not close the dialog"
    assert_unchanged(app, before)
    if field is None:
        message = text_of(app, "#form-error")
    else:
        message = field_error(app, field)
        focused = app.focused
        assert focused is not None and focused.id == field, "the wrong field gets the focus"
    assert message
    return message


# ---- character editor ------------------------------------------------------------------------


async def test_character_editor_shows_each_problem_inline_until_valid() -> None:
    app = make_app()  # the demo encounter, which has an Ana
    async with app.run_test(size=SIZE) as pilot:
        before = snapshot(app)
        cursor = app.main_screen.query_one("#initiative").selected_name  # type: ignore[attr-defined]
        await pilot.press("a")
        assert isinstance(app.screen, CharacterEditor)

        await fill(pilot, "primaria", "")
        await type_text(pilot, "abc")  # an integer field takes no letters
        assert app.screen.query_one("#primaria", Input).value == ""
        assert await refused(pilot, CharacterEditor, before, "primaria") == \
            "Primaria is required: type a whole number."
        await fill(pilot, "primaria", "9")
        await fill(pilot, "secundaria", "2")
        await fill(pilot, "alerta", "-1")
        assert await refused(pilot, CharacterEditor, before, "alerta") == \
            "Alerta must be from 0 to 999, not -1."
        assert field_error(app, "primaria") == ""  # fixed fields lose their error
        await fill(pilot, "alerta", "12")
        await fill(pilot, "skills", "Pelea")
        assert await refused(pilot, CharacterEditor, before, "skills") == \
            "Skill 1, 'Pelea': write a name and its value, e.g. 'Pelea 14'."
        await fill(pilot, "skills", "Pelea 14, Sigilo 11")
        assert await refused(pilot, CharacterEditor, before, "name") == \
            "A character needs a name."
        await fill(pilot, "name", "Ana")
        assert "already a character called Ana" in await refused(
            pilot, CharacterEditor, before, "name")

        await fill(pilot, "name", "Rosa")
        await focus(pilot, "side")
        # Issue 22: a dropdown opens with its own key (down), Enter confirms the form.
        await pilot.press("down")
        side = app.screen.query_one("#side", Select)
        assert side.expanded and isinstance(app.screen, CharacterEditor)
        await pilot.press("escape")  # closes the list, the dialog stays
        assert not side.expanded and isinstance(app.screen, CharacterEditor)
        await focus(pilot, "name")
        await pilot.press("enter")
        await pilot.pause()
        assert on_main_screen(app)
        combat = app.session.combat
        assert len(combat.commands) == before.commands + 1
        rosa = combat.state.character("Rosa")
        assert rosa is not None
        assert (rosa.primaria, rosa.secundaria, rosa.alerta) == (9, 2, 12)
        assert rosa.skills == {"Pelea": 14, "Sigilo": 11}
        # Issue 39 item 1: the side of the row the cursor was on.
        assert rosa.side is combat.state.character(cursor).side  # type: ignore[union-attr]
        assert app.main_screen.query_one("#initiative").selected_name == "Rosa"  # type: ignore[attr-defined]


# ---- declaration editor ----------------------------------------------------------------------


async def test_declaration_editor_validates_inline_and_declares_inaction() -> None:
    app = make_app(session_after(worked_example_encounter(), c.StartCombat()))
    async with app.run_test(size=SIZE) as pilot:
        before = snapshot(app)
        await pilot.press("d")
        assert isinstance(app.screen, DeclarationEditor)
        assert await refused(pilot, DeclarationEditor, before, "a0-description") == \
            "Describe the action (what the character does)."

        await type_text(pilot, "picks the lock")

        # E2: an extended action's duration is at least one round.
        await choose(pilot, "a0-kind", ActionKind.EXTENDED)
        await fill(pilot, "a0-duration", "0")
        assert await refused(pilot, DeclarationEditor, before, "a0-duration") == \
            "Duration must be from 1 to 999, not 0."
        await fill(pilot, "a0-duration", "2")

        # O2: a direct opposition asks for no role nor reading (O3's), shown again for O3.
        await choose(pilot, "a0-opposition", OppositionMode.DIRECT)
        await pilot.pause()
        assert not app.screen.query_one("#field-a0-role").region.height
        # O2/O3: an opposed action needs someone to oppose (O3 may name several).
        await choose(pilot, "a0-opposition", OppositionMode.CONDITIONED)
        await pilot.pause()
        assert app.screen.query_one("#field-a0-role").region.height
        await focus(pilot, "a0-against")  # Enter on a Select would open it
        assert await refused(pilot, DeclarationEditor, before, "a0-against") == \
            "Choose who the action is opposed with."

        # D1/D2: ctrl+b declares inaction instead, whatever the form holds.
        await pilot.press("ctrl+b")
        assert on_main_screen(app)
        combat = app.session.combat
        assert len(combat.commands) == before.commands + 1
        ana = combat.state.declaration_of("Ana")
        assert ana is not None and ana.is_inaction and ana.affected == []
        assert combat.state.current_declarer == "Bruno"
        assert combat.log[-1].kind is EventKind.DECLARE and "inaction" in combat.log[-1].text


# ---- reaction dialog --------------------------------------------------------------------


def bruno_shoots_ana() -> list[c.Command]:
    return [c.StartCombat(),
            c.Declare(character="Ana", actions=[Action(description="aims at the door")]),
            c.Declare(character="Bruno", actions=[Action(description="shoots Ana",
                                                         targets=["Ana"])])]


async def test_reaction_dialog_gd_breakdown_dice_errors_and_accept_without_roll() -> None:
    """D6 breakdown live, T6 dice refused inline, D12 accept without a roll."""
    app = Harness(session_after(worked_example_encounter(), *bruno_shoots_ana()),
                  dialog=reaction_dialog)  # the DJ's r
    async with app.run_test(size=SIZE) as pilot:
        before = snapshot(app)  # type: ignore[arg-type]
        await pilot.pause()
        assert isinstance(app.screen, ReactionDialog)
        mode = app.screen.query_one("#mode", Select)
        # D6: a first reaction that substitutes is at +1.
        assert mode.value is ReactionMode.SUBSTITUTE
        assert text_of(app, "#gd-breakdown") == "Ana - Alerta 14 - GD +1 = substitute 1"
        await pilot.press("ctrl+t")  # combine: no substitution grade
        assert mode.value is ReactionMode.COMBINE
        assert text_of(app, "#gd-breakdown") == "Ana - Alerta 14 - GD 0"
        await pilot.press("ctrl+t")
        assert mode.value is ReactionMode.SUBSTITUTE
        assert text_of(app, "#gd-breakdown").endswith("GD +1 = substitute 1")
        await fill(pilot, "base", "1")  # the DJ's base grade adds up
        assert text_of(app, "#gd-breakdown").endswith("GD +2 = base +1 + substitute 1")

        await focus(pilot, "a0-description")
        await type_text(pilot, "dives")
        await fill(pilot, "dice", "3 4")
        assert "exactly three dice" in await refused(pilot, ReactionDialog, before, "dice")
        await fill(pilot, "dice", "11 1 1")
        assert "from 1 to 10 (a 0 reads as 10), not 11" in await refused(
            pilot, ReactionDialog, before, "dice")
        # Typed dice preview the Alerta TA: 3 + 4 + 2 + 5 x 2 = 19 vs 14 (T2).
        await fill(pilot, "dice", "3 4 2")
        assert "19 vs 14" in text_of(app, "#ta-preview")

        # D12: the DJ accepts the reaction without a roll (the dice are then ignored).
        await focus(pilot, "accept")
        await pilot.press("space")
        assert app.screen.query_one("#accept", Checkbox).value
        await pilot.press("enter")
        assert app.screen is app.base
        combat = app.session.combat
        assert len(combat.commands) == before.commands + 1
        command = combat.commands[-1]
        assert isinstance(command, c.React)
        assert command.accept_without_roll and command.dice is None
        assert command.base_gd == 1 and command.mode is ReactionMode.SUBSTITUTE
        override, reaction = [e for e in combat.log[before.log:]
                              if e.kind in (EventKind.OVERRIDE, EventKind.REACTION)]
        assert override.override and override.rule == "D12"
        assert reaction.override and "substitutes" in reaction.text
        assert combat.state.declaration_of("Ana").summary().startswith("dives")  # type: ignore[union-attr]
        assert combat.state.reactions_made == {"Ana": 1}


# ---- TA dialog --------------------------------------------------------------------------


async def test_ta_dialog_refuses_bad_target_and_dice_then_dj_decides_success() -> None:
    """T2 target and T6 dice refused inline; D12 outcome without a roll."""
    app = make_app(session_after(
        worked_example_encounter(), c.StartCombat(),
        c.Declare(character="Ana", actions=[]), c.Declare(character="Bruno", actions=[]),
        c.Declare(character="Carla", actions=[Action(description="shoots")]),
        c.Advance(), c.Advance()))
    async with app.run_test(size=SIZE) as pilot:
        assert app.session.combat.state.phase is Phase.ROUND
        before = snapshot(app)
        await pilot.press("t")  # nothing to roll under yet: t asks for the target
        assert isinstance(app.screen, TADialog)
        assert app.focused is not None and app.focused.id == "target"
        assert await refused(pilot, TADialog, before, "target") == \
            "Target value is required: type a whole number."
        await fill(pilot, "target", "1000")
        assert await refused(pilot, TADialog, before, "target") == \
            "Target value must be from 0 to 999, not 1000."
        await fill(pilot, "target", "13")
        await fill(pilot, "dice", "4 12 2")  # T6: a 0 is a 10, a 12 no die
        assert await refused(pilot, TADialog, before, "dice") == \
            "The second die must be from 1 to 10 (a 0 reads as 10), not 12."

        await choose(pilot, "outcome", DJ_SUCCESS)
        await focus(pilot, "dice")
        await pilot.press("enter")
        assert on_main_screen(app)
        combat = app.session.combat
        command = combat.commands[-1]
        assert isinstance(command, c.Resolve)
        assert (command.accept, command.dice, command.target) == (True, None, 13)
        [step] = combat.state.steps
        assert step.status is StepStatus.DONE
        assert step.result is not None and step.result.success
        [event] = [e for e in combat.log[before.log:] if e.kind is EventKind.TA]
        assert event.override and event.ta is not None and event.ta.success


# ---- settings dialog --------------------------------------------------------------------


async def test_settings_points_per_gd_refused_and_reaccion_off_means_no_prompts() -> None:
    """T3 points per GD at least 1; D3 reacción off: no prompts."""
    app = make_app(session_after(worked_example_encounter(), *bruno_shoots_ana()[:2]))
    async with app.run_test(size=SIZE) as pilot:
        before = snapshot(app)
        await pilot.press("g")
        assert isinstance(app.screen, SettingsDialog)
        # I2 only matters before the first round: locked once the combat started.
        assert app.screen.query_one("#variable", Checkbox).disabled
        await fill(pilot, "points", "0")
        assert await refused(pilot, SettingsDialog, before, "points") == \
            "Points per GD must be from 1 to 20, not 0."
        await fill(pilot, "points", "5")
        await focus(pilot, "reaccion")
        await pilot.press("space")
        assert not app.screen.query_one("#reaccion", Checkbox).value
        await pilot.press("enter")
        assert on_main_screen(app)
        combat = app.session.combat
        assert len(combat.commands) == before.commands + 1
        assert not combat.state.settings.reaccion
        assert combat.state.settings.points_per_gd == 5

        # Bruno shoots Ana, who declared first: with reacción off nobody is prompted.
        await pilot.press("d")
        await type_text(pilot, "shoots Ana")
        await toggle(pilot, "a0-targets", ["Ana"])
        await pilot.press("enter")
        bruno = combat.state.declaration_of("Bruno")
        assert bruno is not None and bruno.affected == ["Ana"]
        assert combat.state.prompts == []
        assert combat.state.current_declarer == "Carla"
        assert not [e for e in combat.log if e.kind is EventKind.PROMPT]


# ---- extended dialog --------------------------------------------------------------------


async def test_extended_dialog_shorter_duration_then_abandon() -> None:
    """E2: the DJ shortens a running simple action; E1: the DJ abandons it."""
    lock = Action(kind=ActionKind.EXTENDED, description="picks the lock", target=12,
                  extended=ExtendedSpec(duration=3))
    app = make_app(session_after(
        worked_example_encounter(), c.StartCombat(),
        c.Declare(character="Ana", actions=[lock]), c.Declare(character="Bruno", actions=[]),
        c.Declare(character="Carla", actions=[]), c.Advance(), c.Advance()))
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        [progress] = combat.state.extended
        assert (progress.duration, progress.status) == (3, ExtendedStatus.ACTIVE)
        before = snapshot(app)
        await pilot.press("j")
        assert isinstance(app.screen, ExtendedDialog)
        assert "Nothing to adjust" in await refused(pilot, ExtendedDialog, before, None)
        await fill(pilot, "duration", "0")
        assert await refused(pilot, ExtendedDialog, before, "duration") == \
            "Duration must be from 1 to 999, not 0."
        await fill(pilot, "duration", "1")
        await pilot.press("enter")
        assert on_main_screen(app)
        assert combat.state.extended[0].duration == 1
        assert combat.log[-1].override and combat.log[-1].rule == "E2"

        # With 1 round, the TA is due in this round's extended phase (E2).
        await pilot.press("space")
        assert combat.state.phase is Phase.EXTENDED
        assert [s.character for s in combat.state.steps] == ["Ana"]

        await pilot.press("j")
        assert isinstance(app.screen, ExtendedDialog)
        await pilot.press("ctrl+b")
        assert on_main_screen(app)
        assert combat.state.extended[0].status is ExtendedStatus.ABANDONED
        assert combat.state.steps[0].status is StepStatus.SKIPPED
        assert combat.state.pending_steps() == []
        await pilot.press("j")
        await app.workers.wait_for_complete()
        assert notifications(app)[-1] == ("warning", "No extended action is running.")


# ---- affected list (D2) -----------------------------------------------------------------


async def test_affected_list_follows_every_target_until_the_dj_edits_it() -> None:
    """D2: the targets pre-fill the affected list; the DJ's own edit is then kept."""
    app = make_app(session_after(worked_example_encounter(), *bruno_shoots_ana()[:2]))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        assert isinstance(app.screen, DeclarationEditor)
        await type_text(pilot, "sweeps the room with fire")
        affected = app.screen.query_one("#affected", SelectionList)
        await toggle(pilot, "a0-targets", ["Ana"])
        assert affected.selected == ["Ana"]
        await toggle(pilot, "a0-targets", ["Carla"])  # a second target is pre-filled too
        assert affected.selected == ["Ana", "Carla"]
        await toggle(pilot, "affected", ["Carla"])  # the DJ: Carla is not directly affected
        assert affected.selected == ["Ana"]
        await toggle(pilot, "a0-targets", ["Carla"])
        await toggle(pilot, "a0-targets", ["Carla"])
        assert affected.selected == ["Ana"]  # the DJ's edit stays
        await pilot.press("enter")
        assert on_main_screen(app)
        bruno = app.session.combat.state.declaration_of("Bruno")
        assert bruno is not None and bruno.affected == ["Ana"]
        assert bruno.actions[0].targets == ["Ana", "Carla"]
        assert [p.reactor for p in app.session.combat.state.prompts] == ["Ana"]


# ---- the minimum terminal size ---------------------------------------------------------------


def shown_on_screen(app: SombraApp | Harness, widget_id: str) -> bool:
    """The widget is on screen: the point at its left middle belongs to it."""
    widget = app.screen.query_one(f"#{widget_id}")
    region = widget.region
    if not region.area:
        return False
    found, _ = app.screen.get_widget_at(region.x + 1, region.y + region.height // 2)
    return widget in found.ancestors_with_self


async def test_reaction_dialog_usable_at_80x24() -> None:
    """At the minimum size every field the DJ tabs to scrolls into view, and Enter reacts."""
    app = Harness(session_after(worked_example_encounter(), *bruno_shoots_ana()),
                  dialog=reaction_dialog)  # the DJ's r
    async with app.run_test(size=MIN_SIZE) as pilot:
        # Settled before reading the layout: Pilot's press waits until the process
        # looks idle by its CPU time, which a process queued behind others (tests
        # run in parallel) also does before the dialog is laid out.
        await settle(pilot)
        assert isinstance(app.screen, ReactionDialog)
        assert shown_on_screen(app, "gd-breakdown")
        assert shown_on_screen(app, "a0-description")
        await type_text(pilot, "dives")
        for widget_id in ("a0-targets", "affected", "accept", "react", "dice"):
            await focus(pilot, widget_id)
            await settle(pilot)
            assert shown_on_screen(app, widget_id), f"#{widget_id} is off screen"
        await type_text(pilot, "3 4 2")
        assert "14 vs 14" in text_of(app, "#ta-preview") and shown_on_screen(app, "ta-preview")
        await pilot.press("enter")
        assert app.screen is app.base
        assert app.session.combat.state.reactions_made == {"Ana": 1}
