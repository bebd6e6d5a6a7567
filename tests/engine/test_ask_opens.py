"""Issue 36: ask.next_step says what the next key opens (NextStep.opens), so that no
screen tests an action's kind or its opposition itself. One test per answer, each
citing the rule that decides it."""

from __future__ import annotations

from sombra_tui.engine import Mark
from sombra_tui.engine.ask import NextKind, Opens, acting, next_step
from sombra_tui.engine.commands import AddCondition, ManualHit, Resolve, SetMark
from sombra_tui.engine.conditions import builtin
from sombra_tui.engine.model import ActionKind, Opposition, OppositionMode
from sombra_tui.engine.state import Phase
from sombra_tui.engine.wounds import Location, Weapon
from tests.engine.conftest import (
    ANA,
    BRUNO,
    CARLA,
    act,
    advance_to,
    char,
    declare,
    dice,
    make_combat,
    started,
)


def test_set_up_and_advancing_open_nothing() -> None:
    """StartCombat and Advance are sent at once: no dialog."""
    assert next_step(make_combat(ANA).state).opens is Opens.NOTHING
    combat = started(ANA, BRUNO)
    for name in ("Ana", "Bruno"):
        declare(combat, name)
    step = next_step(combat.state)
    assert (step.kind, step.opens) == (NextKind.TO_INSTANT, Opens.NOTHING)


def test_d1_a_declarer_opens_the_declaration_and_d4_a_prompt_the_reaccion() -> None:
    combat = started(ANA, BRUNO, CARLA)
    assert next_step(combat.state).opens is Opens.DECLARATION
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    step = next_step(combat.state)
    assert (step.kind, step.opens) == (NextKind.REACT, Opens.REACTION)


def test_t7_an_automatic_action_opens_nothing_to_roll() -> None:
    """T7: an automatic action never rolls; a round action opens its TA (T1)."""
    combat = started(char("Ana", 8), char("Bruno", 12))
    declare(combat, "Ana", act("aims", target=10))
    declare(combat, "Bruno", act("waits", kind=ActionKind.AUTOMATIC))
    advance_to(combat, Phase.ROUND)
    step = next_step(combat.state)
    assert (step.kind, step.who, step.opens) == (NextKind.RESOLVE, ("Bruno",), Opens.NO_ROLL)
    combat.execute(Resolve(character="Bruno"))
    step = next_step(combat.state)
    assert (step.who, step.opens, step.step_opens) == (("Ana",), Opens.TA, (Opens.TA,))


def test_o2_an_opposed_step_opens_the_opposed_tas_and_o5_alone_its_own_ta() -> None:
    """O2: with the opponent able, the opposed dialog; O5: once the only opponent is
    out, the step is the character's own TA."""
    combat = started(char("Ana", 8), char("Bruno", 12))
    declare(combat, "Ana", act("pushes", target=10, opposition=Opposition(
        mode=OppositionMode.DIRECT, against=["Bruno"])))
    declare(combat, "Bruno")
    advance_to(combat, Phase.ROUND)
    assert next_step(combat.state).opens is Opens.OPPOSED
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    assert next_step(combat.state).opens is Opens.TA


def test_p3_a_simultaneous_group_says_what_each_step_opens_and_acting_picks_one() -> None:
    """P3: a simultaneous group's steps each open their own dialog (T7 for the automatic
    one); the keys act on the selected character's step, else the first."""
    combat = started(char("Ana", 8), char("Bruno", 12), char("Carla", 12))
    declare(combat, "Ana", act("aims", target=10))
    declare(combat, "Bruno", act("aims", target=10), affected=[])
    declare(combat, "Carla", act("waits", kind=ActionKind.AUTOMATIC), affected=[])
    advance_to(combat, Phase.ROUND)
    step = next_step(combat.state)
    by_name = {s.character: opens for s, opens in zip(step.group, step.step_opens,
                                                      strict=True)}
    assert by_name == {"Bruno": Opens.TA, "Carla": Opens.NO_ROLL}
    first = step.group[0]
    assert step.opens is by_name[first.character]
    state = combat.state
    assert acting(state, None) == (first, step.opens)
    assert acting(state, "Ana") == (first, step.opens)  # not in the group: the first
    carla = next(s for s in step.group if s.character == "Carla")
    assert acting(state, "Carla") == (carla, Opens.NO_ROLL)


def test_h1_a_hit_proposal_opens_the_hit_and_h7_a_threshold_a_question() -> None:
    combat = started(char("Ana", 8, skills={"Armas": 30}), char("Bruno", 12))
    declare(combat, "Ana", act("shoots Bruno", "Bruno", skill="Armas",
                               weapon=Weapon(name="pistol", damage_type="II")), affected=[])
    declare(combat, "Bruno")
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Ana", dice=dice(5, 4, 3)))
    step = next_step(combat.state)
    assert (step.kind, step.opens) == (NextKind.SETTLE_HIT, Opens.HIT)
    threshold = started(ANA, BRUNO)
    threshold.execute(ManualHit(character="Bruno", location=Location.PECHO, damage=60))
    step = next_step(threshold.state)
    assert (step.kind, step.opens) == (NextKind.SETTLE_THRESHOLD, Opens.QUESTION)


def test_h11_a_prevent_proposal_opens_a_question() -> None:
    combat = started(char("Ana", 8), char("Bruno", 12))
    declare(combat, "Ana", act("aims", target=10))
    declare(combat, "Bruno", act("aims", target=10))
    advance_to(combat, Phase.ROUND)
    combat.execute(AddCondition(character="Ana", condition=builtin("desarmado", began=0)))
    step = next_step(combat.state)
    assert (step.kind, step.opens) == (NextKind.SETTLE_PREVENT, Opens.QUESTION)


def test_h1_with_a_hit_open_the_acting_step_and_what_it_opens_are_still_known() -> None:
    """H1: the hit is settled first (next_step), but the step the keys act on, and that
    it opens a TA (T1), are read as if it were not open: the dice typed blind go there."""
    combat = started(char("Ana", 14, skills={"Armas": 30}), char("Bruno", 12))
    declare(combat, "Bruno", act("aims", target=10))
    declare(combat, "Ana", act("shoots Bruno", "Bruno", skill="Armas",
                               weapon=Weapon(name="pistol", damage_type="II")), affected=[])
    advance_to(combat, Phase.ROUND)
    combat.execute(Resolve(character="Ana", dice=dice(5, 4, 3)))
    state = combat.state
    assert next_step(state).kind is NextKind.SETTLE_HIT
    found = acting(state, None)
    assert found is not None and (found[0].character, found[1]) == ("Bruno", Opens.TA)
    assert acting(started(ANA, BRUNO).state, "Ana") is None  # declaring: nothing to resolve
