"""`sombra-tui bench` (or `python -m tests.tools.bench`): how fast the engine and the app
are at any size. A developer's tool of the checkout, not part of the installed package.

Builds its own synthetic encounter (N characters) and a legal command history
(tests/builders.py) played by a scripted DJ who looks at the state before every
command: declarations aimed at characters who already declared (so they are
prompted), reactions, counter-reactions and chains, declines, DJ overrides,
resolution of every step (opposed, automatic and extended actions included), marks
and many rounds.

Every figure is the MEDIAN of repeated runs:

* engine: replaying the whole history (``Combat(encounter, commands)``);
* undo and redo at several history lengths (a sweep over one checkpoint period,
  so the distance to the nearest checkpoint is averaged out);
* save and load of the encounter file;
* app start to the first full screen (every panel rendered: all the table's rows,
  the log's lines), headless with ``App.run_test``, against a bare Textual app with
  one Static started the same way in the same run (and the app with an empty
  encounter, which shows the fixed cost of its widgets);
* command to screen: the commands that follow the history, run inside the app
  (``MainScreen.run_command``) until the screen has been re-rendered (the end of
  the last compositor refresh they caused). It is counted as CPU time of the app's
  thread, so the idle wait for Textual's next 60 fps frame is not counted; nothing
  is typed, so Pilot's key handling is not counted either;
* the players' view (issue 23): command to screen with the players' page running
  and 0, then 50 pages following it (opened by another process, as browsers are),
  taking turns in one run; and the snapshot's own cost per command;
* issue 24: undo and redo to screen, each after a command, against that command and
  against a command in a baseline app made of stock Textual widgets (Header, a
  DataTable of the characters, a RichLog, a Footer with as many keys), taking turns;
  load against the json parse and validation of the same file; the history's bytes
  per command (commands, log, checkpoints, kept undo states); and the peak memory
  of a fresh process showing the file, against the baseline app's; the demo's cold
  start, spawn to first screen, against the baseline app's, taking turns; and at the
  demo's size (6 characters), a command to screen and the frames it draws, against the
  baseline app's command, taking turns (`--demo` runs only these rows, in seconds).

The results are printed as a table and written as JSON and Markdown. `--record` appends
the run to the history (benchmarks/history.json: date, commit, mode, the machine, each
row's median or ratio and its noise) and rewrites README's table from it (`--readme`
does that alone). Every run compares its demo-size rows with the last recorded runs and
prints WORSE for a row beyond the worst of them by more than this run's noise; with
`--strict` the exit status is then 1 (issue 24 item 6).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import functools
import json
import os
import platform
import pstats
import re
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from sombra_tui.engine import ask
from sombra_tui.engine import commands as c
from sombra_tui.engine.history import CHECKPOINT_EVERY, Combat
from sombra_tui.engine.model import ActionKind, Encounter
from sombra_tui.engine.state import CombatState
from tests.builders import ScriptedDJ, build_encounter, build_history

DEFAULT_OUTPUT = "bench-results"


@dataclass(frozen=True)
class Sizes:
    characters: int
    commands: int
    lengths: tuple[int, ...]
    #: Repeats of each measure (medians are taken over them).
    replay_repeats: int
    undo_sweeps: int
    file_repeats: int
    start_repeats: int
    screen_commands: int
    #: The project's targets are for the full sizes; quick mode only checks it runs.
    targets: bool
    size: tuple[int, int] = (120, 40)
    #: Commands run with the players' page on, in four turns (0, 50, 0, 50 pages).
    players_commands: int = 200
    players_clients: int = 50
    #: Issue 24: commands each followed by its undo and redo, to screen, taking turns
    #: with the stock-widget baseline app's commands (in two halves).
    undo_commands: int = 80
    #: Fresh processes measured for peak memory (each: the app, or the baseline).
    memory_repeats: int = 3
    #: Fresh processes timed from spawn to first screen (each: the demo, the baseline).
    cold_repeats: int = 7
    #: Issue 24: commands at the demo's size (6 characters), to screen, taking turns
    #: (two halves) with as many in the stock-widget baseline app; frames counted.
    demo_commands: int = 200
    #: Seconds a screen is left to settle before and after a dialog's opening is timed.
    settle: float = 0.2
    #: Issue 37 item 7: commands to screen with the forecast computed and without it,
    #: taking turns (FORESIGHT_TURNS each, in fresh apps, continuing one history).
    foresight_commands: int = 480


FULL = Sizes(characters=200, commands=10_000, lengths=(100, 1_000, 10_000),
             replay_repeats=5, undo_sweeps=6, file_repeats=7, start_repeats=7,
             screen_commands=600, targets=True)
QUICK = Sizes(characters=20, commands=500, lengths=(10, 100, 500), replay_repeats=2,
              undo_sweeps=1, file_repeats=2, start_repeats=2, screen_commands=10,
              targets=False, players_commands=8, undo_commands=6, memory_repeats=1,
              cold_repeats=2, demo_commands=12, settle=0.05, foresight_commands=24)


@dataclass
class Row:
    key: str
    label: str
    value: float
    unit: str
    #: The target as text, and whether it is met (None when the row has no target).
    target: str = ""
    met: bool | None = None
    note: str = ""
    #: This run's noise for the row (a share, 0.05 for +/-5%), where it is measured.
    noise: float | None = None


@dataclass
class Report:
    mode: str
    targets: bool
    machine: dict[str, Any]
    sizes: dict[str, Any]
    rows: list[Row] = field(default_factory=list)
    #: "full", "demo" (the demo-size rows alone) or "quick": the history's mode.
    kind: str = "full"

    def add(self, row: Row) -> Row:
        if not self.targets:
            row.target, row.met = "", None
        self.rows.append(row)
        return row


# --------------------------------------------------------------------------- timing helpers


def spread(samples: Sequence[float]) -> float:
    """The run's noise: how far the samples of one measure stray from their median
    (half the range, as a share of the median)."""
    middle = statistics.median(samples)
    return (max(samples) - min(samples)) / 2 / middle if middle else 0.0


def add_ratio(report: Report, key: str, what: str, with_hc: Sequence[float],
              without: Sequence[float], noise: float | None = None) -> None:
    """Issue 14: `what` with sections H and C against the same without them, measured
    taking turns in this run, next to the run's noise (by default the spread of the
    repeats of each measure)."""
    report.add(Row(f"{key}_plain_ms", f"{what} without sections H and C (no weapons, "
                   "wounds or conditions; the baseline)", median_ms(without),
                   "ms CPU" if key == "command_to_screen" else "ms"))
    ratio = statistics.median(with_hc) / statistics.median(without)
    if noise is None:
        noise = max(spread(with_hc), spread(without))
    report.add(Row(f"{key}_hc_ratio", f"{what}: with H and C / without (noise of this run "
                   f"+/-{noise:.0%})", ratio, "x", target=f"<= 1 + noise ({1 + noise:.2f}x)",
                   met=ratio <= 1 + noise, noise=noise))


def median_ms(samples: Sequence[float]) -> float:
    return statistics.median(samples) * 1000


def timed(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


@contextlib.contextmanager
def private_dirs() -> Iterator[Path]:
    """Temporary data and config folders, so the app never touches the real home."""
    from sombra_tui import config

    with tempfile.TemporaryDirectory(prefix="sombra-bench-") as folder, \
            config.folders_under(Path(folder)):
        yield Path(folder)


# --------------------------------------------------------------------------- engine


def bench_engine(report: Report, sizes: Sizes, encounter: Encounter,
                 history: list[c.Command], progress: Callable[[str], None],
                 plain: tuple[Encounter, list[c.Command]] | None = None) -> Combat:
    """Replay, undo and redo. With `plain` (the same sizes without sections H and C),
    its replay takes turns with this one, and the ratio is reported (issue 14)."""
    n = len(history)
    progress(f"replaying {n:,} commands x{sizes.replay_repeats}"
             + (" (and the baseline without H and C)" if plain else ""))
    combat: Combat | None = None
    samples = []
    baseline = []
    for _repeat in range(sizes.replay_repeats):
        start = time.perf_counter()
        combat = Combat(encounter, history)
        samples.append(time.perf_counter() - start)
        if plain is not None:
            start = time.perf_counter()
            Combat(*plain)
            baseline.append(time.perf_counter() - start)
    assert combat is not None
    replay = median_ms(samples)
    events = len(combat.log_view())
    report.add(Row("replay_ms", f"replay {n:,} commands ({sizes.characters} characters, "
                   f"{combat.state.round} rounds, {events:,} events)", replay, "ms",
                   target="< 1000 ms", met=replay < 1000))
    report.add(Row("replay_rate", "replay rate", n / (replay / 1000), "commands/s"))
    if baseline:
        add_ratio(report, "replay", "replay", samples, baseline)

    # The sweeps at each length take turns, so that every length sees the same moments
    # of this shared machine (it speeds up and slows down from one second to the next).
    progress("undo/redo at " + ", ".join(f"{length:,}" for length in sizes.lengths))
    combats = {length: Combat(encounter, history[:length]) for length in sizes.lengths}
    undos: dict[int, list[float]] = {length: [] for length in sizes.lengths}
    redos: dict[int, list[float]] = {length: [] for length in sizes.lengths}
    for _i in range(sizes.undo_sweeps):
        for length, at in combats.items():
            window = min(CHECKPOINT_EVERY, length)
            for _i in range(window):
                undos[length].append(timed(at.undo))
            for _i in range(window):
                redos[length].append(timed(at.redo))
    undo_at: dict[int, float] = {}
    for length in sizes.lengths:
        undo_at[length] = median_ms(undos[length])
        report.add(Row(f"undo_ms_{length}", f"undo at {length:,} commands", undo_at[length],
                       "ms"))
        report.add(Row(f"redo_ms_{length}", f"redo at {length:,} commands",
                       median_ms(redos[length]), "ms"))
    low, high = min(sizes.lengths), max(sizes.lengths)
    ratio = undo_at[high] / undo_at[low]
    report.add(Row("undo_ratio", f"undo at {high:,} / undo at {low:,}", ratio, "x",
                   target="<= 2x", met=ratio <= 2))
    return combat


def bench_files(report: Report, sizes: Sizes, combat: Combat, folder: Path,
                progress: Callable[[str], None]) -> Path:
    import gc

    from sombra_tui.engine import storage

    path = folder / f"bench{storage.FILE_SUFFIX}"
    progress(f"save and load x{sizes.file_repeats}")
    saves = [timed(lambda: storage.save(combat, path)) for _i in range(sizes.file_repeats)]
    loaded: list[Combat] = []  # only the last one is kept (memory, and later GC passes)

    def load() -> None:  # as the app opens it: the snapshot at once, checked after
        loaded[:] = [storage.load(path, background=True)]

    def replay() -> None:  # as before issue 24 item 3 (and files without a snapshot)
        loaded[:] = [storage.load(path)]

    text = path.read_text(encoding="utf-8")
    # As the app wrote it before the snapshot (and as it writes any file without one).
    older = storage.to_save_file(combat).model_dump_json(indent=1, exclude={"snapshot"})

    def parse() -> None:  # issue 24's baseline: what any reading of the file costs
        storage.SaveFile.model_validate_json(text, strict=True)

    def parse_older() -> None:  # the same file without its snapshot
        storage.SaveFile.model_validate_json(older, strict=True)

    loads: list[float] = []
    checked: list[float] = []
    replays: list[float] = []
    parses: list[float] = []
    older_parses: list[float] = []
    def collected(function: Callable[[], object]) -> float:
        # Each measure from a collected heap: else whichever of them happens to trigger
        # the collector's full pass pays for the whole heap (seen: a parse 6x slower).
        gc.collect()
        return timed(function)

    for _i in range(sizes.file_repeats):  # taking turns: the same moments of the machine
        loads.append(collected(load))
        # The check's replay, which the app runs between frames, run here at once (and
        # timed: when the log is there and checked).
        checked.append(loads[-1] + timed(loaded[-1].settle))
        if loaded[-1].state != combat.state or loaded[-1].check_problem is not None:
            raise RuntimeError("bench: the loaded encounter differs from the saved one")
        replays.append(collected(replay))
        parses.append(collected(parse))
        older_parses.append(collected(parse_older))
    if loaded[-1].state != combat.state:
        raise RuntimeError("bench: the loaded encounter differs from the saved one")
    report.add(Row("save_ms", "save (atomic, fsynced)", median_ms(saves), "ms"))
    load = median_ms(loads)
    report.add(Row("load_ms", "load (parse, validate; the state snapshot shown, the "
                   "replay that checks it run later, between frames)", load, "ms",
                   target="< 500 ms", met=load < 500))
    report.add(Row("load_checked_ms", "load and the replay that checks it (the log is "
                   "there)", median_ms(checked), "ms"))
    report.add(Row("load_replay_ms", "load replaying before showing it (as before issue "
                   "24 item 3, and for files without a snapshot)", median_ms(replays), "ms"))
    report.add(Row("load_parse_ms", "json parse and validation of the same file (the "
                   "baseline)", median_ms(parses), "ms"))
    report.add(Row("load_parse_older_ms", "json parse and validation of the same file "
                   "without its snapshot", median_ms(older_parses), "ms"))
    ratio = statistics.median(loads) / statistics.median(parses)
    noise = max(spread(loads), spread(parses))
    report.add(Row("load_parse_ratio", f"load / json parse and validation (noise of this "
                   f"run +/-{noise:.0%})", ratio, "x", target="<= 3x", met=ratio <= 3,
                   noise=noise))
    report.add(Row("load_parse_older_ratio", "load / json parse and validation of the "
                   "file without its snapshot",
                   statistics.median(loads) / statistics.median(older_parses), "x"))
    report.add(Row("load_replay_ratio", "load replaying before showing / json parse and "
                   "validation of the file without its snapshot",
                   statistics.median(replays) / statistics.median(older_parses), "x"))
    report.add(Row("file_kib", "file size", path.stat().st_size / 1024, "KiB"))
    history_memory(report, text)
    return path


def history_memory(report: Report, text: str) -> None:
    """Issue 24: the bytes each command of a loaded history holds (Python's own count,
    tracemalloc), and what they are: the commands with the encounter and the state,
    the log, the checkpoints and the states kept for undo (after one undo)."""
    import gc
    import tracemalloc
    from array import array

    from sombra_tui.engine import storage

    gc.collect()
    tracemalloc.start()
    try:
        combat = storage.loads(text)
        combat.undo()
        combat.redo()
        total = tracemalloc.get_traced_memory()[0]
        parts: dict[str, int] = {}
        for name in ("_before", "_checkpoints", "_events", "_ends", "_serials"):
            held = getattr(combat, name)
            setattr(combat, name, array(held.typecode) if isinstance(held, array)
                    else type(held)())
            del held
            gc.collect()
            parts[name] = total - tracemalloc.get_traced_memory()[0] - sum(parts.values())
        rest = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    count = len(combat.commands) or 1
    report.add(Row("bytes_per_command", f"memory of a loaded history per command "
                   f"({count:,} commands, {total / 2 ** 20:.1f} MiB in all)", total / count,
                   "bytes"))
    for key, label, size in (
            ("bytes_commands", "of which the commands, the encounter and the state", rest),
            ("bytes_log", "of which the log",
             parts["_events"] + parts["_ends"] + parts["_serials"]),
            ("bytes_checkpoints", "of which the checkpoints", parts["_checkpoints"]),
            ("bytes_undo_states", "of which the states kept for undo", parts["_before"])):
        report.add(Row(key, f"{label}, per command", size / count, "bytes"))


# --------------------------------------------------------------------------- app


class _Refreshes:
    """Notes when each screen finishes a compositor refresh (the screen is up to date)."""

    def __init__(self) -> None:
        self.wall: dict[int, float] = {}
        self.cpu: dict[int, float] = {}
        self.first: dict[int, float] = {}
        self.first_cpu: dict[int, float] = {}
        self.watch: Callable[[Any], bool] | None = None
        #: Set after every refresh (waited on without polling, which would cost CPU).
        self.done: asyncio.Event | None = None
        #: Every refresh (frame) painted, of any screen.
        self.frames = 0

    @contextlib.contextmanager
    def installed(self) -> Iterator[_Refreshes]:
        from sombra_tui.textual_compat import compositor_refreshes

        refreshes = self

        def after(screen: Any) -> None:
            key = id(screen)
            refreshes.frames += 1
            refreshes.wall[key] = time.perf_counter()
            refreshes.cpu[key] = time.thread_time()
            if refreshes.done is not None:
                refreshes.done.set()
            if key not in refreshes.first and refreshes.watch is not None and \
                    refreshes.watch(screen):
                refreshes.first[key] = refreshes.wall[key]
                refreshes.first_cpu[key] = refreshes.cpu[key]

        with compositor_refreshes(after):
            yield self


async def _wait_for(condition: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.perf_counter() + timeout
    while not condition():
        if time.perf_counter() > deadline:
            raise RuntimeError("bench: the app did not reach the expected screen in time")
        await asyncio.sleep(0.001)


async def _start_once(make: Callable[[], Any], ready: Callable[[Any], bool],
                      size: tuple[int, int], refreshes: _Refreshes) -> float:
    """Wall time from creating the app to the first refresh of its full first screen."""
    refreshes.watch = ready
    refreshes.first.clear()
    start = time.perf_counter()
    app = make()
    async with app.run_test(headless=True, size=size):
        await _wait_for(lambda: bool(refreshes.first))
        elapsed = min(refreshes.first.values()) - start
    refreshes.watch = None
    _forget_journals()
    return elapsed


def _forget_journals() -> None:
    """An app stopped by the bench leaves its crash journal; the next start must not
    offer to resume it (each start is a clean start)."""
    import shutil

    from sombra_tui import config

    shutil.rmtree(config.journal_dir(), ignore_errors=True)


async def _bench_app(report: Report, sizes: Sizes, combat: Combat,
                     extra: list[c.Command], progress: Callable[[str], None],
                     plain: tuple[Combat, list[c.Command]] | None = None) -> None:
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    from sombra_tui.app import SombraApp
    from sombra_tui.screens.main import MainScreen
    from sombra_tui.session import Session
    from sombra_tui.widgets.initiative_table import InitiativeTable
    from sombra_tui.widgets.resolution_log import ResolutionLog

    class BareApp(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("sombra-tui")

    characters = len(combat.state.characters)
    empty = Combat(Encounter(name="Vacío", characters=combat.encounter.characters[:1]))

    def full_screen(of: Combat) -> Callable[[Any], bool]:
        """The main screen with every panel filled: all the rows, and log lines."""
        def ready(screen: Any) -> bool:
            if not isinstance(screen, MainScreen) or not screen.is_mounted:
                return False
            rows = screen.query_one(InitiativeTable).row_count
            lines = screen.query_one(ResolutionLog).lines
            return rows == len(of.state.characters) and (bool(lines) or not of.log)
        return ready

    def bare_ready(screen: Any) -> bool:
        return bool(screen.query(Static))

    def make_sombra() -> SombraApp:
        # The history already replayed: loading the file is timed on its own above.
        return SombraApp(Session(combat), remember_theme=False, cursor_blink=False,
                     prepare_dialogs=False)

    def make_empty() -> SombraApp:
        return SombraApp(Session(empty), remember_theme=False, cursor_blink=False,
                     prepare_dialogs=False)

    main_ready, empty_ready = full_screen(combat), full_screen(empty)

    refreshes = _Refreshes()
    with refreshes.installed():
        progress(f"app start x{sizes.start_repeats} (and a bare Textual app)")
        # One untimed start each first: imports and CSS caches are not part of the race.
        await _start_once(BareApp, bare_ready, sizes.size, refreshes)
        await _start_once(make_sombra, main_ready, sizes.size, refreshes)
        bare: list[float] = []
        ours: list[float] = []
        fixed: list[float] = []
        for _i in range(sizes.start_repeats):
            bare.append(await _start_once(BareApp, bare_ready, sizes.size, refreshes))
            ours.append(await _start_once(make_sombra, main_ready, sizes.size, refreshes))
            fixed.append(await _start_once(make_empty, empty_ready, sizes.size, refreshes))
        report.add(Row("start_bare_ms", "bare Textual app (one Static) to first screen",
                       median_ms(bare), "ms"))
        report.add(Row("start_empty_ms", "sombra-tui, 1 character and no history, to first "
                       "screen (the fixed cost of its widgets)", median_ms(fixed), "ms"))
        report.add(Row("start_ms", f"sombra-tui ({characters} characters, "
                       f"{len(combat.log_view()):,} events) to first full screen", median_ms(ours),
                       "ms"))
        ratio = statistics.median(ours) / statistics.median(bare)
        report.add(Row("start_ratio", "app start / bare app start", ratio, "x",
                       target="<= 1.5x", met=ratio <= 1.5))

        progress(f"command to screen x{len(extra)}"
                 + (" (taking turns with the baseline without H and C)" if plain else ""))
        samples: list[float] = []
        sync: list[float] = []
        baseline: list[float] = []
        #: The median of each half, per measure: how much the same measure moved
        #: between the two halves is this run's noise.
        halves_of: dict[str, list[float]] = {"hc": [], "plain": []}
        # In halves, taking turns with the baseline, so both see the same moments of
        # this shared machine.
        halves = 2 if plain is not None else 1
        for half in range(halves):
            part = extra[half * len(extra) // halves:(half + 1) * len(extra) // halves]
            before = len(samples)
            await _screen_samples(SombraApp(Session(combat), remember_theme=False,
                                            cursor_blink=False, prepare_dialogs=False),
                                  part, sizes, refreshes, samples, sync)
            halves_of["hc"].append(statistics.median(samples[before:]))
            if plain is not None:
                plain_combat, plain_extra = plain
                part = plain_extra[half * len(plain_extra) // halves:
                                   (half + 1) * len(plain_extra) // halves]
                before = len(baseline)
                await _screen_samples(SombraApp(Session(plain_combat), remember_theme=False,
                                                cursor_blink=False, prepare_dialogs=False),
                                      part, sizes, refreshes, baseline, [])
                halves_of["plain"].append(statistics.median(baseline[before:]))
        screen = median_ms(samples)
        report.add(Row("command_to_screen_ms", f"command to screen ({characters} characters, "
                       f"{len(combat.log_view()):,}-event log)", screen, "ms CPU",
                       target="< 16 ms", met=screen < 16))
        report.add(Row("command_sync_ms", "of which run_command (engine + render_state, wall)",
                       median_ms(sync), "ms"))
        if baseline:
            noise = max(spread(halves_of["hc"]), spread(halves_of["plain"]))
            add_ratio(report, "command_to_screen", "command to screen", samples, baseline,
                      noise)

        progress(f"open the round's dialogs x{sizes.start_repeats + 1}")
        openings = await _dialog_openings(sizes, combat.encounter, refreshes)
        for kind, what, _next in ROUND_DIALOGS:
            first, built, again, other, calls = openings[kind]
            report.add(Row(f"dialog_{kind}_first_ms", f"open the {what} ({characters} "
                           "characters) the first time, prepared while the app was idle, "
                           "to its first screen", first, "ms CPU"))
            report.add(Row(f"dialog_{kind}_again_ms", "open it again (filled anew, for "
                           "the same use), to its first screen", again, "ms CPU"))
            if other is not None:
                report.add(Row(f"dialog_{kind}_other_ms", "open it again for the next "
                               "character (its lists of names filled anew), to its first "
                               "screen", other, "ms CPU"))
            report.add(Row(f"dialog_{kind}_built_ms", "built at the key (the kept dialogs "
                           "dropped, as after a theme change)", built, "ms CPU"))
            report.add(Row(f"dialog_{kind}_first_vs_again", "the first time / again",
                           first / again if again else 0.0, "x", target="<= 1.5x",
                           met=first <= 1.5 * again))
            report.add(Row(f"dialog_{kind}_calls_first_vs_again", "the first time / again, "
                           "in Python function calls (load-independent)", calls, "x",
                           target="<= 1.1x", met=calls <= 1.1))


async def _screen_samples(app: Any, commands: Sequence[c.Command], sizes: Sizes,
                          refreshes: _Refreshes, samples: list[float],
                          sync: list[float]) -> None:
    """Run `commands` in `app` one by one, each from a settled screen to its re-render:
    the CPU time of each goes to `samples`, run_command's wall time to `sync`."""
    async with app.run_test(headless=True, size=sizes.size):
        main = app.main_screen
        await _wait_for(lambda: main.is_mounted and id(main) in refreshes.wall)
        await asyncio.sleep(0.1)
        await _run_commands(app, commands, refreshes, samples, sync)
    _forget_journals()


