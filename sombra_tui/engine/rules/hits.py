"""Hits and healing on a state (H1, H5-H12): PV, the grades a TA carries (H10),
proposals, hits, healing, wounds and bleeding.

The vocabulary of section H (models and pure arithmetic, no CombatState, no commands)
lives in engine/wounds.py; what decides on a state or handles a command lives here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sombra_tui.engine import commands as c
from sombra_tui.engine.coded import CodedError
from sombra_tui.engine.conditions import (
    MUERTO,
    SANGRANDO,
    ActionScope,
    Condition,
    ConditionSource,
    GradeEntry,
    builtin,
)
from sombra_tui.engine.dice import (
    TAResult,
)
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.i18n import N_, Join, Msg, _, lazy
from sombra_tui.engine.model import (
    Action,
    Character,
)
from sombra_tui.engine.registry import (
    RESOLUTION_PHASES,
    handles,
)
from sombra_tui.engine.rules.conditions import (
    condition_started,
    expire_conditions,
    held_for_group,
)
from sombra_tui.engine.rules.core import Emitter, gender_of, need_character, new_id, set_body
from sombra_tui.engine.rules.marks import mark_now_or_later
from sombra_tui.engine.state import (
    CombatState,
    DeferredHit,
    Phase,
    Proposal,
    ProposalKind,
    Step,
)
from sombra_tui.engine.wounds import (
    Consequences,
    Counters,
    LocatedDamage,
    Wound,
    WoundAssessment,
    apply_damage,
    assess,
    attend,
    bleed_at_end_of_round,
    bleed_point,
    heal_golpe,
    heal_herida,
    lethal_for,
    merge_by_location,
    new_wound,
    pv_for,
    read_hit,
    ta_grades,
    threshold_conditions,
    thresholds,
)


def pv_of(state: CombatState, name: str) -> int:
    """H6: the character's PV (own, or multiplier x Resistencia)."""
    character = need_character(state, name)
    return pv_for(character.resistencia, state.settings.wounds, character.pv)


def action_scope(character: Character, action: Action | None) -> ActionScope:
    """H10: physical with the main arm unless the declaration says otherwise."""
    if action is not None and action.scope is not None:
        return action.scope
    return ActionScope.default(character.main_arm)


def ta_grade_entries(state: CombatState, name: str, scope: ActionScope) -> list[GradeEntry]:
    """H10/C1: the wound and condition grades a TA of `name` with this scope carries now."""
    body = state.body(name)
    if not body.wounds and not body.conditions:
        return []
    # C4: conditions (and, from format version 4, wounds) begun inside the group's turn
    # count only after the group.
    return ta_grades(state.effective_wounds(name), state.effective_conditions(name),
                     state.round, scope)


def _need_proposal(state: CombatState, proposal_id: int, *kinds: ProposalKind) -> Proposal:
    proposal = state.proposal(proposal_id)
    if proposal is None or proposal.kind not in kinds:
        raise CodedError("proposal.unknown", N_("There is no open proposal #{id}."),
                         params={"id": proposal_id})
    return proposal


def propose_hits(state: CombatState, step: Step, action: Action, attacker: str,
                  result: TAResult, emit: Emitter) -> None:
    """H1: a successful attack TA proposes a hit on each target, read from its dice; a
    dodge that names a weapon proposes none (O4: it avoids the attack)."""
    weapon = action.weapon
    if weapon is None or not result.success or (action.is_dodge
                                                 and state.settings.oppositions_v3):
        return
    settings = state.settings.wounds
    damage_type = settings.damage_type(weapon.damage_type)
    in_group = state.phase in RESOLUTION_PHASES and state.group_pending(step.group)
    for name in action.targets:
        target = state.character(name)
        if target is None or name == attacker:
            continue
        reading = None
        if result.dice is not None and not result.unrolled:
            reading = read_hit(result.dice, damage_type, settings,
                               resistencia=target.resistencia, protection=target.protection,
                               weapon=weapon)
        proposal = Proposal(id=new_id(state), kind=ProposalKind.HIT, character=name,
                            attacker=attacker, action=action.description, weapon=weapon,
                            dice=result.dice if reading else None,
                            damage_type=damage_type.id, reading=reading,
                            group=step.group if in_group else None, round=state.round)
        state.proposals.append(proposal)
        where = (Msg(N_("{location} (dS {ds})"), location=Msg(reading.location.label),
                     ds=reading.dice.ds) if reading
                 else Msg(N_("location and damage to give (no dice)")))
        emit(EventKind.PROPOSAL, Msg(N_("{attacker} hits {name} with {weapon}: {where}; the DJ "
                                        "settles the hit."), attacker=attacker,
                                     name=name, weapon=weapon.name, where=where),
             actor=attacker, targets=[name], rule="H1",
             code="hit.proposed",
             data={"proposal": proposal.id, "weapon": weapon.name,
                   "location": reading.location.value if reading else None})


