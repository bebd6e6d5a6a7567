"""The log and the errors render in the language in force (issue 12 item 2): events keep
their template and params, so a combat replayed or switched reads in the other language."""

from __future__ import annotations

from pathlib import Path

from sombra_tui.engine import i18n, storage
from sombra_tui.engine.commands import Advance
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import Character, Encounter


def small_combat() -> Combat:
    combat = Combat(Encounter(name="Prueba", seed=3, characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12)]))
    combat.execute(combat.start_command())
    return combat


def test_a_saved_combat_reopened_in_spanish_reads_in_spanish(tmp_path: Path) -> None:
    combat = small_combat()
    [begins] = [e for e in combat.log if e.kind is EventKind.ROUND]
    assert begins.text.startswith("Asalto 1 begins. Declaration order: ")
    path = tmp_path / "prueba.json"
    storage.save(combat, path)
    i18n.set_language("es")
    reopened = storage.load(path)
    [again] = [e for e in reopened.log if e.kind is EventKind.ROUND]
    assert again.text.startswith("Empieza el asalto 1. Orden de declaración: ")
    # The same event object follows a switch too: rendered when shown, not when made.
    assert begins.text == again.text
    i18n.set_language("en")
    assert again.text.startswith("Asalto 1 begins")


def test_an_engine_error_renders_from_its_template_and_params() -> None:
    combat = small_combat()
    try:
        combat.execute(Advance())
    except SombraError as error:
        refused = error
    else:  # pragma: no cover - the declarations are still open
        raise AssertionError("Advance with declarations pending was accepted")
    english = refused.message
    assert refused.english == english
    assert refused.template and refused.code != "error.uncoded"
    i18n.set_language("es")
    assert refused.english == english  # the source stays available


def test_pydantic_problems_are_translated_by_their_type_not_their_text() -> None:
    from pydantic import ValidationError

    from sombra_tui.engine.errors import validation_problems

    try:
        Character(name=" ", primaria=-1, secundaria=3, alerta=14)
    except ValidationError as error:
        refused = error
    english = {problem.kind: problem.message for problem in validation_problems(refused)}
    assert english["model.character_needs_name"] == "a character needs a name"
    assert english["greater_than_equal"] == "Input should be greater than or equal to 0"
    i18n.set_language("es")
    spanish = {problem.kind: problem.message for problem in validation_problems(refused)}
    assert spanish["model.character_needs_name"] == "un personaje necesita un nombre"
    assert spanish["greater_than_equal"] == "Debe ser mayor o igual que 0"


def test_a_wound_reminder_reads_in_the_language_in_force() -> None:
    """H9: the grave arm wound's reminder, rendered from its code and params."""
    from sombra_tui.engine.wounds import Reminder

    reminder = Reminder(code="wounds.drops_held", params={"side": "left"},
                        text="drops what the left arm holds")
    words = reminder.words
    assert str(words) == "drops what the left arm holds"
    i18n.set_language("es")
    assert str(words) == "suelta lo que lleva en el brazo izquierdo"  # as shown now


def test_h9_a_grave_arm_wound_reads_as_one_list_in_the_log_and_the_proposal() -> None:
    """Found in a playtest: «…sangra cada 5 asaltos, Suelta lo que lleva en el brazo
    derecho.; G 10 -> 24…» in the log, and the hit proposal said it in English. Both
    now read the engine's one wording of a wound's consequences (ask.consequence_words)."""
    from sombra_tui.engine import ask
    from sombra_tui.engine.commands import ManualHit
    from sombra_tui.engine.wounds import Location, WoundSettings, assess
    from tests.engine.conftest import char, started

    i18n.set_language("es")
    combat = started(char("Bruno", 12, 5, 12, resistencia=7))
    [line] = [e for e in combat.execute(ManualHit(character="Bruno",
                                                  location=Location.BRAZO_DERECHO,
                                                  damage=14)) if e.kind.value == "hit"]
    said = "dolor intenso, desarmado, sangra 1 punto cada 5 asaltos hasta que se atienda, " \
           "suelta lo que lleva en el brazo derecho; G 0 -> 14"
    assert said in line.text, line.text
    assessment = assess(Location.BRAZO_DERECHO, 14, lethal=True, resistencia=7,
                        settings=WoundSettings(), protection=0)
    assert ask.consequence_words(assessment) == (
        "+1 GD brazo derecho; dolor intenso; desarmado; sangra 1 punto cada 5 asaltos "
        "hasta que se atienda; suelta lo que lleva en el brazo derecho")


def test_p4_a_skipped_step_quotes_its_action_as_spanish_does() -> None:
    """Found in a playtest: «Se salta a Ana "dispara a Carla"», straight quotes among
    a log that writes «...» everywhere else."""
    from sombra_tui.engine import Mark, Phase, SetMark
    from tests.engine.conftest import act, advance_to, char, declare, started

    i18n.set_language("es")
    combat = started(char("Ana", 8, 3, 14), char("Carla", 15, 2, 13))
    declare(combat, "Ana", act("dispara a Carla", "Carla", target=12), affected=[])
    declare(combat, "Carla")
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    advance_to(combat, Phase.ROUND)
    skipped = [e.text for e in combat.log if e.kind.value == "skipped"]
    assert any(text.startswith("Se salta a Ana «dispara a Carla»: ") for text in skipped), \
        skipped
    i18n.set_language("en")
    assert any(e.text == 'Ana "dispara a Carla" skipped: out.' for e in combat.log)
