"""The party goes on (issue 38 items 3 and 4): a new encounter from the end of this one,
with the PCs' G and W, wounds, bleeding clocks and conditions, and the time between the
scenes run as H9 and C3 say; checked by playing the new encounter on."""

from __future__ import annotations

import pytest

from sombra_tui.engine import (
    Advance,
    Combat,
    Encounter,
    EventKind,
    Phase,
    Resolve,
    Side,
    storage,
)
from sombra_tui.engine.carry import carried_bodies, carry_on
from sombra_tui.engine.commands import AcceptHit, AttendWound, ImportCharacters, StartCombat
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.i18n import N_, Join, Msg, set_language, text_data
from sombra_tui.engine.model import Carried, CarriedBody
from sombra_tui.engine.wounds import Location, Severity, Weapon
from tests.engine.conftest import (
    act,
    advance_to,
    char,
    declare,
    declare_all_inaction,
    dice,
    started,
)
from tests.engine.test_report import play_key_moments

RIFLE = Weapon(name="rifle", damage_type="II")


def fight() -> Combat:
    """Round 1: Carla's shot leaves Ana (PC, R 6) aturdido with a leve head wound (7:
    rounds 2-3, bleeding every 16); Dora's leaves Bruno (PC, R 6, PV 18) a grave chest
    wound (13: bleeding every 5, from round 2, dolor intenso). The round ends."""
    carla = char("Carla", 15, 2, skills={"Armas": 30}, weapons=[RIFLE])
    dora = char("Dora", 14, 2, skills={"Armas": 30}, weapons=[RIFLE])
    bruno = char("Bruno", 12, 5, resistencia=6, side=Side.PC, weapons=[RIFLE])
    ana = char("Ana", 8, 3, resistencia=6, side=Side.PC, weapons=[RIFLE])
    combat = started(carla, dora, bruno, ana)
    while combat.state.current_declarer:
        name = combat.state.current_declarer
        target = {"Carla": "Ana", "Dora": "Bruno"}.get(name)
        actions = [act(f"shoots {target}", target, skill="Armas", weapon=RIFLE)] \
            if target else []
        declare(combat, name, *actions, affected=[])
    advance_to(combat, Phase.ROUND)
    for shooter, roll in (("Carla", dice(10, 4, 3)), ("Dora", dice(1, 9, 4))):
        combat.execute(Resolve(character=shooter, dice=roll))
        while combat.state.proposals:
            combat.execute(AcceptHit(proposal_id=combat.state.proposals[0].id))
    advance_to(combat, Phase.END_OF_ROUND)
    return combat


def next_round(combat: Combat) -> None:
    declare_all_inaction(combat)
    advance_to(combat, Phase.END_OF_ROUND)


def test_carry_on_brings_the_pcs_wounds_and_conditions_as_they_are() -> None:
    """H9, C3 with no time between: the new encounter's round 1 is the old round 2:
    Ana's aturdido covers rounds 1-2 (old 2-3) and ends at the end of round 2; Bruno's
    grave wound (taken before round 1) loses its point at the end of round 5 (old 6:
    the 5th round counted), W 13 -> 14; the NPCs stay behind."""
    plan = carry_on(fight().state)
    assert plan.passed == 0 and plan.changes == ()
    encounter = plan.encounter
    assert [ch.name for ch in encounter.characters] == ["Bruno", "Ana"]
    assert encounter.characters[0].weapons == [RIFLE]
    combat = Combat(encounter)
    bruno, ana = combat.state.body("Bruno"), combat.state.body("Ana")
    assert (bruno.counters.g, bruno.counters.w) == (13, 13)
    [wound] = bruno.wounds
    assert (wound.location, wound.severity, wound.bleed_rate, wound.round) == (
        Location.PECHO, Severity.GRAVE, 5, 0)
    [aturdido] = [c for c in ana.conditions if c.name == "aturdido"]
    assert aturdido.covered_rounds() == range(1, 3)
    combat.execute(StartCombat())
    first = combat.log[0]
    assert first.code == "carry.from" and first.text == (
        'Bruno, Ana come from "Test" (1 asalto played there; 0 between), with their '
        "wounds and conditions.")
    for round_ in range(1, 6):
        assert combat.state.round == round_
        unable = combat.state.declaration_of("Ana")
        assert (unable is not None and unable.is_inaction) == (round_ <= 2)  # C4
        next_round(combat)
        ends = [e for e in combat.log if e.code == "condition.expired"]
        assert bool(ends) == (round_ >= 2) and all(e.round == 2 for e in ends)
        bled = [e for e in combat.log if e.code == "wound.bled"]
        assert bool(bled) == (round_ == 5), round_
        if round_ < 5:
            combat.execute(Advance())
    assert combat.state.body("Bruno").counters.w == 14