async def _run_commands(app: Any, commands: Sequence[c.Command], refreshes: _Refreshes,
                        samples: list[float], sync: list[float],
                        settle: float = 0.03) -> None:
    main = app.main_screen
    for command in commands:
        await asyncio.sleep(settle)  # settled: no refresh pending
        key = id(app.screen)
        refreshes.done = asyncio.Event()
        cpu = time.thread_time()
        wall = time.perf_counter()
        if main.run_command(command) is None:
            raise RuntimeError(f"bench: the app refused {command!r}")
        sync.append(time.perf_counter() - wall)
        await asyncio.wait_for(refreshes.done.wait(), 30)
        await asyncio.sleep(0.03)  # any follow-up refresh (e.g. column widths)
        samples.append(refreshes.cpu[key] - cpu)


#: Turns each of the forecast on and off take (issue 37 item 7), alternating.
FORESIGHT_TURNS = 6


@contextlib.contextmanager
def without_foresight() -> Iterator[None]:
    """Issue 37 item 7's baseline: no forecast is computed, neither the table's mark
    (ask.due_now, and rows' own) nor the asalto's "This asalto" lines (forecast). (The
    odds are computed only in the dialogs that roll and for the players' view's prompt,
    none of which a command to the main screen opens.)"""
    from sombra_tui.engine import forecast as forecast_module
    from sombra_tui.engine import rows

    kept = forecast_module.forecast, ask.due_now, rows.due_now
    forecast_module.forecast = lambda state, ahead=forecast_module.AHEAD: []
    ask.due_now = rows.due_now = lambda state: frozenset()
    try:
        yield
    finally:
        forecast_module.forecast, ask.due_now, rows.due_now = kept


