"""Issue 24 item 5: the app's first screen imports only what it needs; the players'
page's server (aiohttp), its QR code (segno) and the help's Markdown (markdown_it)
are imported when first used, and the engine's pydantic models build their validators
when first used (about 90 models; building them all at import was the biggest part of
the cold start left). The engine package resolves its names on first use, so the first
screen does not load the file format, the crash journal or the players' view either
(the app loads the journal, and with it the file format, once that screen is drawn)."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel

LATER = ("aiohttp", "segno", "markdown_it")

SCRIPT = """
import json, sys
import sombra_tui.app
print(json.dumps(sorted(name for name in sys.modules
                        if name.split(".")[0] in {later})))
"""


def imported_by(statement: str) -> list[str]:
    script = SCRIPT.replace("import sombra_tui.app", statement).format(later=set(LATER))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=120)
    found: list[str] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_importing_the_app_leaves_the_server_qr_and_markdown_for_later() -> None:
    assert imported_by("import sombra_tui.app") == []


def test_each_is_imported_where_it_is_used() -> None:
    """The check above would pass on a typo: these modules do import them."""
    found = imported_by("import sombra_tui.app, sombra_tui.players.server, "
                        "sombra_tui.screens.dialogs.help, sombra_tui.screens.dialogs.players; "
                        "sombra_tui.screens.dialogs.players.qr_text('http://x')")
    assert {name.split(".")[0] for name in found} == set(LATER)


#: The engine's modules the first screen leaves for later.
ENGINE_LATER = ("sombra_tui.engine.storage", "sombra_tui.engine.journal",
                "sombra_tui.engine.players_view")

FIRST_SCREEN = """
import asyncio, json, sys
from pathlib import Path
from sombra_tui.app import SombraApp
LATER = {later}
def loaded():
    return sorted(name for name in sys.modules if name in LATER)
async def main():
    app = SombraApp(remember_theme=False, cursor_blink=False, journal={journal},
                    prepare_dialogs=False)
    async with app.run_test(headless=True, size=(120, 40)) as pilot:
        await pilot.pause()
        found = [loaded()]
        app.session.players_snapshot()  # what the players' page is sent
        found.append(loaded())
        app.session.save(Path({save!r}))
        found.append(loaded())
    print(json.dumps(found))
asyncio.run(main())
"""


def first_screen(tmp_path: Path, *, journal: bool) -> list[list[str]]:
    """The engine modules of ENGINE_LATER loaded in a fresh process: once the demo's
    first screen is up, after the players' snapshot is made, after a save."""
    from sombra_tui import config

    env = {**os.environ, config.DATA_DIR_ENV: str(tmp_path / "data"),
           config.CONFIG_DIR_ENV: str(tmp_path / "config")}
    script = FIRST_SCREEN.format(later=set(ENGINE_LATER), journal=journal,
                                 save=str(tmp_path / "demo.sombra.json"))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=120, env=env)
    found: list[list[str]] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_importing_the_app_leaves_the_file_format_journal_and_players_view() -> None:
    script = SCRIPT.replace("if name.split(\".\")[0] in {later}", "if name in {later}")
    done = subprocess.run([sys.executable, "-c", script.format(later=set(ENGINE_LATER))],
                          capture_output=True, text=True, check=True, timeout=120)
    assert json.loads(done.stdout.splitlines()[-1]) == []


def test_the_first_screen_loads_them_where_they_are_used(tmp_path: Path) -> None:
    """Without the crash journal: the first screen loads none of them; the players'
    snapshot loads the players' view, a save the file format."""
    shown, snapshot, saved = first_screen(tmp_path, journal=False)
    assert shown == []
    assert snapshot == ["sombra_tui.engine.players_view"]
    assert saved == sorted(["sombra_tui.engine.players_view", "sombra_tui.engine.storage"])


def test_the_journal_and_file_format_are_loaded_once_the_screen_is_drawn(
        tmp_path: Path) -> None:
    """As the DJ starts it (the crash journal on): the journal starts after the first
    frame, and loads the file format then, not at the DJ's first command or save."""
    shown, _snapshot, _saved = first_screen(tmp_path, journal=True)
    assert shown == sorted(["sombra_tui.engine.journal", "sombra_tui.engine.storage"])


