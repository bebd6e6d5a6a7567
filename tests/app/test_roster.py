"""Importing the party from another encounter file, by keyboard."""

from __future__ import annotations

from sombra_tui import config
from sombra_tui.engine import Character, Combat, Encounter, storage
from sombra_tui.screens.dialogs import FileDialog, RosterDialog
from sombra_tui.screens.main import MainScreen
from sombra_tui.session import Session
from tests.app.conftest import SIZE, make_app


async def test_import_party_skips_clashes_and_is_one_undo() -> None:
    folder = config.data_dir()
    folder.mkdir(parents=True)
    party = Combat(Encounter(name="Grupo", characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14),
        Character(name="Iker", primaria=10, secundaria=6, alerta=12),
    ]))
    storage.save(party, folder / "grupo.json")
    session = Session.new(Encounter(name="Muelle", characters=[
        Character(name="ana", primaria=1, secundaria=1, alerta=9)]))
    app = make_app(session, journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i")
        await pilot.pause()
        assert isinstance(app.screen, FileDialog)
        await pilot.press(*"grupo.json", "enter")
        await pilot.pause()
        assert isinstance(app.screen, RosterDialog)
        assert app.screen.clashes == {"Ana"}
        await pilot.press("enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        names = [ch.name for ch in app.session.combat.state.characters]
        assert names == ["ana", "Iker"]
        await pilot.press("u")
        await pilot.pause()
        assert [ch.name for ch in app.session.combat.state.characters] == ["ana"]


async def test_import_from_a_bad_file_changes_nothing() -> None:
    folder = config.data_dir()
    folder.mkdir(parents=True)
    (folder / "roto.json").write_text("{not json", encoding="utf-8")
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        before = app.session.combat.state.model_copy(deep=True)
        await pilot.press("i")
        await pilot.pause()
        await pilot.press(*"roto.json", "enter")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert app.session.combat.state == before
        assert any("not valid JSON" in n.message for n in app._notifications)


async def test_import_from_a_fought_encounter_offers_their_wounds() -> None:
    """Issue 38: a file whose combat left wounds asks to bring them too (ticked): Bruno's
    grave wound and Ana's aturdido come with them; unticked, only the sheets."""
    from textual.widgets import Checkbox

    from tests.engine.test_carry import fight

    folder = config.data_dir()
    folder.mkdir(parents=True)
    storage.save(fight(), folder / "pelea.json")
    for bring in (True, False):
        app = make_app(Session.new(Encounter(name="Puerto")), journal=False)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("i")
            await pilot.pause()
            await pilot.press(*"pelea.json", "enter")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, RosterDialog)
            box = dialog.query_one("#carried", Checkbox)
            assert box.value and "Bruno, Ana" in str(box.label)
            if not bring:  # the DJ unticks it
                await pilot.press("tab", "space")
                await pilot.pause()
            assert box.value == bring
            await pilot.press("enter")
            await app.workers.wait_for_complete()
            await pilot.pause()
            state = app.session.combat.state
            assert len(state.characters) == 4
            assert (state.body("Bruno").counters.w == 13) == bring
            assert bool([c for c in state.body("Ana").conditions
                         if c.name == "aturdido"]) == bring
