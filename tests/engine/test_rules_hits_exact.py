"""H7, H11: the proposals' questions, word for word, in both languages, and when; H1,
H3, H8, H9, H12: an accepted hit's line with the DJ's changes, word for word.

Written against the mutation lane's survivors (README, "Mutation testing").
"""

from __future__ import annotations

from typing import Any

from sombra_tui.engine import Advance, EventKind, Phase, ProposalKind, Resolve
from sombra_tui.engine.commands import AcceptHit, ChangeSettings, ManualHit, RemoveCharacter
from sombra_tui.engine.i18n import set_language
from sombra_tui.engine.rules.hits import proposal_question
from sombra_tui.engine.state import Proposal
from sombra_tui.engine.wounds import (
    Consequences,
    Counters,
    LocatedDamage,
    Location,
    Severity,
    Weapon,
    Wound,
)
from tests.engine.conftest import (
    act,
    advance_to,
    char,
    declare,
    declare_all_inaction,
    dice,
    started,
)
from tests.engine.test_rules_hits import PISTOL, carla_shoots, declare_all_inaction_but, fighters

CLUB = Weapon(name="club", damage_type="II", lethal=False)

DESARMADA = Proposal(id=1, kind=ProposalKind.PREVENT, character="Ana",
                     condition="desarmado", reason="dolor intenso")


def test_h11_the_question_names_the_condition_else_the_reason() -> None:
    """H11: "mark prevented?" names the condition that prevents; a proposal without one
    names its reason."""
    assert proposal_question(DESARMADA).english() == (
        "Ana is desarmado with a round action pending: mark Ana prevented?")
    by_reason = DESARMADA.model_copy(update={"condition": None, "reason": "aturdido"})
    assert proposal_question(by_reason).english() == (
        "Ana is aturdido with a round action pending: mark Ana prevented?")


def test_h11_the_question_agrees_with_a_feminine_character(spanish: str) -> None:
    """H11, in Spanish: the words agree with the character's gender."""
    assert str(proposal_question(DESARMADA, "femenino")) == (
        "Ana está desarmada con la acción de asalto pendiente: ¿marcar a Ana impedida?")
    assert str(proposal_question(DESARMADA)) == (
        "Ana está desarmado con la acción de asalto pendiente: ¿marcar a Ana impedido?")


def test_h7_the_proposal_is_made_in_the_asalto_under_way() -> None:
    """H7: reaching PV proposes muerto then inconsciente, in the asalto of the change."""
    combat = started(char("Ana", 8, resistencia=5, gender="femenino"), char("Bruno", 12))
    declare_all_inaction(combat)
    advance_to(combat, Phase.END_OF_ROUND)
    combat.execute(Advance())
    assert combat.state.round == 2
    events = combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=60))
    [proposal] = combat.state.proposals
    assert (proposal.kind, proposal.condition, proposal.round, proposal.then) == (
        ProposalKind.THRESHOLD, "muerto", 2, ("inconsciente",))
    [said] = [e for e in events if e.code == "threshold.proposed"]
    assert (said.kind, said.actor, said.rule, said.data, said.text) == (
        EventKind.PROPOSAL, "Ana", "H7", {"proposal": proposal.id, "condition": "muerto",
                                          "pv": 15},
        "Ana's W reaches PV 15: muerto? (the DJ confirms)")
    set_language("es")
    assert said.text == "La W de Ana llega a los PV 15: ¿muerta? (lo confirma el DJ)"


def _accepted_all(weapon: Weapon, **edits: Any) -> tuple[str, tuple[Wound, ...], Counters]:
    """Carla's shot (dS 5, d+ 8, d- 3: right arm, tipo II 8 + 3 = 11) on Bruno (R 7, PV
    21) accepted with the DJ's `edits`: the hit's log line, Bruno's wounds and points."""
    combat = fighters()
    carla_shoots(combat, (5, 8, 3), weapon=weapon)
    [proposal] = combat.state.proposals
    events = combat.execute(AcceptHit(proposal_id=proposal.id, **edits))
    [line] = [e for e in events if e.kind is EventKind.HIT]
    body = combat.state.body("Bruno")
    return line.text, body.wounds, body.counters


