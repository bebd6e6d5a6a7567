"""A key-monkey soak of the real app (issue 41): a DJ, or a cat, on the keyboard.

Seeded streams of keys from the key table (space most often), digits, letters, Enter,
Esc, Tab, arrows, bursts sent with no pause between them, and resizes between 80x24 and
120x40, in both languages, played on the demo by a real app in a subprocess. After every
key: no exception. After every key that changed the history: the state equals a fresh
replay of the history, the crash journal replays to the same state, and the panel's hint
is the one the engine's next step gives. Every so often the app is stopped hard
(SIGKILL, by itself, right after a key, sometimes before that key is even handled), and
started again from its journal: what was committed is all there.

A failure prints the seed and the last keys, so it replays: the stream and the kill
points are functions of the seed alone.

    python -m tests.app.monkey --minutes 30            # the long soak (README)
    python -m tests.app.monkey --seed 7 --keys 3000    # one seed, to replay a failure

The short soak (tests/app/test_soak.py) runs the same code within about a minute.

Left out of the streams, on purpose: the keys that quit (ctrl+q, ctrl+c, and q on the
main screen: the hard stops stand for them, and tests/app/test_quit.py has the rest)
and ctrl+n on the main screen (a new encounter replaces the combat being followed:
tests/app/test_pilot_files.py).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections import deque
from collections.abc import Awaitable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from textual.pilot import Pilot, WaitForScreenTimeout

ROOT = Path(__file__).resolve().parents[2]
SIZES = ((80, 24), (120, 40), (100, 30))
#: The keys the streams leave out (see the module's docstring): those that quit from
#: anywhere; and, on the main screen only, its quit and new-encounter keys (q closes
#: the sheet and the help, ctrl+n adds an action to a declaration).
LEFT_OUT = {"ctrl+q", "ctrl+c"}
NOT_ON_THE_MAIN_SCREEN = {"q", "ctrl+n"}
LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: How many of the last keys a failure shows.
SHOWN = 40


# ---- the streams ---------------------------------------------------------------------


def table_keys() -> list[str]:
    """Every key of the key table (sombra_tui/keys.py) but those LEFT_OUT."""
    from sombra_tui import keys

    found = {each.strip() for key in keys.KEYS for each in key.keys.split(",")}
    return sorted(found - LEFT_OUT - {""})


@dataclass(frozen=True)
class Event:
    """One thing the monkey does: press `keys` (more than one: a burst, sent with no
    pause), or resize the terminal to `size`."""

    keys: tuple[str, ...] = ()
    size: tuple[int, int] | None = None

    def __str__(self) -> str:
        if self.size is not None:
            return f"resize {self.size[0]}x{self.size[1]}"
        return self.keys[0] if len(self.keys) == 1 else "burst(" + " ".join(self.keys) + ")"


def _one_key(rng: random.Random, table: list[str]) -> str:
    roll = rng.random()
    if roll < 0.30:
        return "space"
    if roll < 0.45:
        return str(rng.randint(0, 9))
    if roll < 0.57:
        return rng.choice(LETTERS)
    if roll < 0.66:
        return "enter"
    if roll < 0.72:
        return "escape"
    if roll < 0.77:
        return rng.choice(["tab", "tab", "tab", "shift+tab"])
    if roll < 0.83:
        return rng.choice(["up", "down", "left", "right"])
    if roll < 0.86:
        return "backspace"
    if roll < 0.89:
        return rng.choice(["ctrl+r", "t", "y"])  # the keys that roll
    return rng.choice(table)


def stream(seed: int, table: list[str]) -> Iterator[Event]:
    """The seed's endless stream of events."""
    rng = random.Random(seed)
    while True:
        roll = rng.random()
        if roll < 0.01:
            yield Event(size=rng.choice(SIZES))
        elif roll < 0.05:
            yield Event(keys=tuple(_one_key(rng, table) for _ in range(rng.randint(2, 8))))
        else:
            yield Event(keys=(_one_key(rng, table),))


