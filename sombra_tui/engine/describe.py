"""Any command in the DJ's words (issue 35 item D2): what a form will send, read back.

A form's summary line shows `describe(state, command)` for the command it would send
now, and Enter sends that very command: the weapon, the targets, whose dice and the GD
are read here from the command itself (and from the state for what the command leaves
to it: the step's GD, whose side rolls), never from the form's fields. Nothing here
changes a state.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from sombra_tui.engine import commands as c
from sombra_tui.engine.dice import Dice, format_gd
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.i18n import N_, Join, Msg, lazy
from sombra_tui.engine.model import Action, ActionKind, Side, numbered_names
from sombra_tui.engine.registry import label_of
from sombra_tui.engine.rules.declaration import alerta_roll, opposed_with
from sombra_tui.engine.rules.resolution import free_ta_roll, resolve_roll
from sombra_tui.engine.state import CombatState, PromptKind, ReactionMode

#: Dice the tracker will roll when the command is sent: a form's summary before Enter
#: stands them in with this (dS 0, which no real roll has) and reads "the tracker rolls".
TO_ROLL = Dice.model_construct(ds=0, a=0, b=0)
#: Any dice, for reading a TA's GD (which no dice change) before the dice are known.
_ANY_DICE = Dice.model_construct(ds=1, a=1, b=1)

#: The kinds named in a summary (a round action, the usual one, is not named).
_KIND_WORDS = {ActionKind.INSTANT: N_("instant"), ActionKind.AUTOMATIC: N_("automatic"),
               ActionKind.EXTENDED: N_("extended")}


def to_roll(dice: Dice | None) -> bool:
    """Whether `dice` stand for a roll the tracker makes when the command is sent."""
    return dice is not None and dice.ds == 0


def dice_words(state: CombatState | None, name: str, dice: Dice | None) -> Msg:
    """T6: the dice of `name`'s TA and who rolls them: "dice 3·4·2 (the table)"."""
    table = state is not None and state.table_rolls(name)
    if dice is None or to_roll(dice):
        return Msg(N_("dice to be rolled by the tracker"))
    shown = f"{dice.ds}·{dice.a}·{dice.b}"
    return (Msg(N_("dice {dice} (the table)"), dice=shown) if table
            else Msg(N_("dice {dice}"), dice=shown))


def gd_words(gd: int) -> str:
    return f"GD {format_gd(gd)}"


def action_words(action: Action) -> Msg:
    """D1/H1/O2: "“shoots Bruno” (Armas cortas, with pistola, GD +1) against Bruno"."""
    parts: list[Any] = []
    if action.kind in _KIND_WORDS:
        parts.append(Msg(_KIND_WORDS[action.kind]))
    if action.skill:
        parts.append(action.skill)
    if action.target is not None:
        parts.append(Msg(N_("under {target}"), target=action.target))
    if action.weapon is not None:
        parts.append(Msg(N_("with {weapon}"), weapon=action.weapon.name))
    if action.gd:
        parts.append(gd_words(action.gd))
    if action.opposition is not None:
        parts.append(opposed_with(action.opposition))
    words = Msg(N_("“{description}”"), description=action.description)
    if parts:
        words = Msg(N_("{words} ({details})"), words=words, details=Join(", ", parts))
    if action.targets:
        words = Msg(N_("{words} against {targets}"), words=words,
                    targets=", ".join(action.targets))
    return words


def _actions(actions: list[Action], affected: list[str] | None, author: str) -> Msg | Join:
    said = Join("; ", [action_words(action) for action in actions])
    aimed = [name for action in actions for name in action.targets]
    extra = [name for name in affected or [] if name not in aimed and name != author]
    if extra:
        return Msg(N_("{actions}; affects {names}"), actions=said, names=", ".join(extra))
    return said


def _declare(state: CombatState | None, cmd: c.Declare) -> Msg:
    if not cmd.actions:
        return Msg(N_("{name} declares inaction"), name=cmd.character)
    return Msg(N_("{name} declares {actions}"), name=cmd.character,
               actions=_actions(cmd.actions, cmd.affected, cmd.character))


