"""The round state machine: applies DJ commands to a CombatState and emits events.

`apply(state, command)` mutates `state` in place and returns the log events.
It validates before it changes anything it cannot roll back; callers that
must keep the old state on error (the history) apply to a copy. Every rule is
cited by id where it is applied.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
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
    can_act,
    can_react,
    end_of_round,
    is_out,
    preventing_action,
    preventing_reaction,
    prevents_pending_action,
    total_gd,
)
from sombra_tui.engine.dice import (
    TAResult,
    best_of,
    compare_ta,
    format_gd,
    resolve_ta,
    unrolled_ta,
)
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind, LogEvent
from sombra_tui.engine.i18n import N_, Join, Msg, Text, _
from sombra_tui.engine.initiative import action_groups, declaration_order
from sombra_tui.engine.model import (
    NAME_MAX,
    Action,
    ActionKind,
    Character,
    Encounter,
    ExtendedMode,
    OppositionMode,
    Reading,
    Role,
    name_clashes,
    numbered_names,
)
from sombra_tui.engine.registry import (
    NOT_SETUP,
    RESOLUTION_PHASES,
    check_fits,
    entry_for,
    handles,
)
from sombra_tui.engine.rules.core import Emitter
from sombra_tui.engine.state import (
    Body,
    CombatState,
    Declaration,
    DeferredHit,
    ExtendedProgress,
    ExtendedStatus,
    GdBreakdown,
    PendingMark,
    Phase,
    Prompt,
    PromptKind,
    Proposal,
    ProposalKind,
    ReactionMode,
    Step,
    StepStatus,
    trusted,
)
from sombra_tui.engine.wounds import (
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

PHASE_AFTER: dict[Phase, Phase] = {
    Phase.DECLARATION: Phase.INSTANT,
    Phase.INSTANT: Phase.ROUND,
    Phase.ROUND: Phase.EXTENDED,
    Phase.EXTENDED: Phase.END_OF_ROUND,
    Phase.END_OF_ROUND: Phase.DECLARATION,
}


#: Marks that fit only some phases (P4): nothing is prevented before the first round,
#: nor once the round actions are over.
MARK_PHASES: dict[c.Mark, tuple[Phase, ...]] = {
    c.Mark.PREVENTED: (Phase.DECLARATION, Phase.INSTANT, Phase.ROUND),
    c.Mark.UNPREVENT: tuple(phase for phase in Phase if phase is not Phase.SETUP),
}


def mark_allowed(state: CombatState, mark: c.Mark) -> bool:
    """Whether `mark` (prevented, out, ...) fits the combat's phase now (P4)."""
    phases = MARK_PHASES.get(mark)
    return phases is None or state.phase in phases


def initial_state(encounter: Encounter) -> CombatState:
    return CombatState(
        name=encounter.name,
        settings=encounter.settings,
        characters=list(encounter.characters),
    )


# --------------------------------------------------------------------------- helpers


def _need_character(state: CombatState, name: str) -> Character:
    character = state.character(name)
    if character is None:
        if name in state.removed:
            raise SombraError(N_("{name} was removed from the encounter."),
                              code="character.removed", params={"name": name})
        known = ", ".join(ch.name for ch in state.characters) or "nobody yet"
        raise SombraError(N_("There is no character called {name!r} (the encounter has: "
                             "{known})."),
                          code="character.unknown", params={"name": name, "known": known})
    return character


def _new_id(state: CombatState) -> int:
    value = state.next_id
    state.next_id += 1
    return value


def _check_names(state: CombatState, names: list[str], author: str, what: str) -> list[str]:
    cleaned: list[str] = []
    for name in names:
        _need_character(state, name)
        if name == author:
            raise SombraError(N_("{author} cannot be {what} by their own declaration."),
                              code="declaration.own_name", params={"author": author, "what": what})
        if name not in cleaned:
            cleaned.append(name)
    return cleaned


def _check_actions(state: CombatState, author: str, actions: list[Action]) -> None:
    for action in actions:
        for name in action.targets:
            _need_character(state, name)
        if action.opposition is not None:
            # O3 may condition several characters, or be conditioned by several (seed
            # 001: "uno o más personajes ... otro u otros"); each pair compares as O3.
            _check_names(state, action.opposition.against, author, _("opposed"))
    if sum(1 for a in actions if a.kind is ActionKind.EXTENDED) > 1:
        raise SombraError(N_("One declaration can start at most one extended action."),
                          code="declaration.two_extended")


def _affected(state: CombatState, author: str, actions: list[Action],
              given: list[str] | None) -> list[str]:
    """D2: the DJ's list, or pre-filled from the actions' targets. Inaction affects nobody."""
    if given is None:
        given = [name for action in actions for name in action.targets if name != author]
    if not actions and given:
        raise SombraError(N_("Inaction affects nobody: an empty declaration cannot mark"
                             " affected characters."),
                          code="declaration.inaction_affects")
    return _check_names(state, given, author, _("affected"))


def _start_round(state: CombatState, emit: Emitter, bonus: dict[str, int]) -> None:
    state.phase = Phase.DECLARATION
    state.round_initiative = {
        ch.name: (ch.primaria + bonus.get(ch.name, 0), ch.secundaria)
        for ch in state.characters
    }
    dj_order = [ch.name for ch in state.characters]
    state.declaration_order = declaration_order(state.round_initiative, dj_order)  # I3
    state.declarations = {}
    state.current = {}
    state.prompts = []
    state.reactions_made = {}
    state.locked = []
    state.prevented = []
    state.pending_marks = []
    state.steps = []
    emit(EventKind.ROUND, Msg(N_("Asalto {round} begins. Declaration order: {order}"),
                              round=state.round, order=", ".join(state.declaration_order)),
         rule="D1")


# --------------------------------------------------------------------------- setup


@handles(c.AddCharacter, label=N_("add character"))
def _add_character(state: CombatState, cmd: c.AddCharacter, emit: Emitter) -> None:
    name = cmd.character.name
    if name_clashes([name], (ch.name for ch in state.characters)):
        raise SombraError(N_("There is already a character called {name}; names must be "
                             "unique in the encounter."),
                          code="character.name_taken", params={"name": name},
                          field="character.name")
    state.characters.append(cmd.character)
    if name in state.removed:
        state.removed.remove(name)
    if state.phase is not Phase.SETUP and name in state.round_initiative:
        # Removed and added back mid-round: like any newcomer it joins the orders next
        # round (I3, D1), so it neither declares nor acts again this round.
        del state.round_initiative[name]
        state.declaration_order.remove(name)
        state.current.pop(name, None)
    later: Text = ("" if state.phase is Phase.SETUP
                   else Msg(N_(" (joins the orders next round)")))
    emit(EventKind.ENCOUNTER, Msg(N_("{name} joins the encounter{later}."),
                                  name=name, later=later), actor=name)


def copy_names(state: CombatState, cmd: c.AddCharacters) -> list[str]:
    """The names AddCharacters gives: "base N" after the highest number in use."""
    return numbered_names(cmd.character.name, cmd.count,
                          [ch.name for ch in state.characters])


@handles(c.AddCharacters, label=N_("add characters"))
def _add_characters(state: CombatState, cmd: c.AddCharacters, emit: Emitter) -> None:
    """One sheet, several characters; all or nothing, like an import."""
    names = copy_names(state, cmd)
    too_long = [name for name in names if len(name) > NAME_MAX]
    if too_long:
        raise SombraError(N_("'{name}' would be longer than {max} characters: use a shorter "
                             "name."), code="character.copies_too_long",
                          params={"name": too_long[-1], "max": NAME_MAX},
                          field="character.name")
    clashes = name_clashes(names, (ch.name for ch in state.characters))
    if clashes:
        raise SombraError(N_("Name clash: {names} already in the encounter."),
                          code="character.copies_clash", params={"names": ", ".join(clashes)},
                          field="character.name")
    for name in names:
        copy = cmd.character.model_copy(update={"name": name})
        _add_character(state, c.AddCharacter(character=copy), emit)


@handles(c.ImportCharacters, label=N_("import characters"))
def _import_characters(state: CombatState, cmd: c.ImportCharacters, emit: Emitter) -> None:
    """All or nothing: a name clash is reported, never silently renamed or dropped."""
    clashes = name_clashes((character.name for character in cmd.characters),
                           (ch.name for ch in state.characters))
    if clashes:
        raise SombraError(N_("Name clash: {names} already in the encounter (or twice in the "
                             "import). Rename or leave them out."),
                          code="character.import_clash", params={"names": ", ".join(clashes)})
    for character in cmd.characters:
        _add_character(state, c.AddCharacter(character=character), emit)
    source: Text = Msg(N_(" from {source}"), source=cmd.source) if cmd.source else ""
    count = len(cmd.characters)
    emit(EventKind.ENCOUNTER, Msg(N_("Imported {count} character{source}.") if count == 1
                                  else N_("Imported {count} characters{source}."),
                                  count=count, source=source))


@handles(c.EditCharacter, label=N_("edit character"))
def _edit_character(state: CombatState, cmd: c.EditCharacter, emit: Emitter) -> None:
    old = _need_character(state, cmd.name)
    new = cmd.character
    if new.name != old.name:
        if state.phase is not Phase.SETUP:
            raise SombraError(N_("A character can only be renamed before the combat starts."),
                              code="character.rename_started")
        if name_clashes([new.name], (ch.name for ch in state.characters
                                     if ch.name != old.name)):
            raise SombraError(N_("There is already a character called {name}."),
                              code="character.rename_taken", params={"name": new.name},
                              field="character.name")
    index = state.characters.index(old)
    state.characters[index] = new
    note: Text = ""
    if state.phase is not Phase.SETUP and (new.primaria, new.secundaria) != (
            old.primaria, old.secundaria):
        note = Msg(N_(" New initiative applies from the next round."))
    emit(EventKind.ENCOUNTER, Msg(N_("{name}'s sheet edited.{note}"),
                                  name=new.name, note=note), actor=new.name)


@handles(c.RemoveCharacter, label=N_("remove character"))
def _remove_character(state: CombatState, cmd: c.RemoveCharacter, emit: Emitter) -> None:
    character = _need_character(state, cmd.name)
    name = character.name
    state.characters.remove(character)
    state.removed.append(name)
    for prompt in [p for p in state.prompts if p.reactor == name]:
        state.prompts.remove(prompt)
    # H1/H7/H11: nothing is left to settle about someone who left.
    state.proposals = [p for p in state.proposals if p.character != name]
    state.deferred_hits = [h for h in state.deferred_hits if h.target != name]
    for step in state.steps:
        if step.character == name and step.status is StepStatus.PENDING:
            step.status = StepStatus.SKIPPED
            step.skipped_for = "gone"
            _after_step(state, step, emit)  # P4: it may complete its simultaneous group
    for progress in state.extended:
        if progress.owner == name and progress.status is ExtendedStatus.ACTIVE:
            progress.status = ExtendedStatus.ABANDONED
    emit(EventKind.ENCOUNTER, Msg(N_("{name} leaves the encounter (kept in the log)."),
                                  name=name), actor=name)


@handles(c.MoveCharacter, label=N_("move character"))
def _move_character(state: CombatState, cmd: c.MoveCharacter, emit: Emitter) -> None:
    character = _need_character(state, cmd.name)
    state.characters.remove(character)
    position = min(cmd.position, len(state.characters))
    state.characters.insert(position, character)
    note: Text = ("" if state.phase is Phase.SETUP
                  else Msg(N_(" (orders change from the next round)")))
    emit(EventKind.ENCOUNTER, Msg(N_("{name} moved to position {position} of the DJ's "
                                     "order (tie-break){note}."),
                                  name=cmd.name, position=position + 1,
                                  note=note), actor=cmd.name, rule="I3")


