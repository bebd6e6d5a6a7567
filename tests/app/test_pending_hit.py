"""An open hit proposal is what the panel names, as the hint and the table's marker do
(issue 35 item 6, H1): with Carla's hit on Iker pending, the panel said "Acting now:
Lucía" while the marker was on Iker. And an encounter resumed from its journal, or
opened from a file, with a hit proposal open opens it as it opened after the TA.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from rich.console import Group
from textual.pilot import Pilot
from textual.widgets import Input

from sombra_tui import config
from sombra_tui.app import SombraApp
from sombra_tui.engine import Advance, Declare, Encounter, Phase, Resolve, StartCombat
from sombra_tui.engine.wounds import Weapon
from sombra_tui.screens.dialogs import ChoiceDialog
from sombra_tui.screens.dialogs.files import FileDialog
from sombra_tui.screens.dialogs.hit import HitDialog
from sombra_tui.screens.main import MainScreen
from sombra_tui.session import Session
from sombra_tui.widgets.declaration_queue import DeclarationQueue
from sombra_tui.widgets.initiative_table import InitiativeTable, ordered_names
from tests.app import drivers as shots
from tests.app.conftest import MIN_SIZE, SIZE, char, fill, make_app
from tests.app.test_next_step import to_the_hit_proposal
from tests.engine.conftest import act, dice

PISTOL = Weapon(name="pistola", damage_type="II")


def panel_lines(app: SombraApp) -> list[str]:
    shown = app.main_screen.query_one(DeclarationQueue).content
    assert isinstance(shown, Group)
    return [line.plain for line in shown.renderables]  # type: ignore[union-attr]


def visible_panel(app: SombraApp) -> str:
    """The panel's lines as drawn on the screen (what is in view), wrapped lines joined."""
    queue = app.main_screen.query_one(DeclarationQueue)
    return " ".join(" ".join(queue.render_line(y).text for y in range(queue.size.height))
                    .split())


def assert_the_panel_names_the_hit(app: SombraApp, pending: str, acting: str) -> None:
    """The panel says the hit is pending, under the hint, and the acting group's steps
    wait for it; the table's marker is on the hit's target."""
    state = app.session.combat.state
    [proposal] = state.proposals
    group = [step.character for step in state.current_group()]
    assert group and proposal.character not in group
    lines = panel_lines(app)
    assert lines[1] == f"▶ {pending}", lines
    assert not any(line.startswith(acting) for line in lines), lines
    assert not any(line.startswith(f"▶ {name}") for name in group for line in lines), lines
    assert pending in visible_panel(app)  # in view at every size
    table = app.main_screen.query_one(InitiativeTable)
    marked = {name for name in ordered_names(state) if table.get_row(name)[0].plain == "▶"}
    assert marked == {proposal.character}


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_h1_the_panel_names_the_pending_hit_not_the_next_group(
        size: tuple[int, int]) -> None:
    app = shots.make_app(size=size, resume=to_the_hit_proposal)
    async with app.run_test(size=size) as pilot:
        await to_the_hit_proposal(pilot)
        assert_the_panel_names_the_hit(app, "Pending: Carla's hit on Iker", "Acting now")
        assert "Acting next: Lucía" in panel_lines(app)
        await pilot.press("space")  # the key settles what the panel names
        await shots.wait_for_screen(pilot, HitDialog, "opening the hit proposal")


@pytest.mark.usefixtures("spanish")
@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_h1_the_same_in_spanish(size: tuple[int, int]) -> None:
    app = shots.make_app(size=size, language="es", resume=to_the_hit_proposal)
    async with app.run_test(size=size) as pilot:
        await to_the_hit_proposal(pilot)
        assert_the_panel_names_the_hit(app, "Pendiente: impacto de Carla sobre Iker",
                                       "Actúa ahora")
        assert "Actúa después: Lucía" in panel_lines(app)


# ---- a resume, a file opened ------------------------------------------------------------


def encounter() -> Encounter:
    return Encounter(name="Muelle", seed=3, characters=[
        char("Ana", 8, 3, 14, resistencia=6, skills={"Armas": 30}),
        char("Carla", 15, 2, 13, skills={"Armas": 30}, weapons=[PISTOL])])


def hit_pending(session: Session) -> Session:
    """Carla's shot at Ana succeeded: its hit proposal is open (every command through
    the session, so that its journal holds them)."""
    shot = act("dispara a Ana", "Ana", skill="Armas", weapon=PISTOL)
    for command in (StartCombat(), Declare(character="Ana", actions=[]),
                    Declare(character="Carla", actions=[shot], affected=[]),
                    Advance(), Advance()):
        session.execute(command)
    assert session.combat.state.phase is Phase.ROUND
    session.execute(Resolve(character="Carla", dice=dice(5, 8, 3)))
    assert [p.character for p in session.combat.state.proposals] == ["Ana"]
    return session


async def wait_for_hit(pilot: Pilot[Any]) -> HitDialog:
    await shots.wait_for_screen(pilot, HitDialog, "opening the pending hit")
    screen = pilot.app.screen
    assert isinstance(screen, HitDialog)
    return screen


async def test_h1_a_resumed_journal_opens_its_pending_hit() -> None:
    crashed = Session.new(encounter())
    crashed.start_journal(config.journal_dir())
    hit_pending(crashed)  # killed with the hit open: the journal holds it
    app = make_app()
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("r")
        dialog = await wait_for_hit(pilot)
        assert dialog.proposal.character == "Ana" and dialog.proposal.attacker == "Carla"
        await pilot.press("space")  # accepted as proposed, as after the TA
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.session.combat.state.proposals == []


async def test_h1_an_opened_file_opens_its_pending_hit(tmp_path: Path) -> None:
    saved = hit_pending(Session.new(encounter()))
    saved.save(tmp_path / "muelle.json")
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+o")
        assert isinstance(app.screen, FileDialog)
        await fill(pilot, "path", str(tmp_path / "muelle.json"))
        await pilot.press("enter")
        dialog = await wait_for_hit(pilot)
        assert dialog.proposal.character == "Ana"
        await pilot.press("escape")  # escaped to read the table: it stays closed
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert len(app.session.combat.state.proposals) == 1


async def test_a_form_left_open_with_a_hit_pending_reopens_once_the_hit_is_settled() -> None:
    """Issue 35 items 5 and 6 together: killed with a hit pending and a hit by hand half
    typed, the resume opens the pending hit first, as after the TA; once it is settled
    the form comes back with what was typed (it was silently lost)."""
    from sombra_tui.screens.dialogs.hit import ManualHitDialog

    crashed = Session.new(encounter())
    crashed.start_journal(config.journal_dir())
    hit_pending(crashed)
    crashed.keep_draft({"dialog": "manual_hit", "who": "Carla",
                        "values": {"damage": "17", "cause": "una caída"}})
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("r")
        await wait_for_hit(pilot)
        await pilot.press("space")  # the hit first, accepted as proposed
        for _ in range(10):
            await pilot.pause()
            if isinstance(app.screen, ManualHitDialog):
                break
        assert isinstance(app.screen, ManualHitDialog)
        assert app.screen.name_ == "Carla"
        assert app.screen.query_one("#damage", Input).value == "17"
