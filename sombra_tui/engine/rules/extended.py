"""Extended actions (E1-E3): starting them, their due steps, their results, and the
DJ's Adjust/Abandon."""

from __future__ import annotations

from sombra_tui.engine import commands as c
from sombra_tui.engine.dice import (
    format_gd,
)
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.i18n import N_, Join, Msg, lazy
from sombra_tui.engine.initiative import action_groups
from sombra_tui.engine.model import (
    ActionKind,
    ExtendedMode,
)
from sombra_tui.engine.registry import (
    handles,
)
from sombra_tui.engine.rules.core import Emitter, new_id
from sombra_tui.engine.rules.steps import after_step
from sombra_tui.engine.state import (
    CombatState,
    ExtendedProgress,
    ExtendedStatus,
    Step,
    StepStatus,
)


def build_extended_steps(state: CombatState, emit: Emitter) -> None:
    """P5/E1-E3: count the round for each active extended action; due ones roll."""
    state.steps = []
    dj_order = [ch.name for ch in state.characters]
    order = {name: i for i, group in enumerate(action_groups(state.round_initiative, dj_order))
             for name in group}
    active = [p for p in state.extended if p.status is ExtendedStatus.ACTIVE]
    active.sort(key=lambda p: (order.get(p.owner, len(order)), p.id))
    for progress in active:
        due = progress.duration if progress.mode is ExtendedMode.SIMPLE else progress.interval
        if progress.rounds_counted + 1 >= due:
            # P5: a due TA is built even for someone out; being out is judged when the
            # character's turn comes in this phase (_settle), so a mark made or lifted
            # before then counts.
            progress.rounds_counted += 1
            state.steps.append(Step(id=new_id(state), character=progress.owner,
                                    extended_id=progress.id,
                                    group=order.get(progress.owner, len(order))))
            continue
        if progress.owner in state.out:  # P5: an out character's round does not count
            emit(EventKind.SKIPPED, Msg(N_("{owner} is out: \"{description}\" does not "
                                           "progress this round."),
                                        owner=progress.owner,
                                        description=progress.action.description),
                 actor=progress.owner, rule="P5")
            continue
        progress.rounds_counted += 1
        emit(EventKind.EXTENDED, Msg(N_("{owner}: \"{description}\" {progress}."),
                                     owner=progress.owner,
                                     description=progress.action.description,
                                     progress=progress.progress_msg()),
             actor=progress.owner, rule="E1")
    if not state.steps:
        emit(EventKind.PHASE, N_("No extended TA is due this round."))


def start_extended(state: CombatState, emit: Emitter) -> None:
    """E1: declared extended actions start when the declarations are final."""
    for name in state.declaration_order:
        declaration = state.declaration_of(name)
        if declaration is None:
            continue
        for action in declaration.actions:
            if action.kind is not ActionKind.EXTENDED or action.extended is None:
                continue
            spec = action.extended
            progress = ExtendedProgress(
                id=new_id(state), owner=name, action=action, mode=spec.mode,
                duration=spec.duration, successes_needed=spec.successes,
                interval=spec.interval, gd=action.gd, started_round=state.round)
            state.extended.append(progress)
            plan = (lazy.ngettext("simple: TA after {duration} round",
                                  "simple: TA after {duration} rounds", "duration",
                                  duration=spec.duration)
                    if spec.mode is ExtendedMode.SIMPLE else
                    lazy.ngettext("complex: {successes} successes, a TA every {interval} "
                                  "round", "complex: {successes} successes, a TA every "
                                  "{interval} rounds", "interval",
                                  successes=spec.successes, interval=spec.interval))
            emit(EventKind.EXTENDED, Msg(N_("{name} starts the extended action \"{description}\" "
                                            "({plan})."), name=name,
                                         description=action.description, plan=plan),
                 actor=name, rule="E2" if spec.mode is ExtendedMode.SIMPLE else "E3")


def extended_result(state: CombatState, progress: ExtendedProgress, success: bool,
                     emit: Emitter) -> None:
    progress.attempts += 1
    progress.rounds_counted = 0
    name, what = progress.owner, progress.action.description
    if progress.mode is ExtendedMode.SIMPLE:
        if success:
            progress.status = ExtendedStatus.DONE
            emit(EventKind.EXTENDED, Msg(N_("{name} completes \"{what}\"."),
                                         name=name, what=what), actor=name,
                 rule="E2")
        else:  # E2: failure restarts from the beginning
            emit(EventKind.EXTENDED, lazy.ngettext(
                "{name} fails \"{what}\" and restarts it: {duration} round again; the DJ "
                "may shorten it.", "{name} fails \"{what}\" and restarts it: {duration} "
                "rounds again; the DJ may shorten it.", "duration",
                name=name, what=what, duration=progress.duration),
                 actor=name, rule="E2")
        return
    if success:  # E3: each success is counted
        progress.successes += 1
    if progress.successes >= progress.successes_needed:
        progress.status = ExtendedStatus.DONE
        emit(EventKind.EXTENDED, lazy.ngettext("{name} completes \"{what}\" with {successes} "
                                               "success.", "{name} completes \"{what}\" with "
                                               "{successes} successes.", "successes",
                                               name=name, what=what,
                                               successes=progress.successes),
             actor=name, rule="E3")
    else:
        emit(EventKind.EXTENDED, Msg(N_("{name}: \"{what}\" {successes}/{successes_needed} "
                                        "successes."),
                                     name=name, what=what, successes=progress.successes,
                                     successes_needed=progress.successes_needed),
             actor=name, rule="E3")