@handles(c.ChangeSettings, label=N_("change settings"))
def _change_settings(state: CombatState, cmd: c.ChangeSettings, emit: Emitter) -> None:
    old, new = state.settings, cmd.settings
    if new == old:
        raise SombraError(N_("The settings are unchanged."),
                          code="settings.unchanged")
    if new.iniciativa_variable != old.iniciativa_variable and state.phase is not Phase.SETUP:
        raise SombraError(N_("Iniciativa variable only matters before the first round; "
                             "it cannot change once the combat has started."),
                          code="settings.variable_started")
    state.settings = new
    changes = [f"{key} {getattr(old, key)} -> {value}"
               for key, value in new.model_dump().items()
               if key != "wounds" and getattr(old, key) != value]
    if new.wounds != old.wounds:  # section H: name each changed setting
        changes += [f"{key} {getattr(old.wounds, key)} -> {getattr(new.wounds, key)}"
                    for key in type(new.wounds).model_fields
                    if key != "damage_types" and getattr(old.wounds, key)
                    != getattr(new.wounds, key)]
        changes += [f"tipo {entry.id} {entry.formula or '-'}, "
                    + ("lethal" if entry.lethal else "non-lethal")
                    for entry, before in zip(new.wounds.damage_types,
                                             old.wounds.damage_types, strict=True)
                    if entry != before]
    emit(EventKind.ENCOUNTER, Msg(N_("Settings: {names}."),
                                  names=", ".join(changes)))
    if not new.reaccion and state.prompts:  # D3: no prompts with reacción off
        for prompt in reversed(state.prompts):
            emit(EventKind.WITHDRAWN, Msg(N_("Prompt for {reactor} withdrawn: reacción is "
                                             "off."),
                                          reactor=prompt.reactor), actor=prompt.reactor, rule="D3")
        state.prompts = []


@handles(c.RenameEncounter, label=N_("rename encounter"))
def _rename_encounter(state: CombatState, cmd: c.RenameEncounter, emit: Emitter) -> None:
    state.name = cmd.name.strip() or state.name
    emit(EventKind.ENCOUNTER, Msg(N_("Encounter renamed to {name}."),
                                  name=state.name))


@handles(c.StartCombat, label=N_("start combat"),
          phases=(Phase.SETUP,), doing=N_("start the combat"), settles_first=True)
def _start_combat(state: CombatState, cmd: c.StartCombat, emit: Emitter) -> None:
    _need_no_proposal(state, _("start the combat"))
    if not state.characters:
        raise SombraError(N_("Add at least one character before starting the combat."),
                          code="start.no_characters")
    rolls = cmd.initiative_rolls
    names = {ch.name for ch in state.characters}
    if state.settings.iniciativa_variable:  # I2
        missing = sorted(names - rolls.keys())
        if missing:
            raise SombraError(N_("Iniciativa variable needs a d10 for every character; "
                                 "missing: {names}."),
                              code="start.rolls_missing", params={"names": ", ".join(missing)})
        extra = sorted(rolls.keys() - names)
        if extra:
            raise SombraError(N_("Initiative rolls for unknown characters: {names}."),
                              code="start.rolls_unknown", params={"names": ", ".join(extra)})
        bad = {n: v for n, v in rolls.items() if not 1 <= v <= 10}
        if bad:
            raise SombraError(N_("An initiative d10 must be from 1 to 10: {rolls}."),
                              code="start.rolls_range",
                              params={"rolls": ", ".join(f"{n} {v}" for n, v in bad.items())})
    elif rolls:
        raise SombraError(N_("Initiative rolls are only for iniciativa variable, which "
                             "is off."),
                          code="start.rolls_unwanted")
    state.round = 1
    if rolls:
        emit(EventKind.ENCOUNTER, Msg(N_("Iniciativa variable for round 1: {names}."),
                                      names=", ".join(f"{n} +{v}" for n, v in rolls.items())),
             rule="I2")
    _start_round(state, emit, rolls)


# --------------------------------------------------------------------------- declaration


def may_react(state: CombatState, reactor: str, declaration: Declaration,
              positions: dict[str, int] | None = None, *, conditions: bool = True) -> bool:
    """D4: already declared, earlier in declaration order, directly affected, able, unlocked."""
    author = declaration.author
    if not state.settings.reaccion or reactor == author:  # D3
        return False
    if reactor not in declaration.affected or reactor not in state.current:
        return False
    if reactor in state.out or reactor in state.locked or state.character(reactor) is None:
        return False
    if conditions and not can_react(state.body(reactor).conditions, state.round):  # C4
        return False
    if positions is None:
        positions = _positions(state, (reactor, author))
    if reactor not in positions or author not in positions:
        return False
    return positions[reactor] < positions[author]


def _positions(state: CombatState, names: Iterable[str]) -> dict[str, int]:
    """Declaration-order positions of `names` (those in the order)."""
    positions: dict[str, int] = {}
    for name in names:
        position = state.declaration_position(name)
        if position is not None:
            positions[name] = position
    return positions


def _open_prompts(state: CombatState, declaration: Declaration, answered_kind: PromptKind | None,
                  emit: Emitter) -> None:
    """D11: first the author of the answered declaration, then the D4 reactors in order."""
    if not state.settings.reaccion:  # D3
        return
    opened: list[Prompt] = []
    answered_author: str | None = None
    if declaration.answers is not None:
        answered_author = state.declarations[declaration.answers].author
        # D9/D10: a reaction is answered by a counter-reaction and vice versa.
        kind = PromptKind.COUNTER if answered_kind is PromptKind.REACTION else \
            PromptKind.REACTION
        reason = _skip_reason(state, answered_author)
        if reason is not None:  # D7/D11: never offered, not even as a counter-reaction
            emit(EventKind.SKIPPED, Msg(N_("{answered_author}'s prompt skipped: {reason}"
                                           "."),
                                        answered_author=answered_author, reason=reason),
                 actor=answered_author, rule="D11")
        else:
            opened.append(Prompt(id=_new_id(state), reactor=answered_author,
                                 declaration_id=declaration.id, kind=kind))
    positions = _positions(state, [declaration.author, *declaration.affected])
    affected = sorted((name for name in declaration.affected if name in positions),
                      key=positions.__getitem__)  # D11: in declaration order
    for name in affected:
        if name == answered_author:
            continue
        if may_react(state, name, declaration, positions):
            opened.append(Prompt(id=_new_id(state), reactor=name,
                                 declaration_id=declaration.id))
        elif may_react(state, name, declaration, positions, conditions=False):
            # C4: able by D4 but for a condition: no prompt, the skip is logged (D11).
            names = ", ".join(dict.fromkeys(cond.name for cond in preventing_reaction(
                state.body(name).conditions, state.round)))
            emit(EventKind.SKIPPED, Msg(N_("{name}'s prompt skipped: {conditions}."),
                                        name=name, conditions=names),
                 actor=name, rule="C4", code="prompt.cannot_react",
                 data={"conditions": names})
    for prompt in opened:
        template = (N_("{reactor} may counter-react to {author}.")
                    if prompt.kind is PromptKind.COUNTER
                    else N_("{reactor} may react to {author}."))
        emit(EventKind.PROMPT, Msg(template, reactor=prompt.reactor, author=declaration.author),
             actor=prompt.reactor, targets=[declaration.author],
             rule="D9" if prompt.kind is PromptKind.COUNTER else "D4")
    # A stack: the first to answer goes on top (D11, depth first).
    state.prompts.extend(reversed(opened))


@handles(c.Declare, label=N_("declare"),
          phases=(Phase.DECLARATION,), doing=N_("declare"), settles_first=True)
def _declare(state: CombatState, cmd: c.Declare, emit: Emitter) -> None:
    _need_character(state, cmd.character)
    _need_no_proposal(state, _("declare"))
    top = state.top_prompt
    if top is not None:
        raise SombraError(N_("First settle {reactor}'s reacción prompt."),
                          code="declare.prompt_open", params={"reactor": top.reactor})
    declarer = state.current_declarer
    if declarer is None:
        raise SombraError(N_("Everyone has declared this round; advance to the instant "
                             "phase."),
                          code="declare.all_declared")
    if cmd.character != declarer:
        if cmd.character in state.current:
            raise SombraError(N_("{character} has already declared this round."),
                              code="declare.already", params={"character": cmd.character})
        if cmd.character not in state.round_initiative:
            raise SombraError(N_("{character} joined during this round and declares from the"
                                 " next one."),
                              code="declare.joined", params={"character": cmd.character})
        if cmd.character in state.out:
            raise SombraError(N_("{character} is out and cannot act."),
                              code="declare.out", params={"character": cmd.character})
        raise SombraError(N_("It is {declarer}'s turn to declare, not {character}'s "
                             "(declaration order)."),
                          code="declare.not_turn",
                          params={"declarer": declarer, "character": cmd.character})
    unable = _unable_by_conditions(state, cmd.character)
    if unable and cmd.actions:  # C4/D1: only inaction
        raise CodedError("declare.cannot_act", N_("{character} is {conditions} and can only "
                                                  "declare inaction."),
                         params={"character": cmd.character, "conditions": unable})
    _check_actions(state, cmd.character, cmd.actions)
    affected = _affected(state, cmd.character, cmd.actions, cmd.affected)
    declaration = trusted(Declaration, id=_new_id(state), author=cmd.character,
                          actions=cmd.actions, affected=affected, new_actions=cmd.actions)
    state.declarations[declaration.id] = declaration
    state.current[cmd.character] = declaration.id
    emit(EventKind.DECLARE,
         Msg(N_("{name} declares: {summary} (affects {affected})"), name=cmd.character,
             summary=declaration.summary_msg(), affected=", ".join(affected)) if affected
         else Msg(N_("{name} declares: {summary}"), name=cmd.character,
                  summary=declaration.summary_msg()),
         actor=cmd.character, targets=affected, rule="D1")
    _open_prompts(state, declaration, None, emit)


def _need_top_prompt(state: CombatState, name: str, doing: str) -> Prompt:
    _need_character(state, name)
    top = state.top_prompt
    if top is None:
        raise SombraError(N_("No reacción prompt is open; {name} cannot {doing} now."),
                          code="prompt.none_open", params={"name": name, "doing": doing})
    if top.reactor != name:
        raise SombraError(N_("The open prompt is {reactor}'s, not {name}'s (prompts are"
                             " answered one at a time)."),
                          code="prompt.not_yours", params={"reactor": top.reactor, "name": name})
    return top


def alerta_gd(state: CombatState, prompt: Prompt, mode: ReactionMode, *, base: int = 0,
              extra: int = 0) -> GdBreakdown:
    """D6/D9: base + 1 for substituting (not in a counter-reaction) + 1 per earlier reaction."""
    substitution = 1 if (mode is ReactionMode.SUBSTITUTE
                         and prompt.kind is PromptKind.REACTION) else 0
    # H10: an Alerta TA is not physical: only conditions on every TA apply.
    grades = ta_grade_entries(state, prompt.reactor, ActionScope.alerta())
    return GdBreakdown(base=base, substitution=substitution,
                       earlier_reactions=state.reactions_made.get(prompt.reactor, 0),
                       override=extra, grades=grades)


@handles(c.React, label=N_("react"),
          phases=(Phase.DECLARATION,), doing=N_("react"), settles_first=True)
