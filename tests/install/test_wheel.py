"""Installed as a DJ installs it (issue 40 item 1): `python -m build` makes the sdist
and, from it, the wheel; the wheel holds the product, its themes and its compiled
catalog and nothing else; installed into a fresh venv (not the checkout) it answers
`sombra-tui --version` and the demo reaches its first screen in a terminal (a pty).

Lane `install` (tests/conftest.py), in the parallel pass: one test builds, lists,
installs and starts, so that xdist's workers never build twice; it mostly waits on pip,
not the CPU (some 20 s of CPU in 50-100 s). `pytest -m install` runs it alone. The
fresh venv's pip finds the dependencies as README's install does (the machine's pip
configuration: an index, or the local one offline)."""

from __future__ import annotations

import fcntl
import os
import re
import select
import shutil
import struct
import subprocess
import sys
import tarfile
import tempfile
import termios
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

import sombra_tui

ROOT = Path(__file__).resolve().parents[2]
VERSION = sombra_tui.__version__

#: The developers' tools, which lived in the package until issue 36 item 6 moved them
#: to the checkout's tests/tools: no module of these names is in the wheel, anywhere.
TOOLS = frozenset({"bench.py", "bench_stock.py", "screenshots.py"})

#: What the product is made of, by suffix: its code, the app's and the players' page's
#: look (Textual CSS, the page's HTML, CSS and scripts).
PRODUCT_SUFFIXES = (".py", ".tcss", ".html", ".css", ".js")
#: The demo's first screen shows the demo encounter's name in its header.
FIRST_SCREEN = "Emboscada en el muelle"
#: Every wait here is bounded: a build, an install, a start that hangs fails the test.
BUILD_TIMEOUT = 600
START_TIMEOUT = 120


