"""S1, S2: the lines an encounter carried on from an earlier one keeps for its log
(Encounter.carried.said, engine/carry.py: what the time between the scenes did) are
messages kept as data (i18n.text_data). A file whose line is anything else is refused
when it is opened, naming the line and what in it is wrong, in the language in force,
as any other bad value; it used to load and then stop the app when the combat started
(a ValueError raised by i18n.text_from_data). The snapshot, the migrations of older
files and the crash journal read the same check; the lines the app writes load as
before."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sombra_tui.engine import Combat, Encounter, StartCombat, storage
from sombra_tui.engine.carry import carry_on
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.i18n import N_, Join, Msg, set_language, text_data
from sombra_tui.engine.journal import find_journals, recover
from sombra_tui.engine.model import Carried, CarriedBody
from sombra_tui.session import Session
from tests.engine.conftest import char
from tests.engine.test_carry import fight

#: A line that is no message, and what the refusal says of it (after the line's place).
BAD_LINES: list[tuple[Any, str]] = [
    ({"foo": 1}, 'Input should be a message: an object with "template" and "params", '
                 'or with "separator" and "items" for a list of messages'),
    ({"template": "{name} falls", "params": {"name": {"foo": 1}}},
     "params.name should be a message"),
    ({"separator": "; ", "items": 5}, "items should be a list of messages"),
    ({"separator": "; ", "items": [{"template": "out"}, {"foo": 1}]},
     "items.1 should be a message"),
    ({"template": "{name.upper} falls", "params": {"name": "Ana"}},
     "template holds {name.upper}"),
    ({"template": "{name} falls", "plural": "{name[0]} fall", "counter": "n",
      "params": {"name": "Ana", "n": 2}}, "plural holds {name[0]}"),
    ({"template": "{name:>1000000000} falls", "params": {"name": "Ana"}},
     "template holds {name:>1000000000}"),
]


def party(*commands: Any) -> Combat:
    """The party carried on after five asaltos (H9, C3): Bruno bled and Ana's aturdido
    ended in the time between, three lines said; then `commands`."""
    plan = carry_on(fight().state, asaltos=5)
    assert len(plan.encounter.carried.said) == 3  # type: ignore[union-attr]
    return Combat(plan.encounter, list(commands))


@pytest.fixture(scope="module")
def saved() -> dict[str, str]:
    """The app's own files: the party set up, and with the combat started."""
    return {"set up": storage.dumps(party()), "started": storage.dumps(party(StartCombat()))}


def edited(text: str, change: Callable[[dict[str, Any]], object]) -> str:
    data = json.loads(text)
    change(data)
    return json.dumps(data, indent=1)


def said_of(place: str, line: Any) -> Callable[[dict[str, Any]], object]:
    """The second line said, in `place` ("encounter" or "snapshot"), set to `line`."""
    def change(data: dict[str, Any]) -> None:
        data[place]["carried"]["said"][1] = line
    return change


def refused(text: str, tmp_path: Path, **how: Any) -> SombraError:
    path = tmp_path / "la-partida.sombra.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SombraError) as raised:
        storage.load(path, **how)
    assert raised.value.code == "storage.bad_value"
    assert raised.value.english.startswith(f"{path} has a bad value at ")
    return raised.value


@pytest.mark.parametrize("which", ["set up", "started"])
@pytest.mark.parametrize(("line", "says"), BAD_LINES)
def test_s1_a_carried_line_that_is_no_message_is_refused_naming_where_and_why(
        saved: dict[str, str], tmp_path: Path, which: str, line: Any, says: str) -> None:
    """S1: the file is refused when opened, before anything is replayed, with the line's
    place in the file and what in it is wrong; set up (it used to load, then stop the
    app when the combat started) or started (its replay stopped the app's load)."""
    error = refused(edited(saved[which], said_of("encounter", line)), tmp_path)
    assert f"encounter.carried.said.1: {says}" in str(error)
    assert error.field == "encounter.carried.said.1"


def test_s1_the_refusal_is_in_the_language_in_force(saved: dict[str, str], tmp_path: Path,
                                                    spanish: str) -> None:
    error = refused(edited(saved["set up"], said_of("encounter", {"foo": 1})), tmp_path)
    assert str(error).endswith(
        'tiene un valor erróneo en encounter.carried.said.1: Debe ser un mensaje: un '
        'objeto con "template" y "params", o con "separator" e "items" para una lista de '
        'mensajes')
    nested = {"template": "{name} falls", "params": {"name": {"foo": 1}}}
    error = refused(edited(saved["set up"], said_of("encounter", nested)), tmp_path)
    assert "encounter.carried.said.1: params.name debe ser un mensaje: " in str(error)


