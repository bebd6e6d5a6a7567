"""Opposed actions (O1-O5, T5, E4's comparison): who opposes whom, ResolveOpposed, the
reading of a conditioned outcome (O4) and the DJ's decision on an outcome (T5)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from sombra_tui.engine import commands as c
from sombra_tui.engine.conditions import (
    total_gd,
)
from sombra_tui.engine.dice import (
    TAResult,
    best_of,
    compare_ta,
    format_gd,
    resolve_ta,
)
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind, LogEvent
from sombra_tui.engine.i18n import N_, Msg, Text, _
from sombra_tui.engine.model import (
    Action,
    ActionKind,
    Opposition,
    OppositionMode,
    Reading,
    Role,
)
from sombra_tui.engine.odds import TASpec
from sombra_tui.engine.registry import (
    RESOLUTION_PHASES,
    handles,
)
from sombra_tui.engine.rules.conditions import unable_by_conditions
from sombra_tui.engine.rules.core import Emitter, gender_of
from sombra_tui.engine.rules.extended import extended_result
from sombra_tui.engine.rules.hits import action_scope, propose_hits, ta_grade_entries
from sombra_tui.engine.rules.marks import unable_msg
from sombra_tui.engine.rules.steps import after_step, find_step, target_for
from sombra_tui.engine.state import (
    CombatState,
    ExtendedProgress,
    ReactionMode,
    Step,
    StepStatus,
)


@dataclass(frozen=True)
class OppositionPlan:
    """Who takes part in an opposed action and how they are compared (O2, O3, E4, P4).

    Read by the machine to resolve it and by a UI to ask for the right TAs.
    """

    initiator: str
    #: O2 (and E4, which compares as O2) or O3.
    direct: bool
    #: Everyone the opposition involves: the initiator, its opponents and, in O3, the
    #: other characters those opponents' own conditioned actions name (seed 001: "uno o
    #: más personajes" conditioning "otro u otros").
    members: tuple[str, ...]
    #: Members that cannot take part, with the reason (out, prevented, gone).
    excluded: dict[str, Msg] = field(default_factory=dict)
    #: Members that roll: able ones still facing an able opponent (the initiator first).
    rolling: tuple[str, ...] = ()
    #: O3: the (conditioning, conditioned) pairs compared, each as O3.
    pairs: tuple[tuple[str, str], ...] = ()
    #: The id of the step each member who rolls rolls for: the initiator's, and each
    #: opponent's own action in this opposition (its value and GD come from it; the
    #: opposition takes that step). A member who rolls without one rolls under a value
    #: the DJ gives.
    steps: dict[str, int] = field(default_factory=dict)

    @property
    def solo(self) -> bool:
        """Nobody left to oppose the initiator: its action is its own TA (O2, O3)."""
        return self.rolling == (self.initiator,)

    @property
    def conditioning(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(pair[0] for pair in self.pairs))

    @property
    def conditioned(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(pair[1] for pair in self.pairs))


def step_opposition(state: CombatState, step: Step) -> Opposition | None:
    """O2/O3 with I4: the opposition `step`'s action takes part in. Its own, when it
    declared one; else the one another character's pending action in this phase declared
    against it, direct or as the conditioned side (a dodge declared first, by the lower
    initiative, against an attack the attacker then declared plain), seen from this side:
    the same mode and reading, the other role, against everyone whose opposed action of
    that mode and role names this character. An action aimed at others only, automatic
    or instant, stays its own (O1, T7), as does one whose character already answers that
    opposition with an opposed action of its own, or with another action declared in
    reacción to it. A plain action named by a conditioning action is no answer to it
    (that opponent rolls with a value the DJ gives) unless it was declared in reacción to
    that action's author (D5: a reacción opposes the declared action; format 4): then it
    is the conditioned side, as a dodge declared in answer to an attack."""
    action = state.step_action(step)
    if action.opposition is not None:
        return action.opposition
    if action.kind in (ActionKind.AUTOMATIC, ActionKind.INSTANT) \
            or not state.settings.oppositions_v3:
        return None
    name = step.character
    pending = state.pending_steps()
    #: Those this character already opposes with an opposed action of its own.
    paired = {who for own in pending if own.character == name
              and (declared := state.step_action(own).opposition) is not None
              for who in declared.against}
    #: D5/D8 (format 4): whom each of this character's actions was declared in answer to.
    answered = answered_authors(state, name) if state.settings.rules_v4 else {}
    answers = answered.get(step.action_index) if step.action_index is not None else None
    #: Those another pending plain action of this character answers in reacción (aimed
    #: at them, or at nobody): that one is the side it rolls for.
    answered_by_other = {who for own in pending
                         if own.character == name and own.id != step.id
                         and own.action_index is not None
                         and (who := answered.get(own.action_index)) is not None
                         and (mine := state.step_action(own)).opposition is None
                         and mine.kind not in (ActionKind.AUTOMATIC, ActionKind.INSTANT)
                         and (not mine.targets or who in mine.targets)}
    found: list[tuple[str, Opposition]] = []
    for other in pending:
        if other.character == name or other.character in paired:
            continue
        theirs = state.step_action(other).opposition
        if theirs is None or name not in theirs.against:
            continue
        if theirs.mode is OppositionMode.CONDITIONED and theirs.role is Role.CONDITIONING \
                and answers != other.character:
            continue
        if other.character in answered_by_other and answers != other.character:
            continue
        if action.targets and other.character not in action.targets:
            continue
        found.append((other.character, theirs))
    if not found:
        return None
    first = found[0][1]
    # O2: a direct opposition has no sides: every one binding this action joins it.
    against = list(dict.fromkeys(who for who, theirs in found
                                 if theirs.mode is first.mode and (
                                     first.mode is OppositionMode.DIRECT
                                     or theirs.role is first.role)))
    role = (Role.CONDITIONED if first.mode is OppositionMode.CONDITIONED
            and first.role is Role.CONDITIONING else Role.CONDITIONING)
    return Opposition(mode=first.mode, against=against, role=role, reading=first.reading)


def answered_authors(state: CombatState, name: str) -> dict[int, str]:
    """D5/D8: the author of the declaration each action of `name`'s declaration was
    declared in answer to (a reacción or contrarreacción), by the action's index; an
    action of a first declaration is not in it."""
    declaration = state.declaration_of(name)
    chain = []
    while declaration is not None:
        chain.append(declaration)
        if declaration.mode is not ReactionMode.COMBINE or declaration.replaces is None:
            break
        declaration = state.declarations.get(declaration.replaces)
    found: dict[int, str] = {}
    index = 0
    for version in reversed(chain):
        answered = (state.declarations.get(version.answers)
                    if version.answers is not None else None)
        if answered is not None:
            found.update(dict.fromkeys(range(index, index + len(version.new_actions)),
                                       answered.author))
        index += len(version.new_actions)
    return found


def opposing_step(state: CombatState, name: str, against: Iterable[str]) -> Step | None:
    """`name`'s pending step whose opposed action (step_opposition) names one of
    `against`."""
    wanted = set(against)
    for step in state.pending_steps():
        if step.character != name:
            continue
        opposition = step_opposition(state, step)
        if opposition is not None and wanted & set(opposition.against):
            return step
    return None


def plan_opposition(state: CombatState, step: Step) -> OppositionPlan:
    """O2/O3/E4 with P4 and O5: the participants of `step`'s opposed action as things
    stand."""
    opposition = step_opposition(state, step)
    assert opposition is not None
    initiator = step.character
    direct = opposition.mode is OppositionMode.DIRECT or step.extended_id is not None
    # side 0: the initiator's side; in O3 the sides are conditioning and conditioned.
    side: dict[str, int] = {initiator: 0}
    links: list[tuple[str, str]] = []
    for name in opposition.against:
        if name not in side:
            side[name] = 1
            links.append((initiator, name))
    if not direct:
        # O3 with several characters: an opponent's own conditioned action may name
        # others (one alarm, several guards), who join on the initiator's side.
        for name in [n for n in side if n != initiator]:
            their = opposing_step(state, name, [initiator])
            if their is None:
                continue
            their_opposition = step_opposition(state, their)
            assert their_opposition is not None
            if their_opposition.mode is not OppositionMode.CONDITIONED:
                continue
            for other in their_opposition.against:
                if other not in side:
                    side[other] = 1 - side[name]
                if side[other] != side[name] and (other, name) not in links \
                        and (name, other) not in links:
                    links.append((name, other))
    members = tuple(side)
    excluded = _unable(state, members)
    able = [name for name in members if name not in excluded]
    if direct:
        rolling = tuple(able) if len(able) > 1 else (initiator,)  # O5: one left: own TA
        return OppositionPlan(initiator=initiator, direct=True, members=members,
                              excluded=excluded, rolling=rolling,
                              steps=_own_steps(state, step, rolling, members))
    conditioning_side = 0 if opposition.role is Role.CONDITIONING else 1
    pairs: list[tuple[str, str]] = []
    elsewhere: dict[str, Msg] = {}
    for first, second in links:
        if first in excluded or second in excluded:
            continue
        pair = (first, second) if side[first] == conditioning_side else (second, first)
        # O3 (format 4): a conditioned action whose would-be partner aims at others (Iker
        # dodges Bruno, who shoots Lucía) is no opposition between them.
        if state.settings.rules_v4 and aims_elsewhere(state, pair[0], pair[1]):
            elsewhere[pair[0]] = Msg(N_("{name}'s action is aimed at others"), name=pair[0])
            continue
        pairs.append(pair)
    in_pairs = {name for pair in pairs for name in pair}
    excluded.update((name, reason) for name, reason in elsewhere.items()
                    if name not in in_pairs)
    rolling = (initiator, *(name for name in members
                            if name != initiator and name in in_pairs))
    return OppositionPlan(initiator=initiator, direct=False, members=members,
                          excluded=excluded, rolling=rolling, pairs=tuple(pairs),
                          steps=_own_steps(state, step, rolling, members))


def _unable(state: CombatState, members: Iterable[str]) -> dict[str, Msg]:
    """O5: the members who cannot take part, with the reason: out, gone or, in the round
    phase, prevented (P4); from format 4 also unable to act by a condition (C1, C4)."""
    excluded: dict[str, Msg] = {}
    for name in members:
        reason = unable_msg(state, name)
        if reason is None and state.settings.rules_v4 \
                and (conditions := unable_by_conditions(state, name)) is not None:
            reason = Msg(N_("{conditions}"), conditions=conditions).about(
                gender_of(state, name))
        if reason is not None:
            excluded[name] = reason
    return excluded


def _own_steps(state: CombatState, step: Step, rolling: Iterable[str],
               members: Iterable[str]) -> dict[str, int]:
    """The step each member who rolls rolls for: the initiator's own, and each opponent's
    action opposing a member (none: the DJ gives the value it rolls under)."""
    members = tuple(members)
    found = {step.character: step.id}
    for name in rolling:
        if name != step.character \
                and (theirs := opposing_step(state, name, members)) is not None:
            found[name] = theirs.id
    return found


def aims_elsewhere(state: CombatState, name: str, other: str) -> bool:
    """O3 (format 4): whether every action `name` declared this round is aimed at others
    than `other` (it names someone, by its targets or its opposition, and never
    `other`): a conditioned action of `other`'s against `name` then has no partner."""
    declaration = state.declaration_of(name)
    if declaration is None or not declaration.actions:
        return False
    for action in declaration.actions:
        named = {*action.targets, *(action.opposition.against if action.opposition else ())}
        if not named or other in named:
            return False
    return True


