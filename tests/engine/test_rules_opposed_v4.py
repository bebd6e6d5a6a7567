"""O2, O3, O5 as RULES.md's fourth pass reads them (format version 4, Settings.rules_v4):
a dodge declared as a reacción is the conditioned side of the attack it answers (D5,
D8), a dodge of someone aiming at others is nobody's opposition, and only characters
able to act (C1) take part. Older histories (rules_v4 off) replay as played."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sombra_tui.engine import (
    Action,
    AddCondition,
    Combat,
    EventKind,
    Mark,
    Opposition,
    OppositionMode,
    Phase,
    Reading,
    Resolve,
    ResolveOpposed,
    Role,
    SetMark,
    StepStatus,
    ask,
    storage,
)
from sombra_tui.engine.commands import DeclineHit
from sombra_tui.engine.conditions import builtin
from sombra_tui.engine.wounds import Weapon
from tests.engine.conftest import (
    COMB,
    SUB,
    act,
    advance_to,
    assert_refused,
    char,
    declare,
    dice,
    events_of,
    react,
    started,
)
from tests.engine.test_rules_opposed import decline_if_prompted, results, roll
from tests.engine.test_storage_v4 import as_version_3

PISTOLA = Weapon(name="pistola", damage_type="II")
ANA = char("Ana", 8, 3, 14, weapons=[PISTOLA])
MATON = char("Matón", 12, 5, 12, weapons=[PISTOLA])
LUCIA = char("Lucía", 10, 1, 12)


def attack_opp(against: str, role: Role, description: str, target: int,
               **fields: Any) -> Action:
    """An O3 action aimed at `against`, read as attack against dodge (O4)."""
    return act(description, against, target=target, opposition=Opposition(
        mode=OppositionMode.CONDITIONED, against=[against], role=role,
        reading=Reading.ATTACK), **fields)


def shot(target_name: str = "Ana", *, conditioning: bool) -> Action:
    """Matón's attack with his pistol: declared conditioning its target (O3), or plain."""
    if conditioning:
        return attack_opp(target_name, Role.CONDITIONING, "dispara", 15, weapon=PISTOLA)
    return act("dispara", target_name, target=15, weapon=PISTOLA)


def plain_dodge() -> Action:
    """Ana's dodge as a DJ types a reacción: the form prefills her pistol; the reacción
    itself opposes the declared action (D5), so the DJ sets no opposition on it."""
    return act("esquiva", "Matón", target=14, weapon=PISTOLA)


def declared_dodge() -> Action:
    return attack_opp("Matón", Role.CONDITIONED, "esquiva", 14, weapon=PISTOLA)


def reaction_dodge(mode: Any, dodge: Action, *, conditioning: bool = True,
                   **settings: Any) -> Combat:
    """Ana (8) aims at the door; Matón (12) shoots her; Ana reacts with `dodge`, combined
    or substituted (D5, D8; Alerta 14: 4 + 5 x GD <= 14)."""
    combat = started(ANA, MATON, **settings)
    declare(combat, "Ana", act("apunta a la puerta", target=12))
    declare(combat, "Matón", shot(conditioning=conditioning))
    react(combat, "Ana", mode, dodge, roll=dice(1, 1, 2))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    return combat


def first_declared_dodge(*, conditioning: bool) -> Combat:
    """Ana (8) declares first: she dodges Matón; Matón (12) then shoots her."""
    combat = started(ANA, MATON)
    declare(combat, "Ana", declared_dodge())
    decline_if_prompted(combat)
    declare(combat, "Matón", shot(conditioning=conditioning))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    return combat


def ta_actors(combat: Combat) -> list[str | None]:
    return [e.actor for e in events_of(combat, EventKind.TA)]


def dodge_step_status(combat: Combat) -> StepStatus:
    return next(s.status for s in combat.state.steps if s.character == "Ana"
                and combat.state.step_action(s).description == "esquiva")


# ---------------------------------------------- item 3: one opposition, rolled once each


@pytest.mark.parametrize("mode", [COMB, SUB])
@pytest.mark.parametrize(("dodge", "conditioning"), [
    (plain_dodge(), True), (declared_dodge(), True), (declared_dodge(), False)],
    ids=["plain-vs-conditioning", "declared-vs-conditioning", "declared-vs-plain"])