def _declare_group(state: CombatState | None, cmd: c.DeclareGroup) -> Msg:
    """Issue 39 item 3: the members, and what each of them declares in turn."""
    names = ", ".join(dict.fromkeys(cmd.characters))
    if not cmd.actions:
        return Msg(N_("{names} declare inaction, each in turn"), names=names)
    return Msg(N_("{names} declare, each in turn: {actions}"), names=names,
               actions=_actions(cmd.actions, cmd.affected, ""))


def _ta_gd(state: CombatState | None, cmd: c.Resolve | c.React | c.FreeTA) -> int | None:
    """The TA's whole GD as the machine would roll it (T2, D6, D9, H10), or None."""
    if state is None:
        return None
    cmd = cmd.model_copy(update={"dice": _ANY_DICE})
    try:
        if isinstance(cmd, c.Resolve):
            step = next(s for s in state.current_group() if s.character == cmd.character)
            return resolve_roll(state, cmd, step)[1].total
        if isinstance(cmd, c.React):
            return alerta_roll(state, cmd)[1].total
        return free_ta_roll(state, cmd)[1].total
    except (StopIteration, SombraError, ValueError, KeyError, AssertionError, AttributeError):
        return None


def _react(state: CombatState | None, cmd: c.React) -> Msg:
    prompt = None if state is None else state.top_prompt
    counter = prompt is not None and prompt.kind is PromptKind.COUNTER
    author = (state.declarations[prompt.declaration_id].author
              if state is not None and prompt is not None else "?")
    template = (N_("{name}'s contrarreacción to {author} ({mode}): {actions}; Alerta {roll}")
                if counter else
                N_("{name} reacts to {author} ({mode}): {actions}; Alerta {roll}"))
    mode = Msg(N_("substitute") if cmd.mode is ReactionMode.SUBSTITUTE else N_("combine"))
    if cmd.accept_without_roll:
        roll: Any = Msg(N_("accepted without a roll"))
    else:
        gd = _ta_gd(state, cmd)
        roll = dice_words(state, cmd.character, cmd.dice)
        if gd is not None:
            roll = Msg(N_("{dice}, {gd}"), dice=roll, gd=gd_words(gd))
    return Msg(template, name=cmd.character, author=author, mode=mode,
               actions=_actions(cmd.actions, cmd.affected, cmd.character), roll=roll)


def _resolve(state: CombatState | None, cmd: c.Resolve) -> Msg:
    if cmd.accept is not None:
        return Msg(N_("Resolve {name}'s TA: the DJ decides a success, no roll")
                   if cmd.accept else
                   N_("Resolve {name}'s TA: the DJ decides a failure, no roll"),
                   name=cmd.character)
    if cmd.dice is None and state is not None:
        step = next((s for s in state.current_group() if s.character == cmd.character), None)
        if step is not None and state.step_action(step).kind is ActionKind.AUTOMATIC:
            return Msg(N_("Resolve {name}'s automatic action (no roll)"), name=cmd.character)
    return Msg(N_("Resolve {name}'s TA: {dice}{under}, {gd}"), name=cmd.character,
               dice=dice_words(state, cmd.character, cmd.dice),
               under=_under(cmd.target), gd=gd_words(_ta_gd(state, cmd) or 0))


def _under(target: int | None) -> Msg | str:
    return "" if target is None else Msg(N_(" under {target}"), target=target)


def _opposed(state: CombatState | None, cmd: c.ResolveOpposed) -> Msg:
    rolls = []
    for roll in cmd.rolls:
        gd = "" if roll.gd is None else ", " + gd_words(roll.gd)
        rolls.append(Msg(N_("{name} {dice}{under}{gd}"), name=roll.character,
                         dice=dice_words(state, roll.character, roll.dice),
                         under=_under(roll.target), gd=gd))
    words = Msg(N_("Resolve {name}'s opposed TA: {rolls}"), name=cmd.character,
                rolls=Join("; ", rolls))
    if cmd.winners:
        words = Msg(N_("{words}; the DJ gives it to {winners}"), words=words,
                    winners=", ".join(cmd.winners))
    return words