async def _bench_foresight(report: Report, sizes: Sizes, combat: Combat,
                           commands: Sequence[c.Command],
                           progress: Callable[[str], None]) -> None:
    """Issue 37 item 7: a command to screen with the forecast computed (the table's mark
    beside whoever has something due, the asalto's forecast lines), against the same
    with the forecast switched off, taking turns (each turn a fresh app continuing the
    history); the noise is how far each measure's turns stray from one another."""
    from sombra_tui.app import SombraApp
    from sombra_tui.session import Session

    characters = len(combat.state.characters)
    progress(f"command to screen x{len(commands)}, with the forecast and without, "
             f"taking turns ({FORESIGHT_TURNS} each)")
    samples: dict[str, list[float]] = {"on": [], "off": []}
    turns_of: dict[str, list[float]] = {"on": [], "off": []}
    parts = 2 * FORESIGHT_TURNS
    refreshes = _Refreshes()
    with refreshes.installed():
        for part in range(parts):
            kind = "on" if part % 2 == 0 else "off"
            chunk = commands[part * len(commands) // parts:(part + 1) * len(commands) // parts]
            if not chunk:
                continue
            measured: list[float] = []
            app = SombraApp(Session(combat), remember_theme=False, cursor_blink=False,
                            prepare_dialogs=False)
            with contextlib.nullcontext() if kind == "on" else without_foresight():
                await _screen_samples(app, chunk, sizes, refreshes, measured, [])
            samples[kind] += measured
            turns_of[kind].append(statistics.median(measured))
    on, off = median_ms(samples["on"]), median_ms(samples["off"])
    noise = max(spread(turns_of["on"]), spread(turns_of["off"]))
    # What the forecast itself costs a command on this state (the table asks who has
    # something due after each one): its CPU time alone, the quickest of repeats, which
    # the machine's load moves far less than a whole command to screen.
    state = combat.state
    due = min(_cpu(lambda: ask.due_now(state)) for _i in range(50))
    report.add(Row("foresight_on_ms", f"command to screen ({characters} characters) with the "
                   "forecast computed (the table's mark, the asalto's lines)", on, "ms CPU"))
    report.add(Row("foresight_off_ms", "the same with the forecast switched off (the "
                   "baseline)", off, "ms CPU"))
    share = f", {due * 1000 / off:.1%} of the baseline's command" if off else ""
    report.add(Row("foresight_due_ms", "of which the table's mark (ask.due_now) alone, the "
                   f"quickest of 50{share}", due * 1000, "ms CPU"))
    ratio = on / off if off else 0.0
    report.add(Row("foresight_ratio", f"command to screen: with the forecast / without "
                   f"(noise of this run +/-{noise:.0%})", ratio, "x",
                   target=f"<= 1 + noise ({1 + noise:.2f}x)", met=ratio <= 1 + noise,
                   noise=noise))


def _cpu(function: Callable[[], object]) -> float:
    start = time.thread_time()
    function()
    return time.thread_time() - start


async def _bench_foresight_only(report: Report, sizes: Sizes,
                                progress: Callable[[str], None]) -> None:
    """`--foresight`: the full size's history, replayed, then issue 37 item 7's rows."""
    progress(f"building {sizes.characters} characters and {sizes.commands:,} commands")
    encounter = build_encounter(sizes.characters)
    history = build_history(encounter, sizes.commands + sizes.foresight_commands)
    combat = Combat(encounter, history[:sizes.commands])
    await _bench_foresight(report, sizes, combat, history[sizes.commands:], progress)


#: Another process holding N pages' event streams open and reading them, as browsers do.
PAGES_SCRIPT = """
import asyncio, sys, aiohttp
async def page(http, url):
    async with http.get(url) as stream:
        async for _chunk in stream.content.iter_any():
            pass
async def main(url, count):
    timeout = aiohttp.ClientTimeout(total=None)
    async with aiohttp.ClientSession(timeout=timeout) as http:
        await asyncio.gather(*(page(http, url) for _ in range(count)))
asyncio.run(main(sys.argv[1], int(sys.argv[2])))
"""


async def _bench_players(report: Report, sizes: Sizes, combat: Combat,
                         commands: list[c.Command], progress: Callable[[str], None]) -> None:
    """Issue 23: the DJ's command to screen with the players' page on and 0 pages, then
    N pages, following it, in four turns (0, N, 0, N) in one app, so both see the same
    moments of this shared machine; then the snapshot's cost per command."""
    from sombra_tui.app import SombraApp
    from sombra_tui.players.server import FAN_OUT_DELAY_S, PlayersServer
    from sombra_tui.session import Session

    count = sizes.players_clients
    progress(f"command to screen with the players' page: 0 and {count} pages "
             f"x{len(commands)}")
    session = Session(combat)
    app = SombraApp(session, remember_theme=False, cursor_blink=False,
                     prepare_dialogs=False)
    samples: dict[int, list[float]] = {0: [], count: []}
    turns: dict[int, list[float]] = {0: [], count: []}
    refreshes = _Refreshes()
    with refreshes.installed():
        async with app.run_test(headless=True, size=sizes.size):
            main = app.main_screen
            await _wait_for(lambda: main.is_mounted and id(main) in refreshes.wall)
            server = PlayersServer(session.players_snapshot, port=0, max_clients=count + 1)
            await server.start()
            session.add_players_watcher(server.changed)
            try:
                quarter = max(1, len(commands) // 4)
                for turn in range(4):
                    part = commands[turn * quarter:(turn + 1) * quarter]
                    pages = count if turn % 2 else 0
                    browsers = None
                    if pages:
                        browsers = await asyncio.create_subprocess_exec(
                            sys.executable, "-c", PAGES_SCRIPT,
                            f"http://127.0.0.1:{server.port}/events", str(pages))
                        await _wait_for(lambda pages=pages: server.clients == pages)
                    await asyncio.sleep(0.2)
                    before = len(samples[pages])
                    # Each command once the pages have had the previous one (the DJ's
                    # commands come seconds apart): what is timed is the DJ's command
                    # and screen, with the pages connected, not the sending itself.
                    await _run_commands(app, part, refreshes, samples[pages], [],
                                        settle=FAN_OUT_DELAY_S + 0.15)
                    turns[pages].append(statistics.median(samples[pages][before:]))
                    if browsers is not None:
                        browsers.kill()
                        await browsers.wait()
                        # The streams of the pages gone end at the next write.
                        while server.clients:
                            server.refresh()
                            await asyncio.sleep(0.01)
            finally:
                await server.stop()
    _forget_journals()
    alone, crowded = samples[0], samples[count]
    noise = max(spread(turns[0]), spread(turns[count]))
    report.add(Row("players_0_ms", "command to screen, the players' page on, 0 pages "
                   "following it", median_ms(alone), "ms CPU"))
    report.add(Row(f"players_{count}_ms", f"command to screen, {count} pages following it "
                   "(another process)", median_ms(crowded), "ms CPU"))
    ratio = statistics.median(crowded) / statistics.median(alone)
    report.add(Row("players_ratio", f"{count} pages / 0 pages (noise of this run "
                   f"+/-{noise:.0%})", ratio, "x", target=f"<= 1 + noise ({1 + noise:.2f}x)",
                   met=ratio <= 1 + noise, noise=noise))
    costs = []
    for _i in range(max(5, sizes.replay_repeats)):
        costs.append(timed(lambda: ask.players_view(
            combat.state, combat.log_view(), combat.revision).model_dump_json()))
    characters = len(combat.state.characters)
    report.add(Row("players_snapshot_ms", f"the players' snapshot per command ({characters} "
                   f"characters, {len(combat.log_view()):,}-event log; built and encoded once for "
                   "every page)", median_ms(costs), "ms"))


async def _bench_undo(report: Report, sizes: Sizes, combat: Combat,
                      commands: list[c.Command], progress: Callable[[str], None]) -> None:
    """Issue 24: each command to screen, then its undo key to screen, then its redo,
    each from a settled screen, in the app; taking turns (two halves) with commands
    in the stock-widget baseline app."""
    from sombra_tui.app import SombraApp
    from sombra_tui.keys import Scope, bindings
    from sombra_tui.session import Session
    from sombra_tui.widgets.formatting import Palette, event_text
    from tests.tools.bench_stock import stock_app

    progress(f"command, undo and redo to screen x{len(commands)} (taking turns with "
             "the stock-widget baseline app)")
    samples: dict[str, list[float]] = {"command": [], "undo": [], "redo": [], "stock": []}
    halves_of: dict[str, list[float]] = {key: [] for key in samples}
    keys = sum(1 for binding in bindings(Scope.MAIN) if binding.show)
    lines = [event_text(event, Palette()).plain for event in combat.log_view()[-60:]]
    refreshes = _Refreshes()

    async def to_screen(app: Any, kind: str, action: Callable[[], object]) -> None:
        await asyncio.sleep(0.03)  # settled: no refresh pending
        key = id(app.screen)
        refreshes.done = asyncio.Event()
        cpu = time.thread_time()
        action()
        await asyncio.wait_for(refreshes.done.wait(), 30)
        await asyncio.sleep(0.03)  # any follow-up refresh
        samples[kind].append(refreshes.cpu[key] - cpu)

    async def ours(part: list[c.Command]) -> None:
        app = SombraApp(Session(combat), remember_theme=False, cursor_blink=False,
                     prepare_dialogs=False)
        async with app.run_test(headless=True, size=sizes.size):
            main = app.main_screen
            await _wait_for(lambda: main.is_mounted and id(main) in refreshes.wall)
            await asyncio.sleep(0.1)
            for command in part:
                await to_screen(app, "command",
                                lambda command=command: main.run_command(command))
                await to_screen(app, "undo", main.action_undo)
                await to_screen(app, "redo", main.action_redo)
        _forget_journals()

    async def baseline(count: int) -> None:
        stock = stock_app(len(combat.state.characters), keys, lines)
        async with stock.run_test(headless=True, size=sizes.size):
            await _wait_for(lambda: id(stock.screen) in refreshes.wall)
            await asyncio.sleep(0.1)
            for number in range(count):
                await to_screen(stock, "stock", lambda number=number: stock.command(number))

    with refreshes.installed():
        for half in range(2):
            part = commands[half * len(commands) // 2:(half + 1) * len(commands) // 2]
            before = {key: len(values) for key, values in samples.items()}
            await ours(part)
            await baseline(len(part))
            for key, values in samples.items():
                halves_of[key].append(statistics.median(values[before[key]:]))
    characters, length = len(combat.state.characters), len(combat.commands)
    report.add(Row("stock_command_ms", f"a command to screen in the stock-widget baseline "
                   f"app ({characters} rows)", median_ms(samples["stock"]), "ms CPU"))
    report.add(Row("undo_command_ms", f"a command to screen, taking turns with its undo and "
                   f"redo ({characters} characters, {length:,}-command history)",
                   median_ms(samples["command"]), "ms CPU"))
    for kind in ("undo", "redo"):
        report.add(Row(f"{kind}_to_screen_ms", f"{kind} key to screen, after that command",
                       median_ms(samples[kind]), "ms CPU"))
        noise = max(spread(halves_of[kind]), spread(halves_of["command"]))
        ratio = statistics.median(samples[kind]) / statistics.median(samples["command"])
        report.add(Row(f"{kind}_command_ratio", f"{kind} / a command (noise of this run "
                       f"+/-{noise:.0%})", ratio, "x", target=f"<= 1 + noise "
                       f"({1 + noise:.2f}x)", met=ratio <= 1 + noise, noise=noise))
        ratio = statistics.median(samples[kind]) / statistics.median(samples["stock"])
        report.add(Row(f"{kind}_stock_ratio", f"{kind} / a baseline app's command", ratio,
                       "x"))


async def _bench_opened_undo(report: Report, sizes: Sizes, path: Path,
                             progress: Callable[[str], None]) -> None:
    """Issue 41 item 6: the first undo key after opening a long file as `sombra-tui FILE`
    does (Session.open: the stored state shown, checked between frames), to screen,
    against the second undo and a command in the stock-widget baseline app, taking
    turns (a fresh app each time: the first undo happens once per opening)."""
    from sombra_tui.app import SombraApp
    from sombra_tui.engine import storage
    from sombra_tui.keys import Scope, bindings
    from sombra_tui.session import Session
    from sombra_tui.widgets.formatting import Palette, event_text
    from tests.tools.bench_stock import stock_app

    progress(f"first undo after opening the file x{sizes.start_repeats} (taking turns "
             "with the stock-widget baseline app)")
    combat = storage.load(path)
    samples: dict[str, list[float]] = {"first": [], "second": [], "stock": []}
    keys = sum(1 for binding in bindings(Scope.MAIN) if binding.show)
    lines = [event_text(event, Palette()).plain for event in combat.log_view()[-60:]]
    refreshes = _Refreshes()

    async def to_screen(app: Any, kind: str, action: Callable[[], object]) -> None:
        await asyncio.sleep(0.03)  # settled: no refresh pending
        key = id(app.screen)
        refreshes.done = asyncio.Event()
        cpu = time.thread_time()
        action()
        await asyncio.wait_for(refreshes.done.wait(), 30)
        await asyncio.sleep(0.03)  # any follow-up refresh
        samples[kind].append(refreshes.cpu[key] - cpu)

    async def opened() -> None:
        app = SombraApp(Session.open(path), remember_theme=False, cursor_blink=False,
                        prepare_dialogs=False)
        async with app.run_test(headless=True, size=sizes.size):
            main = app.main_screen
            await _wait_for(lambda: main.is_mounted and id(main) in refreshes.wall)
            # The file's check, run between frames once the screen is up.
            await _wait_for(lambda: not app.session.combat.checking, timeout=120)
            await app.workers.wait_for_complete()
            await asyncio.sleep(0.1)
            await to_screen(app, "first", main.action_undo)
            await to_screen(app, "second", main.action_undo)
        _forget_journals()

    async def baseline() -> None:
        stock = stock_app(len(combat.state.characters), keys, lines)
        async with stock.run_test(headless=True, size=sizes.size):
            await _wait_for(lambda: id(stock.screen) in refreshes.wall)
            await asyncio.sleep(0.1)
            for number in range(2):
                await to_screen(stock, "stock", lambda number=number: stock.command(number))

    with refreshes.installed():
        for _i in range(sizes.start_repeats):
            await opened()
            await baseline()
    first, second = median_ms(samples["first"]), median_ms(samples["second"])
    noise = spread(samples["second"])
    report.add(Row("opened_first_undo_ms", "the first undo key to screen after opening the "
                   f"{len(combat.commands):,}-command file", first, "ms CPU"))
    report.add(Row("opened_second_undo_ms", "the second undo key to screen after opening it",
                   second, "ms CPU"))
    ratio = first / second
    report.add(Row("opened_undo_ratio", f"first / second undo after opening (noise of this "
                   f"run +/-{noise:.0%})", ratio, "x", target=f"<= 1 + noise "
                   f"({1 + noise:.2f}x)", met=ratio <= 1 + noise, noise=noise))
    report.add(Row("opened_undo_stock_ratio", "first undo after opening / a baseline app's "
                   "command", first / median_ms(samples["stock"]), "x"))


DEMO_CHARACTERS = 6


async def _bench_demo(report: Report, sizes: Sizes, progress: Callable[[str], None]) -> None:
    """Issue 24: at the demo's size, each command to its settled screen (CPU) and the
    frames it drew, in the app and in the stock-widget baseline app, taking turns (two
    halves, each in a fresh app)."""
    from sombra_tui.app import SombraApp
    from sombra_tui.keys import Scope, bindings
    from sombra_tui.session import Session
    from sombra_tui.widgets.formatting import Palette, event_text
    from tests.tools.bench_stock import stock_app

    count = sizes.demo_commands
    progress(f"demo ({DEMO_CHARACTERS} characters): command to screen and frames "
             f"x{count} (taking turns with the stock-widget baseline app)")
    encounter = build_encounter(DEMO_CHARACTERS)
    history = build_history(encounter, 20 + count)
    combat = Combat(encounter, history[:20])
    keys = sum(1 for binding in bindings(Scope.MAIN) if binding.show)
    lines = [event_text(event, Palette()).plain for event in combat.log_view()[-60:]]
    cpu: dict[str, list[float]] = {"app": [], "stock": []}
    frames: dict[str, list[int]] = {"app": [], "stock": []}
    halves_of: dict[str, list[float]] = {"app": [], "stock": []}
    refreshes = _Refreshes()

    async def to_screen(app: Any, kind: str, action: Callable[[], object]) -> None:
        await asyncio.sleep(0.03)  # settled: no refresh pending
        key = id(app.screen)
        refreshes.done = asyncio.Event()
        drawn = refreshes.frames
        start = time.thread_time()
        if action() is None and kind == "app":
            raise RuntimeError("bench: the app refused a demo command")
        await asyncio.wait_for(refreshes.done.wait(), 30)
        await asyncio.sleep(0.05)  # any follow-up refresh (the footer, a scrollbar)
        cpu[kind].append(refreshes.cpu[key] - start)
        frames[kind].append(refreshes.frames - drawn)

    with refreshes.installed():
        for half in range(2):
            part = history[20 + half * count // 2:20 + (half + 1) * count // 2]
            before = {kind: len(values) for kind, values in cpu.items()}
            app = SombraApp(Session(combat), remember_theme=False, cursor_blink=False,
                     prepare_dialogs=False)
            async with app.run_test(headless=True, size=sizes.size):
                main = app.main_screen
                await _wait_for(lambda main=main: main.is_mounted
                                and id(main) in refreshes.wall)
                await asyncio.sleep(0.1)
                for command in part:
                    await to_screen(app, "app",
                                    lambda command=command, main=main:
                                    main.run_command(command))
            _forget_journals()
            stock = stock_app(DEMO_CHARACTERS, keys, lines)
            async with stock.run_test(headless=True, size=sizes.size):
                await _wait_for(lambda stock=stock: id(stock.screen) in refreshes.wall)
                await asyncio.sleep(0.1)
                for number in range(len(part)):
                    await to_screen(stock, "stock",
                                    lambda number=number, stock=stock:
                                    stock.command(number) or True)
            for kind, values in cpu.items():
                halves_of[kind].append(statistics.median(values[before[kind]:]))
    report.add(Row("demo_command_ms", f"demo ({DEMO_CHARACTERS} characters): a command to "
                   "the settled screen", median_ms(cpu["app"]), "ms CPU"))
    report.add(Row("demo_stock_command_ms", "demo: a command to screen in the stock-widget "
                   "baseline app", median_ms(cpu["stock"]), "ms CPU"))
    noise = max(spread(halves_of["app"]), spread(halves_of["stock"]))
    ratio = statistics.median(cpu["app"]) / statistics.median(cpu["stock"])
    report.add(Row("demo_command_ratio", f"demo: app / baseline command (noise of this run "
                   f"+/-{noise:.0%})", ratio, "x", target="<= 0.9x", met=ratio <= 0.9,
                   noise=noise))
    drawn = statistics.median(frames["app"])
    report.add(Row("demo_frames", "demo: frames drawn per command (median; mean "
                   f"{statistics.fmean(frames['app']):.2f}, most "
                   f"{max(frames['app'])})", drawn, "frames", target="1", met=drawn <= 1,
                   noise=0.0))
    report.add(Row("demo_stock_frames", "demo: frames drawn per baseline command (median; "
                   f"mean {statistics.fmean(frames['stock']):.2f})",
                   statistics.median(frames["stock"]), "frames"))


#: A fresh process: the app (or the baseline app) with the file's combat, headless, to
#: its first screen; prints its peak resident memory in KiB.
MEMORY_SCRIPT = """
import asyncio, json, resource, sys
async def main(kind, path, keys):
    if kind.startswith("app"):
        from sombra_tui.app import SombraApp
        from sombra_tui.session import Session
        app = SombraApp(Session.open(path), remember_theme=False, cursor_blink=False,
                        prepare_dialogs=kind == "app")
    else:  # the baseline: stock widgets, the same file read with the json module
        from tests.tools.bench_stock import stock_app
        with open(path, encoding="utf-8") as stream:
            data = json.load(stream)
        lines = [json.dumps(command) for command in data["commands"][-60:]]
        app = stock_app(len(data["encounter"]["characters"]), keys, lines)
    async with app.run_test(headless=True, size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()  # the app: its file's check done, log shown
        await pilot.pause()
        if kind == "app":  # and the round's dialogs built, as they are seconds after start
            while not app.main_screen.round_dialogs_prepared():
                await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
# The process's own peak: VmHWM (ru_maxrss would carry the parent's over exec on Linux).
try:
    with open("/proc/self/status", encoding="ascii") as status:
        print(next(line.split()[1] for line in status if line.startswith("VmHWM:")))
except (OSError, StopIteration):
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


#: A fresh process (issue 24, cold start): the demo (or the baseline app with as many
#: characters and keys), headless at 120x40; prints the monotonic clock (system-wide, so
#: the parent's spawn time compares with it) when the first screen with every row of the
#: table has been drawn, and stops there.
COLD_SCRIPT = """
import asyncio, os, sys, time
kind, characters, keys = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
# First thing, as `sombra-tui` does: cli.main pauses the collector before it imports
# Textual and the app, which "file" imports here, before calling cli.main (paused after
# them, its imports were timed with the collector on, about 40 ms more than the DJ's).
if kind in ("app", "file"):
    import sombra_tui
    sombra_tui.pause_gc_for_start()
from textual.screen import Screen
if kind == "file":  # `sombra-tui FILE` itself (cli.main), its app run headless
    import functools
    from sombra_tui import cli
    from sombra_tui.app import SombraApp
    SombraApp.run = functools.partialmethod(SombraApp.run, headless=True, size=(120, 40))
    TABLE = "InitiativeTable"
elif kind == "app":
    from sombra_tui.app import SombraApp
    app = SombraApp(remember_theme=False, cursor_blink=False)  # as `sombra-tui` starts
    TABLE = "InitiativeTable"
else:
    if kind == "floor":  # the models a first screen of the demo's state must hold
        import sombra_tui.engine.state
    from tests.tools.bench_stock import stock_app
    app = stock_app(characters, keys, [])
    TABLE = "DataTable"
original = Screen._compositor_refresh
def hooked(screen):
    original(screen)
    if any(getattr(table, "row_count", 0) >= characters
           for table in screen.query(TABLE)):
        os.write(1, f"{time.monotonic()}\\n".encode())  # Textual captures print
        os._exit(0)
Screen._compositor_refresh = hooked
async def main():
    async with app.run_test(headless=True, size=(120, 40)):
        await asyncio.sleep(60)
if kind == "file":
    cli.main([sys.argv[4]])
else:
    asyncio.run(main())
"""


def cold_start(kind: str, characters: int, keys: int, path: Path | None = None) -> float:
    """Seconds from spawning a fresh Python process to its first full screen. Each in
    empty data and config folders of its own: the DJ's first start (its crash journal
    written, no journal left by an earlier one to offer)."""
    import subprocess

    from sombra_tui import config

    with tempfile.TemporaryDirectory(prefix="sombra-cold-") as folder:
        # Without PYTHONDONTWRITEBYTECODE: the untimed first start writes sombra-tui's
        # bytecode, as installing it does (pip compiles it; Textual's already is), so the
        # timed starts read it, as the DJ's do. Inherited, every start compiled our
        # ~60 modules from source (about 130 ms) and the baseline none of its.
        env = {**{name: value for name, value in os.environ.items()
                  if name != "PYTHONDONTWRITEBYTECODE"},
               config.DATA_DIR_ENV: str(Path(folder) / "data"),
               config.CONFIG_DIR_ENV: str(Path(folder) / "config")}
        start = time.monotonic()
        done = subprocess.run([sys.executable, "-c", COLD_SCRIPT, kind, str(characters),
                               str(keys), *([str(path)] if path else [])],
                              capture_output=True, text=True, check=True,
                              timeout=120, env=env, cwd=ROOT)  # its baseline: tests.tools
        return float(done.stdout.split()[-1]) - start


def bench_cold_start(report: Report, sizes: Sizes, progress: Callable[[str], None]) -> None:
    """Issue 24 item 5: the demo's cold start, spawn to first screen (imports included),
    against the stock-widget baseline app with as many characters and keys, taking
    turns; the noise is how far the two halves' medians moved."""
    from sombra_tui.demo import demo_encounter
    from sombra_tui.keys import Scope, bindings

    progress(f"cold start of the demo x{sizes.cold_repeats} (and the baseline)")
    characters = len(demo_encounter().characters)
    keys = sum(1 for binding in bindings(Scope.MAIN) if binding.show)
    # "floor": the baseline app that first imports pydantic and the engine's state
    # models, without which no first screen of the demo's state can be drawn: the least
    # this design's cold start can be.
    times: dict[str, list[float]] = {"app": [], "stock": [], "floor": []}
    for kind in times:  # one untimed start each: the disk's caches warm
        cold_start(kind, characters, keys)
    for _i in range(sizes.cold_repeats):
        for kind in times:
            times[kind].append(cold_start(kind, characters, keys))
    app, stock = median_ms(times["app"]), median_ms(times["stock"])
    half = max(1, sizes.cold_repeats // 2)
    noise = max(spread([statistics.median(samples[:half]), statistics.median(samples[half:])])
                if len(samples) > 1 else 0.0 for samples in times.values())
    report.add(Row("cold_start_ms", f"cold start of the demo ({characters} characters), "
                   "spawn to first screen", app, "ms"))
    report.add(Row("cold_start_stock_ms", "cold start of the stock-widget baseline app, "
                   "spawn to first screen", stock, "ms"))
    report.add(Row("cold_start_ratio", f"demo / baseline cold start (noise of this run "
                   f"+/-{noise:.0%})", app / stock, "x", target="<= 1.3x",
                   met=app / stock <= 1.3, noise=noise))
    floor = median_ms(times["floor"])
    report.add(Row("cold_start_floor_ratio", "the baseline importing pydantic and the "
                   "engine's state models first / the baseline: the least a first screen "
                   "of pydantic models can start in", floor / stock, "x"))
    report.add(Row("cold_start_own_ratio", "demo / that floor: what the app adds to the "
                   "models it must hold", app / floor, "x"))


def bench_cold_start_file(report: Report, sizes: Sizes, path: Path, characters: int,
                          progress: Callable[[str], None]) -> None:
    """Issue 41 item 6: `sombra-tui FILE` with the long file, spawn to its first full
    screen (every row of the table), against the stock-widget baseline app with as many
    rows and keys, taking turns."""
    from sombra_tui.keys import Scope, bindings

    progress(f"cold start of sombra-tui FILE x{sizes.cold_repeats} (and the baseline)")
    keys = sum(1 for binding in bindings(Scope.MAIN) if binding.show)
    times: dict[str, list[float]] = {"file": [], "stock": []}
    for kind in times:  # one untimed start each: the disk's caches warm
        cold_start(kind, characters, keys, path)
    for _i in range(sizes.cold_repeats):
        for kind in times:
            times[kind].append(cold_start(kind, characters, keys, path))
    app, stock = median_ms(times["file"]), median_ms(times["stock"])
    half = max(1, sizes.cold_repeats // 2)
    noise = max(spread([statistics.median(samples[:half]), statistics.median(samples[half:])])
                if len(samples) > 1 else 0.0 for samples in times.values())
    report.add(Row("cold_start_file_ms", "cold start of sombra-tui FILE (the long file), "
                   "spawn to first full screen", app, "ms"))
    report.add(Row("cold_start_file_stock_ms", f"cold start of the stock-widget baseline "
                   f"app ({characters} rows), spawn to first screen", stock, "ms"))
    report.add(Row("cold_start_file_ratio", f"sombra-tui FILE / baseline cold start (noise "
                   f"of this run +/-{noise:.0%})", app / stock, "x", noise=noise))


def bench_memory(report: Report, sizes: Sizes, path: Path,
                 progress: Callable[[str], None]) -> None:
    """Issue 24: the peak memory of a fresh process showing the file in the app, against
    the stock-widget baseline app given the same file (parsed and validated), taking
    turns."""
    import subprocess

    from sombra_tui.keys import Scope, bindings

    progress(f"peak memory of a fresh process x{sizes.memory_repeats} (and the baseline)")
    keys = str(sum(1 for binding in bindings(Scope.MAIN) if binding.show))
    peaks: dict[str, list[float]] = {"app": [], "stock": [], "app-unprepared": []}
    for _i in range(sizes.memory_repeats):
        for kind in peaks:
            # The data and config folders are the bench's own (private_dirs, inherited).
            # Each a clean start: the app measured before left its crash journal (the
            # DJ's quit discards it), and replaying it would be measured too.
            _forget_journals()
            done = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, kind, str(path),
                                   keys], capture_output=True, text=True, check=True,
                                  timeout=300, cwd=ROOT)  # its baseline: tests.tools
            peaks[kind].append(int(done.stdout.split()[-1]) / 1024)
    app, stock = statistics.median(peaks["app"]), statistics.median(peaks["stock"])
    report.add(Row("memory_app_mib", "peak memory of the app showing the file (a fresh "
                   "process)", app, "MiB"))
    report.add(Row("memory_stock_mib", "peak memory of the stock-widget baseline app given "
                   "the same file", stock, "MiB"))
    report.add(Row("memory_ratio", "app / baseline peak memory", app / stock, "x",
                   target="<= 1.8x", met=app / stock <= 1.8))
    unprepared = statistics.median(peaks["app-unprepared"])
    report.add(Row("memory_app_unprepared_mib", "peak memory of the app showing the file, "
                   "the round's dialogs not built ahead (issue 21)", unprepared, "MiB"))


#: The round's dialogs (issue 21 item 3) and the next step that opens each.
ROUND_DIALOGS = (("declaration", "declaration dialog", "declare"),
                 ("reaction", "reacción dialog", "react"),
                 ("ta", "TA dialog", "resolve"),
                 ("hit", "hit proposal", "settle_hit"))


def _opens(state: CombatState, kind: str) -> bool:
    """Whether the next step in `state` opens the round's dialog `kind` (for the TA: a
    plain TA, neither automatic nor opposed, for everyone in the acting group)."""
    step = ask.next_step(state)
    if kind != "ta":
        return step.kind.value == dict((k, n) for k, _w, n in ROUND_DIALOGS)[kind]
    return step.kind is ask.NextKind.RESOLVE and all(
        state.step_action(s).kind is not ActionKind.AUTOMATIC
        and ask.opposition_of(state, s) is None for s in step.group)


def dialog_states(encounter: Encounter, seed: int = 2) -> dict[str, list[c.Command]]:
    """For each of the round's dialogs, the first history of the scripted DJ after which
    the next step opens it."""
    dj = ScriptedDJ(seed)
    combat = Combat(encounter)
    history: list[c.Command] = []
    found: dict[str, list[c.Command]] = {}
    while len(found) < len(ROUND_DIALOGS) and len(history) < 5_000:
        for kind, _what, _next in ROUND_DIALOGS:
            if kind not in found and _opens(combat.state, kind):
                found[kind] = list(history)
        command = dj.next_command(combat.state)
        combat.execute(command)
        history.append(command)
    if len(found) < len(ROUND_DIALOGS):
        missing = [kind for kind, _what, _next in ROUND_DIALOGS if kind not in found]
        raise RuntimeError(f"bench: the scripted DJ never opened {missing}")
    return found


def _shown(screen: Any, refreshes: _Refreshes) -> bool:
    """Whether `screen` is mounted and was drawn."""
    return bool(screen.is_mounted and id(screen) in refreshes.wall)


async def _dialog_openings(sizes: Sizes, encounter: Encounter, refreshes: _Refreshes
                           ) -> dict[str, tuple[float, float, float, float | None, float]]:
    """CPU time from the DJ's key for each of the round's dialogs to its first full
    screen: the wait the DJ has at every declaration, reacción, TA and hit. In an app
    as the DJ runs it, the dialogs are built unshown once the first screen is up, so
    the first opening shows a prepared dialog; the next ones show it again, filled anew
    (DialogShelf), for the same use. The declaration is also opened again for the next
    declarer each time (the DJ's next declaration: another character's, whose lists
    of the others' names differ), the previous one declared by the dialog's result.
    For comparison, one more opening once the kept dialogs are dropped (as after a
    theme change): the dialog built at the key. Each opening waits for the dialog to
    settle before it is closed, as the DJ's typing does. Returns, for each dialog:
    (first opening, prepared; built at the key; median of the next ones for the same
    use; median of the next ones for another character, or None where not timed; the
    first opening's function calls over the mean of the next two's, counted apart)."""
    from sombra_tui.app import SombraApp
    from sombra_tui.screens import preparing as main_screen
    from sombra_tui.session import Session

    async def opening(app: SombraApp, result: Callable[[], c.Command | None] = lambda: None,
                      calls: list[int] | None = None) -> float:
        """The CPU time of one opening; with `calls`, counted under a profiler instead:
        the Python function calls made from the key to the first screen are appended."""
        main = app.main_screen
        await asyncio.sleep(sizes.settle)  # the main screen settled
        refreshes.first.clear()
        refreshes.first_cpu.clear()
        refreshes.watch = lambda screen: screen is not main
        profile = cProfile.Profile() if calls is not None else None
        cpu = time.thread_time()
        if profile is not None:
            profile.enable()
        main.action_next_step()  # as the DJ's space does
        await _wait_for(lambda: bool(refreshes.first_cpu))
        if profile is not None:
            profile.disable()
            assert calls is not None
            calls.append(pstats.Stats(profile).total_calls)  # type: ignore[attr-defined]
        await asyncio.sleep(sizes.settle)  # settled, as while the DJ types
        app.screen.dismiss(result())
        return (next(iter(refreshes.first_cpu.values())) - cpu) * 1000

    def inaction(app: SombraApp) -> c.Command:
        """The shown declaration's declarer declares inaction (the next declarer's
        declaration opens next)."""
        state = app.main_screen.state
        assert state.current_declarer is not None
        return c.Declare(character=state.current_declarer, actions=[], affected=[])

    @contextlib.asynccontextmanager
    async def prepared(history: list[c.Command]) -> AsyncIterator[SombraApp]:
        """The app at `history`'s state, its first screen drawn, its dialogs prepared."""
        app = SombraApp(Session(Combat(encounter, history)), remember_theme=False,
                        cursor_blink=False)
        async with app.run_test(headless=True, size=sizes.size):
            await _wait_for(functools.partial(_shown, app.main_screen, refreshes))
            await _wait_for(app.main_screen.round_dialogs_prepared, timeout=120)
            yield app
        refreshes.watch = None
        _forget_journals()

    # Prepared at once rather than half a second after the first screen: the openings
    # are timed, not the wait before them.
    timers = main_screen.PREPARE_AFTER, main_screen.PREPARE_EVERY
    main_screen.PREPARE_AFTER = main_screen.PREPARE_EVERY = 0.01
    results: dict[str, tuple[float, float, float, float | None, float]] = {}
    try:
        for kind, history in dialog_states(encounter).items():
            async with prepared(history) as app:
                main = app.main_screen
                samples = [await opening(app) for _i in range(sizes.start_repeats + 1)]
                others: list[float] = []
                if kind == "declaration":
                    await opening(app, functools.partial(inaction, app))
                    for _i in range(sizes.start_repeats):
                        if not _opens(main.state, kind):
                            raise RuntimeError("bench: no next declarer to time")
                        others.append(await opening(app, functools.partial(inaction, app)))
                await asyncio.sleep(sizes.settle)
                main.shelf.clear()
                built = await opening(app)
            # The same openings counted (a second app, as the first opening happens once):
            # the function calls of the first one and of the next two, which the load of
            # a shared machine does not move as it moves their CPU time.
            calls: list[int] = []
            async with prepared(history) as app:
                for _i in range(3):
                    await opening(app, calls=calls)
            results[kind] = (samples[0], built, statistics.median(samples[1:]),
                             statistics.median(others) if others else None,
                             calls[0] / statistics.mean(calls[1:]))
    finally:
        main_screen.PREPARE_AFTER, main_screen.PREPARE_EVERY = timers
    return results


# --------------------------------------------------------------------------- report


def machine_info() -> dict[str, Any]:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        "cores": os.cpu_count(),
    }


def _format_value(row: Row) -> str:
    if row.unit == "commands/s":
        return f"{row.value:,.0f}"
    if row.unit == "x":
        return f"{row.value:.2f}"
    if row.value >= 100:
        return f"{row.value:,.0f}"
    return f"{row.value:.2f}"


def table_lines(report: Report, markdown: bool) -> list[str]:
    header = ("measure", "median", "unit", "target", "met")
    body = [(row.label, _format_value(row), row.unit, row.target,
             "" if row.met is None else ("yes" if row.met else "NO")) for row in report.rows]
    if markdown:
        lines = ["| " + " | ".join(header) + " |",
                 "| --- | ---: | --- | --- | --- |"]
        lines += ["| " + " | ".join(cell.strip() for cell in line) + " |" for line in body]
        return lines
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]
    lines = ["  ".join(cell.rjust(widths[i]) if i == 1 else cell.ljust(widths[i])
                       for i, cell in enumerate(line)).rstrip() for line in [header, *body]]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return lines


def machine_line(report: Report) -> str:
    info = report.machine
    return (f"{info['cores']} cores, {info['implementation']} {info['python']}, "
            f"{info['platform']} ({report.mode} mode)")


def write_outputs(report: Report, output: Path) -> tuple[Path, Path]:
    base = output.with_suffix("") if output.suffix in (".json", ".md") else output
    base.parent.mkdir(parents=True, exist_ok=True)
    json_path = base.with_name(base.name + ".json")
    md_path = base.with_name(base.name + ".md")
    data = {"mode": report.mode, "machine": report.machine, "sizes": report.sizes,
            "rows": [asdict(row) for row in report.rows]}
    json_path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                         encoding="utf-8")
    md = [f"Machine: {machine_line(report)}", "", *table_lines(report, markdown=True), ""]
    md_path.write_text("\n".join(md), encoding="utf-8")
    return json_path, md_path