def _react(state: CombatState, cmd: c.React, emit: Emitter) -> None:
    prompt = _need_top_prompt(state, cmd.character, _("react"))
    character = _need_character(state, cmd.character)
    _need_no_proposal(state, _("react"))
    answered = state.declarations[prompt.declaration_id]
    old = state.declaration_of(cmd.character)
    assert old is not None  # D4: only characters who declared are prompted
    _check_actions(state, cmd.character, cmd.actions)
    if cmd.mode is ReactionMode.COMBINE and any(
            a.kind is ActionKind.EXTENDED for a in old.actions) and any(
            a.kind is ActionKind.EXTENDED for a in cmd.actions):
        raise SombraError(N_("One declaration can start at most one extended action: "
                             "{character}'s already starts one; substitute instead."),
                          code="react.two_extended", params={"character": cmd.character})
    new_affected = _affected(state, cmd.character, cmd.actions, cmd.affected)
    if cmd.accept_without_roll and cmd.dice is not None:
        raise SombraError(N_("Either roll the Alerta TA or accept the reacción without a "
                             "roll, not both."),
                          code="react.roll_and_accept")
    if not cmd.accept_without_roll and cmd.dice is None:
        raise SombraError(N_("The reacción needs an Alerta TA: roll or type the dice."),
                          code="react.no_roll")
    gd = alerta_gd(state, prompt, cmd.mode, base=cmd.base_gd, extra=cmd.extra_gd)
    if cmd.dice is None:
        result = unrolled_ta(target=character.alerta, gd=gd.total)
    else:
        result = resolve_ta(cmd.dice, target=character.alerta, gd=gd.total,
                            points_per_gd=state.settings.points_per_gd,
                            quality_levels=state.settings.niveles_de_calidad)
    word = (Msg(N_("contrarreacción")) if prompt.kind is PromptKind.COUNTER
            else Msg(N_("reacción")))
    state.prompts.pop()
    if not result.success:  # D7: as if Y had not tried, and locked for the round
        state.locked.append(cmd.character)
        emit(EventKind.REACTION, Msg(N_("{character}'s {word} fails: keeps \"{summary}\" and "
                                        "cannot react again this round."),
                                     character=cmd.character, word=word, summary=old.summary_msg()),
             actor=cmd.character, targets=[answered.author], ta=result, gd=gd,
             override=bool(cmd.extra_gd), rule="D7")
        return
    # D8: the declaration becomes the combination or the substitute.
    actions = ([*old.actions, *cmd.actions] if cmd.mode is ReactionMode.COMBINE
               else list(cmd.actions))
    declaration = trusted(Declaration, id=_new_id(state), author=cmd.character,
                          actions=actions, affected=new_affected, answers=answered.id,
                          replaces=old.id, mode=cmd.mode, new_actions=cmd.actions)
    state.declarations[declaration.id] = declaration
    state.current[cmd.character] = declaration.id
    state.reactions_made[cmd.character] = state.reactions_made.get(cmd.character, 0) + 1
    how = Msg(N_("combines")) if cmd.mode is ReactionMode.COMBINE else Msg(N_("substitutes"))
    if cmd.accept_without_roll:
        emit(EventKind.OVERRIDE, Msg(N_("DJ accepts {character}'s {word} without a roll"
                                        "."),
                                     character=cmd.character, word=word),
             actor=cmd.character, override=True, rule="D12")
    emit(EventKind.REACTION, Msg(N_("{character}'s {word} succeeds and {how}: {summary}"),
                                 character=cmd.character, word=word, how=how,
                                 summary=declaration.summary_msg()), actor=cmd.character,
         targets=[answered.author, *new_affected], ta=result, gd=gd,
         override=bool(cmd.extra_gd) or cmd.accept_without_roll,
         rule="D9" if prompt.kind is PromptKind.COUNTER else "D8")
    if cmd.mode is ReactionMode.SUBSTITUTE:  # D8: prompts of the old declaration go
        # ... and of the earlier versions combined into it (their actions go too).
        gone: set[int] = set()
        version: Declaration | None = old
        while version is not None and version.id not in gone:
            gone.add(version.id)
            version = (state.declarations.get(version.replaces)
                       if version.replaces is not None else None)
        withdrawn = [p for p in state.prompts if p.declaration_id in gone]
        for p in withdrawn:
            state.prompts.remove(p)
            emit(EventKind.WITHDRAWN, Msg(N_("{reactor}'s prompt withdrawn: {character} "
                                             "substituted the declaration it answered."),
                                          reactor=p.reactor,
                                          character=cmd.character), actor=p.reactor, rule="D8")
    _open_prompts(state, declaration, prompt.kind, emit)


@handles(c.Decline, label=N_("decline"), phases=(Phase.DECLARATION,), doing=N_("decline"))
def _decline(state: CombatState, cmd: c.Decline, emit: Emitter) -> None:
    prompt = _need_top_prompt(state, cmd.character, _("decline"))
    state.prompts.pop()
    author = state.declarations[prompt.declaration_id].author
    emit(EventKind.DECLINE, Msg(N_("{name} does not react to {author} (no roll, no count, "
                                   "no lock)."), name=cmd.character, author=author),
         actor=cmd.character, targets=[author], rule="D4")


@handles(c.DenyPrompt, label=N_("deny prompt"),
          phases=(Phase.DECLARATION,), doing=N_("be denied a reacción"))
def _deny_prompt(state: CombatState, cmd: c.DenyPrompt, emit: Emitter) -> None:
    prompt = _need_top_prompt(state, cmd.character, _("be denied a reacción"))
    state.prompts.pop()
    author = state.declarations[prompt.declaration_id].author
    emit(EventKind.OVERRIDE, Msg(N_("DJ denies {name}'s reacción to {author}."),
                                 name=cmd.character, author=author),
         actor=cmd.character, targets=[author], override=True, rule="D12")


@handles(c.AllowPrompt, label=N_("allow prompt"),
          phases=(Phase.DECLARATION,), doing=N_("open a reacción prompt"))
def _allow_prompt(state: CombatState, cmd: c.AllowPrompt, emit: Emitter) -> None:
    _need_character(state, cmd.character)
    _need_character(state, cmd.against)
    if not state.settings.reaccion:
        raise SombraError(N_("Reacción is off in the settings; turn it on to allow "
                             "reacciones."),
                          code="allow.reaccion_off")
    if cmd.character == cmd.against:
        raise SombraError(N_("{character} cannot react to their own declaration."),
                          code="allow.own", params={"character": cmd.character})
    if cmd.character not in state.current:
        raise SombraError(N_("{character} has not declared yet, so has nothing to change by "
                             "reacting."),
                          code="allow.not_declared", params={"character": cmd.character})
    declaration = state.declaration_of(cmd.against)
    if declaration is None:
        raise SombraError(N_("{against} has not declared yet this round."),
                          code="allow.against_not_declared", params={"against": cmd.against})
    prompt = Prompt(id=_new_id(state), reactor=cmd.character, declaration_id=declaration.id,
                    forced=True)
    state.prompts.append(prompt)
    notes = []
    if cmd.character in state.locked:
        notes.append(Msg(N_("despite the failed Alerta")))
    if cmd.character in state.out:
        notes.append(Msg(N_("despite being out")))
    note: Text = Msg(" ({notes})", notes=Join(", ", notes)) if notes else ""
    emit(EventKind.OVERRIDE, Msg(N_("DJ lets {character} react to {against}{note}."),
                                 character=cmd.character, against=cmd.against, note=note),
         actor=cmd.character, targets=[cmd.against], override=True, rule="D12")


# --------------------------------------------------------------------------- resolution


def _build_steps(state: CombatState, phase: Phase, emit: Emitter) -> None:
    """P2/P3: one step per instant (or round/automatic) action, in action order (I4)."""
    state.steps = []
    dj_order = [ch.name for ch in state.characters]
    groups = action_groups(state.round_initiative, dj_order)
    kinds = ({ActionKind.INSTANT} if phase is Phase.INSTANT
             else {ActionKind.ROUND, ActionKind.AUTOMATIC})
    for group_index, group in enumerate(groups):
        for name in group:
            declaration = state.declaration_of(name)
            if declaration is None:
                continue
            for index, action in enumerate(declaration.actions):
                if action.kind in kinds:
                    state.steps.append(Step(id=_new_id(state), character=name,
                                            action_index=index, group=group_index))
    if not state.steps:
        emit(EventKind.PHASE, N_("Nothing to resolve in this phase."))