def _accepted(weapon: Weapon, **edits: Any) -> tuple[str, Wound, Counters]:
    """_accepted_all for a hit that leaves one wound."""
    text, (wound,), points = _accepted_all(weapon, **edits)
    return text, wound, points


SHOT = "Carla hits Bruno with {weapon}: dS 5 -> value 5; tipo II d+ + d- = 8 + 3 = 11"


def test_h3_h12_the_djs_lethality_and_damage_win_and_the_line_names_each_change() -> None:
    """H12: the hit's line names every value the DJ changed, in its own words: typed
    damage and non-lethal on a lethal pistol (H6: G only); H3: a weapon's own lethality
    wins over its tipo's (a club of tipo II hits non-lethal), and the DJ's over both."""
    text, wound, points = _accepted(PISTOL, damage=12, lethal=False)
    assert text == SHOT.format(weapon="pistol") + (
        " [DJ: damage 11 -> 12, non-lethal]: right arm: damage 12, no protection, "
        "non-lethal; R 7 -> light; +1 GD right arm; G 0 -> 12, W 0 -> 0 of PV 21.")
    assert (wound.lethal, points) == (False, Counters(g=12, w=0))
    text, wound, points = _accepted(CLUB)
    assert text == SHOT.format(weapon="club") + (
        ": right arm: damage 11, no protection, non-lethal; R 7 -> light; +1 GD right arm; "
        "G 0 -> 11, W 0 -> 0 of PV 21.")
    assert (wound.lethal, points) == (False, Counters(g=11, w=0))
    text, wound, points = _accepted(CLUB, lethal=True)
    assert text == SHOT.format(weapon="club") + (
        " [DJ: lethal]: right arm: damage 11, no protection, lethal; R 7 -> light; +1 GD "
        "right arm, bleeds 1 point every 16 asaltos until attended; G 0 -> 11, W 0 -> 11 of "
        "PV 21.")
    assert (wound.lethal, points) == (True, Counters(g=11, w=11))
    text, _wound, _points = _accepted(CLUB, lethal=False)  # as the weapon reads: no change
    assert "[DJ" not in text


def test_h8_h9_h12_the_djs_severity_and_consequences_win_on_an_accepted_hit() -> None:
    """H12: the DJ's severity (11 / R 7 reads leve, H8; the DJ makes it grave) and the
    DJ's consequences (none) are the wound's, and the line says so."""
    text, wound, _points = _accepted(PISTOL, severity=Severity.GRAVE)
    assert text == SHOT.format(weapon="pistol") + (
        " [DJ: severity serious]: right arm: damage 11, no protection, lethal; R 7 -> "
        "serious; +1 GD right arm, dolor intenso, desarmado, bleeds 1 point every 5 asaltos "
        "until attended, drops what the right arm holds; G 0 -> 11, W 0 -> 11 of PV 21.")
    assert wound.severity is Severity.GRAVE
    text, wound, _points = _accepted(PISTOL, consequences=Consequences())
    assert text == SHOT.format(weapon="pistol") + (
        " [DJ: consequences]: right arm: damage 11, no protection, lethal; R 7 -> light; "
        "G 0 -> 11, W 0 -> 11 of PV 21.")
    assert (wound.severity, wound.gd, wound.bleed_rate) == (Severity.LEVE, (), None)



def test_h3_h12_a_damage_the_tracker_asked_for_is_no_change_of_the_djs() -> None:
    """H3: a tipo without a formula (III by default) reads no damage: the tracker asks
    the DJ, whose value is the hit's damage, not a change of one (the line names the tipo
    alone, no formula; no "[DJ: damage None -> 20]"). 20 / R 7: grave (H8)."""
    text, wound, points = _accepted(Weapon(name="rifle", damage_type="III"), damage=20)
    assert text == (
        "Carla hits Bruno with rifle: dS 5 -> value 5; tipo III: right arm: damage 20, no "
        "protection, lethal; R 7 -> serious; +1 GD right arm, dolor intenso, desarmado, "
        "bleeds 1 point every 5 asaltos until attended, drops what the right arm holds; "
        "G 0 -> 20, W 0 -> 20 of PV 21.")
    assert (wound.damage, wound.severity, points) == (20, Severity.GRAVE,
                                                      Counters(g=20, w=20))


