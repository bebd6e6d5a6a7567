"""The 'Worked example (H, C)' of RULES.md, played exactly as written (H1-H12, C1-C4).

Every number is worked out here from the rules: location from the dS (H2), damage
from the type's formula over d+ / d- (H3), G and W (H6), severity floor(D / R) (H8),
its consequences (H9), the wound's grade on a later TA (H10), bleeding from the
round after the wound (H9) and aturdido's two asaltos (C3, C4).
"""

from __future__ import annotations

from sombra_tui.engine import Advance, Combat, EventKind, LogEvent, Phase, Resolve
from sombra_tui.engine.ask import pv as pv_of
from sombra_tui.engine.commands import AcceptHit
from sombra_tui.engine.wounds import Location, Severity, Weapon
from tests.engine.conftest import (
    act,
    advance_to,
    assert_refused,
    char,
    declare,
    declare_all_inaction,
    dice,
    events_of,
    started,
)

PISTOL = Weapon(name="pistol", damage_type="II")
FISTS = Weapon(name="fists", damage_type="0")
CLUB = Weapon(name="club", damage_type="0")


def _next_round(combat: Combat) -> None:
    """Everyone left declares inaction; the round is played to the next one."""
    declare_all_inaction(combat)
    advance_to(combat, Phase.END_OF_ROUND)
    combat.execute(Advance())


def _accept_only_hit(combat: Combat) -> list[LogEvent]:
    [proposal] = combat.state.proposals
    return combat.execute(AcceptHit(proposal_id=proposal.id))


def test_worked_example_h_and_c() -> None:
    play_worked_example_h_and_c()


