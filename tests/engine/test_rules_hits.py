"""Sections H and C as the machine applies them: hit proposals settled before the next
step (H1), tipo III/IV (H3, H4), protection (H5), thresholds (H7), bleeding (H9),
grades in every breakdown (H10), simultaneous groups and prevented (H11), the DJ's
healing and edits (H12), and conditions acting through their rules (C3, C4)."""

from __future__ import annotations

import pytest

from sombra_tui.engine import (
    Advance,
    Combat,
    CombatState,
    Decline,
    EventKind,
    LogEvent,
    OpposedRoll,
    Phase,
    Resolve,
    ResolveOpposed,
    StartCombat,
    storage,
)
from sombra_tui.engine.ask import alerta_gd
from sombra_tui.engine.commands import (
    AcceptHit,
    AddCondition,
    AttendWound,
    ConfirmProposal,
    DeclineHit,
    DeclineProposal,
    FreeTA,
    Heal,
    HealKind,
    ManualHit,
    RemoveCondition,
    SetCounters,
)
from sombra_tui.engine.conditions import (
    ActionScope,
    BodySide,
    Condition,
    ConditionEffects,
    GdEffect,
    ScopeKind,
    builtin,
)
from sombra_tui.engine.model import Opposition, OppositionMode, Reading, Role, Settings
from sombra_tui.engine.state import ProposalKind
from sombra_tui.engine.wounds import DamageType, LocatedDamage, Location, Weapon, WoundSettings
from tests.engine.conftest import (
    SUB,
    act,
    advance_to,
    assert_refused,
    char,
    declare,
    declare_all_inaction,
    dice,
    events_of,
    make_combat,
    started,
)

PISTOL = Weapon(name="pistol", damage_type="II")


def fighters(**bruno: object) -> Combat:
    return started(char("Ana", 8, 3, 14, resistencia=6, skills={"Armas": 30}),
                   char("Bruno", 12, 5, 12, resistencia=7, skills={"Armas": 30}, **bruno),
                   char("Carla", 15, 2, 13, skills={"Armas": 30}))


def carla_shoots(combat: Combat, roll: tuple[int, int, int], weapon: Weapon = PISTOL,
                 target: str = "Bruno") -> list[LogEvent]:
    declare_all_inaction_but(combat, "Carla")
    declare(combat, "Carla", act(f"shoots {target}", target, skill="Armas", weapon=weapon),
            affected=[])
    advance_to(combat, Phase.ROUND)
    return combat.execute(Resolve(character="Carla", dice=dice(*roll)))


def declare_all_inaction_but(combat: Combat, name: str) -> None:
    while combat.state.current_declarer not in (None, name):
        declare(combat, combat.state.current_declarer)  # type: ignore[arg-type]