def _build_extended_steps(state: CombatState, emit: Emitter) -> None:
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
            state.steps.append(Step(id=_new_id(state), character=progress.owner,
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


def _start_extended(state: CombatState, emit: Emitter) -> None:
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
                id=_new_id(state), owner=name, action=action, mode=spec.mode,
                duration=spec.duration, successes_needed=spec.successes,
                interval=spec.interval, gd=action.gd, started_round=state.round)
            state.extended.append(progress)
            plan = (Msg(N_("simple: TA after {duration} rounds"), duration=spec.duration)
                    if spec.mode is ExtendedMode.SIMPLE else
                    Msg(N_("complex: {successes} successes, a TA every {interval} rounds"),
                        successes=spec.successes, interval=spec.interval))
            emit(EventKind.EXTENDED, Msg(N_("{name} starts the extended action \"{description}\" "
                                            "({plan})."), name=name,
                                         description=action.description, plan=plan),
                 actor=name, rule="E2" if spec.mode is ExtendedMode.SIMPLE else "E3")


@handles(c.Advance, label=N_("advance"),
          phases=NOT_SETUP,
          refusal=("advance.not_started", N_("Start the combat first (it opens round 1).")),
          settles_first=True)
def _advance(state: CombatState, cmd: c.Advance, emit: Emitter) -> None:
    phase = state.phase
    _need_no_proposal(state, _("go on"))
    if phase is Phase.DECLARATION:
        if state.prompts:
            raise SombraError(N_("{reactor}'s reacción prompt is still open."),
                              code="advance.prompt_open",
                              params={"reactor": state.prompts[-1].reactor})
        if state.next_declarer is not None:
            raise SombraError(N_("{name} has not declared yet."),
                              code="advance.not_declared",
                              params={"name": str(state.next_declarer)})
    elif phase in RESOLUTION_PHASES:
        pending = state.pending_steps()
        if pending:
            who = ", ".join(dict.fromkeys(step.character for step in pending))
            raise SombraError(N_("Still to resolve in this phase: {names}."),
                              code="advance.unresolved", params={"names": who})
    state.held_conditions = []
    _apply_pending_marks(state, emit)
    if phase is Phase.END_OF_ROUND:
        state.round += 1
        _start_round(state, emit, {})
        return
    if phase is Phase.DECLARATION:
        _start_extended(state, emit)
    state.phase = PHASE_AFTER[phase]  # P1: instant, round, extended, in order
    emit(EventKind.PHASE, Msg(N_("{phase}."), phase=Msg(_PHASE_TITLES[state.phase])),
         rule="P1")
    if state.phase is Phase.INSTANT:
        _build_steps(state, Phase.INSTANT, emit)
    elif state.phase is Phase.ROUND:
        _build_steps(state, Phase.ROUND, emit)
    elif state.phase is Phase.EXTENDED:
        _build_extended_steps(state, emit)
    elif state.phase is Phase.END_OF_ROUND:
        state.steps = []
        if state.bodies:
            _end_of_round_bodies(state, emit)  # H9 bleeding, then C3 expiry
        emit(EventKind.ROUND, Msg(N_("Asalto {round} ends."), round=state.round),
             rule="P6")


_PHASE_TITLES = {
    Phase.INSTANT: N_("Instant actions"),
    Phase.ROUND: N_("Round actions"),
    Phase.EXTENDED: N_("Extended actions"),
    Phase.END_OF_ROUND: N_("End of the round"),
}


def _find_step(state: CombatState, name: str, doing: str) -> Step:
    _need_character(state, name)
    _need_no_proposal(state, doing)
    group = state.current_group()
    for step in group:
        if step.character == name:
            return step
    if any(step.character == name for step in state.pending_steps()):
        acting = ", ".join(dict.fromkeys(step.character for step in group))
        raise SombraError(N_("It is not {name}'s turn yet: {acting} acts first."),
                          code="resolve.not_turn", params={"name": name, "acting": acting})
    raise SombraError(N_("{name} has nothing to resolve in this phase."),
                      code="resolve.nothing", params={"name": name})


def _target_for(state: CombatState, name: str, action: Action, given: int | None) -> int:
    if given is not None:
        return given
    if action.target is not None:
        return action.target
    character = state.character(name)
    value = character.skill_value(action.skill) if character and action.skill else None
    if value is not None:
        return value
    raise SombraError(N_("{name}'s action \"{description}\" has no value to roll under: give a"
                         " target."),
                      code="resolve.no_target",
                      params={"name": name, "description": action.description})


@handles(c.Resolve, label=N_("resolve"),
          phases=RESOLUTION_PHASES, doing=N_("resolve an action"), settles_first=True)
def _resolve(state: CombatState, cmd: c.Resolve, emit: Emitter) -> None:
    step = _find_step(state, cmd.character, _("resolve an action"))
    action = state.step_action(step)
    if action.opposition is not None and action.kind is not ActionKind.AUTOMATIC:
        plan = plan_opposition(state, step)
        if not plan.solo:
            raise SombraError(N_("\"{description}\" is an opposed action: resolve it with the "
                                 "TA of each participant: {participants}."),
                              code="resolve.opposed",
                              params={"description": action.description,
                                      "participants": ", ".join(plan.rolling)})
        # O2/O3/P4/O5: nobody able is left to oppose it, so it is the character's own TA.
        _log_exclusions(plan, action, (), emit)
    if action.kind is ActionKind.AUTOMATIC:  # T7: never rolls
        if cmd.dice is not None or cmd.accept is not None:
            raise SombraError(N_("Automatic actions never roll."),
                              code="resolve.automatic_roll")
        step.status = StepStatus.DONE
        emit(EventKind.TA, Msg(N_("{character}: \"{description}\" happens (automatic, no roll"
                                  ")."),
                               character=cmd.character,
                               description=action.description),
             actor=cmd.character, targets=list(action.targets), rule="T7")
        _after_step(state, step, emit)
        return
    if cmd.dice is None and cmd.accept is None:
        raise SombraError(N_("Roll or type the dice for this TA."),
                          code="resolve.no_dice")
    if cmd.dice is not None and cmd.accept is not None:
        raise SombraError(N_("Either roll the dice or let the DJ decide the outcome, not "
                             "both."),
                          code="resolve.dice_and_outcome")
    target = _target_for(state, cmd.character, action, cmd.target)
    progress = (state.extended_by_id(step.extended_id) if step.extended_id is not None
                else None)
    base_gd = state.step_gd(step)
    grades = ta_grade_entries(state, cmd.character,
                              action_scope(_need_character(state, cmd.character), action))
    gd = base_gd + cmd.extra_gd + total_gd(grades)  # H10: wound and condition grades
    if cmd.dice is None:
        assert cmd.accept is not None
        result = unrolled_ta(target=target, success=cmd.accept, gd=gd)
    else:
        result = resolve_ta(cmd.dice, target=target, gd=gd, modifier=cmd.modifier,
                            points_per_gd=state.settings.points_per_gd,
                            quality_levels=state.settings.niveles_de_calidad)
    step.status = StepStatus.DONE
    step.result = result
    emit(EventKind.TA, Msg(N_("{character}: \"{description}\""),
                           character=cmd.character, description=action.description),
         actor=cmd.character, targets=list(action.targets), ta=result,
         gd=GdBreakdown(base=base_gd, override=cmd.extra_gd, grades=grades) if grades
         else None,
         override=cmd.accept is not None or bool(cmd.extra_gd),
         rule="P5" if progress else ("P2" if state.phase is Phase.INSTANT else "P3"))
    if progress is not None:
        _extended_result(state, progress, result.success, emit)
    if action.is_attack:
        _propose_hits(state, step, action, cmd.character, result, emit)  # H1
    _after_step(state, step, emit)


@handles(c.FreeTA, label=N_("free TA"))
def _free_ta(state: CombatState, cmd: c.FreeTA, emit: Emitter) -> None:
    """T8: the DJ asks any character for a TA outside the steps (T2, T6; O4's confirming
    TA). It changes nothing but the log, in any phase; undo removes it like any command."""
    character = _need_character(state, cmd.character)
    skill = cmd.skill.strip()
    target = cmd.target
    if target is None:
        if not skill:
            raise SombraError(N_("Give the value {character} rolls under, or what is rolled "
                                 "(a skill on the character's sheet)."),
                              code="free_ta.no_target", params={"character": cmd.character},
                              field="target")
        target = character.skill_value(skill)
        if target is None:
            known = ", ".join(character.skills) or "none"
            raise SombraError(N_("{character} has no skill {skill!r} (skills: {known}); give"
                                 " the value to roll under."),
                              code="free_ta.no_skill",
                              params={"character": cmd.character, "skill": skill, "known": known},
                              field="target")
    grades = free_ta_grades(state, cmd)  # H10: a wounded character's free TA too
    result = resolve_ta(cmd.dice, target=target, gd=cmd.gd + total_gd(grades),
                        modifier=cmd.modifier,
                        points_per_gd=state.settings.points_per_gd,
                        quality_levels=state.settings.niveles_de_calidad)
    what = ": ".join(part for part in (skill, cmd.label.strip()) if part)
    notes: Text = Msg(N_(" (while out)")) if cmd.character in state.out else ""
    emit(EventKind.TA, Msg(N_("DJ asks {name} for a TA{notes}: {what}") if what
                           else N_("DJ asks {name} for a TA{notes}"),
                           name=cmd.character, notes=notes, what=what),
         actor=cmd.character, ta=result,
         gd=GdBreakdown(base=cmd.gd, grades=grades) if grades else None, rule="T8")


def free_ta_grades(state: CombatState, cmd: c.FreeTA) -> list[GradeEntry]:
    """T8, H10/C1: the wound and condition grades the DJ's free TA carries (its scope, or
    physical with the main arm). Read by the machine and by a dialog's preview."""
    character = state.character(cmd.character)
    if character is None:
        return []
    scope = cmd.scope if cmd.scope is not None else ActionScope.default(character.main_arm)
    return ta_grade_entries(state, cmd.character, scope)


def _extended_result(state: CombatState, progress: ExtendedProgress, success: bool,
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
            emit(EventKind.EXTENDED, Msg(N_("{name} fails \"{what}\" and restarts it: "
                                            "{duration} rounds again; the DJ may shorten it"
                                            "."),
                                         name=name, what=what, duration=progress.duration),
                 actor=name, rule="E2")
        return
    if success:  # E3: each success is counted
        progress.successes += 1
    if progress.successes >= progress.successes_needed:
        progress.status = ExtendedStatus.DONE
        emit(EventKind.EXTENDED, Msg(N_("{name} completes \"{what}\" with {successes} "
                                        "successes."),
                                     name=name, what=what,
                                     successes=progress.successes), actor=name, rule="E3")
    else:
        emit(EventKind.EXTENDED, Msg(N_("{name}: \"{what}\" {successes}/{successes_needed} "
                                        "successes."),
                                     name=name, what=what, successes=progress.successes,
                                     successes_needed=progress.successes_needed),
             actor=name, rule="E3")


# --------------------------------------------------------------------------- opposition


@dataclass(frozen=True)
class OppositionPlan:
    """Who takes part in an opposed action and how they are compared (O2, O3, E4, P4).

    Read by the machine to resolve it and by a UI to ask for the right TAs.
    """

    initiator: str
    #: O2 (and E4, which compares as O2) or O3.
    direct: bool
    #: Everyone the opposition involves: the initiator, its opponents and, in O3, the
    #: other characters those opponents' own conditioned actions name (seed 001: "uno o
    #: más personajes" conditioning "otro u otros").
    members: tuple[str, ...]
    #: Members that cannot take part, with the reason (out, prevented, gone).
    excluded: dict[str, Msg] = field(default_factory=dict)
    #: Members that roll: able ones still facing an able opponent (the initiator first).
    rolling: tuple[str, ...] = ()
    #: O3: the (conditioning, conditioned) pairs compared, each as O3.
    pairs: tuple[tuple[str, str], ...] = ()

    @property
    def solo(self) -> bool:
        """Nobody left to oppose the initiator: its action is its own TA (O2, O3)."""
        return self.rolling == (self.initiator,)

    @property
    def conditioning(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(pair[0] for pair in self.pairs))

    @property
    def conditioned(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(pair[1] for pair in self.pairs))


def unable_reason(state: CombatState, name: str) -> str | None:
    """P4: why `name` cannot act now, in the language in force (see unable_msg)."""
    reason = unable_msg(state, name)
    return None if reason is None else reason.render()


def unable_msg(state: CombatState, name: str) -> Msg | None:
    """P4: why `name` cannot act now (out, prevented in the round phase, gone), if so.
    A mark held for a simultaneous group (P4) does not count until it applies."""
    if state.character(name) is None:
        return Msg(N_("left the encounter"))
    if name in state.out:
        return Msg(N_("out"))
    if state.phase is Phase.ROUND and name in state.prevented:
        return Msg(N_("prevented"))
    return None


def _opposing_step(state: CombatState, name: str, against: Iterable[str]) -> Step | None:
    """`name`'s pending step whose opposed action names one of `against`."""
    wanted = set(against)
    for step in state.pending_steps():
        if step.character != name:
            continue
        action = state.step_action(step)
        if action.opposition is not None and wanted & set(action.opposition.against):
            return step
    return None


def plan_opposition(state: CombatState, step: Step) -> OppositionPlan:
    """O2/O3/E4 with P4 and O5: the participants of `step`'s opposed action as things
    stand."""
    action = state.step_action(step)
    opposition = action.opposition
    assert opposition is not None
    initiator = step.character
    direct = opposition.mode is OppositionMode.DIRECT or step.extended_id is not None
    # side 0: the initiator's side; in O3 the sides are conditioning and conditioned.
    side: dict[str, int] = {initiator: 0}
    links: list[tuple[str, str]] = []
    for name in opposition.against:
        if name not in side:
            side[name] = 1
            links.append((initiator, name))
    if not direct:
        # O3 with several characters: an opponent's own conditioned action may name
        # others (one alarm, several guards), who join on the initiator's side.
        for name in [n for n in side if n != initiator]:
            their = _opposing_step(state, name, [initiator])
            if their is None:
                continue
            their_opposition = state.step_action(their).opposition
            assert their_opposition is not None
            if their_opposition.mode is not OppositionMode.CONDITIONED:
                continue
            for other in their_opposition.against:
                if other not in side:
                    side[other] = 1 - side[name]
                if side[other] != side[name] and (other, name) not in links \
                        and (name, other) not in links:
                    links.append((name, other))
    members = tuple(side)
    # O5: only those able to act (not out; in the round phase, not prevented) take part.
    excluded = {name: reason for name in members
                if (reason := unable_msg(state, name)) is not None}
    able = [name for name in members if name not in excluded]
    if direct:
        rolling = tuple(able) if len(able) > 1 else (initiator,)  # O5: one left: own TA
        return OppositionPlan(initiator=initiator, direct=True, members=members,
                              excluded=excluded, rolling=rolling)
    conditioning_side = 0 if opposition.role is Role.CONDITIONING else 1
    pairs: list[tuple[str, str]] = []
    for first, second in links:
        if first in excluded or second in excluded:
            continue
        pair = (first, second) if side[first] == conditioning_side else (second, first)
        pairs.append(pair)
    in_pairs = {name for pair in pairs for name in pair}
    rolling = (initiator, *(name for name in members
                            if name != initiator and name in in_pairs))
    return OppositionPlan(initiator=initiator, direct=False, members=members,
                          excluded=excluded, rolling=rolling, pairs=tuple(pairs))


def _log_exclusions(plan: OppositionPlan, action: Action, given: Iterable[str],
                    emit: Emitter) -> None:
    """O2/O3/P4: who does not take part, and why; their dice, if given, do not count."""
    rule = "O2" if plan.direct else "O3"
    given = set(given)
    for name in plan.members:
        if name in plan.rolling:
            continue
        reason = plan.excluded.get(name, Msg(N_("no able opponent left")))
        dice_note: Text = Msg(N_("; its dice are not counted")) if name in given else ""
        emit(EventKind.SKIPPED, Msg(N_("{name} does not take part in \"{description}\": "
                                       "{reason}{dice_note}."),
                                    name=name, description=action.description, reason=reason,
                                    dice_note=dice_note), actor=name, rule=rule)
    if plan.solo and len(plan.members) > 1:
        emit(EventKind.OPPOSED, Msg(N_("Nobody is left to oppose {initiator}: "
                                       "\"{description}\" is resolved as {initiator}'s own TA."),
                                    initiator=plan.initiator, description=action.description),
             actor=plan.initiator, rule=rule)


def _opponent_values(state: CombatState, name: str, members: Iterable[str],
                     roll: c.OpposedRoll) -> tuple[int, int, Step | None]:
    """Target and GD of an opponent: given, or from its own action opposing a member."""
    step = _opposing_step(state, name, members)
    if step is not None:
        action = state.step_action(step)
        target = _target_for(state, name, action, roll.target)
        gd = roll.gd if roll.gd is not None else state.step_gd(step)
        return target, gd, step
    if roll.target is None:
        raise SombraError(N_("Give {name}'s value to roll under: {name} has no action "
                             "opposing this one this phase."),
                          code="opposed.no_target", params={"name": name})
    return roll.target, roll.gd or 0, None


def _decide(computed: list[str], among: list[str], cmd: c.ResolveOpposed
            ) -> tuple[str, Text, bool]:
    """T5 and the DJ: (winner, note for the log, whether the DJ decided)."""
    chosen = [name for name in cmd.winners if name in among]
    if len(chosen) > 1:
        raise SombraError(N_("The DJ named {names} as winners of the same comparison; name "
                             "one."),
                          code="opposed.two_winners", params={"names": " and ".join(chosen)})
    if chosen:  # the DJ overrides any outcome, not only a tie
        winner = chosen[0]
        if len(computed) > 1:
            return winner, Msg(N_(" (tie broken by the DJ)")), True
        if winner == computed[0]:
            return winner, Msg(N_(" (DJ decision, as the dice give)")), True
        return (winner, Msg(N_(" (DJ decision; by the dice {name} would win)"),
                            name=computed[0]), True)
    if len(computed) > 1:
        if cmd.tie_winner is None or cmd.tie_winner not in among:
            raise SombraError(N_("Tie between {winners}: the DJ chooses the winner."),
                              code="opposed.tie", params={"winners": " and ".join(computed)},
                              field="tie_winner")
        if cmd.tie_winner not in computed:
            raise SombraError(N_("{winner} is not among the tied: {winners}."),
                              code="opposed.not_tied",
                              params={"winner": cmd.tie_winner, "winners": ", ".join(computed)})
        return cmd.tie_winner, Msg(N_(" (tie broken by the DJ)")), True
    return computed[0], "", False


@handles(c.ResolveOpposed, label=N_("resolve opposed"),
          phases=RESOLUTION_PHASES, doing=N_("resolve an opposed action"), settles_first=True)
def _resolve_opposed(state: CombatState, cmd: c.ResolveOpposed, emit: Emitter) -> None:
    step = _find_step(state, cmd.character, _("resolve an opposed action"))
    action = state.step_action(step)
    opposition = action.opposition
    if opposition is None:
        raise SombraError(N_("\"{description}\" is not an opposed action; resolve it with a "
                             "single TA."),
                          code="opposed.not_opposed", params={"description": action.description})
    plan = plan_opposition(state, step)
    given = [roll.character for roll in cmd.rolls]
    if len(set(given)) != len(given):
        raise SombraError(N_("One TA per participant: {names} given twice."),
                          code="opposed.rolls_twice", params={"names": ", ".join(
            sorted({n for n in given if given.count(n) > 1}))})
    strangers = [name for name in given if name not in plan.members]
    missing = [name for name in plan.rolling if name not in given]
    if strangers or missing:
        raise SombraError(N_("An opposed roll needs one TA for each participant: "
                             "{participants} (got {given})."),
                          code="opposed.rolls_mismatch",
                          params={"participants": ", ".join(plan.rolling),
                                  "given": ', '.join(given)})
    for name in cmd.winners:
        if name not in plan.rolling:
            raise SombraError(N_("{name} does not roll in this opposition, so cannot be "
                                 "named its winner."),
                              code="opposed.not_rolling", params={"name": name})
    if plan.direct and len(cmd.winners) > 1:
        raise SombraError(N_("A direct opposition has one winner: name one."),
                          code="opposed.direct_one_winner")
    rolls = {roll.character: roll for roll in cmd.rolls}
    _log_exclusions(plan, action, given, emit)
    progress = (state.extended_by_id(step.extended_id) if step.extended_id is not None
                else None)
    own = rolls[cmd.character]
    own_gd = own.gd if own.gd is not None else state.step_gd(step)
    values: dict[str, tuple[int, int]] = {
        cmd.character: (_target_for(state, cmd.character, action, own.target), own_gd)}
    #: H10: the action each participant rolls for (None: no action of its own opposes).
    acting: dict[str, Action | None] = {cmd.character: action}
    settings = state.settings

    def roll_for(name: str, extra: int = 0) -> TAResult:
        target, gd = values[name]
        # H10: each participant's wound and condition grades, by the scope of the action
        # it declared (an opponent without an opposing action of its own: the default).
        character = state.character(name)
        grades = [] if character is None else ta_grade_entries(
            state, name, action_scope(character, acting.get(name)))
        return resolve_ta(rolls[name].dice, target=target, gd=gd + extra + total_gd(grades),
                          modifier=rolls[name].modifier, points_per_gd=settings.points_per_gd,
                          quality_levels=settings.niveles_de_calidad)

    if plan.solo:  # O2/O3/O5: nobody left to oppose it; a conditioned action is no longer
        if cmd.winners:
            raise SombraError(N_("Nobody is left to oppose {character}: there is no winner "
                                 "to choose."),
                              code="opposed.nobody_left", params={"character": cmd.character})
        result = roll_for(cmd.character)
        step.status = StepStatus.DONE
        step.result = result
        emit(EventKind.TA, Msg(N_("{character}: \"{description}\""),
                               character=cmd.character,
                               description=action.description), actor=cmd.character,
             targets=list(action.targets), ta=result,
             rule="P5" if progress else "O2" if plan.direct else "O3")
        if progress is not None:
            _extended_result(state, progress, result.success, emit)
        if action.is_attack:
            _propose_hits(state, step, action, cmd.character, result, emit)  # H1
        _after_step(state, step, emit)
        return
    consumed: list[Step] = []
    # O5: only those who roll now give up their own step; a member left with no able
    # partner keeps it and makes its own TA at its own turn.
    for name in plan.rolling[1:]:
        target, gd, their_step = _opponent_values(state, name, plan.members, rolls[name])
        values[name] = (target, gd)
        if their_step is not None:
            consumed.append(their_step)
            acting[name] = state.step_action(their_step)
    results: dict[str, TAResult] = {}
    winners_of: dict[str, bool] = {}
    if plan.direct:  # O2, E4
        for name in plan.rolling:
            results[name] = roll_for(name)
        for name in plan.rolling:
            emit(EventKind.TA, Msg(N_("{name} (opposed)"),
                                   name=name), actor=name,
                 ta=results[name], rule="O2")
        winner, note, decided = _decide(best_of(results), list(plan.rolling), cmd)
        winners_of = {name: name == winner for name in plan.rolling}
        emit(EventKind.OPPOSED, Msg(N_("{winner} wins the opposed action "
                                       "\"{description}\"{note}."),
                                    winner=winner, description=action.description,
                                    note=note), actor=cmd.character,
             targets=[n for n in plan.rolling if n != cmd.character],
             override=decided, rule="O2", winner=winner)
    else:  # O3: each conditioning TA first, each conditioned one modified by its outcome
        several = len(plan.pairs) > 1
        for conditioning in plan.conditioning:
            results[conditioning] = roll_for(conditioning)
            emit(EventKind.TA, Msg(N_("{conditioning} (conditioning)"),
                                   conditioning=conditioning), actor=conditioning,
                 ta=results[conditioning], rule="O3")
        for conditioning, conditioned in plan.pairs:
            first = results[conditioning]
            shift = cmd.condition_size if first.success else -cmd.condition_size
            second = roll_for(conditioned, shift)
            results.setdefault(conditioned, second)
            if several:
                by = (Msg(N_("conditioned by {name}, GD {gd} because {name}'s TA succeeded"),
                          name=conditioning, gd=format_gd(shift)) if first.success
                      else Msg(N_("conditioned by {name}, GD {gd} because {name}'s TA failed"),
                               name=conditioning, gd=format_gd(shift)))
            else:
                by = (Msg(N_("conditioned, GD {gd} because the conditioning TA succeeded"),
                          gd=format_gd(shift)) if first.success
                      else Msg(N_("conditioned, GD {gd} because the conditioning TA failed"),
                               gd=format_gd(shift)))
            emit(EventKind.TA, Msg(N_("{conditioned} ({by})"),
                                   conditioned=conditioned, by=by), actor=conditioned, ta=second,
                 rule="O3")
            verdict = compare_ta(first, second)
            computed = ([conditioning] if verdict > 0 else [conditioned] if verdict < 0
                        else [conditioning, conditioned])
            winner, note, decided = _decide(computed, [conditioning, conditioned], cmd)
            pair_results = {conditioning: first, conditioned: second}
            reading = read_outcome_msg(opposition.reading, conditioning, conditioned,
                                       pair_results, winner)
            confirm = needs_confirming_ta(opposition.reading, conditioning, conditioned,
                                          pair_results, winner)
            versus = f" ({conditioning} vs {conditioned})" if several else ""
            emit(EventKind.OPPOSED, Msg(N_("{winner} wins the opposed action "
                                           "\"{description}\"{versus}{note}. {reading}"),
                                        winner=winner, description=action.description,
                                        versus=versus, note=note, reading=reading),
                 actor=conditioning, targets=[conditioned],  # the pair compared
                 override=decided, rule="O4", winner=winner,
                 confirm_ta=conditioned if confirm else None)
            for name in (conditioning, conditioned):
                winners_of[name] = winners_of.get(name, False) or name == winner
    step.status = StepStatus.DONE
    step.result = results[cmd.character]
    for other_step in consumed:  # O2: all rolled when the first acted
        other_step.status = StepStatus.DONE
        other_step.result = results[other_step.character]
        # P4: a TA rolled here for a later group does not bring that group's turn.
        other_step.early = other_step.group != step.group
    if progress is not None:  # E4: the chase counts as won or lost for the initiator
        _extended_result(state, progress, winners_of[cmd.character], emit)
    for other_step in consumed:  # E4: ... and for each side's own opposed extended action
        chased = (state.extended_by_id(other_step.extended_id)
                  if other_step.extended_id is not None else None)
        if chased is not None:
            _extended_result(state, chased, winners_of[other_step.character], emit)
    # H1/O4: an attack hits when its TA succeeded and it won its comparisons.
    attacks = [(step, action), *((other, state.step_action(other)) for other in consumed)]
    for attack_step, attack in attacks:
        name = attack_step.character
        if attack.is_attack and winners_of.get(name) and results[name].success:
            _propose_hits(state, attack_step, attack, name, results[name], emit)
    _after_step(state, step, emit)


def needs_confirming_ta(reading: Reading, conditioning: str, conditioned: str,
                        results: dict[str, TAResult], winner: str) -> bool:
    """O4: a sentinel (the conditioned) who won with both TAs failing gets a new TA."""
    return (reading is Reading.STEALTH and winner == conditioned
            and not results[conditioning].success and not results[conditioned].success)


def read_outcome(reading: Reading, conditioning: str, conditioned: str,
                 results: dict[str, TAResult], winner: str) -> str:
    """O4: the seed's reading of a conditioned opposition, in the language in force."""
    return read_outcome_msg(reading, conditioning, conditioned, results, winner).render()


def read_outcome_msg(reading: Reading, conditioning: str, conditioned: str,
                     results: dict[str, TAResult], winner: str) -> Msg:
    """O4: the seed's reading of a conditioned opposition, for the DJ."""
    first, second = results[conditioning], results[conditioned]
    names = {"conditioning": conditioning, "conditioned": conditioned}
    if reading is Reading.ATTACK:
        if winner == conditioning:
            if first.success:
                return Msg(N_("{conditioning} hits {conditioned}."), names)
            return Msg(N_("{conditioning}'s attack failed its TA: no hit despite winning; the "
                          "DJ may grant an advantage (position, cornering)."), names)
        return Msg(N_("{conditioned} avoids the attack."), names)
    if reading is Reading.STEALTH:
        both_failed = not first.success and not second.success
        if winner == conditioning:
            if both_failed:
                return Msg(N_("{conditioning} passes unseen, but makes noise."), names)
            return Msg(N_("{conditioning} passes unseen."), names)
        if needs_confirming_ta(reading, conditioning, conditioned, results, winner):
            return Msg(N_("Something catches {conditioned}'s attention: a new TA to confirm "
                          "the suspicion."), names)
        return Msg(N_("{conditioned} detects {conditioning}."), names)
    return Msg(N_("The DJ reads the outcome: {winner} prevails."), winner=winner)


def _after_step(state: CombatState, step: Step, emit: Emitter) -> None:
    """P3/P4: once a simultaneous group is complete, its deferred marks apply."""
    if not state.group_pending(step.group):
        state.held_conditions = []  # C4: the group has acted: its conditions apply now
        _apply_pending_marks(state, emit)
        if state.deferred_hits:
            _apply_deferred_hits(state, emit)  # H11


# --------------------------------------------------------------------------- marks


def _apply_mark(state: CombatState, name: str, mark: c.Mark, emit: Emitter,
                deferred: bool = False) -> None:
    after: Text = Msg(N_(" after the simultaneous group")) if deferred else ""
    if mark is c.Mark.OUT and name not in state.out:
        state.out.append(name)
        emit(EventKind.MARK, Msg(N_("{name} is out{after}: cannot act or react."),
                                 name=name, after=after), actor=name,
             rule="P4")
    elif mark is c.Mark.PREVENTED and name not in state.prevented:
        state.prevented.append(name)
        emit(EventKind.MARK, Msg(N_("{name} is prevented{after}: the round action is "
                                    "cancelled."),
                                 name=name, after=after), actor=name, rule="P4")
    elif mark is c.Mark.BACK and name in state.out:
        state.out.remove(name)
        emit(EventKind.MARK, Msg(N_("{name} is back in the combat{after}."),
                                 name=name, after=after), actor=name, rule="P4")
        _give_back(state, name, emit)
    elif mark is c.Mark.UNPREVENT and name in state.prevented:
        state.prevented.remove(name)
        emit(EventKind.MARK, Msg(N_("{name} is no longer prevented{after}."),
                                 name=name, after=after), actor=name, rule="P4")
        _give_back(state, name, emit)


def _give_back(state: CombatState, name: str, emit: Emitter) -> None:
    """P4/P5: a mark lifted before the character's group has acted (nobody of that group
    or a later one has made a TA) gives back the steps the mark had skipped."""
    if state.phase not in RESOLUTION_PHASES or name in state.out \
            or state.character(name) is None:
        return
    if state.phase is Phase.ROUND and name in state.prevented:
        return
    steps = list(state.steps)  # a new list: steps otherwise only ever leave pending
    restored = False
    for position, step in enumerate(steps):
        if (step.character != name or step.status is not StepStatus.SKIPPED
                or step.skipped_for not in ("out", "prevented")
                or state.group_started(step.group)):
            continue
        # Finished steps are shared between clones: replace, never change, this one.
        steps[position] = step.model_copy(update={"status": StepStatus.PENDING,
                                                  "skipped_for": None})
        progress = (state.extended_by_id(step.extended_id)
                    if step.extended_id is not None else None)
        if progress is not None and step.skipped_for == "out":
            progress.rounds_counted += 1  # P5: the round counts again
        restored = True
        emit(EventKind.MARK, Msg(N_("{name} gets \"{description}\" back: the group has not "
                                    "acted yet."),
                                 name=name,
                                 description=state.step_action(step).description), actor=name,
             rule="P5" if step.extended_id is not None else "P4")
    if restored:
        state.steps = steps


def _apply_pending_marks(state: CombatState, emit: Emitter) -> None:
    marks, state.pending_marks = state.pending_marks, []
    for pending in marks:
        if state.character(pending.character) is not None:
            _apply_mark(state, pending.character, c.Mark(pending.mark), emit, deferred=True)


#: P4: the log line of a mark that waits for its simultaneous group.
_PENDING_MARK = {
    c.Mark.OUT: N_("{name} will be out once the simultaneous group has acted."),
    c.Mark.PREVENTED: N_("{name} will be prevented once the simultaneous group has acted"
                         "."),
    c.Mark.BACK: N_("{name} will be back once the simultaneous group has acted."),
    c.Mark.UNPREVENT: N_("{name} will no longer be prevented once the simultaneous group "
                         "has acted."),
}


@handles(c.SetMark, label=N_("set mark"))
def _set_mark(state: CombatState, cmd: c.SetMark, emit: Emitter) -> None:
    _need_character(state, cmd.character)
    name, mark = cmd.character, cmd.mark
    if not mark_allowed(state, mark) and state.phase is Phase.SETUP:
        raise SombraError(N_("No round is running yet: nothing to prevent."),
                          code="mark.no_round")
    if not mark_allowed(state, mark):  # P4: the round actions are over
        raise SombraError(N_("The round actions are over; nothing is left to prevent this "
                             "round."),
                          code="mark.round_over")
    pending_same = any(p.character == name and p.mark == mark.value
                       for p in state.pending_marks)
    already = {
        c.Mark.OUT: name in state.out,
        c.Mark.PREVENTED: name in state.prevented,
        c.Mark.BACK: name not in state.out,
        c.Mark.UNPREVENT: name not in state.prevented,
    }[mark]
    if already or pending_same:
        state_word = {c.Mark.OUT: "already out", c.Mark.PREVENTED: "already prevented",
                      c.Mark.BACK: "not out", c.Mark.UNPREVENT: "not prevented"}[mark]
        template = {c.Mark.OUT: N_("{name} is already out."),
                    c.Mark.PREVENTED: N_("{name} is already prevented."),
                    c.Mark.BACK: N_("{name} is not out."),
                    c.Mark.UNPREVENT: N_("{name} is not prevented.")}[mark]
        raise SombraError(template, code="mark.already",
                          params={"name": name, "state": state_word})
    # C4: an out mark made by hand stays until the DJ lifts it, whatever conditions end.
    if mark is c.Mark.OUT:
        state.hand_out.append(name)
    elif mark is c.Mark.BACK and name in state.hand_out:
        state.hand_out.remove(name)
    if state.phase in RESOLUTION_PHASES and state.group_in_progress():  # P4
        state.pending_marks.append(PendingMark(character=name, mark=mark.value))
        emit(EventKind.MARK, Msg(_PENDING_MARK[mark], name=name), actor=name, rule="P4")
        return
    _apply_mark(state, name, mark, emit)


# --------------------------------------------------------------------------- extended


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
                _after_step(state, step, emit)


@handles(c.AbandonExtended, label=N_("abandon extended"))
def _abandon_extended(state: CombatState, cmd: c.AbandonExtended, emit: Emitter) -> None:
    progress = _need_extended(state, cmd.extended_id)
    progress.status = ExtendedStatus.ABANDONED
    for step in state.steps:
        if step.extended_id == progress.id and step.status is StepStatus.PENDING:
            step.status = StepStatus.SKIPPED
            step.skipped_for = "abandoned"
            _after_step(state, step, emit)  # P4: it may complete its simultaneous group
    emit(EventKind.EXTENDED, Msg(N_("{owner} abandons \"{description}\"."),
                                 owner=progress.owner,
                                 description=progress.action.description),
         actor=progress.owner, override=True, rule="E1")


# --------------------------------------------------------------------------- settle


def _skip_reason(state: CombatState, reactor: str) -> Msg | None:
    """D11: why a (non-forced) prompt for `reactor` cannot be answered, if it cannot."""
    if reactor in state.locked:
        return Msg(N_("locked"))
    if reactor in state.out:
        return Msg(N_("out"))
    if state.character(reactor) is None:
        return Msg(N_("gone"))
    body = state.bodies.get(reactor)
    if body is not None and body.conditions:
        blockers = preventing_reaction(body.conditions, state.round)
        if blockers:  # C4: cannot react
            return Msg(N_("{conditions}"), conditions=", ".join(
                dict.fromkeys(cond.name for cond in blockers)))
    return None


def _settle(state: CombatState, emit: Emitter) -> None:
    """Skip what can no longer happen: D11 prompts of locked/out reactors, P4 steps."""
    if state.phase is Phase.DECLARATION:
        while state.prompts:
            top = state.prompts[-1]
            if top.forced:
                break
            reason = _skip_reason(state, top.reactor)
            if reason is None:
                break
            state.prompts.pop()
            emit(EventKind.SKIPPED, Msg(N_("{reactor}'s prompt skipped: {reason}."),
                                        reactor=top.reactor, reason=reason),
                 actor=top.reactor, rule="D11")
        if state.bodies and not state.prompts:
            _declare_inaction_for_unable(state, emit)
    elif state.phase in RESOLUTION_PHASES:
        # Steps are only skipped for someone out, gone (removed) or, in the round phase,
        # prevented: with nobody like that there is nothing to look at.
        if not state.out and not state.removed and not state.bodies and not (
                state.phase is Phase.ROUND and state.prevented):
            return
        changed = True
        while changed:
            changed = False
            for step in state.current_group():
                name = step.character
                reason = None
                why = None
                if state.character(name) is None:
                    reason, why = Msg(N_("left the encounter")), "gone"
                elif name in state.out:
                    reason, why = Msg(N_("out")), "out"
                elif state.phase is Phase.ROUND and name in state.prevented:
                    reason, why = Msg(N_("prevented")), "prevented"
                elif (unable := _unable_by_conditions(state, name)) is not None:
                    reason, why = Msg(N_("{conditions}"), conditions=unable), \
                        "cannot act"
                if reason is None:
                    continue
                # P4, C4; O5: an opposition with nobody able left is skipped here, logged.
                step.status = StepStatus.SKIPPED
                step.skipped_for = why
                progress = (state.extended_by_id(step.extended_id)
                            if step.extended_id is not None else None)
                if why == "out" and progress is not None \
                        and progress.status is ExtendedStatus.ACTIVE:
                    progress.rounds_counted -= 1  # P5: an out character's round does not count
                action = state.step_action(step) if state.character(name) else None
                what = f" \"{action.description}\"" if action else ""
                emit(EventKind.SKIPPED, Msg(N_("{name}{what} skipped: {reason}."),
                                            name=name, what=what, reason=reason), actor=name,
                     rule="C4" if why == "cannot act" else
                     "P5" if step.extended_id is not None else "P4")
                _after_step(state, step, emit)
                changed = True


# --------------------------------------------------------------------------- hits (H)
#
# Section H's rules live in wounds.py and section C's in conditions.py; the machine
# only calls them, keeps the results in `state.bodies` and logs them (H12, S2).


def pv_of(state: CombatState, name: str) -> int:
    """H6: the character's PV (own, or multiplier x Resistencia)."""
    character = _need_character(state, name)
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
    # C4: conditions begun inside the group's turn count only after the group.
    return ta_grades(body.wounds, state.effective_conditions(name), state.round, scope)


def _set_body(state: CombatState, name: str, **changes: Any) -> Body:
    body = state.body(name).model_copy(update=changes)
    state.bodies[name] = body
    return body


def _need_proposal(state: CombatState, proposal_id: int, *kinds: ProposalKind) -> Proposal:
    proposal = state.proposal(proposal_id)
    if proposal is None or proposal.kind not in kinds:
        raise CodedError("proposal.unknown", N_("There is no open proposal #{id}."),
                         params={"id": proposal_id})
    return proposal


def _need_no_proposal(state: CombatState, doing: str) -> None:
    """H1/H7/H11: like a reaction prompt, an open proposal is settled before the next step."""
    if state.proposals:
        first = state.proposals[0]
        template = {
            ProposalKind.HIT: N_("First settle the hit on {character}: accept or decline it, "
                                 "then {doing}."),
            ProposalKind.THRESHOLD: N_("First settle {condition} for {character}: accept "
                                       "or decline it, then {doing}."),
            ProposalKind.PREVENT: N_("First settle prevented for {character}: accept or "
                                     "decline it, then {doing}.")}[first.kind]
        raise CodedError("proposal.open", template,
                         params={"kind": first.kind.value, "character": first.character,
                                 "condition": first.condition or "", "doing": doing})


def _propose_hits(state: CombatState, step: Step, action: Action, attacker: str,
                  result: TAResult, emit: Emitter) -> None:
    """H1: a successful attack TA proposes a hit on each target, read from its dice."""
    weapon = action.weapon
    if weapon is None or not result.success:
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
        proposal = Proposal(id=_new_id(state), kind=ProposalKind.HIT, character=name,
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
    target = _need_character(state, proposal.character)
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
        if reading is not None and cmd.damage is not None \
                and cmd.damage != reading.damage.value:
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
        changed.append(Msg(N_("severity {severity}"), severity=cmd.severity.value))
    if cmd.consequences is not None:
        changed.append(Msg(N_("consequences")))
    if reading is not None:
        damage_text = (f"tipo {damage_type.id} {reading.damage.formula} = "
                       f"{reading.damage.substituted} = {reading.damage.raw}"
                       if reading.damage.formula and reading.damage.raw is not None
                       else f"tipo {damage_type.id}")
        numbers = Msg(N_("dS {ds} -> value {value}; {damage}"), ds=reading.dice.ds,
                      value=reading.location_value, damage=damage_text)
    else:
        numbers = Msg(N_("tipo {tipo}, no dice"), tipo=damage_type.id)
    return assessments, changed, numbers


def _wound_text(assessment: WoundAssessment) -> Msg:
    """H12: one wound's numbers for the log line (rendered in the DJ's language)."""
    cons = assessment.consequences
    protection = (Msg(N_(" - protection {protection} = {damage}"),
                      protection=assessment.protection, damage=assessment.damage)
                  if assessment.protection else Msg(N_(", no protection")))
    effects: list[Msg | str] = [Msg(N_("{gd} GD {scope}"), gd=f"{e.gd:+d}",
                                    scope=Msg(e.scope_label())) for e in cons.gd]
    effects += [Msg(N_("{name} {count} asaltos"), name=spec.name, count=spec.duration)
                if spec.duration else spec.name
                for spec in cons.conditions if spec.name != SANGRANDO]
    if cons.bleed_rate:
        effects.append(Msg(N_("bleeds every {rate} asaltos"), rate=cons.bleed_rate))
    effects += [reminder.message for reminder in cons.reminders]
    return Msg(N_("{location}: damage {damage}{protection}, {lethal}; R {resistencia} -> "
                  "{severity}{effects}"), location=Msg(assessment.location.label),
               damage=assessment.damage_in, protection=protection,
               lethal=Msg(N_("lethal")) if assessment.lethal else Msg(N_("non-lethal")),
               resistencia=assessment.resistencia, severity=assessment.severity.value,
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
        wound = new_wound(_new_id(state), assessment, state.round, cause)  # H8, H9
        wounds.append(wound)
        for spec in assessment.consequences.conditions:  # H9 as conditions (C1)
            condition = spec.start(began=state.round, source=ConditionSource.of_wound(wound.id),
                                   dolor_intenso_gd=settings.dolor_intenso_gd)
            condition = condition.model_copy(update={"id": _new_id(state)})
            conditions.append(condition)
            started.append(condition)
    _set_body(state, target, counters=counters, wounds=tuple(wounds),
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
    _after_points(state, target, before, counters, emit)
    for condition in started:
        _condition_started(state, target, condition, emit)


def _after_points(state: CombatState, name: str, before: Counters, after: Counters,
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
        _propose_threshold(state, name, names[0], tuple(names[1:]), report.pv, emit,
                           len(state.proposals))


def _propose_threshold(state: CombatState, name: str, condition: str, then: tuple[str, ...],
                       pv: int, emit: Emitter, position: int) -> None:
    """H7: propose `condition` for `name` (the DJ confirms); `then` follows a decline."""
    which = "W" if condition == MUERTO else "G"
    proposal = Proposal(id=_new_id(state), kind=ProposalKind.THRESHOLD, character=name,
                        condition=condition, round=state.round, reason=which, then=then)
    state.proposals.insert(position, proposal)
    emit(EventKind.PROPOSAL, Msg(N_("{name}'s {which} reaches PV {pv}: {condition}? (the "
                                    "DJ confirms)"), name=name, which=which,
                                 pv=pv, condition=condition),
         actor=name, rule="H7", code="threshold.proposed",
         data={"proposal": proposal.id, "condition": condition, "pv": pv})


def _condition_started(state: CombatState, name: str, condition: Condition,
                       emit: Emitter) -> None:
    """C4: effects act through their rules; H11 proposes prevented for a pending action.
    A condition begun inside a simultaneous group's turn on one of its members affects
    the group's members only after the group: a member yet to roll still rolls."""
    held = (state.phase in RESOLUTION_PHASES and state.group_in_progress()
            and name in state.acting_group_members())
    if held:
        state.held_conditions.append(condition.id)
        emit(EventKind.CONDITION, Msg(N_("{name}'s {condition} takes effect after the "
                                         "simultaneous group."),
                                      name=name, condition=condition.name),
             actor=name, rule="C4", code="condition.held",
             data={"id": condition.id, "condition": condition.name})
    if condition.effects.out:
        _sync_out(state, name, emit)
    if not held and state.phase is Phase.ROUND and prevents_pending_action(condition) \
            and name not in state.prevented and name not in state.out \
            and can_act(state.body(name).conditions, state.round) \
            and any(step.character == name and step.extended_id is None
                    for step in state.pending_steps()) \
            and not any(p.kind is ProposalKind.PREVENT and p.character == name
                        for p in state.proposals):
        proposal = Proposal(id=_new_id(state), kind=ProposalKind.PREVENT, character=name,
                            condition=condition.name, reason=condition.name,
                            round=state.round)
        state.proposals.append(proposal)
        emit(EventKind.PROPOSAL, Msg(N_("{name} is {condition} with a round action pending: "
                                        "mark prevented?"), name=name,
                                     condition=condition.name),
             actor=name, rule="H11", code="prevent.proposed",
             data={"proposal": proposal.id, "condition": condition.name})


def _mark_now_or_later(state: CombatState, name: str, mark: c.Mark, emit: Emitter) -> None:
    """P4: a mark inside a simultaneous group in progress waits for the group."""
    if state.phase in RESOLUTION_PHASES and state.group_in_progress():
        if not any(p.character == name and p.mark == mark.value for p in state.pending_marks):
            state.pending_marks.append(PendingMark(character=name, mark=mark.value))
            emit(EventKind.MARK, Msg(_PENDING_MARK[mark], name=name), actor=name, rule="P4")
        return
    _apply_mark(state, name, mark, emit)


def _sync_out(state: CombatState, name: str, emit: Emitter) -> None:
    """C4: out is P4's mark: an out condition makes the character out; when the last one
    ends, the character is back, unless the DJ also marked it out by hand (that mark
    stays until the DJ lifts it)."""
    if state.character(name) is None:
        return
    out = is_out(state.body(name).conditions, state.round) or name in state.hand_out
    if out and name not in state.out:
        _mark_now_or_later(state, name, c.Mark.OUT, emit)
    elif not out and name in state.out:
        _mark_now_or_later(state, name, c.Mark.BACK, emit)


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


def _apply_deferred_hits(state: CombatState, emit: Emitter) -> None:
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
                            source=ConditionSource.of_rule("H7"), condition_id=_new_id(state))
        body = state.body(name)
        _set_body(state, name, conditions=(*body.conditions, condition))
        emit(EventKind.CONDITION, Msg(N_("DJ confirms: {name} is {condition}."),
                                      name=name, condition=condition.name), actor=name,
             override=True, rule="H7", code="condition.started",
             data={"condition": condition.name, "id": condition.id})
        _condition_started(state, name, condition, emit)
        return
    emit(EventKind.OVERRIDE, Msg(N_("DJ confirms: {name} is prevented ({condition})."),
                                 name=name, condition=proposal.reason),
         actor=name, override=True, rule="H11", code="prevent.confirmed",
         data={"condition": proposal.reason})
    if name not in state.prevented and state.phase is Phase.ROUND:
        _mark_now_or_later(state, name, c.Mark.PREVENTED, emit)


@handles(c.DeclineProposal, label=N_("decline proposal"))
def _decline_proposal(state: CombatState, cmd: c.DeclineProposal, emit: Emitter) -> None:
    proposal = _need_proposal(state, cmd.proposal_id, ProposalKind.THRESHOLD,
                              ProposalKind.PREVENT)
    position = state.proposals.index(proposal)
    state.proposals.remove(proposal)
    what = proposal.condition if proposal.kind is ProposalKind.THRESHOLD else "prevented"
    emit(EventKind.OVERRIDE, Msg(N_("DJ declines {what} for {name}."),
                                 what=what if proposal.kind is ProposalKind.THRESHOLD
                                 else Msg(N_("prevented")), name=proposal.character),
         actor=proposal.character, override=True,
         rule="H7" if proposal.kind is ProposalKind.THRESHOLD else "H11",
         code="proposal.declined", data={"proposal": proposal.id, "what": what})
    if proposal.then and state.character(proposal.character) is not None:
        # H7: muerto declined after one change brought G and W to PV: inconsciente next.
        _propose_threshold(state, proposal.character, proposal.then[0], proposal.then[1:],
                           pv_of(state, proposal.character), emit, position)


@handles(c.ManualHit, label=N_("hit by hand"))
def _manual_hit(state: CombatState, cmd: c.ManualHit, emit: Emitter) -> None:
    target = _need_character(state, cmd.character)
    settings = state.settings.wounds
    protection = (cmd.protection if cmd.protection is not None
                  else target.protection.get(cmd.location, 0))
    assessment = assess(cmd.location, cmd.damage, lethal=cmd.lethal,
                        resistencia=target.resistencia, settings=settings,
                        protection=protection, severity=cmd.severity,
                        consequences=cmd.consequences)
    cause = cmd.cause.strip() or _("a hit entered by the DJ")
    _apply_hit(state, target.name, [assessment], cause,
               Msg(N_("DJ enters a hit on {name} ({cause})"), name=target.name, cause=cause),
               emit, override=True,
               data={"cause": cause})


# ------------------------------------------------------------------ healing, edits (H12)


@handles(c.Heal, label=N_("heal"))
def _heal(state: CombatState, cmd: c.Heal, emit: Emitter) -> None:
    _need_character(state, cmd.character)
    before = state.body(cmd.character).counters
    after = (heal_herida(before, cmd.points) if cmd.kind is c.HealKind.HERIDA
             else heal_golpe(before, cmd.points))
    if after == before:
        raise CodedError("heal.nothing", N_("{character} has no {kind} points to heal "
                                            "({counters})."),
                         params={"character": cmd.character, "kind": cmd.kind.value,
                                 "counters": str(before)}, field="points")
    _set_body(state, cmd.character, counters=after)
    emit(EventKind.WOUND, Msg(N_("DJ heals {name} {points} {kind} points: G {g0} -> {g1}, W "
                                 "{w0} -> {w1}."), name=cmd.character,
                              points=cmd.points, kind=cmd.kind.value, g0=before.g,
                              g1=after.g, w0=before.w, w1=after.w), actor=cmd.character,
         override=True, rule="H12", code="points.healed",
         data={"kind": cmd.kind.value, "points": cmd.points, "g_before": before.g,
               "g": after.g, "w_before": before.w, "w": after.w})


def _need_wound(state: CombatState, name: str, wound_id: int) -> Wound:
    _need_character(state, name)
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
    _set_body(state, cmd.character, wounds=wounds, conditions=conditions)
    emit(EventKind.WOUND, Msg(N_("DJ attends {name}'s {location} wound: it stops bleeding"
                                 "."), name=cmd.character,
                              location=Msg(wound.location.label)),
         actor=cmd.character, override=True, rule="H12",
         code="wound.attended", data={"id": wound.id, "location": wound.location.value})


@handles(c.EditWound, label=N_("edit wound"))
def _edit_wound(state: CombatState, cmd: c.EditWound, emit: Emitter) -> None:
    old = _need_wound(state, cmd.character, cmd.wound.id)
    body = state.body(cmd.character)
    _set_body(state, cmd.character,
              wounds=tuple(cmd.wound if w.id == old.id else w for w in body.wounds))
    emit(EventKind.WOUND, Msg(N_("DJ edits {name}'s {old} wound: {location} {damage}, "
                                 "{severity}{attended}."), name=cmd.character,
                              old=Msg(old.location.label), location=Msg(cmd.wound.location.label),
                              damage=cmd.wound.damage, severity=cmd.wound.severity.value,
                              attended=Msg(N_(", attended")) if cmd.wound.attended else ""),
         actor=cmd.character,
         override=True, rule="H12", code="wound.edited", data={"id": old.id})


@handles(c.RemoveWound, label=N_("remove wound"))
def _remove_wound(state: CombatState, cmd: c.RemoveWound, emit: Emitter) -> None:
    wound = _need_wound(state, cmd.character, cmd.wound_id)
    body = state.body(cmd.character)
    _set_body(state, cmd.character, wounds=tuple(w for w in body.wounds if w.id != wound.id))
    emit(EventKind.WOUND, Msg(N_("DJ removes {name}'s {location} wound."),
                              name=cmd.character, location=Msg(wound.location.label)),
         actor=cmd.character, override=True, rule="H12", code="wound.removed",
         data={"id": wound.id})


@handles(c.SetCounters, label=N_("set points"))
def _set_counters(state: CombatState, cmd: c.SetCounters, emit: Emitter) -> None:
    _need_character(state, cmd.character)
    if cmd.w > cmd.g:
        raise CodedError("points.w_over_g", N_("W ({w}) cannot exceed G ({g}): each herida "
                                               "point carries a golpe point."),
                         params={"g": cmd.g, "w": cmd.w}, field="w")
    before = state.body(cmd.character).counters
    after = Counters(g=cmd.g, w=cmd.w)
    if after == before:
        raise CodedError("points.unchanged", N_("{character} already has {counters}."),
                         params={"character": cmd.character, "counters": str(before)})
    _set_body(state, cmd.character, counters=after)
    emit(EventKind.WOUND, Msg(N_("DJ sets {name}'s points: G {g0} -> {g1}, W {w0} -> {w1}"
                                 "."), name=cmd.character, g0=before.g, g1=after.g,
                              w0=before.w, w1=after.w),
         actor=cmd.character, override=True, rule="H12",
         code="points.set", data={"g_before": before.g, "g": after.g, "w_before": before.w,
                                  "w": after.w})
    _after_points(state, cmd.character, before, after, emit)


# ------------------------------------------------------------------- conditions (C)


def _describe_condition(condition: Condition) -> Msg:
    if condition.permanent:
        return Msg(N_("{name} (never expires)"), name=condition.name)
    if condition.duration is None:
        return Msg(N_("{name} (until removed)"), name=condition.name)
    covered = condition.covered_rounds()
    assert covered is not None
    if len(covered) == 1:
        return Msg(N_("{name} (1 asalto: round {first})"), name=condition.name,
                   first=covered.start)
    return Msg(N_("{name} ({count} asaltos: rounds {first}-{last})"), name=condition.name,
               count=condition.duration, first=covered.start, last=covered.stop - 1)


@handles(c.AddCondition, label=N_("add condition"))
def _add_condition(state: CombatState, cmd: c.AddCondition, emit: Emitter) -> None:
    _need_character(state, cmd.character)
    condition = cmd.condition.model_copy(update={"id": _new_id(state),
                                                 "began": state.round})
    body = state.body(cmd.character)
    _set_body(state, cmd.character, conditions=(*body.conditions, condition))
    emit(EventKind.CONDITION, Msg(N_("DJ: {name} is {condition}."), name=cmd.character,
                                  condition=_describe_condition(condition)),
         actor=cmd.character, override=True, rule="C2", code="condition.started",
         data={"condition": condition.name, "id": condition.id,
               "duration": condition.duration, "last_round": condition.last_round})
    _condition_started(state, cmd.character, condition, emit)


def _need_condition(state: CombatState, name: str, condition_id: int) -> Condition:
    _need_character(state, name)
    condition = state.body(name).condition(condition_id)
    if condition is None:
        raise CodedError("condition.unknown", N_("{character} has no condition #{id}."),
                         params={"character": name, "id": condition_id})
    return condition


@handles(c.EditCondition, label=N_("edit condition"))
def _edit_condition(state: CombatState, cmd: c.EditCondition, emit: Emitter) -> None:
    old = _need_condition(state, cmd.character, cmd.condition.id)
    body = state.body(cmd.character)
    _set_body(state, cmd.character, conditions=tuple(
        cmd.condition if cond.id == old.id else cond for cond in body.conditions))
    emit(EventKind.CONDITION, Msg(N_("DJ edits {name}'s {old}: {condition}."),
                                  name=cmd.character, old=old.name,
                                  condition=_describe_condition(cmd.condition)),
         actor=cmd.character, override=True,
         rule="C2", code="condition.edited", data={"id": old.id,
                                                   "condition": cmd.condition.name})
    _sync_out(state, cmd.character, emit)


@handles(c.RemoveCondition, label=N_("remove condition"))
def _remove_condition(state: CombatState, cmd: c.RemoveCondition, emit: Emitter) -> None:
    old = _need_condition(state, cmd.character, cmd.condition_id)
    body = state.body(cmd.character)
    _set_body(state, cmd.character,
              conditions=tuple(cond for cond in body.conditions if cond.id != old.id))
    emit(EventKind.CONDITION, Msg(N_("DJ removes {name}'s {condition}."),
                                  name=cmd.character, condition=old.name),
         actor=cmd.character, override=True, rule="C2", code="condition.removed",
         data={"id": old.id, "condition": old.name})
    _sync_out(state, cmd.character, emit)


def _end_of_round_bodies(state: CombatState, emit: Emitter) -> None:
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
                emit(EventKind.WOUND, Msg(N_(
                    "{name} bleeds 1 point ({location}, {severity}, every {rate} asaltos): G "
                    "{g0} -> {g1}, W {w0} -> {w1}."), name=name,
                    location=Msg(wound.location.label), severity=wound.severity.value,
                    rate=wound.bleed_rate, g0=before.g, g1=counters.g, w0=before.w,
                    w1=counters.w),
                     actor=name, rule="H9", code="wound.bled",
                     data={"id": wound.id, "location": wound.location.value,
                           "rate": wound.bleed_rate, "g_before": before.g, "g": counters.g,
                           "w_before": before.w, "w": counters.w})
                state.bodies[name] = body.model_copy(update={"counters": counters})
                _after_points(state, name, before, counters, emit)
        if changed:
            state.bodies[name] = state.bodies[name].model_copy(
                update={"wounds": tuple(wounds), "counters": counters})
    for name in list(state.bodies):
        body = state.bodies[name]
        expiry = end_of_round(body.conditions, state.round)
        if not expiry.expired:
            continue
        state.bodies[name] = body.model_copy(update={"conditions": expiry.kept})
        for condition in expiry.expired:
            emit(EventKind.CONDITION, Msg(N_("{name}'s {condition} ends."), name=name,
                                          condition=condition.name), actor=name,
                 rule="C3", code="condition.expired",
                 data={"id": condition.id, "condition": condition.name})
        if state.character(name) is not None:
            _sync_out(state, name, emit)


def _declare_inaction_for_unable(state: CombatState, emit: Emitter) -> None:
    """C4/D1: a declarer who cannot act declares inaction (logged)."""
    while not state.prompts:
        name = state.current_declarer
        if name is None or name not in state.bodies:
            return
        blockers = preventing_action(state.bodies[name].conditions, state.round)
        if not blockers:
            return
        declaration = trusted(Declaration, id=_new_id(state), author=name)
        state.declarations[declaration.id] = declaration
        state.current[name] = declaration.id
        names = ", ".join(dict.fromkeys(cond.name for cond in blockers))
        emit(EventKind.SKIPPED, Msg(N_("{name} is {conditions}: declares inaction."),
                                    name=name, conditions=names), actor=name,
             rule="C4", code="declare.cannot_act", data={"conditions": names})


def _unable_by_conditions(state: CombatState, name: str) -> str | None:
    """C4: the conditions that leave `name` unable to act now, named, or None."""
    if name not in state.bodies:
        return None
    # C4: a condition begun inside the group's turn waits for the group.
    blockers = preventing_action(state.effective_conditions(name), state.round)
    return ", ".join(dict.fromkeys(cond.name for cond in blockers)) or None


# --------------------------------------------------------------------------- dispatch

def apply(state: CombatState, command: c.Command) -> list[LogEvent]:
    """Apply one command to `state` in place; return its log events.

    Raises SombraError for an illegal command. The state may then be partly
    changed: apply to a copy when the old state must survive (see history).
    """
    entry = entry_for(type(command))  # registered by the handler (engine/registry.py)
    check_fits(state, command)  # the phases each command fits
    emit = Emitter(state)
    entry.handler(state, command, emit)
    _settle(state, emit)
    return emit.events
