"""D1-D12: the declaration phase, reactions, counter-reactions and chains.

Reaction totals are worked out here from D6/D9 and T2: dice sum + 5 x GD.
"""

from __future__ import annotations

from sombra_tui.engine import (
    ActionKind,
    Advance,
    AllowPrompt,
    ChangeSettings,
    Combat,
    Declare,
    DenyPrompt,
    Dice,
    EventKind,
    LogEvent,
    Mark,
    Phase,
    PromptKind,
    React,
    SetMark,
    Settings,
    alerta_gd,
    may_react,
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
    char,
    declare,
    decline,
    dice,
    events_of,
    react,
    reactors,
    started,
    top_reactor,
)

DANI = char("Dani", 10, 0, 13)  # between Ana and Bruno
ZOE = char("Zoe", 6, 0, 13)  # before Ana


def trio(**settings: object) -> Combat:
    """Ana, Bruno, Carla of the worked example; declaration order Ana, Bruno, Carla."""
    return started(CARLA, ANA, BRUNO, **settings)


def total(roll: Dice, gd: int, points: int = 5) -> int:
    """T2 worked by hand: dS + d+ + d- + points x GD."""
    return roll.ds + roll.a + roll.b + points * gd


def actions_of(combat: Combat, name: str) -> list[str]:
    declaration = combat.state.declaration_of(name)
    assert declaration is not None
    return [a.description for a in declaration.actions]


def last_reaction(combat: Combat) -> LogEvent:
    return events_of(combat, EventKind.REACTION)[-1]


# --------------------------------------------------------------------------- D1


def test_d1_round_opens_with_declarations_lowest_initiative_first() -> None:
    combat = trio()
    state = combat.state
    assert (state.round, state.phase) == (1, Phase.DECLARATION)
    assert state.current_declarer == "Ana"  # not Carla, first in the DJ's list
    assert_refused(combat, Declare(character="Carla"), match="turn")
    assert_refused(combat, Declare(character="Bruno"), match="turn")
    declare(combat, "Ana", act("aims at the door"))
    assert combat.state.current_declarer == "Bruno"
    assert_refused(combat, Declare(character="Ana"), match="already declared")
    declare(combat, "Bruno")
    assert combat.state.current_declarer == "Carla"
    declare(combat, "Carla")
    assert combat.state.current_declarer is None


def test_d1_resolution_waits_until_everyone_declared() -> None:
    combat = trio()
    declare(combat, "Ana")
    assert_refused(combat, Advance(), match="Bruno")
    declare(combat, "Bruno")
    declare(combat, "Carla")
    combat.execute(Advance())
    assert combat.state.phase is Phase.INSTANT


def test_d1_every_kind_of_declaration_and_instant_plus_round_combined() -> None:
    combat = trio()
    declare(combat, "Ana", act("remembers the code", kind=ActionKind.INSTANT, target=15),
            act("shoots the lock", target=15))
    declare(combat, "Bruno", act("starts hacking", kind=ActionKind.EXTENDED, target=15))
    declare(combat, "Carla")  # inaction
    assert actions_of(combat, "Ana") == ["remembers the code", "shoots the lock"]
    assert combat.state.declaration_of("Carla") is not None
    assert combat.state.declaration_of("Carla").is_inaction  # type: ignore[union-attr]
    advance_to(combat, Phase.INSTANT)
    assert [(s.character, s.action_index) for s in combat.state.steps] == [("Ana", 0)]


def test_d1_automatic_action_is_a_declaration() -> None:
    combat = trio()
    declare(combat, "Ana", act("walks", kind=ActionKind.AUTOMATIC))
    assert actions_of(combat, "Ana") == ["walks"]


# --------------------------------------------------------------------------- D2


def test_d2_affected_prefilled_from_the_targets() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    declaration = combat.state.declaration_of("Bruno")
    assert declaration is not None and declaration.affected == ["Ana"]
    assert reactors(combat.state) == ["Ana"]


def test_d2_dj_marks_the_affected_overriding_the_targets() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("pulls the fire alarm"), affected=["Ana"])
    assert reactors(combat.state) == ["Ana"]
    decline(combat, "Ana")
    declare(combat, "Carla", act("shoots past Ana", "Ana"), affected=[])
    assert combat.state.prompts == []


def test_d2_inaction_affects_nobody() -> None:
    combat = trio()
    declare(combat, "Ana")
    assert_refused(combat, Declare(character="Bruno", actions=[], affected=["Ana"]),
                   match="Inaction affects nobody")
    declare(combat, "Bruno")
    assert combat.state.prompts == []
    assert combat.state.declaration_of("Bruno").affected == []  # type: ignore[union-attr]


