"""What the coming asaltos hold (issue 37): the engine's read side, no rule of its own.

Each item is what the rules will do at the end of (or, for an extended TA, in) a coming
asalto if no command changes it: a bleeding wound loses a point (H9), a condition ends
(C3), an extended action's TA is due (E2, E3, P5). It is worked out by the functions the
machine itself calls at those moments (wounds.bleed_at_end_of_round,
Condition.ends_at_end_of, the extended actions' counts), run forward on copies.

Only what is certain is forecast: the first TA of a simple extended action (its result
decides whether another comes), and a complex one's TAs while it cannot be done yet
before them; nothing for a character who is out, whose rounds do not count (P5).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sombra_tui.engine.conditions import Condition
from sombra_tui.engine.frozen import trusted
from sombra_tui.engine.i18n import N_, Msg, lazy
from sombra_tui.engine.model import ActionKind, ExtendedMode
from sombra_tui.engine.state import (
    CombatState,
    ExtendedProgress,
    ExtendedStatus,
    Phase,
    StepStatus,
)
from sombra_tui.engine.wounds import Wound, bleed_at_end_of_round, bleeds_at_end_of

#: How many asaltos the forecast looks ahead by default (the DJ's key shows them).
AHEAD = 5


class DueKind(StrEnum):
    BLEEDS = "bleeds"  # H9
    CONDITION_ENDS = "condition_ends"  # C3
    EXTENDED_TA = "extended_ta"  # E2, E3, P5
    NOTE = "note"  # the DJ's own, pinned to an asalto (rules/notes.py)


@dataclass(frozen=True)
class Due:
    """One thing due in asalto `round` (at its end, but an extended TA: in its extended
    phase, and a note: as it begins), for `character` (None: a note about nobody)."""

    round: int
    kind: DueKind
    character: str | None
    what: Msg
    #: A note's id (None for the rest), for the DJ to edit or remove it.
    note_id: int | None = None


def first_round_ahead(state: CombatState) -> int:
    """The first asalto whose end is still to come: this one, or the next once it has
    ended (P6). Before the combat starts, asalto 1."""
    if state.phase is Phase.SETUP:
        return 1
    return state.round + 1 if state.phase is Phase.END_OF_ROUND else state.round


def forecast(state: CombatState, ahead: int = AHEAD) -> list[Due]:
    """What the next `ahead` asaltos hold, by asalto, then in the table's order."""
    first = first_round_ahead(state)
    rounds = range(first, first + ahead)
    found: list[Due] = []
    present = {character.name for character in state.characters}
    for name, body in state.bodies.items():
        if name not in present:
            continue
        if state.settings.wounds.bleeding:
            for wound in body.wounds:
                for due in _bleeding(wound, rounds):
                    found.append(Due(due, DueKind.BLEEDS, name, Msg(
                        N_("{name} bleeds 1 point ({location})"), name=name,
                        location=Msg(wound.location.label))))
        for condition in body.conditions:
            ends = next((r for r in rounds if condition.ends_at_end_of(r)), None)
            if ends is not None:
                found.append(Due(ends, DueKind.CONDITION_ENDS, name, Msg(
                    N_("{condition} ends for {name}"), condition=condition.name,
                    name=name)))
    for progress in [*state.extended, *_declared(state)]:
        if progress.status is ExtendedStatus.ACTIVE and progress.owner in present:
            found += _extended(state, progress, rounds)
    for note in state.notes:
        if note.round in rounds:
            what = (Msg(N_("{text}"), text=note.text) if note.character is None else
                    Msg(N_("{name}: {text}"), name=note.character, text=note.text))
            found.append(Due(note.round, DueKind.NOTE, note.character, what,
                             note_id=note.id))
    order = {character.name: index for index, character in enumerate(state.characters)}
    return sorted(found, key=lambda due: (due.round, due.kind is not DueKind.NOTE,
                                          order.get(due.character or "", -1)))


def due_now(state: CombatState) -> frozenset[str]:
    """Who has something due in the first asalto ahead (`first_round_ahead`: this one, or
    the next once it has ended): the table's mark beside them (issue 37 item 4). The
    characters of `forecast(state, ahead=1)`, read by the same functions without its
    words (the table asks it after every command: issue 37 item 7)."""
    first = first_round_ahead(state)
    rounds = range(first, first + 1)
    present = {character.name for character in state.characters}
    bleeding = state.settings.wounds.bleeding
    names: set[str] = set()
    for name, body in state.bodies.items():
        if name in present and (
                (bleeding and any(bleeds_at_end_of(wound, first) for wound in body.wounds))
                or any(condition.ends_at_end_of(first) for condition in body.conditions)):
            names.add(name)
    for progress in [*state.extended, *_declared(state)]:
        if (progress.owner not in names and progress.owner in present
                and progress.status is ExtendedStatus.ACTIVE
                and _extended_rounds(state, progress, rounds)):
            names.add(progress.owner)
    names.update(note.character for note in state.notes
                 if note.round == first and note.character is not None)
    return frozenset(names)


