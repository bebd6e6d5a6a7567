"""S1 (issue 41 item 4): a file whose JSON object holds a key twice is refused, naming
the key and where it is. JSON's readers (Python's json, pydantic's parser) keep the
last value silently: such a file would load as something else than what it says, and
the replay that S1 promises would replay a history nobody saved."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sombra_tui.engine import Combat, Encounter, StartCombat, storage
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.files import DuplicateKeyError, check_unique_keys, loads_json
from sombra_tui.engine.journal import find_journals, recover
from sombra_tui.session import Session
from tests.engine.conftest import act, char, declare


def played() -> Combat:
    """A short history: the combat started, both characters declared."""
    combat = Combat(Encounter(name="Dos veces", characters=[
        char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12)]))
    combat.execute(StartCombat())
    declare(combat, combat.state.current_declarer or "", act("apunta"))
    declare(combat, combat.state.current_declarer or "", act("espera"))
    return combat


def twice(text: str, line: str, before: str, *, after: str = "") -> str:
    """`text` with `before` inserted on a line of its own ahead of the first line that
    starts with `line` (after `after`, if given), at its indentation: a key twice."""
    start = text.index(line, text.index(after) if after else 0)
    indent = text[text.rindex("\n", 0, start) + 1:start]
    assert not indent.strip()
    return text[:start] + before + "\n" + indent + text[start:]


def refused(text: str, tmp_path: Path, *, background: bool = False) -> SombraError:
    path = tmp_path / "dos-veces.sombra.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SombraError) as raised:
        storage.load(path, background=background)
    assert raised.value.code == "storage.duplicate_key"
    return raised.value


def test_s1_a_key_twice_at_the_top_of_a_saved_file_is_refused_naming_it(
        tmp_path: Path) -> None:
    """The app's own file, edited: "dice_drawn" written twice (T6's count of draws,
    the second value would have won). Refused before anything is replayed."""
    text = storage.dumps(played())
    edited = twice(text, '"dice_drawn":', '"dice_drawn": 999,')
    json.loads(edited)  # still JSON, and json alone would have read it
    error = refused(edited, tmp_path)
    assert '"dice_drawn" twice' in str(error) and "dos-veces.sombra.json" in str(error)
    assert error.field == "dice_drawn"


def test_s1_a_key_twice_deep_in_a_command_is_refused_with_its_path(tmp_path: Path) -> None:
    """At any depth: the second command's declared character, as the file reads."""
    text = storage.dumps(played())
    assert json.loads(text)["commands"][1]["type"] == "declare"
    edited = twice(text, '"character":', '"character": "Bruno",', after='"commands"')
    error = refused(edited, tmp_path)
    assert '"character" twice' in str(error) and "commands.1.character" in str(error)


def test_s1_the_snapshot_path_refuses_it_too(tmp_path: Path) -> None:
    """Opening a long file at once from its stored state (loads(background=True)) reads
    the same checks: a key twice inside the snapshot."""
    edited = twice(storage.dumps(played()), '"round":', '"round": 7,', after='"snapshot"')
    error = refused(edited, tmp_path, background=True)
    assert "snapshot.round" in str(error)


def test_s1_an_older_file_migrated_on_loading_is_refused_too(tmp_path: Path) -> None:
    """A version-3 file goes through the migrations (a plain JSON parse): the key twice
    is found there."""
    data = json.loads(storage.dumps(played()))
    data["format_version"] = 3
    data["encounter"]["settings"].pop("rules_v4")
    data.pop("snapshot")
    text = json.dumps(data, indent=1)
    edited = twice(text, '"name": "Dos veces"', '"name": "Otro",')
    error = refused(edited, tmp_path)
    assert "encounter.name" in str(error)


def test_s1_a_current_file_whose_bad_value_comes_from_the_key_twice_names_the_key(
        tmp_path: Path) -> None:
    """The last value is the bad one: the message names the key written twice, the
    cause, not only the bad value."""
    text = storage.dumps(played())
    value = text[text.index('"dice_drawn":'):].split("\n")[0].rstrip(",")
    edited = twice(text.replace(value, '"dice_drawn": -4'), '"dice_drawn":',
                   '"dice_drawn": 0,')
    error = refused(edited, tmp_path)
    assert '"dice_drawn" twice' in str(error)


def test_s1_the_message_is_in_the_language_in_force(tmp_path: Path, spanish: str) -> None:
    edited = twice(storage.dumps(played()), '"dice_drawn":', '"dice_drawn": 999,')
    error = refused(edited, tmp_path)
    assert '"dice_drawn" dos veces' in str(error)


def test_s1_an_app_written_file_is_not_parsed_again_and_another_layout_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check's cost: a file exactly as the app writes it is checked by writing it
    again (it has no key twice); any other layout of the same file (indented by hand)
    is parsed once more, and loads the same."""
    combat = played()
    checked: list[str] = []
    monkeypatch.setattr(storage, "check_unique_keys", checked.append)
    text = storage.dumps(combat)
    assert storage.loads(text).state == combat.state and checked == []
    other = json.dumps(json.loads(text), indent=2, ensure_ascii=False)
    assert storage.loads(other).state == combat.state and checked == [other]


def test_s1_every_level_and_arrays_are_searched() -> None:
    assert loads_json('{"a": [1, {"b": {"c": 1}}]}') == {"a": [1, {"b": {"c": 1}}]}
    for text, key, path in [('{"a": 1, "a": 1}', "a", "a"),
                            ('[0, {"k": 1, "k": 2}]', "k", "1.k"),
                            ('{"x": [{"b": 1}, {"c": {"d": 1, "d": 2}}]}', "d", "x.1.c.d")]:
        with pytest.raises(DuplicateKeyError) as raised:
            check_unique_keys(text)
        assert (raised.value.key, raised.value.path) == (key, path)
    check_unique_keys('{"a": 1, "a"')  # not JSON: its reader says why


def test_s1_a_journal_line_with_a_key_twice_is_refused_naming_the_line(
        tmp_path: Path) -> None:
    """The crash journal: its header (line 1) or a command's line."""
    session = Session.new(played().encounter)
    session.start_journal(tmp_path)
    session.execute(played().commands[0])
    [path] = find_journals(tmp_path)
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[1].startswith('{"op":"do"') or lines[1].startswith('{"op": "do"')
    for number, line in ((1, lines[0]), (2, lines[1])):
        edited = line.replace('{', '{"dup": 1, "dup": 2, ', 1)
        check = list(lines)
        check[number - 1] = edited
        path.write_text("\n".join(check), encoding="utf-8")
        with pytest.raises(SombraError) as raised:
            recover(path)
        assert raised.value.code == "journal.duplicate_key"
        assert '"dup" twice' in str(raised.value) and f"line {number}" in str(raised.value)