def log_exclusions(plan: OppositionPlan, action: Action, given: Iterable[str],
                    emit: Emitter) -> None:
    """O2/O3/P4: who does not take part, and why; their dice, if given, do not count."""
    rule = "O2" if plan.direct else "O3"
    given = set(given)
    for name in plan.members:
        if name in plan.rolling:
            continue
        reason = plan.excluded.get(name, Msg(N_("no able opponent left")))
        dice_note: Text = Msg(N_("; its dice are not counted")) if name in given else ""
        emit(EventKind.SKIPPED, Msg(N_("{name} does not take part in \"{description}\": "
                                       "{reason}{dice_note}."),
                                    name=name, description=action.description, reason=reason,
                                    dice_note=dice_note), actor=name, rule=rule)
    if plan.solo and len(plan.members) > 1:
        emit(EventKind.OPPOSED, Msg(N_("Nobody is left to oppose {initiator}: "
                                       "\"{description}\" is resolved as {initiator}'s own TA."),
                                    initiator=plan.initiator, description=action.description),
             actor=plan.initiator, rule=rule)


def _opponent_values(state: CombatState, name: str, plan: OppositionPlan,
                     roll: c.OpposedRoll) -> tuple[int, int, Step | None]:
    """Target and GD of an opponent: from its own action in the plan, or given."""
    step_id = plan.steps.get(name)
    step = next((s for s in state.pending_steps() if s.id == step_id), None)
    if step is not None:
        action = state.step_action(step)
        target = target_for(state, name, action, roll.target)
        gd = roll.gd if roll.gd is not None else state.step_gd(step)
        return target, gd, step
    if roll.target is None:
        raise SombraError(N_("Give {name}'s value to roll under: {name} has no action "
                             "opposing this one this phase."),
                          code="opposed.no_target", params={"name": name})
    return roll.target, roll.gd or 0, None


