"""Atomic saves: the old file survives any failure, and the previous version is kept."""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
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


# ---- a real full disk (a small tmpfs) ---------------------------------------------------------

PAGE = 4096


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs: a real disk that fills up. Skipped where mounting is not allowed."""
    mount = shutil.which("mount")
    if not sys.platform.startswith("linux") or mount is None:
        pytest.skip("a small tmpfs needs Linux and mount(8)")
    if os.geteuid() != 0:
        pytest.skip("mounting a small tmpfs needs root")
    folder = tmp_path / "disk"
    folder.mkdir()
    result = subprocess.run([mount, "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)],
                            capture_output=True, text=True, check=False)
    if result.returncode != 0:
        pytest.skip(f"mounting a tmpfs is not permitted here: {result.stderr.strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def padded_combat(notes: int) -> Combat:
    """A combat whose file is about `notes` bytes, so the tmpfs fills at a known point."""
    combat = Combat(Encounter(name="Disco lleno", characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14, notes="n" * notes),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12),
    ]))
    combat.execute(StartCombat())
    return combat


def fill(folder: Path, leave_pages: int) -> None:
    """Fill the disk, then free `leave_pages` pages of it."""
    filler = folder / "relleno"
    with open(filler, "wb", buffering=0) as stream, contextlib.suppress(OSError):
        while True:
            stream.write(b"\0" * PAGE)
    size = filler.stat().st_size
    os.truncate(filler, max(0, size - leave_pages * PAGE))


def pages(size: int) -> int:
    return -(-size // PAGE)


def saved_with_backup(folder: Path) -> tuple[Path, Combat, bytes, bytes]:
    """A file saved twice (so a valid .bak exists: a small early version of it), and
    the next version in memory."""
    path = folder / "enc.json"
    storage.save(padded_combat(0), path)
    combat = padded_combat(12_000)  # the notes grew: the file is now 3-4 pages
    combat.execute(Declare(character="Ana", actions=[Action(description="aims")]))
    storage.save(combat, path)
    combat.execute(Declare(character="Bruno", actions=[Action(description="waits")]))
    return path, combat, path.read_bytes(), storage.backup_path(path).read_bytes()


def assert_saved_or_untouched(path: Path, combat: Combat, before: bytes, backup: bytes,
                              error: SombraError | None) -> None:
    """Issue 9: either the save happened (the file is new, the .bak its previous
    version) or it failed and left the file AND its .bak exactly as they were."""
    if error is None:
        assert storage.load(path).state == combat.state
        assert storage.backup_path(path).read_bytes() == before
    else:
        assert "disk is full" in str(error) and "was not changed" in str(error)
        assert path.read_bytes() == before
        assert storage.backup_path(path).read_bytes() == backup
    assert sorted(p.name for p in path.parent.iterdir()) == ["enc.json", "enc.json.bak",
                                                            "relleno"]


def try_save(combat: Combat, path: Path) -> SombraError | None:
    try:
        storage.save(combat, path)
    except SombraError as error:
        return error
    return None


def test_full_disk_room_for_the_new_file_but_not_a_copy_keeps_the_backup(
        small_disk: Path) -> None:
    """The reported case: the new version fits, a copy of the old one for the .bak does
    not. A copied backup was left half written while the message said nothing changed."""
    path, combat, before, backup = saved_with_backup(small_disk)
    fill(small_disk, leave_pages=pages(len(storage.dumps(combat).encode())))
    error = try_save(combat, path)
    assert_saved_or_untouched(path, combat, before, backup, error)


def test_full_disk_without_hard_links_fails_cleanly(small_disk: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Where hard links are not available (FAT, some network disks) the backup is a copy,
    written like the save itself: a copy that does not fit leaves the .bak as it was."""
    path, combat, before, backup = saved_with_backup(small_disk)
    fill(small_disk, leave_pages=pages(len(storage.dumps(combat).encode())))

    def no_links(*_args: object, **_kwargs: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    error = try_save(combat, path)
    assert error is not None  # the copy cannot fit beside the new version
    assert_saved_or_untouched(path, combat, before, backup, error)


def test_full_disk_no_room_even_for_the_new_file(small_disk: Path) -> None:
    path, combat, before, backup = saved_with_backup(small_disk)
    fill(small_disk, leave_pages=1)
    error = try_save(combat, path)
    assert error is not None
    assert_saved_or_untouched(path, combat, before, backup, error)
