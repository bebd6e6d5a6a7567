"""Hits, wounds and conditions: the hit proposal, the character sheet and its small
forms (sections H and C of RULES.md).

Every number shown is computed by the engine (wounds.py, conditions.py): these screens
only show it, let the DJ change a value and send the command that carries it.
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from sombra_tui.engine import commands as c
from sombra_tui.engine.conditions import (
    BUILTIN_NAMES,
    Condition,
    ConditionEffects,
    GdEffect,
    ScopeKind,
    builtin,
)
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.machine import pv_of
from sombra_tui.engine.state import CombatState, Proposal, ProposalKind
from sombra_tui.engine.wounds import (
    MAX_DAMAGE,
    TIPO_IV,
    LocatedDamage,
    Location,
    Severity,
    WoundAssessment,
    apply_damage,
)
from sombra_tui.screens.dialogs.base import (
    Dialog,
    Field,
    FormCheckbox,
    FormError,
    FormSelect,
    TextInput,
    parse_int,
)

Check = Callable[[c.Command], SombraError | None]
AS_READ = "as read"

LOCATIONS = [(location.label, location.value) for location in Location]
SEVERITIES = [(AS_READ, AS_READ), *((s.value, s.value) for s in Severity)]


def consequences_text(assessment: WoundAssessment) -> str:
    cons = assessment.consequences
    parts = [f"{e.gd:+d} GD {e.scope_label()}" for e in cons.gd]
    parts += [spec.name + (f" {spec.duration} asaltos" if spec.duration else "")
              + (f" ({spec.hours} h)" if spec.hours else "") for spec in cons.conditions]
    if cons.bleed_rate:
        parts.append(f"loses 1 point every {cons.bleed_rate} asaltos until attended")
    parts += [reminder.text for reminder in cons.reminders]
    return "; ".join(parts) or "none"


def proposal_lines(state: CombatState, proposal: Proposal) -> list[str]:
    """Every number of a hit proposal and where it came from."""
    reading = proposal.reading
    weapon = proposal.weapon
    target = state.character(proposal.character)
    lines = [f"Weapon: {weapon.name if weapon else '?'}, tipo {proposal.damage_type}"
             f" — {proposal.attacker}'s TA \"{proposal.action}\""]
    if reading is None:
        lines.append("No dice (the DJ decided the TA): give the location and the damage.")
        return lines
    dice = reading.dice
    lines.append(f"Dice: dS {dice.ds} · d+ {dice.d_plus} · d- {dice.d_minus}")
    lines.append(f"Location: dS {dice.ds} -> value {reading.location_value} -> "
                 f"{reading.location.label}")
    damage = reading.damage
    if damage.value is None:
        lines.append(f"Damage: tipo {damage.tipo} has no formula yet: type it")
    else:
        raw = f" (formula gives {damage.raw})" if damage.clamped else ""
        lines.append(f"Damage: {damage.formula} = {damage.substituted} = {damage.value}{raw}, "
                     + ("lethal" if reading.lethal else "non-lethal")
                     + (f" (weapon: {'lethal' if weapon.lethal else 'non-lethal'})"
                        if weapon and weapon.lethal is not None else ""))
    if reading.tipo_iv_count is not None:
        lines.append(f"Tipo IV: reaches {reading.tipo_iv_count} location values (d- "
                     f"{dice.d_minus}): list (location damage, ...)")
    assessment = reading.assessment
    if assessment is not None and target is not None:
        lines.append(f"Protection: {assessment.location.label} {assessment.protection} -> "
                     f"damage {assessment.damage}")
        lines.append(f"Severity: {assessment.damage} / Resistencia {assessment.resistencia}"
                     f" -> {assessment.severity.value}")
        lines.append(f"Consequences: {consequences_text(assessment)}")
        before = state.body(target.name).counters
        after = apply_damage(before, assessment.damage, assessment.lethal)
        lines.append(f"Points: G {before.g} -> {after.g}, W {before.w} -> {after.w} of PV "
                     f"{pv_of(state, target.name)}")
    return lines


def parse_entries(text: str) -> list[LocatedDamage]:
    """Tipo IV's list: "head 4, chest 2" (a location by its label or id, then damage)."""
    names = {location.label: location for location in Location}
    names |= {location.value: location for location in Location}
    entries: list[LocatedDamage] = []
    for part in text.split(","):
        words = part.split()
        if not words:
            continue
        *where, amount = words
        location = names.get(" ".join(where).casefold())
        if location is None:
            raise FormError("entries", f"Unknown location {' '.join(where)!r}: use "
                            + ", ".join(location.label for location in Location) + ".")
        entries.append(LocatedDamage(location=location, damage=parse_int(
            amount, "entries", "Damage", 0, MAX_DAMAGE)))
    return entries