def test_o3_d5_a_dodge_reacting_to_an_attack_is_rolled_once_with_it(
        mode: Any, dodge: Action, conditioning: bool) -> None:
    """O2/O3/O5, D5/D8 (issue 35, item 3): Ana's reacción dodges Matón's attack. When the
    attack resolves (Matón acts first, I4) Ana's dodge is its conditioned side: her value
    and GD come from it, both roll once, and her step is done, not asked again."""
    combat = reaction_dodge(mode, dodge, conditioning=conditioning)
    maton = combat.state.current_group()[0]
    plan = ask.opposition_plan(combat.state, maton)
    assert plan.rolling == ("Matón", "Ana") and plan.pairs == (("Matón", "Ana"),)
    assert ask.opponent_acts(combat.state, "Ana", plan)  # her value: from her dodge
    assert_refused(combat, Resolve(character="Matón", dice=dice(2, 3, 4)), match="opposed")
    combat.execute(ResolveOpposed(character="Matón", rolls=[
        roll("Matón", dice(9, 9, 8)), roll("Ana", dice(1, 1, 2))]))  # no value given
    # Matón 26 > 15 fails; Ana 4 - 5 (GD -1) = -1 <= 14: she avoids it.
    assert results(combat) == {"Matón": (0, 26, False), "Ana": (-1, -1, True)}
    assert ta_actors(combat).count("Ana") == 1
    assert dodge_step_status(combat) is StepStatus.DONE
    left = [combat.state.step_action(s).description for s in combat.state.pending_steps()]
    assert left == (["apunta a la puerta"] if mode is COMB else [])
    # H1: the dodge names her pistol and Matón, yet avoiding is no hit.
    assert combat.state.proposals == []


@pytest.mark.parametrize("conditioning", [True, False])
def test_o3_i4_a_dodge_declared_first_is_rolled_once_with_the_attack(
        conditioning: bool) -> None:
    """O3/I4: Ana's dodge as her first declaration, Matón's attack declared plain or
    conditioning her: one opposition at Matón's turn, Ana's step done."""
    combat = first_declared_dodge(conditioning=conditioning)
    combat.execute(ResolveOpposed(character="Matón", rolls=[
        roll("Matón", dice(2, 3, 4)), roll("Ana", dice(3, 3, 4))]))
    # Matón 9 <= 15 conditions; Ana 10 + 5 (GD +1) = 15 > 14: hit.
    assert results(combat) == {"Matón": (0, 9, True), "Ana": (1, 15, False)}
    assert ta_actors(combat) == ["Matón", "Ana"]
    assert combat.state.pending_steps() == []
    assert [(p.attacker, p.character) for p in combat.state.proposals] == [("Matón", "Ana")]


def test_o3_d5_before_format_4_a_plain_reacting_dodge_stays_its_own_ta() -> None:
    """O3 (rules_v4 off): a version-3 history, where Ana's plain reacción was rolled with
    a value the DJ gave and then again as her own TA, replays as played."""
    combat = reaction_dodge(SUB, plain_dodge(), rules_v4=False)
    maton = combat.state.current_group()[0]
    assert not ask.opponent_acts(combat.state, "Ana",
                                 ask.opposition_plan(combat.state, maton))
    combat.execute(ResolveOpposed(character="Matón", rolls=[
        roll("Matón", dice(9, 9, 8)), roll("Ana", dice(1, 1, 2), target=14)]))
    assert dodge_step_status(combat) is StepStatus.PENDING
    combat.execute(Resolve(character="Ana", dice=dice(2, 2, 2)))
    assert ta_actors(combat) == ["Matón", "Ana", "Ana"]


# --------------------------------- item 13: a dodge of someone who aims at others (O3)


def iker_dodges_bruno(*, iker_faster: bool = False, **settings: Any) -> Combat:
    """Iker dodges Bruno (12), who shoots Lucía (10). Iker's primaria: 8 (he declares
    first, acts last) or 14 (declares last, acts first)."""
    iker = char("Iker", 14 if iker_faster else 8, 0, 12)
    bruno = char("Bruno", 12, 5, 12, weapons=[PISTOLA])
    combat = started(iker, bruno, LUCIA, **settings)
    order = combat.state.declaration_order
    for name in order:
        if name == "Iker":
            declare(combat, "Iker", attack_opp("Bruno", Role.CONDITIONED, "esquiva", 12,
                                               weapon=PISTOLA))
        elif name == "Bruno":
            declare(combat, "Bruno", act("dispara a Lucía", "Lucía", target=15,
                                         weapon=PISTOLA))
        else:
            declare(combat, name)
        decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    return combat


