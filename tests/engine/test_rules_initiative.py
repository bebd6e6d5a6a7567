"""I1-I4: initiative, declaration order and action order."""

from __future__ import annotations

from sombra_tui.engine import (
    Combat,
    EditCharacter,
    MoveCharacter,
    Phase,
    Resolve,
    Settings,
    StartCombat,
    action_groups,
    action_order,
    declaration_order,
)
from tests.engine.conftest import (
    act,
    advance_to,
    assert_refused,
    char,
    declare,
    declare_all_inaction,
    dice,
    make_combat,
    started,
)


def _next_round(combat: Combat) -> None:
    declare_all_inaction(combat)
    advance_to(combat, Phase.END_OF_ROUND)
    advance_to(combat, Phase.DECLARATION)


# --------------------------------------------------------------------------- I1


def test_i1_initiative_is_fixed_across_rounds() -> None:
    combat = started(char("Ana", 8, 3), char("Bruno", 12, 5), char("Carla", 15, 2))
    first = (dict(combat.state.round_initiative), list(combat.state.declaration_order))
    _next_round(combat)
    assert combat.state.round == 2
    assert (combat.state.round_initiative, combat.state.declaration_order) == first
    assert combat.state.round_initiative["Bruno"] == (12, 5)


def test_i1_dj_changes_initiative_between_rounds_effective_next_round() -> None:
    combat = started(char("Ana", 8, 3), char("Bruno", 12, 5))
    assert combat.state.declaration_order == ["Ana", "Bruno"]
    # Mid-round the DJ lowers Bruno (a wound): this round keeps the old values.
    combat.execute(EditCharacter(name="Bruno", character=char("Bruno", 4, 5)))
    assert combat.state.round_initiative["Bruno"] == (12, 5)
    assert combat.state.declaration_order == ["Ana", "Bruno"]
    _next_round(combat)
    assert combat.state.round_initiative["Bruno"] == (4, 5)
    assert combat.state.declaration_order == ["Bruno", "Ana"]


# --------------------------------------------------------------------------- I2


def test_i2_iniciativa_variable_is_off_by_default_and_adds_nothing() -> None:
    assert Settings().iniciativa_variable is False
    combat = started(char("Ana", 8, 3))
    assert combat.state.round_initiative["Ana"] == (8, 3)
    assert combat.start_command() == StartCombat()


def test_i2_d10_added_to_primaria_for_the_first_round_only() -> None:
    rolls = {"Ana": 9, "Bruno": 1, "Carla": 2}
    combat = make_combat(char("Ana", 8, 3), char("Bruno", 12, 5), char("Carla", 15, 2),
                         iniciativa_variable=True, start=True, initiative_rolls=rolls)
    state = combat.state
    assert state.round_initiative == {"Ana": (8 + 9, 3), "Bruno": (12 + 1, 5),
                                      "Carla": (15 + 2, 2)}
    # 13 < 17 = 17: Bruno first; Ana and Carla tie on primaria, secundaria 2 < 3.
    assert state.declaration_order == ["Bruno", "Carla", "Ana"]
    declare(combat, "Bruno", act("shoots", target=20))
    declare(combat, "Carla", act("shoots", target=20))
    declare(combat, "Ana", act("shoots", target=20))
    advance_to(combat, Phase.ROUND)
    # The action order of round 1 uses the rolled values too: Ana and Carla act together.
    assert [(s.character, s.group) for s in combat.state.steps] == [
        ("Ana", 0), ("Carla", 0), ("Bruno", 1)]
    for name in ("Ana", "Carla", "Bruno"):
        combat.execute(Resolve(character=name, dice=dice(1, 2, 3)))
    _next_round(combat)
    assert combat.state.round_initiative == {"Ana": (8, 3), "Bruno": (12, 5),
                                             "Carla": (15, 2)}
    assert combat.state.declaration_order == ["Ana", "Bruno", "Carla"]


def test_i2_start_command_rolls_one_d10_per_character() -> None:
    combat = make_combat(char("Ana", 8), char("Bruno", 12), iniciativa_variable=True,
                         seed=3)
    command = combat.start_command()
    assert set(command.initiative_rolls) == {"Ana", "Bruno"}
    assert all(1 <= v <= 10 for v in command.initiative_rolls.values())
    same_seed = make_combat(char("Ana", 8), char("Bruno", 12), iniciativa_variable=True,
                            seed=3)
    assert same_seed.start_command() == command  # seeded (T6)


