"""The panel's lines read the engine, so they cannot contradict the next step (issue 20,
found again in a playtest): while a hit is open after the phase's last step, the panel
named the hit as space's step and, below, "nothing to resolve: space moves on"; and a
waiting step showed its declared GD, not the one its TA carries (H10, C1).
"""

from __future__ import annotations

from sombra_tui.engine import Phase, Resolve, ask
from sombra_tui.engine.commands import AddCondition, DeclineHit
from sombra_tui.engine.conditions import Condition, ConditionEffects, GdEffect, ScopeKind
from sombra_tui.engine.i18n import set_language
from sombra_tui.engine.wounds import Weapon
from sombra_tui.widgets.declaration_queue import queue_lines
from sombra_tui.widgets.formatting import Palette
from tests.engine.conftest import act, advance_to, char, declare, dice, started

PISTOL = Weapon(name="pistol", damage_type="II")
NOTHING = "Nothing to resolve in this phase"


def plain(lines: list[object]) -> str:
    return "\n".join(line.plain for line in lines)  # type: ignore[attr-defined]


def test_h1_an_open_hit_after_the_last_step_is_not_nothing_to_resolve() -> None:
    set_language("en")
    combat = started(char("Ana", 8, 3, 14, resistencia=6, skills={"Armas": 30}),
                     char("Carla", 15, 2, 13, skills={"Armas": 30}))
    declare(combat, "Ana")  # inaction: Carla's shot is the round's one step
    declare(combat, "Carla", act("shoots Ana", "Ana", skill="Armas", weapon=PISTOL),
            affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Carla", dice=dice(5, 8, 3)))
    state = combat.state
    [proposal] = state.proposals
    assert state.current_group() == []  # the phase's steps are done ...
    shown = plain(queue_lines(state, Palette()))
    assert "settle Carla's hit on Ana" in shown.splitlines()[0]  # ... but the hit is next
    assert NOTHING not in shown
    combat.execute(DeclineHit(proposal_id=proposal.id))
    assert NOTHING in plain(queue_lines(combat.state, Palette()))  # now space moves on


def test_h10_c1_a_waiting_step_shows_the_gd_and_value_its_ta_will_carry() -> None:
    set_language("en")
    combat = started(char("Ana", 8, 3, 14, skills={"Armas": 30}),
                     char("Carla", 15, 2, 13, skills={"Armas": 25}))
    declare(combat, "Ana", act("shoots Carla", "Carla", skill="Armas", gd=1), affected=[])
    declare(combat, "Carla", act("shoots Ana", "Ana", skill="Armas"), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(AddCondition(character="Ana", condition=Condition(
        name="cegado", effects=ConditionEffects(gd=(GdEffect(scope=ScopeKind.ANY, gd=2),)))))
    state = combat.state
    [waiting] = [step for step in state.pending_steps() if step.character == "Ana"]
    assert ask.step_preview(state, waiting).gd.total == 3  # declared +1, cegado +2
    line = next(line for line in plain(queue_lines(state, Palette())).splitlines()
                if line.startswith(("▶ Ana", "· Ana")))
    assert "(Armas 30, GD +3)" in line


def test_p4_a_waiting_step_of_a_prevented_character_says_so_at_once() -> None:
    """Found in a playtest: after the DJ confirmed prevented, the step still read as a
    plain pending one until its turn came (then it is skipped, P4)."""
    from sombra_tui.engine import Mark, SetMark
    set_language("en")
    combat = started(char("Ana", 8, 3, 14, skills={"Armas": 30}),
                     char("Carla", 15, 2, 13, skills={"Armas": 25}))
    declare(combat, "Ana", act("shoots Carla", "Carla", skill="Armas"), affected=[])
    declare(combat, "Carla", act("shoots Ana", "Ana", skill="Armas"), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(SetMark(character="Ana", mark=Mark.PREVENTED))
    line = next(line for line in plain(queue_lines(combat.state, Palette())).splitlines()
                if line.startswith("· Ana"))
    assert line.endswith("(prevented)") and "GD" not in line
