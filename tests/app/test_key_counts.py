"""Issue 39 item 8: the DJ's keys for a table's flows, counted before and after the
issue's shortcuts by the Pilot tests that type them (README's "Keys per flow").

Each flow is typed twice on the same app and state: *before*, the way the DJ typed it
before issue 39 (every field of every declaration typed again, the target picked with
the arrows); *after*, with the shortcuts it added (ctrl+l repeats a character's last
declaration, D1; the target lists take type-ahead, D2). Both ways must reach the same
state, so the counts measure the same work. `-s` prints the figures.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, SelectionList

from sombra_tui.engine.state import Phase
from sombra_tui.screens.dialogs import DeclarationEditor, TADialog
from sombra_tui.screens.dialogs.hit import HitDialog
from tests.app import drivers
from tests.app.key_count import Keys

#: What each character of the demo declared in round 1 (tests/app/drivers.py), which
#: they declare again in round 2: description, skill, targets.
ROUND_ONE = {
    "Ana": ("vigila la puerta del almacén", "Armas cortas", ()),
    "Matón": ("golpea a Iker", "Pelea", ("Iker",)),
    "Iker": ("corre hacia la verja", "Atletismo", ()),
    "Bruno": ("dispara a Ana", "Armas cortas", ("Ana",)),
    "Lucía": ("abre la verja con el portátil", "Electrónica", ()),
    "Carla": ("dispara a Iker", "Armas cortas", ("Iker",)),
}
#: The dice typed for every roll of a counted round (the same in both ways).
DICE = "5 4 3"


async def _wait_for(keys: Keys, kind: type) -> None:
    for _turn in range(60):
        if isinstance(keys.pilot.app.screen, kind):
            await keys.pause()
            return
        await keys.pilot.pause(0.01)
    raise AssertionError(f"{kind.__name__} did not open")


async def _pick(keys: Keys, wanted: list[str], *, type_ahead: bool) -> None:
    """In the focused target list, tick `wanted`: with the arrows from the top, or (with
    type-ahead) by the name's first letters when that is shorter, then space."""
    picker = keys.pilot.app.screen.focused
    assert isinstance(picker, SelectionList)
    options = [str(picker.get_option_at_index(i).prompt) for i in range(picker.option_count)]
    at = 0
    for name in sorted(wanted, key=options.index):
        index = options.index(name)
        arrows = ["down"] * (index - at)
        letters = next(name[:size].lower() for size in range(1, len(name) + 1)
                       if next(option for option in options
                               if option.casefold().startswith(name[:size].casefold()))
                       == name)
        await keys.press(*(letters if type_ahead and len(letters) < len(arrows) else arrows))
        at = index
        await keys.press("space")


async def _skill(keys: Keys, name: str, skill: str, *, complete: bool) -> None:
    """`name`'s skill into the focused field: whole, or its first letters that no other
    skill of theirs starts with and right, which takes the field's completion."""
    if not complete:
        await keys.type(skill)
        return
    state = keys.pilot.app.session.combat.state  # type: ignore[attr-defined]
    others = [other.casefold() for other in state.character(name).skills if other != skill]
    size = next(size for size in range(1, len(skill) + 1)
                if not any(other.startswith(skill[:size].casefold()) for other in others))
    await keys.press(*skill[:size].lower())  # key by key: the completion follows keys
    await keys.press("right")
    assert keys.pilot.app.screen.focused.value == skill  # type: ignore[union-attr]


async def _declare_typed(keys: Keys, name: str, *, type_ahead: bool) -> None:
    """The character's round 1 declaration typed field by field, as before issue 39."""
    description, skill, targets = ROUND_ONE[name]
    await keys.type(description)
    await keys.press("tab")
    await keys.type(skill)
    if targets:
        await keys.press("tab", "tab")
        await _pick(keys, list(targets), type_ahead=type_ahead)


async def declare_round(keys: Keys, *, repeat: bool) -> None:
    """Every character declares again what they declared the asalto before; each
    reacción offered is declined (x)."""
    app = keys.pilot.app
    for _turn in range(40):
        state = app.session.combat.state  # type: ignore[attr-defined]
        if state.top_prompt is not None:
            await keys.press("x")
            continue
        name = state.current_declarer
        if name is None:
            return
        await keys.press("space")
        await _wait_for(keys, DeclarationEditor)
        if repeat:
            await keys.press("ctrl+l")
            for _settle in range(6):  # the form's fields are written over a few turns
                await keys.pause()
        else:
            await _declare_typed(keys, name, type_ahead=False)
        await keys.press("enter")
        await keys.pause()
        assert not isinstance(app.screen, DeclarationEditor), f"{name} did not declare"
    raise AssertionError("the declarations did not end")


