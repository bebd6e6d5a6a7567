"""The players' view (issue 23): a player-safe snapshot of the combat.

`ask.players_view` builds it from a state and its log after every command, undo and
redo; a page or a second terminal shows it as it is (its strings are rendered in the
DJ's language). What it may hold is decided here, once:

- the round and phase, whose turn it is (from `ask.next_step`), the open reacción
  prompt as a sentence when both characters are shown, and, when the DJ's setting
  says so, a prompted PC's own chances (issue 37; never an NPC's), at the Base GD and
  DJ grades typed in the DJ's open reacción dialog (none while one is not a number);
- the characters the DJ has not hidden, in table order: each the one reading of its
  row that the DJ's table shows (engine/rows.py, issue 35 item 9), filtered by the
  DJ's settings for its side: its marks (out, prevented), its conditions and asaltos
  left, its wounds as numbers, words or nothing (hidden wounds hide every condition
  that tells of them too: sangrando, a wound's consequence, H7's inconsciente or
  muerto), its declaration once the settings let it be seen, and the initiative of
  PCs only (the players say their own aloud; an NPC's numbers are its sheet);
- the DJ's notes marked public, while their asalto lasts (`public_notes`, issue 37);
- public log lines (`public_line`).

Never in it: DJ notes not marked public (nor a public one before its asalto, nor one
about a hidden character), Alerta and skill values (no TA's target, total, margin or GD is
copied: only its dice and outcome), NPC sheets and weapons' numbers, hidden characters
(their names are scrubbed from every string as a last guard), the DJ's free TAs,
overrides and open proposals (whose dice are not yet the table's), and the DJ's hints
(what is left for the DJ to do: when the next step is the DJ's, the players read
"Waiting for the DJ.", and the log's "Nothing to resolve in this phase." is left out).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import ConfigDict, Field

from sombra_tui.engine.conditions import SANGRANDO
from sombra_tui.engine.events import EventKind, LogEvent
from sombra_tui.engine.frozen import Frozen
from sombra_tui.engine.i18n import N_, Join, Msg, _, language, render
from sombra_tui.engine.model import ATTACK_WITH, DeclarationView, Side, WoundView
from sombra_tui.engine.rows import HURT_WORDS, MarkKind, Row, from_wounds, hurt_of
from sombra_tui.engine.rules.resolution import NOTHING_TO_RESOLVE
from sombra_tui.engine.state import PHASE_LABELS, CombatState, Phase

#: At most this many public log lines go in a snapshot (the newest).
LOG_LINES = 100

_FROZEN = ConfigDict(frozen=True, defer_build=True)


class PlayerWounds(Frozen):
    #: G, W and PV when the DJ shows numbers for the side (None with words).
    g: int | None = None
    w: int | None = None
    pv: int | None = None
    #: The wounds as shown: "G 3 · W 1 / PV 15", or a word ("wounded").
    text: str


class PlayerCondition(Frozen):
    name: str
    #: C3: asaltos still to play (None: until removed).
    left: int | None = None
    text: str


class PlayerRow(Frozen):
    """One character the players see."""

    name: str
    side: Side
    #: "PC" / "NPC" in the DJ's language.
    side_label: str
    #: PCs only: "primaria/secundaria" this round (None for NPCs and before round 1).
    initiative: str | None = None
    #: Declares, reacts or acts now.
    now: bool = False
    #: P4: out, prevented (words).
    marks: list[str] = Field(default_factory=list)
    #: None when the DJ hides the side's wounds.
    wounds: PlayerWounds | None = None
    conditions: list[PlayerCondition] = Field(default_factory=list)
    #: The declaration this round, once the settings let the players see it.
    declaration: str | None = None


class PlayersSnapshot(Frozen):
    """What a players' page or terminal shows; built whole after every change."""

    #: Increases with every command, undo and redo: a reader keeps the highest. One
    #: with the same sequence is a newer one of the same state: the prompted PC's odds
    #: as the DJ types the reacción's grades (issue 37 item 3).
    sequence: int = Field(ge=0)
    #: Which combat this is (issue 39 item 6): the same for every snapshot of one
    #: encounter, another for another one served at the same address, so that a reader
    #: can say the combat changed. Opaque; it tells nothing of the encounter.
    encounter: str = ""
    #: The language its strings are in ("es", "en").
    language: str
    round: int
    phase: Phase
    #: The phase in words.
    phase_label: str
    #: Whose turn it is, in a sentence ("Ana declares.").
    now: str
    now_names: list[str] = Field(default_factory=list)
    #: The open reacción prompt ("Ana: ¿reaccionas a Bruno?"), when both are shown.
    prompt: str | None = None
    #: A PC's own chances at that prompt ("Ana: 35 % combinando · 8 % sustituyendo"),
    #: when the DJ's setting shows them (issue 37 item 3); never an NPC's. At the
    #: grades typed in the DJ's open reacción dialog: the same as the DJ's own line.
    prompt_odds: str | None = None
    characters: list[PlayerRow] = Field(default_factory=list)
    #: The DJ's public notes pinned to the asalto under way ("Llegan los guardias.").
    notes: list[str] = Field(default_factory=list)
    #: Public log lines, oldest first (at most LOG_LINES, the newest).
    log: list[str] = Field(default_factory=list)


