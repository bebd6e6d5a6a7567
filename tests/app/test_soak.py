"""The key-monkey soak (tests/app/monkey.py), on a short budget: two seeds, one in
each language, a few hard stops each. README ("Tests in lanes") gives the long run.

It is CPU-heavy and its subprocesses want the machine to themselves: serial lane."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from sombra_tui.engine.history import Combat
from sombra_tui.session import Session
from tests.app import monkey
from tests.app.crash_driver import encounter, script


@pytest.mark.serial
@pytest.mark.parametrize("seed", [1, 2])
def test_s1_the_monkey_breaks_nothing_and_a_hard_stop_loses_nothing(seed: int) -> None:
    run = monkey.soak(seed, total=120, every=50)
    assert not run.failure, "\n".join(run.failure)
    assert run.events == 120 and run.kills >= 1 and run.commits > run.kills


def test_a_seed_gives_the_same_stream_and_kill_points() -> None:
    """A failure replays from its seed alone."""
    table = monkey.table_keys()
    first = list(itertools.islice(monkey.stream(5, table), 500))
    assert first == list(itertools.islice(monkey.stream(5, table), 500))
    assert first != list(itertools.islice(monkey.stream(6, table), 500))
    assert monkey.kill_points(5, 1000, 100) == monkey.kill_points(5, 1000, 100)
    assert {"space", "enter", "escape", "tab"} <= {key for event in first for key in event.keys}
    assert any(len(event.keys) > 1 for event in first)  # bursts
    assert any(event.size for event in first)  # resizes
    assert not {"ctrl+q", "ctrl+c"} & set(table)  # quitting from anywhere


def journaled(tmp_path: Path, commands: int) -> tuple[Path, Session]:
    session = Session(Combat(encounter()))
    session.start_journal(tmp_path)
    for command in script()[:commands]:
        session.execute(command)
    assert session.journal is not None
    return session.journal.path, session


def test_s1_a_hard_stop_that_lost_committed_work_is_reported(tmp_path: Path) -> None:
    """The soak's own check can fail: a journal shorter than what was reported."""
    path, session = journaled(tmp_path, 6)
    hashed = monkey.state_hash(session.combat.state)
    lines = path.read_text(encoding="utf-8").split("\n")
    assert monkey._check_recovery({str(path): {6: hashed}}, (str(path), 6, hashed)) == hashed
    path.write_text("\n".join(lines[:-3]) + "\n", encoding="utf-8")  # two operations lost
    with pytest.raises(monkey.Broken, match="lost committed work"):
        monkey._check_recovery({str(path): {6: hashed}}, (str(path), 6, hashed))


def test_s1_a_journal_that_replays_elsewhere_is_reported(tmp_path: Path) -> None:
    path, session = journaled(tmp_path, 6)
    header, *rest = path.read_text(encoding="utf-8").split("\n")
    data = json.loads(header)
    data["encounter"]["characters"][0]["alerta"] += 1  # another combat, same history
    path.write_text("\n".join([json.dumps(data), *rest]), encoding="utf-8")
    hashed = monkey.state_hash(session.combat.state)
    with pytest.raises(monkey.Broken, match="another state"):
        monkey._check_recovery({str(path): {6: hashed}}, (str(path), 6, hashed))
