"""The combat report (issue 38): what a finished (or paused) combat leaves, read from its
history. The engine's read side, no rule of its own.

Who fought and on which side, how many asaltos, each character's TAs and their outcome
(T4: quality level, criticals and fumbles), the hits dealt and taken by location and
severity (H2, H8), the wounds and conditions at the end (H9, C1), the bleeding still
running and its next point lost (H9, by `forecast.next_bleeding`), who is out (P4) and
the key moments (a kill, an inconsciente, a prevented action) with their asalto.

The history is replayed once more, command by command, with the machine's own `apply`:
the wounds and conditions each command leaves are read from the state it gives (a hit's
log line names no wound ids), so nothing here re-derives a rule. Words are msgids and
`Msg`s, rendered in the DJ's language by whoever writes the report out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from sombra_tui.engine import machine
from sombra_tui.engine.ask import pv as pv_of
from sombra_tui.engine.conditions import INCONSCIENTE, MUERTO, counted_from
from sombra_tui.engine.dice import Quality, Rank, TAResult
from sombra_tui.engine.events import EventKind, LogEvent
from sombra_tui.engine.forecast import first_round_ahead, next_bleeding
from sombra_tui.engine.i18n import N_, Msg
from sombra_tui.engine.model import Side
from sombra_tui.engine.state import CombatState, Phase
from sombra_tui.engine.wounds import Location, Severity

if TYPE_CHECKING:
    from sombra_tui.engine.history import Combat

#: The TA outcomes in T4's order, best first, with their names (msgids).
RANK_NAMES: dict[Rank, str] = {
    Rank.EXITO_ALTO: N_("high success (critical)"),
    Rank.EXITO_MEDIO: N_("medium success"),
    Rank.EXITO_BAJO: N_("low success"),
    Rank.EXITO: N_("success"),
    Rank.FRACASO_BAJO: N_("low failure"),
    Rank.FRACASO_MEDIO: N_("medium failure"),
    Rank.FRACASO_ALTO: N_("high failure (fumble)"),
    Rank.FRACASO: N_("failure"),
}
RANK_ORDER: tuple[Rank, ...] = tuple(RANK_NAMES)


class MomentKind(StrEnum):
    KILLED = "killed"  # muerto (C2, H7)
    UNCONSCIOUS = "unconscious"  # inconsciente (H7, H9)
    PREVENTED = "prevented"  # P4, H11
    OUT = "out"  # P4, by the DJ's hand
    CRITICAL = "critical"  # T4: éxito alto
    FUMBLE = "fumble"  # T4: fracaso alto


@dataclass(frozen=True)
class ActionLine:
    """One TA of a character: its log line and its result (T2, T4)."""

    round: int
    what: Msg
    ta: TAResult

    @property
    def rank(self) -> Rank:
        return self.ta.rank

    @property
    def rank_name(self) -> str:
        """The outcome's name (a msgid), or the DJ's decision without a roll."""
        if self.ta.unrolled:
            return (N_("accepted without a roll (success)") if self.ta.success
                    else N_("accepted without a roll (failure)"))
        return RANK_NAMES[self.rank]


@dataclass(frozen=True)
class HitLine:
    """One wound a hit left (H1-H8): who dealt it, on whom, where and how bad."""

    round: int
    attacker: str | None
    target: str
    weapon: str
    location: Location
    damage: int
    lethal: bool
    severity: Severity


@dataclass(frozen=True)
class WoundLine:
    """A wound at the end (H8, H9): its bleeding and the asalto of its next lost point."""

    location: Location
    severity: Severity
    damage: int
    lethal: bool
    round: int
    cause: str
    bleeding: bool
    attended: bool
    bled: int
    bleed_rate: int | None
    next_bleed: int | None


@dataclass(frozen=True)
class ConditionLine:
    """A condition at the end (C1, C3): asaltos still to come, hours, or until removed."""

    name: str
    rounds_left: int | None
    hours: int | None
    permanent: bool


@dataclass(frozen=True)
class Moment:
    round: int
    kind: MomentKind
    character: str
    what: Msg


@dataclass(frozen=True)
class CharacterReport:
    name: str
    side: Side
    gender: str
    pv: int
    g: int
    w: int
    out: bool
    actions: tuple[ActionLine, ...] = ()
    hits_dealt: tuple[HitLine, ...] = ()
    hits_taken: tuple[HitLine, ...] = ()
    wounds: tuple[WoundLine, ...] = ()
    conditions: tuple[ConditionLine, ...] = ()

    def tally(self) -> list[tuple[Rank, int]]:
        """How many of its TAs gave each outcome (T4), best first, only those seen."""
        counts: dict[Rank, int] = {}
        for action in self.actions:
            if not action.ta.unrolled:
                counts[action.rank] = counts.get(action.rank, 0) + 1
        return [(rank, counts[rank]) for rank in RANK_ORDER if rank in counts]

    @property
    def bleeding(self) -> tuple[WoundLine, ...]:
        return tuple(wound for wound in self.wounds if wound.bleeding)


class TimelineKind(StrEnum):
    ACTION = "action"
    HIT = "hit"
    BLEED = "bleed"
    CONDITION = "condition"
    MOMENT = "moment"


@dataclass(frozen=True)
class TimelineItem:
    round: int
    kind: TimelineKind
    character: str | None
    what: Msg
    ta: TAResult | None = None


@dataclass(frozen=True)
class CombatReport:
    name: str
    #: Asaltos begun (0: the combat never started); `finished`: the last one has ended.
    asaltos: int
    finished: bool
    characters: tuple[CharacterReport, ...]
    moments: tuple[Moment, ...]
    timeline: tuple[TimelineItem, ...] = field(default=())

    def character(self, name: str) -> CharacterReport | None:
        return next((ch for ch in self.characters if ch.name == name), None)

    def rounds(self) -> list[tuple[int, list[TimelineItem]]]:
        """The timeline by asalto, in order."""
        found: dict[int, list[TimelineItem]] = {}
        for item in self.timeline:
            found.setdefault(item.round, []).append(item)
        return sorted(found.items())


def message_of(event: LogEvent) -> Msg:
    """The event's words as a Msg (rendered in the language in force when shown)."""
    message = Msg(event.template, event.params)
    message.context, message.plural, message.counter = (event.context, event.plural,
                                                         event.counter)
    return message