# --- who is seen -------------------------------------------------------------------------


def shown(state: CombatState, name: str) -> bool:
    """Whether `name` may appear in the players' view (present or removed, not hidden)."""
    return name not in state.concealed


def wound_word(state: CombatState, name: str, pv: int) -> str:
    """The players' word for a character's wounds (issue 23), from the one reading of
    how badly it is hurt (rows.hurt_of: fuera de combate, grave, herido, ileso)."""
    return _(HURT_WORDS[hurt_of(state, name, pv)])


def _wounds(row: Row, view: WoundView) -> PlayerWounds | None:
    if view is WoundView.HIDDEN:
        return None
    if view is WoundView.WORDS:
        return PlayerWounds(text=row.hurt_word)
    return PlayerWounds(g=row.g, w=row.w, pv=row.pv,
                        text=_("G {g} · W {w} / PV {pv}").format(g=row.g, w=row.w, pv=row.pv))


def declarations_seen(state: CombatState, side: Side) -> bool:
    """Whether this round's declarations of `side` are shown now (issue 23)."""
    if state.phase is Phase.SETUP:
        return False
    view = state.settings.players.side(side).declarations
    return view is DeclarationView.AS_MADE or state.phase is not Phase.DECLARATION


def _conditions(row: Row, view: WoundView) -> list[PlayerCondition]:
    """The row's conditions with their asaltos left; with the side's wounds hidden,
    none that tells of them (sangrando, a wound's consequence, H7's inconsciente or
    muerto): the out mark says what the players may know."""
    rows: list[PlayerCondition] = []
    for condition in row.conditions:
        if view is WoundView.HIDDEN and condition.from_wounds:
            continue
        left = condition.left
        text = condition.name if left is None else _("{name} (asaltos left: {left})").format(
            name=condition.name, left=left)
        rows.append(PlayerCondition(name=condition.name, left=left, text=text))
    return rows


_SIDE_LABELS = {Side.PC: N_("PC"), Side.NPC: N_("NPC")}
#: The marks the players see, in this order (a lock is the DJ's to know).
_SHOWN_MARKS = (MarkKind.OUT, MarkKind.PREVENTED)


def player_row(state: CombatState, row: Row) -> PlayerRow:
    """`row` (the one reading the DJ's table shows) as the players see it: filtered by
    the DJ's settings for its side (issue 23): the initiative of PCs only, the wounds
    as numbers, words or nothing, the declaration once it may be seen."""
    side = row.side
    view = state.settings.players.side(side)
    initiative = (f"{row.primaria}/{row.secundaria}" if side is Side.PC and row.in_round
                  else None)
    marks = [mark.word for kind in _SHOWN_MARKS for mark in row.marks if mark.kind is kind]
    return PlayerRow(
        name=row.name, side=side, side_label=_(_SIDE_LABELS[side]), initiative=initiative,
        now=row.now, marks=marks, wounds=_wounds(row, view.wounds),
        conditions=_conditions(row, view.wounds),
        declaration=row.declaration if declarations_seen(state, side) else None)


def rows(state: CombatState, read: Iterable[Row]) -> list[PlayerRow]:
    """The shown characters of `read` (the one reading of their rows, in table order:
    ask.players_view reads them), with what the settings let the players see."""
    return [player_row(state, row) for row in read if shown(state, row.name)]


# --- the prompt ----------------------------------------------------------------------------


def prompt_sentence(reactor: str, author: str, counter: bool) -> str:
    """The question the players see for an open prompt: "Ana: ¿reaccionas a Bruno?"."""
    template = (N_("{reactor}: do you make a contrarreacción to {author}?") if counter
                else N_("{reactor}: do you react to {author}?"))
    return _(template).format(reactor=reactor, author=author)


# --- the DJ's public notes ------------------------------------------------------------------