@pytest.mark.parametrize("iker_faster", [False, True])
def test_o3_a_dodge_of_someone_aiming_at_others_is_its_own_ta(iker_faster: bool) -> None:
    """O3 (format 4, issue 35 item 13): a conditioned action whose would-be partner's own
    action is aimed at others is nobody's opposition: Iker's dodge is his own TA, no hit
    is read against it, and Bruno rolls once, for his shot at Lucía."""
    combat = iker_dodges_bruno(iker_faster=iker_faster)
    iker = next(s for s in combat.state.steps if s.character == "Iker")
    assert not ask.is_opposed(combat.state, iker)
    for name in [s.character for s in combat.state.steps]:
        if name == "Iker":
            combat.execute(Resolve(character="Iker", dice=dice(2, 3, 4)))
        elif name == "Bruno":
            combat.execute(Resolve(character="Bruno", dice=dice(2, 3, 4)))
            proposals = combat.state.proposals
            assert [(p.attacker, p.character) for p in proposals] == [("Bruno", "Lucía")]
            combat.execute(DeclineHit(proposal_id=proposals[0].id, reason="cover"))
    assert [s.status for s in combat.state.steps] == [StepStatus.DONE] * 2
    assert ta_actors(combat).count("Bruno") == 1
    assert not any("hits Iker" in e.text for e in combat.log)
    assert [(p.attacker, p.character) for p in combat.state.proposals] == []
    skipped = [e.text for e in events_of(combat, EventKind.SKIPPED) if e.actor == "Bruno"]
    assert skipped and "aimed at others" in skipped[0]


def test_o3_before_format_4_a_dodge_of_someone_aiming_at_others_rolls_him_twice() -> None:
    """O3 (rules_v4 off): a version-3 history replays as played: Bruno rolls for his shot
    and again, with a value the DJ gave, against Iker's dodge."""
    combat = iker_dodges_bruno(rules_v4=False)
    combat.execute(Resolve(character="Bruno", dice=dice(2, 3, 4)))
    combat.execute(DeclineHit(proposal_id=combat.state.proposals[0].id, reason="cover"))
    iker = combat.state.current_group()[0]
    assert ask.is_opposed(combat.state, iker)
    combat.execute(ResolveOpposed(character="Iker", rolls=[
        roll("Iker", dice(9, 9, 8)), roll("Bruno", dice(1, 2, 3), target=15)]))
    assert ta_actors(combat).count("Bruno") == 2
    assert "Bruno hits Iker" in events_of(combat, EventKind.OPPOSED)[-1].text


# ------------------------------------------------- item 14: only the able take part (O5)


def aturdido_dodger(*, also_maton: bool = False, **settings: Any) -> Combat:
    """Ana's declared dodge of Matón's plain shot; once both have declared Ana (and, with
    `also_maton`, Matón) is made aturdido (C1, C2): she cannot act in the round phase.
    (Made so in the declaration phase: in the instant phase H11 would first ask whether
    her round action is prevented.)"""
    combat = started(ANA, MATON, **settings)
    declare(combat, "Ana", declared_dodge())
    decline_if_prompted(combat)
    declare(combat, "Matón", shot(conditioning=False))
    decline_if_prompted(combat)
    for name in ("Ana", "Matón") if also_maton else ("Ana",):
        combat.execute(AddCondition(character=name, condition=builtin(
            "aturdido", began=0, duration=2)))
    advance_to(combat, Phase.ROUND)
    return combat


