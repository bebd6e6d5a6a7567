"""The party goes on (issue 38): a new encounter from the end of this one.

`carry_on` builds the new Encounter: the chosen characters (the PCs unless the DJ picks
others) with their sheets and weapons, and, as `Encounter.carried`, their G and W, wounds
(bleeding clocks and attended marks) and conditions with the asaltos or hours left. The
DJ may say how many asaltos passed between the scenes (or minutes, with the length of an
asalto): H9's bleeding and C3's durations run over them with the machine's own functions
(wounds.bleed_at_end_of_round, bleed_point, conditions.end_of_round), and what they did
is returned to be shown before anything is applied, and logged when the new combat
starts. No rule of its own: H7's thresholds reached in the time between are said, and
left to the DJ, as during a combat.

Rounds are counted from the new encounter's: the first asalto to come in the old one
(forecast.first_round_ahead) becomes round 1 when no time passed, so a wound or a
condition goes on exactly where it was; whatever began before becomes round 0 ("begun
before round 1 counts from round 1", C3). Ids are given anew from 1 (the new encounter's
own count goes on after them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from sombra_tui.engine.conditions import Condition, end_of_round
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.forecast import first_round_ahead
from sombra_tui.engine.frozen import trusted
from sombra_tui.engine.i18n import N_, Msg, lazy, text_data
from sombra_tui.engine.model import (
    MAX_ASALTOS_BETWEEN,
    Carried,
    CarriedBody,
    Encounter,
    Settings,
    Side,
)
from sombra_tui.engine.state import Body, CombatState
from sombra_tui.engine.wounds import (
    Counters,
    Wound,
    bleed_at_end_of_round,
    bleed_point,
    pv_for,
    threshold_conditions,
    thresholds,
)

SECONDS_PER_HOUR = 3600


@dataclass(frozen=True)
class CarryPlan:
    """The new encounter, and what the time between did (to show the DJ first)."""

    encounter: Encounter
    passed: int
    changes: tuple[Msg, ...]


def party(state: CombatState) -> list[str]:
    """The characters carried on unless the DJ picks others: the PCs."""
    return [ch.name for ch in state.characters if ch.side is Side.PC]


def asaltos_in(minutes: int, settings: Settings) -> int:
    """Whole asaltos in `minutes`, with the encounter's length of an asalto."""
    if settings.asalto_seconds is None:
        raise SombraError(N_("Say how long an asalto lasts (in seconds) to count the time "
                             "between in minutes."), code="carry.no_asalto_length",
                          field="asalto_seconds")
    if minutes < 0:
        raise SombraError(N_("The time between cannot be negative."),
                          code="carry.negative", field="minutes")
    return minutes * 60 // settings.asalto_seconds


def carry_on(state: CombatState, names: Sequence[str] | None = None, *, asaltos: int = 0,
             minutes: int | None = None, asalto_seconds: int | None = None,
             name: str | None = None, seed: int = 0) -> CarryPlan:
    """A new encounter with `names` (default: the PCs) as the combat's `state` leaves
    them, after `asaltos` (or `minutes`) between the scenes; its dice from `seed`.
    SombraError names what is wrong."""
    chosen = party(state) if names is None else list(names)
    unknown = [n for n in chosen if state.character(n) is None]
    if unknown:
        raise SombraError(N_("No character is called {name}."), code="carry.unknown",
                          params={"name": unknown[0]}, field="names")
    if not chosen:
        raise SombraError(N_("Choose at least one character to carry on."),
                          code="carry.nobody", field="names")
    settings = state.settings.model_copy(update={
        "oppositions_v3": True, "rules_v4": True,  # a new encounter reads today's rules
        **({"asalto_seconds": asalto_seconds} if asalto_seconds is not None else {})})
    passed = asaltos_in(minutes, settings) if minutes is not None else asaltos
    if not 0 <= passed <= MAX_ASALTOS_BETWEEN:
        raise SombraError(N_("The time between must be from 0 to {max}, counted in "
                             "asaltos."), code="carry.too_long",
                          params={"max": MAX_ASALTOS_BETWEEN}, field="asaltos")
    first = first_round_ahead(state)
    changes: list[Msg] = []
    bodies: dict[str, CarriedBody] = {}
    ids = iter(range(1, 1_000_000))
    for who in chosen:
        body = state.body(who)
        counters, wounds, conditions = _between(state, who, body, first, passed, settings,
                                                changes)
        bodies[who] = _rebased(wounds, conditions, counters, first - 1 + passed, ids)
    characters = [state.character(n) for n in chosen]
    encounter = Encounter(
        name=name or state.name, settings=settings,
        characters=[ch for ch in characters if ch is not None],
        seed=seed,
        carried=Carried(source=state.name, asaltos=state.round, passed=passed,
                        bodies=bodies, said=tuple(text_data(m) for m in changes)))
    return CarryPlan(encounter=encounter, passed=passed, changes=tuple(changes))


