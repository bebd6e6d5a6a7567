"""Issue 35 item 1, a run proposed as a gunshot (H1): an action is an attack only when
declared with a weapon. Lucía runs for the door with Atletismo and a target: no weapon
names Atletismo, so the form leaves the weapon empty and her successful TA proposes no
hit. Carla's shot with Armas cortas takes the pistola, and the declaration's log line and
the panel both name it, at 80x24 and 120x40, in either language."""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Select

from sombra_tui.engine import commands as c
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.i18n import _
from sombra_tui.engine.model import Encounter, Settings, Side
from sombra_tui.engine.state import Phase
from sombra_tui.engine.wounds import Weapon
from sombra_tui.screens.dialogs import DeclarationEditor, TADialog
from sombra_tui.screens.dialogs.action_choices import NO_WEAPON
from sombra_tui.widgets.declaration_queue import DeclarationQueue, declared_line
from sombra_tui.widgets.resolution_log import ResolutionLog
from tests.app import drivers as shots
from tests.app.conftest import MIN_SIZE, SIZE, char, fill, make_app, session_after, toggle

PISTOL = Weapon(name="pistola", damage_type="II", skill="Armas cortas")


def encounter() -> Encounter:
    """Carla (primaria 10) declares first, Lucía (15) acts first (I3)."""
    return Encounter(name="Puerta", seed=5, settings=Settings(), characters=[
        char("Lucía", 15, 4, 13, side=Side.PC,
             skills={"Armas cortas": 11, "Atletismo": 12}, weapons=[PISTOL]),
        char("Carla", 10, 2, 13, side=Side.NPC, skills={"Armas cortas": 13},
             weapons=[PISTOL])])


def log_text(app: Any) -> str:
    log = app.main_screen.query_one(ResolutionLog)
    return " ".join(" ".join(line.text for line in log.lines).split())


def panel_text(app: Any) -> str:
    console = Console(width=500, record=True, file=io.StringIO())
    console.print(app.main_screen.query_one(DeclarationQueue).content)
    return " ".join(console.export_text().split())


async def declare(pilot: Pilot[Any], description: str, skill: str, target: str) -> object:
    """space opens the declaration; description, skill, one target; the weapon the form
    shows before Enter declares is returned."""
    await pilot.press("space")
    await shots.wait_for_screen(pilot, DeclarationEditor, "opening a declaration")
    await shots.type_text(pilot, description)
    await fill(pilot, "a0-skill", skill)
    await toggle(pilot, "a0-targets", [target])
    shown = pilot.app.screen.query_one("#a0-weapon", Select).value
    await pilot.press("enter")
    await pilot.pause()
    assert pilot.app.screen is pilot.app.main_screen
    return shown


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
@pytest.mark.parametrize("language", ["en", "es"])
async def test_h1_a_run_with_a_target_is_no_attack_and_a_shot_names_its_weapon(
        language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    from sombra_tui.engine import i18n
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    app = make_app(session_after(encounter(), c.StartCombat()), journal=False,
                   language=language)
    async with app.run_test(size=size) as pilot:
        combat = app.session.combat
        assert combat.state.current_declarer == "Carla"
        assert await declare(pilot, "dispara a Lucía", "Armas cortas", "Lucía") == "0"
        with_pistola = _("with {weapon}").format(weapon="pistola")
        shot = combat.commands[-1]
        assert isinstance(shot, c.Declare) and shot.actions[0].weapon == PISTOL
        assert f"dispara a Lucía [asalto], {with_pistola}" in log_text(app)
        at_lucia = _("at {names}").format(names="Lucía")
        # The panel's one line of it is cut at a word to its width, its target kept
        # (issue 39 item 5); the log above says the weapon, and the steps below.
        shown = panel_text(app).partition("Carla: ")[2]
        assert shown.startswith("disp") and shown.endswith(f"… · {at_lucia}"), shown
        assert declared_line(combat.state, "Carla").plain == (
            f"  Carla: dispara a Lucía [asalto] · Armas cortas 13 · {with_pistola} · "
            f"{at_lucia}")

        # Lucía's form opened on her pistola (no skill yet); Atletismo empties it.
        assert await declare(pilot, "corre hacia la puerta", "Atletismo", "Carla") \
            == NO_WEAPON
        run = combat.commands[-1]
        assert isinstance(run, c.Declare) and run.actions[0].weapon is None
        declared = [e.text for e in combat.log if e.kind is EventKind.DECLARE]
        assert "corre hacia la puerta [asalto]" in declared[-1]
        assert with_pistola not in declared[-1]
        lucia = declared_line(combat.state, "Lucía").plain  # the line before it is cut
        assert "Atletismo 12" in lucia and with_pistola not in lucia

        assert combat.state.top_prompt is not None  # Carla may react: she does not
        await pilot.press("x")
        await pilot.pause()
        await shots.advance_to(pilot, Phase.ROUND)
        steps = panel_text(app)  # the steps left say which will propose a hit
        assert f"Carla: dispara a Lucía [asalto], {with_pistola}" in steps
        assert "Lucía: corre hacia la puerta [asalto] (" in steps
        await pilot.press("space")
        await shots.wait_for_screen(pilot, TADialog, "opening Lucía's TA")
        assert app.screen.step.character == "Lucía"  # type: ignore[attr-defined]
        await shots.confirm_with_dice(pilot, "2 3 1", TADialog, "resolving Lucía's run")
        await pilot.pause()
        [ta] = [e.ta for e in combat.log if e.kind is EventKind.TA]
        assert ta is not None and ta.success
        assert not combat.state.proposals  # no "Lucía impacta a Carla con pistola"
        assert app.screen is app.main_screen
