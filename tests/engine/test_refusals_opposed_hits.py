"""O2, O3, T5, H1, H3, H6, H7, H12: refusals of an opposed roll and of a hit, a heal or
the points, each with its code, parameters, field and words; nothing changes.

Written against the mutation lane's survivors (README, "The mutation lane").
"""

from __future__ import annotations

from typing import Any

from sombra_tui.engine import Combat, Phase, Resolve, ResolveOpposed, Role, SombraError
from sombra_tui.engine.commands import (
    AcceptHit,
    AttendWound,
    ConfirmProposal,
    DeclineHit,
    DeclineProposal,
    Heal,
    HealKind,
    ManualHit,
    SetCounters,
)
from sombra_tui.engine.wounds import Location, Weapon
from tests.engine.conftest import (
    ANA,
    BRUNO,
    CARLA,
    act,
    advance_to,
    assert_refused,
    declare,
    decline,
    dice,
    started,
)
from tests.engine.test_rules_hits import (
    PISTOL,
    carla_shoots,
    declare_all_inaction_but,
    fighters,
)
from tests.engine.test_rules_opposed import (
    attack,
    decline_if_prompted,
    roll,
    three_grab,
)


def refusal(combat: Combat, command: Any) -> tuple[str, dict[str, Any], str | None, str]:
    error: SombraError = assert_refused(combat, command)
    return error.code, dict(error.params), error.field, str(error)


def test_o2_an_opposed_roll_needs_one_ta_for_each_participant_and_no_other() -> None:
    """O2 (Carla, Ana and Bruno grab the idol; Carla acts first): a TA given twice, one
    missing, or one for someone outside the opposition is refused, naming them."""
    combat = three_grab()
    carla, ana, bruno = (roll(name, dice(2, 3, 4)) for name in ("Carla", "Ana", "Bruno"))
    dora = roll("Dora", dice(2, 3, 4))
    assert refusal(combat, ResolveOpposed(character="Carla", rolls=[
        carla, carla, bruno, bruno, ana])) == (
        "opposed.rolls_twice", {"names": "Bruno, Carla"}, None,
        "One TA per participant: Bruno, Carla given twice.")
    assert refusal(combat, ResolveOpposed(character="Carla", rolls=[carla, bruno])) == (
        "opposed.rolls_mismatch", {"participants": "Carla, Ana, Bruno",
                                   "given": "Carla, Bruno"}, None,
        "An opposed roll needs one TA for each participant: Carla, Ana, Bruno (got Carla, "
        "Bruno).")
    assert refusal(combat, ResolveOpposed(character="Carla", rolls=[
        carla, bruno, ana, dora])) == (
        "opposed.rolls_mismatch", {"participants": "Carla, Ana, Bruno",
                                   "given": "Carla, Bruno, Ana, Dora"}, None,
        "An opposed roll needs one TA for each participant: Carla, Ana, Bruno (got Carla, "
        "Bruno, Ana, Dora).")


def test_o2_t5_a_winner_must_roll_and_a_direct_opposition_has_one() -> None:
    """T5: the DJ's winner is one who rolls in this opposition, and O2 has one winner."""
    combat = three_grab()
    everyone = [roll(name, dice(2, 3, 4)) for name in ("Carla", "Ana", "Bruno")]
    assert refusal(combat, ResolveOpposed(character="Carla", rolls=everyone,
                                          winners=["Dora"])) == (
        "opposed.not_rolling", {"name": "Dora"}, None,
        "Dora does not roll in this opposition, so cannot be named its winner.")
    assert refusal(combat, ResolveOpposed(character="Carla", rolls=everyone,
                                          winners=["Ana", "Bruno"])) == (
        "opposed.direct_one_winner", {}, None, "A direct opposition has one winner: name one.")