def test_s1_a_number_or_a_list_for_a_line_is_refused_as_no_object(
        saved: dict[str, str], tmp_path: Path) -> None:
    """A line is one object: a number, or a list of messages as it stands (a list is
    kept as {"separator", "items"}), is refused by the file's types, as before."""
    for line in (7, [{"template": "out", "params": {}}]):
        error = refused(edited(saved["set up"], said_of("encounter", line)), tmp_path)
        assert "encounter.carried.said.1: Input should be an object" in str(error)


def test_s1_the_saved_state_and_an_older_file_read_the_same_check(
        saved: dict[str, str], tmp_path: Path) -> None:
    """S1's state stored beside the history (opened at once, background=True) and a
    version-3 file brought up by the migrations are refused the same way."""
    error = refused(edited(saved["started"], said_of("snapshot", {"foo": 1})), tmp_path,
                    background=True)
    assert "snapshot.carried.said.1: Input should be a message" in str(error)

    def version_3(data: dict[str, Any]) -> None:
        data["format_version"] = 3
        data["encounter"]["settings"].pop("rules_v4")
        data.pop("snapshot")
        said_of("encounter", {"separator": "; ", "items": 5})(data)

    error = refused(edited(saved["started"], version_3), tmp_path)
    assert "encounter.carried.said.1: items should be a list of messages" in str(error)


def test_s1_a_journal_whose_combat_carries_a_bad_line_is_refused_naming_it(
        tmp_path: Path) -> None:
    """The crash journal's header (line 1) holds the encounter: the same check refuses
    it, naming the line and the place (its replay used to stop the app at start-up)."""
    session = Session.new(party().encounter)
    session.start_journal(tmp_path)
    session.execute(StartCombat())
    [path] = find_journals(tmp_path)
    lines = path.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    header["encounter"]["carried"]["said"][1] = {"foo": 1}
    path.write_text("\n".join([json.dumps(header), *lines[1:]]), encoding="utf-8")
    with pytest.raises(SombraError) as raised:
        recover(path)
    assert raised.value.code == "journal.bad_header"
    assert str(raised.value).startswith(
        f"The journal {path} has a bad value on line 1, at encounter.carried.said.1: "
        "Input should be a message")


def test_s1_s2_the_lines_the_app_writes_load_and_are_logged_as_before(
        saved: dict[str, str]) -> None:
    """No change for a good file: the app's own lines, and a line kept as a list of
    messages (a Join), load as they were saved and are logged in either language."""
    combat = party(StartCombat())
    for text in saved.values():
        loaded = storage.loads(text)
        assert loaded.encounter == combat.encounter
    assert storage.loads(saved["started"]).log == combat.log
    joined = text_data(Join("; ", [Msg(N_("out")), Msg(N_("left the encounter"))]))
    encounter = Encounter(name="Test", characters=[char("Ana", 8)], carried=Carried(
        source="Before", bodies={"Ana": CarriedBody()}, said=(joined,)))
    again = storage.loads(storage.dumps(Combat(encounter, [StartCombat()])))
    [line] = [e for e in again.log if e.code == "carry.between"]
    assert line.text == "out; left the encounter"
    set_language("es")
    assert line.text == "fuera de combate; ha dejado el encuentro"


#: Any JSON a hand may put in a line: messages, lists, templates good and bad.
WORDS = st.sampled_from(["template", "params", "separator", "items", "plural", "counter",
                         "context", "name", "n", "foo"])
TEMPLATES = st.sampled_from(["{name} falls", "{n} asalto", "{n} asaltos", "{", "}", "{}",
                             "{0}", "{name!r}", "{name!z}", "{n:+d}", "{n:d}", "{name.x}",
                             "{name[0]}", "{missing}", "out", ""])
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEMPLATES | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(WORDS, inner, max_size=4),
    max_leaves=12)


@settings(max_examples=200, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(line=JSON)
def test_s1_any_line_is_refused_at_load_or_logged_in_both_languages(line: Any) -> None:
    """Whatever a line holds, the file is refused with a SombraError when opened, or
    the combat starts and every line of its log reads in both languages: nothing
    stops the app later."""
    encounter = Encounter(name="Test", characters=[char("Ana", 8)], carried=Carried(
        source="Before", bodies={"Ana": CarriedBody()}, said=({"template": "out"},)))
    text = edited(storage.dumps(Combat(encounter)),
                  lambda data: data["encounter"]["carried"].update(said=[line]))
    try:
        combat = storage.loads(text)
    except SombraError:
        return
    combat.execute(StartCombat())
    for language in ("en", "es"):
        set_language(language)
        assert all(isinstance(event.text, str) for event in combat.log)
    set_language("en")
