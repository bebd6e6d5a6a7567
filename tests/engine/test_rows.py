"""One reading of a character's row (issue 35 item 9, issue 36 item 3): the DJ's table,
the sheet and the players' view read `ask.row`; the players' view then filters it by
the DJ's settings. Before, the players' view said "impedido" of Ana where the table
said "impedida", read "badly hurt" as 2W >= PV where the table warned at 2G >= PV, and
showed an NPC's sangrando while NPC wounds were hidden."""

from __future__ import annotations

import pytest

from sombra_tui.engine import (
    AddCondition,
    Combat,
    Declare,
    Encounter,
    ManualHit,
    PlayersSnapshot,
    PlayerViewSettings,
    Settings,
    Side,
    SideView,
    StartCombat,
    WoundView,
    ask,
)
from sombra_tui.engine.commands import Mark, SetCounters, SetMark
from sombra_tui.engine.conditions import Condition, builtin
from sombra_tui.engine.i18n import set_language
from sombra_tui.engine.rows import Hurt, badly_hurt
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import act, char


def encounter(npc_wounds: WoundView = WoundView.WORDS,
              pc_wounds: WoundView = WoundView.NUMBERS) -> Encounter:
    """Ana (PC, feminine), Bruno and Matón (NPCs); Resistencia 5, so PV 15 (H6)."""
    settings = Settings(players=PlayerViewSettings(pc=SideView(wounds=pc_wounds),
                                                   npc=SideView(wounds=npc_wounds)))
    return Encounter(name="Muelle", settings=settings, characters=[
        char("Ana", 8, 3, 14, side=Side.PC), char("Bruno", 12, 5, 12),
        char("Matón", 10, 4, 11)])


def view(combat: Combat) -> PlayersSnapshot:
    return ask.players_view(combat.state, combat.log, combat.revision)


def players_row(combat: Combat, name: str):  # type: ignore[no-untyped-def]
    return next(row for row in view(combat).characters if row.name == name)


# ---- gender ------------------------------------------------------------------------------


def test_p4_c1_status_words_agree_with_the_character_in_the_row_and_the_players_view(
        spanish: str) -> None:
    """'impedida', 'bloqueada', 'declarada', 'aturdida' of Ana, in the one reading and
    in the players' row made from it; Bruno's stay masculine."""
    combat = Combat(encounter())
    combat.execute(AddCondition(character="Ana", condition=builtin("aturdido", began=0,
                                                                   duration=2)))
    combat.execute(AddCondition(character="Bruno", condition=builtin("aturdido", began=0,
                                                                     duration=2)))
    combat.execute(StartCombat())
    for name in ("Ana", "Bruno"):
        combat.execute(SetMark(character=name, mark=Mark.PREVENTED))
    assert players_row(combat, "Ana").marks == ["impedida"]  # it read "impedido"
    assert players_row(combat, "Bruno").marks == ["impedido"]
    assert [c.name for c in players_row(combat, "Ana").conditions] == ["aturdida"]
    ana, bruno = ask.row(combat.state, "Ana"), ask.row(combat.state, "Bruno")
    assert [mark.word for mark in ana.marks] == ["impedida"]
    assert [mark.word for mark in bruno.marks] == ["impedido"]
    assert [c.name for c in ana.conditions] == ["aturdida"]
    assert [c.name for c in bruno.conditions] == ["aturdido"]


def test_d1_d7_declared_and_locked_agree_with_the_character(spanish: str) -> None:
    combat = Combat(encounter())
    combat.execute(StartCombat())
    declarer = combat.state.current_declarer
    assert declarer == "Ana"  # the lowest initiative declares first (I3)
    combat.execute(Declare(character="Ana", actions=[act("espera")]))
    assert ask.row(combat.state, "Ana").declared == "declarada"
    locked = combat.state.model_copy(deep=True)  # how a lock reads (D7), not how it comes
    locked.locked.append("Ana")
    assert [mark.word for mark in ask.row(locked, "Ana").marks] == ["bloqueada"]
    bruno = locked.model_copy(deep=True)
    bruno.locked.append("Bruno")
    assert [mark.word for mark in ask.row(bruno, "Bruno").marks] == ["bloqueado"]


def test_english_words_do_not_change_with_the_gender() -> None:
    set_language("en")
    combat = Combat(encounter())
    combat.execute(StartCombat())
    combat.execute(SetMark(character="Ana", mark=Mark.PREVENTED))
    assert [mark.word for mark in ask.row(combat.state, "Ana").marks] == ["prevented"]
    assert players_row(combat, "Ana").marks == ["prevented"]