def test_the_engine_package_gives_each_name_from_its_module() -> None:
    """The engine's names are resolved on first use (`_WHERE`); type checkers read the
    imports under TYPE_CHECKING. Both must say the same, and every name must resolve to
    its module's own object."""
    import importlib

    import sombra_tui.engine as engine

    tree = ast.parse(Path(engine.__file__).read_text(encoding="utf-8"))
    checked = next(node for node in tree.body if isinstance(node, ast.If))
    imported = {alias.name: node.module for node in checked.body
                if isinstance(node, ast.ImportFrom) and node.module
                for alias in node.names}
    where = {name: f"sombra_tui.engine.{module}" for name, module in engine._WHERE.items()}
    assert imported == where
    assert sorted(engine.__all__) == sorted(where)
    for name, module in where.items():
        assert getattr(engine, name) is getattr(importlib.import_module(module), name), name
    assert set(engine.__all__) <= set(dir(engine))
    with pytest.raises(AttributeError):
        engine.NotAName  # noqa: B018


def test_the_dialogs_package_still_gives_every_dialog_by_name() -> None:
    from sombra_tui.screens import dialogs

    for name in dialogs.__all__:
        assert isinstance(getattr(dialogs, name), type), name


def engine_models() -> list[type[BaseModel]]:
    import sombra_tui.app  # every engine module the app loads
    import sombra_tui.engine.journal
    import sombra_tui.engine.storage  # noqa: F401

    def below(model: type[BaseModel]) -> list[type[BaseModel]]:
        found = []
        for sub in model.__subclasses__():
            found += [sub, *below(sub)]
        return found

    return [model for model in below(BaseModel)
            if model.__module__.startswith("sombra_tui.engine")]


def test_every_engine_model_builds_its_validator_on_first_use() -> None:
    """A model added without defer_build would be built at every start again."""
    models = engine_models()
    assert len(models) > 80  # the check finds them
    assert [model.__qualname__ for model in models
            if not model.model_config.get("defer_build")] == []


BUILT = """
import json, sys
import sombra_tui.app, sombra_tui.engine.journal, sombra_tui.engine.storage
from pydantic import BaseModel
def below(model):
    for sub in model.__subclasses__():
        yield sub
        yield from below(sub)
print(json.dumps(sorted(model.__qualname__ for model in below(BaseModel)
                        if model.__module__.startswith("sombra_tui.engine")
                        and model.__pydantic_complete__)))
"""


def test_importing_the_app_builds_only_the_models_it_makes() -> None:
    """In a fresh process: no engine model is built by the import, not even those it
    makes (the empty body and the demo's weapons are made without validation)."""
    done = subprocess.run([sys.executable, "-c", BUILT], capture_output=True, text=True,
                          check=True, timeout=120)
    built = set(json.loads(done.stdout.splitlines()[-1]))
    assert built == set(), built


def test_a_model_built_on_first_use_still_validates_and_refuses() -> None:
    """defer_build changes when the validator is built, not what it checks."""
    import pydantic
    import pytest

    from sombra_tui.engine import commands as c
    from sombra_tui.engine.journal import DoOp

    line = DoOp(command=c.SetCounters(character="Ana", g=1, w=2)).model_dump_json()
    assert DoOp.model_validate_json(line).command == c.SetCounters(character="Ana", g=1, w=2)
    with pytest.raises(pydantic.ValidationError):
        c.SetCounters(character="Ana", g=-1, w=0)
    assert c.COMMAND_ADAPTER.validate_python({"type": "advance"}) == c.Advance()


FULL_COLLECTIONS = """
import gc, json
full = []
gc.callbacks.append(lambda phase, info: full.append(1)
                    if phase == "stop" and info["generation"] == 2 else None)
{statements}
print(json.dumps(len(full)))
"""


def test_starting_runs_no_full_garbage_collection() -> None:
    """What the start loads (Textual, pydantic, the engine's models, the app) lives as
    long as the process and is frozen out of the collector (gc.freeze): the full
    collection that fell in the middle of the start scanned all of it (30-150 ms).
    Both ways in: the `sombra-tui` command (the cli, then the app) and the app alone
    after Textual (as `sombra-tui bench` starts it)."""
    for statements in ("from sombra_tui.cli import main\nfrom sombra_tui.app import SombraApp",
                       "import textual.screen\nfrom sombra_tui.app import SombraApp"):
        done = subprocess.run([sys.executable, "-c",
                               FULL_COLLECTIONS.format(statements=statements)],
                              capture_output=True, text=True, check=True, timeout=120)
        assert json.loads(done.stdout.splitlines()[-1]) == 0, statements


