"""The read side: every question the screen asks the engine, answered with the rules'
own code, so a UI never rebuilds a rule to know what to show.

`next_step` is the one answer to "what does the next key do now?": the hint, the
table's "now" marker, the footer and the key itself all read it, so they cannot drift
apart (issue 20). The other functions only delegate, for now, to where the rule lives.
A TA before its dice (its preview and its odds, issue 37) is read in engine/ta_read.py,
whose names this module gives.

Nothing here changes a state: each function reads one and returns a value.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from annotated_types import Ge, Le, MaxLen
from pydantic import BaseModel

from sombra_tui.engine import commands as c
from sombra_tui.engine import setup_read as _setup_read
from sombra_tui.engine.allowed import allowed, mark_allowed
from sombra_tui.engine.conditions import (
    ActionScope,
    Condition,
    GradeEntry,
    counted_from,
)
from sombra_tui.engine.describe import describe as _describe
from sombra_tui.engine.events import LogEvent
from sombra_tui.engine.forecast import Due as Due  # its types, for the screens
from sombra_tui.engine.forecast import DueKind as DueKind
from sombra_tui.engine.forecast import due_now as _due_now
from sombra_tui.engine.forecast import first_round_ahead as _first_round_ahead
from sombra_tui.engine.forecast import forecast as _forecast
from sombra_tui.engine.forecast import standing as _standing
from sombra_tui.engine.i18n import Msg, _
from sombra_tui.engine.initiative import action_order
from sombra_tui.engine.model import Action, ActionKind, Opposition, Side
from sombra_tui.engine.opens import SETTLE_OPENS, step_opens
from sombra_tui.engine.opens import Opens as Opens  # the screens' (issue 36)
from sombra_tui.engine.opens import acting as acting
from sombra_tui.engine.panel import MAX_WAITING as MAX_WAITING
from sombra_tui.engine.panel import Panel as Panel  # the panel's types, for the screens
from sombra_tui.engine.panel import PanelPrompt as PanelPrompt
from sombra_tui.engine.panel import PanelStep as PanelStep
from sombra_tui.engine.panel import read as _read_panel
from sombra_tui.engine.registry import REGISTRY, label_of
from sombra_tui.engine.rows import Hurt as Hurt  # the row's types, for the screens
from sombra_tui.engine.rows import MarkKind as MarkKind
from sombra_tui.engine.rows import Row as Row
from sombra_tui.engine.rows import RowCondition as RowCondition
from sombra_tui.engine.rows import active_extended as _active_extended
from sombra_tui.engine.rows import row as _row
from sombra_tui.engine.rules.declaration import alerta_gd as _alerta_gd
from sombra_tui.engine.rules.declaration import last_weapons as _last_weapons
from sombra_tui.engine.rules.declaration import opposed_with as _opposed_with
from sombra_tui.engine.rules.declaration import prefill_affected, prefill_names
from sombra_tui.engine.rules.declaration import together_with as _together_with
from sombra_tui.engine.rules.hits import HitPreview, pv_of, ta_grade_entries
from sombra_tui.engine.rules.hits import consequence_words as _consequence_words
from sombra_tui.engine.rules.hits import hit_preview as _hit_preview
from sombra_tui.engine.rules.hits import proposal_question as _proposal_question
from sombra_tui.engine.rules.opposition import (
    OpposedOutcome,
    OppositionPlan,
    plan_opposition,
    step_opposition,
)
from sombra_tui.engine.rules.opposition import confirm_target as _confirm_target
from sombra_tui.engine.rules.opposition import decide_opposed as _decide_opposed
from sombra_tui.engine.rules.opposition import opposed_outcome as _opposed_outcome
from sombra_tui.engine.state import (
    CombatState,
    Concealment,
    Declaration,
    ExtendedProgress,
    GdBreakdown,
    Phase,
    Prompt,
    PromptKind,
    Proposal,
    ProposalKind,
    ReactionMode,
    Step,
)
from sombra_tui.engine.ta_read import ReactionOdds as ReactionOdds  # a TA before its dice
from sombra_tui.engine.ta_read import TAPreview as TAPreview
from sombra_tui.engine.ta_read import declared_odds as declared_odds
from sombra_tui.engine.ta_read import opposed_odds as opposed_odds
from sombra_tui.engine.ta_read import reaction_odds as reaction_odds
from sombra_tui.engine.ta_read import step_odds as step_odds
from sombra_tui.engine.ta_read import step_preview as step_preview
from sombra_tui.engine.ta_read import ta_odds_of as ta_odds_of
from sombra_tui.engine.ta_read import ta_preview as ta_preview
from sombra_tui.engine.wounds import Weapon, Wound, WoundAssessment, with_bleed_rate

if TYPE_CHECKING:
    from sombra_tui.engine.players_view import PlayersSnapshot

# --- the next step -------------------------------------------------------------------


class NextKind(StrEnum):
    """What the next key does now (the order of the checks in `next_step`)."""

    SETTLE_HIT = "settle_hit"  # H1: the hit dialog of the first open proposal
    SETTLE_THRESHOLD = "settle_threshold"  # H7: confirm or decline inconsciente/muerto
    SETTLE_PREVENT = "settle_prevent"  # H11: confirm or decline prevented
    ADD_CHARACTER = "add_character"  # set-up with nobody in it: add someone first
    START = "start"  # set-up: StartCombat opens asalto 1
    REACT = "react"  # D4-D9: the top reacción prompt is answered
    DECLARE = "declare"  # D1: the current declarer declares
    TO_INSTANT = "to_instant"  # everyone declared: Advance to the instant actions
    RESOLVE = "resolve"  # P3: the acting simultaneous group resolves
    NEXT_PHASE = "next_phase"  # nothing left in this resolution phase: Advance (P1)
    NEXT_ROUND = "next_round"  # end of the asalto: Advance opens the next one


#: The kinds that settle an open proposal, by the proposal's kind.
SETTLE_KINDS = {ProposalKind.HIT: NextKind.SETTLE_HIT,
                ProposalKind.THRESHOLD: NextKind.SETTLE_THRESHOLD,
                ProposalKind.PREVENT: NextKind.SETTLE_PREVENT}


@dataclass(frozen=True)
class NextStep:
    """The next step and everything its readers (key, hint, marker, footer) need."""

    kind: NextKind
    #: Who acts now: the table's "now" marker and where the cursor goes.
    who: tuple[str, ...] = ()
    #: SETTLE_*: the first open proposal (who = its character: the hit's target).
    proposal: Proposal | None = None
    #: REACT: the top prompt (who = its reactor), the author of the declaration it
    #: answers, and whether it is a contrarreacción.
    prompt: Prompt | None = None
    author: str | None = None
    counter: bool = False
    #: RESOLVE: the acting group's pending steps (who = their characters, in order).
    group: tuple[Step, ...] = ()
    #: The phase it was asked in (NEXT_PHASE picks its words by it).
    phase: Phase = Phase.SETUP
    #: NEXT_ROUND: the asalto it opens; START: 1.
    round: int = 0
    #: What the key opens (for RESOLVE: the group's first step's, the key's default).
    opens: Opens = Opens.NOTHING
    #: RESOLVE: what each step of `group` opens (step_opens), in the group's order
    #: (the step the keys act on: `acting`).
    step_opens: tuple[Opens, ...] = ()


def next_step(state: CombatState) -> NextStep:
    """What the next key does now. An open proposal comes first in every phase (H1, H7,
    H11: settled before the next step, as the machine refuses anything else)."""
    phase = state.phase
    if state.proposals:
        proposal = state.proposals[0]
        return NextStep(SETTLE_KINDS[proposal.kind], who=(proposal.character,),
                        proposal=proposal, phase=phase, opens=SETTLE_OPENS[proposal.kind])
    if phase is Phase.SETUP:
        return NextStep(NextKind.START if state.characters else NextKind.ADD_CHARACTER,
                        phase=phase, round=1)
    if phase is Phase.DECLARATION:
        top = state.top_prompt
        if top is not None:
            return NextStep(NextKind.REACT, who=(top.reactor,), prompt=top,
                            author=state.declarations[top.declaration_id].author,
                            counter=top.kind is PromptKind.COUNTER, phase=phase,
                            opens=Opens.REACTION)
        declarer = state.current_declarer
        if declarer is not None:
            return NextStep(NextKind.DECLARE, who=(declarer,), phase=phase,
                            opens=Opens.DECLARATION)
        return NextStep(NextKind.TO_INSTANT, phase=phase)
    if phase is Phase.END_OF_ROUND:
        return NextStep(NextKind.NEXT_ROUND, phase=phase, round=state.round + 1)
    group = tuple(state.current_group())
    if group:
        who = tuple(dict.fromkeys(step.character for step in group))
        opens = tuple(step_opens(state, step) for step in group)
        return NextStep(NextKind.RESOLVE, who=who, group=group, phase=phase,
                        opens=opens[0], step_opens=opens)
    return NextStep(NextKind.NEXT_PHASE, phase=phase)


def panel(state: CombatState) -> Panel[NextStep]:
    """The one reading of the panel (engine/panel.py, issue 36 item 3): the next step
    and what the round asks for now, which the DJ's panel shows and the players' view
    filters."""
    step = next_step(state)
    return _read_panel(state, step, step.proposal, step.kind is NextKind.NEXT_PHASE)


# --- what the keys offer -------------------------------------------------------------

#: The commands the machine refuses while a proposal is open (H1, H7, H11): those the
#: registry marks settles_first. tests/engine/test_ask.py checks each against the machine.
SETTLES_FIRST: frozenset[type[BaseModel]] = frozenset(
    command for command, entry in REGISTRY.items() if entry.settles_first)


@dataclass(frozen=True)
class Offers:
    """What the keys may do now, worked out at once (issue 36): the command types
    offered, those an open proposal holds back, and the marks offered. A UI keeps one
    per state revision (Session.offers) and reads it for every key."""

    #: Those that fit the phase (P1), less those an open proposal holds back.
    commands: frozenset[type[BaseModel]]
    #: Those that fit the phase but wait for the open proposal (H1, H7, H11).
    held: frozenset[type[BaseModel]]
    #: The marks (prevented, out, ...) that fit the phase (P4).
    marks: frozenset[c.Mark]


def offers(state: CombatState) -> Offers:
    """P1, P4, H1: what the keys may do now (see Offers)."""
    fitting = allowed(state)
    held = fitting & SETTLES_FIRST if state.proposals else frozenset()
    return Offers(fitting - held, held,
                  frozenset(mark for mark in c.Mark if mark_allowed(state, mark)))


def offered(state: CombatState) -> frozenset[type[BaseModel]]:
    """The command types a UI offers now: those that fit the phase (P1), less those an
    open proposal holds back (the next key settles it first)."""
    return offers(state).commands


def held_back(state: CombatState) -> frozenset[type[BaseModel]]:
    """The command types that fit the phase (P1) but wait for the open proposal (H1,
    H7, H11): a key that sends one opens the proposal first. Empty without proposals."""
    return offers(state).held


def mark_offered(state: CombatState, mark: c.Mark) -> bool:
    """Whether the mark (prevented, out, ...) is offered now (P4)."""
    return mark in offers(state).marks


# --- characters and their numbers -----------------------------------------------------


def pv(state: CombatState, name: str) -> int:
    """H6: the character's PV."""
    return pv_of(state, name)


