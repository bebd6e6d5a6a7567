"""The combat report (issue 38), read from the history: RULES.md's worked example (H, C)
checked number by number, and the key moments (a kill, an inconsciente, a prevented
action) with their asalto."""

from __future__ import annotations

import pytest

from sombra_tui.engine import Advance, Combat, ConfirmProposal, Phase, Resolve
from sombra_tui.engine.commands import AcceptHit
from sombra_tui.engine.dice import Rank
from sombra_tui.engine.i18n import set_language
from sombra_tui.engine.model import Action
from sombra_tui.engine.report import CombatReport, MomentKind, TimelineKind, combat_report
from sombra_tui.engine.wounds import Location, Severity, Weapon
from tests.engine.conftest import act, advance_to, char, declare, dice, started
from tests.engine.test_worked_example import play_worked_example_d4_to_d11
from tests.engine.test_worked_example_hits import play_worked_example_h_and_c


@pytest.fixture(scope="module")
def worked() -> CombatReport:
    return combat_report(play_worked_example_h_and_c())


def test_report_of_the_worked_example_who_and_how_long(worked: CombatReport) -> None:
    """Issue 38: who fought, how many asaltos (the example is played to round 18)."""
    assert [ch.name for ch in worked.characters] == ["Ana", "Bruno", "Carla"]
    assert worked.asaltos == 18 and worked.finished


def test_report_of_the_worked_example_hits_by_location_and_severity(
        worked: CombatReport) -> None:
    """H2, H3, H8: Carla's pistol on Bruno's right arm, 8 + 3 = 11, floor(11/7) = 1 leve
    (round 2); Ana's punch on his head, d- = 6, sin importancia (round 3); Carla's club on
    Ana's head, 7, floor(7/6) = 1 leve (round 4)."""
    bruno, carla, ana = (worked.character(n) for n in ("Bruno", "Carla", "Ana"))
    assert bruno is not None and carla is not None and ana is not None
    taken = [(h.round, h.attacker, h.location, h.damage, h.lethal, h.severity)
             for h in bruno.hits_taken]
    assert taken == [(2, "Carla", Location.BRAZO_DERECHO, 11, True, Severity.LEVE),
                     (3, "Ana", Location.CABEZA, 6, False, Severity.SIN_IMPORTANCIA)]
    assert [(h.round, h.target, h.location, h.damage, h.severity) for h in carla.hits_dealt] \
        == [(2, "Bruno", Location.BRAZO_DERECHO, 11, Severity.LEVE),
            (4, "Ana", Location.CABEZA, 7, Severity.LEVE)]
    assert [h.target for h in ana.hits_dealt] == ["Bruno"] and carla.hits_taken == ()


def test_report_of_the_worked_example_counters_and_bleeding(worked: CombatReport) -> None:
    """H6, H9: Bruno ends at G 18, W 12 of PV 21 after bleeding 1 point at the end of
    round 18; unattended, his leve wound loses the next at the end of round 34 (16 more);
    his head wound and Ana's non-lethal one do not bleed; Ana's aturdido ended (C3)."""
    bruno, ana = worked.character("Bruno"), worked.character("Ana")
    assert bruno is not None and ana is not None
    assert (bruno.g, bruno.w, bruno.pv) == (18, 12, 21)
    [arm] = bruno.bleeding
    assert (arm.location, arm.bled, arm.bleed_rate, arm.next_bleed) == (
        Location.BRAZO_DERECHO, 1, 16, 34)
    assert [w.next_bleed for w in bruno.wounds] == [34, None]
    assert [c.name for c in bruno.conditions] == ["sangrando"]
    assert (ana.g, ana.w, ana.pv) == (7, 0, 18) and ana.bleeding == ()
    assert ana.conditions == () and not ana.out and not bruno.out


def test_report_of_the_worked_example_actions_and_outcomes(worked: CombatReport) -> None:
    """T4: Carla's two TAs are medium successes; Bruno's 1, 1, 1 in round 3 is a critical
    and his 9, 9, 9 in rounds 5 and 6 fumbles; they are key moments with their asalto."""
    carla, bruno = worked.character("Carla"), worked.character("Bruno")
    assert carla is not None and bruno is not None
    assert [(a.round, a.rank) for a in carla.actions] == [(2, Rank.EXITO_MEDIO),
                                                          (4, Rank.EXITO_MEDIO)]
    assert bruno.tally() == [(Rank.EXITO_ALTO, 1), (Rank.FRACASO_ALTO, 2)]
    assert [(m.round, m.kind, m.character) for m in worked.moments] == [
        (3, MomentKind.CRITICAL, "Bruno"), (5, MomentKind.FUMBLE, "Bruno"),
        (6, MomentKind.FUMBLE, "Bruno")]


def test_report_timeline_by_asalto(worked: CombatReport) -> None:
    """The timeline: each asalto's TAs, hits, the bleeding of round 18 (H9) and the end
    of Ana's aturdido in round 6 (C3); asaltos where nothing happened are left out."""
    rounds = dict(worked.rounds())
    assert sorted(rounds) == [2, 3, 4, 5, 6, 18]
    assert [i.kind for i in rounds[2]] == [TimelineKind.ACTION, TimelineKind.HIT]
    assert str(rounds[2][1].what) == "Carla hits Bruno: right arm, light (11, lethal)"
    assert [str(i.what) for i in rounds[6] if i.kind is TimelineKind.CONDITION] == [
        "Ana's aturdido ends."]
    [bleed] = rounds[18]
    assert bleed.kind is TimelineKind.BLEED and "W 11 -> 12" in str(bleed.what)


