"""O2, O3, O4, T2, T5, H1, H10: an opposition's values before and after its dice, exactly.

Written against the mutation lane's survivors (README, "The mutation lane").
"""

from __future__ import annotations

import pytest

from sombra_tui.engine import (
    EventKind,
    LogEvent,
    Mark,
    Phase,
    Resolve,
    ResolveOpposed,
    SetMark,
    ask,
)
from sombra_tui.engine.commands import ManualHit
from sombra_tui.engine.conditions import ActionScope
from sombra_tui.engine.model import Action, Opposition, OppositionMode, Reading, Role
from sombra_tui.engine.odds import TASpec
from sombra_tui.engine.rules.opposition import OppositionPlan, opposed_specs
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import (
    ANA,
    BRUNO,
    CARLA,
    SUB,
    act,
    advance_to,
    assert_refused,
    char,
    declare,
    dice,
    react,
    started,
)
from tests.engine.test_rules_opposed import (
    attack,
    carla_attacks_bruno,
    decline_if_prompted,
    grab,
    results,
    roll,
    stealth,
    three_grab,
)
from tests.engine.test_rules_opposed_v4 import MATON, PISTOLA, aturdido_dodger, plain_dodge, shot


def test_o3_t2_h10_the_specs_before_the_dice_carry_the_djs_gd_the_settings_and_scope() -> None:
    """Before the dice (the odds), each side's TA is read as the resolver reads it: the
    GD the DJ typed for the initiator (T2), the encounter's points per GD and quality
    levels (T3, T4), and its wound grades by the scope of the action it rolls for (H10):
    Carla's leve chest wound weighs on her physical attack (+1); Bruno's does not weigh
    on his watch, declared not physical."""
    combat = started(char("Bruno", 12, 5, 12, resistencia=5),
                     char("Carla", 15, 2, 13, resistencia=5),
                     points_per_gd=2, niveles_de_calidad=False)
    declare(combat, "Bruno", act("watches", target=14, gd=1,
                                 scope=ActionScope(physical=False),
                                 opposition=Opposition(
                                     mode=OppositionMode.CONDITIONED, against=["Carla"],
                                     role=Role.CONDITIONED, reading=Reading.STEALTH)))
    declare(combat, "Carla", act("sneaks", target=15, opposition=Opposition(
        mode=OppositionMode.CONDITIONED, against=["Bruno"], role=Role.CONDITIONING,
        reading=Reading.STEALTH)))
    for name in ("Bruno", "Carla"):  # 5 / R 5: leve, +1 GD to physical actions (H8, H9)
        combat.execute(ManualHit(character=name, location=Location.PECHO, damage=5))
    advance_to(combat, Phase.ROUND)
    state = combat.state
    step = next(s for s in state.current_group() if s.character == "Carla")
    specs = opposed_specs(state, step, {"Carla": (None, 2)})
    assert specs == {
        "Carla": TASpec(target=15, gd=2 + 1, points_per_gd=2, quality_levels=False),
        "Bruno": TASpec(target=14, gd=1, points_per_gd=2, quality_levels=False)}


def test_o4_h1_d5_the_dodging_side_acting_first_still_lets_the_attack_hit() -> None:
    """O4/H1 (format 4): Ana and Matón act in one simultaneous group; Ana's plain
    reacción (a dodge naming her pistol, D5) is the conditioned side of Matón's shot.
    Resolved from Ana's turn, her dodge hits nobody, and Matón's shot, which won with
    its TA succeeding (9 <= 15; Ana 10 + 5 at GD +1 = 15 > 14), still proposes its hit."""
    combat = started(char("Ana", 12, 5, 14, weapons=[PISTOLA]), MATON)
    declare(combat, "Ana", act("apunta a la puerta", target=12))
    declare(combat, "Matón", shot(conditioning=True))
    react(combat, "Ana", SUB, plain_dodge(), roll=dice(1, 1, 2))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    assert [s.character for s in combat.state.current_group()] == ["Ana", "Matón"]
    combat.execute(ResolveOpposed(character="Ana", rolls=[
        roll("Matón", dice(2, 3, 4)), roll("Ana", dice(3, 3, 4))]))
    assert results(combat) == {"Matón": (0, 9, True), "Ana": (1, 15, False)}
    assert [(p.attacker, p.character) for p in combat.state.proposals] == [("Matón", "Ana")]