def run(quick: bool = False, progress: Callable[[str], None] | None = None, *,
        demo: bool = False, foresight: bool = False) -> Report:
    sizes = QUICK if quick else FULL
    say = progress or (lambda message: None)
    report = Report(mode=("quick" if quick else "full") + (", demo rows" if demo else "")
                    + (", foresight rows" if foresight else ""),
                    targets=sizes.targets, machine=machine_info(), sizes=asdict(sizes),
                    kind="quick" if quick else "demo" if demo else
                    "foresight" if foresight else "full")
    if foresight:  # only issue 37 item 7's rows, at the full size's history
        speed = [timed(python_workload) for _i in range(5)]
        with private_dirs():
            asyncio.run(_bench_foresight_only(report, sizes, say))
        speed += [timed(python_workload) for _i in range(5)]
        report.rows.insert(0, machine_speed_row(speed))
        return report
    if demo:  # only the demo-size rows (issue 24), in seconds
        speed = [timed(python_workload) for _i in range(5)]
        with private_dirs():
            asyncio.run(_bench_demo(report, sizes, say))
        speed += [timed(python_workload) for _i in range(5)]
        report.rows.insert(0, machine_speed_row(speed))
        return report
    say(f"building {sizes.characters} characters and {sizes.commands:,} commands")
    encounter = build_encounter(sizes.characters)
    history = build_history(encounter, sizes.commands + sizes.screen_commands
                            + sizes.foresight_commands + sizes.players_commands
                            + sizes.undo_commands)
    foresight_end = sizes.commands + sizes.screen_commands + sizes.foresight_commands
    players_end = foresight_end + sizes.players_commands
    history, extra, foreseen, players, undo = (
        history[:sizes.commands],
        history[sizes.commands:sizes.commands + sizes.screen_commands],
        history[sizes.commands + sizes.screen_commands:foresight_end],
        history[foresight_end:players_end],
        history[players_end:])
    # Issue 14's baseline: the same scripted DJ on the same sizes, without sections H
    # and C (no weapons, so no hits; no heals, attends or conditions).
    plain_encounter = build_encounter(sizes.characters, hc=False)
    plain_history = build_history(plain_encounter, sizes.commands + sizes.screen_commands,
                                  hc=False)
    plain_history, plain_extra = (plain_history[:sizes.commands],
                                  plain_history[sizes.commands:])
    speed = [timed(python_workload) for _i in range(5)]
    with private_dirs() as folder:
        combat = bench_engine(report, sizes, encounter, history, say,
                              plain=(plain_encounter, plain_history))
        path = bench_files(report, sizes, combat, folder, say)
        asyncio.run(_bench_app(report, sizes, combat, extra, say,
                               plain=(Combat(plain_encounter, plain_history), plain_extra)))
        asyncio.run(_bench_foresight(report, sizes, combat, foreseen, say))
        asyncio.run(_bench_players(report, sizes, combat, players, say))
        asyncio.run(_bench_undo(report, sizes, combat, undo, say))
        asyncio.run(_bench_opened_undo(report, sizes, path, say))
        asyncio.run(_bench_demo(report, sizes, say))
        bench_memory(report, sizes, path, say)
        bench_cold_start(report, sizes, say)
        bench_cold_start_file(report, sizes, path, sizes.characters, say)
    speed += [timed(python_workload) for _i in range(5)]
    # The same fixed work before and after: how fast this (shared) machine was during
    # the run, to compare runs by. On the machine of README's table it varied by a
    # third from one run to the next, and every other row with it.
    report.rows.insert(0, machine_speed_row(speed))
    return report