def test_d2_a_declaration_never_affects_its_author() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana and himself", "Ana", "Bruno"))
    assert combat.state.declaration_of("Bruno").affected == ["Ana"]  # type: ignore[union-attr]
    decline(combat, "Ana")
    assert_refused(combat, Declare(character="Carla", actions=[act("x")], affected=["Carla"]))


def test_d2_unknown_affected_character_is_refused() -> None:
    combat = trio()
    declare(combat, "Ana")
    assert_refused(combat, Declare(character="Bruno", actions=[act("shoots", "Zoe")]),
                   match="Zoe")


# --------------------------------------------------------------------------- D3


def test_d3_reaccion_is_on_by_default() -> None:
    assert Settings().reaccion is True


def test_d3_reaccion_off_no_prompts_appear() -> None:
    combat = trio(reaccion=False)
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    assert combat.state.prompts == []
    assert combat.state.current_declarer == "Carla"
    assert not may_react(combat.state, "Ana", combat.state.declaration_of("Bruno"))  # type: ignore[arg-type]
    assert_refused(combat, AllowPrompt(character="Ana", against="Bruno"), match="Reacción is off")
    assert events_of(combat, EventKind.PROMPT) == []


def test_d3_turning_reaccion_off_withdraws_open_prompts() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    assert reactors(combat.state) == ["Ana"]
    combat.execute(ChangeSettings(settings=Settings(reaccion=False)))
    assert combat.state.prompts == []
    assert [e.actor for e in events_of(combat, EventKind.WITHDRAWN, rule="D3")] == ["Ana"]
    assert combat.state.current_declarer == "Carla"


# --------------------------------------------------------------------------- D4


def test_d4_character_who_has_not_declared_yet_is_not_prompted() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Carla", "Carla"))
    assert combat.state.prompts == []
    assert not may_react(combat.state, "Carla", combat.state.declaration_of("Bruno"))  # type: ignore[arg-type]


def test_d4_earlier_character_who_has_not_declared_is_not_prompted() -> None:
    # Ana was out when her turn came (skipped), then is brought back mid-chain: she
    # comes before Bruno and is affected, but has not declared yet, so no prompt.
    combat = started(ANA, ZOE, BRUNO)  # order Zoe, Ana, Bruno
    declare(combat, "Zoe")
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    assert combat.state.current_declarer == "Bruno"
    declare(combat, "Bruno", act("shoots Zoe", "Zoe"))
    combat.execute(SetMark(character="Ana", mark=Mark.BACK))
    react(combat, "Zoe", SUB, act("hides"), roll=dice(1, 2, 3))
    react(combat, "Bruno", SUB, act("shoots Ana", "Ana"), roll=dice(1, 2, 3))
    assert reactors(combat.state) == ["Zoe"]  # the renewed reaction only
    assert not may_react(combat.state, "Ana", combat.state.declaration_of("Bruno"))  # type: ignore[arg-type]
    decline(combat, "Zoe")
    assert combat.state.current_declarer == "Ana"


def test_d4_declared_character_later_in_order_is_not_prompted() -> None:
    # Ana's reaction affects Bruno, who has declared but comes after Ana: only the
    # counter-reaction prompt of Carla (D9) opens, no D4 prompt for Bruno.
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno")
    declare(combat, "Carla", act("throws a grenade at Ana", "Ana"))
    react(combat, "Ana", COMB, act("kicks the grenade to Bruno", "Bruno"),
          roll=dice(1, 1, 2))
    assert reactors(combat.state) == ["Carla"]
    assert combat.state.top_prompt is not None
    assert combat.state.top_prompt.kind is PromptKind.COUNTER


def test_d4_only_directly_affected_characters_are_prompted() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("reloads"))
    assert combat.state.prompts == []
    assert not may_react(combat.state, "Ana", combat.state.declaration_of("Bruno"))  # type: ignore[arg-type]
    declare(combat, "Carla", act("shoots Bruno", "Bruno"))
    assert reactors(combat.state) == ["Bruno"]
    carla = combat.state.declaration_of("Carla")
    assert carla is not None
    assert may_react(combat.state, "Bruno", carla)
    assert not may_react(combat.state, "Ana", carla)