def _free_ta(state: CombatState | None, cmd: c.FreeTA) -> Msg:
    gd = _ta_gd(state, cmd)
    return Msg(N_("A TA of {name}{skill}: {dice}{under}, {gd}"), name=cmd.character,
               skill=f" ({cmd.skill})" if cmd.skill else "",
               dice=dice_words(state, cmd.character, cmd.dice), under=_under(cmd.target),
               gd=gd_words(cmd.gd if gd is None else gd))


def _hit_target(state: CombatState | None, proposal_id: int) -> str:
    proposal = None if state is None else next(
        (p for p in state.proposals if p.id == proposal_id), None)
    return "?" if proposal is None else proposal.character


def _accept_hit(state: CombatState | None, cmd: c.AcceptHit) -> Msg:
    changes: list[Any] = []
    if cmd.location is not None:
        changes.append(Msg(cmd.location.label))
    if cmd.damage is not None:
        changes.append(Msg(N_("damage {damage}"), damage=cmd.damage))
    if cmd.lethal is not None:
        changes.append(Msg(N_("lethal") if cmd.lethal else N_("non-lethal")))
    if cmd.severity is not None:
        changes.append(Msg(N_("severity {severity}"), severity=cmd.severity.value))
    name = _hit_target(state, cmd.proposal_id)
    if not changes:
        return Msg(N_("Accept the hit on {name} as proposed"), name=name)
    return Msg(N_("Accept the hit on {name}: {changes}"), name=name,
               changes=Join(", ", changes))


def _manual_hit(state: CombatState | None, cmd: c.ManualHit) -> Msg:
    return Msg(N_("A hit on {name}: {location}, damage {damage}{lethal}"),
               name=cmd.character, location=Msg(cmd.location.label), damage=cmd.damage,
               lethal="" if cmd.lethal else Msg(N_(", non-lethal")))


def _condition(cmd: c.AddCondition | c.EditCondition) -> Msg:
    """C1, C3: the condition, its duration (or until removed) and effects' grade."""
    condition = cmd.condition
    if condition.duration is None:
        lasting: Any = Msg(N_("until removed"))
    else:
        lasting = lazy.ngettext("{count} asalto", "{count} asaltos", "count",
                                count=condition.duration)
    template = (N_("{name} gets {condition} ({lasting})") if isinstance(cmd, c.AddCondition)
                else N_("{name}'s {condition} becomes: {lasting}"))
    return Msg(template, name=cmd.character, condition=condition.name, lasting=lasting)


def _heal(state: CombatState | None, cmd: c.Heal) -> Msg:
    """H6, H12: herida points heal their golpe points too."""
    template = (N_("Heal {points} herida points of {name} (and their golpe points)")
                if cmd.kind is c.HealKind.HERIDA else
                N_("Heal {points} golpe points of {name}"))
    return Msg(template, points=cmd.points, name=cmd.character)


def _edit_wound(state: CombatState | None, cmd: c.EditWound) -> Msg:
    wound = cmd.wound
    return Msg(N_("{name}'s wound becomes: {location}, damage {damage}, {severity}"),
               name=cmd.character, location=Msg(wound.location.label), damage=wound.damage,
               severity=Msg(wound.severity.label))


def _adjust(state: CombatState | None, cmd: c.AdjustExtended) -> Msg:
    """E2, E3: the values the DJ changes."""
    owner = None
    if state is not None:
        progress = next((p for p in state.extended if p.id == cmd.extended_id), None)
        owner = None if progress is None else progress.owner
    changes: list[Any] = []
    if cmd.duration is not None:
        changes.append(Msg(N_("duration {count}"), count=cmd.duration))
    if cmd.successes is not None:
        changes.append(Msg(N_("successes needed {count}"), count=cmd.successes))
    if cmd.interval is not None:
        changes.append(Msg(N_("every {count}"), count=cmd.interval))
    if cmd.gd is not None:
        changes.append(gd_words(cmd.gd))
    said = Join(", ", changes) if changes else Msg(N_("unchanged"))
    if owner is None:
        return Msg(N_("The extended action: {changes}"), changes=said)
    return Msg(N_("{name}'s extended action: {changes}"), name=owner, changes=said)