def machine_speed_row(speed: Sequence[float]) -> Row:
    return Row("python_workload_ms", "machine speed: a fixed pure-Python workload (before "
               "and after the run)", median_ms(speed), "ms")


def python_workload() -> int:
    """Dictionary and integer work, as the engine and Textual mostly do."""
    counts: dict[int, int] = {}
    for number in range(200_000):
        key = number % 1_000
        counts[key] = counts.get(key, 0) + number
    return len(counts)


# --------------------------------------------------------------------------- history

#: The repository this module runs from (an editable install, as README's commands make).
ROOT = Path(__file__).resolve().parents[2]
#: Every recorded run (`--record`): date, commit, mode, the machine and every row.
HISTORY = ROOT / "benchmarks" / "history.json"
README_PATH = ROOT / "README.md"
#: How many recorded runs the comparison and README's range look back on.
RECENT = 5
#: Recorded runs of these modes are compared with and shown; quick runs (small sizes,
#: CI's) are kept if recorded but never taken as a reference.
REFERENCE_MODES = ("full", "demo")
README_BEGIN, README_END = "<!-- bench-history -->", "<!-- /bench-history -->"


@dataclass(frozen=True)
class Goal:
    """An issue-24 row as README's table shows it, with the issue's goal."""

    key: str
    label: str
    goal: str = ""
    #: Whether a value, with that run's noise, meets the goal.
    meets: Callable[[float, float], bool] | None = None