def test_h4_h12_tipo_ivs_list_is_the_djs_and_the_line_names_each_wound() -> None:
    """H4: tipo IV's (location, damage) list is the DJ's (the line says so); values of
    one location add up into one wound (abdomen 4 + 5 = 9: leve, R 7; chest 2: sin
    importancia), each named in the line (H12)."""
    text, wounds, points = _accepted_all(
        Weapon(name="grenade", damage_type="IV"), entries=[
            LocatedDamage(location=Location.ABDOMEN, damage=4),
            LocatedDamage(location=Location.PECHO, damage=2),
            LocatedDamage(location=Location.ABDOMEN, damage=5)])
    assert text == (
        "Carla hits Bruno with grenade: dS 5 -> value 5; tipo IV [DJ: locations and "
        "damage]: abdomen: damage 9, no protection, lethal; R 7 -> light; +1 GD physical "
        "actions, bleeds 1 point every 16 asaltos until attended | chest: damage 2, no "
        "protection, lethal; R 7 -> minor; G 0 -> 11, W 0 -> 11 of PV 21.")
    assert [(w.location, w.damage, w.severity) for w in wounds] == [
        (Location.ABDOMEN, 9, Severity.LEVE), (Location.PECHO, 2, Severity.SIN_IMPORTANCIA)]
    assert points == Counters(g=11, w=11)


def test_h1_h12_a_hit_decided_without_dice_says_so_in_its_line() -> None:
    """H1: an attack decided without dice (the DJ accepts it) reads nothing: its
    proposal asks for the location and damage, the DJ gives them, and the hit's line
    says "no dice" after the tipo."""
    combat = fighters()
    declare_all_inaction_but(combat, "Carla")
    declare(combat, "Carla", act("shoots", "Bruno", skill="Armas", weapon=PISTOL),
            affected=[])
    advance_to(combat, Phase.ROUND)
    proposed = combat.execute(Resolve(character="Carla", accept=True))
    assert [e.text for e in proposed if e.code == "hit.proposed"] == [
        "Carla hits Bruno with pistol: location and damage to give (no dice); the DJ settles "
        "the hit."]
    [proposal] = combat.state.proposals
    events = combat.execute(AcceptHit(proposal_id=proposal.id, location=Location.PECHO,
                                      damage=8))
    assert [e.text for e in events if e.kind is EventKind.HIT] == [
        "Carla hits Bruno with pistol: tipo II, no dice: chest: damage 8, no protection, "
        "lethal; R 7 -> light; +1 GD physical actions, bleeds 1 point every 16 asaltos until "
        "attended; G 0 -> 8, W 0 -> 8 of PV 21."]


def test_h2_h12_an_aimed_location_is_named_as_the_djs_change() -> None:
    """H2: the DJ may replace the location (an aimed attack), logged: right arm -> head,
    and the head's consequences follow (H9: leve, aturdido 2 asaltos)."""
    text, wound, _points = _accepted(PISTOL, location=Location.CABEZA)
    assert text == SHOT.format(weapon="pistol") + (
        " [DJ: location right arm -> head]: head: damage 11, no protection, lethal; R 7 -> "
        "light; aturdido 2 asaltos, bleeds 1 point every 16 asaltos until attended; G 0 -> "
        "11, W 0 -> 11 of PV 21.")
    assert wound.location is Location.CABEZA


def test_h11_a_hit_outside_a_simultaneous_group_belongs_to_no_group() -> None:
    """H11/P3: only a hit proposed while its group still has steps to act waits for the
    group; Carla acting alone proposes a hit of no group, which applies when accepted."""
    combat = fighters()
    carla_shoots(combat, (5, 8, 3))
    [proposal] = combat.state.proposals
    assert proposal.group is None
    combat.execute(AcceptHit(proposal_id=proposal.id))
    assert combat.state.deferred_hits == [] and len(combat.state.body("Bruno").wounds) == 1


