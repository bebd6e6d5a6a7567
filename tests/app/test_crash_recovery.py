"""SIGKILL a real app process at many points of a scripted combat; recovery must give
exactly the state after the last applied command (nothing lost, nothing invented).

Also after a resume (killed at once, resumed again, saved), and with dialogs open: the
offer to resume itself, its discard confirmation, and the DJ's dialogs (issue 9)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input

from sombra_tui import config, ui_state
from sombra_tui.engine import ProposalKind, storage
from sombra_tui.engine import commands as c
from sombra_tui.engine.dice import Dice
from sombra_tui.engine.history import Combat
from sombra_tui.engine.journal import Recovered, find_journals, recover
from sombra_tui.screens.dialogs import ChoiceDialog
from sombra_tui.screens.dialogs.group_rolls import GroupRollDialog
from sombra_tui.screens.dialogs.hit import HitDialog
from sombra_tui.screens.flow import TableFlow
from sombra_tui.session import Session
from tests.app.conftest import make_app
from tests.app.crash_driver import (
    DIALOG_KEYS,
    encounter,
    group_first,
    group_hit_first,
    script,
)

ROOT = Path(__file__).resolve().parents[2]
TOTAL = len(script())
# Kill points spread over the whole script, start and end included.
KILL_AFTER = sorted({0, 1, 3, TOTAL // 3, TOTAL // 2, (2 * TOTAL) // 3, TOTAL - 2, TOTAL})


def drive(data: Path, *options: str, until: str) -> list[str]:
    """Start the driver with `options`, SIGKILL it once it prints a line starting with
    `until`; return the lines it printed."""
    env = {**os.environ, "SOMBRA_TUI_DATA_DIR": str(data),
           "SOMBRA_TUI_CONFIG_DIR": str(data / "config")}
    process = subprocess.Popen([sys.executable, "-m", "tests.app.crash_driver", *options],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    lines: list[str] = []
    try:
        for line in process.stdout:
            lines.append(line.strip())
            if lines[-1].startswith(("refused", "not-saved", "no-dialog")):
                pytest.fail(f"the driver could not go on: {lines}")
            if lines[-1].startswith(until):
                break
        else:
            pytest.fail(f"the driver stopped early after {lines}: " +
                        (process.stderr.read() if process.stderr else ""))
        process.send_signal(signal.SIGKILL)
    finally:
        process.kill()
        process.wait(timeout=30)
    assert process.returncode == -signal.SIGKILL
    return lines


def run_and_kill(data: Path, after: int) -> int:
    """Play the script, SIGKILL once `after` commands are reported; return that count."""
    drive(data, "--play-to", str(after), until=f"applied {after}" if after else "ready")
    return after


def only_journal(data: Path) -> Recovered:
    [journal] = find_journals(data / "journal")
    return recover(journal)


def assert_holds(recovered: Recovered, reported: int) -> None:
    """Every command reported as applied is there; at most the one in flight beyond."""
    applied = recovered.combat.commands
    full = script()
    assert reported <= len(applied) <= min(reported + 1, TOTAL)
    assert applied == full[: len(applied)]
    assert recovered.combat.state == Combat(encounter(), full[: len(applied)]).state


@pytest.mark.parametrize("after", KILL_AFTER)
def test_sigkill_loses_nothing_applied(tmp_path: Path, after: int) -> None:
    reported = run_and_kill(tmp_path, after)
    recovered = only_journal(tmp_path)
    assert_holds(recovered, reported)
    # Nothing applied yet is nothing to resume (issue 9); anything applied is unsaved.
    assert recovered.clean is (len(recovered.combat.commands) == 0)


def test_sigkill_after_resumes_and_saves_loses_nothing(tmp_path: Path) -> None:
    """Issue 9's report: saved, one more command, killed; resumed and killed before any
    key. The second journal must still offer the unsaved command; a second resume plays
    on; a resume then a save leaves nothing to offer, and the file holds it all."""
    file = tmp_path / "combate-interrumpido.json"
    lines = drive(tmp_path, "--play-to", "5", "--save-at", "3", until="applied 5")
    assert "saved 3" in lines and len(storage.load(file).commands) == 3
    assert_holds(only_journal(tmp_path), 5)

    lines = drive(tmp_path, "--answer", "r", until="resumed")  # killed right away
    assert lines[-2:] == ["offered", "resumed 5"]
    recovered = only_journal(tmp_path)  # the resumed combat's own journal
    assert_holds(recovered, 5)
    assert recovered.clean is False and recovered.saved_path == file
    assert len(storage.load(file).commands) == 3  # the file is still the older state

    lines = drive(tmp_path, "--answer", "r", "--play-to", "9", until="applied 9")
    assert "resumed 5" in lines  # offered again: nothing was lost
    recovered = only_journal(tmp_path)
    assert_holds(recovered, 9)
    assert recovered.clean is False

    lines = drive(tmp_path, "--answer", "r", "--save", until="saved")
    held = int(next(line for line in lines if line.startswith("resumed")).split()[1])
    assert held >= 9
    assert only_journal(tmp_path).clean is True
    assert storage.load(file).commands == script()[:held]

    lines = drive(tmp_path, until="ready")
    assert "no-offer" in lines  # everything was saved: nothing to resume
    assert only_journal(tmp_path).clean is True  # the new session's own, untouched


def test_sigkill_inside_the_offer_and_its_discard_confirmation(tmp_path: Path) -> None:
    """Killed while the offer to resume is on screen, then while "discard for good?"
    asks: the journal is still there, byte for byte, and resumes in full."""
    drive(tmp_path, "--play-to", "4", until="applied 4")
    [journal] = find_journals(tmp_path / "journal")
    before = journal.read_bytes()
    assert drive(tmp_path, until="offered")[-1] == "offered"
    assert find_journals(tmp_path / "journal") == [journal]
    assert journal.read_bytes() == before
    assert drive(tmp_path, "--answer", "d", until="dialog")[-1] == "dialog ConfirmDialog"
    assert find_journals(tmp_path / "journal") == [journal]
    assert journal.read_bytes() == before
    lines = drive(tmp_path, "--answer", "r", until="resumed")
    assert lines[-1] == "resumed 4"


@pytest.mark.parametrize(("dialog", "screen"), [("declare", "DeclarationEditor"),
                                                ("quit", "ChoiceDialog"),
                                                ("save-as", "FileDialog")])
def test_sigkill_with_a_dialog_open_loses_nothing_applied(tmp_path: Path, dialog: str,
                                                          screen: str) -> None:
    """A dialog half filled in when the process dies loses only what it held."""
    lines = drive(tmp_path, "--play-to", "1", "--dialog", dialog, until="dialog")
    assert lines[-1] == f"dialog {screen}"
    recovered = only_journal(tmp_path)
    assert recovered.combat.commands == script()[:1]
    assert recovered.clean is False
    lines = drive(tmp_path, "--answer", "r", until="resumed")
    assert lines[-1] == "resumed 1"


def test_sigkill_with_half_a_declaration_typed_brings_it_back_on_resume(
        tmp_path: Path) -> None:
    """Issue 35 item 5: half a declaration typed ("medio escr"), then the process is
    killed: the resume opens Ana's declaration again with the text typed."""
    lines = drive(tmp_path, "--play-to", "1", "--dialog", "declare", until="dialog")
    assert lines[-1] == "dialog DeclarationEditor"
    lines = drive(tmp_path, "--answer", "r", "--report-form", until="form")
    assert lines[-2:] == ["resumed 1", "form DeclarationEditor medio escr"]
    # Killed again with it open: it comes back again (kept under the new journal).
    lines = drive(tmp_path, "--answer", "r", "--report-form", until="form")
    assert lines[-1] == "form DeclarationEditor medio escr"