#: Issue 24's rows (each against the same stock-widget baseline app or a command,
#: measured taking turns in the same run), in README's order; the machine-speed row first.
ISSUE_24 = (
    Goal("python_workload_ms", "machine speed: a fixed pure-Python workload (ms; lower is "
         "a quicker moment of the machine)"),
    Goal("undo_command_ratio", "undo key to screen / a command to screen (200 characters, "
         "over 10,000 commands)", "<= 1 + noise", lambda value, noise: value <= 1 + noise),
    Goal("redo_command_ratio", "redo key to screen / a command to screen",
         "<= 1 + noise", lambda value, noise: value <= 1 + noise),
    Goal("undo_stock_ratio", "undo key to screen / a command in the stock-widget baseline "
         "app (200 rows)"),
    Goal("load_parse_ratio", "load / json parse and validation of the same file",
         "<= 3x", lambda value, noise: value <= 3),
    Goal("bytes_per_command", "memory of a loaded history per command (bytes)"),
    Goal("memory_ratio", "peak memory of a fresh process showing the file, app / baseline",
         "<= 1.8x", lambda value, noise: value <= 1.8),
    Goal("cold_start_ratio", "the demo's cold start, spawn to first screen, demo / "
         "baseline", "<= 1.3x", lambda value, noise: value <= 1.3),
    Goal("cold_start_floor_ratio", "the baseline importing pydantic and the engine's "
         "state models first / the baseline"),
    Goal("demo_command_ratio", "demo size (6 characters): a command to screen, app / "
         "baseline", "<= 0.9x", lambda value, noise: value <= 0.9),
    Goal("demo_frames", "demo size: frames drawn per command (median)", "1",
         lambda value, noise: value <= 1),
)
#: The demo-size rows, which no later change may make worse (issue 24 item 6): each run
#: that has them compares them with the recorded runs before it.
WATCHED = ("demo_command_ratio", "demo_frames", "cold_start_ratio")