def test_d4_character_unable_to_act_is_not_prompted() -> None:
    combat = trio()
    declare(combat, "Ana")
    combat.execute(SetMark(character="Ana", mark=Mark.OUT))
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    assert combat.state.prompts == []
    assert not may_react(combat.state, "Ana", combat.state.declaration_of("Bruno"))  # type: ignore[arg-type]


def test_d4_each_qualifying_character_prompted_in_declaration_order() -> None:
    combat = started(CARLA, ANA, DANI)  # declaration order Ana, Dani, Carla
    declare(combat, "Ana")
    declare(combat, "Dani")
    declare(combat, "Carla", act("grenade", "Dani", "Ana"))
    assert reactors(combat.state) == ["Ana", "Dani"]
    decline(combat, "Ana")
    assert reactors(combat.state) == ["Dani"]


def test_d4_decline_costs_no_roll_no_count_no_lock() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    events = decline(combat, "Ana")
    assert all(e.ta is None for e in events)
    assert combat.state.reactions_made.get("Ana", 0) == 0
    assert not combat.state.is_locked("Ana")
    declare(combat, "Carla", act("grenade", "Ana"))
    assert top_reactor(combat.state) == "Ana"  # not locked: prompted again
    roll = dice(3, 4, 2)
    react(combat, "Ana", SUB, act("dives"), roll=roll)
    event = last_reaction(combat)
    assert event.gd is not None and event.gd.earlier_reactions == 0  # no count
    assert event.ta is not None and event.ta.total == total(roll, 1)


# --------------------------------------------------------------------------- D5


def test_d5_combine_keeps_the_earlier_declaration_and_adds_the_reaction() -> None:
    combat = trio()
    declare(combat, "Ana", act("aims at the door"))
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    react(combat, "Ana", COMB, act("ducks"), roll=dice(1, 2, 3))
    assert actions_of(combat, "Ana") == ["aims at the door", "ducks"]
    declaration = combat.state.declaration_of("Ana")
    assert declaration is not None and declaration.mode is COMB
    assert declaration.answers == combat.state.current["Bruno"]


def test_d5_substitute_replaces_the_earlier_declaration() -> None:
    combat = trio()
    declare(combat, "Ana", act("aims at the door"))
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    react(combat, "Ana", SUB, act("switches the light off"), roll=dice(1, 2, 3))
    assert actions_of(combat, "Ana") == ["switches the light off"]
    assert combat.state.declaration_of("Ana").mode is SUB  # type: ignore[union-attr]


# --------------------------------------------------------------------------- D6


def test_d6_combine_first_reaction_is_at_base_gd() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    roll = dice(4, 4, 2)  # 10
    react(combat, "Ana", COMB, act("ducks"), roll=roll)
    event = last_reaction(combat)
    assert event.gd is not None and event.ta is not None
    assert (event.gd.base, event.gd.substitution, event.gd.earlier_reactions) == (0, 0, 0)
    assert event.ta.total == total(roll, 0) == 10
    assert event.ta.target == 14  # Ana's Alerta
    assert event.ta.success


def test_d6_substitute_adds_one_grade() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    roll = dice(4, 4, 2)  # 10 + 5 = 15 > 14: the substitution grade makes it fail
    react(combat, "Ana", SUB, act("dives"), roll=roll)
    event = last_reaction(combat)
    assert event.gd is not None and event.ta is not None
    assert event.gd.substitution == 1 and event.gd.total == 1
    assert event.ta.total == total(roll, 1) == 15
    assert not event.ta.success
    assert combat.state.is_locked("Ana")


def test_d6_target_is_alerta_not_a_skill() -> None:
    combat = started(char("Ana", 8, 3, 9, skills={"Alerta": 20, "Tiro": 20}), BRUNO)
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    react(combat, "Ana", COMB, act("ducks"), roll=dice(4, 3, 3))  # 10 > 9
    event = last_reaction(combat)
    assert event.ta is not None and event.ta.target == 9
    assert not event.ta.success


def test_d6_base_gd_set_by_the_dj() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    roll = dice(1, 1, 2)
    react(combat, "Ana", SUB, act("dives"), roll=roll, base_gd=-2)
    event = last_reaction(combat)
    assert event.gd is not None and event.gd.base == -2
    assert event.gd.total == -2 + 1
    assert event.ta is not None and event.ta.total == total(roll, -1)