def _need_extended(state: CombatState, extended_id: int) -> ExtendedProgress:
    progress = state.extended_by_id(extended_id)
    if progress is None:
        raise SombraError(N_("There is no extended action #{extended_id}."),
                          code="extended.unknown", params={"extended_id": extended_id})
    if progress.status is not ExtendedStatus.ACTIVE:
        raise SombraError(N_("\"{description}\" is already {status}."),
                          code="extended.finished",
                          params={"description": progress.action.description,
                                  "status": progress.status.value})
    return progress


@handles(c.AdjustExtended, label=N_("adjust extended"))
def _adjust_extended(state: CombatState, cmd: c.AdjustExtended, emit: Emitter) -> None:
    progress = _need_extended(state, cmd.extended_id)
    changes: list[Msg] = []
    if cmd.duration is not None:
        if progress.mode is not ExtendedMode.SIMPLE:
            raise SombraError(N_("Only a simple extended action has a duration."),
                              code="extended.no_duration")
        changes.append(Msg(N_("duration {old} -> {new}"), old=progress.duration,
                           new=cmd.duration))
        progress.duration = cmd.duration
    if cmd.successes is not None:
        if progress.mode is not ExtendedMode.COMPLEX:
            raise SombraError(N_("Only a complex extended action counts successes."),
                              code="extended.no_successes")
        changes.append(Msg(N_("successes needed {old} -> {new}"),
                           old=progress.successes_needed, new=cmd.successes))
        progress.successes_needed = cmd.successes
    if cmd.interval is not None:
        if progress.mode is not ExtendedMode.COMPLEX:
            raise SombraError(N_("Only a complex extended action has an interval."),
                              code="extended.no_interval")
        changes.append(Msg(N_("interval {old} -> {new}"), old=progress.interval,
                           new=cmd.interval))
        progress.interval = cmd.interval
    if cmd.gd is not None:
        changes.append(Msg("GD {old} -> {new}", old=format_gd(progress.gd),
                           new=format_gd(cmd.gd)))
        progress.gd = cmd.gd
    if not changes:
        raise SombraError(N_("Nothing to adjust: give a duration, successes, interval or GD."),
                          code="extended.nothing_to_adjust")
    emit(EventKind.EXTENDED, Msg(N_("DJ adjusts {owner}'s \"{description}\": {names}."),
                                 owner=progress.owner, description=progress.action.description,
                                 names=Join(", ", changes)), actor=progress.owner, override=True,
         rule="E2" if progress.mode is ExtendedMode.SIMPLE else "E3")
    if progress.mode is ExtendedMode.COMPLEX and progress.successes >= progress.successes_needed:
        progress.status = ExtendedStatus.DONE
        emit(EventKind.EXTENDED, Msg(N_("{owner} completes \"{description}\"."),
                                     owner=progress.owner,
                                     description=progress.action.description),
             actor=progress.owner, rule="E3")
        # E3: done at once, so its TA still due in this phase is withdrawn.
        for step in state.steps:
            if step.extended_id == progress.id and step.status is StepStatus.PENDING:
                step.status = StepStatus.SKIPPED
                step.skipped_for = "done"
                emit(EventKind.WITHDRAWN, Msg(N_("{owner}'s TA for \"{description}\" "
                                                 "withdrawn: the action is done."),
                                              owner=progress.owner,
                                              description=progress.action.description),
                     actor=progress.owner, rule="E3")
                after_step(state, step, emit)


@handles(c.AbandonExtended, label=N_("abandon extended"))
def _abandon_extended(state: CombatState, cmd: c.AbandonExtended, emit: Emitter) -> None:
    progress = _need_extended(state, cmd.extended_id)
    progress.status = ExtendedStatus.ABANDONED
    for step in state.steps:
        if step.extended_id == progress.id and step.status is StepStatus.PENDING:
            step.status = StepStatus.SKIPPED
            step.skipped_for = "abandoned"
            after_step(state, step, emit)  # P4: it may complete its simultaneous group
    emit(EventKind.EXTENDED, Msg(N_("{owner} abandons \"{description}\"."),
                                 owner=progress.owner,
                                 description=progress.action.description),
         actor=progress.owner, override=True, rule="E1")