# ---- one threshold for "badly hurt" ---------------------------------------------------------


def test_h6_h7_badly_hurt_is_g_at_half_the_pv_for_the_table_and_the_players() -> None:
    """H7 takes a character out when G reaches PV; W <= G (H6): badly hurt is half way,
    2G >= PV, whether the points are golpe or herida. The players' word read 2W >= PV."""
    set_language("en")
    combat = Combat(encounter(pc_wounds=WoundView.WORDS))
    combat.execute(SetCounters(character="Ana", g=7, w=0))  # PV 15 (H6)
    assert players_row(combat, "Ana").wounds.text == "wounded"
    row = ask.row(combat.state, "Ana")
    assert (row.pv, row.hurt, row.badly_hurt) == (15, Hurt.HURT, False)
    combat.execute(SetCounters(character="Ana", g=8, w=0))  # beaten: no herida point
    assert players_row(combat, "Ana").wounds.text == "badly wounded"  # it read "wounded"
    row = ask.row(combat.state, "Ana")
    assert (row.hurt, row.badly_hurt, row.at_pv) == (Hurt.BADLY_HURT, True, False)
    assert row.hurt_word == "badly wounded"
    combat.execute(SetCounters(character="Ana", g=15, w=0))
    assert ask.row(combat.state, "Ana").at_pv


@pytest.mark.parametrize(("g", "pv", "badly"), [(0, 15, False), (7, 15, False),
                                                (8, 15, True), (5, 10, True), (4, 10, False)])
def test_h6_the_threshold(g: int, pv: int, badly: bool) -> None:
    assert badly_hurt(g, pv) is badly


def test_p4_h7_out_of_the_fight_comes_first() -> None:
    set_language("en")
    combat = Combat(encounter())
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    row = ask.row(combat.state, "Bruno")
    assert row.hurt is Hurt.OUT and row.hurt_word == "out of the fight"
    assert players_row(combat, "Bruno").wounds.text == "out of the fight"


# ---- the players' filter -------------------------------------------------------------------


def bleeding_maton(npc_wounds: WoundView) -> Combat:
    """Matón takes a leve lethal wound in the pecho: it bleeds (H9: sangrando)."""
    combat = Combat(encounter(npc_wounds=npc_wounds))
    combat.execute(ManualHit(character="Matón", location=Location.PECHO, damage=6))
    body = combat.state.body("Matón")
    assert any(w.bleeding for w in body.wounds)
    assert "sangrando" in [c.name for c in body.conditions]
    return combat


def test_h9_an_npc_s_sangrando_never_reaches_the_players_when_npc_wounds_are_hidden(
        spanish: str) -> None:
    combat = bleeding_maton(WoundView.HIDDEN)
    maton = players_row(combat, "Matón")
    assert maton.wounds is None and maton.conditions == []
    assert "sangr" not in view(combat).model_dump_json()  # rows and log alike


def test_h9_a_wound_s_consequence_is_hidden_with_the_wounds_a_dj_s_condition_is_not() -> None:
    set_language("en")
    combat = Combat(encounter(npc_wounds=WoundView.HIDDEN))
    combat.execute(ManualHit(character="Matón", location=Location.CABEZA, damage=6))
    assert "aturdido" in [c.name for c in combat.state.body("Matón").conditions]
    assert players_row(combat, "Matón").conditions == []
    combat.execute(AddCondition(character="Matón", condition=Condition(name="derribado")))
    assert [c.name for c in players_row(combat, "Matón").conditions] == ["derribado"]


def test_h9_with_the_wounds_shown_sangrando_shows_too() -> None:
    set_language("en")
    combat = bleeding_maton(WoundView.WORDS)
    assert "sangrando" in [c.name for c in players_row(combat, "Matón").conditions]


def test_the_players_row_is_the_row_filtered() -> None:
    """With everything shown, the players' row says what the one reading says."""
    set_language("en")
    combat = bleeding_maton(WoundView.NUMBERS)
    for name in ("Ana", "Bruno", "Matón"):
        row, seen = ask.row(combat.state, name), players_row(combat, name)
        assert [c.name for c in seen.conditions] == [c.name for c in row.conditions]
        assert seen.wounds is not None and (seen.wounds.g, seen.wounds.w,
                                            seen.wounds.pv) == (row.g, row.w, row.pv)
        assert seen.now == row.now and seen.declaration == row.declaration