def _note(state: CombatState | None, cmd: c.AddNote | c.EditNote | c.RemoveNote) -> Msg:
    """Issue 37: the asalto, whom it is about, the text, and who reads it."""
    if isinstance(cmd, c.RemoveNote):
        note = next((n for n in state.notes if n.id == cmd.note_id), None) if state else None
        if note is None:
            return Msg(N_("Remove the note"))
        return Msg(N_("Remove the note of asalto {round}: “{text}”"), round=note.round,
                   text=note.text)
    what = (Msg(N_("asalto {round}: “{text}”"), round=cmd.round, text=cmd.text)
            if cmd.character is None else
            Msg(N_("asalto {round}, about {name}: “{text}”"), round=cmd.round,
                name=cmd.character, text=cmd.text))
    seen = Msg(N_("the players' view shows it then") if cmd.public
               else N_("for the DJ only"))
    template = (N_("Pin a note to {what} ({seen})") if isinstance(cmd, c.AddNote)
                else N_("Change the note to {what} ({seen})"))
    return Msg(template, what=what, seen=seen)


def _plain(state: CombatState | None, cmd: BaseModel) -> Msg:
    """Any other command as undo names it: "Accept hit (Iker)"."""
    label = label_of(cmd)
    return Msg(N_("{command}"), command=label[:1].upper() + label[1:])


#: A side as the DJ reads it ("PJ", "PNJ" in Spanish).
SIDE_WORDS = {Side.PC: N_("PC"), Side.NPC: N_("NPC")}


def _add_characters(state: CombatState | None, cmd: c.AddCharacters) -> Msg:
    """ "Add Matón 1, Matón 2 (NPC)": the names the copies will take (issue 39 item 1),
    read from the state as the command will (else "Add 2 × Matón")."""
    side = Msg(SIDE_WORDS[cmd.character.side])
    if state is None:
        return Msg(N_("Add {count} × {name} ({side})"), count=cmd.count,
                   name=cmd.character.name, side=side)
    return Msg(N_("Add {names} ({side})"), side=side, names=", ".join(
        numbered_names(cmd.character.name, cmd.count, (ch.name for ch in state.characters))))


_DESCRIBERS: dict[type[BaseModel], Any] = {
    c.Declare: _declare, c.DeclareGroup: _declare_group, c.React: _react, c.Resolve: _resolve,
    c.ResolveOpposed: _opposed, c.FreeTA: _free_ta, c.AcceptHit: _accept_hit,
    c.DeclineHit: lambda state, cmd: Msg(N_("Decline the hit on {name}"),
                                         name=_hit_target(state, cmd.proposal_id)),
    c.ManualHit: _manual_hit,
    c.AddCondition: lambda state, cmd: _condition(cmd),
    c.EditCondition: lambda state, cmd: _condition(cmd),
    c.Heal: _heal, c.EditWound: _edit_wound, c.AdjustExtended: _adjust,
    c.SetCounters: lambda state, cmd: Msg(N_("Set {name}'s G to {g} and W to {w}"),
                                          name=cmd.character, g=cmd.g, w=cmd.w),
    c.Decline: lambda state, cmd: Msg(N_("{name} does not react"), name=cmd.character),
    c.AddCharacter: lambda state, cmd: Msg(N_("Add {name} ({side})"), name=cmd.character.name,
                                           side=Msg(SIDE_WORDS[cmd.character.side])),
    c.AddCharacters: _add_characters,
    c.AddNote: _note, c.EditNote: _note, c.RemoveNote: _note,
}


def describe(state: CombatState | None, command: BaseModel) -> Msg:
    """`command` in the DJ's words, as a Msg (rendered in the language in force when
    shown): who, what, the weapon and the targets, whose dice and the GD."""
    describer = _DESCRIBERS.get(type(command), _plain)
    result: Msg = describer(state, command)
    return result