def play_worked_example_h_and_c() -> Combat:
    """The example played to the end of round 18, checked at every step (the combat
    report's tests read it: tests/engine/test_report.py)."""
    ana = char("Ana", 8, 3, 14, resistencia=6, skills={"Pelea": 30}, weapons=[FISTS])
    bruno = char("Bruno", 12, 5, 12, resistencia=7, skills={"Armas": 15}, weapons=[PISTOL])
    carla = char("Carla", 15, 2, 13, skills={"Armas": 17, "Pelea": 30},
                 weapons=[PISTOL, CLUB])
    combat = started(ana, bruno, carla)
    assert pv_of(combat.state, "Bruno") == 21  # H6: 3 x 7
    _next_round(combat)
    assert combat.state.round == 2

    # Round 2: Carla (Armas 17, pistol tipo II) shoots Bruno: dS 5, 8, 3 -> 16 <= 17.
    declare_all_inaction(combat)  # Ana and Bruno
    combat.undo()  # Carla declares the shot instead
    declare(combat, "Carla", act("shoots Bruno", "Bruno", skill="Armas", weapon=PISTOL),
            affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Carla", dice=dice(5, 8, 3)))
    [proposal] = combat.state.proposals  # H1: a hit on Bruno is proposed
    reading = proposal.reading
    assert reading is not None and reading.assessment is not None
    # 1. dS 5 = right arm (H2); tipo II = d+ + d- = 8 + 3 = 11, lethal (H3); no protection.
    assert reading.location is Location.BRAZO_DERECHO
    assert (reading.damage.value, reading.damage.substituted, reading.lethal) == (
        11, "8 + 3", True)
    assert reading.assessment.protection == 0
    # H1: pending, it must be settled before the next step, like a reaction prompt.
    assert_refused(combat, Advance(), match="settle the hit on Bruno")
    events = _accept_only_hit(combat)
    body = combat.state.body("Bruno")
    assert (body.counters.w, body.counters.g) == (11, 11)  # H6
    # 2. floor(11 / 7) = 1, leve (H8): +1 GD right arm, and it bleeds every 16 (H9).
    [wound] = body.wounds
    assert wound.severity is Severity.LEVE and wound.bleed_rate == 16 and wound.round == 2
    assert [(g.scope.value, g.side and g.side.value, g.gd) for g in wound.gd] == [
        ("arm", "right", 1)]
    assert [c.name for c in body.conditions] == ["sangrando"]
    [line] = events_of(events, EventKind.HIT)  # H12: the hit's log line
    for piece in ("dS 5", "right arm", "tipo II d+ + d- = 8 + 3 = 11", "lethal",
                  "no protection", "R 7 -> light", "+1 GD right arm",
                  "bleeds 1 point every 16 asaltos", "G 0 -> 11, W 0 -> 11 of PV 21"):
        assert piece in line.text, piece
    assert line.code == "hit.applied" and line.data["w"] == 11
    advance_to(combat, Phase.END_OF_ROUND)
    combat.execute(Advance())

    # Round 3: Ana punches Bruno (tipo 0): dS 10, 9, 6 -> cabeza, d- = 6, non-lethal.
    # Bruno shoots with his right arm: his TA carries +1 "right arm, leve wound" (H10).
    declare(combat, "Ana", act("punches Bruno", "Bruno", skill="Pelea", weapon=FISTS),
            affected=[])
    declare(combat, "Bruno", act("shoots Carla", skill="Armas"), affected=[])
    declare(combat, "Carla")
    advance_to(combat, Phase.ROUND)
    events = combat.execute(Resolve(character="Bruno", dice=dice(1, 1, 1)))
    [ta] = events_of(events, EventKind.TA)
    assert ta.ta is not None and ta.ta.gd == 1 and ta.ta.total == 3 + 5
    assert ta.gd is not None and "right arm, light wound +1" in ta.gd.describe()
    assert "right arm, light wound +1" in ta.plain()
    combat.execute(Resolve(character="Ana", dice=dice(10, 9, 6)))
    [proposal] = combat.state.proposals
    assert proposal.reading is not None and proposal.reading.location is Location.CABEZA
    assert (proposal.reading.damage.value, proposal.reading.lethal) == (6, False)
    _accept_only_hit(combat)
    body = combat.state.body("Bruno")
    assert (body.counters.g, body.counters.w) == (17, 11)  # G 11 -> 17, W stays 11
    assert body.wounds[-1].severity is Severity.SIN_IMPORTANCIA  # floor(6 / 7) = 0
    assert body.wounds[-1].gd == () and body.wounds[-1].bleed_rate is None
    assert [c.name for c in body.conditions] == ["sangrando"]  # no consequence
    advance_to(combat, Phase.END_OF_ROUND)
    combat.execute(Advance())

    # Round 4: Ana (Resistencia 6) is clubbed: dS 10, 9, 7 -> cabeza, 7, floor(7/6) = 1.
    declare(combat, "Ana")
    declare(combat, "Bruno")
    declare(combat, "Carla", act("clubs Ana", "Ana", skill="Pelea", weapon=CLUB),
            affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Carla", dice=dice(10, 9, 7)))
    _accept_only_hit(combat)
    ana_body = combat.state.body("Ana")
    [ana_wound] = ana_body.wounds
    assert (ana_wound.location, ana_wound.damage, ana_wound.lethal, ana_wound.severity) == (
        Location.CABEZA, 7, False, Severity.LEVE)
    assert ana_wound.bleed_rate is None  # a non-lethal wound does not bleed (H9)
    [aturdido] = ana_body.conditions
    assert aturdido.name == "aturdido" and aturdido.covered_rounds() == range(5, 7)  # C3
    advance_to(combat, Phase.END_OF_ROUND)
    combat.execute(Advance())

    # Rounds 5 and 6: Ana can only declare inaction and gets no reaction prompts (C4).
    for round_ in (5, 6):
        assert combat.state.round == round_
        declaration = combat.state.declaration_of("Ana")
        assert declaration is not None and declaration.is_inaction  # C4: declared for her
        declare(combat, "Bruno", act("shoots Ana", "Ana", skill="Armas"))
        assert combat.state.prompts == []  # C4: no prompt for Ana ...
        skipped = [e for e in events_of(combat, EventKind.SKIPPED, rule="C4")
                   if e.round == round_ and "prompt" in e.text]
        assert len(skipped) == 1 and "aturdido" in skipped[0].text  # ... and it is logged
        declare(combat, "Carla")
        advance_to(combat, Phase.ROUND)
        combat.execute(Resolve(character="Bruno", dice=dice(9, 9, 9)))  # misses
        advance_to(combat, Phase.END_OF_ROUND)
        if round_ == 6:
            [expiry] = [e for e in combat.log if e.code == "condition.expired"]
            assert expiry.round == 6 and expiry.actor == "Ana"  # ends at the end of round 6
        combat.execute(Advance())
    assert combat.state.body("Ana").conditions == ()
    assert combat.state.current_declarer == "Ana"  # round 7: she declares again

    # 5. At the end of round 18 (the 16th round counted), unattended, Bruno bleeds.
    while combat.state.round < 18:
        _next_round(combat)
    assert combat.state.body("Bruno").counters.w == 11  # nothing lost before
    declare_all_inaction(combat)
    advance_to(combat, Phase.END_OF_ROUND)
    counters = combat.state.body("Bruno").counters
    assert (counters.w, counters.g) == (12, 18)  # H9: W 12, G 18
    [bleed] = [e for e in combat.log if e.code == "wound.bled"]
    assert bleed.round == 18 and "right arm" in bleed.text
    return combat