def _hit_assessments(state: CombatState, proposal: Proposal, cmd: c.AcceptHit
                     ) -> tuple[list[WoundAssessment], list[Msg], Msg]:
    """H1-H9 with the DJ's values (H12): the wounds a hit leaves, what the DJ changed,
    and the hit's numbers for the log line."""
    target = need_character(state, proposal.character)
    settings = state.settings.wounds
    assert proposal.damage_type is not None
    damage_type = settings.damage_type(proposal.damage_type)
    reading = proposal.reading
    changed: list[Msg] = []
    if cmd.entries is not None:  # H4: the DJ's (location, damage) list
        entries = merge_by_location(cmd.entries)
        changed.append(Msg(N_("locations and damage")))
    else:
        if reading is None and (cmd.location is None or
                                (cmd.damage is None)):
            raise CodedError("hit.needs_values", N_("The hit on {character} was decided "
                                                    "without dice: give its location and "
                                                    "damage."),
                             params={"character": target.name})
        if reading is not None and reading.needs_damage and cmd.damage is None:
            raise CodedError("hit.needs_damage", N_("Tipo {tipo} has no formula yet: type the "
                                                    "damage."),
                             params={"tipo": damage_type.id}, field="damage")
        location = cmd.location or (reading.location if reading else None)
        assert location is not None
        damage = cmd.damage if cmd.damage is not None else (
            reading.damage.value if reading else None)
        assert damage is not None
        entries = [LocatedDamage(location=location, damage=damage)]
        if reading is not None and cmd.location is not None \
                and cmd.location is not reading.location:
            changed.append(Msg(N_("location {old} -> {new}"),
                               old=Msg(reading.location.label), new=Msg(cmd.location.label)))
        # H3: a damage the tracker asked for (no formula) is the DJ's answer, not a change.
        if reading is not None and cmd.damage is not None \
                and reading.damage.value is not None and cmd.damage != reading.damage.value:
            changed.append(Msg(N_("damage {old} -> {new}"), old=reading.damage.value,
                               new=cmd.damage))
    lethal = lethal_for(damage_type, proposal.weapon, cmd.lethal)
    if reading is not None and cmd.lethal is not None and cmd.lethal != reading.lethal:
        changed.append(Msg(N_("lethal")) if cmd.lethal else Msg(N_("non-lethal")))
    assessments = [assess(entry.location, entry.damage, lethal=lethal,
                          resistencia=target.resistencia, settings=settings,
                          protection=target.protection.get(entry.location, 0),
                          severity=cmd.severity, consequences=cmd.consequences)
                   for entry in entries]
    if cmd.severity is not None and any(a.severity_overridden for a in assessments):
        changed.append(Msg(N_("severity {severity}"), severity=Msg(cmd.severity.label)))
    if cmd.consequences is not None:
        changed.append(Msg(N_("consequences")))
    if reading is not None:
        damage_text = (f"tipo {damage_type.id} {reading.damage.working()}"
                       if reading.damage.formula and reading.damage.raw is not None
                       else f"tipo {damage_type.id}")
        numbers = Msg(N_("dS {ds} -> value {value}; {damage}"), ds=reading.dice.ds,
                      value=reading.location_value, damage=damage_text)
    else:
        numbers = Msg(N_("tipo {tipo}, no dice"), tipo=damage_type.id)
    return assessments, changed, numbers


