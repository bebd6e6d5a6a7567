"""Special files (a FIFO, /dev/zero, a folder) are refused with one line, never opened
for a blocking read, and no file is read past its size limit (issue 9).

Every reader of the app's files goes through `storage.read_regular_file`: encounter
files (open, and the import of characters, `i`), the preferences, the theme files and
the crash journals. The FIFO and device cases run in a child process with a time and
memory limit, so a reader that blocks or reads without end fails the test instead of
hanging it or eating the machine's memory.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sombra_tui.engine import Character, Combat, Encounter, storage
from sombra_tui.engine.errors import SombraError
from tests import builders

ROOT = Path(__file__).resolve().parents[2]
needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
needs_dev_zero = pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")

#: Runs in the child: each reader on the path given, printing what it said as JSON.
CHILD = """
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (768 << 20, 768 << 20))
from pathlib import Path
from sombra_tui import config, themes
from sombra_tui.engine import journal, storage
from sombra_tui.engine.errors import SombraError

path = Path(sys.argv[1])
said = {}
for name, read in [("load", storage.load), ("import", storage.read_roster),
                   ("theme", themes.load_theme_file), ("journal", journal.recover)]:
    try:
        read(path)
        said[name] = "read"
    except (SombraError, themes.ThemeFileError) as error:
        said[name] = str(error)
said["preferences"] = config.load_preferences(path).warning
print(json.dumps(said))
"""

READERS = ["load", "import", "theme", "journal", "preferences"]


def read_in_child(path: Path) -> dict[str, str]:
    try:
        result = subprocess.run([sys.executable, "-c", CHILD, str(path)], cwd=ROOT,
                                capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a reader blocked on {path}")
    assert result.returncode == 0, result.stderr[-2000:]
    said: dict[str, str] = json.loads(result.stdout)
    return said


def assert_one_line_refusals(said: dict[str, str], path: Path, words: str) -> None:
    assert sorted(said) == sorted(READERS)
    for reader, message in said.items():
        assert message != "read", reader
        assert str(path) in message and words in message, (reader, message)
        assert "\n" not in message, (reader, message)


@needs_fifo
def test_a_fifo_is_refused_by_every_reader(tmp_path: Path) -> None:
    fifo = tmp_path / "combate.json"
    os.mkfifo(fifo)
    assert_one_line_refusals(read_in_child(fifo), fifo, "named pipe (FIFO)")


@needs_dev_zero
def test_dev_zero_is_refused_by_every_reader(tmp_path: Path) -> None:
    link = tmp_path / "ceros.json"  # as a file the DJ might pick, or a broken config
    link.symlink_to("/dev/zero")
    assert_one_line_refusals(read_in_child(link), link, "a device")


def test_a_folder_is_refused_by_every_reader(tmp_path: Path) -> None:
    folder = tmp_path / "carpeta.json"
    folder.mkdir()
    assert_one_line_refusals(read_in_child(folder), folder, "is a folder")


@needs_dev_zero
def test_the_command_line_refuses_dev_zero_in_one_line() -> None:
    """`sombra-tui /dev/zero` used to read without end and die of MemoryError."""
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (768 << 20, "
            "768 << 20)); from sombra_tui import cli; sys.exit(cli.main(['/dev/zero']))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 2, result.stderr[-2000:]
    assert result.stderr == ("sombra-tui: /dev/zero is a device, not a regular file, so it "
                             "cannot be an encounter file.\n")


@needs_fifo
def test_a_fifo_swapped_in_after_the_check_neither_blocks_nor_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check before opening can be raced; the open must not block on a FIFO (no
    writer ever comes) and the check after opening refuses it."""
    fifo = tmp_path / "combate.json"
    os.mkfifo(fifo)
    regular = tmp_path / "regular.json"
    regular.write_bytes(b"{}")
    real_stat = os.stat

    def looks_regular(path: object, *args: object, **kwargs: object) -> os.stat_result:
        if Path(str(path)) == fifo:  # what the check saw a moment before the swap
            return real_stat(regular)
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", looks_regular)
    outcome: list[BaseException | bytes] = []

    def read() -> None:
        try:
            outcome.append(storage.read_regular_file(fifo, 1024))
        except BaseException as error:  # handed to the test thread
            outcome.append(error)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout=30)
    if reader.is_alive():  # blocked in open(): a writer lets it go, then fail
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(timeout=30)
        pytest.fail("opening the FIFO blocked")
    [result] = outcome
    assert isinstance(result, SombraError), result
    assert "named pipe" in str(result) and str(fifo) in str(result)


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="no /proc")
def test_the_limit_holds_while_reading_a_file_whose_size_says_zero() -> None:
    """Files in /proc are regular and say 0 bytes: the limit must hold as bytes arrive,
    not only from the size the file claims."""
    path = Path("/proc/self/status")
    assert os.stat(path).st_size == 0 and stat.S_ISREG(os.stat(path).st_mode)
    with pytest.raises(SombraError, match="too large") as info:
        storage.read_regular_file(path, 64)
    assert str(path) in str(info.value) and "more than 64 bytes" in str(info.value)
    assert len(storage.read_regular_file(path, 1 << 20)) > 64  # within the limit: read


def test_a_file_of_exactly_the_limit_is_read_one_byte_more_is_not(tmp_path: Path) -> None:
    path = tmp_path / "justo.json"
    path.write_bytes(b"x" * 100)
    assert storage.read_regular_file(path, 100) == b"x" * 100
    with pytest.raises(SombraError, match="too large"):
        storage.read_regular_file(path, 99)


def test_a_missing_file_is_its_own_error(tmp_path: Path) -> None:
    with pytest.raises(storage.MissingFileError, match="does not exist"):
        storage.read_regular_file(tmp_path / "nada.json", 100)


@needs_fifo
def test_saving_over_a_fifo_is_refused_and_leaves_it(tmp_path: Path) -> None:
    """A save must not replace a special file with the encounter (nor back it up)."""
    fifo = tmp_path / "tubo.json"
    os.mkfifo(fifo)
    combat = Combat(Encounter(name="Tubo", characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14)]))
    with pytest.raises(SombraError, match="not a regular file") as info:
        storage.save(combat, fifo)
    assert str(fifo) in str(info.value)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tubo.json"]


def test_the_size_limit_fits_real_files_with_room_and_no_more() -> None:
    """Issue 9: the limit sits where real files end, with a wide margin, not far beyond
    (a worst-case file under it must be refused or loaded in about a second): between
    2 and 4 times the size of an app-written 10,000-command combat, estimated from the
    bench's scripted DJ (1,000 commands, scaled). The state snapshot a file keeps since
    issue 24 does not grow with the history (the state holds the current asalto: 0.3 to
    0.4 MB from 1,000 to 10,000 commands here), so it is added once, not scaled."""
    encounter = builders.build_encounter(200)
    combat = Combat(encounter, builders.build_history(encounter, 1000))

    def size(each: Combat) -> int:
        return len(storage.dumps(each).encode())

    def snapshot(each: Combat) -> int:
        return len(each.state.model_dump_json(indent=1).encode())

    empty = size(Combat(encounter)) - snapshot(Combat(encounter))
    per_command = (size(combat) - snapshot(combat) - empty) / 1000
    ten_thousand = empty + 10_000 * per_command + snapshot(combat)
    assert 2 * ten_thousand <= storage.MAX_FILE_BYTES <= 4 * ten_thousand