def alerta_gd(state: CombatState, prompt: Prompt, mode: ReactionMode, *, base: int = 0,
              extra: int = 0) -> GdBreakdown:
    """D6/D9: the GD of an Alerta TA answering `prompt` in `mode`."""
    return _alerta_gd(state, prompt, mode, base=base, extra=extra)


def grades(state: CombatState, name: str, scope: ActionScope) -> list[GradeEntry]:
    """H10/C1: the wound and condition grades a TA of `name` with `scope` carries now."""
    return ta_grade_entries(state, name, scope)


def counting_round(state: CombatState) -> int:
    """C3: the asalto a condition's asaltos left count from (the next one at the end of
    the round): what to pass to `condition_left` and `condition_duration`."""
    return counted_from(state.round, state.phase is Phase.END_OF_ROUND)


def condition_left(condition: Condition, round_: int) -> int | None:
    """C3: the covered rounds still to play in `round_` or later (None: until removed)."""
    return condition.rounds_left(round_)


def roster_order(state: CombatState, but: str | None = None) -> list[str]:
    """Issue 39 item 2: the order of every list of characters a form offers (targets,
    affected, opposed with, those carried on): the roster's, as the encounter lists its
    characters (the DJ's order, I3), the same for every declarer; without `but` (a
    character's own lists leave them out)."""
    return [ch.name for ch in state.characters if ch.name != but]


