"""Which combat this is, across a save as, a restart and a crash (S1; issue 39 item 6).

The players' terminal (`sombra-tui players`) says "The DJ's app at URL now shows another
combat: this one." when the snapshot's `encounter` changes. That name was drawn from the
file's place: a combat saved under a new name (F2) and opened again after a restart, or
a new encounter saved and reopened, or one resumed after a crash, was told to the
players as another combat, once. The name is now kept in the file and in the crash
journal; another combat is still said, even one saved over the same file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static

from sombra_tui.engine import (
    Encounter,
    PlayersSnapshot,
    Side,
    SombraError,
    StartCombat,
    storage,
)
from sombra_tui.engine.history import Combat
from sombra_tui.engine.journal import recover
from sombra_tui.players.terminal import PlayersApp
from sombra_tui.session import Session
from tests.app.conftest import MIN_SIZE, SIZE, Dirs, make_app, on_main_screen
from tests.app.test_pilot_files import save_as
from tests.engine.conftest import char


def encounter(name: str = "Emboscada") -> Encounter:
    return Encounter(name=name, characters=[char("Ana", 8, 3, 14, side=Side.PC),
                                            char("Bruno", 12, 5, 12)])


async def news_after(*snapshots: PlayersSnapshot) -> str | None:
    """What the players' terminal says above the combat once shown `snapshots` in turn
    (None: nothing)."""
    view = PlayersApp("http://127.0.0.1:9/")
    async with view.run_test(size=MIN_SIZE) as pilot:
        for snapshot in snapshots:
            view.show(snapshot)
        await pilot.pause()
        news = view.query_one("#news", Static)
        return str(news.render()) if news.display else None


async def test_s1_save_as_then_restart_is_not_another_combat_for_the_players(
        app_dirs: Dirs) -> None:
    """S1: the DJ saves the combat under a new name (F2), quits and starts the app on the
    new file: the players' terminal, which reconnects by itself, says nothing (it said
    that the DJ's app now shows another combat)."""
    app_dirs.data.mkdir(parents=True)
    first = app_dirs.data / "emboscada.json"
    Session.create(first, encounter())
    app = make_app(Session.open(first), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # the combat starts: a change
        await pilot.press("f2")
        await save_as(pilot, "emboscada-noche-2")
        assert on_main_screen(app)
        assert app.session.path == app_dirs.data / "emboscada-noche-2.json"
        before = app.session.players_snapshot()
    again = make_app(Session.open(app_dirs.data / "emboscada-noche-2.json"), journal=False)
    async with again.run_test(size=SIZE):
        after = again.session.players_snapshot()
    assert after.round == before.round == 1  # the same combat, as saved
    assert await news_after(before, after) is None
    assert after.encounter == before.encounter


async def test_s1_a_new_encounter_saved_then_reopened_is_the_same_combat(
        app_dirs: Dirs) -> None:
    """S1: a new encounter is named at random; saved, then opened after a restart, it
    keeps that name (it took one from the file's place)."""
    dj = Session.new(encounter())
    dj.execute(StartCombat())
    before = dj.players_snapshot()
    app_dirs.data.mkdir(parents=True)
    path = app_dirs.data / "nueva.json"
    dj.save(path)
    after = Session.open(path).players_snapshot()
    assert await news_after(before, after) is None
    assert after.encounter == before.encounter


def test_s1_a_combat_resumed_after_a_crash_is_the_same_combat(tmp_path: Path) -> None:
    """S1: saved as another file, then killed: the resumed combat (its journal) is the
    one the players saw, whether it was ever saved or not."""
    journals = tmp_path / "journals"
    saved = Session.new(encounter())
    saved.start_journal(journals)
    saved.execute(StartCombat())
    saved.save(tmp_path / "uno.json")
    saved.save(tmp_path / "dos.json")  # save as
    never = Session.new(encounter("Nunca guardado"))
    never.start_journal(journals)
    never.execute(StartCombat())
    for dj in (saved, never):
        assert dj.journal is not None
        resumed = Session.recovered(recover(dj.journal.path))
        assert resumed.players_snapshot().encounter == dj.players_snapshot().encounter


async def test_s1_another_combat_is_still_said_even_saved_over_the_same_file(
        app_dirs: Dirs) -> None:
    """S1: a real change is still told: another file opened, or another combat saved over
    this very file (same name, same folder) and opened after a restart."""
    app_dirs.data.mkdir(parents=True)
    path = app_dirs.data / "emboscada.json"
    Session.create(path, encounter())
    shown = Session.open(path).players_snapshot()
    other = app_dirs.data / "otra.json"
    Session.create(other, encounter("Otra"))
    assert Session.open(other).players_snapshot().encounter != shown.encounter
    Session.new(encounter("Otra más")).save(path)  # another combat, same file
    replaced = Session.open(path).players_snapshot()
    assert replaced.encounter != shown.encounter
    news = await news_after(shown, replaced)
    assert news is not None and "now shows another combat" in news


def test_s1_a_file_without_the_name_opens_as_before_and_keeps_it_once_saved(
        tmp_path: Path) -> None:
    """S1, no format break: a file of format version 4 written before `combat_id` opens as
    before, named from its place as it was (the players see the same combat after the
    upgrade); saved, it keeps that name in the file, and a save as carries it."""
    path = tmp_path / "vieja.json"
    combat = Combat(encounter())
    combat.execute(StartCombat())
    data = json.loads(storage.dumps(combat))
    data.pop("combat_id", None)
    path.write_text(json.dumps(data), encoding="utf-8")
    old = Session.open(path)
    assert old.combat.state == combat.state
    assert old.players_key == Session(Combat(encounter()), path).players_key
    old.save(tmp_path / "nueva.json")
    assert json.loads((tmp_path / "nueva.json").read_text())["combat_id"] == old.players_key
    assert Session.open(tmp_path / "nueva.json").players_key == old.players_key


def test_s1_a_journal_without_the_name_resumes_as_before(tmp_path: Path) -> None:
    """S1, no format break: a crash journal written before `combat_id` resumes as before,
    its combat named from its file's place."""
    path = tmp_path / "uno.json"
    dj = Session(Combat(encounter()), path)
    dj.save(path)
    dj.start_journal(tmp_path / "journals")
    dj.execute(StartCombat())
    assert dj.journal is not None
    header, *operations = dj.journal.path.read_text(encoding="utf-8").splitlines()
    old = json.loads(header)
    assert old.pop("combat_id") == dj.players_key
    dj.journal.path.write_text("\n".join([json.dumps(old), *operations]) + "\n",
                               encoding="utf-8")
    resumed = Session.recovered(recover(dj.journal.path))
    assert resumed.combat.state == dj.combat.state
    assert resumed.players_key == Session(Combat(encounter()), path).players_key


def test_s1_a_bad_combat_name_in_a_file_is_refused_by_name(tmp_path: Path) -> None:
    """S1: the name must be lowercase letters (it is sent to the players' screens as
    is); anything else is refused with a message naming the field."""
    combat = Combat(encounter())
    combat.identity = "abc"
    data = json.loads(storage.dumps(combat))
    assert data["combat_id"] == "abc"
    data["combat_id"] = "Ana 12"
    with pytest.raises(SombraError) as raised:
        storage.loads(json.dumps(data), source="mala.json")
    assert raised.value.field == "combat_id"
    assert "mala.json has a bad value at combat_id" in str(raised.value)