def kill_points(seed: int, total: int, every: int) -> list[int]:
    """After which events the app stops hard: every `every` events or so (seeded)."""
    rng = random.Random(f"kill-{seed}")
    points, at = [], 0
    while True:
        at += rng.randint(max(1, every // 2), every * 3 // 2)
        if at >= total:
            return points
        points.append(at)


def language_of(seed: int) -> str:
    return ("es", "en")[seed % 2]


# ---- the driver: the app in this process -----------------------------------------------


def say(line: str) -> None:
    print(line, flush=True)


def state_hash(state: object) -> str:
    from pydantic import BaseModel

    assert isinstance(state, BaseModel)
    return hashlib.sha256(state.model_dump_json().encode()).hexdigest()[:16]


class Broken(Exception):
    """An invariant the soak checks did not hold."""


def check_history(app: object) -> str:
    """After a change of the history: the state is a fresh replay's, the journal replays
    to it, and the panel's hint is the engine's. Returns the line to report."""
    from sombra_tui.app import SombraApp
    from sombra_tui.engine.history import Combat
    from sombra_tui.engine.journal import recover
    from sombra_tui.widgets.declaration_queue import DeclarationQueue, next_step_hint

    assert isinstance(app, SombraApp)
    session = app.session
    combat = session.combat
    state = combat.state
    fresh = Combat(combat.encounter, combat.commands)
    if fresh.state != state:
        raise Broken("the state differs from a fresh replay of its history")
    if session.journal is None:
        raise Broken(f"no crash journal ({session.journal_problem})")
    recovered = recover(session.journal.path)
    if recovered.combat.state != state:
        raise Broken("the crash journal does not replay to the state on screen")
    if app.screen is app.main_screen:
        queue = app.main_screen.query_one(DeclarationQueue)
        hint = queue.content.renderables[0]
        expected = next_step_hint(state, queue.keymap)
        if getattr(hint, "plain", None) != expected:
            raise Broken(f"the panel's hint {getattr(hint, 'plain', hint)!r} is not the "
                         f"engine's next step {expected!r}")
    return (f"commit {session.journal.path} {recovered.operations} "
            f"{state_hash(state)}")


def marker(app: object) -> tuple[int, int, int, int]:
    from sombra_tui.app import SombraApp

    assert isinstance(app, SombraApp)
    combat = app.session.combat
    return (id(app.session), len(combat.commands), len(combat.redo_stack), combat.revision)


#: How long the app may take to settle after a key on a loaded machine before the soak
#: calls it hung (Pilot gives up after 30 s at a time).
SETTLE_LIMIT = 600.0


async def settled(waiting: Awaitable[None], pilot: Pilot[None]) -> None:
    """`waiting` (a key pressed, a pause), then whatever the app still has to do: on a
    machine busy enough that Pilot's own 30 s wait runs out, wait again, up to
    SETTLE_LIMIT; only then is it a failure (the app hung), not the machine's load."""
    began = time.monotonic()
    while True:
        try:
            await waiting
            return
        except WaitForScreenTimeout:
            if time.monotonic() - began > SETTLE_LIMIT:
                raise Broken(f"the app did not settle in {SETTLE_LIMIT:.0f} s") from None
            waiting = pilot.pause()


async def drive(seed: int, start: int, stop: int, kill_at: int | None, resume: bool) -> None:
    """Play events [start, stop) of the seed's stream on a real app; with `kill_at`,
    SIGKILL this process right after that event (on odd events before it is handled)."""
    from textual import events

    from sombra_tui.app import SombraApp
    from sombra_tui.screens.dialogs.confirm import ChoiceDialog

    app = SombraApp(remember_theme=False, cursor_blink=False, language=language_of(seed))
    table = table_keys()
    size = SIZES[seed % 2]
    last: deque[str] = deque(maxlen=SHOWN)
    async with app.run_test(size=size) as pilot:
        while app.session.journal is None and not isinstance(app.screen, ChoiceDialog):
            await pilot.pause()
        if resume and not isinstance(app.screen, ChoiceDialog):
            say("fresh")  # a clean journal: nothing to resume (the soak expects it)
        elif resume:
            await pilot.press("r")
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            say(f"resumed {state_hash(app.session.combat.state)}")
        seen = marker(app)
        say(check_history(app))
        driver = app._driver
        assert driver is not None

        def send(keys: tuple[str, ...]) -> None:
            """As a terminal's driver reads them, with no pause between them."""
            for key in keys:
                character = key if len(key) == 1 else " " if key == "space" else None
                message = events.Key(key, character)
                message.set_sender(app)
                driver.send_message(message)
        for index, event in enumerate(stream(seed, table)):
            if index >= stop:
                break
            if index < start:
                continue
            if app.screen is app.main_screen and set(event.keys) & NOT_ON_THE_MAIN_SCREEN:
                event = Event(keys=tuple(key for key in event.keys
                                         if key not in NOT_ON_THE_MAIN_SCREEN))
            last.append(str(event))
            try:
                if event.size is not None:
                    await settled(pilot.resize_terminal(*event.size), pilot)
                elif index == kill_at and index % 2:  # read, then stopped at once
                    send(event.keys)
                elif len(event.keys) == 1:
                    await settled(pilot.press(*event.keys), pilot)
                elif not event.keys:
                    pass
                else:  # a burst: every key read before the first is handled
                    send(event.keys)
                    await settled(pilot.pause(), pilot)
                    await settled(pilot.pause(), pilot)
                if index == kill_at:
                    say(f"key {index}")
                    os.kill(os.getpid(), signal.SIGKILL)
                if app._exception is not None:
                    raise app._exception
                if not app.is_running:
                    raise Broken("the app stopped")
                now = marker(app)
                if now != seen:
                    seen = now
                    say(check_history(app))
            except Exception as error:
                say(f"FAIL seed={seed} event={index} language={language_of(seed)} "
                    f"last keys: {' '.join(last)}")
                for line in traceback.format_exception(error):
                    for part in line.rstrip().split("\n"):
                        say(f"| {part}")
                os._exit(1)
            say(f"key {index}")
    say("done")


# ---- the soak: drivers in subprocesses, stopped hard and resumed ---------------------------


@dataclass
class Run:
    """What one seed's soak saw."""

    seed: int
    events: int = 0
    commits: int = 0
    kills: int = 0
    failure: list[str] = field(default_factory=list)


def _check_recovery(reported: dict[str, dict[int, str]],
                    last: tuple[str, int, str] | None) -> str | None:
    """After a hard stop: the journal holds everything reported as committed. Returns
    the hash of the state the app must offer to resume, None when it must offer
    nothing (a clean journal: what it holds is saved, and the saved file has it), or
    raises Broken."""
    from sombra_tui.engine import storage
    from sombra_tui.engine.journal import find_journals, recover

    if last is None:
        return None
    name, operations, hashed = last
    path = Path(name)
    if not path.exists():  # the journal was restarted after the last report
        journals = find_journals(path.parent)
        if not journals:
            raise Broken(f"the journal {name} is gone and no other was left")
        path = journals[0]
    recovered = recover(path)
    found = state_hash(recovered.combat.state)
    if str(path) == name:
        if recovered.operations < operations:
            raise Broken(f"the journal lost committed work: {recovered.operations} "
                         f"operations, {operations} reported")
        known = reported.get(name, {}).get(recovered.operations)
        if known is not None and known != found:
            raise Broken("the journal replays to another state than the one reported")
        if recovered.operations == operations and found != hashed:
            raise Broken("the journal replays to another state than the last reported")
    if not recovered.clean:
        return found
    if recovered.saved_path is not None and \
            state_hash(storage.load(recovered.saved_path).state) != found:
        raise Broken("the journal says its combat was saved, but the file differs")
    return None


def soak(seed: int, total: int, every: int, deadline: float | None = None) -> Run:
    """Play `total` events of the seed's stream, stopping the app hard at its kill
    points and resuming it from its journal each time."""
    run = Run(seed)
    points = kill_points(seed, total, every)
    reported: dict[str, dict[int, str]] = {}
    last: tuple[str, int, str] | None = None
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory(prefix="sombra-monkey-") as folder:
        data = Path(folder) / "data"
        env["SOMBRA_TUI_DATA_DIR"] = str(data)
        env["SOMBRA_TUI_CONFIG_DIR"] = str(Path(folder) / "config")
        start, expected = 0, None
        while start < total and not run.failure:
            if deadline is not None and time.monotonic() > deadline:
                break
            kill_at = next((p for p in points if p >= start), None)
            stop = total if kill_at is None else kill_at + 1
            command = [sys.executable, "-m", "tests.app.monkey", "--drive", "--seed",
                       str(seed), "--start", str(start), "--stop", str(stop)]
            if kill_at is not None:
                command += ["--kill-at", str(kill_at)]
            if start:
                command.append("--resume")
            process = subprocess.Popen(command, cwd=folder, env=env, text=True,
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            assert process.stdout is not None and process.stderr is not None
            for line in process.stdout:
                line = line.rstrip("\n")
                if line.startswith(("FAIL", "| ")):
                    run.failure.append(line)
                elif line.startswith("key "):
                    run.events = max(run.events, int(line.split()[1]) + 1)
                elif line.startswith(("resumed", "fresh")):
                    resumed = line.split()[1] if line.startswith("resumed") else None
                    if resumed != expected:
                        run.failure.append(
                            f"FAIL seed={seed}: after the hard stop the app resumed "
                            f"{resumed or 'nothing'}, the journal holds "
                            f"{expected or 'nothing unsaved'}")
                elif line.startswith("commit "):
                    _, name, operations, hashed = line.split()
                    reported.setdefault(name, {})[int(operations)] = hashed
                    last = (name, int(operations), hashed)
                    run.commits += 1
            process.wait()
            errors = process.stderr.read()
            if run.failure:
                break
            if process.returncode == -signal.SIGKILL:
                run.kills += 1
                try:
                    expected = _check_recovery(reported, last)
                except Broken as error:
                    run.failure.append(f"FAIL seed={seed} after the hard stop at event "
                                       f"{kill_at}: {error}")
                    break
                start = run.events
            elif process.returncode != 0:
                run.failure.append(f"FAIL seed={seed}: the driver ended with "
                                   f"{process.returncode}: {errors[-3000:]}")
            else:
                start = total
    return run


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, help="soak seeds until this time is up")
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--keys", type=int, default=1500, help="events per seed")
    parser.add_argument("--every", type=int, default=300, help="events between hard stops")
    parser.add_argument("--drive", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--stop", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--kill-at", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--resume", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.drive:
        asyncio.run(drive(options.seed, options.start, options.stop, options.kill_at,
                          options.resume))
        return 0
    began = time.monotonic()
    deadline = began + options.minutes * 60 if options.minutes else None
    seed, totals = options.seed, Run(seed=-1)
    while True:
        run = soak(seed, options.keys, options.every, deadline)
        totals.events += run.events
        totals.commits += run.commits
        totals.kills += run.kills
        print(f"seed {seed} ({language_of(seed)}): {run.events} events, {run.commits} "
              f"commits checked, {run.kills} hard stops", flush=True)
        if run.failure:
            print("\n".join(run.failure), flush=True)
            return 1
        seed += 1
        if deadline is None or time.monotonic() > deadline:
            break
    print(f"soak: {seed - options.seed} seeds, {totals.events} events, {totals.commits} "
          f"commits checked, {totals.kills} hard stops, "
          f"{(time.monotonic() - began) / 60:.1f} minutes, no failure", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