def load_history(path: Path = HISTORY) -> list[dict[str, Any]]:
    """The recorded runs, oldest first ([] when there is no history yet)."""
    if not path.is_file():
        return []
    runs: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))["runs"]
    return runs


def save_history(runs: Sequence[dict[str, Any]], path: Path = HISTORY) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"about": "sombra-tui bench --record appends each run here (README, "
                     "Performance); the demo-size rows are compared with the last runs",
            "runs": list(runs)}
    text = json.dumps(data, indent=1, ensure_ascii=False)
    # One line for each row and for the machine, so that a run reads (and diffs) as a list.
    text = re.sub(r'(\{\n\s*"value"|"machine": \{)[^{}]*?\n\s*\}', _one_line, text)
    path.write_text(text + "\n", encoding="utf-8")


def _one_line(match: re.Match[str]) -> str:
    return re.sub(r"\s*\n\s*", " ", match.group(0)).replace("{ ", "{").replace(" }", "}")


def _significant(value: float) -> float:
    return float(f"{value:.5g}")


def history_entry(report: Report, *, date: str, commit: str,
                  load: float | None = None, note: str = "") -> dict[str, Any]:
    """One run as the history keeps it: each row's median (or ratio), unit and, where
    measured, this run's noise."""
    rows: dict[str, dict[str, Any]] = {}
    for row in report.rows:
        rows[row.key] = {"value": _significant(row.value), "unit": row.unit}
        if row.noise is not None:
            rows[row.key]["noise"] = _significant(row.noise)
    entry: dict[str, Any] = {"date": date, "commit": commit, "mode": report.kind,
                             "load_average": None if load is None else round(load, 2),
                             "machine": report.machine}
    if note:
        entry["note"] = note
    entry["rows"] = rows
    return entry


