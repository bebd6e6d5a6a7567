"""A crash journal of a version this sombra-tui does not know is refused, naming the
journal and its version (S1), as a saved file of such a version is (storage); it is never
read as the current version."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sombra_tui.engine import Action, Character, Declare, Encounter, StartCombat
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.journal import JOURNAL_VERSION, find_journals, recover
from sombra_tui.session import Session


def journal_of_version(folder: Path, version: object, **header: object) -> Path:
    """An unsaved combat's journal whose header says `version`."""
    session = Session.new(Encounter(name="Diario", characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12)]))
    session.start_journal(folder)
    session.execute(StartCombat())
    session.execute(Declare(character="Ana", actions=[Action(description="aims")]))
    [path] = find_journals(folder)
    first, rest = path.read_text(encoding="utf-8").split("\n", 1)
    data = json.loads(first) | {"format_version": version} | header
    path.write_text(json.dumps(data) + "\n" + rest, encoding="utf-8")
    return path


def test_s1_a_journal_of_a_newer_version_is_refused_naming_it(tmp_path: Path) -> None:
    path = journal_of_version(tmp_path, 99)
    before = path.read_bytes()
    with pytest.raises(SombraError) as raised:
        recover(path)
    assert raised.value.code == "journal.newer_version"
    assert raised.value.field == "format_version"
    assert str(raised.value) == (
        f"The journal {path} was written by a newer sombra-tui (journal version 99); "
        f"this one reads up to version {JOURNAL_VERSION}.")
    assert path.read_bytes() == before  # refused, not touched


def test_s1_a_newer_journal_whose_header_this_version_cannot_read_names_its_version(
        tmp_path: Path) -> None:
    """A newer journal may hold what this version does not know: its version is the
    problem named, not a bad value."""
    path = journal_of_version(tmp_path, 99, dice_drawn="many")
    with pytest.raises(SombraError) as raised:
        recover(path)
    assert raised.value.code == "journal.newer_version"


@pytest.mark.parametrize("version", [0, -7])
def test_s1_a_journal_of_a_nonsense_version_is_refused_naming_it(
        tmp_path: Path, version: int) -> None:
    path = journal_of_version(tmp_path, version)
    with pytest.raises(SombraError) as raised:
        recover(path)
    assert raised.value.code == "journal.unknown_version"
    assert str(raised.value) == (
        f"The journal {path} has format version {version}, which this sombra-tui cannot "
        f"resume (it reads versions 1 to {JOURNAL_VERSION}).")


def test_s1_the_refusal_of_an_unknown_journal_version_reads_in_spanish(
        tmp_path: Path, spanish: str) -> None:
    path = journal_of_version(tmp_path, 99)
    with pytest.raises(SombraError) as raised:
        recover(path)
    assert str(raised.value).startswith(f"El diario {path} ")
    assert "99" in str(raised.value) and "newer" not in str(raised.value)


@pytest.mark.parametrize("version", [1, 2, JOURNAL_VERSION])
def test_s1_a_journal_of_a_known_version_still_resumes(tmp_path: Path,
                                                       version: int) -> None:
    path = journal_of_version(tmp_path, version)
    recovered = recover(path)
    assert recovered.combat.state.name == "Diario" and len(recovered.combat.commands) == 2