def test_sigkill_with_a_hit_by_hand_typed_brings_it_back_on_resume(tmp_path: Path) -> None:
    """Issue 35 item 5, a form of any kind: a hit by hand half made (its damage typed) on
    the selected character, then the process is killed: the resume opens it again."""
    lines = drive(tmp_path, "--play-to", "1", "--dialog", "hit", until="dialog")
    assert lines[-1] == "dialog ManualHitDialog"
    lines = drive(tmp_path, "--answer", "r", "--report-form", until="form")
    assert lines[-2:] == ["resumed 1", "form ManualHitDialog 17"]


def test_sigkill_with_a_form_of_the_sheet_typed_brings_it_back_on_resume(
        tmp_path: Path) -> None:
    """Issue 35 item 5, the sheet's forms too: healing half typed on the sheet, then the
    process is killed: the resume opens the sheet and its form again, with the points."""
    lines = drive(tmp_path, "--play-to", "1", "--dialog", "sheet-heal", until="dialog")
    assert lines[-1] == "dialog HealDialog"
    lines = drive(tmp_path, "--answer", "r", "--report-form", until="form")
    assert lines[-2:] == ["resumed 1", "form HealDialog 3"]


@pytest.mark.parametrize(("dialog", "form", "typed"), [
    ("sheet-wound", "WoundDialog", "12"), ("sheet-condition", "EditConditionDialog", "4"),
    ("extended", "ExtendedDialog", "5"), ("settings", "SettingsDialog", "Emboscada"),
    ("note", "NoteDialog", "llegan"), ("note-edit", "NoteDialog", "amanece")])
