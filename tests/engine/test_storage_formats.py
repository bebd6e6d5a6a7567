"""Format versions, migrations, the JSON Schema, roster import, and a fuzzed loader."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sombra_tui.engine import (
    Action,
    Character,
    Combat,
    Declare,
    Dice,
    Encounter,
    ImportCharacters,
    React,
    StartCombat,
    storage,
)
from sombra_tui.engine.errors import SombraError


def chain_combat() -> Combat:
    """Mid-chain: Ana reacted, Bruno's counter-reaction prompt is open (D9)."""
    combat = Combat(Encounter(name="Formato", characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14, skills={"Esquivar": 12}),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12),
    ]))
    combat.execute(StartCombat())
    combat.execute(Declare(character="Ana", actions=[Action(description="aims")]))
    combat.execute(Declare(character="Bruno", actions=[
        Action(description="shoots Ana", targets=["Ana"])]))
    combat.execute(React(character="Ana", mode="substitute",
                         actions=[Action(description="dives")], dice=Dice.of(3, 4, 2)))
    return combat


def saved_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(storage.dumps(chain_combat()))
    return data


# ---- versions and migrations --------------------------------------------------------------


def test_a_newer_format_is_refused_by_name() -> None:
    data = saved_data()
    data["format_version"] = storage.FORMAT_VERSION + 1
    with pytest.raises(SombraError, match="newer sombra-tui") as info:
        storage.loads(json.dumps(data), source="futuro.json")
    assert "futuro.json" in str(info.value)
    assert info.value.field == "format_version"


def test_an_older_format_without_migration_is_refused() -> None:
    data = saved_data()
    data["format_version"] = 0
    with pytest.raises(SombraError, match="cannot convert"):
        storage.loads(json.dumps(data))


def test_migrations_run_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """An older file passes through every step up to the current version."""
    current = saved_data()
    old = dict(current)
    old["format_version"] = storage.FORMAT_VERSION - 2
    old["encounter"] = {**current["encounter"], "title": current["encounter"]["name"]}
    del old["encounter"]["name"]
    seen: list[int] = []

    def rename_title(data: dict[str, Any]) -> dict[str, Any]:
        seen.append(data["format_version"])
        encounter = dict(data["encounter"])
        encounter["name"] = encounter.pop("title")
        return {**data, "encounter": encounter}

    def no_change(data: dict[str, Any]) -> dict[str, Any]:
        seen.append(data["format_version"])
        return data

    monkeypatch.setitem(storage.MIGRATIONS, storage.FORMAT_VERSION - 2, rename_title)
    monkeypatch.setitem(storage.MIGRATIONS, storage.FORMAT_VERSION - 1, no_change)
    loaded = storage.loads(json.dumps(old))
    assert seen == [storage.FORMAT_VERSION - 2, storage.FORMAT_VERSION - 1]
    assert loaded.state == chain_combat().state


def test_format_version_must_be_a_number() -> None:
    data = saved_data()
    data["format_version"] = "1"
    with pytest.raises(SombraError, match="format_version"):
        storage.loads(json.dumps(data))


# ---- the schema -----------------------------------------------------------------------------


def test_schema_command_prints_the_format() -> None:
    result = subprocess.run([sys.executable, "-m", "sombra_tui", "schema"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    schema = json.loads(result.stdout)
    assert {"format", "format_version", "encounter", "commands"} <= set(schema["properties"])
    assert "Character" in schema["$defs"] and "React" in schema["$defs"]
    assert schema["title"].endswith(f"version {storage.FORMAT_VERSION}")


# ---- rosters ---------------------------------------------------------------------------------


def test_roster_import_brings_the_party_and_reports_clashes(tmp_path: Path) -> None:
    party = tmp_path / "party.json"
    storage.save(chain_combat(), party)
    roster = storage.read_roster(party)
    assert [ch.name for ch in roster.characters] == ["Ana", "Bruno"]
    target = Combat(Encounter(name="Otra", characters=[
        Character(name="bruno", primaria=1, secundaria=1, alerta=1)]))
    assert storage.roster_clashes(roster, ["bruno"]) == ["Bruno"]
    before = target.state.model_copy(deep=True)
    with pytest.raises(SombraError, match="Name clash: Bruno"):
        target.execute(ImportCharacters(characters=roster.characters, source=roster.source))
    assert target.state == before  # all or nothing
    fresh = [ch for ch in roster.characters if ch.name not in
             storage.roster_clashes(roster, ["bruno"])]
    target.execute(ImportCharacters(characters=fresh, source=roster.source))
    assert [ch.name for ch in target.state.characters] == ["bruno", "Ana"]
    assert target.state.character("Ana") == roster.characters[0]  # skills and all
    target.undo()  # one step
    assert [ch.name for ch in target.state.characters] == ["bruno"]


# ---- the loader never fails in any other way --------------------------------------------------

JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
                      st.text(max_size=8))


def mutate(data: Any, draw: st.DrawFn) -> Any:
    """Replace, delete or retype one value somewhere in the JSON tree."""
    if isinstance(data, dict) and data:
        key = draw(st.sampled_from(sorted(data)))
        action = draw(st.sampled_from(["replace", "delete", "recurse", "recurse"]))
        copy = dict(data)
        if action == "delete":
            del copy[key]
        elif action == "replace":
            copy[key] = draw(JSON_LEAF)
        else:
            copy[key] = mutate(copy[key], draw)
        return copy
    if isinstance(data, list) and data:
        index = draw(st.integers(0, len(data) - 1))
        copy = list(data)
        action = draw(st.sampled_from(["replace", "delete", "duplicate", "recurse"]))
        if action == "delete":
            del copy[index]
        elif action == "duplicate":
            copy.insert(index, copy[index])
        elif action == "replace":
            copy[index] = draw(JSON_LEAF)
        else:
            copy[index] = mutate(copy[index], draw)
        return copy
    return draw(JSON_LEAF)


@st.composite
def damaged_files(draw: st.DrawFn) -> bytes:
    text = storage.dumps(chain_combat())
    kind = draw(st.sampled_from(["mutate", "mutate", "mutate", "truncate", "bytes", "flip"]))
    if kind == "truncate":
        return text.encode()[: draw(st.integers(0, len(text) - 1))]
    if kind == "bytes":
        return draw(st.binary(max_size=200))
    if kind == "flip":
        raw = bytearray(text.encode())
        index = draw(st.integers(0, len(raw) - 1))
        raw[index] = draw(st.integers(0, 255))
        return bytes(raw)
    data = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        data = mutate(data, draw)
    return json.dumps(data).encode()


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(raw=damaged_files())
def test_damaged_files_load_or_raise_the_domain_error(tmp_path: Path, raw: bytes) -> None:
    """Every file either loads a valid encounter or raises SombraError naming the file;
    the file itself is never changed."""
    path = tmp_path / "fuzz.json"
    path.write_bytes(raw)
    try:
        combat = storage.load(path)
    except SombraError as error:
        assert str(path) in str(error)
    else:
        assert isinstance(combat.state.round, int)
        assert storage.loads(storage.dumps(combat)).state == combat.state
    assert path.read_bytes() == raw