def test_h1_failed_attack_or_no_weapon_proposes_nothing() -> None:
    combat = fighters()
    carla_shoots(combat, (9, 9, 9))  # 27 <= 30: success ... with a weapon
    assert len(combat.state.proposals) == 1
    combat = fighters()
    declare_all_inaction_but(combat, "Carla")
    declare(combat, "Carla", act("shoots", "Bruno", skill="Armas"), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Carla", dice=dice(1, 1, 2)))
    assert combat.state.proposals == []  # H1: no weapon, no attack
    combat = fighters()
    declare_all_inaction_but(combat, "Carla")
    declare(combat, "Carla", act("shoots", "Bruno", target=5, weapon=PISTOL), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Carla", dice=dice(9, 9, 9)))  # fails
    assert combat.state.proposals == []


def test_h1_a_pending_hit_blocks_the_next_step_and_decline_is_logged() -> None:
    combat = fighters()
    carla_shoots(combat, (5, 8, 3))
    [proposal] = combat.state.proposals
    assert_refused(combat, Resolve(character="Bruno", dice=dice(1, 1, 1)), match="settle")
    assert_refused(combat, Advance(), match="settle")
    events = combat.execute(DeclineHit(proposal_id=proposal.id, reason="cover"))
    assert combat.state.body("Bruno").counters.g == 0
    [line] = events_of(events, EventKind.OVERRIDE)
    assert line.override and "cover" in line.text and line.rule == "H1"
    combat.execute(Advance())


def test_h1_h12_typed_damage_and_aimed_location_win_and_are_logged() -> None:
    combat = fighters()
    carla_shoots(combat, (5, 8, 3))
    [proposal] = combat.state.proposals
    events = combat.execute(AcceptHit(proposal_id=proposal.id, location=Location.CABEZA,
                                      damage=3, lethal=False))
    [wound] = combat.state.body("Bruno").wounds
    assert (wound.location, wound.damage, wound.lethal) == (Location.CABEZA, 3, False)
    assert combat.state.body("Bruno").counters.w == 0
    [line] = events_of(events, EventKind.HIT)
    assert line.override and "right arm -> head" in line.text and "damage 11 -> 3" in line.text


def test_h1_unrolled_attack_asks_for_location_and_damage() -> None:
    combat = fighters()
    declare_all_inaction_but(combat, "Carla")
    declare(combat, "Carla", act("shoots", "Bruno", skill="Armas", weapon=PISTOL),
            affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Carla", accept=True))
    [proposal] = combat.state.proposals
    assert proposal.reading is None
    assert_refused(combat, AcceptHit(proposal_id=proposal.id), match="location and damage")
    combat.execute(AcceptHit(proposal_id=proposal.id, location=Location.PECHO, damage=8))
    assert combat.state.body("Bruno").counters.w == 8


def test_h3_a_type_without_formula_asks_for_the_damage() -> None:
    combat = fighters()
    carla_shoots(combat, (5, 8, 3), weapon=Weapon(name="rifle", damage_type="III"))
    [proposal] = combat.state.proposals
    assert proposal.reading is not None and proposal.reading.needs_damage
    assert_refused(combat, AcceptHit(proposal_id=proposal.id), match="type the damage")
    combat.execute(AcceptHit(proposal_id=proposal.id, damage=20))
    assert combat.state.body("Bruno").wounds[0].damage == 20


def test_h3_the_djs_formula_from_the_settings_is_used() -> None:
    wounds = WoundSettings().with_damage_type(DamageType(id="III", formula="(d+ + d-) x 2"))
    combat = started(char("Bruno", 12, resistencia=7), char("Carla", 15,
                                                            skills={"Armas": 30}),
                     wounds=wounds)
    carla_shoots(combat, (5, 8, 3), weapon=Weapon(name="rifle", damage_type="III"))
    [proposal] = combat.state.proposals
    assert proposal.reading is not None and proposal.reading.damage.value == 22


def test_h4_tipo_iv_list_values_of_one_location_add_up() -> None:
    combat = fighters()
    carla_shoots(combat, (5, 8, 3), weapon=Weapon(name="grenade", damage_type="IV"))
    [proposal] = combat.state.proposals
    assert proposal.reading is not None and proposal.reading.tipo_iv_count == 3  # d-
    combat.execute(AcceptHit(proposal_id=proposal.id, entries=[
        LocatedDamage(location=Location.ABDOMEN, damage=4),
        LocatedDamage(location=Location.PECHO, damage=2),
        LocatedDamage(location=Location.ABDOMEN, damage=5)]))
    wounds = combat.state.body("Bruno").wounds
    assert [(w.location, w.damage) for w in wounds] == [(Location.ABDOMEN, 9),
                                                        (Location.PECHO, 2)]
    assert combat.state.body("Bruno").counters.w == 11


def test_h5_protection_comes_off_before_severity() -> None:
    combat = fighters(protection={Location.BRAZO_DERECHO: 5})
    carla_shoots(combat, (5, 8, 3))
    [proposal] = combat.state.proposals
    assert proposal.reading is not None and proposal.reading.assessment is not None
    assert proposal.reading.assessment.damage == 6  # 11 - 5; floor(6/7) = 0
    events = combat.execute(AcceptHit(proposal_id=proposal.id))
    assert combat.state.body("Bruno").counters.w == 6
    assert "protection 5 = 6" in events_of(events, EventKind.HIT)[0].text


def test_h7_reaching_pv_proposes_and_the_dj_confirms_out() -> None:
    combat = fighters()
    events = combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=18,
                                      lethal=False))  # PV 18 (3 x 6): inconsciente
    [proposal] = combat.state.proposals
    assert proposal.kind is ProposalKind.THRESHOLD and proposal.condition == "inconsciente"
    assert_refused(combat, Advance(), match="inconsciente")
    combat.execute(ConfirmProposal(proposal_id=proposal.id))
    assert combat.state.is_out("Ana")  # P4
    assert [c.name for c in combat.state.body("Ana").conditions][-1] == "inconsciente"
    # points beyond PV are logged
    events = combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=2,
                                      lethal=False))
    assert any(e.code == "points.over_pv" and e.data["g_over"] == 2 for e in events)
    combat.execute(SetCounters(character="Ana", g=18, w=18))
    [muerto] = combat.state.proposals
    assert muerto.condition == "muerto"
    combat.execute(DeclineProposal(proposal_id=muerto.id))
    assert "muerto" not in [c.name for c in combat.state.body("Ana").conditions]