def test_i2_missing_or_bad_initiative_d10_is_refused() -> None:
    combat = make_combat(char("Ana", 8), char("Bruno", 12), iniciativa_variable=True)
    assert_refused(combat, StartCombat(initiative_rolls={"Ana": 3}), match="Bruno")
    assert_refused(combat, StartCombat(initiative_rolls={"Ana": 3, "Bruno": 11}),
                   match="1 to 10")
    assert_refused(combat, StartCombat(initiative_rolls={"Ana": 3, "Bruno": 0}),
                   match="1 to 10")
    off = make_combat(char("Ana", 8))
    assert_refused(off, StartCombat(initiative_rolls={"Ana": 3}),
                   match="only for iniciativa variable")


# --------------------------------------------------------------------------- I3


def test_i3_ascending_primaria_then_secundaria() -> None:
    initiative = {"A": (10, 1), "B": (3, 9), "C": (10, 0), "D": (7, 4)}
    assert declaration_order(initiative, ["A", "B", "C", "D"]) == ["B", "D", "C", "A"]


def test_i3_full_tie_keeps_the_dj_order() -> None:
    initiative = {"A": (5, 5), "B": (5, 5), "C": (5, 5), "D": (1, 0)}
    assert declaration_order(initiative, ["C", "A", "B", "D"]) == ["D", "C", "A", "B"]
    assert declaration_order(initiative, ["B", "C", "A", "D"]) == ["D", "B", "C", "A"]


def test_i3_in_combat_ties_follow_the_dj_order_and_moving_edits_it() -> None:
    combat = make_combat(char("Ana", 5, 5), char("Bruno", 5, 5), char("Carla", 5, 5))
    combat.execute(MoveCharacter(name="Carla", position=0))
    combat.execute(StartCombat())
    assert combat.state.declaration_order == ["Carla", "Ana", "Bruno"]
    assert combat.state.current_declarer == "Carla"
    # Moved mid-round: the order of this round is kept, the next round follows the edit.
    combat.execute(MoveCharacter(name="Bruno", position=0))
    assert combat.state.declaration_order == ["Carla", "Ana", "Bruno"]
    _next_round(combat)
    assert combat.state.declaration_order == ["Bruno", "Carla", "Ana"]


def test_i3_secundaria_breaks_the_tie_before_the_dj_order() -> None:
    combat = started(char("Ana", 5, 9), char("Bruno", 5, 1))
    assert combat.state.declaration_order == ["Bruno", "Ana"]


# --------------------------------------------------------------------------- I4


def test_i4_action_order_descending_primaria_with_simultaneous_groups() -> None:
    initiative = {"Ana": (8, 3), "Bruno": (12, 5), "Carla": (15, 2), "Dani": (12, 9),
                  "Eva": (8, 3)}
    dj = ["Ana", "Bruno", "Carla", "Dani", "Eva"]
    groups = action_groups(initiative, dj)
    assert [sorted(g) for g in groups] == [["Carla"], ["Bruno", "Dani"], ["Ana", "Eva"]]
    assert action_order(initiative, dj) == [name for group in groups for name in group]


def test_i4_action_order_is_the_reverse_direction_of_declaration() -> None:
    combat = started(char("Ana", 8, 3), char("Bruno", 12, 5), char("Carla", 15, 2))
    for name in ("Ana", "Bruno", "Carla"):
        declare(combat, name, act("shoots", target=20))
    advance_to(combat, Phase.ROUND)
    assert [s.character for s in combat.state.steps] == ["Carla", "Bruno", "Ana"]
    assert len({s.group for s in combat.state.steps}) == 3
    assert_refused(combat, Resolve(character="Ana", dice=dice(1, 2, 3)), match="turn")
    assert_refused(combat, Resolve(character="Bruno", dice=dice(1, 2, 3)), match="turn")


def test_i4_same_primaria_act_together_in_any_order() -> None:
    combat = started(char("Ana", 8), char("Bruno", 12, 1), char("Dani", 12, 9))
    for name in ("Ana", "Bruno", "Dani"):
        declare(combat, name, act("shoots", target=20))
    advance_to(combat, Phase.ROUND)
    groups = {s.character: s.group for s in combat.state.steps}
    assert groups["Bruno"] == groups["Dani"] != groups["Ana"]
    # Either member of the group may go first; Ana waits for the whole group.
    combat.execute(Resolve(character="Bruno", dice=dice(1, 2, 3)))
    assert_refused(combat, Resolve(character="Ana", dice=dice(1, 2, 3)), match="turn")
    combat.execute(Resolve(character="Dani", dice=dice(1, 2, 3)))
    combat.execute(Resolve(character="Ana", dice=dice(1, 2, 3)))
    assert combat.state.pending_steps() == []
