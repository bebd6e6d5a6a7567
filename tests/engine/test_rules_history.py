"""S1-S2: commands recorded with their dice, replay, and the log's numbers."""

from __future__ import annotations

from sombra_tui.engine import (
    ActionKind,
    Advance,
    Combat,
    Declare,
    EventKind,
    Mark,
    Phase,
    Quality,
    React,
    Resolve,
    SetMark,
    StartCombat,
    storage,
)
from tests.engine.conftest import (
    ANA,
    BRUNO,
    CARLA,
    COMB,
    SUB,
    act,
    advance_to,
    assert_refused,
    declare,
    dice,
    events_of,
    react,
    started,
)


def eventful_combat() -> Combat:
    """A round with a reaction chain, a mark and rolled TAs, stopped mid-chain in round 2."""
    combat = started(ANA, BRUNO, CARLA, seed=11)
    declare(combat, "Ana", act("aims", target=14))
    declare(combat, "Bruno", act("shoots Ana", "Ana", target=15))
    react(combat, "Ana", SUB, act("dives", target=14), roll=combat.roll())
    while combat.state.top_prompt is not None:
        react(combat, combat.state.top_prompt.reactor, COMB, act("presses on", target=14),
              roll=combat.roll())
    declare(combat, "Carla", act("throws a grenade", "Ana", "Bruno", target=13))
    while combat.state.top_prompt is not None:
        combat.execute(React(character=combat.state.top_prompt.reactor, mode=COMB,
                             actions=[act("covers", target=13)], dice=combat.roll()))
    advance_to(combat, Phase.ROUND)
    while combat.state.pending_steps():
        name = combat.state.current_group()[0].character
        combat.execute(Resolve(character=name, dice=combat.roll()))
        if name == "Carla":
            combat.execute(SetMark(character="Bruno", mark=Mark.PREVENTED))
    advance_to(combat, Phase.DECLARATION)
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana", target=15))
    assert combat.state.top_prompt is not None  # mid-chain
    return combat


# --------------------------------------------------------------------------- S1


def test_s1_every_command_is_recorded_with_its_dice() -> None:
    combat = started(ANA, BRUNO)
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana", target=15))
    typed = dice(3, 4, 2)
    react(combat, "Ana", SUB, act("dives"), roll=typed)
    rolled = combat.roll()
    combat.execute(React(character="Bruno", mode=SUB, actions=[act("flanks")], dice=rolled))
    kinds = [type(command) for command in combat.commands]
    assert kinds == [StartCombat, Declare, Declare, React, React]
    assert [c.dice for c in combat.commands if isinstance(c, React)] == [typed, rolled]


def test_s1_replaying_the_commands_gives_exactly_the_same_state_and_log() -> None:
    combat = eventful_combat()
    replay = Combat(combat.encounter, combat.commands)
    assert replay.state == combat.state
    assert replay.log == combat.log


def test_s1_replay_uses_the_recorded_dice_not_new_rolls() -> None:
    combat = eventful_combat()
    other_seed = combat.encounter.model_copy(update={"seed": 999})
    assert Combat(other_seed, combat.commands).state == combat.state


def test_s1_save_and_load_mid_chain() -> None:
    combat = eventful_combat()
    loaded = storage.loads(storage.dumps(combat))
    assert loaded.state == combat.state
    assert loaded.commands == combat.commands
    assert loaded.log == combat.log


def test_s1_undo_then_redo_returns_to_the_same_state() -> None:
    combat = eventful_combat()
    final = combat.state.model_copy(deep=True)
    log = combat.log
    undone = [combat.undo() for _ in range(5)]
    assert combat.state != final
    assert combat.state == Combat(combat.encounter, combat.commands).state
    for _ in undone:
        combat.redo()
    assert combat.state == final
    assert combat.log == log


def test_s1_a_refused_command_is_not_recorded_and_changes_nothing() -> None:
    combat = eventful_combat()
    top = combat.state.top_prompt
    assert top is not None
    assert_refused(combat, Declare(character="Carla"))
    assert_refused(combat, React(character="Carla", mode=SUB, actions=[act("x")],
                                 dice=dice(1, 1, 1)))
    assert_refused(combat, Advance())
    assert_refused(combat, Resolve(character="Ana", dice=dice(1, 1, 1)))
    assert_refused(combat, SetMark(character="Zoe", mark=Mark.OUT), match="Zoe")


# --------------------------------------------------------------------------- S2


def test_s2_reaction_event_shows_round_phase_dice_gd_target_margin_quality(
        spanish: str) -> None:
    combat = started(ANA, BRUNO)
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    typed = dice(3, 4, 2)
    react(combat, "Ana", SUB, act("dives"), roll=typed, base_gd=1)
    [event] = events_of(combat, EventKind.REACTION)
    assert (event.round, event.phase) == (1, Phase.DECLARATION)
    assert event.actor == "Ana"
    assert event.ta is not None and event.gd is not None
    assert event.ta.dice == typed
    assert (event.gd.base, event.gd.substitution, event.gd.total) == (1, 1, 2)
    assert event.ta.target == 14
    assert event.ta.total == 9 + 10
    assert event.ta.margin == 14 - 19
    assert event.ta.quality is Quality.MEDIO
    described = event.ta.describe()
    for number in ("19", "14", "-5"):
        assert number in described
    assert "fracaso medio" in described
    assert "sustitución" in event.gd.describe()


def test_s2_resolution_events_carry_their_phase_and_numbers() -> None:
    combat = started(ANA)
    declare(combat, "Ana", act("recalls", kind=ActionKind.INSTANT, target=12),
            act("shoots", target=12, gd=1), act("hacks", kind=ActionKind.EXTENDED, target=12))
    advance_to(combat, Phase.INSTANT)
    combat.execute(Resolve(character="Ana", dice=dice(1, 1, 2)))
    combat.execute(Advance())
    combat.execute(Resolve(character="Ana", dice=dice(2, 2, 2)))
    combat.execute(Advance())
    combat.execute(Resolve(character="Ana", dice=dice(5, 5, 3)))
    tas = events_of(combat, EventKind.TA)
    assert [(e.round, e.phase) for e in tas] == [
        (1, Phase.INSTANT), (1, Phase.ROUND), (1, Phase.EXTENDED)]
    numbers = [(e.ta.total, e.ta.target, e.ta.margin, e.ta.quality)  # type: ignore[union-attr]
               for e in tas]
    assert numbers == [(4, 12, 8, Quality.BAJO), (6 + 5, 12, 1, Quality.ALTO),
                       (13, 12, -1, Quality.MEDIO)]


def test_s2_every_event_has_a_round_a_phase_and_a_text() -> None:
    combat = eventful_combat()
    assert combat.log
    for event in combat.log:
        assert event.round >= 1
        assert isinstance(event.phase, Phase)
        assert event.text
    assert {e.phase for e in combat.log} >= {Phase.DECLARATION, Phase.ROUND}