def tracked(*paths: str) -> list[str]:
    listed = subprocess.run(["git", "ls-files", "--", *paths], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    return listed.split()


def build(tmp: Path) -> Path:
    """The sdist and the wheel `python -m build` makes (the wheel from the sdist), from a
    copy of the tracked files, so that nothing of the working tree but them goes in."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout (the tracked files are the source)")
    source = tmp / "source"
    for name in tracked("."):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    out = tmp / "dist"
    # No isolation: the build backend (hatchling) and `build` come with the test extra,
    # so no build environment is installed for each run.
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out),
                    str(source)], check=True, capture_output=True, timeout=BUILD_TIMEOUT)
    return out


def wheel_of(dist: Path) -> Path:
    [wheel] = dist.glob("sombra_tui-*-py3-none-any.whl")
    return wheel


def check_the_sdist_and_the_wheel_are_built(dist: Path) -> None:
    [sdist] = dist.glob("sombra_tui-*.tar.gz")
    assert sdist.name == f"sombra_tui-{VERSION}.tar.gz"
    assert wheel_of(dist).name == f"sombra_tui-{VERSION}-py3-none-any.whl"
    with tarfile.open(sdist) as archive:
        names = {name.split("/", 1)[1] for name in archive.getnames() if "/" in name}
    assert {"pyproject.toml", "README.md", "README.es.md", "sombra_tui/cli.py",
            "themes/sombra.toml", "tests/conftest.py", "tests/tools/bench.py"} <= names


def check_the_wheel_holds_the_product_its_themes_and_catalogs_and_nothing_else(
        dist: Path) -> None:
    with zipfile.ZipFile(wheel_of(dist)) as wheel:
        names = set(wheel.namelist())
    info = f"sombra_tui-{VERSION}.dist-info/"
    product = {name for name in tracked("sombra_tui")
               if name.endswith(PRODUCT_SUFFIXES)}
    themes = {f"sombra_tui/themes/{Path(name).name}" for name in tracked("themes")
              if name.endswith(".toml")}
    catalogs = {name for name in tracked("sombra_tui/locale") if name.endswith(".mo")}
    assert themes and catalogs and "sombra_tui/players/page.html" in product
    metadata = {name for name in names if name.startswith(info)}
    assert names - metadata == product | themes | catalogs
    assert {info + name for name in ("METADATA", "WHEEL", "RECORD",
                                     "entry_points.txt")} <= metadata
    # Not the catalog's sources, the tests, the developers' tools, caches or anything
    # else of the checkout.
    assert not [name for name in names if name.endswith((".po", ".pot", ".pyc"))
                or name.startswith("tests/") or Path(name).name in TOOLS]


def test_the_tools_are_in_the_checkout_and_not_in_the_package() -> None:
    """Issue 36 item 6: the benchmark and the screenshots live in tests/tools (the wheel
    is built from sombra_tui alone, so they cannot ship), not in the package."""
    assert {f"tests/tools/{name}" for name in TOOLS} <= set(tracked("tests/tools"))
    assert not [name for name in tracked("sombra_tui") if Path(name).name in TOOLS]


def install(dist: Path, tmp: Path) -> Path:
    """A fresh venv with the wheel installed by pip (its dependencies as pip finds them
    for README's install); its bin folder."""
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True,
                   capture_output=True, timeout=BUILD_TIMEOUT)
    pip = subprocess.run([str(venv / "bin" / "pip"), "install", "--no-compile", "-q",
                          str(wheel_of(dist))], capture_output=True, text=True,
                         timeout=BUILD_TIMEOUT, cwd=venv)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return venv / "bin"


def outside_env(tmp: Path) -> dict[str, str]:
    """The installed app's environment: no checkout on its path, its own folders."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(SOMBRA_TUI_DATA_DIR=str(tmp / "data"), SOMBRA_TUI_CONFIG_DIR=str(tmp / "config"),
               LANGUAGE="en", TERM="xterm-256color", COLUMNS="120", LINES="40")
    return env


def check_the_installed_wheel_answers_its_version_from_its_own_venv(
        installed: Path, tmp_path: Path) -> None:
    env = outside_env(tmp_path)
    version = subprocess.run([str(installed / "sombra-tui"), "--version"], cwd=tmp_path,
                             env=env, capture_output=True, text=True, timeout=START_TIMEOUT)
    assert (version.returncode, version.stdout.strip()) == (0, f"sombra-tui {VERSION}")
    where = subprocess.run([str(installed / "python"), "-c",
                            "import sombra_tui; print(sombra_tui.__file__)"], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=START_TIMEOUT)
    assert Path(where.stdout.strip()).is_relative_to(installed.parent)  # not the checkout


def check_the_installed_bench_says_it_runs_from_a_checkout(installed: Path,
                                                           tmp_path: Path) -> None:
    """The benchmark is not in the wheel: `sombra-tui bench` says where it runs (issue 36
    item 6), with status 1, rather than failing to import it."""
    bench = subprocess.run([str(installed / "sombra-tui"), "bench", "--quick"], cwd=tmp_path,
                           env=outside_env(tmp_path), capture_output=True, text=True,
                           timeout=START_TIMEOUT)
    assert bench.returncode == 1, bench.stdout + bench.stderr
    assert "source checkout" in bench.stderr and "Traceback" not in bench.stderr, bench.stderr


ESCAPES = re.compile(rb"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[@-Z\\-_])")


def screen_text(output: bytes) -> str:
    """What a terminal shows of `output`, escape sequences removed."""
    return ESCAPES.sub(b"", output).decode("utf-8", "replace")


def read_until(fd: int, process: subprocess.Popen[bytes], wanted: str | None
               ) -> Iterator[bytes]:
    """The pty's output, chunk by chunk, until `wanted` is on screen (None: until the
    process ends), or the process ended; the time is bounded."""
    output = b""
    deadline = time.monotonic() + START_TIMEOUT
    while process.poll() is None and (wanted is None or wanted not in screen_text(output)):
        left = deadline - time.monotonic()
        assert left > 0, f"still waiting for {wanted or 'the end'!r} after {START_TIMEOUT} s: " \
            f"{screen_text(output)[-2000:]!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the other side closed
                break
            output += chunk
            yield chunk


def check_the_installed_demo_reaches_its_first_screen_in_a_terminal(
        installed: Path, tmp_path: Path) -> None:
    """The installed app in a pty of 120x40: the demo's first screen (its encounter's
    name) is drawn; q quits it, untouched, with status 0."""
    main, child = os.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    process = subprocess.Popen([str(installed / "sombra-tui")], stdin=child, stdout=child,
                               stderr=child, cwd=tmp_path, env=outside_env(tmp_path),
                               start_new_session=True)
    os.close(child)
    try:
        output = b"".join(read_until(main, process, FIRST_SCREEN))
        assert FIRST_SCREEN in screen_text(output), screen_text(output)
        os.write(main, b"q")
        # Read on while it quits: a pty nobody reads fills up, and its last frames and
        # the terminal's reset would block it.
        for _chunk in read_until(main, process, None):
            pass
        assert process.wait(timeout=START_TIMEOUT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        os.close(main)


@pytest.fixture
def own_tmp() -> Iterator[Path]:
    """A folder of this test's own, not under pytest's shared base: pytest prunes the
    oldest of those as other runs start, and a venv there vanished mid-test."""
    with tempfile.TemporaryDirectory(prefix="sombra-tui-install-") as folder:
        yield Path(folder)


def test_built_listed_installed_from_the_wheel_and_started(own_tmp: Path) -> None:
    """Issue 40 item 1, in order: build, list the sdist and the wheel, install the wheel
    in a fresh venv, ask its version and its benchmark (not there), start its demo in
    a pty."""
    dist = build(own_tmp)
    check_the_sdist_and_the_wheel_are_built(dist)
    check_the_wheel_holds_the_product_its_themes_and_catalogs_and_nothing_else(dist)
    installed = install(dist, own_tmp)
    home = own_tmp / "home"
    home.mkdir()
    check_the_installed_wheel_answers_its_version_from_its_own_venv(installed, home)
    check_the_installed_bench_says_it_runs_from_a_checkout(installed, home)
    check_the_installed_demo_reaches_its_first_screen_in_a_terminal(installed, home)
