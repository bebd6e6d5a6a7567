"""A character's sheet in combat (H12, C2): points, wounds, conditions and weapons,
with the keys that open the small forms of hits, conditions and healing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui import keys
from sombra_tui.engine import (
    CombatState,
    ask,
)
from sombra_tui.engine.i18n import N_, _, ngettext
from sombra_tui.screens.dialogs.base import (
    Check,
    Dialog,
)
from sombra_tui.screens.dialogs.condition import ConditionDialog, EditConditionDialog
from sombra_tui.screens.dialogs.hit import ManualHitDialog
from sombra_tui.screens.dialogs.wound_edit import HealDialog, WoundDialog
from sombra_tui.widgets.keys_hint import KeysHint


class CharacterSheet(Dialog[c.Command]):
    """A character's sheet in combat: points, wounds, conditions and weapons, with the
    keys to heal, attend, add a condition or a hit (H12, C2), and to show the character
    in the players' view or leave it out (issue 23)."""

    BINDINGS = keys.bindings(keys.Scope.SHEET)

    DEFAULT_CSS = """
    CharacterSheet #sheet-items { height: auto; max-height: 14; }
    CharacterSheet #sheet-head { height: auto; }
    """

    #: The sheet is always given the engine's dry run: its forms check with it too.
    check: Check

    def __init__(self, get_state: Callable[[], CombatState], name: str, check: Check) -> None:
        super().__init__()
        self.get_state = get_state
        self.name_ = name
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("Sheet: {name}").format(name=self.name_), id="dialog-title")
            yield Static("", id="sheet-head")
            yield OptionList(id="sheet-items")
            # Wrapped between two keys only: never "v" on one line, its words below.
            yield KeysHint(self._keys_hint(), classes="note")

    #: The sheet's keys named in its hint, with their words (the keys in force).
    HINT_KEYS = (("sheet.hit", N_("hit")), ("sheet.condition", N_("condition")),
                 ("sheet.heal", N_("heal")), ("sheet.attend", N_("attend wound")),
                 ("sheet.edit", N_("edit")), ("sheet.remove", N_("remove")),
                 ("sheet.reveal", N_("show to players")),
                 ("sheet.hide", N_("hide from players")), ("dialog.cancel", N_("close")))

    #: Whether the players' view shows the character, by why it is left out (None: shown).
    PLAYERS_SEE = {None: N_("Players' view: shown"),
                   c.Concealment.UNTIL_REVEALED: N_("Players' view: left out until shown "
                                                    "again"),
                   c.Concealment.UNTIL_ACTS: N_("Players' view: left out until its first "
                                                "TA")}

    def _keys_hint(self) -> list[str]:
        keymap: dict[str, str] = getattr(self.app, "keymap_in_force", {})
        return [f"{keys.first_key_in_force(binding_id, keymap)} {_(word)}"
                for binding_id, word in self.HINT_KEYS]

    def on_mount(self) -> None:
        self.refresh_sheet()
        self.query_one(OptionList).focus()

    def refresh_sheet(self) -> None:
        state = self.get_state()
        if state.character(self.name_) is None:
            self.dismiss(None)
            return
        head, lines = sheet_lines(state, self.name_)
        self.query_one("#sheet-head", Static).update(
            head + "\n" + _(self.PLAYERS_SEE[ask.concealment(state, self.name_)]))
        items = self.query_one(OptionList)
        highlighted = items.highlighted
        items.clear_options()
        options = [Option(text, id=option_id) for option_id, text in lines]
        if not options:
            options.append(Option(_("No wounds or conditions."), id="none", disabled=True))
        items.add_options(options)
        if not options[0].disabled:  # the first wound or condition is chosen at once
            items.highlighted = min(highlighted or 0, len(options) - 1)

    def _selected(self) -> tuple[str, int] | None:
        items = self.query_one(OptionList)
        if items.highlighted is None:
            return None
        option = items.get_option_at_index(items.highlighted)
        if option.id is None or option.id == "none":
            return None
        kind, _, number = option.id.partition("-")
        return kind, int(number)

    def _apply(self, command: object) -> None:
        if command is not None:
            # The sheet stays open across several edits: each command goes where every
            # dialog's result goes (the screen's callback), without closing it.
            asked = {proposal.id for proposal in self.get_state().proposals}
            self.deliver(command)  # type: ignore[arg-type]
            if any(proposal.id not in asked for proposal in self.get_state().proposals):
                # H7/H11: the change raised a question (inconsciente? prevented?): the
                # sheet gives way to the main screen, where it waits for the DJ's answer.
                self.notify(_("A question waits for your answer on the main screen."))
                self.dismiss(None)
                return
            self.refresh_sheet()

    def action_hit(self) -> None:
        self._open(ManualHitDialog(self.name_, self.check), "sheet_hit")

    def action_condition(self) -> None:
        self._open(ConditionDialog(self.name_, self.check), "sheet_condition")

    def action_heal(self) -> None:
        self._open(HealDialog(self.get_state(), self.name_, self.check), "sheet_heal")

    def _open(self, dialog: Dialog[Any], kind: str, *item: int) -> None:
        """A form of the sheet's (about the wound or condition `item`), kept as a draft
        while the DJ types in it, as the sheet's own screen keeps its forms (issue 35
        item 5: a resume opens it again)."""
        dialog.keep_drafts_in(self.keep_draft, kind, self.name_, *item)
        self.app.push_screen(dialog, self._apply)

    def action_attend(self) -> None:
        selected = self._selected()
        body = self.get_state().body(self.name_)
        wound_id = selected[1] if selected and selected[0] == "wound" else next(
            (w.id for w in body.wounds if w.bleeding), None)
        if wound_id is None:
            self.notify(_("No wound to attend."), severity="warning")
            return
        self._apply(c.AttendWound(character=self.name_, wound_id=wound_id))

    def action_edit(self) -> None:
        selected = self._selected()
        if selected is None:
            self.notify(_("Choose a wound or a condition to edit."), severity="warning")
            return
        kind, number = selected
        (self.edit_wound if kind == "wound" else self.edit_condition)(number)

    def edit_wound(self, wound_id: int) -> None:
        wound = self.get_state().body(self.name_).wound(wound_id)
        if wound is not None:
            self._open(WoundDialog(self.name_, wound, self.check), "sheet_wound", wound_id)

    def edit_condition(self, condition_id: int) -> None:
        state = self.get_state()
        condition = state.body(self.name_).condition(condition_id)
        if condition is not None:
            self._open(EditConditionDialog(self.name_, condition, ask.counting_round(state),
                                           self.check), "sheet_edit_condition", condition_id)

    def action_reveal(self) -> None:
        """The players' view shows the character (undoable; refused if it does)."""
        self._apply(c.RevealCharacter(character=self.name_))

    def action_hide(self) -> None:
        """The players' view leaves the character out until shown again (undoable)."""
        self._apply(c.HideCharacter(character=self.name_))

    def action_remove(self) -> None:
        selected = self._selected()
        if selected is None:
            return
        kind, number = selected
        if kind == "wound":
            self._apply(c.RemoveWound(character=self.name_, wound_id=number))
        else:
            self._apply(c.RemoveCondition(character=self.name_, condition_id=number))

    def build(self) -> None:
        return None  # Enter closes the sheet: what it changed ran as the DJ changed it


