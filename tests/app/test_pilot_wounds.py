"""Sections H and C by keyboard: RULES.md's "Worked example (H, C)" played from the first
space to the end of round 18, the character sheet's keys (H12, C2) and the settings'
formula table (H3)."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from sombra_tui.app import SombraApp
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.model import Encounter, Settings
from sombra_tui.engine.state import Phase
from sombra_tui.engine.wounds import Location, Weapon
from sombra_tui.screens.dialogs import DeclarationEditor, SettingsDialog, TADialog
from sombra_tui.screens.dialogs.condition import ConditionDialog
from sombra_tui.screens.dialogs.hit import HitDialog, ManualHitDialog
from sombra_tui.screens.dialogs.sheet import CharacterSheet
from sombra_tui.screens.dialogs.wound_edit import HealDialog
from sombra_tui.widgets.initiative_table import InitiativeTable
from tests.app.conftest import (
    char,
    choose,
    fill,
    focus,
    make_app,
    notifications,
    session_after,
    text_of,
    toggle,
    type_text,
)

SIZE = (120, 40)
# Each weapon names the skill it is used with (H1: a skill no weapon names declares no
# attack).
PISTOL = Weapon(name="pistol", damage_type="II", skill="Armas")
FISTS = Weapon(name="fists", damage_type="0", skill="Pelea")
CLUB = Weapon(name="club", damage_type="0", skill="Pelea")


def example_encounter() -> Encounter:
    """Bruno (Resistencia 7, PV 21), Carla (Armas 17, pistol; a club), Ana (R 6, fists)."""
    return Encounter(name="Heridas", seed=1, settings=Settings(), characters=[
        char("Ana", 8, 3, 14, resistencia=6, skills={"Pelea": 30}, weapons=[FISTS]),
        char("Bruno", 12, 5, 12, resistencia=7, skills={"Armas": 15}, weapons=[PISTOL]),
        char("Carla", 15, 2, 13, skills={"Armas": 17, "Pelea": 30},
             weapons=[PISTOL, CLUB])])


async def inaction(pilot: Pilot[Any]) -> None:
    await pilot.press("space")
    assert isinstance(pilot.app.screen, DeclarationEditor)
    await pilot.press("ctrl+b")  # inaction
    assert pilot.app.screen is pilot.app.main_screen


async def declare(pilot: Pilot[Any], description: str, skill: str,
                  aimed_at: tuple[str, ...] = (), weapon: str | None = None) -> None:
    await pilot.press("space")
    assert isinstance(pilot.app.screen, DeclarationEditor)
    await type_text(pilot, description)
    if weapon is not None:
        await choose(pilot, "a0-weapon", weapon)
    await fill(pilot, "a0-skill", skill)
    if aimed_at:
        await toggle(pilot, "a0-targets", aimed_at)
    await pilot.press("enter")
    assert pilot.app.screen is pilot.app.main_screen


async def typed_ta(pilot: Pilot[Any], dice: str) -> str:
    """y: the DJ types the dice; returns the GD hint the dialog showed (H10)."""
    await pilot.press("y")
    assert isinstance(pilot.app.screen, TADialog)
    hint = pilot.app.screen.gd_hint()
    await type_text(pilot, dice)
    await pilot.press("enter")
    # H1: a successful attack's hit proposal opens by itself.
    hits = [p for p in pilot.app.session.combat.state.proposals if p.kind == "hit"]
    if hits:
        assert isinstance(pilot.app.screen, HitDialog)
    else:
        assert pilot.app.screen is pilot.app.main_screen
    return hint


async def accept_hit(pilot: Pilot[Any]) -> None:
    """H1: the proposal opened by itself; space accepts it as proposed."""
    assert isinstance(pilot.app.screen, HitDialog)
    await pilot.press("space")
    assert pilot.app.screen is pilot.app.main_screen


async def to_next_round(pilot: Pilot[Any], app: SombraApp) -> None:
    state = app.session.combat.state
    round_ = state.round
    for _press in range(12):  # bounded: a space that does nothing fails, never hangs
        if app.session.combat.state.round != round_:
            return
        await pilot.press("space")
    raise AssertionError(f"space did not end round {round_}")


async def quiet_round(pilot: Pilot[Any], app: SombraApp) -> None:
    for _turn in range(len(app.session.combat.state.characters) + 1):
        if app.session.combat.state.current_declarer is None:
            break
        await inaction(pilot)
    await to_next_round(pilot, app)


async def test_worked_example_h_and_c_played_by_keyboard() -> None:
    """RULES.md "Worked example (H, C)" (H1-H3, H5, H6, H8-H10, C3, C4) by keyboard."""
    app = make_app(session_after(example_encounter()))
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await pilot.press("space")  # round 1
        await quiet_round(pilot, app)
        assert combat.state.round == 2

        # Round 2: Carla shoots Bruno (pistol pre-selected); Bruno declines to react.
        await inaction(pilot)  # Ana
        await inaction(pilot)  # Bruno
        await declare(pilot, "shoots Bruno", "Armas", aimed_at=("Bruno",))
        await pilot.press("x")  # Bruno does not react
        await pilot.press("space", "space")  # instant (nothing), round
        assert combat.state.phase is Phase.ROUND
        await typed_ta(pilot, "5 8 3")  # 16 <= 17
        [proposal] = combat.state.proposals  # H1
        assert proposal.reading is not None
        assert proposal.reading.location is Location.BRAZO_DERECHO  # H2
        assert isinstance(app.screen, HitDialog)  # open by itself
        numbers = text_of(app, "#hit-numbers")
        for piece in ("dS 5 -> value 5 -> right arm", "d+ + d- = 8 + 3 = 11, lethal",
                      "Protection: right arm 0", "11 / Resistencia 7 -> light",
                      "+1 GD right arm", "every 16 asaltos",
                      "G 0 -> 11, W 0 -> 11 of PV 21"):
            assert piece in numbers, piece
        await pilot.press("space")
        assert str(combat.state.body("Bruno").counters) == "G 11 / W 11"  # H6
        await to_next_round(pilot, app)

        # Round 3: Ana punches Bruno (fists, tipo 0); Bruno shoots with his right arm.
        await declare(pilot, "punches Bruno", "Pelea", aimed_at=("Bruno",))
        await declare(pilot, "shoots", "Armas")
        await inaction(pilot)  # Carla
        await pilot.press("space", "space")
        hint = await typed_ta(pilot, "1 1 1")  # Bruno acts first (12)
        assert "right arm, light wound +1" in hint  # H10, shown before the roll
        bruno_ta = [e for e in combat.log if e.kind is EventKind.TA][-1]
        assert bruno_ta.ta is not None and bruno_ta.ta.gd == 1
        assert "right arm, light wound +1" in bruno_ta.plain()
        await typed_ta(pilot, "10 9 6")  # Ana: cabeza, d- = 6
        await accept_hit(pilot)
        assert str(combat.state.body("Bruno").counters) == "G 17 / W 11"
        await to_next_round(pilot, app)

        # Round 4: Carla clubs Ana (the club chosen): cabeza 7, floor(7 / 6) = 1 leve.
        await inaction(pilot)
        await inaction(pilot)
        await declare(pilot, "clubs Ana", "Pelea", aimed_at=("Ana",), weapon="1")
        await pilot.press("x")  # Ana does not react
        await pilot.press("space", "space")
        await typed_ta(pilot, "10 9 7")
        await accept_hit(pilot)
        [aturdido] = combat.state.body("Ana").conditions
        assert aturdido.name == "aturdido" and aturdido.covered_rounds() == range(5, 7)
        await to_next_round(pilot, app)

        # Rounds 5 and 6: Ana has declared inaction for herself and is never prompted.
        for round_ in (5, 6):
            assert combat.state.round == round_
            assert combat.state.current_declarer == "Bruno"  # C4: Ana's inaction is done
            await declare(pilot, "shoots Ana", "Armas", aimed_at=("Ana",))
            assert combat.state.prompts == []  # C4: no prompt for Ana
            await inaction(pilot)  # Carla
            await pilot.press("space", "space")
            await typed_ta(pilot, "9 9 9")  # Bruno misses
            await to_next_round(pilot, app)
        assert combat.state.body("Ana").conditions == ()  # ended at the end of round 6
        assert combat.state.current_declarer == "Ana"

        # Rounds 7 to 18: at the end of round 18 Bruno, unattended, bleeds (H9).
        for _round in range(7, 18):
            await quiet_round(pilot, app)
        assert combat.state.round == 18
        assert combat.state.body("Bruno").counters.w == 11
        for _name in ("Ana", "Bruno", "Carla"):
            await inaction(pilot)
        for _press in range(4):
            if combat.state.phase is Phase.END_OF_ROUND:
                break
            await pilot.press("space")
        assert str(combat.state.body("Bruno").counters) == "G 18 / W 12"


async def test_the_sheet_heals_attends_adds_a_condition_and_a_hit() -> None:
    """H12 and C2 from the character sheet (w): each key sends one undoable command."""
    app = make_app(session_after(example_encounter()))
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await pilot.press("space")
        await pilot.press("down")  # Bruno, second in declaration order
        assert app.main_screen.selected(quiet=True) == "Bruno"
        await pilot.press("w")
        assert isinstance(app.screen, CharacterSheet)
        await pilot.press("h")  # a hit by hand: chest 14, lethal (R 7: grave)
        assert isinstance(app.screen, ManualHitDialog)
        await type_text(pilot, "14")
        await pilot.press("enter")
        assert isinstance(app.screen, CharacterSheet)
        body = combat.state.body("Bruno")
        assert str(body.counters) == "G 14 / W 14"
        assert [c.name for c in body.conditions] == ["dolor intenso", "sangrando"]
        await pilot.press("a")  # attend the bleeding wound (H12)
        assert combat.state.body("Bruno").wounds[0].attended
        assert "sangrando" not in [c.name for c in combat.state.body("Bruno").conditions]
        await pilot.press("plus")  # heal 4 herida points
        assert isinstance(app.screen, HealDialog)
        await type_text(pilot, "4")
        await pilot.press("enter")
        assert str(combat.state.body("Bruno").counters) == "G 10 / W 10"
        await pilot.press("c")  # aturdido for 2 asaltos (C2, C3)
        assert isinstance(app.screen, ConditionDialog)
        await type_text(pilot, "2")
        await pilot.press("enter")
        aturdido = combat.state.body("Bruno").conditions[-1]
        assert aturdido.name == "aturdido" and aturdido.last_round == 3
        await pilot.press("escape")
        assert app.screen is app.main_screen
        table = app.main_screen.query_one(InitiativeTable)
        shown = "".join(table._rows["Bruno"][index].plain for index in (2, 3))
        assert "10/10 21" in shown and "aturdido 2" in shown  # G/W PV and rounds left
        await pilot.press("u")  # each was its own command
        assert combat.state.body("Bruno").conditions[-1].name == "dolor intenso"


async def test_a_bad_formula_is_refused_showing_where() -> None:
    """H3: the DJ's formula is parsed by the grammar, never run; the message points."""
    app = make_app(session_after(example_encounter()))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        assert isinstance(app.screen, SettingsDialog)
        await fill(pilot, "tipo-III", "d+ x (2 +")
        await pilot.press("enter")
        assert isinstance(app.screen, SettingsDialog)
        error = str(app.screen.query_one("#error-tipo-III").content)
        assert "Tipo III" in error and "^" in error
        await fill(pilot, "tipo-III", "(d+ + d-) x 2")
        await focus(pilot, "name")
        await pilot.press("enter")
        assert app.screen is app.main_screen
        table = app.session.combat.state.settings.wounds.damage_type("III")
        assert table.formula == "(d+ + d-) x 2"