def public_notes(state: CombatState) -> list[str]:
    """The notes the DJ marked public that are pinned to the asalto under way, once it
    has begun (rules/notes.py logs them then); never a private one, nor one about a
    character the players do not see."""
    if state.phase is Phase.SETUP:
        return []
    return [note.text if note.character is None
            else _("{name}: {text}").format(name=note.character, text=note.text)
            for note in state.notes
            if note.public and note.round == state.round
            and (note.character is None or shown(state, note.character))]


# --- public log lines ------------------------------------------------------------------------

#: Kinds never shown: set-up and settings, the DJ's proposals and overrides.
_PRIVATE_KINDS = frozenset({EventKind.ENCOUNTER, EventKind.PROPOSAL, EventKind.OVERRIDE})
#: The DJ's free TA (T8): often a secret roll (perception), never shown.
_FREE_TA_RULE = "T8"


def _side_of(state: CombatState, name: str | None) -> Side | None:
    if name is None:
        return None
    character = state.character(name)
    return character.side if character is not None else None


def _wound_view(state: CombatState, name: str | None) -> WoundView:
    side = _side_of(state, name)
    return WoundView.HIDDEN if side is None else state.settings.players.side(side).wounds


def public_line(state: CombatState, event: LogEvent) -> str | None:
    """The line the players read for `event`, or None when it is not theirs to read.

    Shown: rounds and phases, declarations (as the settings allow), prompts, reacciones
    and declines, TAs of the steps with their dice and outcome, opposed results, marks,
    skips, extended progress, conditions that take effect or end, hits (with numbers
    only when the DJ shows the target's side as numbers, never its damage, protection
    or Resistencia) and bleeding (numbers only).
    Not shown: anything naming a hidden character, set-up, settings, the DJ's proposals,
    overrides and free TAs, any TA's target, total, margin or GD, and a phase's "nothing
    to resolve" (the DJ's)."""
    involved = [event.actor, *event.targets, event.winner]
    if any(name is not None and not shown(state, name) for name in involved):
        return None
    kind = event.kind
    if kind in _PRIVATE_KINDS or event.template == NOTHING_TO_RESOLVE:
        return None
    if kind is EventKind.HIT:
        return _hit_line(state, event)
    if event.override and kind not in (EventKind.TA, EventKind.REACTION):
        return None
    if kind is EventKind.WOUND:
        return event.text if _wound_view(state, event.actor) is WoundView.NUMBERS else None
    if kind is EventKind.CONDITION and _wound_view(state, event.actor) is WoundView.HIDDEN \
            and _tells_of_wounds(state, event):
        return None
    if kind is EventKind.TA and event.rule == _FREE_TA_RULE:
        return None
    if kind is EventKind.ROUND and event.rule == "D1":
        return _("Asalto {round} begins.").format(round=event.round)
    if kind is EventKind.DECLARE:
        side = _side_of(state, event.actor)
        if (side is not None and event.round == state.round
                and event.phase is Phase.DECLARATION and not declarations_seen(state, side)):
            return None
    text = render(event.template, _unarmed(event.params), event.context, event.plural,
                  event.counter)
    if event.ta is not None:
        text = f"{text} — {_outcome(event)}"
    return text


def _tells_of_wounds(state: CombatState, event: LogEvent) -> bool:
    """A condition's line that tells of the actor's wounds: sangrando, or a condition
    the wounds brought (rows.from_wounds), while the character still has it."""
    name = str(event.data.get("condition", "")).casefold()
    if name == SANGRANDO:
        return True
    condition_id = event.data.get("id")
    if event.actor is None or not isinstance(condition_id, int):
        return False
    condition = state.body(event.actor).condition(condition_id)
    return condition is not None and from_wounds(condition)


def _unarmed(value: Any) -> Any:
    """`value` without the weapons an attack names (H1's "with pistola"): a sheet's
    weapon is the DJ's, the players read what the character does."""
    if isinstance(value, dict):
        return {key: _unarmed(item) for key, item in value.items()}
    if isinstance(value, Join):
        return Join(value.separator, [_unarmed(item) for item in value.items
                                      if not (isinstance(item, Msg)
                                              and item.template == ATTACK_WITH)])
    if isinstance(value, Msg):
        copy = Msg(value.template, _unarmed(value.params))
        copy.context, copy.plural, copy.counter = value.context, value.plural, value.counter
        return copy
    return value


