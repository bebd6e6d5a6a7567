"""C1-C4: conditions (estados), checked rule by rule against RULES.md (conditions.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from sombra_tui.engine import SombraError
from sombra_tui.engine.conditions import (
    ATURDIDO,
    BUILTIN_NAMES,
    DESARMADO,
    DOLOR_INTENSO,
    INCONSCIENTE,
    MUERTO,
    SANGRANDO,
    ActionScope,
    BodySide,
    Condition,
    ConditionEffects,
    ConditionError,
    ConditionSource,
    ConditionSpec,
    GdEffect,
    ScopeKind,
    SourceKind,
    builtin,
    can_act,
    can_react,
    condition_grades,
    end_of_round,
    is_out,
    preventing_action,
    preventing_reaction,
    prevents_pending_action,
    total_gd,
)

LEFT, RIGHT = BodySide.LEFT, BodySide.RIGHT

# ------------------------------------------------------------------------------ C1


def test_c1_a_condition_has_name_duration_source_and_effects() -> None:
    cegado = Condition(
        name="  cegado ", duration=3, began=2, source=ConditionSource(),
        effects=ConditionEffects(gd=(GdEffect(scope=ScopeKind.ANY, gd=2),)))
    assert cegado.name == "cegado"
    assert cegado.source.kind is SourceKind.DJ
    assert cegado.last_round == 5
    until_removed = Condition(name="derribado", began=2)
    assert until_removed.duration is None and until_removed.last_round is None
    assert until_removed.active_in(500)


def test_c1_the_source_is_a_wound_a_rule_or_the_dj() -> None:
    assert ConditionSource.of_wound(3).wound_id == 3
    assert ConditionSource.of_wound(3).kind is SourceKind.WOUND
    assert ConditionSource.of_rule("H7").rule == "H7"
    with pytest.raises(ValidationError):
        ConditionSource(kind=SourceKind.WOUND)  # which wound?


@pytest.mark.parametrize("bad", [{"name": "   "}, {"name": "x", "duration": 0},
                                 {"name": "x", "began": -1},
                                 {"name": "x" * 41}])
def test_c1_a_condition_refuses_bad_values(bad: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        Condition.model_validate(bad)


def test_c1_effects_each_act_on_their_own() -> None:
    cannot_act = Condition(name="a", effects=ConditionEffects(cannot_act=True))
    cannot_react = Condition(name="r", effects=ConditionEffects(cannot_react=True))
    out = Condition(name="o", effects=ConditionEffects(out=True))
    assert (can_act([cannot_act], 1), can_react([cannot_act], 1), is_out([cannot_act], 1)) \
        == (False, True, False)
    assert (can_act([cannot_react], 1), can_react([cannot_react], 1),
            is_out([cannot_react], 1)) == (True, False, False)
    # P4: out means it cannot act or react.
    assert (can_act([out], 1), can_react([out], 1), is_out([out], 1)) == (False, False, True)
    assert (can_act([], 1), can_react([], 1), is_out([], 1)) == (True, True, False)


def test_c1_gd_effect_scope_matches_h10_action_scopes() -> None:
    physical = GdEffect(scope=ScopeKind.PHYSICAL, gd=1)
    right_arm = GdEffect(scope=ScopeKind.ARM, side=RIGHT, gd=1)
    left_leg = GdEffect(scope=ScopeKind.LEG, side=LEFT, gd=1)
    every = GdEffect(scope=ScopeKind.ANY, gd=2)
    shooting = ActionScope.default(RIGHT)
    kicking = ActionScope(physical=True, legs=frozenset({LEFT}))
    alerta = ActionScope.alerta()
    assert [e.matches(shooting) for e in (physical, right_arm, left_leg, every)] \
        == [True, True, False, True]
    assert [e.matches(kicking) for e in (physical, right_arm, left_leg, every)] \
        == [True, False, True, True]
    assert [e.matches(alerta) for e in (physical, right_arm, left_leg, every)] \
        == [False, False, False, True]
    assert right_arm.scope_label() == "right arm"
    with pytest.raises(ValidationError):
        GdEffect(scope=ScopeKind.ARM, gd=1)  # which arm?
    with pytest.raises(ValidationError):
        GdEffect(scope=ScopeKind.PHYSICAL, side=LEFT, gd=1)


def test_c1_condition_grades_name_each_condition_and_add_up() -> None:
    cegado = Condition(id=4, name="cegado", began=1,
                       effects=ConditionEffects(gd=(GdEffect(scope=ScopeKind.ANY, gd=2),)))
    dolor = builtin(DOLOR_INTENSO, began=1, dolor_intenso_gd=1, condition_id=5)
    entries = condition_grades([cegado, dolor], 2, ActionScope.default())
    assert [(e.name, e.gd, e.source_id) for e in entries] \
        == [("cegado", 2, 4), ("dolor intenso", 1, 5)]
    assert total_gd(entries) == 3
    assert entries[1].describe() == "dolor intenso +1"
    # An Alerta TA is not physical: only the every-TA grade applies (H10).
    assert [e.name for e in condition_grades([cegado, dolor], 2, ActionScope.alerta())] \
        == ["cegado"]
    # A condition that has ended adds nothing (C4).
    short = cegado.model_copy(update={"duration": 1})
    assert condition_grades([short], 3, ActionScope.default()) == []


# ------------------------------------------------------------------------------ C2


def test_c2_builtin_effects() -> None:
    aturdido = builtin(ATURDIDO, began=1, duration=2)
    assert aturdido.effects == ConditionEffects(cannot_act=True, cannot_react=True)
    assert builtin(INCONSCIENTE, began=1).effects == ConditionEffects(out=True)
    assert builtin(MUERTO, began=1).effects == ConditionEffects(out=True)
    assert builtin(DESARMADO, began=1).effects == ConditionEffects()
    assert builtin(SANGRANDO, began=1).effects == ConditionEffects()
    assert builtin(DOLOR_INTENSO, began=1).effects == ConditionEffects()  # H9: adds 0 GD
    assert builtin(DOLOR_INTENSO, began=1, dolor_intenso_gd=1).effects.gd \
        == (GdEffect(scope=ScopeKind.PHYSICAL, gd=1),)
    assert len(BUILTIN_NAMES) == 6
    assert builtin("  Aturdido ", began=0).name == ATURDIDO


def test_c2_muerto_never_expires() -> None:
    muerto = builtin(MUERTO, began=3)
    assert muerto.permanent and muerto.last_round is None
    assert end_of_round([muerto], 10_000).kept == (muerto,)
    with pytest.raises(ConditionError) as caught:
        builtin(MUERTO, began=3, duration=2)
    assert caught.value.code == "condition.permanent"
    with pytest.raises(ValidationError):
        muerto.model_validate({**muerto.model_dump(), "duration": 2})


def test_c2_unknown_builtin_is_refused_with_a_code_and_the_dj_adds_own_conditions() -> None:
    with pytest.raises(ConditionError) as caught:
        builtin("derribado", began=1)
    assert caught.value.code == "condition.unknown_builtin"
    assert caught.value.params["name"] == "derribado"  # and the built-in names, for the message
    assert isinstance(caught.value, SombraError)
    derribado = Condition(name="derribado", duration=1, began=1,
                          effects=ConditionEffects(cannot_act=True))
    assert not can_act([derribado], 2)
    # ... and edits it: a copy with new values (the machine's EditCondition).
    edited = derribado.model_copy(update={"duration": 3})
    assert edited.last_round == 4


def test_c2_spec_starts_a_builtin_with_round_and_source() -> None:
    spec = ConditionSpec(name=ATURDIDO, duration=2)
    started = spec.start(began=4, source=ConditionSource.of_wound(1))
    assert (started.name, started.began, started.duration, started.source.wound_id) \
        == (ATURDIDO, 4, 2, 1)
    assert ConditionSpec(name=INCONSCIENTE, hours=9).start(
        began=1, source=ConditionSource()).hours == 9


# ------------------------------------------------------------------------------ C3


def test_c3_two_asaltos_begun_in_round_r_cover_r1_and_r2_and_end_at_end_of_r2() -> None:
    aturdido = builtin(ATURDIDO, began=4, duration=2)
    assert aturdido.covered_rounds() == range(5, 7)
    assert not aturdido.ends_at_end_of(5)
    assert aturdido.ends_at_end_of(6)
    assert end_of_round([aturdido], 5).kept == (aturdido,)
    result = end_of_round([aturdido], 6)
    assert result.expired == (aturdido,) and result.kept == ()
    assert aturdido.rounds_left(4) == 2  # rounds 5 and 6 still to come
    assert aturdido.rounds_left(5) == 2
    assert aturdido.rounds_left(6) == 1
    assert aturdido.rounds_left(7) == 0


def test_c3_a_condition_begun_before_round_1_counts_from_round_1() -> None:
    before = builtin(ATURDIDO, began=0, duration=2)
    assert before.covered_rounds() == range(1, 3)
    assert before.active_in(1) and before.active_in(2) and not before.active_in(3)
    assert before.ends_at_end_of(2)


def test_c3_end_of_round_keeps_the_order_of_the_others() -> None:
    a = Condition(id=1, name="a", began=1, duration=1)
    b = Condition(id=2, name="b", began=1)
    c = Condition(id=3, name="c", began=1, duration=3)
    result = end_of_round([a, b, c], 2)
    assert result.kept == (b, c) and result.expired == (a,)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 50), st.integers(1, 30))
def test_c3_property_a_condition_expires_exactly_at_the_end_of_round_began_plus_n(
        began: int, duration: int) -> None:
    condition = Condition(name="x", began=began, duration=duration)
    kept: list[Condition] = [condition]
    expired_at: list[int] = []
    for round_ in range(max(began, 1), began + duration + 5):
        # C4: in effect in every covered round, never after.
        assert condition.active_in(round_) == (round_ <= began + duration)
        result = end_of_round(kept, round_)
        kept = list(result.kept)
        expired_at += [round_ for _ in result.expired]
    assert expired_at == [began + duration]
    covered = condition.covered_rounds()
    assert covered is not None and len(covered) == duration
    assert covered[0] == began + 1


# ------------------------------------------------------------------------------ C4


def test_c4_aturdido_leaves_only_inaction_and_no_reactions_until_it_ends() -> None:
    aturdido = builtin(ATURDIDO, began=4, duration=2)
    for round_ in (5, 6):
        assert not can_act([aturdido], round_)
        assert not can_react([aturdido], round_)
        assert preventing_action([aturdido], round_) == [aturdido]
        assert preventing_reaction([aturdido], round_) == [aturdido]
    # C4: when a condition ends, the effect ends with it.
    assert can_act([aturdido], 7) and can_react([aturdido], 7)


def test_c4_inconsciente_and_muerto_are_out() -> None:
    assert is_out([builtin(INCONSCIENTE, began=2)], 3)
    assert is_out([builtin(MUERTO, began=2)], 99)
    assert not is_out([builtin(DESARMADO, began=2)], 3)


def test_h11_conditions_that_propose_prevented() -> None:
    proposing = {name for name in BUILTIN_NAMES if prevents_pending_action(builtin(name, began=1))}
    assert proposing == {ATURDIDO, INCONSCIENTE, MUERTO, DESARMADO}


def test_c4_a_condition_acts_from_the_moment_it_begins_h11() -> None:
    # H11: a wound takes effect when its attack resolves, so aturdido begun in round 4
    # already stops what is still pending in round 4 (the duration counts from round 5).
    aturdido = builtin(ATURDIDO, began=4, duration=2)
    assert not can_act([aturdido], 4) and can_act([aturdido], 3)
    assert aturdido.active_in(4) and not aturdido.active_in(3)
    until_removed = builtin(DESARMADO, began=4)
    assert until_removed.rounds_left(9) is None


def test_c3_asaltos_left_at_the_end_of_a_round_count_from_the_next() -> None:
    """The table, the sheet and the players' view read asaltos left from
    ask.counting_round: once an asalto's actions are over (the end of the round), that
    asalto is spent, so aturdido for rounds 2-3 has 1 left, not 2 (issue 22)."""
    from sombra_tui.engine import ask
    from sombra_tui.engine.commands import AddCondition
    from sombra_tui.engine.state import Phase
    from tests.engine.conftest import advance_to, char, declare_all_inaction, started

    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12))
    combat.execute(AddCondition(character="Bruno",
                                condition=builtin(ATURDIDO, began=0, duration=2)))
    [aturdido] = combat.state.body("Bruno").conditions

    def left() -> int | None:
        return ask.condition_left(aturdido, ask.counting_round(combat.state))

    def players_left() -> int | None:
        snapshot = ask.players_view(combat.state, combat.log, 0)
        [row] = [row for row in snapshot.characters if row.name == "Bruno"]
        return row.conditions[0].left

    assert left() == players_left() == 2  # round 1: rounds 2 and 3 to come
    declare_all_inaction(combat)
    advance_to(combat, Phase.END_OF_ROUND)
    assert left() == players_left() == 2  # round 1 over: still rounds 2 and 3
    advance_to(combat, Phase.DECLARATION)
    assert combat.state.round == 2 and left() == 2  # round 2 in play, and round 3
    declare_all_inaction(combat)
    advance_to(combat, Phase.END_OF_ROUND)
    assert left() == players_left() == 1  # round 2 spent: round 3 only