@dataclass(frozen=True)
class HitPreview:
    """H6: what a hit would do to its target's points, before the DJ settles it."""

    before: Counters
    after: Counters
    pv: int
    #: Each wound the hit makes (one, or tipo IV's several): location, damage after
    #: protection, severity and consequences (H4, H5, H9), the DJ's values applied.
    assessments: tuple[WoundAssessment, ...] = ()


def hit_preview(state: CombatState, proposal: Proposal, edits: c.AcceptHit | None = None
                ) -> HitPreview | None:
    """H6 for the hit dialog: the target's counters before and after the hit, its PV and
    the wounds it makes (their severity and consequences: the dialog shows them as the
    DJ edits the values).

    Without `edits`, the hit as its dice read it (None when they give no damage, H3, or
    there are no dice); with them, the DJ's values through the same code AcceptHit runs
    (H12; refused values raise as AcceptHit would). None if the target has left."""
    if state.character(proposal.character) is None:
        return None
    if edits is None:
        reading = proposal.reading
        if reading is None or reading.assessment is None:
            return None
        assessments = [reading.assessment]
    else:
        assessments = _hit_assessments(state, proposal, edits)[0]
    before = state.body(proposal.character).counters
    after = before
    for assessment in assessments:
        after = apply_damage(after, assessment.damage, assessment.lethal)
    return HitPreview(before=before, after=after, pv=pv_of(state, proposal.character),
                      assessments=tuple(assessments))


def consequence_words(cons: Consequences) -> list[Msg | str]:
    """H9: what a wound does, worded once for the log line and the hit proposal (each a
    phrase, rendered in the language shown): grades, conditions with their asaltos or
    hours, the bleeding and the reminders."""
    words: list[Msg | str] = [Msg(N_("{gd} GD {scope}"), gd=f"{e.gd:+d}",
                                  scope=Msg(e.scope_label())) for e in cons.gd]
    for spec in cons.conditions:
        if spec.name == SANGRANDO and cons.bleed_rate:
            continue  # said with its rate below
        words.append(lazy.ngettext("{name} {count} asalto", "{name} {count} asaltos",
                                   "count", name=spec.name, count=spec.duration)
                     if spec.duration else
                     Msg(N_("{name} ({hours} h)"), name=spec.name, hours=spec.hours)
                     if spec.hours else spec.name)
    if cons.bleed_rate:
        words.append(lazy.ngettext("bleeds 1 point every {rate} asalto until attended",
                                   "bleeds 1 point every {rate} asaltos until attended",
                                   "rate", rate=cons.bleed_rate))
    words += [reminder.words for reminder in cons.reminders]
    return words


def _wound_text(assessment: WoundAssessment) -> Msg:
    """H12: one wound's numbers for the log line (rendered in the DJ's language)."""
    protection = (Msg(N_(" - protection {protection} = {damage}"),
                      protection=assessment.protection, damage=assessment.damage)
                  if assessment.protection else Msg(N_(", no protection")))
    effects = consequence_words(assessment.consequences)
    return Msg(N_("{location}: damage {damage}{protection}, {lethal}; R {resistencia} -> "
                  "{severity}{effects}"), location=Msg(assessment.location.label),
               damage=assessment.damage_in, protection=protection,
               lethal=Msg(N_("lethal")) if assessment.lethal else Msg(N_("non-lethal")),
               resistencia=assessment.resistencia, severity=Msg(assessment.severity.label),
               effects=Msg(N_("; {effects}"), effects=Join(", ", effects))
               if effects else "")