async def resolve_round(keys: Keys) -> None:
    """space through the asalto; each roll typed (DICE), each hit accepted as read."""
    app = keys.pilot.app
    for _turn in range(80):
        state = app.session.combat.state  # type: ignore[attr-defined]
        if state.phase is Phase.END_OF_ROUND:
            return
        screen = app.screen
        if isinstance(screen, HitDialog):
            await keys.press("space")
        else:
            dice = [box for box in screen.query(Input) if box.id and box.id.endswith("dice")]
            if dice and screen.focused in dice:
                for index, _box in enumerate(dice):
                    if index:
                        await keys.press("tab")
                    await keys.type(DICE)
                await keys.press("enter")
            else:
                await keys.press("space")
        for _settle in range(3):
            await keys.pause()
    raise AssertionError(f"the asalto did not end: {app.screen!r}")


def _made(pilot: Pilot[Any]) -> list[tuple[str, str, str, tuple[str, ...]]]:
    state = pilot.app.session.combat.state  # type: ignore[attr-defined]
    return sorted((name, a.description, a.skill, tuple(a.targets))
                  for name in state.current
                  for a in state.declarations[state.current[name]].actions)


async def count_round(repeat: bool) -> int:
    """Round 2 of the demo, everyone doing again what they did in round 1 (D1): the
    keys from its first declaration to the end of the asalto."""
    app = drivers.make_app(size=drivers.SIZE, language="es", resume=drivers.round_two)
    async with app.run_test(size=drivers.SIZE) as pilot:
        await drivers.round_two(pilot)
        keys = Keys(pilot)
        await declare_round(keys, repeat=repeat)
        assert _made(pilot) == sorted((name, *made) for name, made in ROUND_ONE.items())
        await resolve_round(keys)
        return keys.count


async def test_a_round_of_the_demo_takes_fewer_keys(capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    """D1: ctrl+l declares again what a character declared the asalto before."""
    before, after = await count_round(repeat=False), await count_round(repeat=True)
    with capsys.disabled():
        print(f"\na round of the demo: {before} keys before, {after} after")
    assert after < before


async def _attack(keys: Keys, *, shortcuts: bool) -> None:
    """Carla shoots Iker (the demo's round 1): declared, Iker's reacción declined."""
    await keys.press("space")
    await _wait_for(keys, DeclarationEditor)
    description, skill, targets = ROUND_ONE["Carla"]
    await keys.type(description)
    await keys.press("tab")
    await _skill(keys, "Carla", skill, complete=shortcuts)
    await keys.press("tab", "tab")
    await _pick(keys, list(targets), type_ahead=shortcuts)
    await keys.press("enter")
    await keys.pause()
    await keys.press("x")  # Iker keeps running
    await keys.pause()


async def count_attack(shortcuts: bool) -> tuple[int, int]:
    """Carla's shot at Iker from her declaration to the wound on Iker's sheet (D2, H1):
    declared, its TA rolled, the hit proposal (it opens by itself) accepted as read;
    with the shortcuts, the skill by its completion and the target by type-ahead. The
    keys in all and those of the declaration."""
    app = drivers.make_app(size=drivers.SIZE, language="es",
                           resume=drivers.to_reaction_prompt)
    async with app.run_test(size=drivers.SIZE) as pilot:
        await drivers.to_reaction_prompt(pilot)
        await drivers.react(pilot, "Ana", "se tira tras las cajas y dispara a Bruno",
                            "Armas cortas", ["Bruno"], drivers.REACTION_DICE[0])
        await drivers.react(pilot, "Bruno", "se cubre tras el coche y dispara a Ana",
                            "Armas cortas", ["Ana"], drivers.REACTION_DICE[1])
        await pilot.press("x")  # Ana lets Bruno's counter-reaction be
        await drivers.declare(pilot, "Lucía", "abre la verja con el portátil",
                              "Electrónica")
        keys = Keys(pilot)
        await _attack(keys, shortcuts=shortcuts)
        declared = keys.count
        await drivers.advance_to(pilot, Phase.ROUND)  # not the attack's keys
        combat = app.session.combat
        wounds = len(combat.state.body("Iker").wounds)
        await keys.press("space")
        await _wait_for(keys, TADialog)
        await keys.type(DICE)
        await keys.press("enter")
        await _wait_for(keys, HitDialog)
        await keys.press("space")
        for _settle in range(3):
            await keys.pause()
        assert len(combat.state.body("Iker").wounds) == wounds + 1
        return keys.count, declared


async def test_an_attack_through_the_hit_takes_fewer_keys(
        capsys: pytest.CaptureFixture[str]) -> None:
    """D2: the skill's completion and the target list's type-ahead."""
    (before, declared_before), (after, declared_after) = (
        await count_attack(shortcuts=False), await count_attack(shortcuts=True))
    with capsys.disabled():
        print(f"\nan attack through the hit: {before} keys before ({declared_before} to "
              f"declare it), {after} after ({declared_after})")
    assert after < before