async def test_h11_the_settings_turn_the_aturdido_question_off_and_on() -> None:
    """The H11 setting (on by default; off in files played before format version 3)
    is a box of the encounter settings, saved with the encounter by Apply."""
    app = make_app(session_after(example_encounter()))
    async with app.run_test(size=SIZE) as pilot:
        assert app.session.combat.state.settings.wounds.unable_asks_prevented
        await pilot.press("g")
        assert isinstance(app.screen, SettingsDialog)
        await focus(pilot, "unable-asks")
        await pilot.press("space")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.main_screen
        assert not app.session.combat.state.settings.wounds.unable_asks_prevented


async def test_a_hit_from_the_sheet_that_raises_a_question_closes_the_sheet() -> None:
    """H7 (playtest): a hit by hand that reaches Bruno's PV proposes inconsciente; the
    sheet gives way so that the question is in front of the DJ, not hidden behind it."""
    app = make_app(session_after(example_encounter()))
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        await pilot.press("space", "down", "w")
        assert isinstance(app.screen, CharacterSheet)
        await pilot.press("h")
        assert isinstance(app.screen, ManualHitDialog)
        await type_text(pilot, "22")  # R 7: PV 21, reached
        await pilot.press("enter")
        await pilot.pause()
        assert combat.state.proposals, "the hit raised no question"
        assert app.screen is app.main_screen
        assert any("question waits" in message for _, message in notifications(app))
