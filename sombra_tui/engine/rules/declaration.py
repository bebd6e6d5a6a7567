"""Declaration (D1-D12): the round's start, reaction prompts, declaring, reacting,
declining, denying and allowing prompts, and settling the prompts that can no longer
be answered (D11)."""

from __future__ import annotations

from collections.abc import Iterable

from sombra_tui.engine import commands as c
from sombra_tui.engine.coded import CodedError
from sombra_tui.engine.conditions import (
    ActionScope,
    can_react,
    preventing_reaction,
)
from sombra_tui.engine.dice import (
    TAResult,
    resolve_ta,
    unrolled_ta,
)
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.frozen import trusted
from sombra_tui.engine.i18n import N_, Join, Msg, Text, _
from sombra_tui.engine.initiative import declaration_order
from sombra_tui.engine.model import (
    Action,
    ActionKind,
    Opposition,
    OppositionMode,
)
from sombra_tui.engine.registry import (
    handles,
)
from sombra_tui.engine.rules.conditions import declare_inaction_for_unable, unable_by_conditions
from sombra_tui.engine.rules.core import (
    Emitter,
    gender_of,
    need_character,
    need_no_proposal,
    new_id,
)
from sombra_tui.engine.rules.hits import ta_grade_entries
from sombra_tui.engine.state import (
    CombatState,
    Declaration,
    GdBreakdown,
    Phase,
    Planned,
    Prompt,
    PromptKind,
    ReactionMode,
)
from sombra_tui.engine.wounds import Weapon


def _check_names(state: CombatState, names: list[str], author: str, what: str) -> list[str]:
    cleaned: list[str] = []
    for name in names:
        need_character(state, name)
        if name == author:
            raise SombraError(N_("{author} cannot be {what} by their own declaration."),
                              code="declaration.own_name", params={"author": author, "what": what})
        if name not in cleaned:
            cleaned.append(name)
    return cleaned


def _check_actions(state: CombatState, author: str, actions: list[Action]) -> None:
    for action in actions:
        for name in action.targets:
            need_character(state, name)
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
        given = prefill_affected(author, actions)
    if not actions and given:
        raise SombraError(N_("Inaction affects nobody: an empty declaration cannot mark"
                             " affected characters."),
                          code="declaration.inaction_affects")
    return _check_names(state, given, author, _("affected"))


def prefill_affected(author: str, actions: list[Action]) -> list[str]:
    """D2: the affected list the actions' targets pre-fill: everyone they are aimed at but
    the author, in order, once each. Read by the handler and by a dialog (ask)."""
    return prefill_names(author, (name for action in actions for name in action.targets))


def prefill_names(author: str, targets: Iterable[str]) -> list[str]:
    """D2: the pre-fill from the target names alone (a form's actions half typed)."""
    return list(dict.fromkeys(name for name in targets if name != author))


def last_weapons(state: CombatState) -> dict[str, Weapon]:
    """H1: the weapon each character last declared an action with, this asalto's
    declarations over the earlier ones kept in `state.last_weapons`."""
    chosen = dict(state.last_weapons)
    for declaration in sorted(state.declarations.values(), key=lambda d: d.id):
        for action in declaration.actions:
            if action.weapon is not None:
                chosen[declaration.author] = action.weapon
    return chosen


def last_declared(state: CombatState) -> dict[str, Declaration]:
    """Issue 39 item 2: each character's last own declaration with actions (D1; neither
    a reacción, D4, nor inaction), this asalto's over those kept in `state.last_declared`."""
    kept = dict(state.last_declared)
    for declaration in sorted(state.declarations.values(), key=lambda d: d.id):
        if declaration.answers is None and declaration.actions:
            kept[declaration.author] = declaration
    return kept


