"""SVG snapshots of the app's main states (pytest-textual-snapshot).

Each state is reached by keys from a fresh demo encounter, with the Pilot scripts
of :mod:`tests.app.drivers` (the README screenshots use the same ones), or, once
a test process has reached a state by keys, from its commands replayed (the pictures
must be the same either way: `test_a_replayed_state_looks_as_typed` checks it), at
120x40 and at the 80x24 minimum; one state per built-in theme at 120x40. Dice are
always typed, and the scripts clear toasts before the picture, so it is stable.

Update the baselines after an intended visual change with
``pytest tests/app/test_snapshots.py --snapshot-update`` and review the SVGs
(``snapshot_report.html`` shows the differences when a test fails).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Checkbox

from sombra_tui import where
from sombra_tui.app import SombraApp
from sombra_tui.config import CONFIG_DIR_ENV, DATA_DIR_ENV
from sombra_tui.engine.history import Combat
from sombra_tui.screens.dialogs import OpposedDialog, TADialog
from sombra_tui.screens.dialogs.forecast import ForecastDialog
from sombra_tui.screens.dialogs.note import NoteDialog
from sombra_tui.screens.dialogs.quick_points import QuickPointsDialog
from sombra_tui.session import Session
from tests.app import drivers as shots
from tests.app.layout_states import (
    crowded_round,
    hidden_round,
    long_declared,
    opposed_round,
    with_notes,
    wounded_round,
)

SIZES = {"120x40": shots.SIZE, "80x24": (80, 24)}


async def setup(pilot: Any) -> None:
    """The encounter as it opens: nothing pressed."""
    await shots.settle(pilot)


STATES: dict[str, shots.Driver] = {
    "setup": setup,
    "declaration_start": shots.start,
    "declaration_dialog": shots.declaration_editor,
    "prompt_pending": shots.to_reaction_prompt,
    "reaction_dialog": shots.reaction_dialog,
    "ta_dialog": shots.ta_dialog,
    "resolution_mid_round": shots.resolution_mid_round,
    "end_of_round": shots.end_of_round,
    "hit_proposal": shots.hit_proposal,
    "character_sheet": shots.character_sheet,
    "wounds_table": shots.wounds_table,
    "help": shots.help_screen,
}


async def table_wrapped(pilot: Any) -> None:
    """The table with the longest Status (Carla: dolor intenso, sangra, now): it wraps
    at words, Side and Ini stay in the panel (issue 22)."""
    await shots.settle(pilot)


async def ta_dialog_wound_grades(pilot: Any) -> None:
    """Carla's TA with two wound grades (H10), dice typed: the GD breakdown whole."""
    await pilot.press("space")
    await shots.wait_for_screen(pilot, TADialog, "opening Carla's TA")
    pilot.app.screen.query_one("#dice").focus()
    await shots.type_text(pilot, "5 4 3")
    await shots.settle(pilot)


async def forecast(pilot: Any) -> None:
    """What the coming asaltos hold (l): conditions ending, the DJ's notes (issue 37)."""
    await pilot.press("l")
    await shots.wait_for_screen(pilot, ForecastDialog, "opening the forecast")
    await shots.settle(pilot)


async def quick_points(pilot: Any) -> None:
    """The quick line on the cursor's row (Carla), "-7 pecho" typed: the summary says
    the hit by hand Enter sends (issue 39 item 4)."""
    await pilot.press("minus")
    await shots.wait_for_screen(pilot, QuickPointsDialog, "opening the quick line")
    await shots.type_text(pilot, "7 pecho")
    await shots.settle(pilot)


async def note_form(pilot: Any) -> None:
    """The forecast's form of a new note (a), typed, public: its summary line says the
    command Enter sends (issue 37 item 5)."""
    await forecast(pilot)
    await pilot.press("a")
    await shots.wait_for_screen(pilot, NoteDialog, "opening the note's form")
    await shots.type_text(pilot, "llegan los refuerzos")
    pilot.app.screen.query_one("#public", Checkbox).value = True
    await shots.settle(pilot)


async def opposed_dialog(pilot: Any) -> None:
    """Carla shoots Bruno, who dodges (O3): the opposed dialog with each side's chance."""
    await pilot.press("y")
    await shots.wait_for_screen(pilot, OpposedDialog, "opening the opposed dialog")
    await shots.settle(pilot)


#: States built through the engine's commands (tests/app/layout_states.py), not by
#: replaying keys from the demo: (combat builder, driver from the main screen).
BUILT: dict[str, tuple[Any, shots.Driver]] = {
    "table_wrapped": (wounded_round, table_wrapped),
    "ta_dialog_wound_grades": (wounded_round, ta_dialog_wound_grades),
    "forecast": (with_notes, forecast),
    # Issue 39 item 7: "◌" beside "▶" in the marks column, nothing cut at 80x24.
    "table_hidden": (hidden_round, table_wrapped),
    "quick_points": (wounded_round, quick_points),
    "note_form": (with_notes, note_form),
    # Issue 37 item 2: each side's chance before the dice, whole at 80x24.
    "opposed_dialog": (opposed_round, opposed_dialog),
    # Issue 39 item 5: 8 characters, Carla with four conditions: every row on screen,
    # her conditions folded into one line, the panel saying them whole.
    "table_crowded": (crowded_round, table_wrapped),
    # Issue 39 item 5: a long declaration cut at a word in the panel, its target kept.
    "panel_long_declaration": (long_declared, table_wrapped),
}
#: Their languages and sizes: Spanish at both, English at 80x24 (the tightest).
BUILT_CASES = [("es", "120x40"), ("es", "80x24"), ("en", "80x24")]