def _bleeder(combat: Combat, lethal: bool = True) -> None:
    combat.execute(ManualHit(character="Bruno", location=Location.PECHO, damage=14,
                             lethal=lethal))  # R 7: grave, bleeds every 5


def test_h9_bleeding_from_the_round_after_at_the_end_of_the_fifth() -> None:
    combat = fighters()
    _bleeder(combat)  # round 1
    lost: list[int] = []
    while combat.state.round <= 11:
        w = combat.state.body("Bruno").counters.w
        declare_all_inaction(combat)
        advance_to(combat, Phase.END_OF_ROUND)
        if combat.state.body("Bruno").counters.w > w:
            lost.append(combat.state.round)
        combat.execute(Advance())
    assert lost == [6, 11]  # counted from round 2: ends of rounds 6 and 11


def test_h9_non_lethal_does_not_bleed_and_h12_attended_stops() -> None:
    combat = fighters()
    _bleeder(combat, lethal=False)
    assert combat.state.body("Bruno").wounds[0].bleed_rate is None
    combat = fighters()
    _bleeder(combat)
    wound = combat.state.body("Bruno").wounds[0]
    assert "sangrando" in [c.name for c in combat.state.body("Bruno").conditions]
    combat.execute(AttendWound(character="Bruno", wound_id=wound.id))
    assert "sangrando" not in [c.name for c in combat.state.body("Bruno").conditions]
    for _ in range(6):
        declare_all_inaction(combat)
        advance_to(combat, Phase.END_OF_ROUND)
        combat.execute(Advance())
    assert combat.state.body("Bruno").counters.w == 14


def test_h10_scope_alerta_is_not_physical_and_other_arm_is_free() -> None:
    combat = fighters()
    combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=6))  # leve
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO, damage=6))
    declare(combat, "Ana", act("aims", target=30))
    declare(combat, "Bruno", act("shoots Ana", "Ana", skill="Armas"))
    gd = alerta_gd(combat.state, combat.state.top_prompt, SUB)  # type: ignore[arg-type]
    assert gd.grades == [] and gd.total == 1  # H10: Alerta TAs are not physical
    combat.execute(AddCondition(character="Ana", condition=Condition(
        name="cegado", effects=ConditionEffects(gd=(GdEffect(scope=ScopeKind.ANY, gd=2),)))))
    gd = alerta_gd(combat.state, combat.state.top_prompt, SUB)  # type: ignore[arg-type]
    assert gd.total == 3 and "cegado +2" in gd.describe()  # C1: "any" scope applies
    combat.execute(RemoveCondition(character="Ana",
                                   condition_id=combat.state.body("Ana").conditions[-1].id))
    combat.execute(Decline(character="Ana"))
    declare(combat, "Carla")
    advance_to(combat, Phase.ROUND)
    left = ActionScope(physical=True, arms=frozenset({BodySide.LEFT}))
    combat.execute(Resolve(character="Bruno", dice=dice(9, 9, 9)))
    # Ana's "aims" uses the right (main) arm by default: chest +1 and right arm +1.
    events = combat.execute(Resolve(character="Ana", dice=dice(1, 1, 1)))
    [ta] = events_of(events, EventKind.TA)
    assert ta.ta is not None and ta.ta.gd == 2
    assert ta.gd is not None and [g.name for g in ta.gd.grades] == ["chest", "right arm"]
    assert left.arms == frozenset({BodySide.LEFT})


