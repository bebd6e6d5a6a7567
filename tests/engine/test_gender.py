"""Issue 22, Deliver 5: Spanish words about a character agree with the character's
gender ("Ana queda impedida", "Marta está aturdida"); a sheet's gender is a field
guessed from the name, the DJ may change it, and it is saved with the encounter
(older files, without it, still load). English reads the same for both."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from sombra_tui.engine import i18n, storage
from sombra_tui.engine.commands import AddCondition, ConfirmProposal, EditCharacter, SetMark
from sombra_tui.engine.conditions import builtin
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import Gender, guess_gender
from sombra_tui.engine.state import Phase
from tests.engine.conftest import (
    act,
    advance_to,
    char,
    declare,
    declare_all_inaction,
    started,
)

PO = Path(i18n.LOCALE_DIR) / "es" / "LC_MESSAGES" / "sombra_tui.po"


@pytest.mark.parametrize(("name", "gender"), [
    ("Ana", Gender.FEMENINO), ("Marta la Roja", Gender.FEMENINO), ("Ana 2", Gender.FEMENINO),
    ("Carmen", Gender.FEMENINO), ("Bruno", Gender.MASCULINO), ("Luca", Gender.MASCULINO),
    ("Matón 3", Gender.MASCULINO), ("Borja", Gender.MASCULINO)])
def test_the_gender_is_guessed_from_the_name(name: str, gender: Gender) -> None:
    assert guess_gender(name) is gender
    assert char(name, 1, 1, 1).gender is gender


def test_an_explicit_gender_wins_and_is_saved(tmp_path: Path) -> None:
    combat = started(char("Marta", 8, 3, 14, gender=Gender.MASCULINO), char("Bruno", 12, 5, 12))
    path = tmp_path / "marta.sombra.json"
    storage.save(combat, path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert {ch["name"]: ch["gender"] for ch in saved["encounter"]["characters"]} == \
        {"Marta": "masculino", "Bruno": "masculino"}
    assert storage.load(path).state.character("Marta").gender is Gender.MASCULINO  # type: ignore[union-attr]


def test_a_file_without_genders_loads_with_them_guessed(tmp_path: Path) -> None:
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    data = json.loads(storage.dumps(combat))
    for character in data["encounter"]["characters"]:
        del character["gender"]
    path = tmp_path / "old.sombra.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    loaded = storage.load(path)
    assert [ch.gender for ch in loaded.state.characters] == [Gender.FEMENINO, Gender.MASCULINO]


def prevented_in_round(*characters: object) -> tuple[Combat, str]:
    """A round with Ana's action pending; desarmado proposes prevented (H11), confirmed."""
    combat = started(*characters)  # type: ignore[arg-type]
    declare(combat, "Ana", act("ataca", target=30))
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(AddCondition(character="Ana", condition=builtin("desarmado", began=0,
                                                                     duration=2)))
    [proposal] = combat.state.proposals
    combat.execute(ConfirmProposal(proposal_id=proposal.id))
    return combat, "\n".join(event.text for event in combat.log)


def test_spanish_agrees_with_a_feminine_character_english_does_not_change() -> None:
    combat, english = prevented_in_round(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    assert "Ana is desarmado" in english and "DJ confirms: Ana is prevented" in english
    i18n.set_language("es")
    spanish = "\n".join(event.text for event in combat.log)
    assert "Ana está desarmada (2 asaltos" in spanish
    assert "Ana está desarmada con la acción de asalto pendiente: ¿marcar impedida?" in spanish
    assert "El DJ confirma: Ana queda impedida (desarmada)." in spanish
    assert "Ana queda impedida: se anula su acción de asalto." in spanish
    assert "impedido" not in spanish and "desarmado" not in spanish
    # The same words after saving and loading (the log is replayed from the file).
    assert "\n".join(e.text for e in storage.loads(storage.dumps(combat)).log) == spanish


def test_spanish_stays_masculine_for_a_masculine_character() -> None:
    combat, _english = prevented_in_round(char("Ana", 8, 3, 14, gender=Gender.MASCULINO),
                                          char("Bruno", 12, 5, 12))
    i18n.set_language("es")
    spanish = "\n".join(event.text for event in combat.log)
    assert "El DJ confirma: Ana queda impedido (desarmado)." in spanish
    assert "impedida" not in spanish and "desarmada" not in spanish


def test_the_dj_changes_a_gender_and_the_words_follow() -> None:
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    ana = combat.state.character("Ana")
    assert ana is not None
    combat.execute(EditCharacter(name="Ana", character=ana.model_copy(
        update={"gender": Gender.MASCULINO})))
    declare(combat, "Ana", act("ataca", target=30))
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Ana", mark="prevented"))
    i18n.set_language("es")
    assert "Ana queda impedido: se anula" in "\n".join(e.text for e in combat.log)


def test_an_error_about_a_feminine_character_agrees() -> None:
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    declare(combat, "Ana", act("ataca", target=30))
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Ana", mark="prevented"))
    with pytest.raises(SombraError) as refused:
        combat.execute(SetMark(character="Ana", mark="prevented"))
    assert refused.value.message == "Ana is already prevented."
    i18n.set_language("es")
    assert refused.value.message == "Ana ya está impedida."


def test_every_feminine_form_has_its_spanish() -> None:
    with PO.open("rb") as handle:
        catalog = read_po(handle, locale="es")
    i18n.set_language("es")
    forms = i18n.feminine_forms()
    assert len(forms) >= 10
    for message in catalog:
        if message.context == i18n.FEMININE:
            assert message.string, message.id
            plain = catalog.get(message.id)
            assert plain is not None and plain.string != message.string, message.id
    feminine = ("impedida", "bloqueada", "declarada")  # the status words of a row too
    assert all(any(word in form for word in feminine) for form in forms), forms


def test_h7_declining_muerto_for_ana_reads_muerta_in_the_log_and_the_panel(
        spanish: str) -> None:
    """Playtest: the question said "¿muerta?", the panel "¿muerto para Ana?" and the log
    "El DJ rechaza muerto para Ana."."""
    from sombra_tui.engine import ask
    from sombra_tui.engine.commands import DeclineProposal, ManualHit
    from sombra_tui.engine.wounds import Location
    from sombra_tui.widgets.declaration_queue import next_step_hint

    combat = started(char("Ana", 8, 3, 14, resistencia=5), char("Bruno", 12, 5, 12))
    combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=20))
    [proposal] = combat.state.proposals
    assert proposal.condition == "muerto"
    assert "¿muerta para Ana?" in next_step_hint(combat.state)
    assert "muerta" in str(ask.proposal_question(proposal, combat.state))
    combat.execute(DeclineProposal(proposal_id=proposal.id))
    declined = next(e for e in combat.log if e.code == "proposal.declined")
    assert declined.text == "El DJ rechaza muerta para Ana."