def sheet_lines(state: CombatState, name: str) -> tuple[str, list[tuple[str, str]]]:
    """The sheet's head and list (see sheet_head, sheet_items), from the engine's one
    reading of `name`'s row (ask.row), which the DJ's table and the players' view read."""
    row = ask.row(state, name)
    return sheet_head(state, row), sheet_items(state, row)


def sheet_head(state: CombatState, row: ask.Row) -> str:
    """The sheet's head: Resistencia, the row's PV and counters (H6), the main arm, the
    weapons and the protection."""
    character = state.character(row.name)
    assert character is not None
    weapons = ", ".join(
        f"{'*' if i == character.default_weapon else ''}{w.name} (tipo {w.damage_type}"
        + (", " + _("lethal") if w.lethal else ", " + _("non-lethal")
           if w.lethal is False else "") + ")"
        for i, w in enumerate(character.weapons)) or _("none")
    protection = ", ".join(f"{_(loc.label)} {value}" for loc, value
                           in character.protection.items() if value) or _("none")
    return _("Resistencia {resistencia} · PV {pv} · {counters} · main arm {arm}\n"
             "Weapons: {weapons}\nProtection: {protection}").format(
        resistencia=character.resistencia, pv=row.pv, counters=f"G {row.g} / W {row.w}",
        arm=_(character.main_arm.value), weapons=weapons, protection=protection)


def sheet_items(state: CombatState, row: ask.Row) -> list[tuple[str, str]]:
    """The sheet's list, (id, line) each: the wounds (H9, H12), then the row's
    conditions with the asaltos left (C1, C2, C3), as the table and the players read
    them."""
    items: list[tuple[str, str]] = []
    for wound in state.body(row.name).wounds:
        bleeding = (_(", bleeds {counted}/{rate}").format(counted=wound.bleed_counted,
                                                         rate=wound.bleed_rate)
                    if wound.bleeding else _(", attended") if wound.attended else "")
        items.append((f"wound-{wound.id}", _(
            "Wound: {location} {damage} {lethal}, {severity}{bleeding} (round {round})"
        ).format(location=_(wound.location.label), damage=wound.damage,
                 lethal=_("lethal") if wound.lethal else _("non-lethal"),
                 severity=_(wound.severity.label), bleeding=bleeding, round=wound.round)))
    for condition in row.conditions:
        left = condition.left
        when = (_("never expires") if condition.permanent else _("until removed")
                if left is None else ngettext("{left} asalto left", "{left} asaltos left",
                                              left).format(left=left))
        items.append((f"condition-{condition.id}", _("Condition: {name} ({when})").format(
            name=condition.name, when=when)))
    return items
