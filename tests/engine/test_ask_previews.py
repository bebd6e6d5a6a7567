"""engine/ask.py's previews (issue 20, plan step B1): a dialog shows the TA a command
would make, computed by the handler's own code, so the preview and the log cannot
differ. Each test takes the preview, runs the command and compares with what it logged:
Resolve (T2, D12, H10), React's Alerta TA (D6, D9, D12) and the DJ's free TA (T8).
Also the D2 pre-fill of the affected list."""

from __future__ import annotations

from typing import Any

import pytest

from sombra_tui.engine import ask
from sombra_tui.engine.ask import TAPreview
from sombra_tui.engine.commands import AddCondition, Declare, FreeTA, ManualHit, React, Resolve
from sombra_tui.engine.conditions import (
    ActionScope,
    BodySide,
    Condition,
    ConditionEffects,
    GdEffect,
    ScopeKind,
)
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind, LogEvent
from sombra_tui.engine.history import Combat
from sombra_tui.engine.state import GdBreakdown, Phase, PromptKind
from sombra_tui.engine.wounds import Location
from tests.engine.conftest import (
    COMB,
    SUB,
    act,
    advance_to,
    assert_refused,
    char,
    declare,
    decline,
    dice,
    events_of,
    react,
    started,
)


def fighters() -> Combat:
    """Declaration order Ana, Bruno, Carla; Ana's skill Armas is 30."""
    return started(char("Ana", 8, 3, 14, resistencia=6, skills={"Armas": 30}),
                   char("Bruno", 12, 5, 12, resistencia=7),
                   char("Carla", 15, 2, 13))


def previewed(combat: Combat, command: Resolve | React | FreeTA,
              kind: EventKind) -> tuple[TAPreview, LogEvent]:
    """The preview of `command`, then the event it logs; the preview changes nothing."""
    before = combat.state.model_copy(deep=True)
    preview = ask.ta_preview(combat.state, command)
    assert combat.state == before
    [event] = events_of(combat.execute(command), kind)
    return preview, event


def assert_same(preview: TAPreview, event: LogEvent) -> None:
    """The preview's result and GD are the logged ones (the log keeps a GD breakdown
    only when it has grades: Resolve and FreeTA)."""
    assert event.ta is not None and preview.result == event.ta
    assert preview.target == event.ta.target
    if event.gd is None:
        assert not preview.gd.grades and preview.gd.total == event.ta.gd
    else:
        assert preview.gd == event.gd


def ana_acts(combat: Combat, **fields: Any) -> None:
    """Ana declares one round action, the others inaction; on to the round phase."""
    declare(combat, "Ana", act("shoots Carla", "Carla", **fields), affected=[])
    declare(combat, "Bruno")
    declare(combat, "Carla")
    advance_to(combat, Phase.ROUND)


# --------------------------------------------------------------------------- Resolve


def test_t2_resolve_preview_is_the_logged_ta_without_wounds() -> None:
    combat = fighters()
    ana_acts(combat, skill="Armas", gd=1)
    preview, event = previewed(combat, Resolve(character="Ana", dice=dice(3, 4, 5),
                                               extra_gd=2, modifier=-1), EventKind.TA)
    assert_same(preview, event)
    assert event.gd is None
    assert preview.gd == GdBreakdown(base=1, override=2)
    assert preview.target == 30  # T2: the skill's value
    assert preview.result is not None and preview.result.total == 12 + 5 * 3 - 1


def test_h10_resolve_preview_carries_the_wound_grades_as_logged() -> None:
    combat = fighters()
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO, damage=6))
    ana_acts(combat, target=25)
    preview, event = previewed(combat, Resolve(character="Ana", dice=dice(1, 2, 3)),
                               EventKind.TA)
    assert_same(preview, event)
    assert event.gd is not None and [g.name for g in preview.gd.grades] == ["right arm"]
    assert preview.gd.total == 1