def _between(state: CombatState, who: str, body: Body, first: int, passed: int,
             settings: Settings, changes: list[Msg]
             ) -> tuple[Counters, list[Wound], list[Condition]]:
    """H9 and C3 over the asaltos between, first .. first + passed - 1, as the end of
    each round runs them (rules/hits.end_of_round_bodies, rules/conditions.expire)."""
    counters = body.counters
    wounds = list(body.wounds)
    conditions = list(body.conditions)
    lost = [0] * len(wounds)
    bleeding = settings.wounds.bleeding
    for round_ in range(first, first + passed):
        for index, wound in enumerate(wounds):
            if not bleeding or not wound.bleeding:
                continue
            tick = bleed_at_end_of_round(wound, round_)
            wounds[index] = tick.wound
            if tick.point_lost:
                counters = bleed_point(counters, settings.wounds)
                lost[index] += 1
        expiry = end_of_round(conditions, round_)
        for condition in expiry.expired:
            changes.append(Msg(N_("{name}'s {condition} ends in the time between."),
                               name=who, condition=condition.name))
        conditions = list(expiry.kept)
    for wound, points in zip(wounds, lost, strict=True):
        if points:
            changes.append(lazy.ngettext(
                "{name} bleeds {count} point in the time between ({location}).",
                "{name} bleeds {count} points in the time between ({location}).", "count",
                name=who, count=points, location=Msg(wound.location.label)))
    conditions = _hours(who, conditions, passed, settings, changes)
    if counters != body.counters:
        changes.append(Msg(N_("{name}: G {g0} -> {g1}, W {w0} -> {w1}."), name=who,
                           g0=body.counters.g, g1=counters.g, w0=body.counters.w,
                           w1=counters.w))
        report = thresholds(body.counters, counters, _pv(state, who))
        for spec in threshold_conditions(report):  # H7: the DJ decides, as in combat
            changes.append(Msg(N_("{name} reaches PV {pv}: {condition}? (the DJ decides)"),
                               name=who, pv=report.pv, condition=spec.name))
    return counters, wounds, conditions


def _pv(state: CombatState, who: str) -> int:
    """H6: the character's PV (its own, or the multiplier times its Resistencia)."""
    character = state.character(who)
    assert character is not None
    return pv_for(character.resistencia, state.settings.wounds, character.pv)