def _decide(computed: list[str], among: list[str], cmd: c.ResolveOpposed
            ) -> tuple[str, Text, bool]:
    """T5 and the DJ: (winner, note for the log, whether the DJ decided)."""
    chosen = [name for name in cmd.winners if name in among]
    if len(chosen) > 1:
        raise SombraError(N_("The DJ named {names} as winners of the same comparison; name "
                             "one."),
                          code="opposed.two_winners", params={"names": ", ".join(chosen)})
    if chosen:  # the DJ overrides any outcome, not only a tie
        winner = chosen[0]
        if len(computed) > 1:
            return winner, Msg(N_(" (tie broken by the DJ)")), True
        if winner == computed[0]:
            return winner, Msg(N_(" (DJ decision, as the dice give)")), True
        return (winner, Msg(N_(" (DJ decision; by the dice {name} would win)"),
                            name=computed[0]), True)
    if len(computed) > 1:
        if cmd.tie_winner is None or cmd.tie_winner not in among:
            raise SombraError(N_("Tie between {winners}: the DJ chooses the winner."),
                              code="opposed.tie", params={"winners": ", ".join(computed)},
                              field="tie_winner")
        if cmd.tie_winner not in computed:
            raise SombraError(N_("{winner} is not among the tied: {winners}."),
                              code="opposed.not_tied",
                              params={"winner": cmd.tie_winner, "winners": ", ".join(computed)})
        return cmd.tie_winner, Msg(N_(" (tie broken by the DJ)")), True
    return computed[0], "", False