def _apply_hit(state: CombatState, target: str, assessments: list[WoundAssessment],
               cause: str, text: Msg, emit: Emitter, *, override: bool,
               data: dict[str, Any]) -> None:
    """H6-H9, H11: counters, wounds and their conditions; then H7 and H11 proposals."""
    settings = state.settings.wounds
    body = state.body(target)
    before = body.counters
    counters = before
    wounds = list(body.wounds)
    conditions = list(body.conditions)
    started: list[Condition] = []
    for assessment in assessments:
        counters = apply_damage(counters, assessment.damage, assessment.lethal)  # H6
        wound = new_wound(new_id(state), assessment, state.round, cause)  # H8, H9
        wounds.append(wound)
        for spec in assessment.consequences.conditions:  # H9 as conditions (C1)
            condition = spec.start(began=state.round, source=ConditionSource.of_wound(wound.id),
                                   dolor_intenso_gd=settings.dolor_intenso_gd)
            condition = condition.model_copy(update={"id": new_id(state)})
            conditions.append(condition)
            started.append(condition)
    set_body(state, target, counters=counters, wounds=tuple(wounds),
              conditions=tuple(conditions))
    pv = pv_of(state, target)
    emit(EventKind.HIT, Msg(N_("{head}: {wounds}; G {g0} -> {g1}, W {w0} -> {w1} of PV {pv}"
                               "."), head=text,
                            wounds=Join(" | ", [_wound_text(a) for a in assessments]),
                            g0=before.g, g1=counters.g, w0=before.w, w1=counters.w, pv=pv),
         actor=data.get("attacker"), targets=[target],
         override=override, rule="H12", code="hit.applied",
         data={**data, "target": target, "g_before": before.g, "g": counters.g,
               "w_before": before.w, "w": counters.w, "pv": pv,
               "wounds": len(assessments)})
    _hold_wounds(state, target, wounds[len(body.wounds):], emit)
    after_points(state, target, before, counters, emit)
    for condition in started:
        condition_started(state, target, condition, emit)


def _hold_wounds(state: CombatState, name: str, new: list[Wound], emit: Emitter) -> None:
    """C4/H10 (rules_v4): wounds begun on a member of the simultaneous group whose turn
    is in progress weigh on its TAs only after the group (P3, H11)."""
    if not state.settings.rules_v4 or not held_for_group(state, name):
        return
    for wound in new:
        state.held_wounds.append(wound.id)
        if wound.gd:
            emit(EventKind.WOUND, Msg(N_("{name}'s {location} wound weighs on TAs after the "
                                         "simultaneous group."), name=name,
                                      location=Msg(wound.location.label)),
                 actor=name, rule="C4", code="wound.held", data={"id": wound.id})


def after_points(state: CombatState, name: str, before: Counters, after: Counters,
                  emit: Emitter) -> None:
    """H7: reaching PV proposes inconsciente / muerto; points beyond PV are logged."""
    report = thresholds(before, after, pv_of(state, name))
    if report.golpe_over or report.herida_over:
        emit(EventKind.WOUND, Msg(N_("{name} is beyond PV {pv}: G +{g}, W +{w}."),
                                  name=name, pv=report.pv, g=report.golpe_over,
                                  w=report.herida_over),
             actor=name, rule="H7", code="points.over_pv",
             data={"pv": report.pv, "g_over": report.golpe_over,
                   "w_over": report.herida_over})
    names = [spec.name for spec in threshold_conditions(report)]
    if names:  # H7: both at once: muerto first, inconsciente only if the DJ declines it
        propose_threshold(state, name, names[0], tuple(names[1:]), report.pv, emit,
                           len(state.proposals))


def propose_threshold(state: CombatState, name: str, condition: str, then: tuple[str, ...],
                       pv: int, emit: Emitter, position: int) -> None:
    """H7: propose `condition` for `name` (the DJ confirms); `then` follows a decline."""
    which = "W" if condition == MUERTO else "G"
    proposal = Proposal(id=new_id(state), kind=ProposalKind.THRESHOLD, character=name,
                        condition=condition, round=state.round, reason=which, then=then)
    state.proposals.insert(position, proposal)
    emit(EventKind.PROPOSAL, Msg(N_("{name}'s {which} reaches PV {pv}: {condition}? (the "
                                    "DJ confirms)"), name=name, which=which,
                                 pv=pv, condition=condition).about(gender_of(state, name)),
         actor=name, rule="H7", code="threshold.proposed",
         data={"proposal": proposal.id, "condition": condition, "pv": pv})