def test_o5_an_aturdido_opponent_takes_no_part_and_the_attack_is_its_own_ta() -> None:
    """O5 (issue 35 item 14): Ana, aturdido (cannot act, C1), does not roll as the
    opponent of Matón's earlier attack; with him left alone it is his own TA; her own
    step is skipped at her turn (C4), logged."""
    combat = aturdido_dodger()
    maton = combat.state.current_group()[0]
    plan = ask.opposition_plan(combat.state, maton)
    assert plan.solo and "Ana" in plan.excluded
    assert not ask.is_opposed(combat.state, maton)
    events = combat.execute(Resolve(character="Matón", dice=dice(2, 3, 4)))
    assert [e.actor for e in events if e.kind is EventKind.SKIPPED and e.rule == "O3"] == [
        "Ana"]
    assert ta_actors(combat) == ["Matón"]
    assert [(p.attacker, p.character) for p in combat.state.proposals] == [("Matón", "Ana")]


def test_o5_before_format_4_an_aturdido_opponent_still_rolls() -> None:
    """O5 (rules_v4 off): a version-3 history, where she rolled, replays as played."""
    combat = aturdido_dodger(rules_v4=False)
    maton = combat.state.current_group()[0]
    assert ask.opposition_plan(combat.state, maton).rolling == ("Matón", "Ana")


@pytest.mark.parametrize("mark", [Mark.OUT, Mark.PREVENTED])
def test_o5_an_out_or_prevented_opponent_takes_no_part(mark: Mark) -> None:
    """O5: out, or prevented for a round action: no part; the attack is Matón's own TA."""
    combat = first_declared_dodge(conditioning=True)
    combat.execute(SetMark(character="Ana", mark=mark))
    maton = combat.state.current_group()[0]
    assert ask.opposition_plan(combat.state, maton).rolling == ("Matón",)
    combat.execute(Resolve(character="Matón", dice=dice(2, 3, 4)))
    assert ta_actors(combat) == ["Matón"]


def test_o5_with_nobody_able_left_the_steps_are_skipped_logged() -> None:
    """O5, C4: Matón aturdido as well: nobody rolls; each step is skipped, logged."""
    combat = aturdido_dodger(also_maton=True)
    assert combat.state.pending_steps() == []
    assert ta_actors(combat) == []
    skipped = [e for e in events_of(combat, EventKind.SKIPPED) if e.rule == "C4"]
    assert {e.actor for e in skipped} == {"Matón", "Ana"}


# ------------------------------------------------ a version-3 file replays as played


def test_o3_d5_a_version_3_file_with_a_plain_reacting_dodge_replays_as_played(
        tmp_path: Path) -> None:
    """O3/D5 (storage): a version-3 file in which Ana's plain reacción was rolled in
    Matón's opposition with a value the DJ gave and then as her own TA loads and replays
    to the same state (its settings carry rules_v4 off)."""
    played = reaction_dodge(SUB, plain_dodge(), rules_v4=False)
    played.execute(ResolveOpposed(character="Matón", rolls=[
        roll("Matón", dice(9, 9, 8)), roll("Ana", dice(1, 1, 2), target=14)]))
    played.execute(Resolve(character="Ana", dice=dice(2, 2, 2)))
    path = tmp_path / "tercera.sombra.json"
    path.write_text(json.dumps(as_version_3(played)), encoding="utf-8")
    loaded = storage.load(path)
    assert loaded.state == played.state and loaded.log == played.log
    assert ta_actors(loaded) == ["Matón", "Ana", "Ana"]


def test_o2_d5_the_reaccion_answering_a_direct_opposition_is_the_side_that_rolls() -> None:
    """O2/D5 (format 4): Ana aims at the door (aimed at nobody), then combines a reacción
    to Matón's grab of the idol (direct, naming her): the reacción is the side she rolls
    for at Matón's turn; her first action stays her own TA."""
    combat = started(ANA, MATON)
    declare(combat, "Ana", act("apunta a la puerta", target=12))
    declare(combat, "Matón", act("coge el ídolo", "Ana", target=15, opposition=Opposition(
        mode=OppositionMode.DIRECT, against=["Ana"])))
    react(combat, "Ana", COMB, act("se lanza a por el ídolo", "Matón", target=14),
          roll=dice(1, 1, 2))
    decline_if_prompted(combat)
    advance_to(combat, Phase.ROUND)
    combat.execute(ResolveOpposed(character="Matón", rolls=[
        roll("Matón", dice(2, 3, 4)), roll("Ana", dice(7, 4, 3))]))
    left = [combat.state.step_action(s).description for s in combat.state.pending_steps()]
    assert left == ["apunta a la puerta"]
