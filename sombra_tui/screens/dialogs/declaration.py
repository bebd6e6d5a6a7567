"""Declaration editor: the current declarer's actions and who they affect (D1, D2)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.await_complete import AwaitComplete
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widget import AwaitMount, Widget
from textual.widgets import Button, Input, Select, SelectionList, Static

from sombra_tui import keys
from sombra_tui.engine import (
    Action,
    ActionKind,
    Character,
    CombatState,
    Declare,
    DeclareGroup,
    SombraError,
    ask,
)
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.action_form import ActionForm, WeaponFor
from sombra_tui.screens.dialogs.fields import Field, PickList, refill_picks
from sombra_tui.screens.dialogs.odds_line import OddsLine, action_words
from sombra_tui.screens.dialogs.repeat import PASSES, action_values, build_sections, write
from sombra_tui.screens.dialogs.shelf import ShelfDialog
from sombra_tui.screens.dialogs.together import Together

MAX_ACTIONS = 4


def other_names(state: CombatState, name: str) -> list[str]:
    """Whom `name`'s lists offer, in the roster's order (the same for every declarer)."""
    return ask.roster_order(state, but=name)


class AffectedMixin:
    """Keeps the 'affected' list pre-filled from the actions' targets until the DJ edits it,
    and computes it again at submit: a quick Space then Enter on "Aimed at" declares
    with the target affected even before the pre-fill (a queued message) arrived."""

    _affected_touched = False
    #: What the last pre-fill put in the list (the DJ edited it if it now differs).
    _prefilled: frozenset[str] = frozenset()

    def sync_affected(self, forms: list[ActionForm], affected: SelectionList[str]) -> None:
        if self._affected_touched:
            return
        wanted = targets_of(forms)
        # SelectedChanged is handled later (queued): without `prevent` this very sync
        # would count as the DJ's own edit and stop pre-filling after the first target.
        with affected.prevent(SelectionList.SelectedChanged):
            affected.deselect_all()
            for name in wanted:
                affected.select(name)
        self._prefilled = frozenset(wanted)

    def affected_changed_by_hand(self) -> None:
        self._affected_touched = True

    def affected_at_submit(self, forms: list[ActionForm],
                           affected: SelectionList[str]) -> list[str]:
        """D2: the list as the DJ left it if they edited it, else the targets as they
        are now (whatever the pre-fill has caught up with)."""
        shown = list(affected.selected)
        if self._affected_touched or frozenset(shown) != self._prefilled:
            return shown
        return targets_of(forms)


def targets_of(forms: list[ActionForm]) -> list[str]:
    """D2's pre-fill as the engine makes it: everyone the actions are aimed at but their
    author, in order, once each."""
    if not forms:
        return []
    return ask.affected_prefill_names(forms[0].character.name,
                                      [name for form in forms for name in form.targets()])


class DeclarationEditor(AffectedMixin, ShelfDialog[Declare | DeclareGroup], Together):
    """The current declarer's actions. One shape: the character comes with `fill`."""

    BINDINGS = keys.bindings(keys.Scope.DECLARATION)

    @classmethod
    def for_use(cls, state: CombatState, name: str,
                check: Callable[[Declare | DeclareGroup], SombraError | None]
                ) -> DeclarationEditor:
        dialog = cls()
        dialog.fill(state, name, check)
        return dialog

    def fill(self, state: CombatState, name: str,
             check: Callable[[Declare | DeclareGroup], SombraError | None]) -> bool:
        """`name`'s declaration; False when this dialog cannot be made as new again (the
        DJ added actions to it or opened a form's extra fields)."""
        if self.is_mounted:
            forms = self.forms
            if len(forms) != 1 or not forms[0].can_refill():
                return False
        character = state.character(name)
        assert character is not None
        self.character: Character = character
        self.others = other_names(state, name)
        #: H1: the weapon of the skill, else the last one used, else the default.
        self.weapon_for: WeaponFor = functools.partial(ask.weapon_for, state, name)
        self.check = check
        self.state = state
        self.round = state.round
        self.fill_together(state, name)  # issue 39 item 3
        self._affected_touched = False
        self._prefilled = frozenset()
        self.shown_if_mounted()
        return True

    def show(self) -> None:
        self.query_one("#dialog-title", Static).update(self._title())
        form = self.forms[0]
        form.fill(self.character, self.others, self.weapon_for)
        refill_picks(self.query_one("#affected", SelectionList), self.others)
        self.show_together()
        # The first field is near the top: the form opens scrolled to its top.
        form.focus_first(scroll_visible=False)
        self.query_one(OddsLine).show_words(None)

    def on_input_changed(self, event: Input.Changed) -> None:
        self._show_odds(event.input)

    def on_select_changed(self, event: Select.Changed) -> None:
        self._show_odds(event.select)

    def _show_odds(self, widget: Widget) -> None:
        """The chances of the action whose field the DJ just changed (T2, H10)."""
        if not self.used:  # prepared, not yet given its use
            return
        form = next((node for node in widget.ancestors if isinstance(node, ActionForm)),
                    None)
        if form is not None:
            self.query_one(OddsLine).show_words(action_words(self.state, form))

    def _title(self) -> str:
        title = _("{name} declares (asalto {round})").format(name=self.character.name,
                                                            round=self.round)
        if ask.last_declaration(self.state, self.character.name) is None:
            return title
        return title + " · " + self.keyed(_("{key} repeats the last declaration"),
                                          "declaration.repeat")  # issue 39 item 2

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static("", id="dialog-title")
            yield self.together_note()
            with VerticalScroll(id="forms"):
                yield ActionForm(prefix="a0")
                yield Field(_("Directly affected (pre-filled from the targets)"),
                            PickList(id="affected"),
                            field_id="affected", hint=_("space toggles"))
                yield self.together_field()
            yield OddsLine()  # the chance of the action being declared (issue 37)
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Declare ({key})"), "dialog.confirm"),
                             id="declare", variant="primary")
                yield Button(self.keyed(_("Another action ({key})"), "declaration.add_action"),
                             id="add")
                yield Button(self.keyed(_("Inaction ({key})"), "declaration.inaction"),
                             id="inaction")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    @property
    def forms(self) -> list[ActionForm]:
        return list(self.query(ActionForm))

    def on_selection_list_selected_changed(self, event: SelectionList.SelectedChanged[str]
                                           ) -> None:
        affected = self.query_one("#affected", SelectionList)
        if event.selection_list is affected:
            self.affected_changed_by_hand()
        elif event.selection_list.id == "together":
            self.show_together_note()  # issue 39 item 3
        else:
            self.sync_affected(self.forms, affected)

    def action_add_action(self) -> AwaitMount | None:
        forms = self.forms
        if len(forms) >= MAX_ACTIONS:
            self.show_error(None, _("At most {count} actions in one declaration.").format(
                count=MAX_ACTIONS))
            return None
        form = ActionForm(self.character, self.others, prefix=f"a{len(forms)}",
                          kind=ActionKind.INSTANT,
                          title=_("Combined action (instant actions combine freely)"),
                          weapon_for=self.weapon_for)
        form.added = True
        return self.query_one("#forms", VerticalScroll).mount(form, before="#field-affected")

    def action_repeat_last(self) -> AwaitComplete | None:
        """Issue 39 item 2: the form says the character's last declaration (repeat.py);
        Enter sends it, as the summary line says."""
        last = ask.last_declaration(self.state, self.character.name)
        if last is None:
            self.show_error(None, _("{name} has no declaration of an earlier asalto to "
                                    "repeat.").format(name=self.character.name))
            return None
        actions = last.actions[:MAX_ACTIONS]
        # As many actions as the last declaration's: added, or the DJ's extra ones taken off.
        changes = [*(self.action_add_action() for _index in range(len(self.forms),
                                                                   len(actions))),
                   *(form.remove() for form in self.forms[len(actions):])]

        async def fill() -> None:
            for change in changes:
                if change is not None:
                    await change
            forms = self.forms[:len(actions)]
            for form, action in zip(forms, actions, strict=True):
                await build_sections(form, action)
            wanted = [(form, action_values(form, action, self.others))
                      for form, action in zip(forms, actions, strict=True)]
            self._write_last(wanted, list(last.affected), PASSES)
        return AwaitComplete(fill())

    def _write_last(self, wanted: list[tuple[ActionForm, dict[str, Any]]],
                    affected: list[str], passes: int, written: bool = False) -> None:
        """Write `wanted` until every value is written, then once more (repeat.py)."""
        missing = [form for form, values in wanted if write(form, values)]
        if not written and passes > 1:
            self.call_after_refresh(self._write_last, wanted, affected, passes - 1,
                                    not missing)
            return
        picks = self.query_one("#affected", SelectionList)
        if affected == targets_of(self.forms):
            self._affected_touched = False  # it follows the targets again
        else:
            with picks.prevent(SelectionList.SelectedChanged):
                picks.deselect_all()
                for name in affected:
                    if name in self.others:
                        picks.select(name)
            self._affected_touched = True
        self.sync_affected(self.forms, picks)
        self.forms[0].focus_first()
        self._show_odds(self.forms[0].query_one(Input))  # the first action's chances
        self.summary_soon()

    def action_inaction(self) -> None:
        command = Declare(character=self.character.name, actions=[], affected=[])
        self.finish(self.with_together(command))

    OWN_BUTTONS = True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        actions = {"declare": self.submit, "add": self.action_add_action,
                   "inaction": self.action_inaction, "cancel": self.action_cancel}
        actions[event.button.id or "cancel"]()

    def build_actions(self) -> list[Action]:
        return [form.build() for form in self.forms]

    def build(self) -> Declare | DeclareGroup:
        actions = self.build_actions()
        affected = self.affected_at_submit(self.forms, self.query_one("#affected",
                                                                      SelectionList))
        return self.with_together(Declare(character=self.character.name, actions=actions,
                                          affected=affected))
