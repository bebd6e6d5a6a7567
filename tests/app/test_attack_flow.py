"""Issue 22, the attack at the table: a successful attack's hit proposal opens by itself
(H1: space accepts it as proposed), and nothing the DJ types for the next step is ever
refused for a pending proposal: the proposal opens first, or what was typed is kept.

The demo round: Carla's shot at Iker succeeds while Lucía's step waits (P3).
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Select

from sombra_tui.engine import commands as c
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.model import Encounter, Settings, Side
from sombra_tui.engine.state import Phase
from sombra_tui.engine.wounds import Weapon
from sombra_tui.screens.dialogs import DeclarationEditor, TADialog
from sombra_tui.screens.dialogs.hit import HitDialog
from tests.app import drivers as shots
from tests.app.conftest import (
    SIZE,
    char,
    field_error,
    fill,
    focus,
    make_app,
    notifications,
    send_keys,
    session_after,
    text_of,
    type_text,
)


@shots.resumes_at(shots.declarations_done)
async def carlas_shot_hits(pilot: Pilot[Any]) -> None:
    """Carla's TA succeeds (5 4 3 under her Armas cortas): Iker's hit is proposed."""
    await shots.declarations_done(pilot)
    await shots.advance_to(pilot, Phase.ROUND)
    await pilot.press("space")
    await shots.wait_for_screen(pilot, TADialog, "opening Carla's TA")
    await shots.confirm_with_dice(pilot, "5 4 3", TADialog, "resolving Carla's shot")
    await pilot.pause()


async def test_h1_the_hit_proposal_opens_by_itself_and_space_accepts_it() -> None:
    app = shots.make_app(size=SIZE, resume=carlas_shot_hits)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        state = app.session.combat.state
        [proposal] = state.proposals
        assert isinstance(app.screen, HitDialog)  # no key needed
        assert app.screen.proposal == proposal
        assert "Carla" in text_of(app, "#dialog-title")
        await pilot.press("space")  # as proposed
        await pilot.pause()
        assert app.screen is app.main_screen and not app.session.combat.state.proposals
        assert app.session.combat.state.body("Iker").counters.w > 0
        await pilot.press("y")  # the next step: Lucía's dice
        await pilot.pause()
        assert isinstance(app.screen, TADialog) and app.screen.step.character == "Lucía"


@pytest.mark.usefixtures("spanish")
async def test_the_same_in_spanish() -> None:
    app = shots.make_app(size=SIZE, language="es", resume=carlas_shot_hits)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        assert isinstance(app.screen, HitDialog)
        assert "Carla" in text_of(app, "#dialog-title")
        await pilot.press("space")
        await pilot.pause()
        assert app.screen is app.main_screen and not app.session.combat.state.proposals
        assert app.session.combat.state.body("Iker").counters.w > 0


async def test_a_key_of_the_next_step_opens_the_escaped_proposal_first_then_does_its_job(
        ) -> None:
    """The DJ escaped the hit to read the table and follows it to Lucía's roll (t): the
    hit opens first, and once it is settled the key does what it says."""
    key = "t"
    app = shots.make_app(size=SIZE, resume=carlas_shot_hits)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.main_screen and app.session.combat.state.proposals
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, HitDialog)  # first the hit
        await pilot.press("space")
        await pilot.pause()
        assert not app.session.combat.state.proposals
        tas = [e for e in app.session.combat.log if e.kind is EventKind.TA]
        assert tas[-1].actor == "Lucía"  # then Lucía's roll
        assert not [n for n in notifications(app) if n[1] == "error"]


async def test_y_over_an_escaped_hit_takes_the_dice_typed_blind_and_shows_the_hit_on_enter(
        ) -> None:
    """Found in a playtest: y over an escaped hit opened the hit with its Accept button
    focused, so dice typed blind ("2 3 1") lost their digits and the first space
    accepted the hit unseen. Now y opens Lucía's dice at once; Enter shows the hit over
    them, and once it is settled the typed dice resolve."""
    app = shots.make_app(size=SIZE, resume=carlas_shot_hits)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        await pilot.press("escape")
        await pilot.pause()
        combat = app.session.combat
        await pilot.press("y", "2", "space", "3", "space", "1")
        await pilot.pause()
        assert isinstance(app.screen, TADialog) and app.screen.step.character == "Lucía"
        assert combat.state.proposals  # nothing accepted unseen
        assert app.screen.query_one("#dice").value == "2 3 1"  # type: ignore[attr-defined]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HitDialog) and combat.state.proposals  # the hit, seen
        await pilot.press("space")
        await pilot.pause()
        assert app.screen is app.main_screen and not combat.state.proposals
        lucia = [e for e in combat.log if e.kind is EventKind.TA][-1]
        assert lucia.actor == "Lucía" and lucia.ta is not None and lucia.ta.dice is not None
        assert (lucia.ta.dice.ds, lucia.ta.dice.a, lucia.ta.dice.b) == (2, 3, 1)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_dice_typed_while_a_proposal_waits_are_kept_and_sent_once_it_is_settled(
        language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A TA dialog open over a pending hit: Enter opens the hit over it, and the dice
    typed there are resolved as soon as the hit is settled (never typed twice)."""
    from sombra_tui.engine import i18n
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    app = shots.make_app(size=SIZE, language=language, resume=carlas_shot_hits)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        await pilot.press("escape")
        await pilot.pause()
        main = app.main_screen
        state = app.session.combat.state
        step = next(s for s in state.current_group() if s.character == "Lucía")
        dialog = TADialog.for_use(state, step, main.check, app.session.combat.roll)
        main.open_dialog(dialog, main.resolve)
        await pilot.pause()
        dialog.query_one("#dice").focus()
        await shots.type_text(pilot, "4 4 1")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HitDialog)  # the hit first
        await pilot.press("space")
        await pilot.pause()
        assert app.screen is main and not app.session.combat.state.proposals
        bruno = [e for e in app.session.combat.log if e.kind is EventKind.TA][-1]
        assert bruno.actor == "Lucía" and bruno.ta is not None
        assert bruno.ta.dice.ds == 4 and (bruno.ta.dice.a, bruno.ta.dice.b) == (4, 1)