def test_h10_a_left_arm_action_does_not_carry_the_right_arm_wound() -> None:
    combat = fighters()
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO, damage=6))
    left = ActionScope(physical=True, arms=frozenset({BodySide.LEFT}))
    declare(combat, "Ana", act("throws a knife", target=30, scope=left))
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    events = combat.execute(Resolve(character="Ana", dice=dice(1, 1, 1)))
    [ta] = events_of(events, EventKind.TA)
    assert ta.ta is not None and ta.ta.gd == 0 and ta.gd is None


def test_h10_the_djs_free_ta_carries_the_wound_grades_of_its_scope() -> None:
    """T8, H10: the DJ's free TA is a later TA too, and carries the wound and condition
    grades by what it uses: physical with the main arm unless the DJ says."""
    combat = fighters()
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO, damage=6))
    events = combat.execute(FreeTA(character="Ana", target=30, dice=dice(1, 1, 1)))
    [ta] = events_of(events, EventKind.TA)
    assert ta.ta is not None and ta.ta.gd == 1  # right (main) arm, leve wound
    assert ta.gd is not None and [g.name for g in ta.gd.grades] == ["right arm"]
    assert "right arm" in ta.plain()
    # With the left arm it does not carry the right arm's wound; not physical, nothing.
    for scope in (ActionScope(arms=frozenset({BodySide.LEFT})), ActionScope(physical=False)):
        events = combat.execute(FreeTA(character="Ana", target=30, dice=dice(1, 1, 1),
                                       scope=scope))
        [ta] = events_of(events, EventKind.TA)
        assert ta.ta is not None and ta.ta.gd == 0 and ta.gd is None
    # A condition on every TA applies whatever the scope (C1), added to the DJ's own GD.
    combat.execute(AddCondition(character="Ana", condition=Condition(
        name="cegado", effects=ConditionEffects(gd=(GdEffect(scope=ScopeKind.ANY, gd=2),)))))
    events = combat.execute(FreeTA(character="Ana", target=30, gd=1, dice=dice(1, 1, 1),
                                   scope=ActionScope(physical=False)))
    [ta] = events_of(events, EventKind.TA)
    assert ta.ta is not None and ta.ta.gd == 3
    assert ta.gd is not None and ta.gd.base == 1 and "cegado +2" in ta.gd.describe()


def test_h11_inside_a_simultaneous_group_the_wound_waits_for_the_group() -> None:
    combat = started(char("Ana", 10, 1, skills={"Armas": 30}, resistencia=6),
                     char("Bruno", 10, 2, skills={"Armas": 30}, resistencia=7))
    declare(combat, "Ana", act("shoots Bruno", "Bruno", skill="Armas", weapon=PISTOL),
            affected=[])
    declare(combat, "Bruno", act("shoots Ana", "Ana", skill="Armas", weapon=PISTOL),
            affected=[])
    advance_to(combat, Phase.ROUND)
    first = combat.state.current_group()[0].character
    other = "Bruno" if first == "Ana" else "Ana"
    combat.execute(Resolve(character=first, dice=dice(5, 8, 3)))  # right arm, 11
    [proposal] = combat.state.proposals
    events = combat.execute(AcceptHit(proposal_id=proposal.id))
    assert any(e.code == "hit.deferred" for e in events)
    assert combat.state.body(other).wounds == ()  # not yet (P3)
    events = combat.execute(Resolve(character=other, dice=dice(9, 9, 9)))
    [ta] = events_of(events, EventKind.TA)
    assert ta.ta is not None and ta.ta.gd == 0  # the wound did not reach this TA
    assert len(combat.state.body(other).wounds) == 1  # applied after the group


