"""O3, O4: the seed's reading of each conditioned outcome word for word, and who is
aimed at others (format 4's O3).

Written against the mutation lane's survivors (README, "Mutation testing").
"""

from __future__ import annotations

import pytest

from sombra_tui.engine import Reading, Role, read_outcome, resolve_ta
from sombra_tui.engine.rules.opposition import aims_elsewhere
from tests.engine.conftest import ANA, BRUNO, CARLA, act, declare, dice, started
from tests.engine.test_rules_opposed import attack

WON = resolve_ta(dice(2, 3, 4), target=15)
LOST = resolve_ta(dice(9, 9, 8), target=15)


@pytest.mark.parametrize(("reading", "first", "second", "winner", "text"), [
    (Reading.ATTACK, WON, LOST, "Carla", "Carla hits Bruno."),
    (Reading.ATTACK, LOST, LOST, "Carla",
     "Carla's attack failed its TA: no hit despite winning; the DJ may grant an "
     "advantage (position, cornering)."),
    (Reading.ATTACK, WON, WON, "Bruno", "Bruno avoids the attack."),
    (Reading.STEALTH, LOST, LOST, "Carla", "Carla passes unseen, but makes noise."),
    (Reading.STEALTH, WON, LOST, "Carla", "Carla passes unseen."),
    (Reading.STEALTH, LOST, LOST, "Bruno",
     "Something catches Bruno's attention: a new TA to confirm the suspicion."),
    (Reading.STEALTH, LOST, WON, "Bruno", "Bruno detects Carla."),
    (Reading.GENERIC, WON, LOST, "Carla", "The DJ reads the outcome: Carla prevails."),
])
def test_o4_each_reading_of_a_conditioned_outcome(reading: Reading, first: object,
                                                  second: object, winner: str,
                                                  text: str) -> None:
    """O4: Carla conditions (attack, stealth), Bruno is conditioned (dodge,
    perception): the tracker's reading of each outcome."""
    results = {"Carla": first, "Bruno": second}
    assert read_outcome(reading, "Carla", "Bruno", results, winner) == text  # type: ignore[arg-type]


def test_o3_aimed_elsewhere_only_when_every_action_names_others() -> None:
    """O3 (format 4): Bruno's action is aimed at others than Ana only when it names
    someone and never Ana, by its targets or by its opposition; before Bruno declares
    (or declaring nothing) nothing is aimed anywhere."""
    combat = started(ANA, BRUNO, CARLA)
    assert not aims_elsewhere(combat.state, "Bruno", "Ana")
    declare(combat, "Ana")
    assert not aims_elsewhere(combat.state, "Ana", "Bruno")  # inaction aims nowhere
    shot = attack("Ana", Role.CONDITIONING).model_copy(update={"targets": ["Carla"]})
    declare(combat, "Bruno", shot, affected=[])
    assert not aims_elsewhere(combat.state, "Bruno", "Ana")  # Ana, by the opposition
    assert aims_elsewhere(combat.state, "Bruno", "Dora")
    declare(combat, "Carla", act("shoots Ana", "Ana"), affected=[])
    assert aims_elsewhere(combat.state, "Carla", "Bruno")
