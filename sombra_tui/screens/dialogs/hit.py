"""The hit proposal (H1) and a hit by hand (a fall, fire): the DJ accepts, edits
or declines a hit, or makes one the tracker did not roll.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, Select, Static

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui import keys
from sombra_tui.engine import (
    TIPO_IV,
    CombatState,
    LocatedDamage,
    Location,
    Proposal,
    Severity,
    ask,
)
from sombra_tui.engine.i18n import N_, _, pgettext
from sombra_tui.screens.dialogs.base import Check, Dialog
from sombra_tui.screens.dialogs.fields import (
    Field,
    FormCheckbox,
    FormSelect,
    TextInput,
    refill_inputs,
)
from sombra_tui.screens.dialogs.hit_numbers import proposal_lines
from sombra_tui.screens.dialogs.parsing import (
    FormError,
    parse_entries,
    parse_int,
)
from sombra_tui.screens.dialogs.shelf import ShelfDialog

AS_READ = "as read"  # the severity select's value for "as the engine read it"

#: The location labels are English msgids (wounds.py), shown in the DJ's language.
LOCATIONS = [(location.label, location.value) for location in Location]


def location_options() -> list[tuple[str, str]]:
    return [(_(label), value) for label, value in LOCATIONS]


def location_field() -> Field:
    """The hit's location, the chest first (a proposal's reading replaces it)."""
    return Field(_("Location"), FormSelect(location_options(), value=Location.PECHO.value,
                                           allow_blank=False, id="location"),
                 field_id="location")


SEVERITIES = [(N_("as read"), AS_READ), *((s.label, s.value) for s in Severity)]


class HitDialog(ShelfDialog[c.AcceptHit | c.DeclineHit]):
    """A hit proposal (H1): every number, each value editable; accept or decline."""

    ASKS_ON_ESCAPE = False  # escape sets it aside: it opens again with the next step

    #: Space accepts as proposed (as in the main screen); in a text field it types.
    BINDINGS = keys.bindings(keys.Scope.HIT)

    DEFAULT_CSS = """
    HitDialog #hit-numbers { height: auto; }
    HitDialog #hit-last-row { height: auto; }
    HitDialog #hit-last-row > Field { width: 1fr; }
    HitDialog #hit-last-row > Button { margin: 1 0 0 1; }
    """

    def __init__(self, *, tipo_iv: bool) -> None:
        super().__init__()
        #: Its shape: a tipo IV hit has a field for its entries (damage on each location).
        self.tipo_iv = tipo_iv

    @classmethod
    def for_use(cls, state: CombatState, proposal: Proposal, check: Check) -> HitDialog:
        dialog = cls(tipo_iv=proposal.damage_type == TIPO_IV)
        dialog.fill(state, proposal, check)
        return dialog

    def fill(self, state: CombatState, proposal: Proposal, check: Check) -> bool:
        """This hit proposal; False for a tipo IV hit in the other shape or the reverse."""
        if (proposal.damage_type == TIPO_IV) != self.tipo_iv:
            return False
        self.state, self.proposal, self.check = state, proposal, check
        self.shown_if_mounted()
        return True

    def show(self) -> None:
        location, damage = self._read()
        self.query_one("#dialog-title", Static).update(self._title())
        self.query_one("#hit-numbers", Static).update(self._numbers())
        self.query_one("#location", Select).value = location
        self.query_one("#severity", Select).value = AS_READ
        where = _(Location(location).label)  # as the DJ reads and types it (H4)
        refill_inputs(self, {"damage": str(damage), "reason": "",
                             "entries": f"{where} {damage}".strip()})
        reading = self.proposal.reading
        self.query_one("#lethal", Checkbox).value = reading.lethal if reading else True
        # At once (not deferred like Widget.focus): it never lands on a list first.
        self.set_focus(self.query_one("#accept", Button))

    def _read(self) -> tuple[str, int | str]:
        """The location and damage the attack's dice read (H2, H3), as the fields show them."""
        reading = self.proposal.reading
        location = reading.location.value if reading else Location.PECHO.value
        damage = reading.damage.value if reading and reading.damage.value is not None else ""
        return location, damage

    def _title(self) -> str:
        return _("Hit: {attacker} -> {target}").format(attacker=self.proposal.attacker,
                                                      target=self.proposal.character)

    def _numbers(self) -> str:
        return "\n".join(proposal_lines(self.state, self.proposal))

    # ---- the numbers follow the DJ's values (issue 22) --------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id in ("damage", "entries"):
            self.update_numbers()

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id in ("location", "severity"):
            self.update_numbers()

    def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        if event.checkbox.id == "lethal":
            self.update_numbers()

    def update_numbers(self) -> None:
        """The wounds and points as accepting the values shown now would make them."""
        if not self.used:  # prepared, not yet given its use
            return
        try:
            lines = proposal_lines(self.state, self.proposal, self.build())
        except FormError as error:
            lines = proposal_lines(self.state, self.proposal, problem=error.message)
        self.query_one("#hit-numbers", Static).update("\n".join(lines))

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static("", id="dialog-title")
            yield Static("", id="hit-numbers")
            with Horizontal(classes="row"):
                yield location_field()
                yield Field(_("Damage"), TextInput(id="damage", type="integer"),
                            field_id="damage", hint=_("typed wins"))
                yield Field(_("Severity"), FormSelect(
                    [(_(label), value) for label, value in SEVERITIES], value=AS_READ,
                                                   allow_blank=False, id="severity"),
                            field_id="severity")
            if self.tipo_iv:
                yield Field(_("Tipo IV (location damage, ...)"), TextInput(id="entries"),
                            field_id="entries")
            yield Static("", id="form-error")
            # One row for the rest, so that the whole proposal fits 80x24.
            with Horizontal(id="hit-last-row"):
                yield FormCheckbox(_("Lethal"), True, id="lethal")
                yield Field(_("Decline reason"), TextInput(id="reason",
                                                        placeholder=_("cover, a miss")),
                            field_id="reason")
                yield Button(self.keyed(_("Accept ({key})"), "hit.accept"),
                             id="accept", variant="primary")
                yield Button(self.keyed(pgettext("proposal", "Decline ({key})"), "hit.decline"),
                             id="decline", variant="warning")

    OWN_BUTTONS = True

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "accept":
            self.submit()
        else:
            self.action_decline()

    def action_decline(self) -> None:
        reason = self.value("reason").strip()[:ask.max_length(c.DeclineHit, "reason")]
        self.dismiss(c.DeclineHit(proposal_id=self.proposal.id, reason=reason))

    def build(self) -> c.AcceptHit:
        """The DJ's values: only those that differ from the reading are sent."""
        reading = self.proposal.reading
        location = Location(str(self.query_one("#location", Select).value))
        text = self.value("damage").strip()
        damage = parse_int(text, "damage", _("Damage"),
                           *ask.bounds(c.AcceptHit, "damage")) if text else None
        severity_value = self.query_one("#severity", Select).value
        lethal = self.query_one("#lethal", Checkbox).value
        entries = None
        if self.query("#entries"):
            entries = parse_entries(self.value("entries"))
            if len(entries) <= 1 and entries == [LocatedDamage(
                    location=location, damage=damage or 0)]:
                entries = None
        return c.AcceptHit(
            proposal_id=self.proposal.id,
            location=None if reading and location is reading.location else location,
            damage=None if reading and damage == reading.damage.value else damage,
            lethal=None if reading and lethal == reading.lethal else lethal,
            severity=None if severity_value == AS_READ else Severity(str(severity_value)),
            entries=entries or None)



class ManualHitDialog(Dialog[c.ManualHit]):
    """A hit the tracker did not roll (a fall, fire), on any character at any time."""

    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    def __init__(self, name: str, check: Check) -> None:
        super().__init__()
        self.name_ = name
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("Hit by hand on {name}").format(name=self.name_), id="dialog-title")
            with Horizontal(classes="row"):
                yield location_field()
                yield Field(_("Damage"), TextInput(id="damage", type="integer"),
                            field_id="damage")
                yield Field(_("Cause"), TextInput(id="cause", placeholder=_("a fall, fire")),
                            field_id="cause")
            yield FormCheckbox(_("Lethal"), True, id="lethal")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Apply ({key})"), "dialog.confirm"),
                             id="apply", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#damage", Input).focus()

    def build(self) -> c.ManualHit:
        damage = parse_int(self.value("damage"), "damage", _("Damage"),
                           *ask.bounds(c.ManualHit, "damage"))
        cause = self.value("cause").strip()[:ask.max_length(c.ManualHit, "cause")]
        return c.ManualHit(character=self.name_, damage=damage,
                           location=Location(str(self.query_one("#location",
                                                                Select).value)),
                           lethal=self.query_one("#lethal", Checkbox).value,
                           cause=cause)