class _Roller(Protocol):
    """Rolls one participant's TA of an opposed action (H10: with its grades)."""

    def __call__(self, name: str, extra: int = 0) -> TAResult: ...


def _check_opposed_rolls(cmd: c.ResolveOpposed, plan: OppositionPlan) -> list[str]:
    """O2/O3/O5: one TA for each participant who rolls; a winner only among them."""
    given = [roll.character for roll in cmd.rolls]
    if len(set(given)) != len(given):
        raise SombraError(N_("One TA per participant: {names} given twice."),
                          code="opposed.rolls_twice", params={"names": ", ".join(
            sorted({n for n in given if given.count(n) > 1}))})
    strangers = [name for name in given if name not in plan.members]
    missing = [name for name in plan.rolling if name not in given]
    if strangers or missing:
        raise SombraError(N_("An opposed roll needs one TA for each participant: "
                             "{participants} (got {given})."),
                          code="opposed.rolls_mismatch",
                          params={"participants": ", ".join(plan.rolling),
                                  "given": ', '.join(given)})
    for name in cmd.winners:
        if name not in plan.rolling:
            raise SombraError(N_("{name} does not roll in this opposition, so cannot be "
                                 "named its winner."),
                              code="opposed.not_rolling", params={"name": name})
    if plan.direct and len(cmd.winners) > 1:
        raise SombraError(N_("A direct opposition has one winner: name one."),
                          code="opposed.direct_one_winner")
    return given