def start_round(state: CombatState, emit: Emitter, bonus: dict[str, int]) -> None:
    state.phase = Phase.DECLARATION
    state.round_initiative = {
        ch.name: (ch.primaria + bonus.get(ch.name, 0), ch.secundaria)
        for ch in state.characters
    }
    dj_order = [ch.name for ch in state.characters]
    state.declaration_order = declaration_order(state.round_initiative, dj_order)  # I3
    state.last_weapons = last_weapons(state)  # H1: the choice carries to this asalto
    state.last_declared = last_declared(state)  # the declaration form may repeat it
    state.declarations = {}
    state.current = {}
    state.planned = {}
    state.prompts = []
    state.reactions_made = {}
    state.locked = []
    state.prevented = []
    state.pending_marks = []
    state.steps = []
    emit(EventKind.ROUND, Msg(N_("Asalto {round} begins. Declaration order: {order}"),
                              round=state.round, order=", ".join(state.declaration_order)),
         rule="D1")
    if state.notes or state.bodies or state.extended:
        from sombra_tui.engine.rules.notes import notes_of_the_round

        notes_of_the_round(state, emit)  # issue 37: what this asalto holds, the DJ's notes


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
        reason = skip_reason(state, answered_author)
        if reason is not None:  # D7/D11: never offered, not even as a counter-reaction
            emit(EventKind.SKIPPED, Msg(N_("{answered_author}'s prompt skipped: {reason}"
                                           "."),
                                        answered_author=answered_author, reason=reason),
                 actor=answered_author, rule="D11")
        else:
            opened.append(Prompt(id=new_id(state), reactor=answered_author,
                                 declaration_id=declaration.id, kind=kind))
    positions = _positions(state, [declaration.author, *declaration.affected])
    affected = sorted((name for name in declaration.affected if name in positions),
                      key=positions.__getitem__)  # D11: in declaration order
    for name in affected:
        if name == answered_author:
            continue
        if may_react(state, name, declaration, positions):
            opened.append(Prompt(id=new_id(state), reactor=name,
                                 declaration_id=declaration.id))
        elif may_react(state, name, declaration, positions, conditions=False):
            # C4: able by D4 but for a condition: no prompt, the skip is logged (D11).
            names = ", ".join(dict.fromkeys(cond.name for cond in preventing_reaction(
                state.body(name).conditions, state.round)))
            emit(EventKind.SKIPPED, Msg(N_("{name}'s prompt skipped: {conditions}."),
                                        name=name, conditions=names
                                        ).about(gender_of(state, name)),
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
    need_character(state, cmd.character)
    need_no_proposal(state, _("declare"))
    _check_turn(state, cmd.character)
    affected = _declarable(state, cmd.character, cmd.actions, cmd.affected)
    declaration = trusted(Declaration, id=new_id(state), author=cmd.character,
                          actions=cmd.actions, affected=affected, new_actions=cmd.actions)
    state.declarations[declaration.id] = declaration
    state.current[cmd.character] = declaration.id
    summary = logged_summary(cmd.actions)
    emit(EventKind.DECLARE,
         Msg(N_("{name} declares: {summary} (affects {affected})"), name=cmd.character,
             summary=summary, affected=", ".join(affected)) if affected
         else Msg(N_("{name} declares: {summary}"), name=cmd.character, summary=summary),
         actor=cmd.character, targets=affected, rule="D1")
    _open_prompts(state, declaration, None, emit)


def _check_turn(state: CombatState, name: str) -> None:
    """D1, D11: `name` declares now (no prompt open, and its turn in declaration order)."""
    top = state.top_prompt
    if top is not None:
        raise SombraError(N_("First settle {reactor}'s reacción prompt."),
                          code="declare.prompt_open", params={"reactor": top.reactor})
    declarer = state.current_declarer
    if declarer is None:
        raise SombraError(N_("Everyone has declared this round; advance to the instant "
                             "phase."),
                          code="declare.all_declared")
    if name != declarer:
        _check_may_declare(state, name)
        raise SombraError(N_("It is {declarer}'s turn to declare, not {character}'s "
                             "(declaration order)."),
                          code="declare.not_turn",
                          params={"declarer": declarer, "character": name})


def _check_may_declare(state: CombatState, name: str) -> None:
    """D1, P4: why `name` has no turn to declare left this round, if it has none."""
    if name in state.current:
        raise SombraError(N_("{character} has already declared this round."),
                          code="declare.already", params={"character": name})
    if name not in state.round_initiative:
        raise SombraError(N_("{character} joined during this round and declares from the"
                             " next one."),
                          code="declare.joined", params={"character": name})
    if name in state.out:
        raise SombraError(N_("{character} is out and cannot act."),
                          code="declare.out", params={"character": name})


def _declarable(state: CombatState, name: str, actions: list[Action],
                given: list[str] | None) -> list[str]:
    """C4/D1, D2: what `name`'s declaration of `actions` must pass whenever its turn is;
    returns its affected list."""
    unable = unable_by_conditions(state, name)
    if unable and actions:  # C4/D1: only inaction
        raise CodedError("declare.cannot_act", N_("{character} is {conditions} and can only "
                                                  "declare inaction."),
                         params={"character": name, "conditions": unable}
                         ).about(gender_of(state, name))
    _check_actions(state, name, actions)
    return _affected(state, name, actions, given)


@handles(c.DeclareGroup, label=N_("declare together"),
          phases=(Phase.DECLARATION,), doing=N_("declare"), settles_first=True)
def _declare_group(state: CombatState, cmd: c.DeclareGroup, emit: Emitter) -> None:
    """Issue 39 item 3 (D1): the members' own Declare commands, the first now, each of
    the others when its turn comes (settle_prompts): D, P and H apply to each as if
    declared one by one."""
    need_no_proposal(state, _("declare"))
    members = cmd.expanded()
    if len(members) < 2:
        raise SombraError(N_("A declaration together needs two characters or more."),
                          code="declare_group.one")
    _check_one_side(state, [member.character for member in members])
    ordered = _in_turn(state, members)
    for member in ordered:  # every refusal now, naming the member, before anyone declares
        _declarable(state, member.character, member.actions, member.affected)
    first, *rest = ordered
    for member in rest:
        state.planned[member.character] = trusted(Planned, actions=member.actions,
                                                  affected=member.affected)
    _declare(state, first, emit)


def _check_one_side(state: CombatState, names: list[str]) -> None:
    """Issue 39 item 3: a declaration together is for characters of one side."""
    sides = {name: need_character(state, name).side for name in names}
    other = next((name for name in names if sides[name] is not sides[names[0]]), None)
    if other is not None:
        raise SombraError(N_("{other} is not on {first}'s side: a declaration together is "
                             "for characters of one side."),
                          code="declare_group.sides", params={"other": other,
                                                              "first": names[0]})


def _in_turn(state: CombatState, members: list[c.Declare]) -> list[c.Declare]:
    """D1: the members in declaration order; they must be the next ones to declare, one
    after another, the first of them now."""
    for member in members:
        _check_may_declare(state, member.character)
    coming = _coming(state)
    by_name = {member.character: member for member in members}
    ordered = sorted(by_name, key=coming.index)
    _check_turn(state, ordered[0])
    for before, after, other in zip(ordered, ordered[1:], coming[1:], strict=False):
        if after != other:
            raise SombraError(N_("{other} declares between {before} and {after} "
                                 "(declaration order): a declaration together is for "
                                 "characters who declare one after another."),
                              code="declare_group.apart",
                              params={"other": other, "before": before, "after": after})
    return [by_name[name] for name in ordered]


def _coming(state: CombatState) -> list[str]:
    """D1, P4: who is still to declare this round, in declaration order."""
    return [name for name in state.declaration_order if name not in state.current
            and name not in state.out and state.character(name) is not None]


def together_with(state: CombatState, name: str) -> list[str]:
    """Issue 39 item 3: whom the declarer `name` may declare together with (DeclareGroup):
    the characters of its side who declare right after it, one after another (D1)."""
    character = state.character(name)
    if character is None or state.current_declarer != name:
        return []
    run: list[str] = []
    for other in _coming(state)[1:]:
        each = state.character(other)
        if each is None or each.side is not character.side:
            break
        run.append(other)
    return run


def declare_planned(state: CombatState, emit: Emitter) -> None:
    """Issue 39 item 3 (D1, D11): each group member whose turn has come, with no prompt
    or proposal open, declares its part (its own Declare); one who cannot act declares
    inaction instead (C4), and a part that is refused now is dropped, logged: the DJ
    declares for that member."""
    while not state.prompts and not state.proposals:
        if state.bodies:
            declare_inaction_for_unable(state, emit)
        name = state.current_declarer
        planned = state.planned.pop(name, None) if name is not None else None
        if name is None or planned is None:
            break
        command = c.Declare(character=name, actions=planned.actions,
                            affected=planned.affected)
        try:
            _declare(state, command, emit)
        except SombraError as error:  # checked before anything changes (_declarable)
            emit(EventKind.SKIPPED, Msg(N_("{name} does not declare with the group: "
                                           "{reason} Declare for {name}."),
                                        name=name, reason=Msg(error.template, error.params)),
                 actor=name, rule="D1")
            break
    for name in [name for name in state.planned if name in state.current]:
        del state.planned[name]  # declared otherwise (inaction, C4)


def opposed_with(opposition: Opposition) -> Msg:
    """O2/O3: who an opposed action is opposed with, and how (the log, the panel)."""
    template = (N_("opposed (direct) with {names}")
                if opposition.mode is OppositionMode.DIRECT
                else N_("opposed (conditioned) with {names}"))
    return Msg(template, names=", ".join(opposition.against))


def logged_summary(actions: list[Action]) -> Msg | Join:
    """D1/H1/O2/O3: declared actions as the log keeps them: each summary, the weapon of
    an attack and who an opposed one is opposed with (the DJ reads it there, not only in
    the panel)."""
    if not actions:
        return Msg(N_("inaction"))
    return Join("; ", [Join(", ", [part for part in (
        action.summary_msg(), action.attack_msg(),
        None if action.opposition is None else opposed_with(action.opposition))
        if part is not None]) for action in actions])


def _need_top_prompt(state: CombatState, name: str, doing: str) -> Prompt:
    need_character(state, name)
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


def alerta_roll(state: CombatState, cmd: c.React, prompt: Prompt | None = None
                ) -> tuple[TAResult | None, GdBreakdown, int]:
    """D6/D9/D12: the Alerta TA of the reacción `cmd` answering `prompt` (by default the
    open prompt, which must be the character's), as React logs it: the result (None with
    neither dice nor the DJ's acceptance), its GD and the value rolled under (Alerta).
    It does not depend on the reacción's actions. Read by the handler and by a dialog's
    preview (ask.ta_preview)."""
    if prompt is None:
        prompt = _need_top_prompt(state, cmd.character, _("react"))
    alerta = need_character(state, cmd.character).alerta  # D6: Alerta, not a skill
    gd = alerta_gd(state, prompt, cmd.mode, base=cmd.base_gd, extra=cmd.extra_gd)
    result: TAResult | None = None
    if cmd.dice is not None:
        result = resolve_ta(cmd.dice, target=alerta, gd=gd.total,
                            points_per_gd=state.settings.points_per_gd,
                            quality_levels=state.settings.niveles_de_calidad)
    elif cmd.accept_without_roll:
        result = unrolled_ta(target=alerta, gd=gd.total)
    return result, gd, alerta


@handles(c.React, label=N_("react"),
          phases=(Phase.DECLARATION,), doing=N_("react"), settles_first=True)
def _react(state: CombatState, cmd: c.React, emit: Emitter) -> None:
    prompt = _need_top_prompt(state, cmd.character, _("react"))
    need_character(state, cmd.character)
    need_no_proposal(state, _("react"))
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
    result, gd, _alerta = alerta_roll(state, cmd, prompt)
    assert result is not None  # dice or the DJ's acceptance, checked above
    word = (Msg(N_("contrarreacción")) if prompt.kind is PromptKind.COUNTER
            else Msg(N_("reacción")))
    state.prompts.pop()
    if not result.success:  # D7: as if Y had not tried, and locked for the round
        state.locked.append(cmd.character)
        emit(EventKind.REACTION, Msg(N_("{character}'s {word} fails: keeps \"{summary}\" and "
                                        "cannot react again this round."),
                                     character=cmd.character, word=word,
                                     summary=logged_summary(old.actions)),
             actor=cmd.character, targets=[answered.author], ta=result, gd=gd,
             override=bool(cmd.extra_gd), rule="D7")
        return
    # D8: the declaration becomes the combination or the substitute.
    actions = ([*old.actions, *cmd.actions] if cmd.mode is ReactionMode.COMBINE
               else list(cmd.actions))
    declaration = trusted(Declaration, id=new_id(state), author=cmd.character,
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
                                 summary=logged_summary(declaration.actions)),
         actor=cmd.character,
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
    need_character(state, cmd.character)
    need_character(state, cmd.against)
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
    prompt = Prompt(id=new_id(state), reactor=cmd.character, declaration_id=declaration.id,
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


def skip_reason(state: CombatState, reactor: str) -> Msg | None:
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


def settle_prompts(state: CombatState, emit: Emitter) -> None:
    """D11: skip the prompts of reactors who can no longer answer; C4/D1: inaction for
    declarers who cannot act."""
    while state.prompts:
        top = state.prompts[-1]
        if top.forced:
            break
        reason = skip_reason(state, top.reactor)
        if reason is None:
            break
        state.prompts.pop()
        emit(EventKind.SKIPPED, Msg(N_("{reactor}'s prompt skipped: {reason}."),
                                    reactor=top.reactor, reason=reason),
             actor=top.reactor, rule="D11")
    if state.planned:
        declare_planned(state, emit)  # issue 39 item 3 (and C4 on the way)
    elif state.bodies and not state.prompts:
        declare_inaction_for_unable(state, emit)