def _hit_line(state: CombatState, event: LogEvent) -> str:
    """A hit applied: who is hit, and G and W before and after with the PV when the DJ
    shows the target's side as numbers. The DJ's line also names damage, protection
    and Resistencia (the sheet): never copied."""
    if event.code != "hit.applied":
        return event.text  # H11: "takes effect after the simultaneous group"
    target = event.targets[0] if event.targets else "?"
    data = event.data
    if _wound_view(state, target) is not WoundView.NUMBERS:
        return _("{target} is hit.").format(target=target)
    return _("{target} is hit: G {g0} -> {g1}, W {w0} -> {w1} of PV {pv}.").format(
        target=target, g0=data.get("g_before"), g1=data.get("g"), w0=data.get("w_before"),
        w1=data.get("w"), pv=data.get("pv"))


def _outcome(event: LogEvent) -> str:
    """A TA's dice and outcome only: no target, total, margin or GD (they tell Alerta
    and skill values). A DJ's decision shows the outcome without dice."""
    ta = event.ta
    assert ta is not None
    if ta.unrolled or ta.dice is None or event.override:
        return ta.label
    return f"[{ta.dice}] {ta.label}"


def public_log(state: CombatState, log: Sequence[LogEvent]) -> list[str]:
    """The newest LOG_LINES public lines, oldest first (read from the end: a long
    evening's log is not rendered whole after every change)."""
    lines: list[str] = []
    for event in reversed(log):
        line = public_line(state, event)
        if line is not None:
            lines.append(line)
            if len(lines) == LOG_LINES:
                break
    lines.reverse()
    return lines


# --- the last guard ------------------------------------------------------------------------


def scrub(snapshot: PlayersSnapshot, state: CombatState) -> PlayersSnapshot:
    """Replace any hidden character's name left in a string (in a description the DJ
    typed, say) by "?". A shown name that contains a hidden one ("Matón 10" with
    "Matón 1" hidden) stays: the longest name is matched first."""
    hidden = list(state.concealed)  # removed ones too
    if not hidden:
        return snapshot
    names = sorted({*hidden, *(ch.name for ch in state.characters)}, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(" + "|".join(re.escape(n) for n in names) + r")(?!\w)",
                         re.IGNORECASE)
    secret = {name.casefold() for name in hidden}

    def clean(value: Any) -> Any:
        if isinstance(value, str):
            return pattern.sub(lambda m: "?" if m.group(1).casefold() in secret
                               else m.group(1), value)
        if isinstance(value, list):
            return [clean(item) for item in value]
        if isinstance(value, dict):
            return {key: clean(item) for key, item in value.items()}
        return value

    return PlayersSnapshot.model_validate(clean(snapshot.model_dump()))


def build(state: CombatState, log: Sequence[LogEvent], sequence: int, *, read: list[Row],
          now_kind: str, now_names: tuple[str, ...], prompt: tuple[str, str, bool] | None,
          odds: str | None = None) -> PlayersSnapshot:
    """The snapshot, from what `ask` worked out (the rows as the DJ's table reads them,
    in its order, the next step and the prompt of the DJ's panel, and the prompted
    character's chances in words)."""
    names = [name for name in now_names if shown(state, name)]
    sentence = _now_sentence(now_kind, names)
    prompt_text = prompt_odds = None
    if prompt is not None and shown(state, prompt[0]) and shown(state, prompt[1]):
        prompt_text = prompt_sentence(*prompt)
        if odds is not None and state.settings.players.reaction_odds and \
                _side_of(state, prompt[0]) is Side.PC:  # never an NPC's (its Alerta)
            prompt_odds = _("{reactor}: {odds}").format(reactor=prompt[0], odds=odds)
    snapshot = PlayersSnapshot(
        sequence=sequence, language=language(), round=state.round, phase=state.phase,
        phase_label=_(PHASE_LABELS[state.phase]), now=sentence, now_names=names,
        prompt=prompt_text, prompt_odds=prompt_odds, characters=rows(state, read),
        notes=public_notes(state), log=public_log(state, log))
    return scrub(snapshot, state)


_NOW = {
    "declare": N_("{names} declares."),
    "react": N_("{names} may react."),
    "resolve": N_("{names} acts."),
    "resolve_many": N_("{names} act."),
}


def _now_sentence(kind: str, names: list[str]) -> str:
    if kind in ("add_character", "start"):
        return _("The combat has not started.")
    # Everyone declared, nothing left in the phase, the asalto over: the next step is
    # the DJ's (the DJ's hint says which key; the header shows the round and phase).
    if kind in ("declare", "react", "resolve") and names:
        key = "resolve_many" if kind == "resolve" and len(names) > 1 else kind
        return _(_NOW[key]).format(names=", ".join(names))
    return _("Waiting for the DJ.")
