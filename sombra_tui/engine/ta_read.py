"""A TA before its dice, read from a state: what it would make (its preview: the GD
with why, the value rolled under) and its exact chances (issue 37), for a TA a dialog
sends, a step still waiting, a reacción prompt's two choices, an action while it is
declared and an opposition's comparisons. The maths of the chances is engine/odds.py's;
the values and GDs are the rules' own (rules/resolution.py, rules/declaration.py,
rules/opposition.py), so the odds a screen shows are those of the roll it will make.

The screens read these through `ask` (the engine's read side), which gives each name.
Nothing here changes a state.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sombra_tui.engine import commands as c
from sombra_tui.engine.conditions import ActionScope, total_gd
from sombra_tui.engine.dice import TAResult, format_gd
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.i18n import _
from sombra_tui.engine.model import Action, ActionKind
from sombra_tui.engine.odds import (
    TAOdds,
    TASpec,
    best_odds,
    conditioned_odds,
    percent,
    ta_odds,
)
from sombra_tui.engine.rules.declaration import alerta_gd, alerta_roll
from sombra_tui.engine.rules.hits import action_scope, ta_grade_entries
from sombra_tui.engine.rules.opposition import opposed_specs, plan_opposition
from sombra_tui.engine.rules.resolution import free_ta_roll, resolve_roll
from sombra_tui.engine.rules.steps import roll_under
from sombra_tui.engine.state import (
    CombatState,
    GdBreakdown,
    Prompt,
    PromptKind,
    ReactionMode,
    Step,
)

# --- previews (B1) -------------------------------------------------------------------


@dataclass(frozen=True)
class TAPreview:
    """A TA as its command would log it (T2): the GD with why (D6, D9, D12, H10), the
    value rolled under (None: T2 finds none yet) and the result (None: no dice yet, or
    no value to roll under)."""

    gd: GdBreakdown
    target: int | None
    result: TAResult | None


def ta_preview(state: CombatState, command: c.Resolve | c.React | c.FreeTA) -> TAPreview:
    """The TA `command` would make now, by the handler's own code (resolve_roll,
    alerta_roll, free_ta_roll). Resolve previews the character's step in the acting
    group; React the open prompt, which must be the character's (its actions play no
    part). A missing value to roll under is no error: target and result are None."""
    if isinstance(command, c.Resolve):
        step = next((s for s in state.current_group() if s.character == command.character),
                    None)  # None: resolve_roll raises the engine's own refusal
        result, gd, target = resolve_roll(state, command, step)
    elif isinstance(command, c.React):
        result, gd, target = alerta_roll(state, command)
    else:
        result, gd, target = free_ta_roll(state, command)
    return TAPreview(gd=gd, target=target, result=result)


def step_preview(state: CombatState, step: Step) -> TAPreview:
    """The TA `step` would make if it resolved now with no DJ overrides (T2, H10, C1): its
    GD with the wound and condition grades, and the value rolled under; the panel's
    line for a step still waiting, by the same code as ta_preview."""
    result, gd, target = resolve_roll(state, c.Resolve(character=step.character), step)
    return TAPreview(gd=gd, target=target, result=result)


# --- odds (issue 37) -----------------------------------------------------------------


def ta_odds_of(state: CombatState, command: c.Resolve | c.React | c.FreeTA) -> TAOdds | None:
    """The exact chances of the TA `command` would make now: ta_preview's value and GD
    (every grade that applies: wounds, conditions, the DJ's, D6's accumulation), the
    command's modifier. None when there is nothing to roll: no value to roll under yet,
    or an outcome the DJ decides without a roll (D12)."""
    if getattr(command, "accept", None) is not None or \
            getattr(command, "accept_without_roll", False):
        return None
    preview = ta_preview(state, command)
    if preview.target is None:
        return None
    return ta_odds(TASpec(target=preview.target, gd=preview.gd.total,
                          points_per_gd=state.settings.points_per_gd,
                          modifier=getattr(command, "modifier", 0),
                          quality_levels=state.settings.niveles_de_calidad))


def step_odds(state: CombatState, step: Step) -> TAOdds | None:
    """The chances of a step still waiting, with no DJ overrides (step_preview)."""
    preview = step_preview(state, step)
    if preview.target is None:
        return None
    return ta_odds(TASpec(target=preview.target, gd=preview.gd.total,
                          points_per_gd=state.settings.points_per_gd,
                          quality_levels=state.settings.niveles_de_calidad))


@dataclass(frozen=True)
class ReactionOdds:
    """The two choices of a reacción prompt and their chances (D5, D6, D9): combining,
    and substituting (one grade more in a reacción; the same in a contrarreacción)."""

    combine: TAOdds
    substitute: TAOdds
    combine_gd: int
    substitute_gd: int
    counter: bool

    def words(self) -> str:
        """"35 % combining · 8 % substituting"; a contrarreacción substitutes at its own
        GD, the same as combining (D9): "contrarreacción at GD +1: 8 %"."""
        if self.counter:
            return _("contrarreacción at GD {gd}: {chance} combining or substituting").format(
                gd=format_gd(self.combine_gd), chance=percent(self.combine.success))
        return _("{combine} combining · {substitute} substituting").format(
            combine=percent(self.combine.success), substitute=percent(self.substitute.success))


def reaction_odds(state: CombatState, prompt: Prompt, *, base: int = 0,
                  extra: int = 0) -> ReactionOdds:
    """The Alerta TA's chances for each choice of `prompt`'s character (D6, D9)."""
    reactor = state.character(prompt.reactor)
    alerta = 0 if reactor is None else reactor.alerta

    def chances(mode: ReactionMode) -> tuple[TAOdds, int]:
        gd = alerta_gd(state, prompt, mode, base=base, extra=extra).total
        return ta_odds(TASpec(target=alerta, gd=gd, points_per_gd=state.settings.points_per_gd,
                              quality_levels=state.settings.niveles_de_calidad)), gd

    (combine, combine_gd), (substitute, substitute_gd) = (
        chances(ReactionMode.COMBINE), chances(ReactionMode.SUBSTITUTE))
    return ReactionOdds(combine=combine, substitute=substitute, combine_gd=combine_gd,
                        substitute_gd=substitute_gd,
                        counter=prompt.kind is PromptKind.COUNTER)


def declared_odds(state: CombatState, name: str, *, kind: ActionKind = ActionKind.ROUND,
                  skill: str = "", target: int | None = None, gd: int = 0,
                  scope: ActionScope | None = None) -> TAOdds | None:
    """The chances of an action while `name` declares it (T2, T3, H10): the value it
    rolls under (the one given, else the character's value of the skill), its GD with
    the wound and condition grades the character carries now, by the action's scope.
    None when nothing is rolled (an automatic action, T7) or no value is known yet."""
    character = state.character(name)
    if character is None or kind is ActionKind.AUTOMATIC:
        return None
    # A form half filled: only what the TA reads, unvalidated (no description yet).
    action = Action.model_construct(kind=kind, description="", skill=skill, target=target,
                                    gd=gd, scope=scope)
    value = roll_under(state, name, action, None)
    if value is None:
        return None
    held = total_gd(ta_grade_entries(state, name, action_scope(character, action)))
    return ta_odds(TASpec(target=value, gd=gd + held,
                          points_per_gd=state.settings.points_per_gd,
                          quality_levels=state.settings.niveles_de_calidad))


@dataclass(frozen=True)
class Comparison:
    """One comparison of an opposition (T5) and its chances: each name's to win, and a
    tie's (the DJ breaks it)."""

    names: tuple[str, ...]
    wins: tuple[Fraction, ...]
    tie: Fraction

    def words(self) -> str:
        """"Ana 45 % · Bruno 50 % · tie 5 %"."""
        return " · ".join([*(f"{name} {percent(win)}" for name, win in
                             zip(self.names, self.wins, strict=True)),
                           _("tie {chance}").format(chance=percent(self.tie))])


def opposed_odds(state: CombatState, step: Step,
                 given: dict[str, tuple[int | None, int | None]] | None = None,
                 size: int = 1) -> list[Comparison]:
    """The chances of an opposition before its dice (O2, O3, T5): each comparison the
    resolver would make, with the values and GDs `given` by name (None: the
    participant's own action's), its wound and condition grades, and O3's `size`. One
    comparison of everyone in O2, one per pair in O3; none when nobody is left to
    oppose the initiator or a value to roll under is missing."""
    try:
        specs = opposed_specs(state, step, given or {})
    except SombraError:
        return []
    plan = plan_opposition(state, step)
    if plan.solo:
        return []
    if plan.direct:
        wins, tie = best_odds([specs[name] for name in plan.rolling])
        return [Comparison(names=plan.rolling, wins=wins, tie=tie)]
    found = []
    for conditioning, conditioned in plan.pairs:
        odds = conditioned_odds(specs[conditioning], specs[conditioned], size)
        found.append(Comparison(names=(conditioning, conditioned),
                                wins=(odds.first, odds.second), tie=odds.tie))
    return found
