"""S1: save and load. A loaded combat equals the saved one (mid-chain, mid-resolution,
with a redo stack); a bad file is refused with a SombraError that names the file and
the problem; loading never changes the file."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from sombra_tui.engine import (
    Action,
    ActionKind,
    Advance,
    Character,
    Combat,
    Declare,
    Decline,
    Dice,
    Encounter,
    FreeTA,
    Mark,
    OpposedRoll,
    Opposition,
    OppositionMode,
    Phase,
    React,
    ReactionMode,
    Resolve,
    ResolveOpposed,
    SetMark,
    Settings,
    SombraError,
    StartCombat,
    storage,
)


def act(description: str, *targets: str, **fields: Any) -> Action:
    return Action(description=description, targets=list(targets), **fields)


def base_combat() -> Combat:
    """The worked example's characters, plus Íñigo sharing Bruno's primaria (a
    simultaneous group, I4) and a non-ASCII name (the file is UTF-8)."""
    return Combat(Encounter(name="La oficina — noche", seed=5, settings=Settings(
        niveles_de_calidad=False), characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12),
        Character(name="Carla", primaria=15, secundaria=2, alerta=13),
        Character(name="Íñigo", primaria=12, secundaria=1, alerta=11, skills={"Pelea": 13}),
    ]))


def mid_chain() -> Combat:
    """Ana reacted successfully to Bruno; Bruno's counter-reaction prompt is open (D9)."""
    combat = base_combat()
    combat.execute(StartCombat())
    combat.execute(Declare(character="Ana", actions=[act("aims at the door", target=14)]))
    combat.execute(Declare(character="Íñigo", actions=[act("punches Ana", "Ana",
                                                           skill="Pelea")]))
    combat.execute(Decline(character="Ana"))
    combat.execute(Declare(character="Bruno", actions=[act("shoots Ana", "Ana", target=15)]))
    combat.execute(React(character="Ana", mode=ReactionMode.SUBSTITUTE,
                         actions=[act("dives behind the desk", target=14)],
                         dice=Dice.of(3, 4, 2)))
    assert combat.state.top_prompt is not None
    return combat


def mid_resolution() -> Combat:
    """Round phase: Carla has acted, Bruno has rolled inside his simultaneous group with
    Íñigo, and a mark waits for the group to finish (P3, P4)."""
    combat = mid_chain()
    combat.execute(Decline(character="Bruno"))
    combat.execute(Declare(character="Carla", actions=[
        act("throws a grenade", "Bruno", target=13),
        act("ducks", kind=ActionKind.INSTANT, target=13)]))
    while combat.state.top_prompt is not None:
        combat.execute(Decline(character=combat.state.top_prompt.reactor))
    combat.execute(Advance())
    combat.execute(Resolve(character="Carla", dice=Dice.of(1, 2, 3)))
    combat.execute(Advance())
    assert combat.state.phase is Phase.ROUND
    combat.execute(Resolve(character="Carla", dice=Dice.of(4, 4, 4)))
    combat.execute(Resolve(character="Bruno", dice=Dice.of(2, 9, 1)))
    combat.execute(SetMark(character="Íñigo", mark=Mark.OUT))
    assert combat.state.pending_marks and combat.state.pending_steps()
    return combat


def with_redo_stack() -> Combat:
    combat = mid_resolution()
    for _ in range(4):
        combat.undo()
    assert len(combat.redo_stack) == 4
    return combat


SITUATIONS: dict[str, Callable[[], Combat]] = {
    "not started": base_combat,
    "mid-chain with a prompt open": mid_chain,
    "mid-resolution with a pending mark": mid_resolution,
    "with a redo stack": with_redo_stack,
}


def assert_same_combat(loaded: Combat, combat: Combat) -> None:
    assert loaded.encounter == combat.encounter
    assert loaded.commands == combat.commands
    assert loaded.redo_stack == combat.redo_stack
    assert loaded.state == combat.state
    assert loaded.log == combat.log


