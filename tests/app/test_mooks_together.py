"""Mooks together (issue 39 item 3), by keys: the declaration form declares once for the
4 Matón (ctrl+g ticks the next characters of the declarer's side; the summary line
says the command before Enter sends it), and their TAs come up in one dialog, one line
of dice each: Enter resolves each in turn, each hit settled before the next (D1, P3,
H1, T6). Both languages, 80x24 and 120x40; snapshots of both dialogs."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import SelectionList

from sombra_tui.app import SombraApp
from sombra_tui.engine import DiceSource, Side, ask, builtin, i18n
from sombra_tui.engine import commands as c
from sombra_tui.engine.model import Encounter
from sombra_tui.engine.state import StepStatus
from sombra_tui.engine.wounds import Weapon
from sombra_tui.screens.dialogs import DeclarationEditor
from sombra_tui.screens.dialogs.group_rolls import GroupRollDialog
from sombra_tui.screens.dialogs.hit import HitDialog
from sombra_tui.screens.dialogs.ta import TADialog
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    char,
    field_error,
    focus,
    make_app,
    send_keys,
    session_after,
    text_of,
)

MATONES = [f"Matón {number}" for number in range(1, 5)]
PISTOLA = Weapon(name="pistola", damage_type="II", skill="Armas cortas")
#: As the form makes it: the target value from the skill, the weapon of the skill (H1).
SHOOT = c.Action(description="dispara a Tomás", skill="Armas cortas", target=11,
                 targets=["Tomás"], weapon=PISTOLA)
#: Matón 1 hits (2+3+1 = 6 under 11), Matón 2 misses (24), Matón 3 and 4 hit.
DICE = ["2 3 1", "9 8 7", "5 2 2", "1 4 1"]
CASES = pytest.mark.parametrize(("language", "size"), [
    ("en", SIZE), ("es", SIZE), ("en", MIN_SIZE), ("es", MIN_SIZE)],
    ids=["en-120x40", "es-120x40", "en-80x24", "es-80x24"])


def encounter() -> Encounter:
    """Tomás (a PC, Resistencia 10: no hit here reaches a threshold) and four Matón of
    one sheet: they declare first, one after another (I3)."""
    tomas = char("Tomás", 12, 0, 14, side=Side.PC, resistencia=10)
    matones = [char(name, 6, 1, 9, skills={"Armas cortas": 11}, weapons=[PISTOLA],
                    resistencia=5) for name in MATONES]
    return Encounter(name="Callejón", seed=7, characters=[tomas, *matones])


def app_for(language: str, *commands: c.Command) -> SombraApp:
    return make_app(session_after(encounter(), c.StartCombat(), *commands), journal=False,
                    language=language)


def speak(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)


async def settle(pilot: Any, turns: int = 4) -> None:
    for _turn in range(turns):
        await pilot.pause()


async def declare_together(pilot: Any) -> None:
    """The Matones' declaration by keys: description, skill, Tomás aimed at (type-ahead),
    ctrl+g for the other three."""
    await pilot.press("d")
    await settle(pilot)
    assert isinstance(pilot.app.screen, DeclarationEditor)
    await send_keys(pilot, *"dispara a Tomás", "tab", *"Armas cortas")
    await focus(pilot, "a0-targets")
    await send_keys(pilot, "T", "space")
    await pilot.press("ctrl+g")
    await settle(pilot)


@CASES
async def test_d1_four_matones_declare_together_and_roll_in_one_dialog(
        language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """D1, P3, H1, T6: a round by keys; the history holds one DeclareGroup, four Resolve
    with the dice typed, and the hits of the three that hit, in turn."""
    speak(language, monkeypatch)
    app = app_for(language)
    async with app.run_test(size=size) as pilot:
        combat = app.session.combat
        await declare_together(pilot)
        picks = app.screen.query_one("#together", SelectionList)
        assert list(picks.selected) == MATONES[1:]
        assert ", ".join(MATONES[1:]) in text_of(app, "#together-note")
        group = c.DeclareGroup(characters=MATONES, actions=[SHOOT], affected=["Tomás"])
        assert text_of(app, "#summary").endswith(
            ask.describe(combat.state, group).render())  # shown before Enter
        await pilot.press("enter")
        await settle(pilot)
        assert combat.commands[-1] == group
        assert combat.state.current_declarer == "Tomás"
        await pilot.press("d")  # Tomás: inaction
        await settle(pilot)
        await pilot.press("ctrl+b")
        await settle(pilot)
        await pilot.press("space", "space")  # to the instant phase (nothing), the round's
        await settle(pilot)
        await pilot.press("space")  # the Matones' TAs: one dialog
        await settle(pilot)
        assert isinstance(app.screen, GroupRollDialog)
        for index, dice in enumerate(DICE):
            if index:
                await send_keys(pilot, "tab")
            await send_keys(pilot, *dice)
        await settle(pilot)
        await pilot.press("enter")
        for _hit in range(3):  # Matón 1, 3 and 4 hit Tomás: each hit settled in turn
            await settle(pilot, 6)
            assert isinstance(app.screen, HitDialog)
            await pilot.press("enter")
        await settle(pilot, 6)
        assert app.screen is app.main_screen
        resolved = [command for command in combat.commands if isinstance(command, c.Resolve)]
        assert [(r.character, r.dice and (r.dice.ds, r.dice.a, r.dice.b))
                for r in resolved] == [
            (name, tuple(int(x) for x in dice.split())) for name, dice in zip(
                MATONES, DICE, strict=True)]
        assert sum(isinstance(command, c.AcceptHit) for command in combat.commands) == 3
        assert all(step.status is StepStatus.DONE for step in combat.state.steps)
        assert len(combat.state.body("Tomás").wounds) == 3


async def test_d1_a_group_refused_by_the_engine_says_who_and_why() -> None:
    """D1, C4: Matón 3 is aturdido: ticking it with the others is refused at Enter,
    naming Matón 3 and why; the form keeps everything typed."""
    app = app_for("en", c.AddCondition(character="Matón 3", condition=builtin(
        "aturdido", began=1, duration=1)))
    async with app.run_test(size=MIN_SIZE) as pilot:
        await declare_together(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, DeclarationEditor)
        assert "Matón 3 is aturdido and can only declare inaction." in \
            text_of(app, "#form-error")
        assert app.screen.query_one("#a0-description").value == "dispara a Tomás"
        assert len(app.session.combat.commands) == 2


async def to_rolls(pilot: Any) -> None:
    await pilot.press("space")
    await settle(pilot)
    await send_keys(pilot, *DICE[0], "tab", *DICE[1])
    await settle(pilot)


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE], ids=["120x40", "80x24"])
@pytest.mark.parametrize("language", ["en", "es"])
def test_snapshot_declaration_together(snap_compare: Any, language: str,
                                       size: tuple[int, int]) -> None:
    """The form with the other three ticked and the summary naming all four."""
    i18n.set_language(language)
    app = app_for(language)
    assert snap_compare(app, terminal_size=size, run_before=declare_together)


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE], ids=["120x40", "80x24"])
@pytest.mark.parametrize("language", ["en", "es"])
def test_snapshot_rolls_together(snap_compare: Any, language: str,
                                 size: tuple[int, int]) -> None:
    """The four lines of dice, two typed with their readings, the summary of all four."""
    i18n.set_language(language)
    app = app_for(language, c.DeclareGroup(characters=MATONES, actions=[SHOOT]),
                  c.Declare(character="Tomás"), c.Advance(), c.Advance())
    assert snap_compare(app, terminal_size=size, run_before=to_rolls)


async def test_t6_the_table_rolls_each_line_an_empty_one_is_asked_for_by_name() -> None:
    """T6: when the table rolls the side's dice, Enter with a line empty rolls nothing:
    that line says whose dice to type, and nothing is sent; typed, all four resolve."""
    settings = c.ChangeSettings(settings=encounter().settings.model_copy(
        update={"npc_dice": DiceSource.TABLE}))
    combat = session_after(encounter(), settings, c.StartCombat(),
                           c.DeclareGroup(characters=MATONES, actions=[SHOOT]),
                           c.Declare(character="Tomás"), c.Advance(), c.Advance())
    app = make_app(combat, journal=False, language="en")
    async with app.run_test(size=MIN_SIZE) as pilot:
        before = len(app.session.combat.commands)
        await pilot.press("space")
        await settle(pilot)
        assert isinstance(app.screen, GroupRollDialog)
        await send_keys(pilot, *DICE[0], "tab", *DICE[1], "tab", "tab", *DICE[3])
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, GroupRollDialog)
        assert "Matón 3" in field_error(app, "m2-dice")
        assert len(app.session.combat.commands) == before
        await focus(pilot, "m2-dice")
        await send_keys(pilot, *DICE[2])
        await pilot.press("enter")
        for _hit in range(3):
            await settle(pilot, 6)
            await pilot.press("enter")
        await settle(pilot, 6)
        resolved = [cmd.character for cmd in app.session.combat.commands
                    if isinstance(cmd, c.Resolve)]
        assert resolved == MATONES


async def test_h1_escape_on_a_hit_between_members_keeps_the_dice_typed_for_the_rest() -> None:
    """H1, P3 and issue 35 (nothing typed is lost): four lines typed, Enter; Matón 1's
    hit is set aside with Escape before the others are sent. The next group dialog
    (y: the hit opens over it when sent) is for Matón 2 to 4, with the dice typed for
    them; sent, each resolves with those dice."""
    app = app_for("en", c.DeclareGroup(characters=MATONES, actions=[SHOOT]),
                  c.Declare(character="Tomás"), c.Advance(), c.Advance())
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.press("space")
        await settle(pilot)
        assert isinstance(app.screen, GroupRollDialog)
        for index, dice in enumerate(DICE):
            await send_keys(pilot, *(["tab"] if index else []), *dice)
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot, 6)
        assert isinstance(app.screen, HitDialog)  # Matón 1 hit Tomás
        await pilot.press("escape")
        await settle(pilot, 6)
        assert app.screen is app.main_screen
        await pilot.press("y")
        await settle(pilot, 6)
        assert isinstance(app.screen, GroupRollDialog)
        assert app.screen.names == MATONES[1:]
        assert [app.screen.query_one(f"#m{index}-dice").value for index in range(3)] == \
            DICE[1:]
        await pilot.press("enter")
        for _hit in range(3):  # Matón 1's hit first (H1), then Matón 3's and 4's
            await settle(pilot, 6)
            assert isinstance(app.screen, HitDialog)
            await pilot.press("enter")
        await settle(pilot, 6)
        resolved = [(r.character, r.dice and (r.dice.ds, r.dice.a, r.dice.b))
                    for r in app.session.combat.commands if isinstance(r, c.Resolve)]
        assert resolved == [(name, tuple(int(x) for x in dice.split()))
                            for name, dice in zip(MATONES, DICE, strict=True)]


async def test_h1_escape_on_a_hit_keeps_the_dice_typed_for_the_last_member_in_its_own_dialog(
        ) -> None:
    """H1 and issue 35: two Matones roll together, Matón 1's hit is set aside with
    Escape; the one left opens its own TA dialog (y), with the dice typed for it."""
    other = SHOOT.model_copy(update={"description": "dispara a la farola"})
    app = app_for("en", c.DeclareGroup(characters=MATONES[:2], actions=[SHOOT]),
                  c.DeclareGroup(characters=MATONES[2:], actions=[other]),
                  c.Declare(character="Tomás"), c.Advance(), c.Advance())
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.press("space")
        await settle(pilot)
        assert isinstance(app.screen, GroupRollDialog)
        assert app.screen.names == MATONES[:2]
        await send_keys(pilot, *DICE[0], "tab", *DICE[1])
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot, 6)
        assert isinstance(app.screen, HitDialog)  # Matón 1 hit Tomás
        await pilot.press("escape")
        await settle(pilot, 6)
        await pilot.press("y")
        await settle(pilot, 6)
        assert isinstance(app.screen, TADialog)
        assert app.screen.step.character == MATONES[1]
        assert app.screen.query_one("#dice").value == DICE[1]