def test_o3_t5_two_winners_named_for_one_comparison_are_refused_word_for_word() -> None:
    """T5: the DJ gives a comparison to one side; naming both of one pair is refused,
    naming them, and nothing changes."""
    combat = carla_attacks_bruno()
    refused = assert_refused(combat, ResolveOpposed(
        character="Carla", rolls=[roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(3, 3, 4))],
        winners=["Carla", "Bruno"]))
    assert (refused.code, refused.params, str(refused)) == (
        "opposed.two_winners", {"names": "Carla, Bruno"},
        "The DJ named Carla, Bruno as winners of the same comparison; name one.")


def _grab(winners: list[str], ana: tuple[int, int, int], bruno: tuple[int, int, int],
          tie_winner: str | None = None) -> LogEvent:
    """Ana and Bruno grab the idol (O2, both at 15); Bruno acts first: the outcome."""
    combat = started(ANA, BRUNO)
    declare(combat, "Ana", grab("Bruno"))
    declare(combat, "Bruno", grab("Ana"))
    advance_to(combat, Phase.ROUND)
    events = combat.execute(ResolveOpposed(character="Bruno", winners=winners,
                                           tie_winner=tie_winner, rolls=[
        roll("Bruno", dice(*bruno)), roll("Ana", dice(*ana))]))
    [outcome] = [e for e in events if e.kind is EventKind.OPPOSED]
    return outcome


def test_o2_t5_the_djs_decision_is_logged_as_a_tie_broken_or_against_the_dice() -> None:
    """T5: the DJ's winner (or the one named to break a tie) is logged as an override,
    saying whether it broke a tie (both 9), agreed with the dice or went against them
    (Ana's 13 is closer to 15 than Bruno's 9)."""
    said = [(e.text, e.winner, e.override) for e in (
        _grab(["Bruno"], (2, 3, 4), (2, 3, 4)), _grab(["Ana"], (4, 4, 5), (2, 3, 4)),
        _grab(["Bruno"], (4, 4, 5), (2, 3, 4)), _grab([], (4, 4, 5), (2, 3, 4)),
        _grab([], (2, 3, 4), (2, 3, 4), tie_winner="Ana"))]
    assert said == [
        ('Bruno wins the opposed action "grabs the idol" (tie broken by the DJ).', "Bruno",
         True),
        ('Ana wins the opposed action "grabs the idol" (DJ decision, as the dice give).',
         "Ana", True),
        ('Bruno wins the opposed action "grabs the idol" (DJ decision; by the dice Ana would '
         'win).', "Bruno", True),
        ('Ana wins the opposed action "grabs the idol".', "Ana", False),
        ('Ana wins the opposed action "grabs the idol" (tie broken by the DJ).', "Ana", True)]


def test_t5_a_tie_without_the_djs_winner_among_the_tied_is_refused_at_its_field() -> None:
    """T5: a tie (both 9) is the DJ's to break: with no winner, or one who is not in
    this comparison, the roll is refused naming the tied, at the tie-winner field."""
    combat = started(ANA, BRUNO)
    declare(combat, "Ana", grab("Bruno"))
    declare(combat, "Bruno", grab("Ana"))
    advance_to(combat, Phase.ROUND)
    tied = [roll("Bruno", dice(2, 3, 4)), roll("Ana", dice(2, 3, 4))]
    for stranger in (None, "Carla"):
        refused = assert_refused(combat, ResolveOpposed(character="Bruno", rolls=tied,
                                                        tie_winner=stranger))
        assert (refused.code, refused.params, refused.field, str(refused)) == (
            "opposed.tie", {"winners": "Bruno, Ana"}, "tie_winner",
            "Tie between Bruno, Ana: the DJ chooses the winner.")