def proposal_question(proposal: Proposal, gender: str | None = None) -> Msg:
    """H7: "mark {name} inconsciente/muerto?" naming the counter that reached PV, as the
    engine decided it (`propose_threshold` keeps W for muerto, G for inconsciente in
    `reason`); H11: "mark {name} prevented?" naming the condition that prevents."""
    if proposal.kind is ProposalKind.THRESHOLD:
        return Msg(N_("{name}'s {which} has reached PV: mark {name} {condition} (out)?"),
                   name=proposal.character, which=proposal.reason,
                   condition=proposal.condition).about(gender)
    return Msg(N_("{name} is {condition} with a round action pending: mark {name} "
                  "prevented?"), name=proposal.character,
               condition=proposal.condition or proposal.reason).about(gender)


@handles(c.AcceptHit, label=N_("accept hit"))
def _accept_hit(state: CombatState, cmd: c.AcceptHit, emit: Emitter) -> None:
    proposal = _need_proposal(state, cmd.proposal_id, ProposalKind.HIT)
    assessments, changed, numbers = _hit_assessments(state, proposal, cmd)
    state.proposals.remove(proposal)
    attacker = proposal.attacker or "?"
    weapon = proposal.weapon.name if proposal.weapon else ""
    dj = Msg(N_(" [DJ: {changes}]"), changes=Join(", ", changed)) if changed else ""
    text = Msg(N_("{attacker} hits {target} with {weapon}: {numbers}{dj}"), attacker=attacker,
               target=proposal.character, weapon=weapon, numbers=numbers, dj=dj)
    data: dict[str, Any] = {"attacker": attacker, "weapon": weapon,
                            "proposal": proposal.id, "changed": len(changed)}
    if proposal.group is not None and state.phase in RESOLUTION_PHASES \
            and state.group_pending(proposal.group):
        # H11: inside a simultaneous group the wound takes effect after the group (P3).
        state.deferred_hits.append(DeferredHit(
            proposal_id=proposal.id, target=proposal.character, group=proposal.group,
            assessments=tuple(assessments), cause=weapon, text=text))
        emit(EventKind.HIT, Msg(N_("{attacker}'s hit on {target} takes effect after the "
                                   "simultaneous group."), attacker=attacker,
                                target=proposal.character),
             actor=attacker, targets=[proposal.character],
             rule="H11", code="hit.deferred", data={"proposal": proposal.id})
        return
    _apply_hit(state, proposal.character, assessments, weapon, text, emit,
               override=bool(changed), data=data)


def apply_deferred_hits(state: CombatState, emit: Emitter) -> None:
    """H11/P3: the group has acted: its accepted hits apply at once."""
    hits, state.deferred_hits = state.deferred_hits, []
    for hit in hits:
        if state.character(hit.target) is None:
            continue
        _apply_hit(state, hit.target, list(hit.assessments), hit.cause,
                   Msg(N_("{head} (after the simultaneous group)"), head=hit.text), emit,
                   override=False,
                   data={"proposal": hit.proposal_id})


@handles(c.DeclineHit, label=N_("decline hit"))
def _decline_hit(state: CombatState, cmd: c.DeclineHit, emit: Emitter) -> None:
    proposal = _need_proposal(state, cmd.proposal_id, ProposalKind.HIT)
    state.proposals.remove(proposal)
    why = f": {cmd.reason.strip()}" if cmd.reason.strip() else ""
    emit(EventKind.OVERRIDE, Msg(N_("DJ declines {attacker}'s hit on {target}{why}."),
                                 attacker=proposal.attacker, target=proposal.character,
                                 why=why), actor=proposal.attacker,
         targets=[proposal.character], override=True, rule="H1", code="hit.declined",
         data={"proposal": proposal.id, "reason": cmd.reason.strip()})