def test_d6_one_grade_per_earlier_reaction_across_declarations() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    react(combat, "Ana", COMB, act("ducks"), roll=dice(1, 1, 2))  # reaction 1
    decline(combat, "Bruno")  # his counter-reaction prompt
    declare(combat, "Carla", act("grenade", "Ana"))
    prompt = combat.state.top_prompt
    assert prompt is not None
    assert alerta_gd(combat.state, prompt, SUB).total == 2
    assert alerta_gd(combat.state, prompt, COMB).total == 1
    roll = dice(2, 1, 1)
    react(combat, "Ana", SUB, act("runs"), roll=roll)
    event = last_reaction(combat)
    assert event.gd is not None
    assert (event.gd.substitution, event.gd.earlier_reactions) == (1, 1)
    assert event.ta is not None and event.ta.total == total(roll, 2)


def test_d6_grades_use_the_points_per_gd_setting() -> None:
    combat = trio(points_per_gd=2)
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    roll = dice(5, 5, 3)  # 13 + 2 = 15 > 14
    react(combat, "Ana", SUB, act("dives"), roll=roll, base_gd=0)
    event = last_reaction(combat)
    assert event.ta is not None and event.ta.total == total(roll, 1, points=2) == 15
    assert not event.ta.success


# --------------------------------------------------------------------------- D7


def test_d7_failed_alerta_changes_nothing_and_locks() -> None:
    combat = trio()
    declare(combat, "Ana", act("aims at the door"))
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    before = combat.state.current["Ana"]
    react(combat, "Ana", SUB, act("dives"), roll=dice(6, 6, 2))  # 14 + 5 > 14
    state = combat.state
    assert state.current["Ana"] == before
    assert actions_of(combat, "Ana") == ["aims at the door"]
    assert state.is_locked("Ana")
    assert state.reactions_made.get("Ana", 0) == 0
    assert state.prompts == []  # no counter-reaction for Bruno: nothing happened
    assert state.current_declarer == "Carla"
    event = last_reaction(combat)
    assert event.rule == "D7" and event.ta is not None and not event.ta.success


def test_d7_locked_character_is_not_prompted_again() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    react(combat, "Ana", COMB, act("ducks"), roll=dice(10, 9, 9))  # 28 > 14
    declare(combat, "Carla", act("grenade", "Ana", "Bruno"))
    assert reactors(combat.state) == ["Bruno"]
    assert not may_react(combat.state, "Ana", combat.state.declaration_of("Carla"))  # type: ignore[arg-type]


def test_d7_lock_also_blocks_counter_reactions_d11_skips_it() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno")
    declare(combat, "Carla", act("grenade", "Ana", "Bruno"))
    assert reactors(combat.state) == ["Ana", "Bruno"]
    react(combat, "Ana", COMB, act("covers her head"), roll=dice(1, 2, 3))
    assert reactors(combat.state) == ["Carla", "Bruno"]
    react(combat, "Carla", SUB, act("throws it further"), roll=dice(10, 10, 9))  # fails
    assert combat.state.is_locked("Carla")
    assert reactors(combat.state) == ["Bruno"]
    # Bruno reacts to Carla's grenade: Carla would counter-react, but she is locked.
    react(combat, "Bruno", COMB, act("shoves the desk onto Ana", "Ana"), roll=dice(1, 2, 3))
    skipped = events_of(combat, EventKind.SKIPPED, rule="D11")
    assert [e.actor for e in skipped] == ["Carla"]
    assert reactors(combat.state) == ["Ana"]  # the D4 prompt still comes up


# --------------------------------------------------------------------------- D8


def test_d8_success_replaces_the_declaration() -> None:
    combat = trio()
    declare(combat, "Ana", act("aims at the door"))
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    old = combat.state.current["Ana"]
    react(combat, "Ana", SUB, act("dives behind the desk"), roll=dice(3, 4, 2))
    new = combat.state.current["Ana"]
    assert new != old
    assert combat.state.declarations[new].replaces == old
    assert actions_of(combat, "Ana") == ["dives behind the desk"]


def _bruno_shoots_ana_and_dani() -> Combat:
    combat = started(ANA, DANI, BRUNO)  # order Ana, Dani, Bruno
    declare(combat, "Ana")
    declare(combat, "Dani")
    declare(combat, "Bruno", act("shoots Ana and Dani", "Ana", "Dani"))
    assert reactors(combat.state) == ["Ana", "Dani"]
    react(combat, "Ana", SUB, act("dives"), roll=dice(1, 2, 3))
    assert reactors(combat.state) == ["Bruno", "Dani"]
    return combat


