"""Fixtures and keyboard helpers for the pilot tests of the app.

Every test gets its own config and data folders (SOMBRA_TUI_CONFIG_DIR and
SOMBRA_TUI_DATA_DIR under tmp_path), so nothing touches the real home. The
helpers drive the app by keyboard as a DJ would: tab to a field, type, press
keys; they never set a widget's value directly.

Import the helpers with `from tests.app.conftest import ...`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, Select, SelectionList, Static

from sombra_tui import config
from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import Character, Encounter, Settings
from sombra_tui.engine.state import CombatState
from sombra_tui.screens.dialogs.fields import Field
from sombra_tui.session import Session
from sombra_tui.textual_compat import character_to_key
from tests.app import frames

SIZE = (120, 40)
MIN_SIZE = (80, 24)
#: A key pressed this many times without reaching the wanted widget means a focus bug.
MAX_TABS = 40


class Dirs(NamedTuple):
    config: Path
    data: Path


@pytest.fixture(autouse=True)
def app_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Dirs:
    """Private config and data folders for every test (never the real home)."""
    found = Dirs(config=tmp_path / "config", data=tmp_path / "data")
    monkeypatch.setenv(config.CONFIG_DIR_ENV, str(found.config))
    monkeypatch.setenv(config.DATA_DIR_ENV, str(found.data))
    return found


@pytest.fixture(autouse=True)
def frames_unpainted(request: pytest.FixtureRequest) -> Iterator[None]:
    """Frames are not painted but the last one, unless the test is marked `paints`
    (tests/app/frames.py says why and what still paints). A patch of its own: a test's
    `monkeypatch.undo()` leaves it in place."""
    if request.node.get_closest_marker("paints") is not None:
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Screen, "_compositor_refresh", frames.unpainted)
        patch.setattr(App, "run_test", frames.painted_last)
        yield


# ---- building apps and sessions ------------------------------------------------------


def make_app(session: Session | None = None, **kwargs: Any) -> SombraApp:
    """An app that neither remembers the theme nor blinks (stable, isolated).

    It keeps its crash journal in the test's data folder, as the real app does: a
    test that starts a second app there must pass journal=False (or settle the
    "unfinished combat" the first one left, as tests/app/test_recovery.py does).
    The round's dialogs are built when first opened (`prepare_dialogs=False`): a test
    that does not open them would spend the CPU for nothing. tests/app/test_dialog_shelf.py
    tests the app as it runs, with them prepared.
    """
    kwargs.setdefault("prepare_dialogs", False)
    return SombraApp(session, remember_theme=False, cursor_blink=False, **kwargs)


def char(name: str, primaria: int, secundaria: int, alerta: int, **fields: Any) -> Character:
    return Character(name=name, primaria=primaria, secundaria=secundaria, alerta=alerta,
                     **fields)


def worked_example_encounter(**settings: Any) -> Encounter:
    """RULES.md "Worked example": exactly Ana (8/3, 14), Bruno (12/5, 12), Carla (15/2, 13)."""
    return Encounter(name="Ejemplo", seed=1, settings=Settings(**settings), characters=[
        char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12), char("Carla", 15, 2, 13)])


def session_after(encounter: Encounter, *commands: c.Command) -> Session:
    """A new session whose combat already ran `commands` (set-up for dialog tests)."""
    combat = Combat(encounter)
    for command in commands:
        combat.execute(command)
    return Session(combat)


# ---- reading the app -------------------------------------------------------------------


class Snapshot(NamedTuple):
    state: CombatState
    commands: int
    log: int


def snapshot(app: SombraApp) -> Snapshot:
    combat = app.session.combat
    return Snapshot(combat.state.model_copy(deep=True), len(combat.commands), len(combat.log))


def assert_unchanged(app: SombraApp, before: Snapshot) -> None:
    after = snapshot(app)
    assert after.state == before.state
    assert after.commands == before.commands
    assert after.log == before.log


def text_of(app: SombraApp, selector: str) -> str:
    """The plain text of a Static on the active screen."""
    return str(app.screen.query_one(selector, Static).content)


def field_error(app: SombraApp, field_id: str) -> str:
    """The inline error shown under field `field_id` ('' when the field is fine)."""
    field = app.screen.query_one(f"#field-{field_id}", Field)
    message = str(field.query_one(f"#error-{field_id}", Static).content)
    assert bool(message) == field.has_class("-invalid"), "error text and style disagree"
    return message


def notifications(app: SombraApp) -> list[tuple[str, str]]:
    """(severity, message) of the notifications shown so far."""
    return [(note.severity, note.message) for note in app._notifications]


def on_main_screen(app: SombraApp) -> bool:
    """The main screen is active and has the keyboard focus."""
    focused = app.focused
    return app.screen is app.main_screen and focused is not None \
        and focused.screen is app.main_screen


# ---- driving by keyboard -----------------------------------------------------------------


async def send_keys(pilot: Pilot[Any], *keys: str) -> None:
    """Press `keys` in order, as `pilot.press` does, but settle once at the end.

    `pilot.press` waits for the app to go idle after every key; for a run of keys
    that stay in one widget (typing, tabbing, moving in a list) that is several
    times slower and tests nothing more. Only for runs of the same sort of key:
    printable characters are inserted at once while a binding's action runs later,
    so a batch mixing them (say ctrl+u then text) would reach the widget reordered.
    """
    app = pilot.app
    for key in keys:
        name = key if len(key) > 1 or key.isalnum() else character_to_key(key)
        event = events.Key(name, key if len(key) == 1 else None)
        event.set_sender(app)
        app.post_message(event)  # queued in order, like the driver does
    # The app handles the keys, then forwards them to the focused widget, which may
    # post on to its parents: let each of those hops settle.
    for _ in range(3):
        await pilot.pause()


async def type_text(pilot: Pilot[Any], text: str) -> None:
    """Type `text` key by key into the focused widget."""
    await send_keys(pilot, *text)


async def focus(pilot: Pilot[Any], widget_id: str) -> None:
    """Tab or shift+tab, whichever is shorter, to the widget with `widget_id`.

    The number of presses comes from the screen's focus chain; the focus must then
    be on the widget, or tabbing is broken.
    """
    app = pilot.app
    chain = app.screen.focus_chain
    ids = [widget.id for widget in chain]
    assert widget_id in ids, f"#{widget_id} cannot get the focus ({ids})"
    here = ids.index(app.focused.id) if app.focused in chain else -1
    there = ids.index(widget_id)
    forward, back = (there - here) % len(ids), (here - there) % len(ids)
    steps = ["tab"] * forward if forward <= back else ["shift+tab"] * back
    assert len(steps) < MAX_TABS
    await send_keys(pilot, *steps)
    focused = app.focused
    assert focused is not None and focused.id == widget_id, \
        f"tabbing to #{widget_id} stopped at {focused}"


async def fill(pilot: Pilot[Any], widget_id: str, text: str) -> None:
    """Tab to an input and type `text` over what it held.

    Tabbing into an Input selects its text, so typing replaces it; an input that
    already had the focus is cleared with ctrl+u first.
    """
    focused = pilot.app.focused
    if (focused is not None and focused.id == widget_id) or not text:
        await focus(pilot, widget_id)
        await pilot.press("end", "ctrl+u")  # bindings: pressed one by one (see send_keys)
    else:
        await focus(pilot, widget_id)
    await type_text(pilot, text)
    focused = pilot.app.focused
    assert isinstance(focused, Input)
    assert focused.value == text, f"#{widget_id} holds {focused.value!r}, not {text!r}"


async def choose(pilot: Pilot[Any], widget_id: str, value: object) -> None:
    """Tab to a Select, open it with the down key and pick the option holding `value`."""
    await focus(pilot, widget_id)
    select = pilot.app.focused
    assert isinstance(select, Select)
    values = [option_value for _label, option_value in select._options]
    index = values.index(value)
    await pilot.press("down")  # opens the list on the current option
    await pilot.press("home", *["down"] * index, "enter")
    assert select.value == value, f"#{widget_id} is {select.value!r}, not {value!r}"


async def toggle(pilot: Pilot[Any], list_id: str, names: Iterable[str]) -> None:
    """Tab to a SelectionList and toggle the options `names` with the arrows and space."""
    await focus(pilot, list_id)
    selection = pilot.app.focused
    assert isinstance(selection, SelectionList)
    values = [selection.get_option_at_index(i).value for i in range(selection.option_count)]
    for name in names:
        index = values.index(name)
        await send_keys(pilot, "home", *["down"] * index, "space")