# ---- the hit proposal as the DJ edits it (H4-H6, H12) ------------------------------------


def severity_of(app: Any, damage: int) -> str:
    """The severity the engine gives the open hit with `damage` typed (its own label)."""
    from sombra_tui.engine import ask
    proposal = app.screen.proposal
    edits = c.AcceptHit(proposal_id=proposal.id, damage=damage)
    preview = ask.hit_preview(app.session.combat.state, proposal, edits)
    return preview.assessments[0].severity


@pytest.mark.parametrize("language", ["en", "es"])
async def test_h6_the_hit_proposal_recomputes_as_the_dj_types_the_damage(
        language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """After typing a damage of 15 the proposal shows its severity, consequences and
    points (the engine's preview), and accepting makes exactly that wound."""
    from sombra_tui.engine import i18n
    from sombra_tui.engine.i18n import _
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    app = shots.make_app(size=SIZE, language=language, resume=carlas_shot_hits)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        assert isinstance(app.screen, HitDialog)
        proposal = app.screen.proposal
        as_read = proposal.reading.assessment
        before = text_of(app, "#hit-numbers")
        severity = severity_of(app, 15)
        assert severity != as_read.severity
        await fill(pilot, "damage", "15")
        shown = text_of(app, "#hit-numbers")
        assert shown != before
        assert _("Severity: {damage} / Resistencia {resistencia} -> {severity}").format(
            damage=15 - as_read.protection, resistencia=as_read.resistencia,
            severity=_(severity.label)) in shown
        assert {"en": "Severity: ", "es": "Gravedad: "}[language] in shown
        # The DJ's value under the dice's, both in sight (found in a playtest: only the
        # dice's working showed, as if it still counted).
        read = proposal.reading.damage.value
        assert _("Damage typed by the DJ: {damage} (the dice read {read})").format(
            damage=15, read=read) in shown.splitlines()
        points = [line for line in shown.splitlines()
                  if line.startswith(_("Points: G {g0} -> {g1}, W {w0} -> {w1} of PV {pv}")
                                     .split("{")[0])]
        assert len(points) == 1 and points[0] not in before
        await pilot.press("enter")  # accepts from the damage field
        await pilot.pause()
        [wound] = app.session.combat.state.body("Iker").wounds
        assert wound.severity is severity


async def test_a_damage_the_engine_refuses_says_why_in_the_numbers() -> None:
    """A value that makes no hit yet says why, in place of stale numbers."""
    app = shots.make_app(size=SIZE, resume=carlas_shot_hits)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        assert isinstance(app.screen, HitDialog)
        await fill(pilot, "damage", "100000")
        shown = text_of(app, "#hit-numbers")
        assert "Damage must be from" in shown and "Severity:" not in shown


async def test_space_accepts_the_hit_from_a_list_and_down_opens_it() -> None:
    app = shots.make_app(size=SIZE, resume=carlas_shot_hits)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        dialog = app.screen
        assert isinstance(dialog, HitDialog)
        await focus(pilot, "location")
        await pilot.press("down")  # the list's own key opens it
        location = dialog.query_one("#location", Select)
        assert location.expanded
        await pilot.press("escape")
        assert not location.expanded and app.screen is dialog
        await pilot.press("space")  # on the closed list: accept, as proposed
        await pilot.pause()
        assert app.screen is app.main_screen and not app.session.combat.state.proposals
        assert app.session.combat.state.body("Iker").wounds


@pytest.mark.parametrize("language", ["en", "es"])
async def test_ctrl_d_declines_the_hit_from_the_reason_field(
        language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from sombra_tui.engine import i18n
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    app = shots.make_app(size=SIZE, language=language, resume=carlas_shot_hits)
    async with app.run_test(size=SIZE) as pilot:
        await carlas_shot_hits(pilot)
        assert isinstance(app.screen, HitDialog)
        await fill(pilot, "reason", "cobertura")
        await pilot.press("ctrl+d")
        await pilot.pause()
        assert app.screen is app.main_screen and not app.session.combat.state.proposals
        assert not app.session.combat.state.body("Iker").wounds
        declined = app.session.combat.commands[-1]
        assert declined.type == "decline_hit" and declined.reason == "cobertura"


# ---- Deliver 7: the attack path, end to end, by keyboard only ------------------------------


PISTOL = Weapon(name="pistola", damage_type="II", skill="Armas cortas")


def muelle() -> Encounter:
    """Ana and Iker (PCs: the table rolls their dice) and Bruno (Resistencia 8, PV 24:
    a damage of 15 is a wound, not his end); Iker shoots first."""
    return Encounter(name="Muelle", seed=5, settings=Settings(), characters=[
        char("Ana", 8, 3, 14, side=Side.PC, skills={"Vigilar": 12}),
        char("Iker", 10, 6, 12, side=Side.PC, skills={"Armas cortas": 14}, weapons=[PISTOL]),
        char("Bruno", 12, 5, 12, skills={"Pelea": 12}, resistencia=8)])


@pytest.mark.parametrize("language", ["en", "es"])
async def test_a_pcs_shot_played_by_keyboard_from_the_declaration_to_the_next_dice(
        language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Iker (a PC) declares a shot at Bruno, rolls with the table's dice; the hit opens by
    itself; the DJ types a damage of 15 and sees its severity; space accepts; Ana's dice
    (the next step, a PC too) are typed once and resolve."""
    from sombra_tui.engine import i18n
    from sombra_tui.engine.i18n import _
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    app = make_app(session_after(muelle(), c.StartCombat()), journal=False,
                   language=language)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        # The declarations: Ana watches, Iker shoots Bruno (weapon from the skill), Bruno
        # does nothing.
        await pilot.press("space")
        assert isinstance(app.screen, DeclarationEditor)
        await type_text(pilot, "vigila")
        await send_keys(pilot, "tab")
        await type_text(pilot, "Vigilar")
        await pilot.press("enter")
        await pilot.press("space")
        assert isinstance(app.screen, DeclarationEditor)
        await type_text(pilot, "dispara a Bruno")
        await send_keys(pilot, "tab")
        await type_text(pilot, "Armas cortas")
        await send_keys(pilot, "tab", "tab")  # the target value fills itself; aimed at
        await send_keys(pilot, "down", "space")  # Bruno
        await pilot.press("enter")
        shot = combat.state.declaration_of("Iker")
        assert shot is not None and shot.actions[0].weapon == PISTOL
        await pilot.press("space")
        assert isinstance(app.screen, DeclarationEditor)
        await pilot.press("ctrl+b")  # Bruno: inaction
        await pilot.pause()
        # To Iker's TA: the table's dice.
        for _press in range(4):
            if isinstance(app.screen, TADialog):
                break
            await pilot.press("space")
            await pilot.pause()
        assert isinstance(app.screen, TADialog) and app.screen.step.character == "Iker"
        assert app.focused is not None and app.focused.id == "dice"
        await type_text(pilot, "3 4 2")
        await pilot.press("enter")
        await pilot.pause()
        # The hit opens by itself; the DJ edits the damage and sees the new severity.
        dialog = app.screen
        assert isinstance(dialog, HitDialog) and dialog.proposal.character == "Bruno"
        severity = severity_of(app, 15)
        assert severity is not dialog.proposal.reading.assessment.severity

        def severity_shown() -> str:
            head = _("Severity: {damage} / Resistencia {resistencia} -> {severity}")
            return next(line for line in text_of(app, "#hit-numbers").splitlines()
                        if line.startswith(head.split("{")[0]))

        assert not severity_shown().endswith(_(severity.label))
        await fill(pilot, "damage", "15")
        assert severity_shown().endswith(" " + _(severity.label))
        await send_keys(pilot, "tab")  # off the text field: space accepts
        await pilot.press("space")
        await pilot.pause()
        assert app.screen is app.main_screen and not combat.state.proposals
        [wound] = combat.state.body("Bruno").wounds
        assert wound.severity is severity
        # The next step: Ana's dice, typed once.
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, TADialog) and app.screen.step.character == "Ana"
        await type_text(pilot, "5 5 5")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.main_screen
        ana = [e for e in combat.log if e.kind is EventKind.TA][-1]
        assert ana.actor == "Ana" and ana.ta is not None and ana.ta.dice is not None
        assert (ana.ta.dice.ds, ana.ta.dice.a, ana.ta.dice.b) == (5, 5, 5)
        assert not [n for n in notifications(app) if n[0] == "error"]


# ---- tipo IV: the DJ's list, pre-filled with the dS location (H4) ------------------------

GRENADE = Weapon(name="granada", damage_type="IV", skill="Lanzar")


def grenade_thrown() -> Any:
    """Iker's grenade at Bruno succeeds (2 1 1 under Lanzar 14): its hit is proposed."""
    from sombra_tui.engine import Combat
    from tests.engine.conftest import act, advance_to, declare
    encounter = Encounter(name="Muelle", seed=5, settings=Settings(), characters=[
        char("Iker", 10, 6, 12, side=Side.PC, skills={"Lanzar": 14}, weapons=[GRENADE]),
        char("Bruno", 12, 5, 12, skills={"Pelea": 12}, resistencia=8)])
    combat = Combat(encounter)
    combat.execute(c.StartCombat())
    declare(combat, "Iker", act("lanza la granada", "Bruno", skill="Lanzar", weapon=GRENADE),
            affected=[])
    declare(combat, "Bruno")
    advance_to(combat, Phase.ROUND)
    combat.execute(c.Resolve(character="Iker", dice=c.Dice.of(2, 1, 1)))
    [proposal] = combat.state.proposals
    assert proposal.damage_type == "IV"
    from sombra_tui.session import Session
    return Session(combat)


@pytest.mark.parametrize("language", ["en", "es"])
async def test_h4_the_tipo_iv_list_is_prefilled_in_the_djs_words_and_asks_for_the_damage(
        language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The list starts with the dS location as the DJ reads it (it was the location's
    id, which the list then refused); Enter with no damage yet says what is missing;
    the DJ's damage is then accepted on that location."""
    from sombra_tui.engine import i18n
    from sombra_tui.engine.i18n import _
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)
    app = make_app(grenade_thrown(), journal=False, language=language)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        [proposal] = combat.state.proposals
        assert proposal.reading is not None
        where = _(proposal.reading.location.label)
        await pilot.press("space")
        await pilot.pause()
        assert isinstance(app.screen, HitDialog)
        entries = app.screen.query_one("#entries")
        assert entries.value == where  # type: ignore[attr-defined]
        await focus(pilot, "entries")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HitDialog) and combat.state.proposals  # not accepted
        problem = field_error(app, "entries")
        assert where in problem and f"'{where} 4'" in problem
        assert entries.value == where  # type: ignore[attr-defined]  # nothing lost
        await pilot.press("end")
        await type_text(pilot, " 7")
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is app.main_screen and not combat.state.proposals
        [wound] = combat.state.body("Bruno").wounds
        assert (wound.location, wound.damage) == (proposal.reading.location, 7)
