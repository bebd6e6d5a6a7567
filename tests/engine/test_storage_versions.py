"""The app's own files of every format version load, strictly and unchanged; values a
hand-written file gets wrong ("8" for 8, true for a die, 1e-400) are refused (issue 9).

`tests/engine/formats/` keeps one file per format version, written by the app when
that version was current. When the format changes, the file of the old version stays
and a new one is added (`python -m tests.engine.test_storage_versions`): a version the
migrations forget then fails here.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from sombra_tui.engine import Character, Combat, SombraError, storage
from sombra_tui.engine import commands as c
from tests import builders

FORMATS = Path(__file__).resolve().parent / "formats"


def version_file(version: int) -> Path:
    return FORMATS / f"v{version}{storage.FILE_SUFFIX}"


def sample_combat() -> Combat:
    """Set-up commands of every kind, then 400 commands of the bench's scripted DJ
    (declarations, reactions, chains, declines, denials, opposed rolls, marks), and
    three undos so the redo stack is saved too."""
    encounter = builders.build_encounter(12)
    first = encounter.characters[0]
    guest = Character(name="Invitado", primaria=9, secundaria=4, alerta=11,
                      skills={"Pelea": 12}, notes="from the party file")
    combat = Combat(encounter)
    for command in [
        c.RenameEncounter(name=f"{encounter.name} (formato 1)"),
        c.ChangeSettings(settings=encounter.settings.model_copy(
            update={"points_per_gd": 4})),
        c.ChangeSettings(settings=encounter.settings),
        c.AddCharacter(character=Character(name="Refuerzo", primaria=3, secundaria=1,
                                           alerta=9)),
        c.ImportCharacters(characters=[guest], source="grupo.sombra.json"),
        c.EditCharacter(name=first.name, character=first.model_copy(
            update={"notes": "edited before the fight"})),
        c.MoveCharacter(name=first.name, position=2),
        c.MoveCharacter(name=first.name, position=0),
        c.RemoveCharacter(name="Refuerzo"),
        c.RemoveCharacter(name="Invitado"),
    ]:
        combat.execute(command)
    for command in builders.build_history(encounter, 400):
        combat.execute(command)
    for _ in range(3):
        combat.undo()
    return combat


def test_there_is_a_file_of_every_format_version() -> None:
    found = sorted(path.name for path in FORMATS.iterdir())
    assert found == [version_file(v).name for v in range(1, storage.FORMAT_VERSION + 1)]


@pytest.mark.parametrize("version", range(1, storage.FORMAT_VERSION + 1))
def test_the_apps_own_file_of_each_version_loads(version: int) -> None:
    path = version_file(version)
    loaded = storage.load(path)
    assert len(loaded.commands) > 400 and loaded.redo_stack
    # What it loads is what the app saves again, and that loads to the same combat.
    again = storage.loads(storage.dumps(loaded))
    assert again.state == loaded.state and again.redo_stack == loaded.redo_stack


def test_app_written_files_take_the_strict_path_unchanged() -> None:
    """Every value the app writes has its exact JSON type: the strict reading accepts it
    and gives back exactly the combat saved."""
    combat = sample_combat()
    text = storage.dumps(combat)
    loaded = storage.loads(text)
    assert loaded.commands == combat.commands and loaded.redo_stack == combat.redo_stack
    assert storage.dumps(loaded) == text


# ---- values a lax reading would convert ------------------------------------------------------


def current_text() -> str:
    return version_file(storage.FORMAT_VERSION).read_text(encoding="utf-8")


def first_index(data: dict[str, object], kind: str) -> int:
    commands = data["commands"]
    assert isinstance(commands, list)
    return next(i for i, command in enumerate(commands) if command["type"] == kind)


def resolve_with_dice(data: dict[str, object]) -> int:
    commands = data["commands"]
    assert isinstance(commands, list)
    return next(i for i, command in enumerate(commands)
                if command["type"] == "resolve" and command.get("dice"))


STRICT_CASES: dict[str, tuple[str, str]] = {
    # name -> (what to put where, the field the message must name)
    "a die is true": ("die", "dice.ds"),
    "primaria is the text \"8\"": ("primaria", "encounter.characters.0.primaria"),
    "alerta is 1e-400": ("tiny", "encounter.characters.1.alerta"),
    "secundaria is 5.0": ("float", "encounter.characters.2.secundaria"),
    "a setting is 1": ("flag", "encounter.settings.reaccion"),
    "the seed is 1e3": ("exponent", "encounter.seed"),
}


def strict_case(case: str) -> str:
    data = json.loads(current_text())
    marker = 987_654_321
    kind, _ = STRICT_CASES[case]
    if kind == "die":
        data["commands"][resolve_with_dice(data)]["dice"]["ds"] = True
    elif kind == "primaria":
        data["encounter"]["characters"][0]["primaria"] = "8"
    elif kind == "tiny":
        data["encounter"]["characters"][1]["alerta"] = marker
    elif kind == "float":
        data["encounter"]["characters"][2]["secundaria"] = 5.0
    elif kind == "flag":
        data["encounter"]["settings"]["reaccion"] = 1
    else:
        data["encounter"]["seed"] = marker
    text = json.dumps(data, ensure_ascii=False, indent=1)
    literal = "1e-400" if kind == "tiny" else "1e3"
    return text.replace(str(marker), literal)


@pytest.mark.parametrize("case", STRICT_CASES)
def test_values_a_lax_reading_would_convert_are_refused(case: str, tmp_path: Path) -> None:
    path = tmp_path / "a-mano.sombra.json"
    path.write_text(strict_case(case), encoding="utf-8")
    with pytest.raises(SombraError) as info:
        storage.load(path)
    message = str(info.value)
    _, field = STRICT_CASES[case]
    assert str(path) in message and "bad value" in message, message
    assert field in message and info.value.field is not None and field in info.value.field
    assert "\n" not in message


def main() -> int:
    """Write the file of the current format version (run when the format changes)."""
    path = version_file(storage.FORMAT_VERSION)
    if path.exists():
        print(f"{path} exists: a version's file is never rewritten", file=sys.stderr)
        return 1
    path.write_text(storage.dumps(sample_combat()), encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