@pytest.mark.parametrize(("between", "w", "next_bleed", "aturdido"), [
    (3, 13, 2, False),  # old rounds 2-4: 3 counted; aturdido ended with old round 3
    (7, 14, 3, False),  # old 2-8: a point at the end of old 6, then 2 counted
    (1, 13, 4, True),  # old 2: 1 counted; aturdido covers old 3, the new round 1
])
def test_carry_on_after_time_between(between: int, w: int, next_bleed: int,
                                     aturdido: bool) -> None:
    """H9, C3 over the asaltos between the scenes: Bruno's grave wound counts them (a
    point every 5), Ana's aturdido runs out in them; what they did is shown first and
    logged when the new combat starts; then the new combat goes on from there."""
    plan = carry_on(fight().state, asaltos=between)
    assert plan.passed == between
    combat = Combat(plan.encounter)
    assert combat.state.body("Bruno").counters.w == w
    left = [c for c in combat.state.body("Ana").conditions if c.name == "aturdido"]
    assert bool(left) == aturdido
    if aturdido:
        assert left[0].covered_rounds() == range(1, 2)
    said = [str(m) for m in plan.changes]
    assert ("Ana's aturdido ends in the time between." in said) == (not aturdido)
    assert ("Bruno bleeds 1 point in the time between (chest)." in said) == (w == 14)
    combat.execute(StartCombat())
    logged = [e.text for e in combat.log if e.code == "carry.between"]
    assert logged == said
    while combat.state.round < next_bleed:
        next_round(combat)
        assert not [e for e in combat.log if e.code == "wound.bled"]
        combat.execute(Advance())
    next_round(combat)
    [bled] = [e for e in combat.log if e.code == "wound.bled"]
    assert bled.round == next_bleed and combat.state.body("Bruno").counters.w == w + 1


def test_carry_on_keeps_attended_marks_and_whom_the_dj_picks() -> None:
    """H12: an attended wound stays attended (it bleeds no more); the DJ may take NPCs
    along and leave PCs behind."""
    combat = fight()
    [wound] = combat.state.body("Bruno").wounds
    combat.execute(AttendWound(character="Bruno", wound_id=wound.id))
    plan = carry_on(combat.state, ["Bruno", "Carla"], asaltos=20)
    assert [ch.name for ch in plan.encounter.characters] == ["Bruno", "Carla"]
    new = Combat(plan.encounter)
    [carried] = new.state.body("Bruno").wounds
    assert carried.attended and new.state.body("Bruno").counters.w == 13
    assert new.state.body("Carla").counters.g == 0


def test_carry_on_in_minutes_needs_the_length_of_an_asalto() -> None:
    """The rules give no length of an asalto: in minutes, the DJ says it (a setting,
    kept in the new encounter); 1 minute at 6 s an asalto is 10 asaltos."""
    with pytest.raises(SombraError, match="how long an asalto lasts"):
        carry_on(fight().state, minutes=1)
    plan = carry_on(fight().state, minutes=1, asalto_seconds=6)
    assert plan.passed == 10 and plan.encounter.settings.asalto_seconds == 6
    with pytest.raises(SombraError, match="No character is called Zoe"):
        carry_on(fight().state, ["Zoe"])


def test_carry_on_counts_hours_of_inconsciente_and_keeps_it_out() -> None:
    """H9: a grave head wound's inconsciente lasts the damage in hours (Eva: 6): it stays
    out in the new encounter (P4); 2 hours between leave 4, 6 hours end it."""
    combat = play_key_moments()
    plan = carry_on(combat.state, ["Eva"])
    new = Combat(plan.encounter)
    assert "Eva" in new.state.out
    two = carry_on(combat.state, ["Eva"], minutes=120, asalto_seconds=6)
    [inconsciente] = [c for c in Combat(two.encounter).state.body("Eva").conditions
                      if c.name == "inconsciente"]
    assert inconsciente.hours == 4
    assert "Eva's inconsciente: 6 h -> 4 h." in [str(m) for m in two.changes]
    six = carry_on(combat.state, ["Eva"], minutes=360, asalto_seconds=6)
    after = Combat(six.encounter)
    assert "Eva" not in after.state.out
    assert [c.name for c in after.state.body("Eva").conditions] == ["sangrando"]


def test_carried_encounter_saves_and_reads_back(tmp_path: object) -> None:
    """Format version 4 keeps the carried state (a new optional field): saved, read
    back and replayed to the same state; a file without it reads as before."""
    combat = Combat(carry_on(fight().state, asaltos=3).encounter)
    combat.execute(StartCombat())
    again = storage.loads(storage.dumps(combat))
    assert again.state == combat.state and again.encounter == combat.encounter
    assert again.state.body("Bruno").counters.w == 13


def test_carried_lines_speak_spanish() -> None:
    plan = carry_on(fight().state, asaltos=7)
    set_language("es")
    assert "Bruno pierde 1 punto entre escenas (pecho)." in [str(m) for m in plan.changes]


