"""Undo and redo name every command in the DJ's language (S1, issue 20).

The names come from the engine's registry (ask.command_label). main.py's own list named
20 of the 34 commands and spelt out the type of the others, never translated: undoing
a hit by hand read "Deshecho: manual hit (Bruno)" in Spanish.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from collections.abc import Callable
from typing import Any

import pytest
from pydantic import BaseModel

from sombra_tui.engine import ask, i18n
from sombra_tui.engine.commands import AcceptHit, ManualHit
from sombra_tui.engine.registry import REGISTRY
from sombra_tui.engine.wounds import Location
from sombra_tui.screens import main
from sombra_tui.screens.main import MainScreen
from sombra_tui.session import Session
from tests.app.conftest import SIZE, make_app, notifications
from tests.engine.test_rules_hits import carla_shoots, fighters


def hit_accepted() -> Session:
    """Carla's shot at Bruno hit (H1) and the DJ accepted it as proposed."""
    combat = fighters()
    carla_shoots(combat, (5, 8, 3))
    [proposal] = combat.state.proposals
    combat.execute(AcceptHit(proposal_id=proposal.id))
    return Session(combat)


def hit_by_hand() -> Session:
    """H12: the DJ gave Bruno a hit by hand (a fall) as asalto 1 began."""
    combat = fighters()
    combat.execute(ManualHit(character="Bruno", location=Location.PECHO, damage=3))
    return Session(combat)


@pytest.mark.parametrize(("session", "language", "name"), [
    (hit_accepted, "en", "accept hit"),
    (hit_accepted, "es", "aceptar el impacto"),
    (hit_by_hand, "en", "hit by hand (Bruno)"),
    (hit_by_hand, "es", "impacto a mano (Bruno)"),
])
async def test_undo_and_redo_name_the_command_in_the_djs_language(
        monkeypatch: pytest.MonkeyPatch, session: Callable[[], Session], language: str,
        name: str) -> None:
    monkeypatch.setenv("LANGUAGE", language)
    app = make_app(session(), language=language, journal=False)
    async with app.run_test(size=SIZE) as pilot:
        combat = app.session.combat
        last = combat.commands[-1]
        await pilot.press("u")
        await pilot.pause()
        assert combat.redo_stack == [last]
        # Read at once: the notice lasts 3 s, which a loaded machine can outlast
        # before the next key is read.
        shown = [message for _, message in notifications(app)]
        await pilot.press("U")
        await pilot.pause()
        assert combat.commands[-1] == last and combat.redo_stack == []
        shown += [message for _, message in notifications(app)]
        undone, redone = (("Deshecho", "Rehecho") if language == "es"
                          else ("Undone", "Redone"))
        assert f"{undone}: {name}" in shown and f"{redone}: {name}" in shown


@pytest.mark.parametrize("kind", list(REGISTRY), ids=lambda kind: kind.__name__)
def test_every_commands_undo_name_is_translated_in_spanish(kind: type[BaseModel]) -> None:
    """What the undo notice names, for each of the 34 command types: not the English
    label, and never the command's type spelt out (the old fallback)."""
    command = kind.model_construct()
    english = ask.command_label(command)
    i18n.set_language("es")
    spanish = ask.command_label(command)
    assert spanish != english
    assert spanish != str(command.type).replace("_", " ")  # type: ignore[attr-defined]


def test_the_screen_names_commands_only_through_the_engine() -> None:
    """main.py keeps no list of command names of its own; undo and redo ask the engine."""
    assert not hasattr(main, "COMMAND_NAMES") and not hasattr(main, "describe_command")
    def called(function: Any) -> set[str]:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        return {node.func.attr for node in ast.walk(tree)
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)}

    for function in (MainScreen.action_undo, MainScreen.action_redo):
        assert "_travel" in called(function), function.__qualname__
    assert "command_label" in called(MainScreen._travel)