def table_order(state: CombatState) -> list[str]:
    """Declaration order (I3) while declaring, action order (I4) while resolving; the
    DJ's order in set-up. Reinforcements joined mid-round come last until the next round."""
    dj_order = [ch.name for ch in state.characters]
    in_round = [n for n in state.declaration_order if state.character(n) is not None]
    if state.phase is Phase.SETUP or not state.round_initiative:
        return dj_order
    if state.phase is Phase.DECLARATION:
        base = in_round
    else:
        base = [n for n in action_order(state.round_initiative, dj_order)
                if state.character(n) is not None]
    return base + [n for n in dj_order if n not in base]


# --- a character's row (issue 35 item 9) ---------------------------------------------

def row(state: CombatState, name: str, now: Iterable[str] | None = None,
        extended: Mapping[str, list[ExtendedProgress]] | None = None,
        due: Collection[str] | None = None) -> Row:
    """The one reading of `name`'s row (engine/rows.py): what the DJ's table, the sheet
    and the players' view show of it. `now` (who the next key is about) defaults to
    ask.next_step's; `extended` (active_extended) and `due` (due_now), when reading
    many rows."""
    return _row(state, name, next_step(state).who if now is None else now, extended, due)


def rows(state: CombatState, names: Iterable[str] | None = None) -> list[Row]:
    """The rows of `names` (default: everyone in table order), read at once."""
    now = next_step(state).who
    extended = _active_extended(state)
    due = _due_now(state)
    return [row(state, name, now, extended, due)
            for name in (table_order(state) if names is None else names)]


