"""A real sombra-tui process that plays a scripted combat, for the SIGKILL test.

Run as `python -m tests.app.crash_driver`: with SOMBRA_TUI_DATA_DIR and
SOMBRA_TUI_CONFIG_DIR set, it starts the app headless, sends each command of
`script()` through the main screen (the path every key takes), and prints
`applied N` after each one. The test kills it with SIGKILL at some point.
"""

from __future__ import annotations

import asyncio
import sys

from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.model import Action, Character, Encounter
from sombra_tui.session import Session


def encounter() -> Encounter:
    return Encounter(name="Combate interrumpido", seed=3, characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14, skills={"Armas": 13}),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12, skills={"Armas": 14}),
        Character(name="Carla", primaria=15, secundaria=2, alerta=13, skills={"Lanzar": 13}),
    ])


def script() -> list[c.Command]:
    """Two rounds with a reaction chain, resolutions, marks and an undo-free history."""
    act = Action
    commands: list[c.Command] = [c.StartCombat()]
    for round_number in (1, 2):
        commands += [
            c.Declare(character="Ana", actions=[act(description="aims", skill="Armas")]),
            c.Declare(character="Bruno", actions=[
                act(description="shoots Ana", skill="Armas", targets=["Ana"])]),
            c.React(character="Ana", mode="substitute",
                    actions=[act(description="dives", target=12)], dice=Dice.of(3, 4, 2)),
            c.React(character="Bruno", mode="substitute",
                    actions=[act(description="flanks", target=12)], dice=Dice.of(6, 6, 2)),
            c.Declare(character="Carla", actions=[
                act(description="grenade", skill="Lanzar", targets=["Ana", "Bruno"])]),
        ]
        if round_number == 1:
            commands += [c.React(character="Ana", mode="combine",
                                 actions=[act(description="covers", kind="automatic")],
                                 dice=Dice.of(2, 3, 1)),
                         c.Decline(character="Carla")]
        else:
            commands += [c.Decline(character="Ana")]
        commands += [
            c.Advance(),  # instant
            c.Advance(),  # round
            c.Resolve(character="Carla", dice=Dice.of(2, 5, 4)),
            c.SetMark(character="Bruno", mark=c.Mark.PREVENTED),
            c.Resolve(character="Ana", dice=Dice.of(7, 1, 2)),
        ]
        if round_number == 1:
            commands += [c.Resolve(character="Ana")]  # the automatic "covers"
        commands += [c.Advance(), c.Advance(), c.Advance()]  # extended, end, next round
    return commands


async def main() -> None:
    app = SombraApp(Session.new(encounter()), remember_theme=False, cursor_blink=False)
    async with app.run_test(size=(100, 30)) as pilot:
        while app.session.journal is None:  # the journal starts after the first frame
            await pilot.pause()
        await app.workers.wait_for_complete()
        print("ready", flush=True)
        for number, command in enumerate(script(), start=1):
            if app.main_screen.run_command(command) is None:
                print(f"refused {number}", flush=True)
                sys.exit(3)
            await pilot.pause()
            print(f"applied {number}", flush=True)
        print("done", flush=True)
        await asyncio.Event().wait()  # stay alive until killed


if __name__ == "__main__":
    asyncio.run(main())