def test_o1_o3_an_independent_action_or_an_opponent_without_a_value_is_refused() -> None:
    """O1: shooting each other is no opposed action; O3: an opponent with no action of
    its own opposing this one rolls under a value the DJ gives, and none given is
    refused naming it."""
    combat = started(ANA, BRUNO)
    declare(combat, "Ana", act("shoots", "Bruno", target=12))
    declare(combat, "Bruno", act("shoots", "Ana", target=12))
    decline(combat, "Ana")
    advance_to(combat, Phase.ROUND)
    assert refusal(combat, ResolveOpposed(character="Bruno", rolls=[
        roll("Bruno", dice(2, 3, 4))])) == (
        "opposed.not_opposed", {"description": "shoots"}, None,
        '"shoots" is not an opposed action; resolve it with a single TA.')
    combat = started(BRUNO, CARLA)
    declare(combat, "Bruno")
    declare(combat, "Carla", attack("Bruno", Role.CONDITIONING))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    assert refusal(combat, ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(1, 1, 2))])) == (
        "opposed.no_target", {"name": "Bruno"}, None,
        "Give Bruno's value to roll under: Bruno has no action opposing this one this "
        "phase.")


def test_h1_h7_a_proposal_not_open_or_of_another_kind_is_refused() -> None:
    """H1/H7: a hit proposal is settled by AcceptHit or DeclineHit, a threshold or
    prevented one by ConfirmProposal or DeclineProposal; another id, or the other
    kind's command, finds no open proposal of that number."""
    combat = fighters()
    carla_shoots(combat, (5, 8, 3))
    [hit] = combat.state.proposals
    for command in (AcceptHit(proposal_id=99), DeclineHit(proposal_id=99),
                    ConfirmProposal(proposal_id=hit.id), DeclineProposal(proposal_id=hit.id)):
        number = command.proposal_id
        assert refusal(combat, command) == (
            "proposal.unknown", {"id": number}, None, f"There is no open proposal #{number}.")


def test_h1_h3_a_hit_without_dice_or_formula_asks_for_the_missing_values() -> None:
    """H1: an attack decided without dice gives no location nor damage; H3: a tipo
    without a formula gives no damage: the DJ types them (the damage field)."""
    combat = fighters()
    declare_all_inaction_but(combat, "Carla")
    declare(combat, "Carla", act("shoots", "Bruno", skill="Armas", weapon=PISTOL),
            affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Carla", accept=True))
    [unrolled] = combat.state.proposals
    for partial in ({}, {"location": Location.PECHO}, {"damage": 8}):
        assert refusal(combat, AcceptHit(proposal_id=unrolled.id, **partial)) == (
            "hit.needs_values", {"character": "Bruno"}, None,
            "The hit on Bruno was decided without dice: give its location and damage.")
    combat = fighters()
    carla_shoots(combat, (5, 8, 3), weapon=Weapon(name="rifle", damage_type="III"))
    [rifle] = combat.state.proposals
    assert refusal(combat, AcceptHit(proposal_id=rifle.id, location=Location.PECHO)) == (
        "hit.needs_damage", {"tipo": "III"}, "damage",
        "Tipo III has no formula yet: type the damage.")


def test_h6_h12_healing_nothing_or_points_that_break_w_le_g_are_refused() -> None:
    """H12: nothing to heal is refused naming the kind and the points; H6: W cannot
    exceed G, and setting the points they already are changes nothing."""
    combat = started(ANA, BRUNO, CARLA)
    for kind in (HealKind.HERIDA, HealKind.GOLPE):
        assert refusal(combat, Heal(character="Ana", kind=kind, points=2)) == (
            "heal.nothing", {"character": "Ana", "kind": kind.value, "counters": "G 0 / W 0"},
            "points", f"Ana has no {kind.value} points to heal (G 0 / W 0).")
    assert refusal(combat, SetCounters(character="Ana", g=1, w=2)) == (
        "points.w_over_g", {"g": 1, "w": 2}, "w",
        "W (2) cannot exceed G (1): each herida point carries a golpe point.")
    combat.execute(SetCounters(character="Ana", g=3, w=3))  # W = G is allowed
    assert refusal(combat, SetCounters(character="Ana", g=3, w=3)) == (
        "points.unchanged", {"character": "Ana", "counters": "G 3 / W 3"}, None,
        "Ana already has G 3 / W 3.")


def test_h12_a_wound_already_attended_is_refused_naming_its_location() -> None:
    combat = started(ANA, BRUNO)
    combat.execute(ManualHit(character="Ana", location=Location.PECHO, damage=5))
    [wound] = combat.state.body("Ana").wounds
    combat.execute(AttendWound(character="Ana", wound_id=wound.id))
    assert refusal(combat, AttendWound(character="Ana", wound_id=wound.id)) == (
        "wound.attended", {"character": "Ana", "location": "chest"}, None,
        "Ana's chest wound is already attended.")