@handles(c.ConfirmProposal, label=N_("confirm proposal"))
def _confirm_proposal(state: CombatState, cmd: c.ConfirmProposal, emit: Emitter) -> None:
    proposal = _need_proposal(state, cmd.proposal_id, ProposalKind.THRESHOLD,
                              ProposalKind.PREVENT)
    state.proposals.remove(proposal)
    name = proposal.character
    if state.character(name) is None:
        return
    if proposal.kind is ProposalKind.THRESHOLD:
        assert proposal.condition is not None
        condition = builtin(proposal.condition, began=state.round,
                            source=ConditionSource.of_rule("H7"), condition_id=new_id(state))
        body = state.body(name)
        set_body(state, name, conditions=(*body.conditions, condition))
        emit(EventKind.CONDITION, Msg(N_("DJ confirms: {name} is {condition}."),
                                      name=name, condition=condition.name
                                      ).about(gender_of(state, name)), actor=name,
             override=True, rule="H7", code="condition.started",
             data={"condition": condition.name, "id": condition.id})
        condition_started(state, name, condition, emit)
        return
    emit(EventKind.OVERRIDE, Msg(N_("DJ confirms: {name} is prevented ({condition})."),
                                 name=name, condition=proposal.reason
                                 ).about(gender_of(state, name)),
         actor=name, override=True, rule="H11", code="prevent.confirmed",
         data={"condition": proposal.reason})
    phases = (Phase.INSTANT, Phase.ROUND) if state.settings.rules_v4 else (Phase.ROUND,)
    if state.settings.rules_v4:  # H11: prevented answers every open question about it
        state.proposals = [p for p in state.proposals
                           if not (p.kind is ProposalKind.PREVENT and p.character == name)]
    if name not in state.prevented and state.phase in phases:
        mark_now_or_later(state, name, c.Mark.PREVENTED, emit)


@handles(c.DeclineProposal, label=N_("decline proposal"))
def _decline_proposal(state: CombatState, cmd: c.DeclineProposal, emit: Emitter) -> None:
    proposal = _need_proposal(state, cmd.proposal_id, ProposalKind.THRESHOLD,
                              ProposalKind.PREVENT)
    position = state.proposals.index(proposal)
    state.proposals.remove(proposal)
    if proposal.kind is ProposalKind.PREVENT and proposal.condition_id is not None:
        # H11 (rules_v4): the round action stands against this condition, and only it.
        state.excused.append(proposal.condition_id)
    elif proposal.kind is ProposalKind.PREVENT \
            and proposal.character not in state.acts_despite:
        state.acts_despite.append(proposal.character)  # H11: the round action stands
    what = proposal.condition if proposal.kind is ProposalKind.THRESHOLD else "prevented"
    # H7: the condition agrees with the character ("muerta" for Ana), as in the question.
    text = (Msg(N_("DJ declines {condition} for {name}."), condition=proposal.condition,
                name=proposal.character).about(gender_of(state, proposal.character))
            if proposal.kind is ProposalKind.THRESHOLD
            else Msg(N_("DJ declines {what} for {name}."), what=Msg(N_("prevented")),
                     name=proposal.character))
    emit(EventKind.OVERRIDE, text, actor=proposal.character, override=True,
         rule="H7" if proposal.kind is ProposalKind.THRESHOLD else "H11",
         code="proposal.declined", data={"proposal": proposal.id, "what": what})
    if proposal.then and state.character(proposal.character) is not None:
        # H7: muerto declined after one change brought G and W to PV: inconsciente next.
        propose_threshold(state, proposal.character, proposal.then[0], proposal.then[1:],
                           pv_of(state, proposal.character), emit, position)