def _hours(who: str, conditions: list[Condition], passed: int, settings: Settings,
           changes: list[Msg]) -> list[Condition]:
    """H9: a condition of hours (a grave head wound's inconsciente) counts the time
    between when the length of an asalto is known; once its hours are over it ends."""
    if settings.asalto_seconds is None or not passed:
        return conditions
    elapsed = passed * settings.asalto_seconds
    kept: list[Condition] = []
    for condition in conditions:
        if condition.hours is None or condition.permanent:
            kept.append(condition)
            continue
        left = condition.hours * SECONDS_PER_HOUR - elapsed
        if left <= 0:
            changes.append(Msg(N_("{name}'s {condition} ends in the time between (its "
                                  "{hours} h are over)."), name=who,
                               condition=condition.name, hours=condition.hours))
            continue
        hours = -(-left // SECONDS_PER_HOUR)
        if hours != condition.hours:
            changes.append(Msg(N_("{name}'s {condition}: {old} h -> {new} h."), name=who,
                               condition=condition.name, old=condition.hours, new=hours))
        kept.append(condition.model_copy(update={"hours": hours}))
    return kept


def _rebased(wounds: list[Wound], conditions: list[Condition], counters: Counters,
             offset: int, ids: Iterator[int]) -> CarriedBody:
    """The body in the new encounter's rounds (old round r -> r - offset, at least 0)
    and new ids (a condition of a wound follows its wound)."""
    renumbered: dict[int, int] = {}
    new_wounds: list[Wound] = []
    for wound in wounds:
        renumbered[wound.id] = next(ids)
        new_wounds.append(wound.model_copy(update={
            "id": renumbered[wound.id], "round": max(0, wound.round - offset)}))
    new_conditions: list[Condition] = []
    for condition in conditions:
        began = max(0, condition.began - offset)
        duration = condition.duration
        if condition.last_round is not None:
            last = condition.last_round - offset
            if last < 1:
                continue  # over (C3); ended in the time between, said there
            duration = last - began
        source = condition.source
        if source.wound_id is not None and source.wound_id in renumbered:
            source = source.model_copy(update={"wound_id": renumbered[source.wound_id]})
        new_conditions.append(condition.model_copy(update={
            "id": next(ids), "began": began, "duration": duration,
            "source": source}))
    return CarriedBody(counters=counters, wounds=tuple(new_wounds),
                       conditions=tuple(new_conditions))


def apply_carried(state: CombatState, carried: Carried) -> None:
    """machine.initial_state: the carried bodies on the encounter's characters; out for
    those an out condition keeps out (C4, P4: lifted when it ends, or by the DJ); the
    ids go on after theirs."""
    top = 0
    for name, body in carried.bodies.items():
        if state.character(name) is None:
            continue
        state.bodies[name] = trusted(Body, counters=body.counters, wounds=body.wounds,
                                     conditions=body.conditions)
        # Every carried condition is in effect from the start (those over were left).
        if any(c.effects.out for c in body.conditions) and name not in state.out:
            state.out.append(name)
        top = max([top, *(w.id for w in body.wounds), *(c.id for c in body.conditions)])
    state.next_id = max(state.next_id, top + 1)
    state.carried = carried


def joined_body(state: CombatState, body: CarriedBody, next_id: Callable[[], int]) -> Body:
    """A carried body joining this encounter (the import, issue 38): its rounds counted
    from the first asalto to come here (round 1 there is that asalto: C3 and H9 go on
    where they were), its ids this encounter's own (a condition follows its wound)."""
    shift = first_round_ahead(state) - 1
    renumbered: dict[int, int] = {}
    wounds: list[Wound] = []
    for wound in body.wounds:
        renumbered[wound.id] = next_id()
        wounds.append(wound.model_copy(update={"id": renumbered[wound.id],
                                               "round": wound.round + shift}))
    conditions: list[Condition] = []
    for condition in body.conditions:
        source = condition.source
        if source.wound_id is not None and source.wound_id in renumbered:
            source = source.model_copy(update={"wound_id": renumbered[source.wound_id]})
        conditions.append(condition.model_copy(update={
            "id": next_id(), "began": condition.began + shift, "source": source}))
    return trusted(Body, counters=body.counters, wounds=tuple(wounds),
                   conditions=tuple(conditions))


def carried_bodies(state: CombatState) -> dict[str, CarriedBody]:
    """What each character of `state` would bring on with no time between (the import
    of a finished encounter offers it): those with points, wounds or conditions."""
    names = [ch.name for ch in state.characters if state.bodies.get(ch.name) is not None]
    if not names:
        return {}
    carried = carry_on(state, names).encounter.carried
    assert carried is not None
    return {name: body for name, body in carried.bodies.items()
            if body.wounds or body.conditions or body.counters.g}
