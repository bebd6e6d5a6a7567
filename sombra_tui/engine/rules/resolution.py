"""Resolution (P1-P6, T7, T8): advancing the phases, building the steps, Resolve,
free TAs and settling the steps that can no longer be taken (P4, C4)."""

from __future__ import annotations

from sombra_tui.engine import commands as c
from sombra_tui.engine.conditions import (
    ActionScope,
    GradeEntry,
)
from sombra_tui.engine.dice import (
    TAResult,
    resolve_ta,
    unrolled_ta,
)
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.i18n import N_, Msg, Text, _
from sombra_tui.engine.initiative import action_groups
from sombra_tui.engine.model import (
    ActionKind,
)
from sombra_tui.engine.registry import (
    NOT_SETUP,
    RESOLUTION_PHASES,
    handles,
)
from sombra_tui.engine.rules.conditions import unable_by_conditions
from sombra_tui.engine.rules.core import (
    Emitter,
    gender_of,
    need_character,
    need_no_proposal,
    new_id,
)
from sombra_tui.engine.rules.declaration import start_round
from sombra_tui.engine.rules.extended import build_extended_steps, extended_result, start_extended
from sombra_tui.engine.rules.hits import (
    action_scope,
    end_of_round_bodies,
    propose_hits,
    ta_grade_entries,
)
from sombra_tui.engine.rules.marks import apply_pending_marks
from sombra_tui.engine.rules.opposition import (
    log_exclusions,
    plan_opposition,
    step_opposition,
)
from sombra_tui.engine.rules.steps import after_step, find_step, no_target, roll_under
from sombra_tui.engine.state import (
    CombatState,
    ExtendedStatus,
    GdBreakdown,
    Phase,
    Step,
    StepStatus,
)

#: The log's line for a resolution phase with no step (the DJ's: players_view leaves
#: it out, the players' page shows the next phase).
NOTHING_TO_RESOLVE = N_("Nothing to resolve in this phase.")

PHASE_AFTER: dict[Phase, Phase] = {
    Phase.DECLARATION: Phase.INSTANT,
    Phase.INSTANT: Phase.ROUND,
    Phase.ROUND: Phase.EXTENDED,
    Phase.EXTENDED: Phase.END_OF_ROUND,
    Phase.END_OF_ROUND: Phase.DECLARATION,
}


def _build_steps(state: CombatState, phase: Phase, emit: Emitter) -> None:
    """P2/P3: one step per instant (or round/automatic) action, in action order (I4)."""
    state.steps = []
    dj_order = [ch.name for ch in state.characters]
    groups = action_groups(state.round_initiative, dj_order)
    kinds = ({ActionKind.INSTANT} if phase is Phase.INSTANT
             else {ActionKind.ROUND, ActionKind.AUTOMATIC})
    for group_index, group in enumerate(groups):
        for name in group:
            declaration = state.declaration_of(name)
            if declaration is None:
                continue
            for index, action in enumerate(declaration.actions):
                if action.kind in kinds:
                    state.steps.append(Step(id=new_id(state), character=name,
                                            action_index=index, group=group_index))
    if not state.steps:
        emit(EventKind.PHASE, NOTHING_TO_RESOLVE)


@handles(c.Advance, label=N_("advance"),
          phases=NOT_SETUP,
          refusal=("advance.not_started", N_("Start the combat first (it opens round 1).")),
          settles_first=True)
def _advance(state: CombatState, cmd: c.Advance, emit: Emitter) -> None:
    phase = state.phase
    need_no_proposal(state, _("go on"))
    if phase is Phase.DECLARATION:
        if state.prompts:
            raise SombraError(N_("{reactor}'s reacción prompt is still open."),
                              code="advance.prompt_open",
                              params={"reactor": state.prompts[-1].reactor})
        if state.next_declarer is not None:
            raise SombraError(N_("{name} has not declared yet."),
                              code="advance.not_declared",
                              params={"name": str(state.next_declarer)})
    elif phase in RESOLUTION_PHASES:
        pending = state.pending_steps()
        if pending:
            who = ", ".join(dict.fromkeys(step.character for step in pending))
            raise SombraError(N_("Still to resolve in this phase: {names}."),
                              code="advance.unresolved", params={"names": who})
    state.held_conditions = []
    state.held_wounds = []
    state.acts_despite = []  # H11: the DJ's answers held for one round phase
    if phase is Phase.ROUND:
        state.excused = []  # H11 (rules_v4): the answers hold until the round actions end
    apply_pending_marks(state, emit)
    if phase is Phase.END_OF_ROUND:
        state.round += 1
        start_round(state, emit, {})
        return
    if phase is Phase.DECLARATION:
        start_extended(state, emit)
    state.phase = PHASE_AFTER[phase]  # P1: instant, round, extended, in order
    emit(EventKind.PHASE, Msg(N_("{phase}."), phase=Msg(_PHASE_TITLES[state.phase])),
         rule="P1")
    if state.phase is Phase.INSTANT:
        _build_steps(state, Phase.INSTANT, emit)
    elif state.phase is Phase.ROUND:
        _build_steps(state, Phase.ROUND, emit)
    elif state.phase is Phase.EXTENDED:
        build_extended_steps(state, emit)
    elif state.phase is Phase.END_OF_ROUND:
        state.steps = []
        if state.bodies:
            end_of_round_bodies(state, emit)  # H9 bleeding, then C3 expiry
        emit(EventKind.ROUND, Msg(N_("Asalto {round} ends."), round=state.round),
             rule="P6")


