"""The combat report from the app (issue 38 item 2): its key (ctrl+e) and the palette
write it beside the encounter's file, or in the data folder when unsaved, and say where;
the encounter's file is left as it was."""

from __future__ import annotations

import os

from textual.command import CommandPalette

from sombra_tui.engine import commands as c
from sombra_tui.engine import storage
from sombra_tui.session import Session
from tests.app.conftest import (
    SIZE,
    Dirs,
    make_app,
    notifications,
    on_main_screen,
    session_after,
    type_text,
    worked_example_encounter,
)


async def test_report_key_writes_beside_the_saved_file_and_says_where(app_dirs: Dirs) -> None:
    session = session_after(worked_example_encounter(), c.StartCombat())
    folder = app_dirs.data / "campaña"
    folder.mkdir(parents=True)
    path = folder / "pelea.json"
    storage.save(session.combat, path)
    os.utime(path, (1_000_000, 1_000_000))
    before = path.read_bytes()
    app = make_app(Session.open(path), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+e")
        await pilot.pause()
        assert on_main_screen(app)
        md, html = folder / "pelea.report.md", folder / "pelea.report.html"
        assert md.is_file() and html.is_file()
        assert md.read_text(encoding="utf-8").startswith("# Combat report: Ejemplo")
        [(severity, message)] = notifications(app)
        assert severity == "information" and str(md) in message and str(html) in message
        await pilot.press("ctrl+e")  # again: new names, nothing replaced
        await pilot.pause()
        assert (folder / "pelea.report-2.md").is_file()
    assert path.read_bytes() == before and path.stat().st_mtime == 1_000_000


async def test_report_from_the_palette_of_an_unsaved_encounter_goes_to_the_data_folder(
        app_dirs: Dirs) -> None:
    app = make_app(session_after(worked_example_encounter(), c.StartCombat()),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+p")
        assert CommandPalette.is_open(app)
        await type_text(pilot, "Combat report")
        await pilot.press("enter")
        await pilot.pause()
        assert (app_dirs.data / "ejemplo.report.md").is_file()
        assert (app_dirs.data / "ejemplo.report.html").is_file()
        assert any(str(app_dirs.data / "ejemplo.report.html") in message
                   for _, message in notifications(app))