@pytest.mark.parametrize("make", SITUATIONS.values(), ids=SITUATIONS.keys())
def test_s1_save_then_load_gives_the_same_combat(make: Callable[[], Combat],
                                                 tmp_path: Path) -> None:
    """S1: save/load is exact, and the loaded combat goes on exactly like the original."""
    combat = make()
    path = tmp_path / "combate.sombra.json"
    storage.save(combat, path)
    loaded = storage.load(path)
    assert_same_combat(loaded, combat)
    assert_same_combat(storage.loads(storage.dumps(combat)), combat)
    # Both continue identically: redo what is left, then undo everything.
    while combat.can_redo:
        assert loaded.redo() == combat.redo()
        assert loaded.state == combat.state
    while combat.can_undo:
        assert loaded.undo() == combat.undo()
        assert loaded.state == combat.state and loaded.log == combat.log


def test_s1_mid_chain_file_keeps_the_open_prompt_and_accepts_the_answer(
        tmp_path: Path) -> None:
    """S1, D9: the open counter-reaction prompt survives the file; answering it after
    loading gives the same result as answering it in the original."""
    combat = mid_chain()
    path = tmp_path / "chain.sombra.json"
    storage.save(combat, path)
    loaded = storage.load(path)
    assert loaded.state.prompts == combat.state.prompts
    answer = React(character="Bruno", mode=ReactionMode.SUBSTITUTE,
                   actions=[act("runs to flank her")], dice=Dice.of(6, 6, 2))
    assert loaded.execute(answer) == combat.execute(answer)
    assert_same_combat(loaded, combat)


def test_s1_the_file_is_versioned_utf8_json(tmp_path: Path) -> None:
    path = tmp_path / "combate.sombra.json"
    storage.save(mid_chain(), path)
    data = json.loads(path.read_bytes().decode("utf-8"))
    assert data["format"] == storage.FORMAT_NAME
    assert data["format_version"] == storage.FORMAT_VERSION
    assert "Íñigo" in path.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- bad files


def saved_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(storage.dumps(with_redo_stack()))
    return data


def command_index(data: dict[str, Any], kind: str) -> int:
    return next(i for i, command in enumerate(data["commands"]) if command["type"] == kind)


def edited(change: Callable[[dict[str, Any]], object]) -> Callable[[], bytes]:
    """A saved file with `change` made to its JSON (built when the test runs)."""
    def build() -> bytes:
        data = saved_data()
        change(data)
        return json.dumps(data, ensure_ascii=False).encode("utf-8")
    return build


def good_file() -> bytes:
    return storage.dumps(mid_chain()).encode("utf-8")


def fixed(content: bytes) -> Callable[[], bytes]:
    return lambda: content


def set_path(data: Any, path: list[Any], value: object) -> None:
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def drop_start(data: dict[str, Any]) -> None:
    del data["commands"][command_index(data, "start_combat")]


def swap_declarations(data: dict[str, Any]) -> None:
    first = command_index(data, "declare")
    commands = data["commands"]
    commands[first], commands[first + 1] = commands[first + 1], commands[first]


def bad_dice(data: dict[str, Any]) -> None:
    set_path(data, ["commands", command_index(data, "react"), "dice", "ds"], 11)


def unknown_command(data: dict[str, Any]) -> None:
    data["commands"][2]["type"] = "explode"


def duplicate_names(data: dict[str, Any]) -> None:
    data["encounter"]["characters"][1]["name"] = "ana"