def built_app(combat: Combat, size: tuple[int, int], language: str) -> SombraApp:
    app = SombraApp(Session(combat), remember_theme=False, cursor_blink=False,
                    journal=False, language=language, prepare_dialogs=False)
    app.console.size = size  # as shots.make_app: the log wraps at the panel's width
    return app


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Preferences and encounters in tmp_path: the user's files stay untouched. The
    help's "Your files" names folders of the same length on every machine (tmp_path's
    length varies, and with it how the help wraps and its scrollbar)."""
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))
    shown = where.folders

    def steady() -> list[tuple[str, Path]]:
        home = Path("/home/dj")
        return [(label, home / path.relative_to(tmp_path)) for label, path in shown()]
    monkeypatch.setattr(where, "folders", steady)


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
@pytest.mark.parametrize("state", STATES.values(), ids=STATES.keys())
def test_state(snap_compare: Any, state: shots.Driver, size: tuple[int, int]) -> None:
    app = shots.make_app(size=size, resume=state)
    assert snap_compare(app, terminal_size=size, run_before=state)


@pytest.mark.parametrize("theme", shots.THEMES)
def test_theme_mid_round(snap_compare: Any, theme: str) -> None:
    app = shots.make_app(theme, resume=shots.resolution_mid_round)
    assert snap_compare(app, terminal_size=shots.SIZE, run_before=shots.resolution_mid_round)


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
@pytest.mark.parametrize("state", STATES.values(), ids=STATES.keys())
def test_state_in_spanish(snap_compare: Any, state: shots.Driver,
                          size: tuple[int, int]) -> None:
    """The same states in Spanish (issue 12): ~20 % longer words, at 80x24 too."""
    app = shots.make_app(size=size, language="es", resume=state)
    assert snap_compare(app, terminal_size=size, run_before=state)


#: The states other tests start from once reached by keys, in the order they are played.
RESUMABLE = (shots.start, shots.to_reaction_prompt, shots.declarations_done,
             shots.resolution_mid_round, shots.end_of_round, shots.round_two)


async def test_a_replayed_state_looks_as_typed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every state the tests start from, reached by keys and then opened from its
    commands replayed: the same picture, to the last style (in Spanish at 80x24, where
    most can go wrong)."""
    monkeypatch.setattr(shots, "_PLAYED", {})  # this test plays them all by keys first
    size = (80, 24)
    typed: dict[str, str] = {}
    app = shots.make_app(size=size, language="es")
    async with app.run_test(size=size) as pilot:
        for state in RESUMABLE:
            await state(pilot)
            await shots.settle(pilot)
            typed[state.__name__] = app.export_screenshot()
    for state in RESUMABLE:
        replayed = shots.make_app(size=size, language="es", resume=state)
        assert replayed.session.combat.commands, f"{state.__name__} was not replayed"
        async with replayed.run_test(size=size) as pilot:
            await state(pilot)
            await shots.settle(pilot)
            assert same_picture(replayed.export_screenshot(), typed[state.__name__]), \
                state.__name__


def same_picture(one: str, other: str) -> bool:
    """Two SVG screenshots equal but for the ids Textual makes from each export."""
    ids = re.compile(r"terminal-\d+")
    return ids.sub("terminal", one) == ids.sub("terminal", other)


@pytest.mark.parametrize("language, size", BUILT_CASES,
                         ids=[f"{language}-{size}" for language, size in BUILT_CASES])
@pytest.mark.parametrize("state", BUILT, ids=BUILT.keys())
def test_built_state(snap_compare: Any, state: str, language: str, size: str) -> None:
    build, driver = BUILT[state]
    terminal = SIZES[size]
    app = built_app(build(), terminal, language)
    assert snap_compare(app, terminal_size=terminal, run_before=driver)


def test_every_baseline_belongs_to_a_test() -> None:
    """No stale SVG in __snapshots__: each one is the baseline of a test above.

    syrupy fails a serial run that leaves a baseline unused, but not a run under
    pytest-xdist (it does not merge the workers' reports), so the suite, which runs
    in parallel, checks it here.
    """
    folder = Path(__file__).resolve().parent / "__snapshots__" / Path(__file__).stem
    names = {f"{test}[{state}-{size}]" for test in ("test_state", "test_state_in_spanish")
             for state in STATES for size in SIZES}
    names |= {f"test_theme_mid_round[{theme}]" for theme in shots.THEMES}
    names |= {f"test_built_state[{state}-{language}-{size}]" for state in BUILT
              for language, size in BUILT_CASES}
    assert {path.stem for path in folder.glob("*.svg")} == names