def hit_words(hit: HitLine) -> Msg:
    """A hit in a few words: who, whom, where, how bad (H2, H8), the damage."""
    lethal = Msg(N_("lethal")) if hit.lethal else Msg(N_("non-lethal"))
    if hit.attacker is None:
        return Msg(N_("{target} is wounded: {location}, {severity} ({damage}, {lethal})"),
                   target=hit.target, location=Msg(hit.location.label),
                   severity=Msg(hit.severity.label), damage=hit.damage, lethal=lethal)
    return Msg(N_("{attacker} hits {target}: {location}, {severity} ({damage}, {lethal})"),
               attacker=hit.attacker, target=hit.target, location=Msg(hit.location.label),
               severity=Msg(hit.severity.label), damage=hit.damage, lethal=lethal)


class _Reader:
    """Collects the report while the history is replayed, command by command."""

    def __init__(self, state: CombatState) -> None:
        self.state = state
        self.actions: dict[str, list[ActionLine]] = {}
        self.hits: list[HitLine] = []
        self.moments: list[Moment] = []
        self.timeline: list[TimelineItem] = []
        self.wound_ids: dict[str, set[int]] = {}
        self.condition_ids: dict[str, set[int]] = {}
        self.out: set[str] = set()
        self.prevented: set[str] = set()
        #: H1: who proposed each hit (a hit applied after its group names no attacker).
        self.proposers: dict[str, str] = {}

    def read(self, events: list[LogEvent]) -> None:
        state = self.state
        for event in events:
            if event.code == "hit.proposed" and event.actor is not None:
                self.proposers[str(event.data.get("proposal"))] = event.actor
        attackers = {str(e.data.get("target")): self.proposers.get(
            str(e.data.get("proposal")), e.actor) for e in events if e.code == "hit.applied"}
        for event in events:
            self._event(event)
        for name, body in state.bodies.items():
            known = self.wound_ids.setdefault(name, set())
            for wound in body.wounds:
                if wound.id in known:
                    continue
                known.add(wound.id)
                line = HitLine(round=state.round, attacker=attackers.get(name), target=name,
                               weapon=wound.cause, location=wound.location,
                               damage=wound.damage, lethal=wound.lethal,
                               severity=wound.severity)
                self.hits.append(line)
                self.timeline.append(TimelineItem(state.round, TimelineKind.HIT, name,
                                                  hit_words(line)))
            seen = self.condition_ids.setdefault(name, set())
            for condition in body.conditions:
                if condition.id in seen:
                    continue
                seen.add(condition.id)
                if condition.name in (MUERTO, INCONSCIENTE):
                    kind = MomentKind.KILLED if condition.name == MUERTO \
                        else MomentKind.UNCONSCIOUS
                    self._moment(kind, name, Msg(N_("{name} is {condition}."), name=name,
                                                 condition=condition.name
                                                 ).about(self._gender(name)))
        for name in state.prevented:
            if name not in self.prevented:
                self._moment(MomentKind.PREVENTED, name, Msg(
                    N_("{name} is prevented{after}: the round action is cancelled."), name=name,
                    after=""
                ).about(self._gender(name)))
        self.prevented = set(state.prevented)
        for name in state.out:
            if name not in self.out and not self._out_by_condition(name):
                self._moment(MomentKind.OUT, name, Msg(N_("{name} is out of the combat."),
                                                       name=name))
        self.out = set(state.out)

    def _out_by_condition(self, name: str) -> bool:
        body = self.state.bodies.get(name)
        return body is not None and any(c.effects.out for c in body.conditions)

    def _gender(self, name: str) -> str | None:
        character = self.state.character(name)
        return character.gender.value if character else None

    def _moment(self, kind: MomentKind, name: str, what: Msg) -> None:
        round_ = self.state.round
        self.moments.append(Moment(round_, kind, name, what))
        self.timeline.append(TimelineItem(round_, TimelineKind.MOMENT, name, what))

    def _event(self, event: LogEvent) -> None:
        if event.ta is not None and event.actor is not None and event.kind in (
                EventKind.TA, EventKind.REACTION, EventKind.EXTENDED, EventKind.OPPOSED):
            what = message_of(event)
            self.actions.setdefault(event.actor, []).append(
                ActionLine(event.round, what, event.ta))
            self.timeline.append(TimelineItem(event.round, TimelineKind.ACTION, event.actor,
                                              what, event.ta))
            if event.ta.quality is Quality.ALTO and not event.ta.unrolled:
                kind = MomentKind.CRITICAL if event.ta.success else MomentKind.FUMBLE
                words = (N_("{name}: a critical ({what})") if event.ta.success
                         else N_("{name}: a fumble ({what})"))
                self.moments.append(Moment(event.round, kind, event.actor,
                                           Msg(words, name=event.actor, what=what)))
        elif event.code == "wound.bled":
            self.timeline.append(TimelineItem(event.round, TimelineKind.BLEED, event.actor,
                                              message_of(event)))
        elif event.kind is EventKind.CONDITION and event.code in (
                "condition.started", "condition.expired", "condition.removed") \
                and event.data.get("condition") not in (MUERTO, INCONSCIENTE):  # moments
            self.timeline.append(TimelineItem(event.round, TimelineKind.CONDITION,
                                              event.actor, message_of(event)))


