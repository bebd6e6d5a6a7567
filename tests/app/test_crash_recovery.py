"""SIGKILL a real app process at many points of a scripted combat; recovery must give
exactly the state after the last applied command (nothing lost, nothing invented)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sombra_tui.engine.history import Combat
from sombra_tui.engine.journal import find_journals, recover
from tests.app.crash_driver import encounter, script

ROOT = Path(__file__).resolve().parents[2]
TOTAL = len(script())
# Kill points spread over the whole script, start and end included.
KILL_AFTER = sorted({0, 1, 3, TOTAL // 3, TOTAL // 2, (2 * TOTAL) // 3, TOTAL - 2, TOTAL})


def run_and_kill(data: Path, after: int) -> int:
    """Start the driver, SIGKILL it once it reports `after` commands; return that count."""
    env = {**os.environ, "SOMBRA_TUI_DATA_DIR": str(data),
           "SOMBRA_TUI_CONFIG_DIR": str(data / "config")}
    process = subprocess.Popen([sys.executable, "-m", "tests.app.crash_driver"], cwd=ROOT,
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    assert process.stdout is not None
    reported = 0
    try:
        for line in process.stdout:
            word, _, number = line.strip().partition(" ")
            if word == "refused":
                pytest.fail(f"the script was refused at command {number}")
            if word == "applied":
                reported = int(number)
            if (word == "ready" and after == 0) or reported >= after:
                break
        else:
            pytest.fail("the driver stopped early: " + (process.stderr.read()
                                                         if process.stderr else ""))
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    return reported


@pytest.mark.parametrize("after", KILL_AFTER)
def test_sigkill_loses_nothing_applied(tmp_path: Path, after: int) -> None:
    reported = run_and_kill(tmp_path, after)
    [journal] = find_journals(tmp_path / "journal")
    recovered = recover(journal)
    applied = recovered.combat.commands
    full = script()
    # Every command reported as applied is there; at most the one in flight beyond it.
    assert reported <= len(applied) <= min(reported + 1, TOTAL)
    assert applied == full[: len(applied)]
    assert recovered.combat.state == Combat(encounter(), full[: len(applied)]).state
    # Nothing applied yet is nothing to resume (issue 9); anything applied is unsaved.
    assert recovered.clean is (len(applied) == 0)