class HitDialog(Dialog[c.AcceptHit | c.DeclineHit]):
    """A hit proposal (H1): every number, each value editable; accept or decline."""

    #: Space accepts as proposed (as in the main screen); in a text field it types.
    BINDINGS = [Binding("ctrl+d", "decline", "Decline"), Binding("space", "submit", "Accept")]

    DEFAULT_CSS = """
    HitDialog #hit-numbers { height: auto; }
    HitDialog #hit-last-row { height: auto; }
    HitDialog #hit-last-row > Field { width: 1fr; }
    HitDialog #hit-last-row > Button { margin: 1 0 0 1; }
    """

    def __init__(self, state: CombatState, proposal: Proposal, check: Check) -> None:
        super().__init__()
        self.state = state
        self.proposal = proposal
        self.check = check

    def compose(self) -> ComposeResult:
        proposal, reading = self.proposal, self.proposal.reading
        location = reading.location.value if reading else Location.PECHO.value
        damage = reading.damage.value if reading and reading.damage.value is not None else ""
        tipo_iv = proposal.damage_type == TIPO_IV
        with VerticalScroll(id="dialog"):
            yield Static(f"Hit: {proposal.attacker} -> {proposal.character}",
                         id="dialog-title")
            yield Static("\n".join(proposal_lines(self.state, proposal)), id="hit-numbers")
            with Horizontal(classes="row"):
                yield Field("Location", FormSelect(LOCATIONS, value=location,
                                                   allow_blank=False, id="location"),
                            field_id="location")
                yield Field("Damage", TextInput(str(damage), id="damage", type="integer"),
                            field_id="damage", hint="typed wins")
                yield Field("Severity", FormSelect(SEVERITIES, value=AS_READ,
                                                   allow_blank=False, id="severity"),
                            field_id="severity")
            if tipo_iv:
                prefill = f"{location} {damage}".strip()
                yield Field("Tipo IV (location damage, ...)", TextInput(prefill, id="entries"),
                            field_id="entries")
            yield Static("", id="form-error")
            # One row for the rest, so that the whole proposal fits 80x24.
            with Horizontal(id="hit-last-row"):
                yield FormCheckbox("Lethal", reading.lethal if reading else True, id="lethal")
                yield Field("Decline reason", TextInput(id="reason",
                                                        placeholder="cover, a miss"),
                            field_id="reason")
                yield Button("Accept (space)", id="accept", variant="primary")
                yield Button("Decline (ctrl+d)", id="decline", variant="warning")

    def on_mount(self) -> None:
        self.query_one("#accept", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "accept":
            self.submit()
        else:
            self.action_decline()

    def action_decline(self) -> None:
        self.dismiss(c.DeclineHit(proposal_id=self.proposal.id,
                                  reason=self.value("reason").strip()[:120]))

    def command(self) -> c.AcceptHit:
        """The DJ's values: only those that differ from the reading are sent."""
        reading = self.proposal.reading
        location = Location(str(self.query_one("#location", Select).value))
        text = self.value("damage").strip()
        damage = parse_int(text, "damage", "Damage", 0, MAX_DAMAGE) if text else None
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

    def submit(self) -> None:
        self.clear_errors()
        try:
            command = self.command()
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        problem = self.check(command)
        if problem:
            self.show_problem(problem)
            return
        self.dismiss(command)


def proposal_question(proposal: Proposal) -> str:
    if proposal.kind is ProposalKind.THRESHOLD:
        which = "W" if proposal.condition == "muerto" else "G"
        return (f"{proposal.character}'s {which} has reached PV: mark "
                f"{proposal.character} {proposal.condition} (out)?")
    return (f"{proposal.character} is {proposal.reason} with a round action pending: mark "
            f"{proposal.character} prevented?")


class ManualHitDialog(Dialog[c.ManualHit]):
    """A hit the tracker did not roll (a fall, fire), on any character at any time."""

    def __init__(self, name: str, check: Check) -> None:
        super().__init__()
        self.name_ = name
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(f"Hit by hand on {self.name_}", id="dialog-title")
            with Horizontal(classes="row"):
                yield Field("Location", FormSelect(LOCATIONS, value=Location.PECHO.value,
                                                   allow_blank=False, id="location"),
                            field_id="location")
                yield Field("Damage", TextInput(id="damage", type="integer"),
                            field_id="damage")
                yield Field("Cause", TextInput(id="cause", placeholder="a fall, fire"),
                            field_id="cause")
            yield FormCheckbox("Lethal", True, id="lethal")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button("Apply (enter)", id="apply", variant="primary")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#damage", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "apply":
            self.submit()
        else:
            self.dismiss(None)

    def submit(self) -> None:
        self.clear_errors()
        try:
            damage = parse_int(self.value("damage"), "damage", "Damage", 0, MAX_DAMAGE)
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        command = c.ManualHit(character=self.name_, damage=damage,
                              location=Location(str(self.query_one("#location",
                                                                   Select).value)),
                              lethal=self.query_one("#lethal", Checkbox).value,
                              cause=self.value("cause").strip()[:80])
        problem = self.check(command)
        if problem:
            self.show_problem(problem)
            return
        self.dismiss(command)


OTHER = "(other)"


class ConditionDialog(Dialog[c.AddCondition]):
    """C2: a built-in condition or the DJ's own, with a duration in asaltos (C3)."""

    def __init__(self, name: str, check: Check) -> None:
        super().__init__()
        self.name_ = name
        self.check = check

    def compose(self) -> ComposeResult:
        options = [(name, name) for name in BUILTIN_NAMES] + [(OTHER, OTHER)]
        with Vertical(id="dialog"):
            yield Static(f"Condition on {self.name_}", id="dialog-title")
            with Horizontal(classes="row"):
                yield Field("Condition", FormSelect(options, value="aturdido",
                                                    allow_blank=False, id="kind"),
                            field_id="kind")
                yield Field("Asaltos", TextInput(id="duration", type="integer",
                                                 placeholder="empty: until removed"),
                            field_id="duration")
            with Horizontal(classes="row"):
                yield Field("Own name", TextInput(id="own", placeholder="derribado"),
                            field_id="own")
                yield Field("GD on every TA", TextInput("0", id="gd", type="integer"),
                            field_id="gd")
            with Horizontal(classes="row"):
                yield FormCheckbox("Cannot act", False, id="cannot-act")
                yield FormCheckbox("Cannot react", False, id="cannot-react")
                yield FormCheckbox("Out", False, id="out")
            yield Static("The own name and the boxes are for (other).", classes="note")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button("Add (enter)", id="add", variant="primary")
                yield Button("Cancel (esc)", id="cancel")

    def on_mount(self) -> None:
        self.query_one("#duration", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "add":
            self.submit()
        else:
            self.dismiss(None)

    def condition(self) -> Condition:
        text = self.value("duration").strip()
        duration = parse_int(text, "duration", "Asaltos", 1, 999) if text else None
        kind = str(self.query_one("#kind", Select).value)
        if kind != OTHER:
            try:
                return builtin(kind, began=0, duration=duration)
            except SombraError as error:
                raise FormError("duration", str(error)) from error
        own = self.value("own").strip()
        if not own:
            raise FormError("own", "Give the condition a name.")
        gd = parse_int(self.value("gd"), "gd", "GD", -20, 20, default=0)
        effects = ConditionEffects(
            cannot_act=self.query_one("#cannot-act", Checkbox).value,
            cannot_react=self.query_one("#cannot-react", Checkbox).value,
            out=self.query_one("#out", Checkbox).value,
            gd=(GdEffect(scope=ScopeKind.ANY, gd=gd),) if gd else ())
        return Condition(name=own[:40], duration=duration, effects=effects)

    def submit(self) -> None:
        self.clear_errors()
        try:
            command = c.AddCondition(character=self.name_, condition=self.condition())
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        problem = self.check(command)
        if problem:
            self.show_problem(problem)
            return
        self.dismiss(command)


class HealDialog(Dialog[c.Heal | c.SetCounters]):
    """H12: heal golpe or herida points, or set G and W directly."""

    def __init__(self, state: CombatState, name: str, check: Check) -> None:
        super().__init__()
        self.name_ = name
        self.counters = state.body(name).counters
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(f"Heal {self.name_} ({self.counters})", id="dialog-title")
            with Horizontal(classes="row"):
                yield Field("Points", TextInput(id="points", type="integer"),
                            field_id="points")
                yield Field("Kind", FormSelect([("herida (W and its G)", "herida"),
                                                ("golpe (G only)", "golpe"),
                                                ("set G / W below", "set")],
                                               value="herida", allow_blank=False,
                                               id="kind"), field_id="kind")
            with Horizontal(classes="row"):
                yield Field("G", TextInput(str(self.counters.g), id="g", type="integer"),
                            field_id="g")
                yield Field("W", TextInput(str(self.counters.w), id="w", type="integer"),
                            field_id="w")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button("Apply (enter)", id="apply", variant="primary")
                yield Button("Cancel (esc)", id="cancel")

    ERROR_FIELDS = {"w": "w"}

    def on_mount(self) -> None:
        self.query_one("#points", Input).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "apply":
            self.submit()
        else:
            self.dismiss(None)

    def submit(self) -> None:
        self.clear_errors()
        kind = str(self.query_one("#kind", Select).value)
        command: c.Heal | c.SetCounters
        try:
            if kind == "set":
                command = c.SetCounters(
                    character=self.name_,
                    g=parse_int(self.value("g"), "g", "G", 0, 9999),
                    w=parse_int(self.value("w"), "w", "W", 0, 9999))
            else:
                command = c.Heal(character=self.name_, kind=c.HealKind(kind),
                                 points=parse_int(self.value("points"), "points",
                                                  "Points", 1, 9999))
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        problem = self.check(command)
        if problem:
            self.show_problem(problem)
            return
        self.dismiss(command)


class CharacterSheet(Dialog[None]):
    """A character's sheet in combat: points, wounds, conditions and weapons, with the
    keys to heal, attend, add a condition or a hit (H12, C2)."""

    BINDINGS = [
        Binding("h", "hit", "Hit"),
        Binding("c", "condition", "Condition"),
        Binding("plus,H", "heal", "Heal"),
        Binding("a", "attend", "Attend"),
        Binding("delete", "remove", "Remove"),
        Binding("escape,q", "cancel", "Close"),
    ]

    DEFAULT_CSS = """
    CharacterSheet #sheet-items { height: auto; max-height: 14; }
    CharacterSheet #sheet-head { height: auto; }
    """

    def __init__(self, get_state: Callable[[], CombatState], name: str, check: Check,
                 run: Callable[[c.Command], object]) -> None:
        super().__init__()
        self.get_state = get_state
        self.name_ = name
        self.check = check
        self.run = run

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(f"Sheet: {self.name_}", id="dialog-title")
            yield Static("", id="sheet-head")
            yield OptionList(id="sheet-items")
            yield Static("h hit · c condition · + heal · a attend wound · del remove · "
                         "esc close", classes="note")

    def on_mount(self) -> None:
        self.refresh_sheet()
        self.query_one(OptionList).focus()

    def refresh_sheet(self) -> None:
        state = self.get_state()
        character = state.character(self.name_)
        if character is None:
            self.dismiss(None)
            return
        body = state.body(self.name_)
        pv = pv_of(state, self.name_)
        weapons = ", ".join(
            f"{'*' if i == character.default_weapon else ''}{w.name} (tipo {w.damage_type}"
            + (", lethal" if w.lethal else ", non-lethal" if w.lethal is False else "") + ")"
            for i, w in enumerate(character.weapons)) or "none"
        protection = ", ".join(f"{loc.label} {value}" for loc, value
                               in character.protection.items() if value) or "none"
        self.query_one("#sheet-head", Static).update(
            f"Resistencia {character.resistencia} · PV {pv} · {body.counters} · "
            f"main arm {character.main_arm.value}\nWeapons: {weapons}\n"
            f"Protection: {protection}")
        items = self.query_one(OptionList)
        highlighted = items.highlighted
        items.clear_options()
        options: list[Option] = []
        for wound in body.wounds:
            bleeding = (f", bleeds {wound.bleed_counted}/{wound.bleed_rate}"
                        if wound.bleeding else ", attended" if wound.attended else "")
            options.append(Option(
                f"Wound: {wound.location.label} {wound.damage} "
                f"{'lethal' if wound.lethal else 'non-lethal'}, {wound.severity.value}"
                f"{bleeding} (round {wound.round})", id=f"wound-{wound.id}"))
        for condition in body.conditions:
            left = condition.rounds_left(state.round)
            when = ("never expires" if condition.permanent else "until removed"
                    if left is None else f"{left} asaltos left")
            options.append(Option(f"Condition: {condition.name} ({when})",
                                  id=f"condition-{condition.id}"))
        if not options:
            options.append(Option("No wounds or conditions.", id="none", disabled=True))
        items.add_options(options)
        if highlighted is not None and options:
            items.highlighted = min(highlighted, len(options) - 1)

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
            self.run(command)  # type: ignore[arg-type]
            self.refresh_sheet()

    def action_hit(self) -> None:
        self.app.push_screen(ManualHitDialog(self.name_, self.check), self._apply)

    def action_condition(self) -> None:
        self.app.push_screen(ConditionDialog(self.name_, self.check), self._apply)

    def action_heal(self) -> None:
        self.app.push_screen(HealDialog(self.get_state(), self.name_, self.check),
                             self._apply)

    def action_attend(self) -> None:
        selected = self._selected()
        body = self.get_state().body(self.name_)
        wound_id = selected[1] if selected and selected[0] == "wound" else next(
            (w.id for w in body.wounds if w.bleeding), None)
        if wound_id is None:
            self.notify("No wound to attend.", severity="warning")
            return
        self._apply(c.AttendWound(character=self.name_, wound_id=wound_id))

    def action_remove(self) -> None:
        selected = self._selected()
        if selected is None:
            return
        kind, number = selected
        if kind == "wound":
            self._apply(c.RemoveWound(character=self.name_, wound_id=number))
        else:
            self._apply(c.RemoveCondition(character=self.name_, condition_id=number))

    def submit(self) -> None:
        self.dismiss(None)
