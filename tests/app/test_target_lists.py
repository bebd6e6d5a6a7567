"""The forms' lists of characters (issue 39 item 2): one order for everyone, the
roster's (the encounter's list, D1/D2's targets and affected, O1's "opposed with"), and
type-ahead: with a list focused, "Ma" moves the highlight to Matón 1 ("el" to Élena:
case and accents do not count); a pause or a letter that matches nothing starts a new
search; typing never ticks anything, so the summary line (what Enter sends) stays."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.pilot import Pilot
from textual.widgets import SelectionList

from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine import i18n
from sombra_tui.engine.model import Action, Encounter, OppositionMode
from sombra_tui.screens.dialogs import DeclarationEditor, ReactionDialog
from sombra_tui.widgets import type_ahead
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    char,
    choose,
    focus,
    make_app,
    session_after,
    text_of,
    type_text,
)
from tests.app.harness import Harness, declaration_dialog, reaction_dialog

#: The roster, in the encounter's order; the initiative declares in another one.
ROSTER = ["Tomás", "Bruno", "Élena", "Matón 1", "Matón 2"]
CASES = pytest.mark.parametrize(("language", "size"), [
    ("en", SIZE), ("es", SIZE), ("en", MIN_SIZE), ("es", MIN_SIZE)],
    ids=["en-120x40", "es-120x40", "en-80x24", "es-80x24"])


def encounter() -> Encounter:
    return Encounter(name="E", seed=1, characters=[
        char("Tomás", 8, 3, 14), char("Bruno", 15, 2, 13), char("Élena", 12, 5, 12),
        char("Matón 1", 10, 3, 10), char("Matón 2", 10, 3, 11)])


@pytest.fixture
def ticks(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """The type-ahead's clock, moved by the test (a pause without waiting)."""
    now = [1000.0]
    monkeypatch.setattr(type_ahead, "clock", lambda: now[0])
    yield now


def speak(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)


def names(app: SombraApp | Harness, list_id: str) -> list[str]:
    picks = app.screen.query_one(f"#{list_id}", SelectionList)
    return [str(picks.get_option_at_index(i).value) for i in range(picks.option_count)]


def highlighted(app: SombraApp | Harness) -> str:
    picks = app.focused
    assert isinstance(picks, SelectionList) and picks.highlighted is not None
    return str(picks.get_option_at_index(picks.highlighted).value)


async def form_open(pilot: Pilot[object]) -> DeclarationEditor:
    """The declaration the harness opened (the DJ's d)."""
    await pilot.pause()
    assert isinstance(pilot.app.screen, DeclarationEditor)
    return pilot.app.screen


async def open_form(pilot: Pilot[object]) -> DeclarationEditor:
    await pilot.press("d")
    await pilot.pause()
    assert isinstance(pilot.app.screen, DeclarationEditor)
    return pilot.app.screen


@CASES
async def test_d1_d2_o1_every_declarer_s_lists_keep_the_roster_s_order(
        language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch) -> None:
    """Targets, affected and "opposed with" list the others in the roster's order, for
    each declarer in turn (the declaration order differs from it)."""
    speak(language, monkeypatch)
    app = make_app(session_after(encounter(), c.StartCombat()), journal=False,
                   language=language)
    async with app.run_test(size=size) as pilot:
        state = app.session.combat.state
        assert list(state.declaration_order) != ROSTER
        for declarer in list(state.declaration_order):
            assert app.session.combat.state.current_declarer == declarer
            await open_form(pilot)
            await choose(pilot, "a0-opposition", OppositionMode.DIRECT)
            await pilot.pause()
            others = [name for name in ROSTER if name != declarer]
            for list_id in ("a0-targets", "affected", "a0-against"):
                assert names(app, list_id) == others, (declarer, list_id)
            await pilot.press("escape", "y")  # leave it, its changes discarded
            await pilot.pause()
            assert app.screen is app.main_screen
            app.session.combat.execute(c.Declare(character=declarer, actions=[]))
            await pilot.pause()


@CASES
async def test_d1_ma_moves_to_maton_1_in_the_targets_and_ticks_nothing(
        language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch,
        ticks: list[float]) -> None:
    speak(language, monkeypatch)
    app = Harness(session_after(encounter(), c.StartCombat()), dialog=declaration_dialog,
                  language=language)  # the DJ's d
    async with app.run_test(size=size) as pilot:
        form = await form_open(pilot)
        await focus(pilot, "a0-targets")
        summary = text_of(app, "#summary")
        assert highlighted(app) == "Bruno"
        await type_text(pilot, "Ma")
        assert highlighted(app) == "Matón 1"
        await type_text(pilot, "x")  # "max" is nobody: a new search, from "x": nobody
        assert highlighted(app) == "Matón 1"
        ticks[0] += 5  # a pause: a new search
        await type_text(pilot, "el")
        assert highlighted(app) == "Élena"
        ticks[0] += 5
        await type_text(pilot, "mm")  # the same letter again: the next one with it
        assert highlighted(app) == "Matón 2"
        assert list(form.query_one("#a0-targets", SelectionList).selected) == []
        assert text_of(app, "#summary") == summary
        await pilot.press("space")  # space still ticks the highlighted one
        await pilot.pause()
        assert list(form.query_one("#a0-targets", SelectionList).selected) == ["Matón 2"]


@CASES
async def test_o1_ma_moves_to_maton_1_in_the_opposed_with_list(
        language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch,
        ticks: list[float]) -> None:
    speak(language, monkeypatch)
    app = Harness(session_after(encounter(), c.StartCombat()), dialog=declaration_dialog,
                  language=language)  # the DJ's d
    async with app.run_test(size=size) as pilot:
        await form_open(pilot)
        await choose(pilot, "a0-opposition", OppositionMode.DIRECT)
        await pilot.pause()
        await focus(pilot, "a0-against")
        summary = text_of(app, "#summary")
        await type_text(pilot, "ma")
        assert highlighted(app) == "Matón 1"
        assert list(app.screen.query_one("#a0-against", SelectionList).selected) == []
        assert text_of(app, "#summary") == summary


@CASES
async def test_d4_the_reaction_form_s_lists_keep_the_roster_s_order_and_type_ahead(
        language: str, size: tuple[int, int], monkeypatch: pytest.MonkeyPatch,
        ticks: list[float]) -> None:
    """Matón 1 punches Tomás: Tomás's reacción lists the others as every declaration
    does, and "ma" goes to Matón 1 in its targets and its "opposed with" list."""
    speak(language, monkeypatch)
    app = Harness(session_after(
        encounter(), c.StartCombat(),
        c.Declare(character="Tomás", actions=[Action(description="aims", target=14)]),
        c.Declare(character="Matón 1", actions=[Action(description="punches Tomás",
                                                       targets=["Tomás"])])),
        dialog=reaction_dialog, language=language)  # the DJ's r
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ReactionDialog)
        await choose(pilot, "a0-opposition", OppositionMode.DIRECT)
        await pilot.pause()
        for list_id in ("a0-targets", "affected", "a0-against"):
            assert names(app, list_id) == ROSTER[1:], list_id
            await focus(pilot, list_id)
            ticks[0] += 5
            await type_text(pilot, "ma")
            assert highlighted(app) == "Matón 1", list_id
            assert list(app.screen.query_one(f"#{list_id}", SelectionList).selected) == []