def test_d12_resolve_preview_of_the_djs_outcome_is_the_unrolled_ta() -> None:
    combat = fighters()
    ana_acts(combat, target=25)
    preview, event = previewed(combat, Resolve(character="Ana", accept=False), EventKind.TA)
    assert_same(preview, event)
    assert preview.result is not None and preview.result.unrolled


def test_d12_the_djs_outcome_needs_no_value_to_roll_under() -> None:
    """'DJ: success, no roll' on an action with no skill nor target (issue 22): the DJ
    decided it, so T2's value to roll under is not asked for."""
    combat = fighters()
    ana_acts(combat)  # no target, no skill
    preview = ask.ta_preview(combat.state, Resolve(character="Ana", accept=True))
    assert preview.target is None
    assert preview.result is not None and preview.result.unrolled and preview.result.success
    [event] = events_of(combat.execute(Resolve(character="Ana", accept=True)), EventKind.TA)
    assert event.ta is not None and event.ta.unrolled and event.ta.success
    assert event.override  # D12: logged as the DJ's


def test_t2_resolve_preview_without_dice_or_target_has_no_result_and_raises_nothing() -> None:
    combat = fighters()
    ana_acts(combat)  # no target, no skill: T2 finds no value to roll under
    preview = ask.ta_preview(combat.state, Resolve(character="Ana", dice=dice(1, 2, 3)))
    assert preview.target is None and preview.result is None
    assert preview.gd == GdBreakdown()
    error = assert_refused(combat, Resolve(character="Ana", dice=dice(1, 2, 3)))
    assert error.code == "resolve.no_target"
    # With a target but no dice yet: the GD and the target, no result.
    preview = ask.ta_preview(combat.state, Resolve(character="Ana", target=12, extra_gd=1))
    assert (preview.target, preview.result, preview.gd.total) == (12, None, 1)


def test_p3_resolve_preview_for_someone_not_acting_is_the_engines_refusal() -> None:
    combat = fighters()
    ana_acts(combat, target=25)
    with pytest.raises(SombraError) as info:
        ask.ta_preview(combat.state, Resolve(character="Bruno", dice=dice(1, 2, 3)))
    assert info.value.code == "resolve.nothing"


# --------------------------------------------------------------------------- React


def bruno_shoots_ana() -> Combat:
    """Ana (Alerta 14) has declared and may react to Bruno's shot (D4)."""
    combat = fighters()
    declare(combat, "Ana", act("aims", target=20))
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    return combat


def test_d6_react_substitute_preview_is_the_logged_alerta_ta() -> None:
    combat = bruno_shoots_ana()
    command = React(character="Ana", mode=SUB, actions=[act("dives")], dice=dice(2, 3, 4),
                    base_gd=1, extra_gd=-1)
    preview, event = previewed(combat, command, EventKind.REACTION)
    assert_same(preview, event)
    assert (preview.target, preview.gd.substitution, preview.gd.total) == (14, 1, 1)


def test_d6_react_combine_preview_and_the_djs_acceptance() -> None:
    combat = bruno_shoots_ana()
    command = React(character="Ana", mode=COMB, actions=[act("fires back", "Bruno")],
                    accept_without_roll=True)
    preview, event = previewed(combat, command, EventKind.REACTION)
    assert_same(preview, event)  # D12: the unrolled TA the log keeps
    assert preview.gd.substitution == 0
    assert preview.result is not None and preview.result.unrolled


def test_d6_react_preview_without_dice_has_the_gd_and_no_result() -> None:
    combat = bruno_shoots_ana()
    preview = ask.ta_preview(combat.state, React(
        character="Ana", mode=SUB, actions=[act("dives")], base_gd=2))
    assert (preview.target, preview.result, preview.gd.total) == (14, None, 3)