def test_d8_substituted_declaration_withdraws_its_open_prompts() -> None:
    combat = _bruno_shoots_ana_and_dani()
    react(combat, "Bruno", SUB, act("runs away"), roll=dice(1, 2, 3))
    withdrawn = events_of(combat, EventKind.WITHDRAWN, rule="D8")
    assert [e.actor for e in withdrawn] == ["Dani"]
    # The new declaration opens its own prompts: only Ana's renewed reaction (D10).
    assert reactors(combat.state) == ["Ana"]
    decline(combat, "Ana")
    assert combat.state.prompts == []
    assert all(e.actor != "Dani" for e in events_of(combat, EventKind.REACTION))


def test_d8_combined_declaration_keeps_its_open_prompts() -> None:
    combat = _bruno_shoots_ana_and_dani()
    react(combat, "Bruno", COMB, act("and shouts"), roll=dice(1, 2, 3))
    assert events_of(combat, EventKind.WITHDRAWN) == []
    assert reactors(combat.state) == ["Ana", "Dani"]


def test_d8_failed_substitution_withdraws_nothing() -> None:
    combat = _bruno_shoots_ana_and_dani()
    react(combat, "Bruno", SUB, act("runs away"), roll=dice(10, 10, 10))
    assert events_of(combat, EventKind.WITHDRAWN) == []
    assert reactors(combat.state) == ["Dani"]
    assert actions_of(combat, "Bruno") == ["shoots Ana and Dani"]


def test_d8_substitution_mid_chain_withdraws_prompts_of_the_replaced_declaration() -> None:
    # Ana's reaction opens Carla's counter and Zoe's D4 prompt; after Carla's
    # counter-reaction Ana substitutes her reaction: Zoe's prompt goes with it.
    combat = started(ANA, ZOE, CARLA)  # order Zoe, Ana, Carla
    declare(combat, "Zoe")
    declare(combat, "Ana")
    declare(combat, "Carla", act("grenade at Ana", "Ana"))
    react(combat, "Ana", COMB, act("shoots Zoe", "Zoe"), roll=dice(1, 2, 3))
    assert reactors(combat.state) == ["Carla", "Zoe"]
    react(combat, "Carla", COMB, act("ducks"), roll=dice(1, 2, 3))
    assert reactors(combat.state) == ["Ana", "Zoe"]
    react(combat, "Ana", SUB, act("hides"), roll=dice(1, 1, 2))  # GD 2: 4 + 10 <= 14
    assert actions_of(combat, "Ana") == ["hides"]
    assert [e.actor for e in events_of(combat, EventKind.WITHDRAWN, rule="D8")] == ["Zoe"]
    assert reactors(combat.state) == ["Carla"]


def test_d8_substituting_a_combination_withdraws_prompts_of_the_combined_part() -> None:
    # Carla's grenade (v1) prompts Ana and Bruno. Carla combines it into v2 in a
    # counter-reaction, then substitutes v2 while Bruno's prompt on v1 is still
    # open: the grenade is gone, so is Bruno's prompt.
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno")
    declare(combat, "Carla", act("grenade", "Ana", "Bruno"))
    react(combat, "Ana", COMB, act("covers"), roll=dice(1, 2, 3))
    react(combat, "Carla", COMB, act("and draws"), roll=dice(1, 2, 3))
    assert reactors(combat.state) == ["Ana", "Bruno"]
    react(combat, "Ana", COMB, act("crawls away"), roll=dice(1, 2, 3))
    assert reactors(combat.state) == ["Carla", "Bruno"]
    react(combat, "Carla", SUB, act("runs out of the room"), roll=dice(1, 2, 3))
    assert actions_of(combat, "Carla") == ["runs out of the room"]
    assert [e.actor for e in events_of(combat, EventKind.WITHDRAWN, rule="D8")] == ["Bruno"]
    assert reactors(combat.state) == ["Ana"]


# --------------------------------------------------------------------------- D9


def test_d9_counter_reaction_substitute_adds_no_grade() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    react(combat, "Ana", SUB, act("dives"), roll=dice(1, 2, 3))
    prompt = combat.state.top_prompt
    assert prompt is not None and prompt.reactor == "Bruno"
    assert prompt.kind is PromptKind.COUNTER
    roll = dice(4, 4, 4)  # 12 <= 12 only without a substitution grade
    react(combat, "Bruno", SUB, act("runs to flank her"), roll=roll)
    event = last_reaction(combat)
    assert event.gd is not None and event.gd.substitution == 0 and event.gd.total == 0
    assert event.ta is not None and event.ta.total == total(roll, 0) == 12
    assert event.ta.success
    assert actions_of(combat, "Bruno") == ["runs to flank her"]