def test_sigkill_with_a_wound_a_condition_an_extended_action_or_the_settings_typed(
        tmp_path: Path, dialog: str, form: str, typed: str) -> None:
    """Issue 35 item 5, every form that sends a command: a wound or a condition edited on
    the sheet, an extended action adjusted, the encounter's settings, a note pinned or
    changed from the forecast, each half typed, then the process is killed: the resume
    opens it again (the sheet or the forecast first, for theirs), on the same wound,
    condition, extended action or note, with what was typed."""
    lines = drive(tmp_path, "--play-to", "1", "--dialog", dialog, until="dialog")
    assert lines[-1] == f"dialog {form}"
    lines = drive(tmp_path, "--answer", "r", "--report-form", until="form")
    assert lines[-1] == f"form {form} {typed}"


def test_sigkill_with_a_new_character_typed_brings_it_back_with_its_side(
        tmp_path: Path) -> None:
    """Issue 39 item 1 with issue 35 item 5: a new character half typed, its side
    changed with ctrl+t (the first character of no PC is a PC) and a skill typed in the
    new order of the fields, then the process is killed: the resume opens the form
    again with the name, the side and the skill."""
    lines = drive(tmp_path, "--play-to", "1", "--dialog", "character", until="dialog")
    assert lines[-1] == "dialog CharacterEditor"
    lines = drive(tmp_path, "--answer", "r", "--report-form", until="form")
    assert lines[-1] == "form CharacterEditor Rosa NPC Pelea 12"


def test_sigkill_with_the_quick_line_typed_brings_it_back_on_resume(tmp_path: Path) -> None:
    """Issue 39 item 4 with issue 35 item 5: "-7 pec" typed in the table's quick line,
    then the process is killed: the resume opens the line again with what was typed."""
    lines = drive(tmp_path, "--play-to", "1", "--dialog", "quick", until="dialog")
    assert lines[-1] == "dialog QuickPointsDialog"
    lines = drive(tmp_path, "--answer", "r", "--report-form", until="form")
    assert lines[-2:] == ["resumed 1", "form QuickPointsDialog -7 pec"]


def test_sigkill_with_the_group_s_dice_typed_brings_the_dialog_back_with_each_line(
        tmp_path: Path) -> None:
    """Issue 39 item 3 with issue 35 item 5: the two Matones' TAs in one dialog, dice
    typed on both lines (P3, T6), then the process is killed: the resume opens the
    group's dialog again with both lines as typed."""
    lines = drive(tmp_path, "--play-to", "0", "--dialog", "group", until="dialog")
    assert lines[-1] == "dialog GroupRollDialog"
    lines = drive(tmp_path, "--answer", "r", "--report-form", until="form")
    assert lines[-2:] == [f"resumed {len(group_first())}",
                          "form GroupRollDialog 3 4 2 | 5 1 1"]


@pytest.mark.parametrize(("dialog", "count", "form"), [
    ("group-hit", 3, "GroupRollDialog 5 1 1 | 6 2 2"), ("pair-hit", 2, "TADialog 5 1 1")])
def test_sigkill_on_a_hit_between_members_brings_back_the_hit_then_the_others_dice(
        tmp_path: Path, dialog: str, count: int, form: str) -> None:
    """Issue 39 item 3 with issue 35 item 5 (nothing typed is lost): three Matones who
    declared together (DeclareGroup, D1) shoot Ana, dice typed on each line, Enter:
    Matón 1 hits, and its hit is open (H1: settled before the next member is sent) when
    the process is killed. The journal holds Matón 1's TA and its open hit; the resume
    opens that hit as the engine has it, and once it is accepted the group's dialog for
    Matón 2 and 3, with the dice typed for them. Two Matones: the one left opens its
    own TA dialog, with its dice (as after Escape on that hit)."""
    lines = drive(tmp_path, "--play-to", "0", "--dialog", dialog, until="dialog")
    assert lines[-1] == "dialog HitDialog"
    recovered = only_journal(tmp_path)
    assert recovered.combat.commands == [
        *group_hit_first(count), c.Resolve(character="Matón 1", dice=Dice.of(3, 4, 2))]
    [hit] = recovered.combat.state.proposals
    assert (hit.kind, hit.attacker, hit.character) == (ProposalKind.HIT, "Matón 1", "Ana")
    lines = drive(tmp_path, "--answer", "r", "--report-form", "--accept-hit", until="ready")
    held = len(recovered.combat.commands)
    assert lines[-4:] == [f"resumed {held}", "form HitDialog Matón 1 -> Ana",
                          f"form {form}", f"ready {held}"]


