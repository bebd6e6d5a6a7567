"""A real sombra-tui process that plays a scripted combat, for the SIGKILL tests.

Run as `python -m tests.app.crash_driver [options]`: with SOMBRA_TUI_DATA_DIR and
SOMBRA_TUI_CONFIG_DIR set, it starts the app headless and reports each step on its
own line; the test kills it with SIGKILL when it reads the line it waits for.

* At start-up: `offered` when the app offers an unfinished combat (then `--answer r`
  resumes it, printing `resumed N` with N the commands it holds; `--answer d` opens
  the discard confirmation, printing `dialog ConfirmDialog`), or `no-offer`. Then
  `ready N`.
* `--play-to M` sends the script's commands after the N held, up to command M,
  through the main screen (the path every key takes), printing `applied K` after
  each; `--save-at K` saves after command K with ctrl+s (Enter in the save-as dialog
  if the combat has no file yet), printing `saved K`. `--save` saves at the end.
* `--dialog declare|quit|save-as|...` then opens a dialog with keys (d and a half-typed
  action, q with unsaved changes, F2 and a half-typed name...), printing `dialog NAME`;
  a form about a wound, a condition, an extended action or a note plays the commands
  that make one first (`things_first`).
* `--report-form` after the resume: the form open then (a draft reopened, issue 35
  item 5) as `form NAME TEXT` (TEXT: its first action's description, else its focused
  field's, else its first field's that holds text; the group's rolls: every line, with
  " | " between; a pending hit: its attacker and target, "A -> B"), or `form none`.
  `--accept-hit` then, if that form is a hit: Enter (accepted as proposed) and the
  form open after it, reported the same way.
* `--escape-then KIND` after `--dialog`: Escape on the dialog open (a hit between a
  group's members, say), then the keys of dialog KIND, printing `then NAME`.
* `--report-kept` after the resume (and the hit accepted): the dice the screen keeps
  for a group's members not sent yet, as `kept NAME=DICE | ...` (`kept none`).
* `done` at the end; the process stays alive until killed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Input, Select

from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.model import Action, ActionKind, Character, Encounter, ExtendedSpec
from sombra_tui.engine.wounds import Weapon
from sombra_tui.screens.dialogs import ChoiceDialog, FileDialog
from sombra_tui.screens.dialogs.hit import HitDialog
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


def say(line: str) -> None:
    print(line, flush=True)


async def settle(app: SombraApp, pilot: Pilot[None]) -> None:
    await pilot.pause()
    await app.workers.wait_for_complete()
    await pilot.pause()


async def start(app: SombraApp, pilot: Pilot[None], answer: str | None) -> bool:
    """Wait for the offer or the journal; answer the offer. False: stay at a dialog."""
    while app.session.journal is None and not isinstance(app.screen, ChoiceDialog):
        await pilot.pause()
    if not isinstance(app.screen, ChoiceDialog):
        await app.workers.wait_for_complete()
        say("no-offer")
        return True
    say("offered")
    if answer is None:
        return False
    await pilot.press(answer)
    await pilot.pause()
    if answer == "d":
        say(f"dialog {type(app.screen).__name__}")
        return False
    await settle(app, pilot)
    if answer == "r":
        say(f"resumed {len(app.session.combat.commands)}")
    return True


async def save(app: SombraApp, pilot: Pilot[None]) -> bool:
    await pilot.press("ctrl+s")
    await pilot.pause()
    if isinstance(app.screen, FileDialog):  # no file yet: the suggested name, Enter
        await pilot.press("enter")
    await settle(app, pilot)
    return app.session.path is not None and not app.session.dirty


#: The keys that open each dialog and type in it (a field's text typed over: end, ctrl+u).
DIALOG_KEYS = {"declare": ["d", *"medio escr"], "hit": ["h", *"17"],
               "sheet-heal": ["w", "plus", *"3"], "quit": ["q"],
               "quick": ["minus", *"7 pec"],
               "save-as": ["f2", "ctrl+a", *"a-medias"],
               "sheet-wound": ["w", "e", "end", "ctrl+u", *"12"],
               "sheet-condition": ["w", "e", *"4"],
               "extended": ["j", "end", "ctrl+u", *"5"],
               "settings": ["g", "end", "ctrl+u", *"Emboscada"],
               "note": ["l", "a", *"llegan"],
               "note-edit": ["l", "e", "end", "ctrl+u", *"amanece"],
               # Issue 39 item 1: the side changed (ctrl+t), a skill typed.
               "character": ["a", *"Rosa", "ctrl+t", "tab", "tab", "tab", "tab",
                             *"Pelea 12"],
               # Issue 39 item 3: the two Matones' TAs in one dialog, a line each.
               "group": ["y", *"3 4 2", "tab", *"5 1 1"],
               # Issue 39 item 3, H1: three Matones (two: pair-hit) shoot Ana together;
               # Enter sends the first line (a hit on Ana: its dialog opens), the rest wait.
               "group-hit": ["y", *"3 4 2", "tab", *"5 1 1", "tab", *"6 2 2", "enter"],
               "pair-hit": ["y", *"3 4 2", "tab", *"5 1 1", "enter"]}


def things_first(kind: str, name: str) -> list[c.Command]:
    """What a form about a wound, a condition, an extended action or a note needs
    first: a wound or a condition on the selected character `name`, an extended action
    declared by each (the declarations from the first one's, after StartCombat), or a
    note pinned to asalto 2."""
    if kind == "sheet-wound":
        return [c.ManualHit(character=name, location=c.Location.PECHO, damage=3)]
    if kind == "sheet-condition":
        return [c.AddCondition(character=name, condition=c.Condition(name="cegado"))]
    if kind == "extended":
        lock = Action(kind=ActionKind.EXTENDED, description="picks the lock", target=12,
                      extended=ExtendedSpec(duration=3))
        return [*(c.Declare(character=who, actions=[lock]) for who in ("Ana", "Bruno",
                                                                         "Carla")),
                c.Advance(), c.Advance()]
    if kind == "note-edit":
        return [c.AddNote(round=2, text="se va la luz")]
    if kind == "group":
        return group_first()
    if kind.endswith("-hit"):
        return group_hit_first(2 if kind == "pair-hit" else 3)
    return []


def group_first() -> list[c.Command]:
    """From no command (`--play-to 0`): two Matones who shoot together (one Primaria:
    one simultaneous group, P3), the others waiting; the round's phase up to their TAs."""
    mook = Character(name="Matón", primaria=10, secundaria=1, alerta=9,
                     skills={"Armas": 12})
    wait = [Action(description="waits", target=10)]
    return [c.AddCharacters(character=mook, count=2), c.StartCombat(),
            c.Declare(character="Ana", actions=wait),
            c.DeclareGroup(characters=["Matón 1", "Matón 2"],
                           actions=[Action(description="shoots", skill="Armas")]),
            c.Declare(character="Bruno", actions=wait),
            c.Declare(character="Carla", actions=wait), c.Advance(), c.Advance(),
            c.Resolve(character="Carla", dice=Dice.of(2, 2, 2)),
            c.Resolve(character="Bruno", dice=Dice.of(2, 2, 2))]


def group_hit_first(count: int = 3) -> list[c.Command]:
    """From no command (`--play-to 0`): `count` Matones with a pistol who shoot Ana
    together (D1, P3; Ana declines each reacción), the round's phase up to their TAs."""
    pistola = Weapon(name="pistola", damage_type="II", skill="Armas")
    mook = Character(name="Matón", primaria=10, secundaria=1, alerta=9,
                     skills={"Armas": 12}, weapons=[pistola])
    matones = [f"Matón {number}" for number in range(1, count + 1)]
    wait = [Action(description="waits", target=10)]
    shoot = Action(description="shoots Ana", skill="Armas", targets=["Ana"], weapon=pistola)
    return [c.AddCharacters(character=mook, count=count), c.StartCombat(),
            c.Declare(character="Ana", actions=wait),
            c.DeclareGroup(characters=matones, actions=[shoot]),
            *(c.Decline(character="Ana") for _member in matones),
            c.Declare(character="Bruno", actions=wait),
            c.Declare(character="Carla", actions=wait), c.Advance(), c.Advance(),
            c.Resolve(character="Carla", dice=Dice.of(2, 2, 2)),
            c.Resolve(character="Bruno", dice=Dice.of(2, 2, 2))]


async def open_dialog(app: SombraApp, pilot: Pilot[None], kind: str) -> None:
    name = app.main_screen.selected(quiet=True) or "Ana"
    for command in things_first(kind, name):
        if app.main_screen.run_command(command) is None:
            say(f"refused {command.type}")
            sys.exit(3)
        await pilot.pause()
    await pilot.press(*DIALOG_KEYS[kind])
    await pilot.pause()
    for _turn in range(10 if kind.endswith("-hit") else 0):  # until the hit has opened
        if isinstance(app.screen, HitDialog):
            break
        await pilot.pause()
    screen = app.screen
    say(f"dialog {type(screen).__name__}" if isinstance(screen, ModalScreen) else
        "no-dialog")


async def escape_then(app: SombraApp, pilot: Pilot[None], kind: str) -> None:
    """Escape on the dialog open, then the keys of `kind` once the main screen is on top."""
    await pilot.press("escape")
    for _turn in range(10):
        await pilot.pause()
        if app.screen is app.main_screen:
            break
    await pilot.press(*DIALOG_KEYS[kind])
    await settle(app, pilot)
    say(f"then {type(app.screen).__name__}")


def report_kept(app: SombraApp) -> None:
    kept = app.main_screen.flow.group_dice
    say("kept " + (" | ".join(f"{name}={kept[name]}" for name in sorted(kept)) or "none"))


async def report_form(app: SombraApp, pilot: Pilot[None]) -> None:
    """The form open after a resume, and the text of its first action."""
    for _ in range(10):
        await pilot.pause()
    screen = app.screen
    if not isinstance(screen, ModalScreen):
        say("form none")
        return
    fields = screen.query("#a0-description")
    typed = [field.value for field in screen.query(Input) if field.value]
    focused = screen.focused.value if isinstance(screen.focused, Input) else ""
    text = fields.first(Input).value if fields else (focused or (typed[0] if typed
                                                                 else ""))
    lines = screen.query("DiceLine Input")  # the group's rolls (issue 39 item 3)
    if lines:
        text = " | ".join(field.value for field in lines.results(Input))
    if isinstance(screen, HitDialog):  # a pending hit opened (H1): its attacker, target
        text = f"{screen.proposal.attacker} -> {screen.proposal.character}"
    sides = screen.query("#side")  # the character editor's side (issue 39 item 1)
    side = f" {sides.first(Select).value}" if sides else ""
    skills = screen.query("#skills")
    if skills:
        side += f" {skills.first(Input).value}"
    say(f"form {type(screen).__name__} {text}{side}")


async def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answer", choices=["r", "l", "d"])
    parser.add_argument("--play-to", type=int, default=0)
    parser.add_argument("--save-at", type=int, default=-1)
    parser.add_argument("--save", action="store_true")
    parser.add_argument("--dialog", choices=list(DIALOG_KEYS))
    parser.add_argument("--report-form", action="store_true")
    parser.add_argument("--accept-hit", action="store_true")
    parser.add_argument("--escape-then", choices=list(DIALOG_KEYS))
    parser.add_argument("--report-kept", action="store_true")
    options = parser.parse_args(argv)
    app = SombraApp(Session.new(encounter()), remember_theme=False, cursor_blink=False,
                    prepare_dialogs=False)
    async with app.run_test(size=(100, 30)) as pilot:
        if await start(app, pilot, options.answer):
            held = len(app.session.combat.commands)
            if options.report_form:
                await report_form(app, pilot)
                if options.accept_hit and isinstance(app.screen, HitDialog):
                    await pilot.press("enter")  # accepted as proposed: then the draft
                    await report_form(app, pilot)
            if options.report_kept:
                report_kept(app)
            say(f"ready {held}")
            full = script()
            for number in range(held + 1, options.play_to + 1):
                if app.main_screen.run_command(full[number - 1]) is None:
                    say(f"refused {number}")
                    sys.exit(3)
                await pilot.pause()
                say(f"applied {number}")
                if number == options.save_at:
                    say(f"saved {number}" if await save(app, pilot) else "not-saved")
            if options.save:
                say("saved" if await save(app, pilot) else "not-saved")
            if options.dialog:
                await open_dialog(app, pilot, options.dialog)
                if options.escape_then:
                    await escape_then(app, pilot, options.escape_then)
            say("done")
        await asyncio.Event().wait()  # stay alive until killed


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1:]))