JOURNAL_START = """
import json, sys, tempfile
from pathlib import Path
from sombra_tui.demo import demo_encounter
from sombra_tui.engine.history import Combat
from sombra_tui.engine.journal import DoOp, Journal
before = DoOp.__pydantic_complete__
Journal.start(Path(tempfile.mkdtemp()), Combat(demo_encounter()), None, unsaved=False)
print(json.dumps([before, DoOp.__pydantic_complete__]))
"""


def test_the_journal_builds_the_record_of_a_command_when_it_starts() -> None:
    """The journal starts after the app's first frame; the model each command's record
    needs is built then (in a fresh process: not before), not at the DJ's first command."""
    done = subprocess.run([sys.executable, "-c", JOURNAL_START], capture_output=True,
                          text=True, check=True, timeout=120)
    assert json.loads(done.stdout.splitlines()[-1]) == [False, True]


def test_making_a_combat_does_not_count_the_frozen_objects(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`gc.get_freeze_count()` walks every frozen object (10-20 ms once the app is
    loaded); the replay's pause of the collector (history.bulk) asked it for every
    Combat made, the first screen's included. Neither making one nor replaying asks."""
    import gc

    from sombra_tui.demo import demo_encounter
    from sombra_tui.engine import Combat, StartCombat

    def counted() -> int:
        raise AssertionError("gc.get_freeze_count() called")

    combat = Combat(demo_encounter())
    combat.execute(StartCombat())
    monkeypatch.setattr(gc, "get_freeze_count", counted)
    replayed = Combat(demo_encounter(), combat.commands)
    assert replayed.commands == combat.commands and gc.isenabled()


NEW_COMBAT = """
import json
from sombra_tui.demo import demo_encounter
from sombra_tui.engine import Combat, CombatState, StartCombat
combat = Combat(demo_encounter())
built = CombatState.__pydantic_complete__
combat.execute(StartCombat())
print(json.dumps([built, CombatState.__pydantic_complete__]))
"""


def test_a_new_combat_does_not_build_the_state_validator() -> None:
    """In a fresh process: the first state is made of the encounter's parts, validated
    with it, so CombatState's validator (~13 ms to build) is not built by the first
    screen nor by the first command (a file's snapshot builds it when first read)."""
    done = subprocess.run([sys.executable, "-c", NEW_COMBAT], capture_output=True,
                          text=True, check=True, timeout=120)
    assert json.loads(done.stdout.splitlines()[-1]) == [False, False]


def test_the_first_state_is_the_validated_one() -> None:
    """The state made without validating again equals the one validation makes."""
    from sombra_tui.demo import demo_encounter
    from sombra_tui.engine.machine import initial_state
    from sombra_tui.engine.rules.players import conceal_joining
    from sombra_tui.engine.state import CombatState

    encounter = demo_encounter()
    validated = CombatState(name=encounter.name, settings=encounter.settings,
                            characters=list(encounter.characters))
    conceal_joining(validated, [character.name for character in validated.characters])
    made = initial_state(encounter)
    assert made == validated
    assert made.model_fields_set == validated.model_fields_set
    assert made.model_dump() == validated.model_dump()


START_PAUSE = """
import asyncio, gc, json, sys
import sombra_tui
sombra_tui.pause_gc_for_start()  # as `sombra-tui` does first thing
from sombra_tui.app import SombraApp
from sombra_tui import cli
found = {"paused": not gc.isenabled()}
async def main():
    app = SombraApp(remember_theme=False, cursor_blink=False, journal=False,
                    prepare_dialogs=False)
    async with app.run_test(headless=True, size=(120, 40)) as pilot:
        found["paused_until_mounted"] = not gc.isenabled()
        await pilot.pause()
        found["resumed_after_first_screen"] = gc.isenabled()
asyncio.run(main())
sombra_tui.pause_gc_for_start()
found["error_returns"] = cli.main(["--seed", "-1"])
found["resumed_after_error"] = gc.isenabled()
print(json.dumps(found))
"""


def test_the_collector_waits_for_the_first_screen(tmp_path: Path) -> None:
    """Issue 24 item 5: `sombra-tui` pauses Python's cyclic garbage collector from its
    first line to the app's first screen (the start's objects live as long as the app,
    and the young collections that scanned them cost about 20 ms); the app resumes it
    once that screen is drawn, and the command line when it returns without the app."""
    from sombra_tui import config

    env = {**os.environ, config.DATA_DIR_ENV: str(tmp_path / "data"),
           config.CONFIG_DIR_ENV: str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-c", START_PAUSE], capture_output=True,
                          text=True, check=True, timeout=120, env=env)
    found = json.loads(done.stdout.splitlines()[-1])
    assert found == {"paused": True, "paused_until_mounted": True,
                     "resumed_after_first_screen": True,
                     "error_returns": 2, "resumed_after_error": True}


NO_VALIDATOR = """
import asyncio, json, sys
from sombra_tui.app import SombraApp
from pydantic import BaseModel
def below(model):
    for sub in model.__subclasses__():
        yield sub
        yield from below(sub)
async def main():
    app = SombraApp(remember_theme=False, cursor_blink=False, journal=False,
                    prepare_dialogs=False)
    async with app.run_test(headless=True, size=(120, 40)) as pilot:
        await pilot.pause()
        shown = (app.theme, len(app.session.combat.state.characters), app.startup_problems)
        built = sorted(model.__qualname__ for model in below(BaseModel)
                       if model.__module__.startswith("sombra_tui")
                       and model.__pydantic_complete__)
        print(json.dumps([shown, built, "pydantic.plugin._loader" in sys.modules]))
asyncio.run(main())
"""


def start_to_first_screen(tmp_path: Path) -> list[object]:
    from sombra_tui import config

    env = {**os.environ, config.DATA_DIR_ENV: str(tmp_path / "data"),
           config.CONFIG_DIR_ENV: str(tmp_path / "config")}
    done = subprocess.run([sys.executable, "-c", NO_VALIDATOR], capture_output=True,
                          text=True, check=True, timeout=120, env=env)
    found: list[object] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_the_first_screen_builds_no_validator(tmp_path: Path) -> None:
    """Issue 24 item 5: a DJ's first start draws the demo without pydantic building any
    validator (each costs milliseconds to build, and the first one loads pydantic's
    plugin machinery, about 9 ms more): the demo, the default preferences and the
    built-in themes are checked without it."""
    shown, built, plugins = start_to_first_screen(tmp_path)
    assert shown == ["sombra", 6, []]
    assert built == [] and plugins is False


def test_nor_with_the_djs_preferences_and_theme(tmp_path: Path) -> None:
    """Nor at a later start: the DJ's preferences and own theme, every field of its
    type, are read by the same checks without building pydantic's validator."""
    themes_dir = tmp_path / "config" / "themes"
    themes_dir.mkdir(parents=True)
    theme = (Path(__file__).parent.parent / "themes" / "sombra.toml").read_text("utf-8")
    (themes_dir / "mio.toml").write_text(theme.replace('name = "sombra"', 'name = "mio"'),
                                         "utf-8")
    (tmp_path / "config" / "preferences.json").write_text(json.dumps(
        {"theme": "mio", "language": "es", "keys": {"declare": "ctrl+d"},
         "players_lan": False}), "utf-8")
    shown, built, plugins = start_to_first_screen(tmp_path)
    assert shown == ["mio", 6, []]
    assert built == [] and plugins is False


def test_a_bad_theme_is_still_judged_by_pydantic(tmp_path: Path) -> None:
    """A file the quick checks do not take is validated as before, and its problem
    named: the check above would pass if nothing were ever validated."""
    themes_dir = tmp_path / "config" / "themes"
    themes_dir.mkdir(parents=True)
    (themes_dir / "roto.toml").write_text('name = "roto"\ndark = "yes"\n', "utf-8")
    shown, built, plugins = start_to_first_screen(tmp_path)
    assert shown[:2] == ["sombra", 6] and len(shown[2]) == 1  # type: ignore[index]
    assert "roto.toml" in shown[2][0]  # type: ignore[index]
    assert "ThemeSpec" in built and plugins is True


#: What `sombra-tui FILE`'s first screen leaves out: the demo, the players' server and
#: the page's QR code, the help's Markdown, the report and every dialog.
LATER_FOR_A_FILE = ("sombra_tui.demo", "sombra_tui.players.server", "sombra_tui.report",
                    "sombra_tui.screens.dialogs", *LATER)

FILE_FIRST_SCREEN = """
import asyncio, json, sys
from pathlib import Path
from pydantic import BaseModel
from textual.screen import Screen
import sombra_tui
sombra_tui.pause_gc_for_start()  # as `sombra-tui FILE` does
from sombra_tui.app import SombraApp
from sombra_tui.session import Session
def below(model):
    for sub in model.__subclasses__():
        yield sub
        yield from below(sub)
found = []
original = Screen._compositor_refresh
def refreshed(screen):  # the first full screen: every row of the table drawn (as the bench)
    original(screen)
    if not found and any(table.row_count >= {characters}
                         for table in screen.query("InitiativeTable")):
        found.append(sorted(model.__qualname__ for model in below(BaseModel)
                            if model.__module__.startswith("sombra_tui")
                            and model.__pydantic_complete__))
        found.append(sorted(name for name in sys.modules if any(
            name == later or name.startswith(later + ".") for later in {later})))
Screen._compositor_refresh = refreshed
async def main():
    session = Session.open(Path({path!r}))
    checking = session.combat.checking
    app = SombraApp(session, remember_theme=False, cursor_blink=False)  # as the DJ's
    async with app.run_test(headless=True, size=(120, 40)) as pilot:
        while not found:
            await pilot.pause()
    print(json.dumps([checking, *found]))
asyncio.run(main())
"""


@pytest.fixture(scope="module")
def long_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file long enough to be shown from its stored state (storage.BACKGROUND_FROM),
    ending with a bleeding wound (its first screen's forecast says when it bleeds)."""
    from sombra_tui.engine import Combat, storage
    from tests import builders

    encounter = builders.build_encounter(CHARACTERS)
    path = tmp_path_factory.mktemp("long") / "larga.sombra.json"
    storage.save(Combat(encounter, builders.build_history(encounter, FILE_LENGTH)), path)
    return path


#: Long enough (storage.BACKGROUND_FROM), and a wound bleeding at its end.
FILE_LENGTH = 350
CHARACTERS = 12


def test_a_files_first_screen_builds_only_the_files_validator(
        long_file: Path, tmp_path: Path) -> None:
    """Issue 41 item 6: `sombra-tui FILE` builds one pydantic validator before its first
    screen, the file format's (the bleeding and the extended actions its forecast shows
    are made of checked values: BleedTick's and ExtendedProgress's validators cost 1-2 ms
    each to build; tests/engine/test_forecast.py checks they equal validated ones), and
    loads neither the demo nor what the first screen leaves for later (the players'
    server, the QR code, the help's Markdown, the report, the dialogs)."""
    from sombra_tui import config

    env = {**os.environ, config.DATA_DIR_ENV: str(tmp_path / "data"),
           config.CONFIG_DIR_ENV: str(tmp_path / "config")}
    script = FILE_FIRST_SCREEN.format(path=str(long_file), later=set(LATER_FOR_A_FILE),
                                      characters=CHARACTERS)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=120, env=env)
    checking, built, loaded = json.loads(done.stdout.splitlines()[-1])
    assert checking is True  # shown from its stored state: the case measured
    assert built == ["SaveFile"]
    assert loaded == []


def test_importing_the_app_leaves_the_demo_for_when_it_is_shown(tmp_path: Path) -> None:
    """The demo's encounter is loaded by the app that shows it, not by `sombra-tui FILE`."""
    assert "sombra_tui.demo" not in imported_by_name("import sombra_tui.app", tmp_path)
    assert "sombra_tui.demo" in imported_by_name(
        "import sombra_tui.app; sombra_tui.app.SombraApp(journal=False)", tmp_path)


def imported_by_name(statement: str, folder: Path) -> list[str]:
    """Every module loaded in a fresh process by `statement` (the DJ's folders in
    `folder`)."""
    from sombra_tui import config

    env = {**os.environ, config.DATA_DIR_ENV: str(folder / "data"),
           config.CONFIG_DIR_ENV: str(folder / "config")}
    script = f"import json, sys\n{statement}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=120, env=env)
    found: list[str] = json.loads(done.stdout.splitlines()[-1])
    return found