def test_d9_counter_reaction_still_counts_earlier_reactions() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno")
    declare(combat, "Carla", act("shoots Bruno", "Bruno"))
    react(combat, "Bruno", COMB, act("fires back at Ana", "Ana"),
          roll=dice(1, 2, 3))  # Bruno's reaction 1
    assert reactors(combat.state) == ["Carla", "Ana"]
    decline(combat, "Carla")
    react(combat, "Ana", COMB, act("ducks"), roll=dice(1, 2, 3))
    prompt = combat.state.top_prompt
    assert prompt is not None and (prompt.reactor, prompt.kind) == ("Bruno", PromptKind.COUNTER)
    assert alerta_gd(combat.state, prompt, SUB).total == 1
    roll = dice(3, 2, 3)  # 8 + 5 = 13 > 12: the earlier reaction's grade makes it fail
    react(combat, "Bruno", SUB, act("takes cover"), roll=roll)
    event = last_reaction(combat)
    assert event.gd is not None
    assert (event.gd.substitution, event.gd.earlier_reactions) == (0, 1)
    assert event.ta is not None and event.ta.total == total(roll, 1) == 13
    assert not event.ta.success and combat.state.is_locked("Bruno")


# --------------------------------------------------------------------------- D10


def test_d10_long_chain_with_rising_gd_until_a_failure() -> None:
    combat = started(char("Ana", 8, 3, 30), char("Bruno", 12, 5, 30))
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    roll = dice(2, 2, 2)  # sum 6
    # (who, mode, expected prompt kind, expected GD from D6/D9 by hand)
    links = [
        ("Ana", SUB, PromptKind.REACTION, 1 + 0),  # substitute, first reaction
        ("Bruno", SUB, PromptKind.COUNTER, 0 + 0),  # counter: no substitution grade
        ("Ana", SUB, PromptKind.REACTION, 1 + 1),  # reaction again (D6): 1 earlier
        ("Bruno", SUB, PromptKind.COUNTER, 0 + 1),
        ("Ana", SUB, PromptKind.REACTION, 1 + 2),
        ("Bruno", COMB, PromptKind.COUNTER, 0 + 2),
    ]
    for index, (who, mode, kind, gd) in enumerate(links):
        prompt = combat.state.top_prompt
        assert prompt is not None and (prompt.reactor, prompt.kind) == (who, kind), index
        react(combat, who, mode, act(f"move {index}"), roll=roll)
        event = last_reaction(combat)
        assert event.gd is not None and event.gd.total == gd, index
        assert event.ta is not None and event.ta.total == total(roll, gd), index
        assert event.ta.success
    assert actions_of(combat, "Ana") == ["move 4"]
    assert actions_of(combat, "Bruno") == ["move 3", "move 5"]
    # Link 7: Ana at 1 + 3 = GD 4: 10 + 20 = 30 <= 30 would pass, 11 + 20 fails.
    assert top_reactor(combat.state) == "Ana"
    fail_roll = dice(5, 3, 3)
    react(combat, "Ana", SUB, act("move 6"), roll=fail_roll)
    event = last_reaction(combat)
    assert event.gd is not None and event.gd.total == 4
    assert event.ta is not None and event.ta.total == total(fail_roll, 4) == 31
    assert not event.ta.success
    assert combat.state.prompts == []
    assert actions_of(combat, "Ana") == ["move 4"]
    assert combat.state.reactions_made == {"Ana": 3, "Bruno": 3}


def test_d10_chain_ends_when_one_declines() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    react(combat, "Ana", SUB, act("dives"), roll=dice(1, 2, 3))
    react(combat, "Bruno", SUB, act("flanks"), roll=dice(1, 2, 3))
    assert top_reactor(combat.state) == "Ana"
    decline(combat, "Ana")
    assert combat.state.prompts == []
    assert combat.state.current_declarer == "Carla"


def test_d10_a_chain_link_also_opens_d4_prompts_for_others() -> None:
    combat = started(ANA, ZOE, BRUNO)  # order Zoe, Ana, Bruno
    declare(combat, "Zoe")
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    react(combat, "Ana", SUB, act("dives"), roll=dice(1, 2, 3))
    react(combat, "Bruno", SUB, act("shoots Zoe instead", "Zoe"), roll=dice(1, 2, 3))
    # D11: first the author answered (Ana), then the affected in order (Zoe).
    assert reactors(combat.state) == ["Ana", "Zoe"]
    decline(combat, "Ana")
    react(combat, "Zoe", SUB, act("runs"), roll=dice(1, 2, 3))
    prompt = combat.state.top_prompt
    assert prompt is not None and (prompt.reactor, prompt.kind) == ("Bruno", PromptKind.COUNTER)