def test_import_brings_wounds_and_conditions_into_an_encounter_in_set_up() -> None:
    """Issue 38, the import (i): a finished encounter's roster offers what its characters
    bring (no time between); into a new encounter they come as carry_on brings them:
    Ana aturdido for its rounds 1-2, Bruno's grave wound bleeding at the end of round 5
    (H9, C3); logged; one undo takes it all back."""
    old = fight()
    carried = carried_bodies(old.state)
    assert set(carried) == {"Bruno", "Ana"}  # Carla and Dora are unhurt
    new = Combat(carry_on(old.state, ["Carla"]).encounter)
    characters = [ch for ch in old.state.characters if ch.name in ("Bruno", "Ana")]
    events = new.execute(ImportCharacters(characters=characters, source="pelea.json",
                                          carried=carried))
    assert events[-1].code == "carry.imported"
    assert events[-1].text == "Bruno, Ana bring their wounds and conditions from pelea.json."
    [aturdido] = [c for c in new.state.body("Ana").conditions if c.name == "aturdido"]
    assert aturdido.covered_rounds() == range(1, 3)
    new.execute(StartCombat())
    while new.state.round < 5:
        next_round(new)
        new.execute(Advance())
    next_round(new)
    [bled] = [e for e in new.log if e.code == "wound.bled"]
    assert bled.round == 5 and bled.actor == "Bruno"


def test_import_brings_them_into_a_combat_under_way_and_out_stays_out() -> None:
    """Mid-combat (asalto 3's declarations): their rounds count from this asalto, so
    Ana's aturdido covers asaltos 3-4 (C3); Eva's inconsciente makes her out (C4, P4);
    the ids are this encounter's own; undo takes it back."""
    host = started(char("Iker", 10, 6, side=Side.PC))
    for _ in range(2):
        next_round(host)
        host.execute(Advance())
    assert host.state.round == 3
    old = fight()
    eva_fight = play_key_moments()
    carried = {**carried_bodies(old.state), "Eva": carried_bodies(eva_fight.state)["Eva"]}
    characters = [*(ch for ch in old.state.characters if ch.name == "Ana"),
                  *(ch for ch in eva_fight.state.characters if ch.name == "Eva")]
    host.execute(ImportCharacters(characters=characters,
                                  carried={n: carried[n] for n in ("Ana", "Eva")}))
    [aturdido] = [c for c in host.state.body("Ana").conditions if c.name == "aturdido"]
    assert aturdido.covered_rounds() == range(3, 5)
    assert "Eva" in host.state.out
    ids = [w.id for name in ("Ana", "Eva") for w in host.state.body(name).wounds]
    assert len(set(ids)) == len(ids) and min(ids) >= 1
    host.undo()
    assert host.state.character("Eva") is None and "Eva" not in host.state.bodies


def test_import_refuses_wounds_of_someone_not_imported() -> None:
    old = fight()
    host = started(char("Iker", 10, 6))
    ana = [ch for ch in old.state.characters if ch.name == "Ana"]
    with pytest.raises(SombraError, match="Bruno cannot bring wounds"):
        host.execute(ImportCharacters(characters=ana, carried=carried_bodies(old.state)))


def test_h9_c3_the_new_combat_says_where_they_come_from_and_what_the_time_did() -> None:
    """H9, C3 (S2): after two asaltos and seven between, the new combat's first lines say
    where the characters come from (plural asaltos) with the source and the time between
    as data, then each change the time made, as wound lines."""
    combat = fight()
    combat.execute(Advance())
    next_round(combat)
    plan = carry_on(combat.state, asaltos=7)
    events = Combat(plan.encounter).execute(StartCombat())
    carried = [(e.kind, e.code, e.data, e.text) for e in events
               if e.code in ("carry.from", "carry.between")]
    assert carried == [
        (EventKind.ENCOUNTER, "carry.from", {"source": "Test", "passed": 7},
         'Bruno, Ana come from "Test" (2 asaltos played there; 7 between), with their '
         "wounds and conditions."),
        (EventKind.WOUND, "carry.between", {},
         "Bruno bleeds 1 point in the time between (chest)."),
        (EventKind.WOUND, "carry.between", {}, "Bruno: G 13 -> 14, W 13 -> 14."),
        (EventKind.WOUND, "carry.between", {}, "Ana's aturdido ends in the time between."),
    ]
    set_language("es")  # the lines are the DJ's words, read in the language in force
    assert [e.text for e in events if e.code == "carry.between"] == [
        "Bruno pierde 1 punto entre escenas (pecho).", "Bruno: G 13 -> 14, W 13 -> 14.",
        "El estado aturdido de Ana termina entre escenas."]


def test_h9_a_line_of_the_time_between_kept_as_a_list_reads_in_the_language_in_force(
) -> None:
    """H9 (S2): a line of the time between kept in the file as a list of messages (a
    Join, as i18n.text_data keeps one) is logged as its words, read in the language in
    force like every other line."""
    said = text_data(Join("; ", [Msg(N_("out")), Msg(N_("left the encounter"))]))
    encounter = Encounter(name="Test", characters=[char("Ana", 8)], carried=Carried(
        source="Before", bodies={"Ana": CarriedBody()}, said=(said,)))
    events = Combat(encounter).execute(StartCombat())
    [line] = [e for e in events if e.code == "carry.between"]
    assert (line.kind, line.text) == (EventKind.WOUND, "out; left the encounter")
    set_language("es")
    assert line.text == "fuera de combate; ha dejado el encuentro"
