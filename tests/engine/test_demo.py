"""Issue 24 item 5: the built-in demo is made without validation (it is the first
screen, drawn before pydantic builds any validator); validating the same values must
give the same encounter, field for field, with the same fields set."""

from __future__ import annotations

import pytest

from sombra_tui import demo
from sombra_tui.engine import frozen
from sombra_tui.engine.model import Character, Encounter, Settings
from sombra_tui.engine.wounds import DamageType, Weapon, WoundSettings


def same(made: object, validated: object) -> None:
    assert made == validated
    assert made.model_dump(exclude_unset=True) == \
        validated.model_dump(exclude_unset=True)  # type: ignore[attr-defined]


def test_the_demo_is_the_encounter_validation_makes(monkeypatch: pytest.MonkeyPatch) -> None:
    made = demo.demo_encounter(7)
    monkeypatch.setattr(frozen, "VALIDATE_TRUSTED", True)  # `trusted` validates now
    validated = demo.demo_encounter(7)
    assert isinstance(validated, Encounter) and len(validated.characters) == 6
    same(made, validated)
    same(made.settings, Settings())
    # And from its file form too (the after-validators: unique names, weapons).
    same(Encounter.model_validate(made.model_dump(exclude_unset=True)), made)


def test_the_demo_characters_genders_are_the_ones_their_names_give() -> None:
    """The demo passes each gender; the model's own validator guesses it from the name
    when absent, and must guess the same."""
    for character in demo.demo_encounter().characters:
        data = character.model_dump(exclude={"gender"})
        assert Character.model_validate(data).gender is character.gender, character.name
    assert {c.name: c.gender.value for c in demo.demo_encounter().characters}[
        "Ana"] != {c.name: c.gender.value for c in demo.demo_encounter().characters}["Bruno"]


def test_the_demo_weapons_are_the_validated_ones() -> None:
    for weapon in (demo.REVOLVER, demo.PISTOLA, demo.PUNOS, demo.GRANADA):
        same(weapon, Weapon(**weapon.model_dump(exclude_unset=True)))


def test_nested_defaults_are_the_validated_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """The settings' nested defaults (section H's table of damage types, the players'
    view per side) are made without validation too."""
    made = WoundSettings()
    assert made.damage_types[2].formula == "d+ + d-"
    monkeypatch.setattr(frozen, "VALIDATE_TRUSTED", True)
    same(made, WoundSettings())
    for damage in made.damage_types:
        same(damage, DamageType(**damage.model_dump(exclude_unset=True)))
    same(Settings(), Settings.model_validate({}))
