"""One reading of the panel (issue 36 item 3): what the round asks for now.

The DJ's panel (widgets/panel_lines.py) and the players' view (players_view.py) read
it, as the DJ's table and the players' rows read engine/rows.py: the next step (who
declares, reacts or acts now: ask.next_step), the open proposal the next key settles
(H1, H7, H11), who declares next (I3, D1), the reacción prompts waiting with their GD
(D4, D6, D9, D11), the steps of the phase with the value and GD each TA will carry
(P3, H10, C1) and the marks waiting for the group's end (P4, H11). The players' view
then leaves out what the DJ keeps from the players (hidden characters, an NPC's
chances, every number of a sheet).

`ask.panel` builds it (it holds `ask.next_step`'s answer); nothing here changes a state.
Words are rendered in the language in force and agree with the character's gender.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from sombra_tui.engine import commands as c
from sombra_tui.engine.i18n import N_, _, said_of
from sombra_tui.engine.rules.declaration import alerta_gd
from sombra_tui.engine.rules.hits import proposal_question
from sombra_tui.engine.rules.marks import unable_reason
from sombra_tui.engine.rules.resolution import resolve_roll
from sombra_tui.engine.state import (
    CombatState,
    Phase,
    Prompt,
    PromptKind,
    Proposal,
    ProposalKind,
    ReactionMode,
    Step,
    StepStatus,
)

#: A big encounter lists only this many names after "Next" and this many steps (a few
#: done ones, the acting group and what follows), with counts of the rest: the panel
#: stays readable, and reading it after each command stays quick.
MAX_WAITING = 12
MAX_STEPS = 24
STEPS_BEFORE = 4

#: How a pending mark reads (SetMark's values), agreeing with the character.
MARK_WORDS = {"out": N_("out"), "prevented": N_("prevented"), "back": N_("back"),
              "unprevent": N_("no longer prevented")}


@dataclass(frozen=True)
class PanelPrompt:
    """A reacción prompt waiting (D4, D9, D11) and the GD of its Alerta TA (D6)."""

    reactor: str
    #: The author of the declaration it answers, and that declaration summarised.
    author: str
    declaration: str
    #: A contrarreacción (D11).
    counter: bool
    #: The DJ forced it (D4).
    forced: bool
    alerta: int
    #: The GD substituting and combining (D6, D9), with why.
    substitute: str
    combine: str


@dataclass(frozen=True)
class PanelStep:
    """A step of the phase (P3) as the panel lists it."""

    character: str
    #: The action summarised, with the weapon of an attack (H1); "" when its owner left.
    what: str
    status: StepStatus
    #: It is in the group acting now (and no proposal waits before it).
    acting: bool = False
    #: P4: why it cannot act (marked now, skipped when its turn comes).
    unable: str | None = None
    #: A pending step's TA as the engine will roll it (H10, C1): the skill (or ""),
    #: the value rolled under and the GD; None when there is no value yet.
    skill: str = ""
    target: int | None = None
    gd: int | None = None
    #: A resolved step's outcome.
    success: bool | None = None


S = TypeVar("S")


@dataclass(frozen=True)
class Panel(Generic[S]):
    """What the round asks for now (see the module's docstring)."""

    #: ask.next_step's answer: what the next key does and who it is about.
    step: S
    phase: Phase
    round: int
    #: The open proposal the next key settles, in words ("Carla's hit on Iker"); None.
    pending: str | None = None
    #: D1/I3: who declares now, and who after (at most MAX_WAITING), and how many more.
    declarer: str | None = None
    waiting: tuple[str, ...] = ()
    more_waiting: int = 0
    #: D4: the prompts waiting, the one answered first first.
    prompts: tuple[PanelPrompt, ...] = ()
    #: The reacción is off for this encounter (no prompts are raised).
    reaccion_off: bool = False
    #: Who has declared this round, in declaration order.
    declared: tuple[str, ...] = ()
    #: P3: who acts in the group now (simultaneous when more than one).
    group: tuple[str, ...] = ()
    #: The steps listed, and how many are left out before and after them.
    steps: tuple[PanelStep, ...] = ()
    before: int = 0
    after: int = 0
    #: P4/H11: the marks waiting for the group's end ("Ana impedida").
    marks_after: tuple[str, ...] = ()
    #: Nothing is left to resolve in this phase: the next key moves on (P1).
    nothing_to_resolve: bool = False


def pending_words(state: CombatState, proposal: Proposal | None) -> str | None:
    """The open proposal in words: "Carla's hit on Iker", or the question it asks."""
    if proposal is None:
        return None
    if proposal.kind is ProposalKind.HIT:
        if proposal.attacker is None:
            return _("the hit on {target}").format(target=proposal.character)
        return _("{attacker}'s hit on {target}").format(attacker=proposal.attacker,
                                                         target=proposal.character)
    return proposal_question(proposal, gender(state, proposal.character)).render()


def gender(state: CombatState, name: str) -> str | None:
    character = state.character(name)
    return None if character is None else character.gender.value


def panel_prompt(state: CombatState, prompt: Prompt) -> PanelPrompt:
    declaration = state.declarations[prompt.declaration_id]
    character = state.character(prompt.reactor)
    return PanelPrompt(
        reactor=prompt.reactor, author=declaration.author,
        declaration=declaration.summary(), counter=prompt.kind is PromptKind.COUNTER,
        forced=prompt.forced, alerta=character.alerta if character is not None else 0,
        substitute=alerta_gd(state, prompt, ReactionMode.SUBSTITUTE).describe(),
        combine=alerta_gd(state, prompt, ReactionMode.COMBINE).describe())


def steps_window(state: CombatState) -> tuple[list[Step], int, int]:
    """The steps to list, and how many are left out before and after them."""
    steps = state.steps
    if len(steps) <= MAX_STEPS:
        return steps, 0, 0
    first = next((i for i, step in enumerate(steps) if step.status is StepStatus.PENDING),
                 len(steps))
    start = max(0, min(first - STEPS_BEFORE, len(steps) - MAX_STEPS))
    end = start + MAX_STEPS
    while first < len(steps) and end < len(steps) and \
            steps[end].group == steps[first].group:  # never cut the acting group
        end += 1
    return steps[start:end], start, len(steps) - end


def panel_step(state: CombatState, step: Step, acting: bool) -> PanelStep:
    """`step` as listed: its action (with the weapon of an attack, H1); pending, why it
    cannot act (P4) or the value and GD its TA will carry (H10, C1); done, its outcome."""
    action = state.step_action(step) if state.character(step.character) else None
    what = "" if action is None else action.summary()
    weapon = None if action is None else action.attack_msg()
    if weapon is not None:  # H1: a step that will propose a hit says with what
        what = f"{what}, {weapon.render()}"
    pending = step.status is StepStatus.PENDING
    unable = unable_reason(state, step.character) if pending else None
    skill, target, gd = "", None, None
    if unable is None and action is not None and pending:
        _result, breakdown, target = resolve_roll(
            state, c.Resolve(character=step.character), step)
        skill, gd = action.skill, breakdown.total
    return PanelStep(
        character=step.character, what=what, status=step.status, acting=acting,
        unable=unable, skill=skill, target=target, gd=gd if target is not None else None,
        success=None if step.result is None else step.result.success)


def declaring(state: CombatState, panel: Panel[S]) -> Panel[S]:
    """`panel` with the declaration phase's part (D1, D4, I3)."""
    declarer = state.current_declarer
    waiting = state.declarers_after(declarer)
    return replace(
        panel, declarer=declarer, waiting=tuple(waiting[:MAX_WAITING]),
        more_waiting=max(0, len(waiting) - MAX_WAITING),
        prompts=tuple(panel_prompt(state, prompt) for prompt in reversed(state.prompts)),
        reaccion_off=not state.settings.reaccion,
        declared=tuple(name for name in state.declaration_order if name in state.current))


def resolving(state: CombatState, proposal: Proposal | None, panel: Panel[S]) -> Panel[S]:
    """`panel` with a resolution phase's part (P3, P4, H1, H11)."""
    group = state.current_group()
    acting = {id(step) for step in group} if proposal is None else set()
    steps, before, after = steps_window(state)
    marks = tuple(f"{mark.character} " + said_of(
        gender(state, mark.character), MARK_WORDS.get(mark.mark, mark.mark))
        for mark in state.pending_marks)
    return replace(
        panel, group=tuple(dict.fromkeys(step.character for step in group)),
        steps=tuple(panel_step(state, step, id(step) in acting) for step in steps),
        before=before, after=after, marks_after=marks)


def read(state: CombatState, step: S, proposal: Proposal | None,
         nothing_to_resolve: bool) -> Panel[S]:
    """The panel of `state`, whose next step is `step` (ask.next_step's answer, holding
    the open `proposal`; `nothing_to_resolve`: it moves on to the next phase)."""
    panel = Panel(step=step, phase=state.phase, round=state.round,
                  pending=pending_words(state, proposal),
                  nothing_to_resolve=nothing_to_resolve and proposal is None)
    if state.phase is Phase.DECLARATION:
        return declaring(state, panel)
    if state.phase in (Phase.INSTANT, Phase.ROUND, Phase.EXTENDED):
        return resolving(state, proposal, panel)
    return panel