def active_extended(state: CombatState) -> dict[str, list[ExtendedProgress]]:
    """E1: the active extended actions by owner (read once for a whole table)."""
    return _active_extended(state)


# --- weapons (H1) -------------------------------------------------------------------------


def last_declaration(state: CombatState, name: str) -> Declaration | None:
    """Issue 39 item 2: `name`'s last own declaration with actions in an earlier asalto
    (D1; not a reacción, not inaction), which the declaration form repeats; None if none."""
    return state.last_declared.get(name)


def together_with(state: CombatState, name: str) -> list[str]:
    """Issue 39 item 3: whom the declarer `name` may declare together with, in
    declaration order: its side's characters who declare right after it (D1)."""
    return _together_with(state, name)


def roll_together(state: CombatState, name: str) -> list[Step]:
    """Issue 39 item 3: the pending steps whose TAs one dialog may take, one line of dice
    each: `name`'s step and the pending steps after it in the acting simultaneous group
    (P3: all its TAs before any effect), of characters of its side declared with the
    same action (a group's, or the same declared one by one), none opposed (O2/O3 roll
    in their own dialog) nor automatic (T7). Fewer than two: [] (its own TA dialog)."""
    group = state.current_group()  # its pending steps
    first = next((index for index, step in enumerate(group) if step.character == name),
                 None)
    if first is None:
        return []
    lead = group[first]
    side = _side_of(state, lead.character)
    shape = _action_shape(state, lead)
    steps: list[Step] = []
    for step in group[first:]:
        if (shape is None or _side_of(state, step.character) is not side
                or _action_shape(state, step) != shape):
            break
        steps.append(step)
    return steps if len(steps) > 1 else []


def _side_of(state: CombatState, name: str) -> Side | None:
    character = state.character(name)
    return None if character is None else character.side


def _action_shape(state: CombatState, step: Step) -> tuple[object, ...] | None:
    """What makes two steps' actions "the same" for rolling together (None: never)."""
    action = state.step_action(step)
    if action.kind is ActionKind.AUTOMATIC or is_opposed(state, step):
        return None
    return (action.kind, action.description, action.skill, tuple(action.targets),
            action.gd)


def weapon_for(state: CombatState, name: str, skill: str = "") -> int | None:
    """H1: the index of the weapon `name`'s action starts with. With `skill`: the weapon
    used with it (the last one the character declared if it is one of those), None when
    no weapon names that skill (a run is no shot). Without a skill: the last weapon the
    character declared (this asalto or an earlier one, while they still have it), else
    their default weapon. None without weapons (or without the character)."""
    character = state.character(name)
    if character is None:
        return None
    return character.weapon_index(skill, _last_weapons(state).get(name))


# --- opposition ------------------------------------------------------------------------


def opposition_plan(state: CombatState, step: Step) -> OppositionPlan:
    """O2/O3/E4 with P4 and O5: who takes part in `step`'s opposed action."""
    return plan_opposition(state, step)


def is_opposed(state: CombatState, step: Step) -> bool:
    """An opposed step with someone able left to oppose it (else it is a plain TA)."""
    return step_opens(state, step) is Opens.OPPOSED


