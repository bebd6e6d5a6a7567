"""S1 (issue 41 item 6): `sombra-tui FILE` with a long file takes the path the app's own
Open takes: the stored state shown at once, the replay that checks it run after the
first screen; a file with a key written twice is still refused before the app starts;
and once checked, the first undo is a swap (no replay)."""

from __future__ import annotations

from pathlib import Path

import pytest

from sombra_tui import cli
from sombra_tui.app import SombraApp
from sombra_tui.engine import Combat, storage
from tests import builders
from tests.app.conftest import SIZE, make_app


@pytest.fixture(scope="module")
def long_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    encounter = builders.build_encounter(12)
    path = tmp_path_factory.mktemp("long") / "larga.sombra.json"
    storage.save(Combat(encounter, builders.build_history(encounter, storage.BACKGROUND_FROM)),
                 path)
    return path


async def test_s1_the_command_line_shows_a_long_file_from_its_state_and_checks_it_after(
        long_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    replayed = Combat(storage.load(long_file).encounter, storage.load(long_file).commands)
    session = cli.open_or_create(long_file)
    combat = session.combat
    assert combat.checking  # shown from its stored state: nothing replayed yet
    assert combat.state == replayed.state
    app = make_app(session, journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()  # the check, between frames
        for _turn in range(400):  # by turns of the event loop, no clock
            if not combat.checking:
                break
            await pilot.pause()
        assert not combat.checking and combat.check_problem is None

        def replays() -> None:
            raise AssertionError("the first undo after opening replayed the history")

        monkeypatch.setattr(combat, "_refill", replays)
        await pilot.press("u")
        assert combat.commands == replayed.commands[:-1]


def test_s1_the_command_line_refuses_a_key_twice_before_the_app_starts(
        long_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    text = long_file.read_text(encoding="utf-8")
    bad = tmp_path / "mala.sombra.json"
    bad.write_text(text.replace('\n "dice_drawn": ', '\n "dice_drawn": 1,\n "dice_drawn": ',
                                1), encoding="utf-8")
    started: list[object] = []
    monkeypatch.setattr(SombraApp, "run", lambda self, *a, **k: started.append(self))
    assert cli.main([str(bad)]) == 2
    assert started == []
    assert '"dice_drawn" twice' in capsys.readouterr().err