def test_sigkill_after_escape_on_a_hit_between_members_and_a_note_typed_keeps_their_dice(
        tmp_path: Path) -> None:
    """Issue 39 item 3 with issue 35 (nothing typed is lost): three Matones who declared
    together (D1) shoot Ana, dice typed on each line, Enter; Matón 1's hit (H1: settled
    before the next member is sent) is set aside with Escape, and the DJ types a note
    (whose draft replaces the hit's) when the process is killed. The resume opens the
    hit, then the note as typed, and keeps the dice typed for Matón 2 and 3 for their
    group's next dialog."""
    lines = drive(tmp_path, "--play-to", "0", "--dialog", "group-hit", "--escape-then",
                  "note", until="then")
    assert lines[-2:] == ["dialog HitDialog", "then NoteDialog"]
    lines = drive(tmp_path, "--answer", "r", "--report-form", "--accept-hit",
                  "--report-kept", until="ready")
    held = len(group_hit_first(3)) + 1
    assert lines[-5:] == [f"resumed {held}", "form HitDialog Matón 1 -> Ana",
                          "form NoteDialog llegan", "kept Matón 2=5 1 1 | Matón 3=6 2 2",
                          f"ready {held}"]


async def test_escape_on_a_resumed_hit_between_members_then_y_opens_their_dice() -> None:
    """Issue 39 item 3 with issue 35 (nothing typed is lost): three Matones who declared
    together (D1) shoot Ana, dice typed on each line, Enter; Matón 1's hit is open (H1)
    when sombra-tui stops. The resume opens that hit; Escape sets it aside, and `y`
    opens the group's dialog for Matón 2 and 3 with the dice typed for them."""
    crashed = make_app(Session.new(encounter()))
    async with crashed.run_test(size=(120, 40)) as pilot:  # stops with the hit open
        for command in group_hit_first(3):
            assert crashed.main_screen.run_command(command) is not None
            await pilot.pause()
        await pilot.press(*DIALOG_KEYS["group-hit"])
        for _turn in range(10):
            await pilot.pause()
        assert isinstance(crashed.screen, HitDialog)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)
        await pilot.press("r")
        for _turn in range(10):
            await pilot.pause()
        assert isinstance(app.screen, HitDialog)  # Matón 1's, as the engine has it
        await pilot.press("escape")
        for _turn in range(6):
            await pilot.pause()
        assert app.screen is app.main_screen
        await pilot.press("y")
        for _turn in range(6):
            await pilot.pause()
        assert isinstance(app.screen, GroupRollDialog)
        assert app.screen.names == ["Matón 2", "Matón 3"]
        assert [app.screen.query_one(f"#m{index}-dice", Input).value
                for index in range(2)] == ["5 1 1", "6 2 2"]
        await pilot.press("enter")  # Matón 1's hit first (H1), then 2's and 3's
        for _turn in range(40):
            await pilot.pause()
            if isinstance(app.screen, HitDialog):
                await pilot.press("enter")
            elif app.screen is app.main_screen and not app.session.combat.state.proposals:
                break
        resolved = [(cmd.character, cmd.dice) for cmd in app.session.combat.commands
                    if isinstance(cmd, c.Resolve)]
        assert resolved[-2:] == [("Matón 2", Dice.of(5, 1, 1)), ("Matón 3", Dice.of(6, 2, 2))]
        assert app.session.journal is not None  # sent: their kept dice are forgotten
        assert ui_state.recall_group_dice(ui_state.journal_key(app.session.journal.path)) == {}


def test_a_group_s_kept_dice_are_forgotten_once_they_no_longer_apply() -> None:
    """D1, H1: the dice typed for Matón 2 and 3 are kept beside the journal, in their own
    slot; once those members are resolved otherwise (the state moved on, P3), the next
    look at the table forgets them."""
    session = Session.new(encounter())
    session.start_journal(config.journal_dir())
    for command in [*group_hit_first(3), c.Resolve(character="Matón 1", dice=Dice.of(9, 9, 9))]:
        session.execute(command)
    assert session.journal is not None
    key = ui_state.journal_key(session.journal.path)
    flow = TableFlow(session)
    flow.group_dice.update({"Matón 2": "5 1 1", "Matón 3": "6 2 2"})
    assert ui_state.recall_group_dice(key) == {"Matón 2": "5 1 1", "Matón 3": "6 2 2"}
    flow.group_dice.prune()
    assert ui_state.recall_group_dice(key) == {"Matón 2": "5 1 1", "Matón 3": "6 2 2"}
    for name in ("Matón 2", "Matón 3"):
        session.execute(c.Resolve(character=name, dice=Dice.of(9, 9, 9)))
        flow.group_dice.prune()
        assert name not in ui_state.recall_group_dice(key)
    assert ui_state.recall_group_dice(key) == {} and not flow.group_dice
