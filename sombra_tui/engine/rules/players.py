"""The players' view (issue 23): who the DJ keeps out of it, and until when.

A concealed character is nowhere in the players' snapshot (engine/players_view.py):
hidden by the DJ until revealed (an ambush), or until its first TA. Characters of a
side whose settings say "hidden until it acts" are concealed as they join. Reveal and
hide are commands, so undo, redo, saving and the journal keep them like any other.
"""

from __future__ import annotations

from sombra_tui.engine import commands as c
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind, LogEvent
from sombra_tui.engine.i18n import N_, Msg
from sombra_tui.engine.registry import handles
from sombra_tui.engine.rules.core import Emitter, need_character
from sombra_tui.engine.state import CombatState, Concealment

#: The commands that add characters: those joining are concealed by their side's setting.
JOINING = (c.AddCharacter, c.AddCharacters, c.ImportCharacters)

#: The DJ's free TA (T8) is asked outside the steps, often in secret (a perception roll):
#: it does not count as acting.
_FREE_TA_RULE = "T8"


@handles(c.RevealCharacter, label=N_("reveal to the players"))
def _reveal(state: CombatState, cmd: c.RevealCharacter, emit: Emitter) -> None:
    name = need_character(state, cmd.character).name
    if name not in state.concealed:
        raise SombraError(N_("{name} is already in the players' view."),
                          code="players.already_shown", params={"name": name})
    del state.concealed[name]
    emit(EventKind.ENCOUNTER, Msg(N_("DJ reveals {name} to the players."), name=name),
         actor=name, override=True, code="players.revealed")


@handles(c.HideCharacter, label=N_("hide from the players"))
def _hide(state: CombatState, cmd: c.HideCharacter, emit: Emitter) -> None:
    name = need_character(state, cmd.character).name
    wanted = Concealment.UNTIL_ACTS if cmd.until_acts else Concealment.UNTIL_REVEALED
    if state.concealed.get(name) is wanted:
        raise SombraError(N_("{name} is already hidden from the players."),
                          code="players.already_hidden", params={"name": name})
    state.concealed[name] = wanted
    emit(EventKind.ENCOUNTER,
         Msg(N_("DJ hides {name} from the players until its first TA.") if cmd.until_acts
             else N_("DJ hides {name} from the players until revealed."), name=name),
         actor=name, override=True, code="players.hidden")


def conceal_joining(state: CombatState, names: list[str]) -> None:
    """Conceal each of `names` whose side the settings keep hidden until it acts."""
    view = state.settings.players
    for name in names:
        character = state.character(name)
        if character is None:
            continue
        if view.side(character.side).hidden_until_acts:
            state.concealed[name] = Concealment.UNTIL_ACTS
        else:
            state.concealed.pop(name, None)  # a stale entry of someone removed earlier


def names_before(state: CombatState, command: c.Command) -> set[str] | None:
    """The names in the encounter before a command that adds characters (else None)."""
    if isinstance(command, JOINING):
        return {character.name for character in state.characters}
    return None


def after_command(state: CombatState, command: c.Command, before: set[str] | None,
                  emit: Emitter) -> None:
    """Keep `concealed` in step with a command just applied: newcomers, a rename, and
    characters hidden until they act who have just made a TA. A hidden character who
    is removed stays hidden: its lines in the log stay the DJ's."""
    if before is not None:
        conceal_joining(state, [ch.name for ch in state.characters if ch.name not in before])
    elif isinstance(command, c.EditCharacter) and command.name != command.character.name:
        mode = state.concealed.pop(command.name, None)
        if mode is not None:
            state.concealed[command.character.name] = mode
    if state.concealed:
        _reveal_actors(state, list(emit.events), emit)


def _reveal_actors(state: CombatState, events: list[LogEvent], emit: Emitter) -> None:
    for event in events:
        name = event.actor
        if (name is None or state.concealed.get(name) is not Concealment.UNTIL_ACTS
                or not _acts(event)):
            continue
        del state.concealed[name]
        emit(EventKind.ENCOUNTER, Msg(N_("{name} acts: now in the players' view."),
                                      name=name), actor=name, code="players.revealed")


def _acts(event: LogEvent) -> bool:
    """A TA of a step (rolled, automatic or decided by the DJ) or an Alerta TA."""
    if event.kind is EventKind.TA:
        return event.rule != _FREE_TA_RULE
    return event.kind is EventKind.REACTION and event.ta is not None
