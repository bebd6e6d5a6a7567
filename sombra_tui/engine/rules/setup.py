"""Encounter set-up (I1-I3, S): adding, importing, editing, removing and moving
characters, settings, the encounter's name, and StartCombat."""

from __future__ import annotations

from sombra_tui.engine import commands as c
from sombra_tui.engine.carry import joined_body
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.i18n import N_, Join, Msg, Text, _, lazy, text_from_data
from sombra_tui.engine.model import (
    NAME_MAX,
    name_clashes,
    numbered_names,
)
from sombra_tui.engine.registry import (
    handles,
)
from sombra_tui.engine.rules.conditions import sync_out
from sombra_tui.engine.rules.core import Emitter, need_character, need_no_proposal, new_id
from sombra_tui.engine.rules.declaration import start_round
from sombra_tui.engine.rules.steps import after_step
from sombra_tui.engine.state import (
    CombatState,
    ExtendedStatus,
    Phase,
    StepStatus,
)


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
    strangers = [name for name in cmd.carried
                 if name not in {ch.name for ch in cmd.characters}]
    if strangers:
        raise SombraError(N_("{names} cannot bring wounds: not among the characters "
                             "imported."), code="character.import_carried",
                          params={"names": ", ".join(strangers)})
    for character in cmd.characters:
        _add_character(state, c.AddCharacter(character=character), emit)
    source: Text = Msg(N_(" from {source}"), source=cmd.source) if cmd.source else ""
    count = len(cmd.characters)
    emit(EventKind.ENCOUNTER, lazy.ngettext("Imported {count} character{source}.",
                                            "Imported {count} characters{source}.", "count",
                                            count=count, source=source))
    if cmd.carried:  # issue 38: their wounds and conditions too
        for name, body in cmd.carried.items():
            state.bodies[name] = joined_body(state, body, lambda: new_id(state))
        emit(EventKind.ENCOUNTER, Msg(N_("{names} bring their wounds and conditions{source}."),
                                      names=", ".join(cmd.carried), source=source),
             code="carry.imported", data={"source": cmd.source})
        for name in cmd.carried:
            sync_out(state, name, emit)  # C4, P4: an out condition makes them out


@handles(c.EditCharacter, label=N_("edit character"))
def _edit_character(state: CombatState, cmd: c.EditCharacter, emit: Emitter) -> None:
    old = need_character(state, cmd.name)
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
    character = need_character(state, cmd.name)
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
            after_step(state, step, emit)  # P4: it may complete its simultaneous group
    for progress in state.extended:
        if progress.owner == name and progress.status is ExtendedStatus.ACTIVE:
            progress.status = ExtendedStatus.ABANDONED
    emit(EventKind.ENCOUNTER, Msg(N_("{name} leaves the encounter (kept in the log)."),
                                  name=name), actor=name)


@handles(c.MoveCharacter, label=N_("move character"))
def _move_character(state: CombatState, cmd: c.MoveCharacter, emit: Emitter) -> None:
    character = need_character(state, cmd.name)
    state.characters.remove(character)
    position = min(cmd.position, len(state.characters))
    state.characters.insert(position, character)
    note: Text = ("" if state.phase is Phase.SETUP
                  else Msg(N_(" (orders change from the next round)")))
    emit(EventKind.ENCOUNTER, Msg(N_("{name} moved to position {position} of the DJ's "
                                     "order (tie-break){note}."),
                                  name=cmd.name, position=position + 1,
                                  note=note), actor=cmd.name, rule="I3")


#: The settings as the log names a change ("Bleeding rate (grave) 5 -> 2"), by field of
#: Settings and WoundSettings: never the field's code name.
SETTING_NAMES = {
    "reaccion": N_("Reacción"), "niveles_de_calidad": N_("Niveles de calidad"),
    "iniciativa_variable": N_("Iniciativa variable"), "points_per_gd": N_("Points per GD"),
    "pc_dice": N_("PCs' dice"), "npc_dice": N_("NPCs' dice"),
    "asalto_seconds": N_("Length of an asalto (seconds)"),
    "pv_multiplier": N_("PV multiplier"), "side_mapping": N_("Sides"),
    "severity_reading": N_("Severity"), "bleeding": N_("Bleeding"),
    "bleed_rate_leve": N_("Bleeding rate (leve)"),
    "bleed_rate_grave": N_("Bleeding rate (grave)"),
    "only_lethal_bleeds": N_("Only lethal wounds bleed"),
    "dolor_intenso_gd": N_("Dolor intenso GD"),
    "grave_keeps_leve_gd": N_("A grave wound keeps the leve GD"),
    "abdomen_as_pecho": N_("Abdomen as chest"), "leg_as_arm": N_("A leg as an arm"),
    "bled_point_is_herida": N_("A bled point is herida"),
    # The players' view (issue 23), by side: "players.<side>.<field of SideView>".
    "players.pc.wounds": N_("PCs' wounds for the players"),
    "players.npc.wounds": N_("NPCs' wounds for the players"),
    "players.pc.declarations": N_("PCs' declarations for the players"),
    "players.npc.declarations": N_("NPCs' declarations for the players"),
    "players.pc.hidden_until_acts": N_("New PCs hidden from the players until they act"),
    "players.npc.hidden_until_acts": N_("New NPCs hidden from the players until they act"),
    "players.reaction_odds": N_("A prompted PC's reacción odds for the players"),
}
#: The values of the settings that are not numbers, as the log names them.
SETTING_VALUES = {
    "True": N_("on"), "False": N_("off"), "table": N_("the table"),
    "tracker": N_("the tracker"), "4-left": N_("4 left arm"), "4-right": N_("4 right arm"),
    "floor": N_("floor(D / R)"), "strict": N_("strict"),
    "None": N_("not said"),  # the length of an asalto (issue 38)
    # The players' view: WoundView and DeclarationView.
    "numbers": N_("numbers"), "words": N_("words"), "hidden": N_("not shown"),
    "as_made": N_("as made"),
    "after_phase": N_("when the declarations end"),
}


