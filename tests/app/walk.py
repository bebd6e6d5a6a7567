"""The walk of a declaration through the package, measured with a call tracer (issue 36
item 7): which files of `sombra_tui` it crosses and how often it enters the main
screen's module.

The walk is the DJ's: the app as it runs (the round's dialogs prepared), the worked
example's first asalto; the declare key opens Ana's declaration, the DJ types a
description and Enter sends it; it ends once the panels show the next declarer (and
the app has nothing left to do: the next declarer's dialog is refilled, unshown).

A file is crossed when a function of it runs (`sys.setprofile`'s "call" events, the
event loop's thread). The main screen's module is entered when one of its functions
is called from another module; Textual's `check_action` polls (one per binding,
each time Textual lists the screen's keys: item 5's subject, answered by
Session.offers once per revision) are counted apart.

The floor (`floor`): the fewest files the same walk could cross with the package's
modules kept whole (each is one job or one RULES.md section, in one place) and merged
as far as the size caps allow: the lines of the modules crossed, by layer, over each
layer's cap (the engine's 800 lines, the screen side's 400). It is a lower bound of any
layout that keeps the caps and does not split a module's job.

Run it from a checkout:  python -m tests.app.walk
tests/app/test_walk.py asserts its counts.
"""

from __future__ import annotations

import asyncio
import math
import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

import sombra_tui
from sombra_tui import config
from sombra_tui.engine import commands as c
from sombra_tui.screens import main as main_module
from sombra_tui.screens import preparing
from sombra_tui.screens.main import MainScreen

PACKAGE = Path(sombra_tui.__file__).resolve().parent
MAIN = str(Path(main_module.__file__).resolve())
#: What the DJ types in the declaration's description.
TYPED = "dispara"
#: The size caps by layer (tests/engine/test_sizes.py, tests/test_architecture.py): the
#: engine's modules, and the screen side's (the dialogs' own cap, 300, is lower still).
ENGINE_CAP = 800
SCREEN_CAP = 400


@dataclass
class Walk:
    """What a walk crossed: calls per file (relative to the package), the entries into
    the main screen's module by function, Textual's check_action polls, and the keys
    the main screen handled and the results it got (the walk's allowance)."""

    files: Counter[str] = field(default_factory=Counter)
    entries: Counter[str] = field(default_factory=Counter)
    polls: int = 0
    keys: int = 1  # the declare key (the typing and Enter go to the dialog)
    results: int = 1  # the declaration the dialog sends

    def by_layer(self) -> dict[str, list[str]]:
        """The files crossed, by the package's layers (engine, screens, widgets, the
        rest)."""
        layers: dict[str, list[str]] = {}
        for name in sorted(self.files):
            top = name.split("/")[0] if "/" in name else "(package)"
            layers.setdefault(top, []).append(name)
        return layers


def floor(files: dict[str, int] | Counter[str], package: Path = PACKAGE
          ) -> dict[str, tuple[int, int, int]]:
    """By layer ("engine", "screen side"): the modules crossed, their lines, and the
    fewest files that hold them whole under the layer's cap (module docstring)."""
    layers: dict[str, list[int]] = {"engine": [], "screen side": []}
    for name in files:
        lines = len((package / name).read_text(encoding="utf-8").splitlines())
        layers["engine" if name.startswith("engine/") else "screen side"].append(lines)
    caps = {"engine": ENGINE_CAP, "screen side": SCREEN_CAP}
    return {layer: (len(sizes), sum(sizes), math.ceil(sum(sizes) / caps[layer]))
            for layer, sizes in layers.items()}


class Tracer:
    """A `sys.setprofile` hook that fills a Walk."""

    def __init__(self, walk: Walk) -> None:
        self.walk = walk
        self.package = str(PACKAGE) + "/"
        self.check_action = MainScreen.check_action.__code__

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        filename = frame.f_code.co_filename
        if not filename.startswith(self.package):
            return
        self.walk.files[filename[len(self.package):]] += 1
        if filename != MAIN:
            return
        if frame.f_code is self.check_action:
            self.walk.polls += 1
            return
        caller = frame.f_back
        if caller is None or caller.f_code.co_filename != MAIN:
            self.walk.entries[frame.f_code.co_name] += 1


async def _settled(pilot: Any) -> None:
    for _turn in range(3):
        await pilot.pause()
    await pilot.wait_for_scheduled_animations()
    await pilot.pause()


async def declaration_walk() -> Walk:
    """Trace one declaration, key to panels (module docstring)."""
    from tests.app.conftest import make_app, session_after, worked_example_encounter

    timers = preparing.PREPARE_AFTER, preparing.PREPARE_EVERY
    preparing.PREPARE_AFTER = preparing.PREPARE_EVERY = 0.01
    homes = {name: os.environ.get(name) for name in (config.CONFIG_DIR_ENV,
                                                      config.DATA_DIR_ENV)}
    folder = tempfile.TemporaryDirectory()  # never the DJ's own config and data
    for name in homes:
        os.environ[name] = str(Path(folder.name) / name)
    try:
        app = make_app(session_after(worked_example_encounter(), c.StartCombat()),
                       prepare_dialogs=True, journal=False)
        async with app.run_test(size=(120, 40)) as pilot:
            main = app.main_screen
            for _turn in range(400):  # by turns of the event loop, no clock
                if main.round_dialogs_prepared():
                    break
                await pilot.pause()
            else:
                raise AssertionError("the round's dialogs were not prepared")
            await _settled(pilot)
            state = app.session.combat.state
            declarer = state.current_declarer
            key = main.key_in_force("declare")
            walk = Walk()
            sys.setprofile(Tracer(walk))
            try:
                await pilot.press(key)
                await pilot.press(*TYPED)
                await pilot.press("enter")
                for _turn in range(400):
                    if app.session.combat.state.current_declarer != declarer and \
                            app.screen is main and main.dialogs.preparing.refill_timer is None:
                        break
                    await pilot.pause()
                await _settled(pilot)
            finally:
                sys.setprofile(None)
            done = app.session.combat.state
            if done.current_declarer == declarer or declarer not in done.current:
                raise AssertionError(f"{declarer} did not declare")
            return walk
    finally:
        preparing.PREPARE_AFTER, preparing.PREPARE_EVERY = timers
        for name, value in homes.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        folder.cleanup()


def report(walk: Walk) -> str:
    lines = [f"files of sombra_tui crossed: {len(walk.files)}"]
    for layer, names in walk.by_layer().items():
        lines.append(f"  {layer} ({len(names)}): " + ", ".join(
            f"{name} {walk.files[name]}" for name in names))
    lines.append(f"entries into {Path(MAIN).relative_to(PACKAGE.parent)}: "
                 f"{sum(walk.entries.values())} ({dict(walk.entries)}); allowed "
                 f"{walk.keys + walk.results} ({walk.keys} key, {walk.results} result)")
    lines.append(f"Textual's check_action polls: {walk.polls}")
    least = floor(walk.files)
    lines.append("the floor, modules kept whole under the caps: " + ", ".join(
        f"{layer} {modules} modules of {total:,} lines in at least {files} files"
        for layer, (modules, total, files) in least.items())
        + f"; {sum(files for _m, _t, files in least.values())} in all")
    return "\n".join(lines)


def main() -> None:
    print(report(asyncio.run(declaration_walk())))


if __name__ == "__main__":
    main()