def git_commit(root: Path = ROOT) -> str:
    """HEAD's short hash, with "+changes" when the package's code differs from it (the
    code measured is then not that commit's); "unknown" outside a git checkout."""
    import subprocess

    def git(*arguments: str) -> str:
        return subprocess.run(["git", *arguments], cwd=root, capture_output=True,
                              text=True, check=True, timeout=30).stdout.strip()
    try:
        head = git("rev-parse", "--short=12", "HEAD")
        changed = git("status", "--porcelain", "--", "sombra_tui")
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+changes" if changed else "")


def recent_values(runs: Sequence[dict[str, Any]], key: str,
                  count: int = RECENT) -> list[float]:
    """The row's values in the last `count` reference runs (full or demo) that have it."""
    values = [run["rows"][key]["value"] for run in runs
              if run.get("mode") in REFERENCE_MODES and key in run.get("rows", {})]
    return values[-count:]


@dataclass(frozen=True)
class Comparison:
    """A watched row of this run against the same row in the last recorded runs."""

    key: str
    label: str
    value: float
    noise: float
    previous: tuple[float, ...]

    @property
    def worse(self) -> bool:
        """Worse than the worst of the previous runs, beyond this run's noise (every
        watched row is better lower)."""
        return bool(self.previous) and self.value > max(self.previous) * (1 + self.noise)

    def line(self) -> str:
        what = f"{self.label.split(' (noise of this run')[0]} ({self.key})"
        if not self.previous:
            return f"NEW: {what} is {_plain(self.value)}; no recorded run has it yet"
        low, high = _plain(min(self.previous)), _plain(max(self.previous))
        range_ = low if low == high else f"{low}-{high}"
        runs = (f"the last {len(self.previous)} recorded runs" if len(self.previous) > 1
                else "the last recorded run")
        if self.worse:
            return (f"WORSE: {what} is {_plain(self.value)}, beyond the worst of {runs} "
                    f"({range_}) by more than this run's noise (+/-{self.noise:.0%})")
        return f"ok: {what} is {_plain(self.value)}; {runs}: {range_}"


def _plain(value: float) -> str:
    return f"{value:,.0f}" if value >= 100 or value == int(value) else f"{value:.2f}"


def compare(report: Report, runs: Sequence[dict[str, Any]],
            count: int = RECENT) -> list[Comparison]:
    """The watched rows this run has, each against the last `count` recorded runs. A
    quick run is not compared: its few repeats are too noisy to judge by (seen: the
    cold start at 3.6x with 2 repeats, 2.2x with 7), as its targets are not judged."""
    if report.kind not in REFERENCE_MODES:
        return []
    rows = {row.key: row for row in report.rows}
    return [Comparison(key, rows[key].label, rows[key].value, rows[key].noise or 0.0,
                       tuple(recent_values(runs, key, count)))
            for key in WATCHED if key in rows]


def _readme_value(value: float, unit: str) -> str:
    if unit == "x":
        return f"{value:.2f}x"
    if unit == "frames":
        return f"{value:g}"
    if value >= 100:
        return f"{value:,.0f}"
    return f"{value:.2f}"


def readme_block(runs: Sequence[dict[str, Any]], count: int = RECENT) -> str:
    """README's table (between its bench-history markers), from the recorded runs only:
    for each issue-24 row, the latest full run's value, the range over the last `count`
    recorded runs that have it, and the goal."""
    references = [run for run in runs if run.get("mode") in REFERENCE_MODES]
    fulls = [run for run in references if run["mode"] == "full"]
    latest = fulls[-1] if fulls else None
    if latest is None:
        about = "No full run is recorded yet."
    else:
        speed = latest["rows"].get("python_workload_ms", {}).get("value")
        load = latest.get("load_average")
        about = (f"Latest full run: {latest['date']}, commit {latest['commit']}"
                 + (f", machine speed {speed:.1f} ms" if speed is not None else "")
                 + (f", load average {load:.1f}" if load is not None else "") + "."
                 + (f" {latest['note']}" if latest.get("note") else ""))
    lines = [about, f"Range: the last {count} recorded runs that have the row (full runs "
             f"and `--demo` runs; {len(references)} recorded in `benchmarks/history.json`). "
             "Written by `sombra-tui bench --readme` from that file.", "",
             f"| measure | latest full run | last {count} runs | goal | met |",
             "| --- | ---: | ---: | --- | --- |"]
    for goal in ISSUE_24:
        row = latest["rows"].get(goal.key) if latest is not None else None
        values = recent_values(references, goal.key, count)
        unit = row["unit"] if row else next(
            (run["rows"][goal.key]["unit"] for run in reversed(references)
             if goal.key in run["rows"]), "")
        if row is None:
            value, met = "", ""
        else:
            value = _readme_value(row["value"], unit)
            if unit == "x" and row.get("noise"):
                value += f" (+/-{row['noise']:.0%})"
            met = "" if goal.meets is None else (
                "yes" if goal.meets(row["value"], row.get("noise", 0.0)) else "no")
        span = ""
        if values:
            low, high = _readme_value(min(values), unit), _readme_value(max(values), unit)
            span = high if low == high else f"{low.removesuffix('x')}-{high}"
            if len(values) < count:
                span += f" ({len(values)} run{'s' if len(values) > 1 else ''})"
        lines.append(f"| {goal.label} | {value} | {span} | {goal.goal} | {met} |")
    return "\n".join(lines)


def rewrite_readme(text: str, runs: Sequence[dict[str, Any]]) -> str:
    """`text` (README) with its bench-history block rendered anew from `runs`."""
    begin, end = text.find(README_BEGIN), text.find(README_END)
    if begin < 0 or end < begin:
        raise ValueError(f"README has no {README_BEGIN} ... {README_END} block")
    return (text[:begin + len(README_BEGIN)] + "\n" + readme_block(runs) + "\n"
            + text[end:])


def main(argv: Sequence[str]) -> int:
    # In English only: a developer's tool, outside the product and its catalog.
    parser = argparse.ArgumentParser(
        prog="sombra-tui bench",
        description="Benchmark the engine and the app on a synthetic encounter "
                    "(medians of repeated runs). Runs from a source checkout.")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes (20 characters, 500 commands) for CI; seconds")
    parser.add_argument("--output", type=Path, default=Path(DEFAULT_OUTPUT), metavar="FILE",
                        help=f"where to write FILE.json and FILE.md (default: "
                             f"{DEFAULT_OUTPUT}.json/.md in the current folder)")
    parser.add_argument("--demo", action="store_true",
                        help="only the rows at the demo's size (6 characters): a "
                             "command to screen and its frames, against the "
                             "stock-widget baseline")
    parser.add_argument("--foresight", action="store_true",
                        help="only issue 37's rows: a command to screen (200 characters) "
                             "with the forecast computed and without, taking turns")
    parser.add_argument("--record", action="store_true",
                        help="append this run to the history (benchmarks/history.json) "
                             "and rewrite README's table from it")
    parser.add_argument("--strict", action="store_true",
                        help="exit with status 1 when a demo-size row is worse than in "
                             "the last recorded runs")
    parser.add_argument("--readme", action="store_true",
                        help="rewrite README's table from the history, without running "
                             "the benchmark")
    parser.add_argument("--history", type=Path, default=HISTORY, metavar="FILE",
                        help=f"the history file (default: {HISTORY})")
    args = parser.parse_args(argv)
    if args.readme:
        return write_readme(load_history(args.history))

    def progress(message: str) -> None:
        print(f"  {message}...", file=sys.stderr, flush=True)

    report = run(quick=args.quick, progress=progress, demo=args.demo,
                 foresight=args.foresight)
    print(f"sombra-tui bench: {machine_line(report)}")
    print("\n".join(table_lines(report, markdown=False)))
    json_path, md_path = write_outputs(report, args.output)
    print(f"Wrote {json_path} and {md_path}")
    runs = load_history(args.history)
    comparisons = compare(report, runs)
    if report.kind == "quick":
        print("A quick run: the demo-size rows are not compared with the recorded runs "
              "(run --demo for that)")
    elif comparisons:
        print(f"The demo-size rows against the last {RECENT} recorded runs ({args.history}):")
        for comparison in comparisons:
            print(f"  {comparison.line()}")
    if args.record:
        runs.append(history_entry(report, date=time.strftime("%Y-%m-%d %H:%M UTC",
                                                             time.gmtime()),
                                  commit=git_commit(), load=os.getloadavg()[0]))
        save_history(runs, args.history)
        print(f"Recorded this run in {args.history} ({len(runs)} runs)")
        write_readme(runs)
    return 1 if args.strict and any(comparison.worse for comparison in comparisons) else 0


def write_readme(runs: Sequence[dict[str, Any]]) -> int:
    """README's table rewritten from `runs` (where README is beside this package)."""
    if not README_PATH.is_file():
        print(f"No README at {README_PATH}: its table is not rewritten", file=sys.stderr)
        return 1
    text = README_PATH.read_text(encoding="utf-8")
    try:
        text = rewrite_readme(text, runs)
    except ValueError as error:
        print(f"{README_PATH}: {error}: its table is not rewritten", file=sys.stderr)
        return 1
    README_PATH.write_text(text, encoding="utf-8")
    print(f"Rewrote the table in {README_PATH} from {len(runs)} recorded runs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