@handles(c.ManualHit, label=N_("hit by hand"))
def _manual_hit(state: CombatState, cmd: c.ManualHit, emit: Emitter) -> None:
    target = need_character(state, cmd.character)
    settings = state.settings.wounds
    protection = (cmd.protection if cmd.protection is not None
                  else target.protection.get(cmd.location, 0))
    assessment = assess(cmd.location, cmd.damage, lethal=cmd.lethal,
                        resistencia=target.resistencia, settings=settings,
                        protection=protection, severity=cmd.severity,
                        consequences=cmd.consequences)
    cause = cmd.cause.strip()
    # No cause typed: the log says so in the language shown, not the one in force now.
    said: str | Msg = cause or Msg(N_("a hit entered by the DJ"))
    _apply_hit(state, target.name, [assessment], cause,
               Msg(N_("DJ enters a hit on {name} ({cause})"), name=target.name, cause=said),
               emit, override=True,
               data={"cause": cause})


@handles(c.Heal, label=N_("heal"))
def _heal(state: CombatState, cmd: c.Heal, emit: Emitter) -> None:
    need_character(state, cmd.character)
    before = state.body(cmd.character).counters
    after = (heal_herida(before, cmd.points) if cmd.kind is c.HealKind.HERIDA
             else heal_golpe(before, cmd.points))
    if after == before:
        raise CodedError("heal.nothing", N_("{character} has no {kind} points to heal "
                                            "({counters})."),
                         params={"character": cmd.character, "kind": cmd.kind.value,
                                 "counters": str(before)}, field="points")
    set_body(state, cmd.character, counters=after)
    emit(EventKind.WOUND, lazy.ngettext("DJ heals {name} {points} {kind} point: G {g0} -> {g1}, "
                                        "W {w0} -> {w1}.", "DJ heals {name} {points} {kind} "
                                        "points: G {g0} -> {g1}, W {w0} -> {w1}.", "points",
                                        name=cmd.character,
                                        points=cmd.points, kind=cmd.kind.value, g0=before.g,
                                        g1=after.g, w0=before.w, w1=after.w),
         actor=cmd.character,
         override=True, rule="H12", code="points.healed",
         data={"kind": cmd.kind.value, "points": cmd.points, "g_before": before.g,
               "g": after.g, "w_before": before.w, "w": after.w})


def _need_wound(state: CombatState, name: str, wound_id: int) -> Wound:
    need_character(state, name)
    wound = state.body(name).wound(wound_id)
    if wound is None:
        raise CodedError("wound.unknown", N_("{character} has no wound #{id}."),
                         params={"character": name, "id": wound_id})
    return wound


@handles(c.AttendWound, label=N_("attend wound"))
def _attend_wound(state: CombatState, cmd: c.AttendWound, emit: Emitter) -> None:
    wound = _need_wound(state, cmd.character, cmd.wound_id)
    if wound.attended:
        raise CodedError("wound.attended", N_("{character}'s {location} wound is already "
                                              "attended."),
                         params={"character": cmd.character,
                                 "location": _(wound.location.label)})
    body = state.body(cmd.character)
    wounds = tuple(attend(w) if w.id == wound.id else w for w in body.wounds)
    conditions = tuple(cond for cond in body.conditions
                       if not (cond.name == SANGRANDO and cond.source.wound_id == wound.id))
    set_body(state, cmd.character, wounds=wounds, conditions=conditions)
    emit(EventKind.WOUND, Msg(N_("DJ attends {name}'s {location} wound: it stops bleeding"
                                 "."), name=cmd.character,
                              location=Msg(wound.location.label)),
         actor=cmd.character, override=True, rule="H12",
         code="wound.attended", data={"id": wound.id, "location": wound.location.value})


@handles(c.EditWound, label=N_("edit wound"))
def _edit_wound(state: CombatState, cmd: c.EditWound, emit: Emitter) -> None:
    old = _need_wound(state, cmd.character, cmd.wound.id)
    body = state.body(cmd.character)
    set_body(state, cmd.character,
              wounds=tuple(cmd.wound if w.id == old.id else w for w in body.wounds))
    emit(EventKind.WOUND, Msg(N_("DJ edits {name}'s {old} wound: {location} {damage}, "
                                 "{severity}{attended}."), name=cmd.character,
                              old=Msg(old.location.label), location=Msg(cmd.wound.location.label),
                              damage=cmd.wound.damage, severity=Msg(cmd.wound.severity.label),
                              attended=Msg(N_(", attended")) if cmd.wound.attended else ""),
         actor=cmd.character,
         override=True, rule="H12", code="wound.edited", data={"id": old.id})