def test_h11_a_state_with_a_hit_waiting_for_its_group_dumps_and_loads() -> None:
    """H11: an accepted hit inside a simultaneous group waits in the state (P3); that
    state dumps to JSON and reads back equal, and a saved file replays to it (S1)."""
    combat = started(char("Ana", 10, 1, skills={"Armas": 30}, resistencia=6),
                     char("Bruno", 10, 2, skills={"Armas": 30}, resistencia=7))
    declare(combat, "Ana", act("shoots Bruno", "Bruno", skill="Armas", weapon=PISTOL),
            affected=[])
    declare(combat, "Bruno", act("shoots Ana", "Ana", skill="Armas", weapon=PISTOL),
            affected=[])
    advance_to(combat, Phase.ROUND)
    first = combat.state.current_group()[0].character
    other = "Bruno" if first == "Ana" else "Ana"
    combat.execute(Resolve(character=first, dice=dice(5, 8, 3)))
    [proposal] = combat.state.proposals
    combat.execute(AcceptHit(proposal_id=proposal.id, damage=12))  # a DJ change in the text
    [waiting] = combat.state.deferred_hits
    dumped = combat.state.model_dump_json()
    back = CombatState.model_validate_json(dumped)
    assert back.deferred_hits == combat.state.deferred_hits
    assert back.deferred_hits[0].text.render() == waiting.text.render()
    assert "damage 11 -> 12" in waiting.text.render()
    loaded = storage.loads(storage.dumps(combat))
    assert loaded.state.model_dump_json() == dumped
    for each in (combat, loaded):  # the group acts: the hit applies, same words
        each.execute(Resolve(character=other, dice=dice(9, 9, 9)))
    [applied], [applied_loaded] = ([e for e in c.log if e.code == "hit.applied"]
                                   for c in (combat, loaded))
    assert applied.text == applied_loaded.text and "damage 11 -> 12" in applied.text


def test_h11_desarmado_with_a_round_action_pending_proposes_prevented() -> None:
    combat = fighters()
    declare(combat, "Ana", act("shoots", target=30))
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(AddCondition(character="Ana", condition=builtin("desarmado", began=0)))
    [proposal] = combat.state.proposals
    assert proposal.kind is ProposalKind.PREVENT
    combat.execute(ConfirmProposal(proposal_id=proposal.id))
    assert "Ana" in combat.state.prevented
    assert combat.state.pending_steps() == []  # P4: skipped


def test_h11_the_prevent_proposal_carries_its_condition_in_a_field() -> None:
    """H11, like H7: the proposal names the condition that prevents in `condition`, not
    only in its words (a UI or a test reads it from there)."""
    combat = fighters()
    declare(combat, "Ana", act("shoots", target=30))
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    events = combat.execute(AddCondition(character="Ana",
                                         condition=builtin("desarmado", began=0)))
    [proposal] = combat.state.proposals
    assert proposal.kind is ProposalKind.PREVENT and proposal.condition == "desarmado"
    [proposed] = [e for e in events if e.code == "prevent.proposed"]
    assert proposed.data["condition"] == proposal.condition


def test_h12_heal_and_counters() -> None:
    combat = fighters()
    combat.execute(ManualHit(character="Bruno", location=Location.PECHO, damage=5))
    combat.execute(ManualHit(character="Bruno", location=Location.CABEZA, damage=3,
                             lethal=False))
    combat.execute(Heal(character="Bruno", points=2, kind=HealKind.HERIDA))
    assert str(combat.state.body("Bruno").counters) == "G 6 / W 3"  # H6: W's G goes too
    combat.execute(Heal(character="Bruno", points=9, kind=HealKind.GOLPE))
    assert str(combat.state.body("Bruno").counters) == "G 3 / W 3"  # never below W
    assert_refused(combat, SetCounters(character="Bruno", g=2, w=3), match="cannot exceed")
    assert_refused(combat, Heal(character="Bruno", points=1, kind=HealKind.GOLPE),
                   match="no golpe points")


def test_c3_a_condition_begun_before_round_1_counts_from_round_1() -> None:
    combat = make_combat(char("Ana", 8), char("Bruno", 12))
    combat.execute(AddCondition(character="Ana", condition=builtin("aturdido", began=0,
                                                                   duration=1)))
    combat.execute(StartCombat())
    assert combat.state.declaration_of("Ana") is not None  # C4: inaction in round 1
    declare_all_inaction(combat)
    advance_to(combat, Phase.END_OF_ROUND)
    assert combat.state.body("Ana").conditions == ()  # ends at the end of round 1
    combat.execute(Advance())
    assert combat.state.current_declarer == "Ana"


def test_c4_cannot_act_skips_the_pending_step_and_out_is_p4() -> None:
    combat = fighters()
    declare(combat, "Ana", act("aims", target=30))
    combat.execute(ManualHit(character="Ana", location=Location.CABEZA, damage=6,
                             lethal=False))  # leve head, after she declared: aturdido
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    assert combat.state.pending_steps() == []
    assert any(e.rule == "C4" and "aturdido" in e.text
               for e in events_of(combat, EventKind.SKIPPED))
    combat.execute(AddCondition(character="Bruno", condition=builtin("inconsciente",
                                                                     began=0)))
    assert combat.state.is_out("Bruno")
    inconsciente = combat.state.body("Bruno").conditions[-1]
    combat.execute(RemoveCondition(character="Bruno", condition_id=inconsciente.id))
    assert not combat.state.is_out("Bruno")  # the effect ends with the condition