def _opposed_roller(state: CombatState, cmd: c.ResolveOpposed, step: Step, action: Action,
                    rolls: dict[str, c.OpposedRoll]
                    ) -> tuple[dict[str, tuple[int, int]], dict[str, Action | None], _Roller]:
    """The values each participant rolls under (the initiator's now, the opponents' as they
    are found) and the action each rolls for; roll_for reads both when it rolls."""
    own = rolls[cmd.character]
    own_gd = own.gd if own.gd is not None else state.step_gd(step)
    values: dict[str, tuple[int, int]] = {
        cmd.character: (target_for(state, cmd.character, action, own.target), own_gd)}
    #: H10: the action each participant rolls for (None: no action of its own opposes).
    acting: dict[str, Action | None] = {cmd.character: action}
    settings = state.settings

    def roll_for(name: str, extra: int = 0) -> TAResult:
        target, gd = values[name]
        return resolve_ta(rolls[name].dice, target=target,
                          gd=gd + extra + _held_grades(state, name, acting.get(name)),
                          modifier=rolls[name].modifier, points_per_gd=settings.points_per_gd,
                          quality_levels=settings.niveles_de_calidad)

    return values, acting, roll_for


def _held_grades(state: CombatState, name: str, action: Action | None) -> int:
    """H10: a participant's wound and condition grades, by the scope of the action it
    declared (an opponent without an opposing action of its own: the default)."""
    character = state.character(name)
    return 0 if character is None else total_gd(
        ta_grade_entries(state, name, action_scope(character, action)))


def opposed_specs(state: CombatState, step: Step,
                  given: dict[str, tuple[int | None, int | None]]) -> dict[str, TASpec]:
    """O2/O3, T2, H10: the TA each participant who rolls would make, read as
    _resolve_opposed reads it (the value and GD given, else its own action's, and its
    wound and condition grades), for the odds before the dice. Raises the resolver's
    SombraError when a value to roll under is missing."""
    plan = plan_opposition(state, step)
    # No dice yet (nothing here reads them): unvalidated, without them.
    rolls = {name: c.OpposedRoll.model_construct(  # type: ignore[call-arg]
        character=name, target=given.get(name, (None, None))[0],
        gd=given.get(name, (None, None))[1], modifier=0) for name in plan.rolling}
    values, acting, _roll = _opposed_roller(
        state, c.ResolveOpposed.model_construct(character=step.character, rolls=list(
            rolls.values())), step, state.step_action(step), rolls)
    if not plan.solo:
        _opponents(state, plan, rolls, values, acting)
    settings = state.settings
    return {name: TASpec(target=values[name][0],
                         gd=values[name][1] + _held_grades(state, name, acting.get(name)),
                         points_per_gd=settings.points_per_gd,
                         quality_levels=settings.niveles_de_calidad)
            for name in plan.rolling}


def _resolve_solo(state: CombatState, cmd: c.ResolveOpposed, step: Step, action: Action,
                  plan: OppositionPlan, progress: ExtendedProgress | None, roll_for: _Roller,
                  emit: Emitter) -> None:
    """O2/O3/O5: nobody is left to oppose the initiator: its own TA."""
    if cmd.winners:
        raise SombraError(N_("Nobody is left to oppose {character}: there is no winner "
                             "to choose."),
                          code="opposed.nobody_left", params={"character": cmd.character})
    result = roll_for(cmd.character)
    step.status = StepStatus.DONE
    step.result = result
    emit(EventKind.TA, Msg(N_("{character}: \"{description}\""),
                           character=cmd.character,
                           description=action.description), actor=cmd.character,
         targets=list(action.targets), ta=result,
         rule="P5" if progress else "O2" if plan.direct else "O3")
    if progress is not None:
        extended_result(state, progress, result.success, emit)
    if action.is_attack:
        propose_hits(state, step, action, cmd.character, result, emit)  # H1
    after_step(state, step, emit)