_PHASE_TITLES = {
    Phase.INSTANT: N_("Instant actions"),
    Phase.ROUND: N_("Round actions"),
    Phase.EXTENDED: N_("Extended actions"),
    Phase.END_OF_ROUND: N_("End of the round"),
}


@handles(c.Resolve, label=N_("resolve"),
          phases=RESOLUTION_PHASES, doing=N_("resolve an action"), settles_first=True)
def _resolve(state: CombatState, cmd: c.Resolve, emit: Emitter) -> None:
    step = find_step(state, cmd.character, _("resolve an action"))
    action = state.step_action(step)
    if step_opposition(state, step) is not None and action.kind is not ActionKind.AUTOMATIC:
        plan = plan_opposition(state, step)
        if not plan.solo:
            raise SombraError(N_("\"{description}\" is an opposed action: resolve it with the "
                                 "TA of each participant: {participants}."),
                              code="resolve.opposed",
                              params={"description": action.description,
                                      "participants": ", ".join(plan.rolling)})
        # O2/O3/P4/O5: nobody able is left to oppose it, so it is the character's own TA.
        log_exclusions(plan, action, (), emit)
    if action.kind is ActionKind.AUTOMATIC:  # T7: never rolls
        if cmd.dice is not None or cmd.accept is not None:
            raise SombraError(N_("Automatic actions never roll."),
                              code="resolve.automatic_roll")
        step.status = StepStatus.DONE
        emit(EventKind.TA, Msg(N_("{character}: \"{description}\" happens (automatic, no roll"
                                  ")."),
                               character=cmd.character,
                               description=action.description),
             actor=cmd.character, targets=list(action.targets), rule="T7")
        after_step(state, step, emit)
        return
    if cmd.dice is None and cmd.accept is None:
        raise SombraError(N_("Roll or type the dice for this TA."),
                          code="resolve.no_dice")
    if cmd.dice is not None and cmd.accept is not None:
        raise SombraError(N_("Either roll the dice or let the DJ decide the outcome, not "
                             "both."),
                          code="resolve.dice_and_outcome")
    result, gd, _target = resolve_roll(state, cmd, step)
    if result is None:  # dice with no value to roll under (the DJ's outcome needs none)
        raise no_target(cmd.character, action)
    progress = (state.extended_by_id(step.extended_id) if step.extended_id is not None
                else None)
    step.status = StepStatus.DONE
    step.result = result
    emit(EventKind.TA, Msg(N_("{character}: \"{description}\""),
                           character=cmd.character, description=action.description),
         actor=cmd.character, targets=list(action.targets), ta=result,
         gd=gd if gd.grades else None,
         override=cmd.accept is not None or bool(cmd.extra_gd),
         rule="P5" if progress else ("P2" if state.phase is Phase.INSTANT else "P3"))
    if progress is not None:
        extended_result(state, progress, result.success, emit)
    if action.is_attack:
        propose_hits(state, step, action, cmd.character, result, emit)  # H1
    after_step(state, step, emit)


def resolve_roll(state: CombatState, cmd: c.Resolve, step: Step | None = None
                 ) -> tuple[TAResult | None, GdBreakdown, int | None]:
    """T2, H10, D12: the TA `cmd` makes for `step` (by default the character's step in the
    acting group), as Resolve logs it: the result (None with neither dice nor the DJ's
    outcome, or dice with no value to roll under), the GD (the step's, the DJ's extra, and the
    wound and condition grades) and the value rolled under (None when T2 finds none).
    Read by the handler and by a dialog's preview (ask.ta_preview)."""
    if step is None:
        step = find_step(state, cmd.character, _("resolve an action"))
    action = state.step_action(step)
    target = roll_under(state, cmd.character, action, cmd.target)
    character = state.character(cmd.character)
    grades = ([] if character is None else
              ta_grade_entries(state, cmd.character, action_scope(character, action)))
    gd = GdBreakdown(base=state.step_gd(step), override=cmd.extra_gd, grades=grades)
    result: TAResult | None = None
    if target is not None and cmd.dice is not None:
        result = resolve_ta(cmd.dice, target=target, gd=gd.total, modifier=cmd.modifier,
                            points_per_gd=state.settings.points_per_gd,
                            quality_levels=state.settings.niveles_de_calidad)
    elif cmd.accept is not None:
        # D12: the DJ decides the outcome; no value to roll under is needed (an unrolled
        # TA shows none; without one it is kept as 0, which nothing reads).
        result = unrolled_ta(target=target if target is not None else 0,
                             success=cmd.accept, gd=gd.total)
    return result, gd, target