@handles(c.RemoveWound, label=N_("remove wound"))
def _remove_wound(state: CombatState, cmd: c.RemoveWound, emit: Emitter) -> None:
    wound = _need_wound(state, cmd.character, cmd.wound_id)
    body = state.body(cmd.character)
    set_body(state, cmd.character, wounds=tuple(w for w in body.wounds if w.id != wound.id))
    emit(EventKind.WOUND, Msg(N_("DJ removes {name}'s {location} wound."),
                              name=cmd.character, location=Msg(wound.location.label)),
         actor=cmd.character, override=True, rule="H12", code="wound.removed",
         data={"id": wound.id})


@handles(c.SetCounters, label=N_("set points"))
def _set_counters(state: CombatState, cmd: c.SetCounters, emit: Emitter) -> None:
    need_character(state, cmd.character)
    if cmd.w > cmd.g:
        raise CodedError("points.w_over_g", N_("W ({w}) cannot exceed G ({g}): each herida "
                                               "point carries a golpe point."),
                         params={"g": cmd.g, "w": cmd.w}, field="w")
    before = state.body(cmd.character).counters
    after = Counters(g=cmd.g, w=cmd.w)
    if after == before:
        raise CodedError("points.unchanged", N_("{character} already has {counters}."),
                         params={"character": cmd.character, "counters": str(before)})
    set_body(state, cmd.character, counters=after)
    emit(EventKind.WOUND, Msg(N_("DJ sets {name}'s points: G {g0} -> {g1}, W {w0} -> {w1}"
                                 "."), name=cmd.character, g0=before.g, g1=after.g,
                              w0=before.w, w1=after.w),
         actor=cmd.character, override=True, rule="H12",
         code="points.set", data={"g_before": before.g, "g": after.g, "w_before": before.w,
                                  "w": after.w})
    after_points(state, cmd.character, before, after, emit)


def end_of_round_bodies(state: CombatState, emit: Emitter) -> None:
    """H9 then C3 at the end of the round (after the extended phase, P6): each
    unattended bleeding wound counts the round and may lose a point; then the
    conditions whose last round this is end (a condition ending now still covered it)."""
    settings = state.settings.wounds
    for name in list(state.bodies):
        if state.character(name) is None:
            continue
        body = state.bodies[name]
        counters = body.counters
        wounds: list[Wound] = []
        changed = False
        for wound in body.wounds:
            tick = bleed_at_end_of_round(wound, state.round) if settings.bleeding \
                else None
            if tick is None:
                wounds.append(wound)
                continue
            wounds.append(tick.wound)
            changed = changed or tick.wound != wound
            if tick.point_lost:
                before = counters
                counters = bleed_point(counters, settings)
                emit(EventKind.WOUND, lazy.ngettext(
                    "{name} bleeds 1 point ({location}, {severity}, every {rate} asalto): G "
                    "{g0} -> {g1}, W {w0} -> {w1}.",
                    "{name} bleeds 1 point ({location}, {severity}, every {rate} asaltos): G "
                    "{g0} -> {g1}, W {w0} -> {w1}.", "rate", name=name,
                    location=Msg(wound.location.label), severity=Msg(wound.severity.label),
                    rate=wound.bleed_rate, g0=before.g, g1=counters.g, w0=before.w,
                    w1=counters.w),
                     actor=name, rule="H9", code="wound.bled",
                     data={"id": wound.id, "location": wound.location.value,
                           "rate": wound.bleed_rate, "g_before": before.g, "g": counters.g,
                           "w_before": before.w, "w": counters.w})
                state.bodies[name] = body.model_copy(update={"counters": counters})
                after_points(state, name, before, counters, emit)
        if changed:
            state.bodies[name] = state.bodies[name].model_copy(
                update={"wounds": tuple(wounds), "counters": counters})
    expire_conditions(state, emit)