# --------------------------------------------------------------------------- D11


def test_d11_author_answered_first_then_affected_in_declaration_order() -> None:
    combat = started(ANA, ZOE, DANI, CARLA)  # Zoe, Ana, Dani, Carla
    for name in ("Zoe", "Ana", "Dani"):
        declare(combat, name)
    declare(combat, "Carla", act("grenade", "Ana"))
    # The reaction names Dani before Zoe; prompts still follow the declaration order.
    react(combat, "Ana", COMB, act("kicks it away"), affected=["Dani", "Zoe"],
          roll=dice(1, 2, 3))
    assert reactors(combat.state) == ["Carla", "Zoe"]  # Dani comes after Ana: no D4
    prompts = list(reversed(combat.state.prompts))
    assert [p.kind for p in prompts] == [PromptKind.COUNTER, PromptKind.REACTION]


def test_d11_depth_first_then_next_declarer() -> None:
    combat = started(ANA, BRUNO, CARLA, char("Eva", 20, 0, 13))
    declare(combat, "Ana")
    declare(combat, "Bruno")
    declare(combat, "Carla", act("grenade", "Ana", "Bruno"))
    seen = [top_reactor(combat.state)]
    react(combat, "Ana", SUB, act("dives"), roll=dice(1, 2, 3))  # needs no mark on Carla
    seen.append(top_reactor(combat.state))
    react(combat, "Carla", COMB, act("and shoots Ana"), roll=dice(1, 2, 3))
    seen.append(top_reactor(combat.state))
    assert combat.state.current_declarer is None
    assert_refused(combat, Declare(character="Eva"), match="First settle")
    assert_refused(combat, React(character="Bruno", mode=COMB, actions=[act("x")],
                                 dice=dice(1, 1, 1)), match="Ana")
    decline(combat, "Ana")
    seen.append(top_reactor(combat.state))
    decline(combat, "Bruno")
    assert seen == ["Ana", "Carla", "Ana", "Bruno"]
    assert combat.state.current_declarer == "Eva"


def test_d11_character_out_when_its_prompt_comes_up_is_skipped() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno")
    declare(combat, "Carla", act("grenade", "Ana", "Bruno"))
    combat.execute(SetMark(character="Bruno", mark=Mark.OUT))
    assert reactors(combat.state) == ["Ana", "Bruno"]  # not yet on top
    decline(combat, "Ana")
    assert combat.state.prompts == []
    assert [e.actor for e in events_of(combat, EventKind.SKIPPED, rule="D11")] == ["Bruno"]


def test_d11_locked_character_skipped_among_two_affected() -> None:
    # Bruno fails a reaction; his later prompt on Carla's declaration is skipped
    # while Ana, also affected, is prompted.
    combat = started(ANA, BRUNO, CARLA, char("Dani", 20, 0, 13))
    declare(combat, "Ana")
    declare(combat, "Bruno")
    declare(combat, "Carla", act("shoots Bruno", "Bruno"))
    react(combat, "Bruno", SUB, act("hides"), roll=dice(10, 10, 10))  # fails: locked
    declare(combat, "Dani", act("grenade", "Bruno", "Ana", "Carla"))
    assert reactors(combat.state) == ["Ana", "Carla"]
    react(combat, "Ana", SUB, act("dives"), roll=dice(1, 2, 3))
    react(combat, "Dani", COMB, act("and runs", "Bruno"), roll=dice(1, 2, 3))
    # Dani's counter-reaction affects only the locked Bruno: only Ana (answered) is asked.
    assert reactors(combat.state) == ["Ana", "Carla"]


# --------------------------------------------------------------------------- D12


def test_d12_deny_prompt_is_logged_and_costs_nothing() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    combat.execute(DenyPrompt(character="Ana"))
    assert combat.state.prompts == []
    assert not combat.state.is_locked("Ana")
    [event] = events_of(combat, EventKind.OVERRIDE, rule="D12")
    assert event.override and event.actor == "Ana"


def test_d12_allow_prompt_for_an_unaffected_character_is_logged() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("reloads"))
    assert combat.state.prompts == []
    combat.execute(AllowPrompt(character="Ana", against="Bruno"))
    prompt = combat.state.top_prompt
    assert prompt is not None and prompt.reactor == "Ana" and prompt.forced
    [event] = events_of(combat, EventKind.OVERRIDE, rule="D12")
    assert event.override
    react(combat, "Ana", COMB, act("ducks"), roll=dice(1, 2, 3))
    assert actions_of(combat, "Ana") == ["ducks"]