def test_h1_a_hit_is_proposed_on_each_target_still_there_with_its_attack() -> None:
    """H1: Carla shoots Ana and Bruno; Ana has left before Carla acts: the hit is
    proposed on Bruno alone, carrying the attacker, the action, the weapon, the TA's own
    dice, the tipo and the asalto."""
    combat = fighters()
    declare_all_inaction_but(combat, "Carla")
    declare(combat, "Carla", act("shoots both", "Ana", "Bruno", skill="Armas",
                                 weapon=PISTOL), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(RemoveCharacter(name="Ana"))
    combat.execute(Resolve(character="Carla", dice=dice(5, 8, 3)))
    [proposal] = combat.state.proposals
    assert (proposal.kind, proposal.character, proposal.attacker, proposal.action,
            proposal.weapon, proposal.dice, proposal.damage_type, proposal.group,
            proposal.round) == (ProposalKind.HIT, "Bruno", "Carla", "shoots both", PISTOL,
                                dice(5, 8, 3), "II", None, 1)


def test_h9_bleeding_switched_off_mid_encounter_stops_every_wound_bleeding() -> None:
    """H9 (setting): Bruno's grave chest wound bleeds every 5 asaltos; the DJ switches
    bleeding off in round 1: by round 7 he has lost no point and the wound counts none."""
    combat = fighters()
    combat.execute(ManualHit(character="Bruno", location=Location.PECHO, damage=14))
    settings = combat.state.settings
    combat.execute(ChangeSettings(settings=settings.model_copy(update={
        "wounds": settings.wounds.model_copy(update={"bleeding": False})})))
    for _ in range(6):
        declare_all_inaction(combat)
        advance_to(combat, Phase.END_OF_ROUND)
        combat.execute(Advance())
    assert combat.state.round == 7
    [wound] = combat.state.body("Bruno").wounds
    assert (wound.bleed_rate, wound.bleed_counted, wound.bled) == (5, 0, 0)
    assert combat.state.body("Bruno").counters == Counters(g=14, w=14)


def test_h9_one_who_left_does_not_stop_the_others_bleeding() -> None:
    """H9: Ana, hit first, has left the encounter (her body kept for the log); Bruno's
    grave chest wound, taken in round 1, still loses its point at the end of round 6."""
    combat = fighters()
    combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=2))
    combat.execute(ManualHit(character="Bruno", location=Location.PECHO, damage=14))
    combat.execute(RemoveCharacter(name="Ana"))
    assert "Ana" in combat.state.bodies
    while combat.state.round <= 6:
        declare_all_inaction(combat)
        advance_to(combat, Phase.END_OF_ROUND)
        combat.execute(Advance())
    assert combat.state.body("Bruno").counters == Counters(g=15, w=15)


def test_h5_h7_h9_a_hit_beyond_pv_word_for_word() -> None:
    """H5: Bruno's helmet (2) comes off the DJ's 30 (28); H8: 28 / R 7 = 4, grave; H9: a
    grave head wound is inconsciente for as many hours as the damage, and bleeds every 5
    asaltos; H6/H7: W 28 passes PV 21 (3 x 7): the points beyond are logged and muerto is
    proposed."""
    combat = fighters(protection={Location.CABEZA: 2})
    events = combat.execute(ManualHit(character="Bruno", location=Location.CABEZA,
                                      damage=30, cause="maza"))
    assert [(e.kind, e.code, e.rule, e.text, e.data) for e in events][:3] == [
        (EventKind.HIT, "hit.applied", "H12",
         "DJ enters a hit on Bruno (maza): head: damage 30 - protection 2 = 28, lethal; R 7 "
         "-> serious; inconsciente (28 h), bleeds 1 point every 5 asaltos until attended; "
         "G 0 -> 28, W 0 -> 28 of PV 21.",
         {"cause": "maza", "target": "Bruno", "g_before": 0, "g": 28, "w_before": 0,
          "w": 28, "pv": 21, "wounds": 1}),
        (EventKind.WOUND, "points.over_pv", "H7", "Bruno is beyond PV 21: G +7, W +7.",
         {"pv": 21, "g_over": 7, "w_over": 7}),
        (EventKind.PROPOSAL, "threshold.proposed", "H7",
         "Bruno's W reaches PV 21: muerto? (the DJ confirms)",
         {"proposal": combat.state.proposals[0].id, "condition": "muerto", "pv": 21})]