@handles(c.FreeTA, label=N_("free TA"))
def _free_ta(state: CombatState, cmd: c.FreeTA, emit: Emitter) -> None:
    """T8: the DJ asks any character for a TA outside the steps (T2, T6; O4's confirming
    TA). It changes nothing but the log, in any phase; undo removes it like any command."""
    character = need_character(state, cmd.character)
    skill = cmd.skill.strip()
    result, gd, _target = free_ta_roll(state, cmd)
    if result is None:
        if not skill:
            raise SombraError(N_("Give the value {character} rolls under, or what is rolled "
                                 "(a skill on the character's sheet)."),
                              code="free_ta.no_target", params={"character": cmd.character},
                              field="target")
        known = ", ".join(character.skills) or "none"
        raise SombraError(N_("{character} has no skill {skill!r} (skills: {known}); give"
                             " the value to roll under."),
                          code="free_ta.no_skill",
                          params={"character": cmd.character, "skill": skill, "known": known},
                          field="target")
    what = ": ".join(part for part in (skill, cmd.label.strip()) if part)
    notes: Text = Msg(N_(" (while out)")) if cmd.character in state.out else ""
    emit(EventKind.TA, Msg(N_("DJ asks {name} for a TA{notes}: {what}") if what
                           else N_("DJ asks {name} for a TA{notes}"),
                           name=cmd.character, notes=notes, what=what),
         actor=cmd.character, ta=result, gd=gd if gd.grades else None, rule="T8")


def free_ta_roll(state: CombatState, cmd: c.FreeTA
                 ) -> tuple[TAResult | None, GdBreakdown, int | None]:
    """T8 (T2, H10): the TA the DJ's free TA makes, as it is logged: the result (None when
    there is no value to roll under), the GD (the DJ's, and the wound and condition grades
    of its scope) and the value rolled under: the one given, else the character's value
    of the skill rolled (None when there is none). Read by the handler and by a dialog's
    preview (ask.ta_preview), which may ask before the dice (no result then)."""
    target = cmd.target
    if target is None:
        character = state.character(cmd.character)
        skill = cmd.skill.strip()
        target = character.skill_value(skill) if character is not None and skill else None
    gd = GdBreakdown(base=cmd.gd, grades=free_ta_grades(state, cmd))  # H10: free TAs too
    if target is None:
        return None, gd, None
    dice = getattr(cmd, "dice", None)  # none yet: the odds before the roll (ask.ta_odds_of)
    if dice is None:
        return None, gd, target
    result = resolve_ta(dice, target=target, gd=gd.total, modifier=cmd.modifier,
                        points_per_gd=state.settings.points_per_gd,
                        quality_levels=state.settings.niveles_de_calidad)
    return result, gd, target


def free_ta_grades(state: CombatState, cmd: c.FreeTA) -> list[GradeEntry]:
    """T8, H10/C1: the wound and condition grades the DJ's free TA carries (its scope, or
    physical with the main arm). Read by the machine and by a dialog's preview."""
    character = state.character(cmd.character)
    if character is None:
        return []
    scope = cmd.scope if cmd.scope is not None else ActionScope.default(character.main_arm)
    return ta_grade_entries(state, cmd.character, scope)


def settle_steps(state: CombatState, emit: Emitter) -> None:
    """P4, P5, C4: skip the steps of the current group that can no longer be taken."""
    # Steps are only skipped for someone out, gone (removed) or, in the round phase,
    # prevented: with nobody like that there is nothing to look at.
    if not state.out and not state.removed and not state.bodies and not (
            state.phase is Phase.ROUND and state.prevented):
        return
    changed = True
    while changed:
        changed = False
        for step in state.current_group():
            name = step.character
            reason = None
            why = None
            if state.character(name) is None:
                reason, why = Msg(N_("left the encounter")), "gone"
            elif name in state.out:
                reason, why = Msg(N_("out")), "out"
            elif state.phase is Phase.ROUND and name in state.prevented:
                reason, why = Msg(N_("prevented")).about(gender_of(state, name)), "prevented"
            elif (unable := unable_by_conditions(state, name)) is not None:
                reason, why = Msg(N_("{conditions}"), conditions=unable
                                  ).about(gender_of(state, name)), \
                    "cannot act"
            if reason is None:
                continue
            # P4, C4; O5: an opposition with nobody able left is skipped here, logged.
            step.status = StepStatus.SKIPPED
            step.skipped_for = why
            progress = (state.extended_by_id(step.extended_id)
                        if step.extended_id is not None else None)
            if why == "out" and progress is not None \
                    and progress.status is ExtendedStatus.ACTIVE:
                progress.rounds_counted -= 1  # P5: an out character's round does not count
            action = state.step_action(step) if state.character(name) else None
            # The quotes in the template: Spanish writes «...».
            said = (Msg(N_("{name} \"{action}\" skipped: {reason}."), name=name,
                        action=action.description, reason=reason) if action else
                    Msg(N_("{name} skipped: {reason}."), name=name, reason=reason))
            emit(EventKind.SKIPPED, said, actor=name,
                 rule="C4" if why == "cannot act" else
                 "P5" if step.extended_id is not None else "P4")
            after_step(state, step, emit)
            changed = True