def combat_report(combat: Combat) -> CombatReport:
    """The report of `combat` as its history leaves it (issue 38)."""
    reader = _Reader(machine.initial_state(combat.encounter))
    for command in combat.commands:
        reader.read(machine.apply(reader.state, command))
    state = combat.state  # the combat's own: the same the replay gives (S1)
    return CombatReport(
        name=state.name, asaltos=state.round,
        finished=state.phase is Phase.END_OF_ROUND,
        characters=tuple(_character(state, reader, ch.name) for ch in state.characters),
        moments=tuple(reader.moments), timeline=tuple(reader.timeline))


def _character(state: CombatState, reader: _Reader, name: str) -> CharacterReport:
    character = state.character(name)
    assert character is not None
    body = state.body(name)
    first = first_round_ahead(state)
    over = state.phase is Phase.END_OF_ROUND
    bleeding_on = state.settings.wounds.bleeding
    wounds = tuple(WoundLine(
        location=wound.location, severity=wound.severity, damage=wound.damage,
        lethal=wound.lethal, round=wound.round, cause=wound.cause,
        bleeding=wound.bleeding and bleeding_on, attended=wound.attended, bled=wound.bled,
        bleed_rate=wound.bleed_rate,
        next_bleed=next_bleeding(wound, first) if bleeding_on else None)
        for wound in body.wounds)
    conditions = tuple(ConditionLine(
        name=condition.name,
        rounds_left=condition.rounds_left(counted_from(state.round, over)),
        hours=condition.hours, permanent=condition.permanent)
        for condition in body.conditions)
    return CharacterReport(
        name=name, side=character.side, gender=character.gender.value,
        pv=pv_of(state, name), g=body.counters.g, w=body.counters.w,
        out=name in state.out, actions=tuple(reader.actions.get(name, ())),
        hits_dealt=_only(reader.hits, attacker=name),
        hits_taken=_only(reader.hits, target=name),
        wounds=wounds, conditions=conditions)


def _only(hits: Iterable[HitLine], *, attacker: str | None = None,
          target: str | None = None) -> tuple[HitLine, ...]:
    return tuple(hit for hit in hits
                 if (attacker is None or hit.attacker == attacker)
                 and (target is None or hit.target == target))
