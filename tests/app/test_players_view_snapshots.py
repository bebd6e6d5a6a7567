"""SVG snapshots of the players' view dialog (issue 23 item 4): the address, its QR code
and the local network's box, at 120x40 and at the 80x24 minimum. The dialog is shown
with a fixed address (the real one names this machine and a random token)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sombra_tui.config import CONFIG_DIR_ENV, DATA_DIR_ENV
from sombra_tui.screens.dialogs.players import PlayersViewDialog
from tests.app import drivers as shots

SIZES = {"120x40": shots.SIZE, "80x24": (80, 24)}
URL = "http://192.168.1.20:8765/Xq3vB7kTn2Lw9pQa/"


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CONFIG_DIR_ENV, str(tmp_path / "config"))
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path / "data"))


async def players_dialog(pilot: Any) -> None:
    await shots.settle(pilot)
    await pilot.app.push_screen(PlayersViewDialog(URL, lan=True, clients=3, stop_keys="f8",
                                                  shown_as="F8"))
    await shots.settle(pilot)


@pytest.mark.parametrize("size", SIZES.values(), ids=SIZES.keys())
def test_players_view_dialog(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(shots.make_app(size=size), terminal_size=size,
                        run_before=players_dialog)
