"""The hint, the table's 'now' marker, the footer and the next key agree (issue 20).

They all read the engine's one answer (engine/ask.py `next_step`). The case that drifted:
right after a successful attack with a weapon, a hit proposal is open while another
character's step is pending; the hint and the marker named that character, while
space opened the hit dialog.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import Any

import pytest
from rich.console import Group
from textual.pilot import Pilot

from sombra_tui.app import SombraApp
from sombra_tui.engine.state import Phase, ProposalKind
from sombra_tui.screens.dialogs import TADialog
from sombra_tui.screens.dialogs.hit import HitDialog
from sombra_tui.screens.main import MainScreen
from sombra_tui.widgets import declaration_queue, initiative_table
from sombra_tui.widgets.declaration_queue import DeclarationQueue
from sombra_tui.widgets.footer import footer_keys
from sombra_tui.widgets.initiative_table import InitiativeTable
from tests.app import drivers as shots
from tests.app.conftest import SIZE


@shots.resumes_at(shots.declarations_done)
async def to_the_hit_proposal(pilot: Pilot[Any]) -> None:
    """The demo round until Carla's shot at Iker succeeds (its hit proposal open); the
    hit dialog opened by itself (issue 22) and the DJ escaped it to read the table."""
    await shots.declarations_done(pilot)
    await shots.advance_to(pilot, Phase.ROUND)
    await pilot.press("space")
    await shots.wait_for_screen(pilot, TADialog, "opening Carla's TA")
    await shots.confirm_with_dice(pilot, "5 4 3", TADialog, "resolving Carla's shot")
    await shots.wait_for_screen(pilot, HitDialog, "opening the hit proposal")
    await pilot.press("escape")
    await shots.settle(pilot)


def assert_the_proposal_is_next(app: SombraApp) -> str:
    """Hint, marker, cursor and footer all about the hit on Iker; returns the hint."""
    state = app.session.combat.state
    [proposal] = state.proposals
    assert (proposal.kind, proposal.attacker, proposal.character) == (
        ProposalKind.HIT, "Carla", "Iker")
    pending = [step.character for step in state.current_group()]
    assert pending and "Iker" not in pending  # another character's step waits
    shown = app.main_screen.query_one(DeclarationQueue).content
    assert isinstance(shown, Group)
    hint = shown.renderables[0].plain  # type: ignore[union-attr]
    assert "Carla" in hint and "Iker" in hint
    assert not any(name in hint for name in pending)
    table = app.main_screen.query_one(InitiativeTable)
    marked = {name for name in initiative_table.ordered_names(state)
              if table.get_row(name)[0].plain == "▶"}
    assert marked == {"Iker"}
    assert table.selected_name == "Iker"  # the cursor follows "now"
    footer = {key.action for key in footer_keys(app.main_screen)}
    assert "next_step" in footer
    assert not footer & {"roll", "type_dice"}  # space settles the hit first
    return hint


async def test_a_hit_proposal_is_what_the_hint_the_marker_and_space_name() -> None:
    app = shots.make_app(size=SIZE, resume=to_the_hit_proposal)
    async with app.run_test(size=SIZE) as pilot:
        await to_the_hit_proposal(pilot)
        hint = assert_the_proposal_is_next(app)
        assert hint == "space: settle Carla's hit on Iker"
        status = app.main_screen.query_one(InitiativeTable).get_row("Iker")[3].plain
        assert "now" in status.split()
        await pilot.press("space")
        await shots.wait_for_screen(pilot, HitDialog, "opening the hit proposal")
        assert isinstance(app.screen, HitDialog)


@pytest.mark.usefixtures("spanish")
async def test_the_same_in_spanish() -> None:
    app = shots.make_app(size=SIZE, language="es", resume=to_the_hit_proposal)
    async with app.run_test(size=SIZE) as pilot:
        await to_the_hit_proposal(pilot)
        hint = assert_the_proposal_is_next(app)
        assert hint.endswith(": resolver el impacto de Carla sobre Iker")
        status = app.main_screen.query_one(InitiativeTable).get_row("Iker")[3].plain
        assert "ahora" in status.split()
        await pilot.press("space")
        await shots.wait_for_screen(pilot, HitDialog, "opening the hit proposal")
        assert isinstance(app.screen, HitDialog)


def test_the_readers_ask_the_engine_what_comes_next() -> None:
    """The key, the hint and the marker never read the state's own 'what is next'
    (proposals, prompts, declarer, acting group): only ask.next_step."""
    copies = {"proposals", "top_prompt", "current_declarer", "current_group"}
    for function in (MainScreen.action_next_step, declaration_queue.next_step_hint,
                     initiative_table.acting_now):
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        read = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        called = {node.func.attr if isinstance(node.func, ast.Attribute) else
                  getattr(node.func, "id", "") for node in ast.walk(tree)
                  if isinstance(node, ast.Call)}
        assert not read & copies, function.__qualname__
        assert "next_step" in called, function.__qualname__