def test_o2_t5_a_tie_winner_outside_the_tie_is_refused_word_for_word() -> None:
    """T5/O2: Carla and Bruno tie for the best (9 and 9 at 15); Ana (29) is no part of
    the tie, so she cannot be named to break it."""
    combat = three_grab()
    tied = [roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(4, 3, 2)),
            roll("Ana", dice(10, 10, 9))]
    refused = assert_refused(combat, ResolveOpposed(character="Carla", rolls=tied,
                                                    tie_winner="Ana"))
    assert (refused.code, refused.params, str(refused)) == (
        "opposed.not_tied", {"winner": "Ana", "winners": "Carla, Bruno"},
        "Ana is not among the tied: Carla, Bruno.")


def test_o3_o5_who_takes_no_part_and_why_word_for_word() -> None:
    """O3/O5: Bruno's watch is conditioned by Ana and by Carla; Bruno is out when Carla
    acts. He takes no part (out), Ana has no able opponent left (her dice, given, are not
    counted), and Carla's action is her own TA; each line names its character and rule."""
    combat = started(ANA, BRUNO, CARLA)
    declare(combat, "Ana", stealth(["Bruno"], Role.CONDITIONING))
    declare(combat, "Bruno", stealth(["Ana", "Carla"], Role.CONDITIONED, target=12))
    declare(combat, "Carla", stealth(["Bruno"], Role.CONDITIONING))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    events = combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Ana", dice(1, 1, 1))]))
    assert [(e.kind, e.actor, e.rule, e.text) for e in events][:4] == [
        (EventKind.SKIPPED, "Bruno", "O3",
         'Bruno does not take part in "sneaks / watches": out.'),
        (EventKind.SKIPPED, "Ana", "O3", 'Ana does not take part in "sneaks / watches": no '
                                         "able opponent left; its dice are not counted."),
        (EventKind.OPPOSED, "Carla", "O3", 'Nobody is left to oppose Carla: "sneaks / '
                                           "watches\" is resolved as Carla's own TA."),
        (EventKind.TA, "Carla", "O3", 'Carla: "sneaks / watches"')]


def test_o3_t2_the_gd_the_dj_types_for_an_opponent_wins_over_its_actions() -> None:
    """O3/T2: Bruno's dodge declares GD 0; the DJ types GD -1 for his TA: it rolls at
    -1 + 1 (Carla's conditioning TA succeeded, 9 <= 15)."""
    combat = carla_attacks_bruno()
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(2, 3, 4)), roll("Bruno", dice(3, 3, 4), gd=-1)]))
    assert results(combat) == {"Carla": (0, 9, True), "Bruno": (0, 10, True)}


def test_o3_t3_t4_opposed_tas_roll_with_the_modifier_and_the_encounters_settings() -> None:
    """T3/T4 in an opposition: the DJ's modifier on Carla's TA (1 + 1 + 1 + 2 = 5), and
    the encounter's 2 points per GD (Bruno: 10 + 2 = 12 <= 14, where the default 5 would
    make 15) and no quality levels."""
    combat = started(BRUNO, CARLA, points_per_gd=2, niveles_de_calidad=False)
    declare(combat, "Bruno", attack("Carla", Role.CONDITIONED, target=14))
    declare(combat, "Carla", attack("Bruno", Role.CONDITIONING))
    advance_to(combat, Phase.ROUND)
    combat.execute(ResolveOpposed(character="Carla", rolls=[
        roll("Carla", dice(1, 1, 1), modifier=2), roll("Bruno", dice(3, 3, 4))]))
    found = {s.character: s.result for s in combat.state.steps}
    assert {name: (r.modifier, r.points_per_gd, r.total, r.success, r.quality)
            for name, r in found.items() if r is not None} == {
        "Carla": (2, 2, 5, True, None), "Bruno": (0, 2, 12, True, None)}


def test_o5_c1_an_opponent_unable_by_a_condition_is_excluded_in_agreeing_words(
        spanish: str) -> None:
    """O5/C1 (format 4), in Spanish: Ana, aturdida, takes no part in Matón's shot; the
    line's condition agrees with her."""
    combat = aturdido_dodger()
    events = combat.execute(Resolve(character="Matón", dice=dice(2, 3, 4)))
    [skipped, *_] = events
    assert (skipped.kind, skipped.actor, skipped.text) == (
        EventKind.SKIPPED, "Ana", "Ana no participa en «dispara»: aturdida.")