def opponent_acts(state: CombatState, name: str, plan: OppositionPlan) -> bool:
    """O2/O3: whether `name` rolls in `plan` for an action of its own (its value and GD
    come from it, and the opposition takes its step); else the DJ gives the value it
    rolls under. Read from the plan, as the machine resolves it."""
    return name in plan.steps


def attack_with(action: Action) -> str | None:
    """H1: "with pistola" for an attack, as the log says it, translated; None for any
    other action (the panel names the weapon of every attack)."""
    said = action.attack_msg()
    return None if said is None else said.render()


def opposed_with(opposition: Opposition) -> str:
    """O2/O3: "opposed (conditioned) with Carla", as the log says it, translated."""
    return _opposed_with(opposition).render()


def opposition_of(state: CombatState, step: Step) -> Opposition | None:
    """O2/O3/I4: the opposition `step` takes part in: its action's own, or the one another
    pending action declared against it (a dodge declared before a plain attack)."""
    return step_opposition(state, step)


# --- limits of the values a form may send ------------------------------------------------


def bounds(model: type[BaseModel], field: str) -> tuple[int, int]:
    """The (ge, le) limits of a model's integer field, as its validation checks them."""
    low: int | None = None
    high: int | None = None
    for rule in model.model_fields[field].metadata:
        if isinstance(rule, Ge):
            low = int(rule.ge)  # type: ignore[call-overload]
        elif isinstance(rule, Le):
            high = int(rule.le)  # type: ignore[call-overload]
    if low is None or high is None:
        raise KeyError(f"{model.__name__}.{field} has no ge/le limits")
    return low, high


def max_length(model: type[BaseModel], field: str) -> int:
    """The max_length of a model's text field, as its validation checks it."""
    for rule in model.model_fields[field].metadata:
        if isinstance(rule, MaxLen):
            return rule.max_length
    raise KeyError(f"{model.__name__}.{field} has no max_length")


# --- what a declaration pre-fills (D2) ---


def affected_prefill(author: str, actions: list[Action]) -> list[str]:
    """D2: the affected list the actions' targets pre-fill, as Declare and React fill it
    when the DJ gives none."""
    return prefill_affected(author, actions)


def affected_prefill_names(author: str, targets: list[str]) -> list[str]:
    """D2: the same pre-fill from a form's target names, before its actions are built."""
    return prefill_names(author, targets)


# --- hits & conditions (B2) ---


def proposal_question(proposal: Proposal, state: CombatState | None = None) -> Msg:
    """H7/H11: the question an open threshold or prevent proposal asks the DJ (its words
    agreeing with the character, given the `state`)."""
    return _proposal_question(proposal, None if state is None
                              else gender(state, proposal.character))


def gender(state: CombatState, name: str) -> str | None:
    """The gender of `name` (model.Gender's value) for i18n.said_of, or None."""
    character = state.character(name)
    return None if character is None else character.gender.value


def hit_preview(state: CombatState, proposal: Proposal, edits: c.AcceptHit | None = None
                ) -> HitPreview | None:
    """H6: the target's counters before and after the hit, and its PV (None: no damage
    read yet, or the target has left); `edits` are the DJ's values (H12)."""
    return _hit_preview(state, proposal, edits)


def consequence_words(assessment: WoundAssessment) -> str:
    """H9: what the wound does, in the words the log uses, rendered now ("none")."""
    return "; ".join(str(word) for word in _consequence_words(assessment.consequences)) \
        or _("none")


def wound_with_bleed_rate(wound: Wound, rate: int | None) -> Wound:
    """H9: the wound with a new bleed rate, its count kept below it."""
    return with_bleed_rate(wound, rate)


def condition_duration(condition: Condition, round_: int, left: int) -> int:
    """C3 backwards: the duration that leaves `left` rounds to play from `round_` on
    (raises ConditionError "condition.too_short" under 1 asalto)."""
    return condition.duration_for_left(round_, left)


# --- opposition (B3) ---


def opposed_outcome(events: list[LogEvent]) -> OpposedOutcome:
    """T5/O4: the comparisons an opposed resolution logged, the confirming TAs its
    reading calls for and who lost (to whom the DJ may give the outcome)."""
    return _opposed_outcome(events)


def decide_opposed(command: c.ResolveOpposed, events: list[LogEvent], who: str
                   ) -> c.ResolveOpposed:
    """T5: the DJ's decision on an opposed outcome, tie or not, as the command to run in
    place of `command` (Session.replace_last): `who` wins every comparison it was in."""
    return _decide_opposed(command, events, who)