def _opponents(state: CombatState, plan: OppositionPlan, rolls: dict[str, c.OpposedRoll],
               values: dict[str, tuple[int, int]], acting: dict[str, Action | None]
               ) -> list[Step]:
    """The opponents' values, and the steps of theirs this roll takes (O2, O5)."""
    consumed: list[Step] = []
    # O5: only those who roll now give up their own step; a member left with no able
    # partner keeps it and makes its own TA at its own turn.
    for name in plan.rolling[1:]:
        target, gd, their_step = _opponent_values(state, name, plan, rolls[name])
        values[name] = (target, gd)
        if their_step is not None:
            consumed.append(their_step)
            acting[name] = state.step_action(their_step)
    return consumed


def _resolve_direct(cmd: c.ResolveOpposed, action: Action, plan: OppositionPlan,
                    roll_for: _Roller, emit: Emitter
                    ) -> tuple[dict[str, TAResult], dict[str, bool]]:
    """O2, E4: everyone rolls; the best TA wins (T5, or the DJ)."""
    results: dict[str, TAResult] = {}
    for name in plan.rolling:
        results[name] = roll_for(name)
    for name in plan.rolling:
        emit(EventKind.TA, Msg(N_("{name} (opposed)"),
                               name=name), actor=name,
             ta=results[name], rule="O2")
    winner, note, decided = _decide(best_of(results), list(plan.rolling), cmd)
    winners_of = {name: name == winner for name in plan.rolling}
    emit(EventKind.OPPOSED, Msg(N_("{winner} wins the opposed action "
                                   "\"{description}\"{note}."),
                                winner=winner, description=action.description,
                                note=note), actor=cmd.character,
         targets=[n for n in plan.rolling if n != cmd.character],
         override=decided, rule="O2", winner=winner)
    return results, winners_of


def _resolve_conditioned(cmd: c.ResolveOpposed, action: Action, opposition: Opposition,
                         plan: OppositionPlan, roll_for: _Roller, emit: Emitter
                         ) -> tuple[dict[str, TAResult], dict[str, bool]]:
    """O3, O4: each conditioning TA first, each conditioned one modified by its outcome."""
    results: dict[str, TAResult] = {}
    winners_of: dict[str, bool] = {}
    several = len(plan.pairs) > 1
    for conditioning in plan.conditioning:
        results[conditioning] = roll_for(conditioning)
        emit(EventKind.TA, Msg(N_("{conditioning} (conditioning)"),
                               conditioning=conditioning), actor=conditioning,
             ta=results[conditioning], rule="O3")
    for conditioning, conditioned in plan.pairs:
        first = results[conditioning]
        shift = cmd.condition_size if first.success else -cmd.condition_size
        second = roll_for(conditioned, shift)
        results.setdefault(conditioned, second)
        if several:
            by = (Msg(N_("conditioned by {name}, GD {gd} because {name}'s TA succeeded"),
                      name=conditioning, gd=format_gd(shift)) if first.success
                  else Msg(N_("conditioned by {name}, GD {gd} because {name}'s TA failed"),
                           name=conditioning, gd=format_gd(shift)))
        else:
            by = (Msg(N_("conditioned, GD {gd} because the conditioning TA succeeded"),
                      gd=format_gd(shift)) if first.success
                  else Msg(N_("conditioned, GD {gd} because the conditioning TA failed"),
                           gd=format_gd(shift)))
        emit(EventKind.TA, Msg(N_("{conditioned} ({by})"),
                               conditioned=conditioned, by=by), actor=conditioned, ta=second,
             rule="O3")
        verdict = compare_ta(first, second)
        computed = ([conditioning] if verdict > 0 else [conditioned] if verdict < 0
                    else [conditioning, conditioned])
        winner, note, decided = _decide(computed, [conditioning, conditioned], cmd)
        pair_results = {conditioning: first, conditioned: second}
        reading = read_outcome_msg(opposition.reading, conditioning, conditioned,
                                   pair_results, winner)
        confirm = needs_confirming_ta(opposition.reading, conditioning, conditioned,
                                      pair_results, winner)
        versus = f" ({conditioning} vs {conditioned})" if several else ""
        emit(EventKind.OPPOSED, Msg(N_("{winner} wins the opposed action "
                                       "\"{description}\"{versus}{note}. {reading}"),
                                    winner=winner, description=action.description,
                                    versus=versus, note=note, reading=reading),
             actor=conditioning, targets=[conditioned],  # the pair compared
             override=decided, rule="O4", winner=winner,
             confirm_ta=conditioned if confirm else None)
        for name in (conditioning, conditioned):
            winners_of[name] = winners_of.get(name, False) or name == winner
    return results, winners_of


