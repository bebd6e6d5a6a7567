"""O2, O3, T2, H10: an opposition's values before and after its dice, exactly.

Written against the mutation lane's survivors (README, "The mutation lane").
"""

from __future__ import annotations

from sombra_tui.engine import Phase
from sombra_tui.engine.commands import ManualHit
from sombra_tui.engine.conditions import ActionScope
from sombra_tui.engine.model import Opposition, OppositionMode, Reading, Role
from sombra_tui.engine.odds import TASpec
from sombra_tui.engine.rules.opposition import opposed_specs
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import act, advance_to, char, declare, started


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