def _bleeding(wound: Wound, rounds: range) -> list[int]:
    """H9: the asaltos at whose end the wound loses a point, unattended."""
    lost: list[int] = []
    if not wound.bleeding:
        return lost
    for round_ in rounds:
        tick = bleed_at_end_of_round(wound, round_)
        if tick.point_lost:
            lost.append(round_)
        wound = tick.wound
    return lost


def next_bleeding(wound: Wound, first: int) -> int | None:
    """H9: the first asalto from `first` on at whose end the wound loses a point,
    unattended (None: it does not bleed). Its count starts the round after the wound."""
    if not wound.bleeding or wound.bleed_rate is None:
        return None
    lost = _bleeding(wound, range(first, max(first, wound.round + 1) + wound.bleed_rate))
    return lost[0] if lost else None


def _declared(state: CombatState) -> list[ExtendedProgress]:
    """E1: the extended actions declared this asalto, which start when the declarations
    are final (counting from this asalto's extended phase)."""
    if state.phase is not Phase.DECLARATION:
        return []
    found: list[ExtendedProgress] = []
    for name in state.declaration_order:
        declaration = state.declaration_of(name)
        for action in declaration.actions if declaration else ():
            spec = action.extended
            if action.kind is ActionKind.EXTENDED and spec is not None:
                # Checked values (the declaration's): no validator built for it.
                found.append(trusted(
                    ExtendedProgress, id=-1, owner=name, action=action, mode=spec.mode,
                    duration=spec.duration, successes_needed=spec.successes,
                    interval=spec.interval, started_round=state.round))
    return found


def _unable_from(state: CombatState, name: str, rounds: range) -> int:
    """The first asalto of `rounds` in which `name` is out or a condition leaves it
    unable to act (P5, C4: its extended action does not progress then); past the end
    when none."""
    if name in state.out:
        return rounds.start
    body = state.bodies.get(name)
    for round_ in rounds:
        if body and any(condition.active_in(round_)
                        and (condition.effects.cannot_act or condition.effects.out)
                        for condition in body.conditions):
            return round_
    return rounds.stop


def _extended(state: CombatState, progress: ExtendedProgress, rounds: range) -> list[Due]:
    """E2, E3: the action's TAs certainly due in `rounds` (`_extended_rounds`)."""
    needed = progress.successes_needed - progress.successes
    return [_extended_due(round_, progress, needed - index)
            for index, round_ in enumerate(_extended_rounds(state, progress, rounds))]


def _extended_rounds(state: CombatState, progress: ExtendedProgress,
                     rounds: range) -> list[int]:
    """E2, E3: the extended phases of `rounds` in which the action's TA is certainly due:
    none from the first asalto its owner cannot act in (whether that round counts is
    decided at its turn)."""
    due_every = (progress.duration if progress.mode is ExtendedMode.SIMPLE
                 else progress.interval)
    needed = progress.successes_needed - progress.successes
    counted = progress.rounds_counted
    found: list[int] = []
    first = rounds.start
    if state.phase in (Phase.EXTENDED, Phase.END_OF_ROUND) and first == state.round:
        first += 1  # this asalto's extended phase has counted already
        if any(step.extended_id == progress.id and step.result is None
               and step.status is StepStatus.PENDING for step in state.steps):
            found.append(state.round)
            counted = 0  # its result restarts the count (E2, E3)
    if counted + 1 < due_every and first + due_every - counted - 1 >= rounds.stop:
        return found  # no more TA can come in `rounds`
    stop = _unable_from(state, progress.owner, range(first, rounds.stop))
    for round_ in range(first, stop):
        if progress.mode is ExtendedMode.SIMPLE and found:
            break  # its result decides whether another TA comes (E2)
        if progress.mode is ExtendedMode.COMPLEX and len(found) >= needed:
            break  # it may be done by then (E3)
        counted += 1
        if counted >= due_every:
            found.append(round_)
            counted = 0
    return found


def _extended_due(round_: int, progress: ExtendedProgress, needed: int) -> Due:
    if progress.mode is ExtendedMode.SIMPLE:
        what = Msg(N_("{name}: TA of \"{description}\""), name=progress.owner,
                   description=progress.action.description)
    else:
        what = lazy.ngettext("{name}: TA of \"{description}\" ({needed} success to go)",
                             "{name}: TA of \"{description}\" ({needed} successes to go)",
                             "needed", name=progress.owner,
                             description=progress.action.description, needed=needed)
    return Due(round_, DueKind.EXTENDED_TA, progress.owner, what)


def standing(state: CombatState) -> list[tuple[str, Msg]]:
    """Who stays unable to act with no end in sight: out until the DJ brings them back
    (P4), or a condition that keeps them out or unable until removed (C1, C2: an
    inconsciente of hours, muerto)."""
    found: list[tuple[str, Msg]] = []
    for character in state.characters:
        name = character.name
        body = state.bodies.get(name)
        untimed: list[Condition] = [
            condition for condition in (body.conditions if body else ())
            if condition.last_round is None
            and (condition.effects.out or condition.effects.cannot_act)]
        for condition in untimed:
            found.append((name, Msg(N_("{name}: {condition} until the DJ ends it"),
                                    name=name, condition=condition.name)))
        if name in state.out and not untimed:
            found.append((name, Msg(N_("{name} is out until the DJ brings them back"),
                                    name=name)))
    return found