@pytest.mark.parametrize("confirm", [True, False])
def test_h11_a_new_aturdido_proposes_prevented_and_the_djs_answer_decides(
        confirm: bool) -> None:
    """H11 names aturdido: a wound that leaves it on a character whose round action is
    pending proposes prevented (found in a playtest: the step was skipped at once, the
    DJ never asked). Confirmed, the action is cancelled (P4); declined, it stands this
    round; the aturdido still acts through C4 in the rounds it covers (C3)."""
    combat = fighters()
    declare(combat, "Ana", act("aims", target=30))
    declare_all_inaction(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(ManualHit(character="Ana", location=Location.CABEZA, damage=6,
                             lethal=False))  # leve head: aturdido (H9)
    [proposal] = combat.state.proposals
    assert proposal.kind is ProposalKind.PREVENT and proposal.condition == "aturdido"
    assert [s.character for s in combat.state.pending_steps()] == ["Ana"]  # not skipped
    if confirm:
        combat.execute(ConfirmProposal(proposal_id=proposal.id))
        assert "Ana" in combat.state.prevented and combat.state.pending_steps() == []
    else:
        combat.execute(DeclineProposal(proposal_id=proposal.id))
        assert [s.character for s in combat.state.pending_steps()] == ["Ana"]
        events = combat.execute(Resolve(character="Ana", dice=dice(1, 1, 1)))
        assert events_of(events, EventKind.TA)  # she acts this round
    advance_to(combat, Phase.DECLARATION)  # the next round, covered by the aturdido
    assert combat.state.acts_despite == []
    ana = combat.state.declaration_of("Ana")
    assert ana is not None and ana.is_inaction  # C4: only inaction


def test_c4_an_aturdido_declarer_cannot_declare_an_action() -> None:
    combat = fighters()
    declare(combat, "Ana")
    combat.execute(AddCondition(character="Bruno", condition=builtin("aturdido", began=0,
                                                                     duration=2)))
    # C4: Bruno, the declarer, declared inaction at once (logged)
    assert combat.state.declaration_of("Bruno").is_inaction  # type: ignore[union-attr]
    assert combat.state.current_declarer == "Carla"


def test_o4_h1_attack_against_dodge_hits_only_when_the_attack_wins() -> None:
    def play(attack: tuple[int, int, int], dodge: tuple[int, int, int]) -> Combat:
        combat = fighters()
        declare(combat, "Ana", act("dodges", target=30, opposition=Opposition(
            mode=OppositionMode.CONDITIONED, against=["Carla"], role=Role.CONDITIONED,
            reading=Reading.ATTACK)), affected=[])
        declare(combat, "Bruno")
        declare(combat, "Carla", act("shoots Ana", "Ana", skill="Armas", weapon=PISTOL,
                                     opposition=Opposition(
                                         mode=OppositionMode.CONDITIONED, against=["Ana"],
                                         reading=Reading.ATTACK)), affected=[])
        advance_to(combat, Phase.ROUND)
        combat.execute(ResolveOpposed(character="Carla", rolls=[
            OpposedRoll(character="Carla", dice=dice(*attack)),
            OpposedRoll(character="Ana", dice=dice(*dodge))]))
        return combat
    assert len(play((5, 2, 1), (9, 9, 9)).state.proposals) == 1
    assert play((9, 9, 8), (4, 4, 4)).state.proposals == []  # the dodge wins (alto)


@pytest.mark.parametrize("field", ["bleeding", "only_lethal_bleeds"])
def test_h9_settings_switch_bleeding(field: str) -> None:
    wounds = WoundSettings(**{field: False})
    combat = started(char("Bruno", 12, resistencia=7), wounds=wounds)
    _bleeder(combat, lethal=field == "bleeding")
    rate = combat.state.body("Bruno").wounds[0].bleed_rate
    assert (rate is None) == (field == "bleeding")
    assert Settings(wounds=wounds).wounds == wounds
