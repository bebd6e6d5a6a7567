"""Issue 22 item 10: the log, the breakdowns and the errors say everything in the DJ's
language: no code names of settings, no English severity or json reason in Spanish, and
the English names severities as it names quality levels."""

from __future__ import annotations

from pathlib import Path

import pytest

from sombra_tui.engine import i18n, storage
from sombra_tui.engine.commands import ChangeSettings, ManualHit
from sombra_tui.engine.conditions import GradeEntry, GradeSourceKind, ScopeKind
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.model import DeclarationView, WoundView
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import char, started


def test_a_settings_change_names_the_settings_not_their_code_names() -> None:
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    settings = combat.state.settings
    combat.execute(ChangeSettings(settings=settings.model_copy(update={
        "niveles_de_calidad": False,
        "wounds": settings.wounds.model_copy(update={"bleed_rate_grave": 2})})))
    line = combat.log[-1].text
    assert line == "Settings: Niveles de calidad on -> off, Bleeding rate (grave) 5 -> 2."
    i18n.set_language("es")
    assert combat.log[-1].text == ("Ajustes: Niveles de calidad sí -> no, Ritmo de sangrado "
                                   "(grave) 5 -> 2.")


def test_a_players_view_change_names_the_setting_and_its_value_in_the_djs_words() -> None:
    """Issue 23: what the players see, per side, named as the settings dialog names it
    (never "pc wounds", "hidden_until_acts" or "after_phase")."""
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    settings = combat.state.settings
    players = settings.players
    combat.execute(ChangeSettings(settings=settings.model_copy(update={"players": (
        players.model_copy(update={
            "pc": players.pc.model_copy(update={"wounds": WoundView.HIDDEN,
                                                "hidden_until_acts": True}),
            "npc": players.npc.model_copy(update={
                "wounds": WoundView.NUMBERS,
                "declarations": DeclarationView.AFTER_PHASE})}))})))
    assert combat.log[-1].text == (
        "Settings: PCs' wounds for the players numbers -> not shown, New PCs hidden from "
        "the players until they act off -> on, NPCs' wounds for the players words -> "
        "numbers, NPCs' declarations for the players as made -> when the declarations end.")
    i18n.set_language("es")
    assert combat.log[-1].text == (
        "Ajustes: Heridas de los PJ que ven los jugadores números -> no se ven, PJ nuevos "
        "ocultos a los jugadores hasta que actúen no -> sí, Heridas de los PNJ que ven los "
        "jugadores palabras -> números, Declaraciones de los PNJ que ven los jugadores "
        "según se hacen -> al acabar las declaraciones.")


def test_a_new_bleeding_rate_says_it_is_for_new_wounds() -> None:
    """H9: a wound keeps the rate it was made with; the log says so when one bleeds."""
    combat = started(char("Ana", 8, 3, 14, resistencia=3), char("Bruno", 12, 5, 12))
    combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=7))
    assert any(w.bleeding for w in combat.state.body("Ana").wounds)
    settings = combat.state.settings
    combat.execute(ChangeSettings(settings=settings.model_copy(update={
        "wounds": settings.wounds.model_copy(update={"bleed_rate_grave": 2})})))
    assert "applies to new wounds" in combat.log[-1].text
    i18n.set_language("es")
    assert "vale para las heridas nuevas" in combat.log[-1].text


def test_a_wound_grade_in_a_breakdown_reads_in_the_dj_s_language() -> None:
    entry = GradeEntry(gd=1, kind=GradeSourceKind.WOUND, scope=ScopeKind.PHYSICAL,
                       source_id=1, name=Location.PECHO.label, severity="grave")
    assert entry.describe() == "chest, serious wound +1"
    i18n.set_language("es")
    assert entry.describe() == "pecho, herida grave +1"


def test_the_log_names_severities_in_english_and_spanish() -> None:
    combat = started(char("Ana", 8, 3, 14, resistencia=3), char("Bruno", 12, 5, 12))
    combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=7))
    english = "\n".join(e.text for e in combat.log)
    assert "-> serious" in english and "-> grave" not in english
    i18n.set_language("es")
    spanish = "\n".join(e.text for e in combat.log)
    assert "-> grave" in spanish and "serious" not in spanish


@pytest.mark.parametrize(("text", "english", "spanish"), [
    ("", "a value is missing", "falta un valor"),
    ('{"a" 1}', "a ':' is missing", "falta un ':'"),
    ('{"format": 1,}', "a comma too many", "sobra una coma")])
def test_a_file_that_is_not_json_says_why_in_the_dj_s_language(
        tmp_path: Path, text: str, english: str, spanish: str) -> None:
    path = tmp_path / "roto.sombra.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SombraError) as refused:
        storage.load(path)
    assert english in refused.value.message and "Expecting" not in refused.value.message
    i18n.set_language("es")
    with pytest.raises(SombraError) as refused:
        storage.load(path)
    assert spanish in refused.value.message and "Expecting" not in refused.value.message


@pytest.mark.parametrize("text", ["xyz", "3 4 x", "12a"])
def test_letters_typed_as_dice_are_no_die_not_a_count(text: str) -> None:
    """T6: "xyz" is not "1 die": the message names what is not a die."""
    from sombra_tui.engine.dice import parse_dice

    with pytest.raises(SombraError) as refused:
        parse_dice(text)
    assert refused.value.code == "dice.not_a_die"
    assert "is not a die" in refused.value.message


@pytest.mark.parametrize(("condition", "english", "spanish"), [
    ("aturdido", "DJ: Ana is aturdido", "DJ: Ana está aturdid"),
    ("dolor intenso", "DJ: Ana has dolor intenso", "DJ: Ana tiene dolor intenso"),
    ("cegado", "DJ: new condition for Ana: cegado", "DJ: nuevo estado de Ana: cegado"),
])
def test_a_condition_begun_reads_as_each_language_says_it(condition: str, english: str,
                                                           spanish: str) -> None:
    """C2: "Ana está dolor intenso" was wrong Spanish; a condition of the DJ's own naming
    may be a noun or an adjective, so its line says neither."""
    from sombra_tui.engine.commands import AddCondition
    from sombra_tui.engine.conditions import Condition, builtin

    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    added = (builtin(condition, began=0, duration=2) if condition != "cegado"
             else Condition(name=condition))
    events = combat.execute(AddCondition(character="Ana", condition=added))
    assert events[0].text.startswith(english)
    i18n.set_language("es")
    assert events[0].text.startswith(spanish)


def test_a_hit_by_hand_without_a_cause_says_so_in_the_language_shown() -> None:
    """The default cause followed the language in force when the hit was entered: a
    Spanish phrase stayed in the English log."""
    i18n.set_language("es")
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=4))
    assert "(un impacto anotado por el DJ)" in combat.log[-1].text
    i18n.set_language("en")
    assert "(a hit entered by the DJ)" in combat.log[-1].text