def test_d9_counter_reaction_preview_counts_earlier_reactions_as_logged() -> None:
    combat = started(char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12), char("Carla", 15, 2, 13))
    declare(combat, "Ana")
    declare(combat, "Bruno")
    declare(combat, "Carla", act("shoots Bruno", "Bruno"))
    react(combat, "Bruno", COMB, act("fires back at Ana", "Ana"), roll=dice(1, 2, 3))
    decline(combat, "Carla")
    react(combat, "Ana", COMB, act("ducks"), roll=dice(1, 2, 3))
    prompt = combat.state.top_prompt
    assert prompt is not None and (prompt.reactor, prompt.kind) == ("Bruno", PromptKind.COUNTER)
    command = React(character="Bruno", mode=SUB, actions=[act("takes cover")],
                    dice=dice(3, 2, 3))
    preview, event = previewed(combat, command, EventKind.REACTION)
    assert_same(preview, event)
    assert (preview.gd.substitution, preview.gd.earlier_reactions) == (0, 1)


# --------------------------------------------------------------------------- FreeTA


@pytest.mark.parametrize("scope", [None, ActionScope(arms=frozenset({BodySide.LEFT})),
                                   ActionScope(physical=False)],
                         ids=["main arm", "left arm", "not physical"])
def test_t8_free_ta_preview_carries_the_grades_of_its_scope_as_logged(
        scope: ActionScope | None) -> None:
    combat = fighters()
    combat.execute(ManualHit(character="Ana", location=Location.BRAZO_DERECHO, damage=6))
    combat.execute(AddCondition(character="Ana", condition=Condition(
        name="cegado", effects=ConditionEffects(gd=(GdEffect(scope=ScopeKind.PHYSICAL,
                                                             gd=1),)))))
    command = FreeTA(character="Ana", skill="armas", gd=1, modifier=2, dice=dice(4, 4, 4),
                     scope=scope)
    preview, event = previewed(combat, command, EventKind.TA)
    assert_same(preview, event)
    assert preview.target == 30  # T2: the skill's value, whatever its case
    names = [g.name for g in preview.gd.grades]
    assert names == {"main arm": ["right arm", "cegado"], "left arm": ["cegado"],
                     "not physical": []}[
        "main arm" if scope is None else "left arm" if scope.physical else "not physical"]


def test_t8_free_ta_preview_without_a_value_to_roll_under_raises_nothing() -> None:
    combat = fighters()
    for command, code in ((FreeTA(character="Bruno", dice=dice(1, 2, 3)), "free_ta.no_target"),
                          (FreeTA(character="Ana", skill="Nadar", dice=dice(1, 2, 3)),
                           "free_ta.no_skill")):
        preview = ask.ta_preview(combat.state, command)
        assert (preview.target, preview.result) == (None, None)
        assert assert_refused(combat, command).code == code


# --------------------------------------------------------------------------- D2


def test_d2_affected_prefill_is_what_the_declaration_fills_in() -> None:
    combat = fighters()
    actions = [act("shoots Bruno", "Bruno", "Carla"), act("kicks Carla", "Carla", "Ana")]
    prefill = ask.affected_prefill("Ana", actions)
    assert prefill == ["Bruno", "Carla"]  # in order, once each, never the author
    combat.execute(Declare(character="Ana", actions=actions))
    declaration = combat.state.declaration_of("Ana")
    assert declaration is not None and declaration.affected == prefill


def test_d2_the_forms_prefill_is_the_engines_from_target_names() -> None:
    """D2: a dialog's pre-fill from half-typed forms (target names only) is the list the
    handler makes: the author left out, each name once, in order."""
    names = ["Bruno", "Ana", "Bruno", "Carla"]
    assert ask.affected_prefill_names("Ana", names) == ["Bruno", "Carla"]
    actions = [act("shoots", "Bruno", "Ana"), act("throws", "Bruno", "Carla")]
    assert ask.affected_prefill("Ana", actions) == ask.affected_prefill_names("Ana", names)
