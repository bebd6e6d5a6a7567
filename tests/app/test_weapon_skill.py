"""Issue 22, the weapon follows the skill (H1): a weapon may name the skill it is used
with ("pistola II (Armas cortas)" in the character dialog, either language); the
declaration picks the weapon of the chosen skill, else the last weapon the character
declared (it stays the choice next asalto), else the default weapon."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Select

from sombra_tui.engine import commands as c
from sombra_tui.engine.i18n import _
from sombra_tui.engine.model import Action, Encounter, Settings, Side
from sombra_tui.engine.wounds import Weapon
from sombra_tui.screens.dialogs import CharacterEditor, DeclarationEditor, ReactionDialog
from tests.app.conftest import (
    SIZE,
    char,
    choose,
    field_error,
    fill,
    focus,
    make_app,
    session_after,
    toggle,
    type_text,
)
from tests.app.harness import Harness, character_editor, declaration_dialog, reaction_dialog

FISTS = Weapon(name="puños", damage_type="0", skill="Pelea")
PISTOL = Weapon(name="pistola", damage_type="II", skill="Armas cortas")
KNIFE = Weapon(name="cuchillo", damage_type="I")


def encounter() -> Encounter:
    """Iker (puños the default, for Pelea; a pistola for Armas cortas; a cuchillo)
    declares first (primaria 10 < 12, I3), then Bruno."""
    return Encounter(name="Armas", seed=3, settings=Settings(), characters=[
        char("Iker", 10, 6, 12, skills={"Pelea": 14, "Armas cortas": 10},
             weapons=[FISTS, PISTOL, KNIFE]),
        char("Bruno", 12, 5, 12, skills={"Pelea": 12})])


def weapon_shown(app: Any) -> object:
    return app.screen.query_one("#a0-weapon", Select).value


async def declaration_open(pilot: Pilot[Any], name: str) -> None:
    """`name`'s declaration as the harness opened it (the DJ's space)."""
    app = pilot.app
    assert app.session.combat.state.current_declarer == name
    await pilot.pause()
    assert isinstance(app.screen, DeclarationEditor)


async def open_declaration(pilot: Pilot[Any], name: str) -> None:
    app = pilot.app
    assert app.session.combat.state.current_declarer == name
    await pilot.press("space")
    await pilot.pause()
    assert isinstance(app.screen, DeclarationEditor)


async def test_the_weapon_follows_the_skill_and_stays_the_choice_next_asalto() -> None:
    app = make_app(session_after(encounter(), c.StartCombat()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await open_declaration(pilot, "Iker")
        assert weapon_shown(app) == "0"  # the default: puños
        await type_text(pilot, "dispara a Bruno")
        await fill(pilot, "a0-skill", "Armas cortas")
        assert weapon_shown(app) == "1"  # the pistola, used with Armas cortas
        await toggle(pilot, "a0-targets", ["Bruno"])
        await pilot.press("enter")
        await pilot.pause()
        declared = combat.commands[-1]
        assert isinstance(declared, c.Declare) and declared.actions[0].weapon == PISTOL

        # Next asalto: no skill typed yet, the pistola is still the choice.
        combat_state = combat.state
        while combat_state.round == 1:
            if combat_state.current_declarer is not None:
                app.session.execute(c.Declare(character=combat_state.current_declarer,
                                              actions=[]))
            elif combat_state.top_prompt is not None:
                app.session.execute(c.Decline(character=combat_state.top_prompt.reactor))
            elif combat_state.current_group():
                step = combat_state.current_group()[0]
                app.session.execute(c.Resolve(character=step.character, accept=False))
            else:
                app.session.execute(c.Advance())
            combat_state = combat.state
        app.main_screen.render_state()
        await pilot.pause()
        await open_declaration(pilot, "Iker")
        assert weapon_shown(app) == "1"  # the last weapon used
        await type_text(pilot, "le pega")
        await fill(pilot, "a0-skill", "Pelea")
        assert weapon_shown(app) == "0"  # the skill's weapon first


async def test_a_weapon_chosen_by_hand_is_kept_whatever_the_skill() -> None:
    app = Harness(session_after(encounter(), c.StartCombat()), dialog=declaration_dialog)
    async with app.run_test(size=SIZE) as pilot:
        await declaration_open(pilot, "Iker")
        await type_text(pilot, "apuñala a Bruno")
        await choose(pilot, "a0-weapon", "2")  # the cuchillo, by hand
        await fill(pilot, "a0-skill", "Armas cortas")
        assert weapon_shown(app) == "2"
        await toggle(pilot, "a0-targets", ["Bruno"])
        await pilot.press("enter")
        await pilot.pause()
        declared = app.session.combat.commands[-1]
        assert isinstance(declared, c.Declare) and declared.actions[0].weapon == KNIFE


async def test_skill_typed_and_enter_at_once_still_picks_its_weapon() -> None:
    """Enter right after the skill: the weapon is read from the skill at submit."""
    app = Harness(session_after(encounter(), c.StartCombat()), dialog=declaration_dialog)
    async with app.run_test(size=SIZE) as pilot:
        await declaration_open(pilot, "Iker")
        await type_text(pilot, "dispara a Bruno")
        await toggle(pilot, "a0-targets", ["Bruno"])
        await fill(pilot, "a0-skill", "armas cortas")
        await pilot.press("enter")
        await pilot.pause()
        declared = app.session.combat.commands[-1]
        assert isinstance(declared, c.Declare) and declared.actions[0].weapon == PISTOL


@pytest.mark.parametrize(("language", "typed", "lethal"), [
    ("en", "pistola II (Armas cortas), puños 0 non-lethal (Pelea), cuchillo I", False),
    ("es", "pistola II (Armas cortas), puños 0 no letal (Pelea), cuchillo I", False)])
async def test_the_character_dialog_reads_and_shows_the_skill_of_a_weapon(
        language: str, typed: str, lethal: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    from sombra_tui.engine import i18n
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    app = Harness(session_after(encounter()), dialog=character_editor("Bruno"),
                  language=language)  # the DJ's e on Bruno's row
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, CharacterEditor)
        await fill(pilot, "weapons", "pistola II (Armas cortas")  # a bracket left open
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, CharacterEditor)  # kept, with the problem named
        assert field_error(app, "weapons") == _("Weapon {number}: {problem}").format(
            number=1, problem=_(
                "{chunk!r}: write the skill a weapon is used with in brackets at its end, "
                "e.g. 'pistola II (Armas cortas)'.").format(chunk="pistola II (Armas cortas"))
        await fill(pilot, "weapons", typed)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.base
        bruno = app.session.combat.state.character("Bruno")
        assert bruno is not None
        assert [(w.name, w.damage_type, w.lethal, w.skill) for w in bruno.weapons] == [
            ("pistola", "II", None, "Armas cortas"), ("puños", "0", lethal, "Pelea"),
            ("cuchillo", "I", None, None)]
        app.open(character_editor("Bruno"))  # e again: shown as typed
        await pilot.pause()
        assert isinstance(app.screen, CharacterEditor)
        assert app.screen.value("weapons") == typed


async def test_a_reaccion_starts_with_the_last_weapon_used_as_a_declaration_does() -> None:
    """Iker shot Bruno with the pistola; Bruno's punch prompts Iker's reacción: its
    weapon is the pistola (the last one used), not the default puños (H1)."""
    iker, bruno = encounter().characters
    pc = Encounter(name="Armas", seed=3, settings=Settings(),
                   characters=[iker.model_copy(update={"side": Side.PC}), bruno])
    shot = Action(description="dispara a Bruno", skill="Armas cortas", targets=["Bruno"],
                  weapon=PISTOL)
    punch = Action(description="pega a Iker", skill="Pelea", targets=["Iker"], weapon=None)
    session = session_after(pc, c.StartCombat(), c.Declare(character="Iker", actions=[shot]),
                            c.Declare(character="Bruno", actions=[punch]))
    assert session.combat.state.top_prompt.reactor == "Iker"  # type: ignore[union-attr]
    app = Harness(session, dialog=reaction_dialog)  # the DJ's r
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReactionDialog)
        assert weapon_shown(app) == "1"  # the pistola
        await focus(pilot, "a0-description")
        await type_text(pilot, "le dispara")
        await fill(pilot, "a0-skill", "Pelea")
        assert weapon_shown(app) == "0"  # the skill's weapon first
