"""Atomic saves: the old file survives any failure, and the previous version is kept."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from sombra_tui.engine import Action, Character, Combat, Declare, Encounter, StartCombat, storage
from sombra_tui.engine.errors import SombraError


def small_combat() -> Combat:
    combat = Combat(Encounter(name="Atómico", characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12),
    ]))
    combat.execute(StartCombat())
    return combat


def test_save_replaces_the_file_and_keeps_the_previous_version(tmp_path: Path) -> None:
    path = tmp_path / "combate.json"
    combat = small_combat()
    storage.save(combat, path)
    first = path.read_bytes()
    combat.execute(Declare(character="Ana", actions=[Action(description="aims")]))
    storage.save(combat, path)
    assert storage.backup_path(path).read_bytes() == first
    assert storage.load(path).state == combat.state
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_disk_full_leaves_the_old_file_intact(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "combate.json"
    combat = small_combat()
    storage.save(combat, path)
    before = path.read_bytes()
    combat.execute(Declare(character="Ana", actions=[Action(description="aims")]))

    def full(_descriptor: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(SombraError, match="disk is full") as info:
        storage.save(combat, path)
    assert str(path) in str(info.value)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["combate.json"]
    assert len(combat.commands) == 2  # the combat in memory is untouched


def test_saving_into_a_missing_folder_says_so(tmp_path: Path) -> None:
    path = tmp_path / "gone" / "combate.json"
    with pytest.raises(SombraError, match="does not exist"):
        storage.save(small_combat(), path)
    assert not path.parent.exists()


def test_saving_over_a_folder_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SombraError, match="is a folder"):
        storage.save(small_combat(), tmp_path)


def test_permission_denied_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                       ) -> None:
    path = tmp_path / "combate.json"

    def denied(*_args: object, **_kwargs: object) -> tuple[int, str]:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(storage.tempfile, "mkstemp", denied)
    with pytest.raises(SombraError, match="permission denied"):
        storage.save(small_combat(), path)
    assert not path.exists()