RIFLE = Weapon(name="rifle", damage_type="II")


def _declare_in_order(combat: Combat, plans: dict[str, Action | None]) -> None:
    while combat.state.phase is Phase.DECLARATION and combat.state.current_declarer:
        name = combat.state.current_declarer
        plan = plans.get(name)
        declare(combat, name, *([plan] if plan else []), affected=[])


def _settle(combat: Combat) -> None:
    while combat.state.proposals:
        proposal = combat.state.proposals[0]
        command = AcceptHit if proposal.kind.value == "hit" else ConfirmProposal
        combat.execute(command(proposal_id=proposal.id))


def play_key_moments() -> Combat:
    """Round 1: Carla (R 6) leaves Ana aturdido with her round action pending (H9, H11:
    prevented); Dora kills Bruno (R 3, PV 9) with 17 points in the chest (H7: muerto);
    round 2: Carla's grave head wound leaves Eva inconsciente (H9)."""
    carla = char("Carla", 15, 2, skills={"Armas": 30}, weapons=[RIFLE])
    dora = char("Dora", 14, 2, skills={"Armas": 30}, weapons=[RIFLE])
    bruno = char("Bruno", 12, 5, resistencia=3, skills={"Armas": 30}, weapons=[RIFLE])
    ana = char("Ana", 8, 3, resistencia=6, skills={"Armas": 30}, weapons=[RIFLE])
    eva = char("Eva", 2, 1, resistencia=3, skills={"Armas": 30}, weapons=[RIFLE])
    combat = started(carla, dora, bruno, ana, eva)
    _declare_in_order(combat, {
        "Carla": act("shoots Ana", "Ana", skill="Armas", weapon=RIFLE),
        "Dora": act("shoots Bruno", "Bruno", skill="Armas", weapon=RIFLE),
        "Ana": act("shoots Carla", "Carla", skill="Armas", weapon=RIFLE)})
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Carla", dice=dice(10, 4, 3)))  # head, 7: leve
    _settle(combat)
    combat.execute(Resolve(character="Dora", dice=dice(1, 9, 8)))  # chest, 17: grave
    _settle(combat)
    advance_to(combat, Phase.END_OF_ROUND)
    combat.execute(Advance())
    _declare_in_order(combat, {"Carla": act("shoots Eva", "Eva", skill="Armas",
                                            weapon=RIFLE)})
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Carla", dice=dice(10, 3, 3)))  # head, 6: grave
    _settle(combat)
    return combat


def test_report_key_moments_kill_inconsciente_prevented() -> None:
    """Issue 38: H11 prevented (Ana, round 1), H7 muerto (Bruno, round 1), H9's
    inconsciente of a grave head wound (Eva, round 2): each with its asalto; who is
    out at the end (P4); the inconsciente's hours (6, the damage) stay on the sheet."""
    report = combat_report(play_key_moments())
    moments = [(m.round, m.kind, m.character) for m in report.moments]
    assert moments == [(1, MomentKind.PREVENTED, "Ana"), (1, MomentKind.KILLED, "Bruno"),
                       (2, MomentKind.UNCONSCIOUS, "Eva")]
    assert str(report.moments[1].what) == "Bruno is muerto."
    out = {ch.name for ch in report.characters if ch.out}
    assert out == {"Bruno", "Eva"}
    eva = report.character("Eva")
    assert eva is not None
    [inconsciente] = [c for c in eva.conditions if c.name == "inconsciente"]
    assert (inconsciente.hours, inconsciente.rounds_left) == (6, None)
    [wound] = eva.bleeding  # grave: a point every 5 asaltos from round 3 (H9)
    assert (wound.bleed_rate, wound.next_bleed) == (5, 7)


def test_report_speaks_spanish() -> None:
    """The DJ's language: the report's words come from the catalog."""
    report = combat_report(play_key_moments())
    set_language("es")
    assert str(report.moments[1].what) == "Bruno está muerto."


def test_report_of_the_worked_example_d4_to_d11() -> None:
    """T2, T4 on the Alerta TAs of RULES.md's first worked example: Ana's substitution
    (3, 4, 2 at +1 GD: 14 vs 14, d+ + d- = 6: medium success) and her combination (2, 3, 1
    at +1: 11 vs 14, d+ + d- = 4: low success); Bruno's counter-reaction (6, 6, 2: 14 vs
    12, d+ + d- = 8: medium failure); Carla rolled nothing; asalto 1, still under way; no
    hits, nobody out, no key moment."""
    report = combat_report(play_worked_example_d4_to_d11())
    assert (report.asaltos, report.finished) == (1, False)
    ana, bruno, carla = (report.character(n) for n in ("Ana", "Bruno", "Carla"))
    assert ana is not None and bruno is not None and carla is not None
    assert [(a.round, a.ta.total, a.ta.target, a.ta.gd, a.rank) for a in ana.actions] == [
        (1, 14, 14, 1, Rank.EXITO_MEDIO), (1, 11, 14, 1, Rank.EXITO_BAJO)]
    assert [(a.ta.total, a.ta.target, a.rank) for a in bruno.actions] == [
        (14, 12, Rank.FRACASO_MEDIO)]
    assert carla.actions == () and report.moments == ()
    assert all(not ch.out and ch.hits_taken == () and ch.wounds == ()
               for ch in report.characters)