def test_d12_allow_prompt_even_for_a_locked_character() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    react(combat, "Ana", SUB, act("dives"), roll=dice(10, 10, 10))
    assert combat.state.is_locked("Ana")
    combat.execute(AllowPrompt(character="Ana", against="Bruno"))
    assert top_reactor(combat.state) == "Ana"  # a forced prompt is not skipped (D11)
    react(combat, "Ana", SUB, act("dives"), roll=dice(1, 2, 3))
    assert actions_of(combat, "Ana") == ["dives"]


def test_d12_dj_adds_grades_logged_as_override() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    roll = dice(1, 1, 1)
    react(combat, "Ana", SUB, act("dives"), roll=roll, extra_gd=2)
    event = last_reaction(combat)
    assert event.override
    assert event.gd is not None and (event.gd.substitution, event.gd.override) == (1, 2)
    assert event.ta is not None and event.ta.total == total(roll, 3)


def test_d12_accept_without_roll_is_logged_and_counts_as_a_reaction() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    react(combat, "Ana", SUB, act("dives"), accept_without_roll=True)
    assert actions_of(combat, "Ana") == ["dives"]
    event = last_reaction(combat)
    assert event.override and event.ta is not None
    assert event.ta.unrolled and event.ta.dice is None and event.ta.success
    assert [e.override for e in events_of(combat, EventKind.OVERRIDE, rule="D12")] == [True]
    assert combat.state.reactions_made["Ana"] == 1
    assert top_reactor(combat.state) == "Bruno"


def test_d12_reaction_needs_exactly_one_of_dice_or_acceptance() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("shoots Ana", "Ana"))
    assert_refused(combat, React(character="Ana", mode=SUB, actions=[act("dives")]),
                   match="needs an Alerta TA")
    assert_refused(combat, React(character="Ana", mode=SUB, actions=[act("dives")],
                                 dice=dice(1, 2, 3), accept_without_roll=True),
                   match="or accept the reacción without a roll")


def test_d12_every_override_is_logged_with_override_flag() -> None:
    combat = trio()
    declare(combat, "Ana")
    declare(combat, "Bruno", act("reloads"))
    combat.execute(AllowPrompt(character="Ana", against="Bruno"))
    combat.execute(DenyPrompt(character="Ana"))
    combat.execute(AllowPrompt(character="Ana", against="Bruno"))
    react(combat, "Ana", COMB, act("ducks"), accept_without_roll=True)
    decline(combat, "Bruno")
    declare(combat, "Carla", act("grenade", "Ana"))
    react(combat, "Ana", COMB, act("covers"), roll=dice(1, 2, 3), extra_gd=1)
    d12 = events_of(combat, rule="D12")
    assert len(d12) == 4  # allow, deny, allow, accept
    assert all(e.override for e in d12)
    assert last_reaction(combat).override  # the added grade


def test_d5_combining_cannot_start_a_second_extended_action() -> None:
    """D5/D1: a combination keeps one declaration, which starts at most one extended action."""
    import pytest

    from sombra_tui.engine import (
        Action,
        Character,
        Combat,
        Declare,
        Dice,
        Encounter,
        ExtendedSpec,
        React,
        SombraError,
        StartCombat,
    )

    combat = Combat(Encounter(characters=[
        Character(name="Ana", primaria=8, secundaria=3, alerta=14),
        Character(name="Bruno", primaria=12, secundaria=5, alerta=12)]))
    combat.execute(StartCombat())
    combat.execute(Declare(character="Ana", actions=[Action(
        kind="extended", description="picks the lock", target=12,
        extended=ExtendedSpec(duration=2))]))
    combat.execute(Declare(character="Bruno", actions=[
        Action(description="shoots Ana", targets=["Ana"])]))
    second = Action(kind="extended", description="hacks the door", target=12)
    before = combat.state.model_copy(deep=True)
    with pytest.raises(SombraError, match="at most one extended"):
        combat.execute(React(character="Ana", mode="combine", actions=[second],
                             dice=Dice.of(1, 1, 2)))
    assert combat.state == before
    combat.execute(React(character="Ana", mode="substitute", actions=[second],
                         dice=Dice.of(1, 1, 2)))
    assert [a.description for a in combat.state.declaration_of("Ana").actions] == [
        "hacks the door"]