def test_o3_a_partner_aiming_at_others_is_left_out_and_the_next_pair_still_rolls() -> None:
    """O3 (format 4): Lucía dodges Bruno and Carla; Bruno shoots Iker, Carla shoots
    her. Bruno's action is aimed at others: he takes no part, said in those words; the
    pair after his, Carla's shot against Lucía's dodge, is still compared (O4)."""
    combat = started(char("Lucía", 16, 0, 12), char("Bruno", 12, 5, 12, weapons=[PISTOLA]),
                     char("Carla", 10, 2, 12, weapons=[PISTOLA]), char("Iker", 8, 0, 12))
    actions = {
        "Lucía": act("esquiva", target=14, opposition=Opposition(
            mode=OppositionMode.CONDITIONED, against=["Bruno", "Carla"],
            role=Role.CONDITIONED, reading=Reading.ATTACK)),
        "Bruno": act("dispara a Iker", "Iker", target=15, weapon=PISTOLA),
        "Carla": act("dispara a Lucía", "Lucía", target=15, weapon=PISTOLA)}
    for name in combat.state.declaration_order:
        declare(combat, name, *([actions[name]] if name in actions else []))
        decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    events = combat.execute(ResolveOpposed(character="Lucía", rolls=[
        roll("Lucía", dice(2, 3, 4)), roll("Carla", dice(3, 3, 4))]))
    assert [(e.kind, e.actor, e.rule, e.text) for e in events] == [
        (EventKind.SKIPPED, "Bruno", "O3",
         "Bruno does not take part in \"esquiva\": Bruno's action is aimed at others."),
        (EventKind.TA, "Carla", "O3", "Carla (conditioning)"),
        (EventKind.TA, "Lucía", "O3",
         "Lucía (conditioned, GD +1 because the conditioning TA succeeded)"),
        (EventKind.OPPOSED, "Carla", "O4",
         'Lucía wins the opposed action "esquiva". Lucía avoids the attack.')]


def _alarm_plan(ana: Action | None, out: str | None = None) -> OppositionPlan:
    """Carla's alarm conditions Ana and Bruno; Bruno's watch also names Dora; Ana
    declares `ana`; `out` is out when Carla acts: the plan of Carla's action."""
    combat = started(char("Carla", 16, 0, 12), char("Ana", 8, 3, 14),
                     char("Bruno", 12, 5, 12), char("Dora", 10, 0, 12))
    actions = {"Carla": stealth(["Ana", "Bruno"], Role.CONDITIONING),
               "Bruno": stealth(["Carla", "Dora"], Role.CONDITIONED, target=12)}
    if ana is not None:
        actions["Ana"] = ana
    for name in combat.state.declaration_order:
        declare(combat, name, *([actions[name]] if name in actions else []))
        decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    if out is not None:
        combat.execute(SetMark(character=out, mark=Mark.OUT))
    [carla] = [s for s in combat.state.current_group() if s.character == "Carla"]
    return ask.opposition_plan(combat.state, carla)


@pytest.mark.parametrize("ana", [None, grab("Carla")], ids=["nothing", "direct"])
def test_o3_an_opponent_without_a_conditioned_action_does_not_stop_others_joining(
        ana: Action | None) -> None:
    """O3 with several characters: Carla's alarm conditions Ana and Bruno; Ana declared
    nothing (she rolls under a value the DJ gives) or a grab of Carla's (O2, no
    conditioned action), Bruno's watch also names Dora, who joins on Carla's side: three
    pairs, whatever order the opponents come in."""
    plan = _alarm_plan(ana)
    assert (plan.members, plan.rolling, plan.pairs) == (
        ("Carla", "Ana", "Bruno", "Dora"), ("Carla", "Ana", "Bruno", "Dora"),
        (("Carla", "Ana"), ("Carla", "Bruno"), ("Dora", "Bruno")))


def test_o3_o5_a_pair_with_an_out_member_is_dropped_and_the_others_still_compare() -> None:
    """O3/O5: Ana, out, takes no part: her pair with Carla is dropped, and Carla's with
    Bruno and Dora's with Bruno, after it, are still compared."""
    plan = _alarm_plan(None, out="Ana")
    assert (plan.rolling, plan.pairs) == (("Carla", "Bruno", "Dora"),
                                          (("Carla", "Bruno"), ("Dora", "Bruno")))