def confirm_target(events: list[LogEvent], name: str) -> int | None:
    """O4: the value `name`'s confirming TA rolls under (its last TA's in `events`)."""
    return _confirm_target(events, name)


# --- what a form will send (issue 35, D2) ---


def describe(state: CombatState | None, command: BaseModel) -> Msg:
    """`command` in the DJ's words (a form's summary line, the command Enter sends):
    who does what, the weapon and targets (H1), whose dice (T6) and the GD (T2, D6, H10).
    Dice equal to `TO_ROLL` read as the tracker's roll when the command is sent."""
    return _describe(state, command)


# --- undo/redo names (C2) ---


def command_label(command: BaseModel | type[BaseModel]) -> str:
    """How undo and redo name a command, translated: "accept hit (Iker)"."""
    return label_of(command)


# --- the players' view (issue 23) ---


def players_view(state: CombatState, log: Sequence[LogEvent], sequence: int,
                 encounter: str = "", *, grades: tuple[int, int] | None = (0, 0)
                 ) -> PlayersSnapshot:
    """The player-safe snapshot of the combat (engine/players_view.py says what it holds
    and what never goes in it), its strings in the language in force. `sequence` is the
    caller's change counter (Combat.revision): it increases with every command, undo and
    redo; `encounter` names the combat (the snapshot's `encounter`). `grades`: the open
    prompt's Base GD and DJ grades as the DJ's reacción dialog holds them, which a PC's
    odds read (D6, D9); None while one is not a number there: no odds, as the DJ's."""
    reading = panel(state)  # the DJ's panel's reading, filtered (issue 36 item 3)
    step = reading.step
    names: tuple[str, ...] = ()
    prompt: tuple[str, str, bool] | None = None
    odds: str | None = None
    if step.kind is NextKind.REACT and reading.prompts:
        top = reading.prompts[0]
        prompt = (top.reactor, top.author, top.counter)
        if state.settings.players.reaction_odds and step.prompt is not None \
                and grades is not None:  # the PC's own (issue 37)
            odds = reaction_odds(state, step.prompt, base=grades[0], extra=grades[1]).words()
        # A prompt to answer a hidden character names nobody.
        names = () if top.author in state.concealed else step.who
    elif step.kind in (NextKind.DECLARE, NextKind.RESOLVE):
        names = step.who
    from sombra_tui.engine.players_view import build  # issue 24: not at start-up

    extended = _active_extended(state)  # the DJ's rows, whose due mark is never shown
    read = [row(state, name, names, extended, frozenset()) for name in table_order(state)]
    snapshot = build(state, log, sequence, read=read, now_kind=step.kind.value,
                     now_names=names, prompt=prompt, odds=odds)
    return snapshot.model_copy(update={"encounter": encounter}) if encounter else snapshot


def concealment(state: CombatState, name: str) -> Concealment | None:
    """Why `name` is out of the players' view (hidden by the DJ, or until its first
    TA), or None when the players see it."""
    return state.concealed.get(name)


# --- what the coming asaltos hold (issue 37) ---


def forecast(state: CombatState, ahead: int = 5) -> list[Due]:
    """What the next `ahead` asaltos hold (engine/forecast.py), by asalto."""
    return _forecast(state, ahead)


def due_now(state: CombatState) -> frozenset[str]:
    """Who has something due in the first asalto ahead (the table's mark beside them)."""
    return _due_now(state)


def first_round_ahead(state: CombatState) -> int:
    """The first asalto the forecast covers: this one, or the next once it has ended."""
    return _first_round_ahead(state)


def standing(state: CombatState) -> list[tuple[str, Msg]]:
    """Who is unable to act with no end in sight (out, or a condition until removed)."""
    return _standing(state)


# --- set-up (issue 39 item 1) -------------------------------------------------------

def new_character_side(state: CombatState, cursor: str | None) -> Side:
    """The side a new character takes (the cursor's row's; PC while there are none)."""
    return _setup_read.new_character_side(state, cursor)


def short_labels(state: CombatState) -> dict[str, str]:
    """Each character's short label, distinct, kept whole where names are cut."""
    return _setup_read.short_labels(ch.name for ch in state.characters)


def known_skills(state: CombatState) -> list[str]:
    """The skill names the character form completes (the encounter's)."""
    return _setup_read.known_skills(state)


def known_weapons(state: CombatState) -> list[Weapon]:
    """The weapons the character form completes (the encounter's, H1)."""
    return _setup_read.known_weapons(state)
