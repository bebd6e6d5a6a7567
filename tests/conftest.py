"""Fixtures for every test: the language is pinned, never the machine's locale.

The existing tests read the app in English (the catalog's source language); a test
that wants Spanish (or the pseudo-language) sets it itself with
`sombra_tui.engine.i18n.set_language` or the `spanish` fixture.

Every test also gets its lane marker here, by where it lives, so that none is
forgotten (README, "Tests in lanes"): `engine` (tests/engine), `app` (tests/app),
`snapshot` (a test that uses `snap_compare`), `browser` (tests/web: the players' page in
chromium), `install` (tests/install: the wheel built and installed in a fresh venv) and
`serial` (the modules in SERIAL_MODULES, which run alone, never next to other tests).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from sombra_tui.engine import i18n

TESTS = Path(__file__).resolve().parent

#: The modules whose tests run alone (`-m serial`, without xdist): the performance
#: tests, which replay long scripted histories through the engine and the app and count
#: the frames a command draws (a frame split by a busy neighbour would read as two).
#: The benchmark's own tests (`sombra-tui bench --quick`) assert no figure, so they run
#: in the parallel pass.
SERIAL_MODULES = ("test_performance.py",)


def lane_markers(path: Path, fixtures: list[str]) -> list[str]:
    """The lane markers of a test in `path` using `fixtures`."""
    markers = []
    parts = path.relative_to(TESTS).parts
    if parts[0] == "engine":
        markers.append("engine")
    elif parts[0] == "app":
        markers.append("app")
    elif parts[0] == "web":
        markers.append("browser")
    elif parts[0] == "install":
        markers.append("install")
    if "snap_compare" in fixtures:
        markers.append("snapshot")
    if parts[-1] in SERIAL_MODULES:
        markers.append("serial")
    return markers


#: `-n auto` (pyproject.toml): this many workers a core. A Pilot test spends most of its
#: wall time waiting, not computing: after every key Textual's Pilot sleeps in steps of
#: 20 ms until the app is idle, and tests wait for fresh processes they spawn. With one
#: worker a core the workers were busy about a third of the time; with two a core the
#: parallel pass took 5 min 41 s against 7 min 32 s, run one after the other (README,
#: "Tests in lanes").
WORKERS_PER_CORE = 2


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """pytest-xdist's hook for `-n auto`: WORKERS_PER_CORE workers for each core this
    process may run on."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cores = os.cpu_count() or 1
    return WORKERS_PER_CORE * cores


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for marker in lane_markers(item.path, getattr(item, "fixturenames", [])):
            item.add_marker(marker)


@pytest.fixture(autouse=True)
def pinned_language(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """English for the test, and LANGUAGE=en for any sombra-tui it starts."""
    for variable in i18n.LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANGUAGE", "en")
    i18n.set_language("en")
    yield "en"
    i18n.set_language("en")


@pytest.fixture
def spanish(monkeypatch: pytest.MonkeyPatch) -> str:
    """Spanish for the test (and LANGUAGE=es for any sombra-tui it starts)."""
    monkeypatch.setenv("LANGUAGE", "es")
    i18n.set_language("es")
    return "es"