def _setting_change(key: str, old: object, new: object) -> Msg:
    def value(setting: object) -> str | Msg:
        word = str(setting)
        return Msg(SETTING_VALUES[word]) if word in SETTING_VALUES else word
    return Msg(N_("{setting} {old} -> {new}"), setting=Msg(SETTING_NAMES.get(key, key)),
               old=value(old), new=value(new))


@handles(c.ChangeSettings, label=N_("change settings"))
def _change_settings(state: CombatState, cmd: c.ChangeSettings, emit: Emitter) -> None:
    old = state.settings
    # O2/O3 and the fourth pass: how a history reads the rules is its own, never changed
    # by the DJ (model.py).
    new = cmd.settings.model_copy(update={"oppositions_v3": old.oppositions_v3,
                                          "rules_v4": old.rules_v4})
    if new == old:
        raise SombraError(N_("The settings are unchanged."),
                          code="settings.unchanged")
    if new.iniciativa_variable != old.iniciativa_variable and state.phase is not Phase.SETUP:
        raise SombraError(N_("Iniciativa variable only matters before the first round; "
                             "it cannot change once the combat has started."),
                          code="settings.variable_started")
    state.settings = new
    changes: list[Msg] = [_setting_change(key, getattr(old, key), getattr(new, key))
                          for key in type(new).model_fields
                          if key not in ("wounds", "players")
                          and getattr(old, key) != getattr(new, key)]
    if new.wounds != old.wounds:  # section H: name each changed setting
        changes += [_setting_change(key, getattr(old.wounds, key), getattr(new.wounds, key))
                    for key in type(new.wounds).model_fields
                    if key != "damage_types" and getattr(old.wounds, key)
                    != getattr(new.wounds, key)]
        changes += [Msg(N_("tipo {tipo} {formula}, {lethal}"), tipo=entry.id,
                        formula=entry.formula or "-",
                        lethal=Msg(N_("lethal")) if entry.lethal else Msg(N_("non-lethal")))
                    for entry, before in zip(new.wounds.damage_types,
                                             old.wounds.damage_types, strict=True)
                    if entry != before]
    if new.players != old.players:  # issue 23: the players' view, per side
        changes += [_setting_change(f"players.{side}.{key}",
                                    getattr(getattr(old.players, side), key),
                                    getattr(getattr(new.players, side), key))
                    for side in ("pc", "npc")
                    for key in type(new.players.pc).model_fields
                    if getattr(getattr(old.players, side), key)
                    != getattr(getattr(new.players, side), key)]
        changes += [_setting_change(f"players.{key}", getattr(old.players, key),
                                    getattr(new.players, key))
                    for key in type(new.players).model_fields
                    if key not in ("pc", "npc")
                    and getattr(old.players, key) != getattr(new.players, key)]
    emit(EventKind.ENCOUNTER, Msg(N_("Settings: {names}."),
                                  names=Join(", ", changes)))
    rates = ("bleed_rate_leve", "bleed_rate_grave")
    if any(getattr(old.wounds, key) != getattr(new.wounds, key) for key in rates) and \
            any(wound.bleeding for body in state.bodies.values() for wound in body.wounds):
        # H9: a wound keeps the rate it got when it was made.
        emit(EventKind.ENCOUNTER, Msg(N_("The new bleeding rate applies to new wounds; the "
                                         "wounds already bleeding keep theirs (edit a "
                                         "wound on the sheet to change it).")))
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


def said_carried(state: CombatState, emit: Emitter) -> None:
    """Issue 38: the log says first where the carried characters come from, then what
    the time between the scenes did to them (H9, C3)."""
    carried = state.carried
    assert carried is not None
    names = [name for name in carried.bodies if state.character(name) is not None]
    if not names:
        return
    emit(EventKind.ENCOUNTER, lazy.ngettext(
        "{names} come from \"{source}\" ({asaltos} asalto played there; {passed} "
        "between), with their wounds and conditions.",
        "{names} come from \"{source}\" ({asaltos} asaltos played there; {passed} "
        "between), with their wounds and conditions.", "asaltos",
        names=", ".join(names), source=carried.source, asaltos=carried.asaltos,
        passed=carried.passed), code="carry.from",
         data={"source": carried.source, "passed": carried.passed})
    for said in carried.said:
        message = text_from_data(said)
        # A line kept as a list (a Join) is rendered when read, like a Msg (S2).
        emit(EventKind.WOUND, message if isinstance(message, Msg)
             else Msg(N_("{text}"), text=message), code="carry.between")


@handles(c.StartCombat, label=N_("start combat"),
          phases=(Phase.SETUP,), doing=N_("start the combat"), settles_first=True)
def _start_combat(state: CombatState, cmd: c.StartCombat, emit: Emitter) -> None:
    need_no_proposal(state, _("start the combat"))
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
    if state.carried is not None:  # issue 38: where the party comes from, first
        said_carried(state, emit)
    if rolls:
        emit(EventKind.ENCOUNTER, Msg(N_("Iniciativa variable for round 1: {names}."),
                                      names=", ".join(f"{n} +{v}" for n, v in rolls.items())),
             rule="I2")
    start_round(state, emit, rolls)
