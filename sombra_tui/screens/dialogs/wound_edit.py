"""A character's points and wounds (H12): healing or setting G and W, and
editing a wound's values.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Checkbox, Input, Select, Static

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui.engine import (
    CombatState,
    Location,
    Severity,
    Wound,
    ask,
)
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Check, Dialog
from sombra_tui.screens.dialogs.fields import (
    Field,
    FormCheckbox,
    FormSelect,
    TextInput,
    save_or_cancel,
)
from sombra_tui.screens.dialogs.hit import location_options
from sombra_tui.screens.dialogs.parsing import (
    grades_text,
    parse_grades,
    parse_int,
    validated,
)


class HealDialog(Dialog[c.Heal | c.SetCounters]):
    """H12: heal golpe or herida points, or set G and W directly."""

    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    def __init__(self, state: CombatState, name: str, check: Check) -> None:
        super().__init__()
        self.name_ = name
        self.counters = state.body(name).counters
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("Heal {name} ({counters})").format(name=self.name_,
                                                              counters=self.counters),
                         id="dialog-title")
            with Horizontal(classes="row"):
                yield Field(_("Points"), TextInput(id="points", type="integer"),
                            field_id="points")
                yield Field(_("Kind"), FormSelect([(_("herida (W and its G)"), "herida"),
                                                   (_("golpe (G only)"), "golpe"),
                                                   (_("set G / W below"), "set")],
                                               value="herida", allow_blank=False,
                                               id="kind"), field_id="kind")
            with Horizontal(classes="row"):
                yield Field(_("G"), TextInput(str(self.counters.g), id="g", type="integer"),
                            field_id="g")
                yield Field(_("W"), TextInput(str(self.counters.w), id="w", type="integer"),
                            field_id="w")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Apply ({key})"), "dialog.confirm"),
                             id="apply", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    ERROR_FIELDS = {"w": "w"}

    def on_mount(self) -> None:
        self.query_one("#points", Input).focus()

    def build(self) -> c.Heal | c.SetCounters:
        kind = str(self.query_one("#kind", Select).value)
        if kind == "set":
            return c.SetCounters(
                character=self.name_,
                g=parse_int(self.value("g"), "g", "G", *ask.bounds(c.SetCounters, "g")),
                w=parse_int(self.value("w"), "w", "W", *ask.bounds(c.SetCounters, "w")))
        return c.Heal(character=self.name_, kind=c.HealKind(kind),
                      points=parse_int(self.value("points"), "points", _("Points"),
                                       *ask.bounds(c.Heal, "points")))


class WoundDialog(Dialog[c.EditWound]):
    """H12: change any value of a wound (the counters stay: heal or set G / W for those)."""

    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    def __init__(self, name: str, wound: Wound, check: Check) -> None:
        super().__init__()
        self.name_ = name
        self.wound = wound
        self.check = check

    def compose(self) -> ComposeResult:
        wound = self.wound
        with Vertical(id="dialog"):
            yield Static(_("{name}'s wound: {location} {damage}").format(
                name=self.name_, location=_(wound.location.label), damage=wound.damage),
                         id="dialog-title")
            with Horizontal(classes="row"):
                yield Field(_("Location"), FormSelect(location_options(),
                                                      value=wound.location.value,
                                                      allow_blank=False, id="location"),
                            field_id="location")
                yield Field(_("Damage"), TextInput(str(wound.damage), id="damage",
                                                   type="integer"), field_id="damage")
                yield Field(_("Severity"), FormSelect(
                    [(_(s.label), s.value) for s in Severity], value=wound.severity.value,
                    allow_blank=False, id="severity"), field_id="severity")
            with Horizontal(classes="row"):
                yield Field(_("Grades"), TextInput(grades_text(wound.gd), id="grades",
                                                   placeholder=_("+1 right arm")),
                            field_id="grades")
                yield Field(_("Bleeds every (asaltos)"), TextInput(
                    "" if wound.bleed_rate is None else str(wound.bleed_rate), id="rate",
                    type="integer", placeholder=_("empty: no bleeding")), field_id="rate")
            with Horizontal(classes="row"):
                yield FormCheckbox(_("Lethal"), wound.lethal, id="lethal")
                yield FormCheckbox(_("Attended"), wound.attended, id="attended")
            yield from save_or_cancel(self.keyed)

    def on_mount(self) -> None:
        self.query_one("#damage", Input).focus()

    def edited(self) -> Wound:
        rate_text = self.value("rate").strip()
        rate = parse_int(rate_text, "rate", _("Bleeds every (asaltos)"),
                         *ask.bounds(Wound, "bleed_rate")) if rate_text else None
        bleeding = ask.wound_with_bleed_rate(self.wound, rate)  # H9: count kept below it
        return validated(Wound, self.wound, {
            "location": Location(str(self.query_one("#location", Select).value)),
            "damage": parse_int(self.value("damage"), "damage", _("Damage"),
                                *ask.bounds(Wound, "damage")),
            "severity": Severity(str(self.query_one("#severity", Select).value)),
            "gd": parse_grades(self.value("grades"), "grades"),
            "bleed_rate": bleeding.bleed_rate,
            "bleed_counted": bleeding.bleed_counted,
            "lethal": self.query_one("#lethal", Checkbox).value,
            "attended": self.query_one("#attended", Checkbox).value,
        })

    def build(self) -> c.EditWound | None:
        wound = self.edited()
        if wound == self.wound:
            return None  # nothing changed: nothing to log
        return c.EditWound(character=self.name_, wound=wound)
