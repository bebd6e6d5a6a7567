"""Structured errors: every SombraError carries a stable code, its params and, where one
field is at fault, the field; the message text is unchanged by them."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

from sombra_tui.engine import (
    AddCharacter,
    Declare,
    EditCharacter,
    Phase,
    ResolveOpposed,
    SombraError,
)
from sombra_tui.engine.allowed import PHASES
from sombra_tui.engine.coded import CodedError
from sombra_tui.engine.commands import OpposedRoll
from sombra_tui.engine.model import Opposition, OppositionMode
from tests.engine.conftest import act, advance_to, char, declare, dice, make_combat, started

PACKAGE = Path(__file__).resolve().parents[2] / "sombra_tui"
CODE = re.compile(r"^[a-z_]+(\.[a-z0-9_]+)+$")


def keyword_coded_errors() -> set[str]:
    """Names of the SombraError classes whose code is a keyword (CodedError's is first)."""
    import sombra_tui.engine as engine

    names = {"SombraError"}
    for path in (PACKAGE / "engine").glob("*.py"):
        module = importlib.import_module(f"sombra_tui.engine.{path.stem}") \
            if path.stem != "__init__" else engine
        names.update(name for name, value in vars(module).items()
                     if isinstance(value, type) and issubclass(value, SombraError)
                     and not issubclass(value, CodedError))
    return names


def coded_calls() -> list[tuple[str, int, str | None, str]]:
    """(file, line, code, message source) of every SombraError (or keyword-coded
    subclass) built in sombra_tui; the phase table's own refusals (engine/registry.py)
    count with their codes."""
    classes = keyword_coded_errors()
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in classes:
                code = next((kw.value for kw in node.keywords if kw.arg == "code"), None)
                if isinstance(code, ast.Name) and path.name == "registry.py":
                    found.extend((path.name, node.lineno, fit.refusal[0], fit.refusal[1])
                                 for fit in PHASES.values() if fit.refusal)
                    continue
                found.append((path.name, node.lineno,
                              code.value if isinstance(code, ast.Constant) else None,
                              ast.unparse(node.args[0]) if node.args else ""))
    return found


def test_every_sombra_error_in_the_code_names_its_code() -> None:
    calls = coded_calls()
    assert len(calls) > 80
    assert [call for call in calls if call[2] is None or not CODE.match(call[2])] == []


def test_each_code_names_one_message() -> None:
    messages: dict[str | None, set[str]] = {}
    for _, _, code, message in coded_calls():
        messages.setdefault(code, set()).add(message)
    assert {code: texts for code, texts in messages.items() if len(texts) > 1} == {}


def test_code_params_and_field_travel_with_the_message() -> None:
    error = SombraError("Ana is out.", code="mark.already", params={"name": "Ana"},
                        field="character")
    assert str(error) == "Ana is out." and error.code == "mark.already"
    assert error.params == {"name": "Ana"} and error.field == "character"
    coded = CodedError("formula.empty", "The formula is empty.", params={"formula": ""})
    assert isinstance(coded, SombraError) and coded.code == "formula.empty"
    assert coded.params == {"formula": ""} and coded.field is None


def test_a_name_clash_names_the_field_and_the_name() -> None:
    combat = make_combat(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    with pytest.raises(SombraError) as info:
        combat.execute(AddCharacter(character=char("ana", 1)))
    assert info.value.code == "character.name_taken"
    assert info.value.field == "character.name" and info.value.params == {"name": "ana"}
    assert str(info.value) == ("There is already a character called ana; names must be "
                               "unique in the encounter.")
    with pytest.raises(SombraError) as info:
        combat.execute(EditCharacter(name="Bruno", character=char("ANA", 12, 5, 12)))
    assert (info.value.code, info.value.field) == ("character.rename_taken", "character.name")


def test_a_refused_declaration_says_whose_turn_it_is() -> None:
    """I3: the declaration order; the code and params say it without the text."""
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    with pytest.raises(SombraError) as info:
        combat.execute(Declare(character="Bruno", actions=[]))
    assert info.value.code == "declare.not_turn"
    assert info.value.params == {"declarer": "Ana", "character": "Bruno"}


def test_an_undecided_tie_points_at_the_tie_winner_field() -> None:
    """T5: a tie in an opposed roll is the DJ's call; the error names the field to fill."""
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    opposed = Opposition(mode=OppositionMode.DIRECT, against=["Bruno"])
    declare(combat, "Ana", act("pushes Bruno", "Bruno", target=12, opposition=opposed))
    declare(combat, "Bruno")
    advance_to(combat, Phase.ROUND)
    same = dice(5, 5, 5)
    with pytest.raises(SombraError) as info:
        combat.execute(ResolveOpposed(character="Ana", rolls=[
            OpposedRoll(character="Ana", dice=same, target=12, gd=0),
            OpposedRoll(character="Bruno", dice=same, target=12, gd=0)]))
    assert (info.value.code, info.value.field) == ("opposed.tie", "tie_winner")
    assert info.value.params == {"winners": "Ana, Bruno"}


@pytest.mark.parametrize(("fields", "code", "expected"), [
    ({"protection": {"pecho": 100}}, "model.protection_range",
     "la protección de pecho debe estar entre 0 y 99, no 100"),
    ({"default_weapon": 2, "weapons": [{"name": "porra", "damage_type": "0"}]},
     "model.default_weapon_missing", "el arma habitual es la número 3, pero Ana tiene 1 armas"),
])
def test_section_h_sheet_refusals_have_codes_and_speak_the_djs_language(
        fields: dict[str, object], code: str, expected: str, request: pytest.FixtureRequest
) -> None:
    """H1/H5: a sheet's protection and default weapon are refused by type, in Spanish."""
    request.getfixturevalue("spanish")
    from pydantic import ValidationError

    from sombra_tui.engine.errors import problem_message
    from sombra_tui.engine.model import Character

    with pytest.raises(ValidationError) as caught:
        Character.model_validate({"name": "Ana", "primaria": 8, "secundaria": 3,
                                  "alerta": 14, **fields})
    [problem] = caught.value.errors()
    assert problem["type"] == code
    assert problem_message(problem) == expected