def _finish_opposed(state: CombatState, cmd: c.ResolveOpposed, step: Step, action: Action,
                    plan: OppositionPlan, opposition: Opposition,
                    consumed: list[Step], progress: ExtendedProgress | None,
                    results: dict[str, TAResult], winners_of: dict[str, bool],
                    emit: Emitter) -> None:
    """The steps done, the extended actions counted (E4) and the hits proposed (H1/O4)."""
    step.status = StepStatus.DONE
    step.result = results[cmd.character]
    for other_step in consumed:  # O2: all rolled when the first acted
        other_step.status = StepStatus.DONE
        other_step.result = results[other_step.character]
        # P4: a TA rolled here for a later group does not bring that group's turn.
        other_step.early = other_step.group != step.group
    if progress is not None:  # E4: the chase counts as won or lost for the initiator
        extended_result(state, progress, winners_of[cmd.character], emit)
    for other_step in consumed:  # E4: ... and for each side's own opposed extended action
        chased = (state.extended_by_id(other_step.extended_id)
                  if other_step.extended_id is not None else None)
        if chased is not None:
            extended_result(state, chased, winners_of[other_step.character], emit)
    # H1/O4: an attack hits when its TA succeeded and it won its comparisons. A dodge
    # (the conditioned side of an attack, O3) hits nobody: one declared so (propose_hits)
    # and, from format 4, a plain action declared in reacción to the attack (D5).
    dodging = (state.settings.rules_v4 and not plan.direct
               and opposition.reading is Reading.ATTACK)
    attacks = [(step, action), *((other, state.step_action(other)) for other in consumed)]
    for attack_step, attack in attacks:
        name = attack_step.character
        if dodging and name in plan.conditioned and attack.opposition is None:
            continue
        if attack.is_attack and winners_of.get(name) and results[name].success:
            propose_hits(state, attack_step, attack, name, results[name], emit)
    after_step(state, step, emit)


@handles(c.ResolveOpposed, label=N_("resolve opposed"),
          phases=RESOLUTION_PHASES, doing=N_("resolve an opposed action"), settles_first=True)
def _resolve_opposed(state: CombatState, cmd: c.ResolveOpposed, emit: Emitter) -> None:
    step = find_step(state, cmd.character, _("resolve an opposed action"))
    action = state.step_action(step)
    opposition = step_opposition(state, step)
    if opposition is None:
        raise SombraError(N_("\"{description}\" is not an opposed action; resolve it with a "
                             "single TA."),
                          code="opposed.not_opposed", params={"description": action.description})
    plan = plan_opposition(state, step)
    given = _check_opposed_rolls(cmd, plan)
    rolls = {roll.character: roll for roll in cmd.rolls}
    log_exclusions(plan, action, given, emit)
    progress = (state.extended_by_id(step.extended_id) if step.extended_id is not None
                else None)
    values, acting, roll_for = _opposed_roller(state, cmd, step, action, rolls)
    if plan.solo:  # O2/O3/O5: nobody left to oppose it; a conditioned action is no longer
        _resolve_solo(state, cmd, step, action, plan, progress, roll_for, emit)
        return
    consumed = _opponents(state, plan, rolls, values, acting)
    if plan.direct:  # O2, E4
        results, winners_of = _resolve_direct(cmd, action, plan, roll_for, emit)
    else:  # O3: each conditioning TA first, each conditioned one modified by its outcome
        results, winners_of = _resolve_conditioned(cmd, action, opposition, plan, roll_for,
                                                   emit)
    _finish_opposed(state, cmd, step, action, plan, opposition, consumed, progress, results,
                    winners_of, emit)


def needs_confirming_ta(reading: Reading, conditioning: str, conditioned: str,
                        results: dict[str, TAResult], winner: str) -> bool:
    """O4: a sentinel (the conditioned) who won with both TAs failing gets a new TA."""
    return (reading is Reading.STEALTH and winner == conditioned
            and not results[conditioning].success and not results[conditioned].success)