#: name -> (file bytes, words the message must contain, the error's field or None).
#: A wrong value's message contains its dotted field path.
BAD_FILES: dict[str, tuple[Callable[[], bytes], list[str], str | None]] = {
    "not JSON": (fixed(b"this is not an encounter\n"), ["not valid JSON", "line 1"], None),
    "empty": (fixed(b""), ["not valid JSON"], None),
    "truncated": (lambda: good_file()[:len(good_file()) // 2], ["not valid JSON"], None),
    "JSON but a list": (fixed(b"[1, 2, 3]"), ["not a sombra-tui encounter file"], None),
    "JSON without the format": (fixed(json.dumps({"commands": []}).encode()),
                                ["not a sombra-tui encounter file"], None),
    "a newer format version": (edited(lambda d: d.update(
        format_version=storage.FORMAT_VERSION + 1)),
        [f"format version {storage.FORMAT_VERSION + 1}", f"version {storage.FORMAT_VERSION}"],
        "format_version"),
    "format version missing": (edited(lambda d: d.pop("format_version")),
                               ["no valid format_version", "found null"], "format_version"),
    "format version as text": (edited(lambda d: d.update(format_version="1")),
                               ["no valid format_version", 'found "1"'], "format_version"),
    "primaria is text": (
        edited(lambda d: set_path(d, ["encounter", "characters", 1, "primaria"], "mucha")),
        ["bad value", "encounter.characters.1.primaria"], "encounter.characters.1.primaria"),
    "alerta is negative": (
        edited(lambda d: set_path(d, ["encounter", "characters", 0, "alerta"], -3)),
        ["bad value", "encounter.characters.0.alerta"], "encounter.characters.0.alerta"),
    "settings is a list": (
        edited(lambda d: set_path(d, ["encounter", "settings"], [True])),
        ["bad value", "encounter.settings"], "encounter.settings"),
    "a die out of range": (edited(bad_dice), ["bad value", "dice.ds"], None),
    "an unknown command": (edited(unknown_command), ["bad value", "commands.2", "explode"],
                           "commands.2"),
    "two characters with one name": (edited(duplicate_names), ["bad value", "encounter"],
                                     "encounter"),
    "history without StartCombat": (edited(drop_start),
                                    ["does not replay", "Command 1", "declare"], None),
    "history out of order": (edited(swap_declarations), ["does not replay", "declare"], None),
    "not UTF-8": (fixed(b'{"format": "sombra-tui encounter", "name": "\xff\xfe"}'),
                  ["not UTF-8", "byte"], None),
}


def files_in(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


@pytest.mark.parametrize("case", BAD_FILES.keys())
def test_s1_a_bad_file_is_refused_with_a_clear_message(case: str, tmp_path: Path) -> None:
    """S1: each bad file raises SombraError naming the file and the problem (and the field
    path for a wrong value); the file and its folder are left byte for byte as they were."""
    build, words, field = BAD_FILES[case]
    path = tmp_path / "malo.sombra.json"
    path.write_bytes(build())
    before = files_in(tmp_path)
    with pytest.raises(SombraError) as info:
        storage.load(path)
    message = str(info.value)
    assert str(path) in message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"
    if field is not None:
        assert info.value.field == field
    assert files_in(tmp_path) == before


def test_s1_a_wrong_die_names_the_full_field_path(tmp_path: Path) -> None:
    """The message points at the command, the field and the value's limit."""
    content = BAD_FILES["a die out of range"][0]()
    path = tmp_path / "dado.sombra.json"
    path.write_bytes(content)
    index = command_index(json.loads(content), "react")
    with pytest.raises(SombraError) as info:
        storage.load(path)
    field = info.value.field
    assert field is not None
    assert field.startswith(f"commands.{index}.") and field.endswith("dice.ds")
    assert field in str(info.value) and "10" in str(info.value)


def test_s1_a_history_that_does_not_replay_names_the_command(tmp_path: Path) -> None:
    """The first command that does not replay is named by its position and type."""
    content = BAD_FILES["history out of order"][0]()
    data = json.loads(content)
    first = command_index(data, "declare")
    path = tmp_path / "orden.sombra.json"
    path.write_bytes(content)
    with pytest.raises(SombraError, match=f"Command {first + 1} of the history"):
        storage.load(path)


def test_s1_a_folder_is_not_a_file(tmp_path: Path) -> None:
    folder = tmp_path / "carpeta.sombra.json"
    folder.mkdir()
    with pytest.raises(SombraError, match="is a folder") as info:
        storage.load(folder)
    assert str(folder) in str(info.value)
    assert list(folder.iterdir()) == []


def test_s1_a_missing_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "nada.sombra.json"
    with pytest.raises(SombraError, match="does not exist") as info:
        storage.load(path)
    assert str(path) in str(info.value)
    assert not path.exists()


def test_s1_a_huge_file_is_refused_before_reading(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "enorme.sombra.json"
    content = good_file()
    path.write_bytes(content)
    monkeypatch.setattr(storage, "MAX_FILE_BYTES", len(content) - 1)
    with pytest.raises(SombraError, match="too large") as info:
        storage.load(path)
    assert str(path) in str(info.value)
    assert path.read_bytes() == content


def test_loads_names_its_source() -> None:
    with pytest.raises(SombraError, match="partida de ayer is not valid JSON"):
        storage.loads("{", source="partida de ayer")


@pytest.mark.parametrize("make", SITUATIONS.values(), ids=SITUATIONS.keys())
def test_s1_loading_a_good_file_never_changes_it(make: Callable[[], Combat],
                                                 tmp_path: Path) -> None:
    """Loading reads only: the file and its folder are unchanged, even after the loaded
    combat is played on and a second load."""
    path = tmp_path / "bueno.sombra.json"
    storage.save(make(), path)
    before = files_in(tmp_path)
    loaded = storage.load(path)
    if loaded.can_undo:
        loaded.undo()
    storage.load(path)
    assert files_in(tmp_path) == before


def test_s1_a_redo_stack_that_does_not_replay_is_refused_on_redo(tmp_path: Path) -> None:
    """A redo entry that no longer fits is refused when redone, changing nothing."""
    data = saved_data()
    data["redo"][-1] = {"type": "start_combat", "initiative_rolls": {}}
    path = tmp_path / "rehacer.sombra.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded = storage.load(path)
    state, log, redo = loaded.state.model_copy(deep=True), loaded.log, loaded.redo_stack
    with pytest.raises(SombraError):
        loaded.redo()
    assert loaded.state == state and loaded.log == log and loaded.redo_stack == redo


def test_s1_a_file_from_before_the_dj_winner_and_free_ta_loads_unchanged() -> None:
    """Format 1 files written before issue 10 have no `winners` in ResolveOpposed: they
    load with the same commands and state (the new fields default, so no version bump);
    and a file with the DJ's free TA and a DJ decision saves and loads."""
    combat = base_combat()
    combat.execute(StartCombat())
    grab = Opposition(mode=OppositionMode.DIRECT, against=["Ana"])
    combat.execute(Declare(character="Ana"))
    combat.execute(Declare(character="Íñigo"))
    combat.execute(Declare(character="Bruno", actions=[act("grabs the key", target=12,
                                                           opposition=grab)]))
    combat.execute(Declare(character="Carla"))
    combat.execute(Advance())
    combat.execute(Advance())
    tied = [OpposedRoll(character="Bruno", dice=Dice.of(2, 3, 4)),
            OpposedRoll(character="Ana", dice=Dice.of(4, 3, 2), target=12)]
    combat.execute(ResolveOpposed(character="Bruno", rolls=tied, tie_winner="Ana"))
    data = json.loads(storage.dumps(combat))
    assert data["format_version"] == storage.FORMAT_VERSION
    [opposed] = [cmd for cmd in data["commands"] if cmd["type"] == "resolve_opposed"]
    del opposed["winners"]  # as the file was before
    loaded = storage.loads(json.dumps(data))
    assert_same_combat(loaded, combat)
    loaded.undo()
    loaded.execute(ResolveOpposed(character="Bruno", rolls=tied, winners=["Bruno"]))
    loaded.execute(FreeTA(character="Ana", skill="Pelea", target=13, dice=Dice.of(1, 1, 1)))
    assert_same_combat(storage.loads(storage.dumps(loaded)), loaded)
