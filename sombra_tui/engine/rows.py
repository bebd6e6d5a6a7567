"""One reading of a character's row (issue 35 item 9, issue 36 item 3).

The DJ's initiative table, the character's sheet and the players' view show the same
facts of a character: its initiative, its points and how badly it is hurt, its
conditions with the asaltos left, its marks and its declaration. They read them here,
once, so they cannot drift apart (they did: the players' view said "impedido" of Ana
where the table said "impedida", and each had its own "badly hurt"). The players' view
then leaves out what the DJ's settings keep from the players (`players_view.rows`).

Words are rendered in the language in force and agree with the character's gender
(i18n.said_of). Nothing here changes a state.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from enum import StrEnum

from sombra_tui.engine.conditions import (
    INCONSCIENTE,
    MUERTO,
    SANGRANDO,
    Condition,
    SourceKind,
    counted_from,
)
from sombra_tui.engine.forecast import due_now
from sombra_tui.engine.frozen import Frozen, trusted
from sombra_tui.engine.i18n import N_, _, agree, context_of, said_of
from sombra_tui.engine.model import Side
from sombra_tui.engine.rules.hits import pv_of
from sombra_tui.engine.setup_read import short_labels
from sombra_tui.engine.state import CombatState, ExtendedProgress, ExtendedStatus, Phase


class Hurt(StrEnum):
    """How badly a character is hurt, one reading for every screen (H6, H7, P4)."""

    UNHURT = "unhurt"  # no G, no W, no wound
    HURT = "hurt"  # some G, W or a wound
    BADLY_HURT = "badly_hurt"  # G at half the PV or more (see `hurt_of`)
    OUT = "out"  # out (P4), or inconsciente or muerto (H7)


#: The players' word for each (issue 23), rendered when shown.
HURT_WORDS = {Hurt.UNHURT: N_("unhurt"), Hurt.HURT: N_("wounded"),
              Hurt.BADLY_HURT: N_("badly wounded"), Hurt.OUT: N_("out of the fight")}


def badly_hurt(g: int, pv: int) -> bool:
    """The one "badly hurt" threshold: G reaches half the PV (2G >= PV).

    H7 takes a character out when G reaches PV (inconsciente), and H6 keeps W <= G, so
    G is the nearer danger: half way to it is badly hurt, whether the points are golpe
    or herida. (The players' view read 2W >= PV, which called a beaten character with
    no herida points "wounded" while the DJ's table warned of it.)"""
    return 2 * g >= pv


class RowCondition(Frozen):
    """A condition as a row shows it (C1, C3)."""

    id: int
    #: Its name agreeing with the character ("aturdida" of Ana, in Spanish).
    name: str
    #: C3: asaltos still to play (None: until removed).
    left: int | None = None
    #: C2: it never expires (muerto).
    permanent: bool = False
    #: C1: cannot act or out: the table shows it as a warning.
    blocking: bool = False
    #: It tells of the character's wounds: a consequence of one (H9, sangrando), or
    #: inconsciente / muerto from the points (H7). Hidden with the wounds.
    from_wounds: bool = False
    #: H9: it is sangrando, which the DJ's table says once with the row's bleeding.
    bleeding: bool = False

    @property
    def label(self) -> str:
        """'aturdido 2': the name and the asaltos left, as the table shows it."""
        return self.name if self.left is None else f"{self.name} {self.left}"

    @property
    def short(self) -> str:
        """'atu.2': the label folded for a narrow table (issue 39 item 5), each word of
        the name cut to its first three letters (the sheet and the panel say it whole)."""
        name = ".".join(word if len(word) <= 4 else word[:3] for word in self.name.split())
        if name == self.name:
            return self.label
        return f"{name}." if self.left is None else f"{name}.{self.left}"


class MarkKind(StrEnum):
    """A row's marks (D7, P4)."""

    LOCKED = "locked"  # D7: failed an Alerta TA this round
    PREVENTED = "prevented"  # P4
    OUT = "out"  # P4


#: The marks' words, agreeing with the character (their feminine forms are in
#: i18n.feminine_forms where the Spanish differs).
MARK_WORDS = {MarkKind.LOCKED: N_("locked"), MarkKind.PREVENTED: N_("prevented"),
              MarkKind.OUT: N_("out")}


class RowMark(Frozen):
    kind: MarkKind
    #: In the language in force, agreeing with the character ("impedida").
    word: str


class Row(Frozen):
    """One character's row: what the DJ's table, the sheet and the players' view show."""

    name: str
    side: Side
    #: This round's initiative (I2), else the sheet's.
    primaria: int
    secundaria: int
    #: Rolled into this round (a reinforcement joined mid-round waits for the next).
    in_round: bool
    #: Joined mid-round: it acts from the next asalto (not in set-up, before any).
    next_round: bool = False
    alerta: int
    #: Whoever the next key is about (ask.next_step: the declarer, the acting group,
    #: the target of an open hit).
    now: bool = False
    #: H6: the counters and the PV.
    g: int = 0
    w: int = 0
    pv: int = 0
    hurt: Hurt = Hurt.UNHURT
    #: H7: G has reached the PV.
    at_pv: bool = False
    #: H9: a wound still bleeds.
    bleeding: bool = False
    conditions: tuple[RowCondition, ...] = ()
    marks: tuple[RowMark, ...] = ()
    #: E1: active extended actions, as "2/4".
    extended: tuple[str, ...] = ()
    #: Something is due for it in the first asalto ahead (engine/forecast.py: bleeding
    #: H9, a condition ending C3, an extended TA E2/E3, the DJ's note about it).
    due: bool = False
    #: The declaration this round (D1), summarised; None before it declares.
    declaration: str | None = None
    #: Whom it names (its actions' targets), by their short labels (issue 39 item 1):
    #: kept whole where the declaration is cut.
    targets: tuple[str, ...] = ()
    #: "declared", agreeing with the character, while declarations are taken and it
    #: has declared (a narrow table says it in place of the declaration); else "".
    declared: str = ""
    #: Issue 39 item 7: out of the players' view (the DJ hid it, or until its first TA);
    #: the DJ's table marks it. The players' view never shows such a row.
    hidden: bool = False

    @property
    def badly_hurt(self) -> bool:
        """G at half the PV or more (`badly_hurt`), out or not."""
        return badly_hurt(self.g, self.pv)

    def has(self, mark: MarkKind) -> bool:
        return any(m.kind is mark for m in self.marks)

    @property
    def hurt_word(self) -> str:
        return _(HURT_WORDS[self.hurt])


def hurt_of(state: CombatState, name: str, pv: int) -> Hurt:
    """H6/H7/P4: out when marked out or inconsciente or muerto; badly hurt at the one
    threshold (`badly_hurt`); hurt with any G, W or wound; unhurt otherwise."""
    body = state.body(name)
    conditions = {condition.name.casefold() for condition in body.conditions}
    if name in state.out or INCONSCIENTE in conditions or MUERTO in conditions:
        return Hurt.OUT
    counters = body.counters
    if badly_hurt(counters.g, pv):
        return Hurt.BADLY_HURT
    if counters.g or counters.w or body.wounds:
        return Hurt.HURT
    return Hurt.UNHURT


def from_wounds(condition: Condition) -> bool:
    """Whether `condition` tells of the wounds: sangrando, a wound's consequence (H9),
    or inconsciente / muerto the points brought (H7)."""
    return condition.name.casefold() == SANGRANDO or condition.source.kind in (
        SourceKind.WOUND, SourceKind.RULE)


def row_conditions(state: CombatState, name: str, gender: str | None
                   ) -> tuple[RowCondition, ...]:
    """C1/C3: the character's conditions with the asaltos left (counted as C3 says:
    from the next asalto once this one's actions are over)."""
    counting = counted_from(state.round, state.phase is Phase.END_OF_ROUND)
    context = context_of(gender)
    return tuple(trusted(
        RowCondition, id=condition.id, name=agree(condition.name, context),
        left=condition.rounds_left(counting), permanent=condition.permanent,
        blocking=condition.effects.cannot_act or condition.effects.out,
        from_wounds=from_wounds(condition), bleeding=condition.name.casefold() == SANGRANDO)
        for condition in state.body(name).conditions)


def active_extended(state: CombatState) -> dict[str, list[ExtendedProgress]]:
    """Active extended actions by owner (looked up once for a whole table)."""
    active: dict[str, list[ExtendedProgress]] = {}
    for progress in state.extended:
        if progress.status is ExtendedStatus.ACTIVE:
            active.setdefault(progress.owner, []).append(progress)
    return active


def declared_targets(state: CombatState, name: str) -> tuple[str, ...]:
    """The short labels (setup_read.short_labels) of whom `name`'s declaration this
    round names, each once, in the order named."""
    declaration = state.declaration_of(name)
    if declaration is None:
        return ()
    named = dict.fromkeys(target for action in declaration.actions
                          for target in action.targets)
    if not named:
        return ()
    labels = short_labels(ch.name for ch in state.characters)
    return tuple(labels.get(target, target) for target in named)


def row(state: CombatState, name: str, now: Iterable[str] = (),
        extended: Mapping[str, list[ExtendedProgress]] | None = None,
        due: Collection[str] | None = None) -> Row:
    """`name`'s row. `now`: who the next key is about (ask.next_step's who);
    `extended`: active_extended(state), and `due`: forecast.due_now(state), when a
    caller reads many rows."""
    character = state.character(name)
    if character is None:
        raise KeyError(name)
    gender = character.gender.value
    in_round = name in state.round_initiative
    primaria, secundaria = state.round_initiative.get(
        name, (character.primaria, character.secundaria))
    body = state.body(name)
    pv = pv_of(state, name)
    marks = tuple(trusted(RowMark, kind=mark, word=said_of(gender, MARK_WORDS[mark]))
                  for mark, names in ((MarkKind.LOCKED, state.locked),
                                      (MarkKind.PREVENTED, state.prevented),
                                      (MarkKind.OUT, state.out)) if name in names)
    if extended is None:
        extended = active_extended(state)
    if due is None:
        due = due_now(state)
    declaration = state.declaration_of(name)
    # Built without validation (the first screen builds no validator: issue 24 item 5):
    # every value comes from the validated state.
    return trusted(
        Row, name=name, side=character.side, primaria=primaria, secundaria=secundaria,
        in_round=in_round, next_round=not in_round and state.phase is not Phase.SETUP,
        alerta=character.alerta, now=name in set(now),
        g=body.counters.g, w=body.counters.w, pv=pv, hurt=hurt_of(state, name, pv),
        at_pv=body.counters.g >= pv, bleeding=any(wound.bleeding for wound in body.wounds),
        conditions=row_conditions(state, name, gender), marks=marks,
        extended=tuple(progress.progress_text() for progress in extended.get(name, ())),
        due=name in due, declaration=declaration.summary() if declaration is not None else None,
        targets=declared_targets(state, name),
        declared=said_of(gender, N_("declared"))
        if declaration is not None and state.phase is Phase.DECLARATION else "",
        hidden=name in state.concealed)