def read_outcome(reading: Reading, conditioning: str, conditioned: str,
                 results: dict[str, TAResult], winner: str) -> str:
    """O4: the seed's reading of a conditioned opposition, in the language in force."""
    return read_outcome_msg(reading, conditioning, conditioned, results, winner).render()


def read_outcome_msg(reading: Reading, conditioning: str, conditioned: str,
                     results: dict[str, TAResult], winner: str) -> Msg:
    """O4: the seed's reading of a conditioned opposition, for the DJ."""
    first, second = results[conditioning], results[conditioned]
    names = {"conditioning": conditioning, "conditioned": conditioned}
    if reading is Reading.ATTACK:
        if winner == conditioning:
            if first.success:
                return Msg(N_("{conditioning} hits {conditioned}."), names)
            return Msg(N_("{conditioning}'s attack failed its TA: no hit despite winning; the "
                          "DJ may grant an advantage (position, cornering)."), names)
        return Msg(N_("{conditioned} avoids the attack."), names)
    if reading is Reading.STEALTH:
        both_failed = not first.success and not second.success
        if winner == conditioning:
            if both_failed:
                return Msg(N_("{conditioning} passes unseen, but makes noise."), names)
            return Msg(N_("{conditioning} passes unseen."), names)
        if needs_confirming_ta(reading, conditioning, conditioned, results, winner):
            return Msg(N_("Something catches {conditioned}'s attention: a new TA to confirm "
                          "the suspicion."), names)
        return Msg(N_("{conditioned} detects {conditioning}."), names)
    return Msg(N_("The DJ reads the outcome: {winner} prevails."), winner=winner)


# --- the outcome as logged, and the DJ's decision on it (T5, O4) -----------------------


@dataclass(frozen=True)
class Comparison:
    """One comparison an opposed resolution logged: who was compared, who won (T5)."""

    members: tuple[str, ...]
    winner: str


@dataclass(frozen=True)
class OpposedOutcome:
    """What an opposed resolution's events say: its comparisons, the confirming TAs the
    reading calls for (O4) and who lost (the DJ may give the outcome to them, T5)."""

    comparisons: tuple[Comparison, ...] = ()
    #: O4: each sentinel who won with both TAs failing, once, in the order logged.
    confirm: tuple[str, ...] = ()
    #: Whoever lost a comparison, once, in the order logged.
    losers: tuple[str, ...] = ()


def opposed_outcome(events: Iterable[LogEvent]) -> OpposedOutcome:
    """T5/O4: the outcome of the opposed resolution that logged `events`."""
    events = list(events)
    found = tuple(Comparison((event.actor or "", *event.targets), event.winner)
                  for event in events
                  if event.kind is EventKind.OPPOSED and event.winner is not None)
    confirm = tuple(dict.fromkeys(event.confirm_ta for event in events
                                  if event.confirm_ta is not None))
    losers = tuple(dict.fromkeys(name for each in found for name in each.members
                                 if name != each.winner))
    return OpposedOutcome(comparisons=found, confirm=confirm, losers=losers)


def decide_opposed(command: c.ResolveOpposed, events: Iterable[LogEvent], who: str
                   ) -> c.ResolveOpposed:
    """T5: the DJ gives `who` every comparison it took part in. The same command (same
    dice) with `who` first among its winners; an earlier decision on a comparison `who`
    is not in is kept. Run in place of `command` (Combat.replace_last), the machine logs
    what T5 gave beside the DJ's decision."""
    compared = [set(each.members) for each in opposed_outcome(events).comparisons]
    kept = [name for name in command.winners
            if not any(who in members and name in members for members in compared)]
    return command.model_copy(update={"winners": [who, *kept]})


def confirm_target(events: Iterable[LogEvent], name: str) -> int | None:
    """O4/T8: the value a sentinel's confirming TA rolls under: the one its last TA in
    `events` rolled under (None: `name` rolled no TA there)."""
    return next((event.ta.target for event in reversed(list(events))
                 if event.kind is EventKind.TA and event.actor == name
                 and event.ta is not None), None)
