"""Hits, wounds and conditions: the hit proposal, the character sheet and its small
forms (sections H and C of RULES.md).

Every number shown is computed by the engine (wounds.py, conditions.py): these screens
only show it, let the DJ change a value and send the command that carries it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Checkbox, Input, OptionList, Select, Static
from textual.widgets.option_list import Option

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui import keys
from sombra_tui.engine import (
    BUILTIN_NAMES,
    TIPO_IV,
    BodySide,
    CombatState,
    Condition,
    ConditionEffects,
    GdEffect,
    HitReading,
    LocatedDamage,
    Location,
    Proposal,
    ScopeKind,
    Severity,
    SombraError,
    Wound,
    WoundAssessment,
    ask,
    builtin,
)
from sombra_tui.engine.i18n import N_, _, ngettext, pgettext
from sombra_tui.screens.dialogs.base import (
    Dialog,
    Field,
    FormCheckbox,
    FormError,
    FormSelect,
    TextInput,
    parse_int,
    refill_inputs,
    validation_message,
)
from sombra_tui.screens.dialogs.character import location_names
from sombra_tui.widgets.keys_hint import KeysHint

Check = Callable[[c.Command], SombraError | None]
AS_READ = "as read"  # the severity select's value for "as the engine read it"

#: The location labels are English msgids (wounds.py), shown in the DJ's language.
LOCATIONS = [(location.label, location.value) for location in Location]


def location_options() -> list[tuple[str, str]]:
    return [(_(label), value) for label, value in LOCATIONS]
SEVERITIES = [(N_("as read"), AS_READ), *((s.label, s.value) for s in Severity)]


def consequences_text(assessment: WoundAssessment) -> str:
    cons = assessment.consequences
    parts = [f"{e.gd:+d} GD {_(e.scope_label())}" for e in cons.gd]
    parts += [spec.name + (f" {spec.duration} asaltos" if spec.duration else "")
              + (f" ({spec.hours} h)" if spec.hours else "") for spec in cons.conditions]
    if cons.bleed_rate:
        parts.append(_("loses 1 point every {rate} asaltos until attended").format(
            rate=cons.bleed_rate))
    parts += [reminder.text for reminder in cons.reminders]
    return "; ".join(parts) or _("none")


def proposal_lines(state: CombatState, proposal: Proposal, edits: c.AcceptHit | None = None,
                   problem: str = "") -> list[str]:
    """Every number of a hit proposal and where it came from (H1-H9, in the DJ's language):
    what the dice read, then the wounds the hit makes and the points, by the engine's
    preview with the DJ's `edits` (None: as read). `problem`: why the values being typed
    make no hit yet, shown instead of its wounds."""
    reading = proposal.reading
    weapon = proposal.weapon
    lines = [_("Weapon: {weapon}, tipo {tipo} — {attacker}'s TA \"{action}\"").format(
        weapon=weapon.name if weapon else "?", tipo=proposal.damage_type,
        attacker=proposal.attacker, action=proposal.action)]
    if reading is None:
        lines.append(_("No dice (the DJ decided the TA): give the location and the damage."))
        if edits is None:
            return lines
    else:
        lines.extend(reading_lines(reading))
    if problem:
        return [*lines, problem]
    return lines + outcome_lines(state, proposal, edits)


def reading_lines(reading: HitReading) -> list[str]:
    """H2, H3: what the attack's dice read (location and damage)."""
    dice = reading.dice
    lines = [_("Dice: dS {ds} · d+ {plus} · d- {minus}").format(
        ds=dice.ds, plus=dice.d_plus, minus=dice.d_minus)]
    lines.append(_("Location: dS {ds} -> value {value} -> {location}").format(
        ds=dice.ds, value=reading.location_value, location=_(reading.location.label)))
    damage = reading.damage
    if damage.value is None:
        lines.append(_("Damage: tipo {tipo} has no formula yet: type it").format(
            tipo=damage.tipo))
    else:
        raw = _(" (the formula gives {raw})").format(raw=damage.raw) if damage.clamped else ""
        lethal = _("lethal") if reading.lethal else _("non-lethal")
        # "d+ = 4", not "d+ = 4 = 4": a step that repeats the one before is left out.
        steps = list(dict.fromkeys((damage.formula, damage.substituted, str(damage.value))))
        lines.append(_("Damage: {working}{raw}, {lethal}").format(
            working=" = ".join(steps), raw=raw, lethal=lethal))
    if reading.tipo_iv_count is not None:
        lines.append(_("Tipo IV: reaches {count} location values (d- {minus}): list "
                       "(location damage, ...)").format(count=reading.tipo_iv_count,
                                                         minus=dice.d_minus))
    return lines


def outcome_lines(state: CombatState, proposal: Proposal, edits: c.AcceptHit | None
                  ) -> list[str]:
    """H4-H9, H6: each wound the hit makes and the points, as accepting `edits` would
    (the engine's preview: nothing here is worked out by the screen)."""
    try:
        preview = ask.hit_preview(state, proposal, edits)
    except SombraError as error:  # values the engine would refuse: say why
        return [str(error)]
    if preview is None:
        return []
    lines = []
    for assessment in preview.assessments:
        lines.append(_("Protection: {location} {protection} -> damage {damage}").format(
            location=_(assessment.location.label), protection=assessment.protection,
            damage=assessment.damage))
        lines.append(_("Severity: {damage} / Resistencia {resistencia} -> {severity}").format(
            damage=assessment.damage, resistencia=assessment.resistencia,
            severity=_(assessment.severity.label)))
        lines.append(_("Consequences: {consequences}").format(
            consequences=consequences_text(assessment)))
    before, after = preview.before, preview.after
    lines.append(_("Points: G {g0} -> {g1}, W {w0} -> {w1} of PV {pv}").format(
        g0=before.g, g1=after.g, w0=before.w, w1=after.w, pv=preview.pv))
    return lines


def parse_entries(text: str) -> list[LocatedDamage]:
    """Tipo IV's list: "head 4, chest 2" (a location by its label or id, then damage)."""
    names = location_names()
    entries: list[LocatedDamage] = []
    for part in text.split(","):
        words = part.split()
        if not words:
            continue
        *where, amount = words
        location = names.get(" ".join(where).casefold())
        if location is None:
            raise FormError("entries", _("Unknown location {where!r}: use {known}.").format(
                where=" ".join(where), known=", ".join(_(loc.label) for loc in Location)))
        entries.append(LocatedDamage(location=location, damage=parse_int(
            amount, "entries", _("Damage"), *ask.bounds(LocatedDamage, "damage"))))
    return entries


class HitDialog(Dialog[c.AcceptHit | c.DeclineHit]):
    """A hit proposal (H1): every number, each value editable; accept or decline."""

    #: Space accepts as proposed (as in the main screen); in a text field it types.
    BINDINGS = keys.bindings(keys.Scope.HIT)

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

    def refill(self, state: CombatState, proposal: Proposal, check: Check) -> bool:
        """Become what `HitDialog(state, proposal, check)` would be (DialogShelf, which
        keeps one for tipo IV hits and one for the others: their fields differ)."""
        if (proposal.damage_type == TIPO_IV) != bool(self.query("#entries")):
            return False
        self.state, self.proposal, self.check = state, proposal, check
        location, damage = self._read()
        self.query_one("#dialog-title", Static).update(self._title())
        self.query_one("#hit-numbers", Static).update(self._numbers())
        self.query_one("#location", Select).value = location
        self.query_one("#severity", Select).value = AS_READ
        refill_inputs(self, {"damage": str(damage), "reason": "",
                             "entries": f"{location} {damage}".strip()})
        reading = proposal.reading
        self.query_one("#lethal", Checkbox).value = reading.lethal if reading else True
        self.set_focus(self.query_one("#accept", Button))
        return True

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
        try:
            lines = proposal_lines(self.state, self.proposal, self.command())
        except FormError as error:
            lines = proposal_lines(self.state, self.proposal, problem=error.message)
        self.query_one("#hit-numbers", Static).update("\n".join(lines))

    def compose(self) -> ComposeResult:
        proposal, reading = self.proposal, self.proposal.reading
        location, damage = self._read()
        tipo_iv = proposal.damage_type == TIPO_IV
        with VerticalScroll(id="dialog"):
            yield Static(self._title(), id="dialog-title")
            yield Static(self._numbers(), id="hit-numbers")
            with Horizontal(classes="row"):
                yield Field(_("Location"), FormSelect(location_options(), value=location,
                                                   allow_blank=False, id="location"),
                            field_id="location")
                yield Field(_("Damage"), TextInput(str(damage), id="damage", type="integer"),
                            field_id="damage", hint=_("typed wins"))
                yield Field(_("Severity"), FormSelect(
                    [(_(label), value) for label, value in SEVERITIES], value=AS_READ,
                                                   allow_blank=False, id="severity"),
                            field_id="severity")
            if tipo_iv:
                prefill = f"{location} {damage}".strip()
                yield Field(_("Tipo IV (location damage, ...)"), TextInput(prefill, id="entries"),
                            field_id="entries")
            yield Static("", id="form-error")
            # One row for the rest, so that the whole proposal fits 80x24.
            with Horizontal(id="hit-last-row"):
                yield FormCheckbox(_("Lethal"), reading.lethal if reading else True, id="lethal")
                yield Field(_("Decline reason"), TextInput(id="reason",
                                                        placeholder=_("cover, a miss")),
                            field_id="reason")
                yield Button(self.keyed(_("Accept ({key})"), "hit.accept"),
                             id="accept", variant="primary")
                yield Button(self.keyed(pgettext("proposal", "Decline ({key})"), "hit.decline"),
                             id="decline", variant="warning")

    def on_mount(self) -> None:
        # At once (not deferred like Widget.focus): it never lands on a list first.
        self.set_focus(self.query_one("#accept", Button))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "accept":
            self.submit()
        else:
            self.action_decline()

    def action_decline(self) -> None:
        reason = self.value("reason").strip()[:ask.max_length(c.DeclineHit, "reason")]
        self.dismiss(c.DeclineHit(proposal_id=self.proposal.id, reason=reason))

    def command(self) -> c.AcceptHit:
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

    def submit(self) -> None:
        self.clear_errors()
        try:
            command = self.command()
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        self.finish(command)


def proposal_question(proposal: Proposal, state: CombatState | None = None) -> str:
    return str(ask.proposal_question(proposal, state))  # H7/H11, in the DJ's language


class ManualHitDialog(Dialog[c.ManualHit]):
    """A hit the tracker did not roll (a fall, fire), on any character at any time."""

    def __init__(self, name: str, check: Check) -> None:
        super().__init__()
        self.name_ = name
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("Hit by hand on {name}").format(name=self.name_), id="dialog-title")
            with Horizontal(classes="row"):
                yield Field(_("Location"), FormSelect(location_options(),
                                                      value=Location.PECHO.value,
                                                   allow_blank=False, id="location"),
                            field_id="location")
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

    def submit(self) -> None:
        self.clear_errors()
        try:
            damage = parse_int(self.value("damage"), "damage", _("Damage"),
                               *ask.bounds(c.ManualHit, "damage"))
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        cause = self.value("cause").strip()[:ask.max_length(c.ManualHit, "cause")]
        command = c.ManualHit(character=self.name_, damage=damage,
                              location=Location(str(self.query_one("#location",
                                                                   Select).value)),
                              lethal=self.query_one("#lethal", Checkbox).value,
                              cause=cause)
        self.finish(command)


OTHER = "(other)"
#: The fields of a condition of the DJ's own: off (skipped by Tab) for a built-in one.
OWN_FIELDS = ("own", "gd", "cannot-act", "cannot-react", "out")


class ConditionSelect(FormSelect[str]):
    """The condition list of the condition dialog. A letter picks the next condition
    starting with it (as a closed list does in a desktop form); a number is how long,
    typed into Asaltos (no condition's name starts with one), so that a DJ who types the
    asaltos straight away loses nothing."""

    def __init__(self, options: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(options, **kwargs)
        #: The choices as given (Select keeps its own copy under a private name).
        self.choices = list(options)

    def on_key(self, event: events.Key) -> None:
        character = event.character
        if character is None or not event.is_printable or character.isspace():
            return
        event.stop()
        event.prevent_default()
        if character.isdigit():
            self._to_asaltos(events.Key(event.key, character))
        else:
            self._pick_starting(character)

    def on_paste(self, event: events.Paste) -> None:
        text = event.text.strip()
        if not text:
            return
        event.stop()
        event.prevent_default()
        if text[0].isdigit():
            self._to_asaltos(events.Paste(text))
        else:
            self._pick_starting(text)

    def _to_asaltos(self, event: events.Key | events.Paste) -> None:
        duration = self.screen.query_one("#duration", Input)
        self.screen.set_focus(duration)
        duration.post_message(event)  # after its focus, before any key typed later

    def _pick_starting(self, text: str) -> None:
        labels = [(str(label).casefold(), value) for label, value in self.choices]
        current = next((i for i, (_label, value) in enumerate(labels)
                        if value == self.value), -1)
        wanted = text.casefold()
        order = labels[current + 1:] + labels[:current + 1] if len(wanted) == 1 else labels
        match = next((value for label, value in order
                      if label.lstrip("(").startswith(wanted)), None)
        if match is None:
            self.app.bell()
            return
        self.value = match


class ConditionDialog(Dialog[c.AddCondition]):
    """C2: a built-in condition or the DJ's own, with a duration in asaltos (C3).

    The focus opens on the condition, then Tab goes to how long (Asaltos), then to the
    fields of a condition of the DJ's own, which are off until (other) is chosen: a
    number typed there would be ignored."""

    def __init__(self, name: str, check: Check) -> None:
        super().__init__()
        self.name_ = name
        self.check = check

    def compose(self) -> ComposeResult:
        options = [(name, name) for name in BUILTIN_NAMES] + [(_("(other)"), OTHER)]
        with Vertical(id="dialog"):
            yield Static(_("Condition on {name}").format(name=self.name_), id="dialog-title")
            with Horizontal(classes="row"):
                yield Field(_("Condition"), ConditionSelect(options, value="aturdido",
                                                            allow_blank=False, id="kind"),
                            field_id="kind")
                yield Field(_("Asaltos"), TextInput(id="duration", type="integer",
                                                 placeholder=_("empty: until removed")),
                            field_id="duration")
            with Horizontal(classes="row"):
                yield Field(_("Own name"), TextInput(id="own", placeholder="derribado",
                                                     disabled=True),
                            field_id="own")
                yield Field(_("GD on every TA"), TextInput("0", id="gd", type="integer",
                                                           disabled=True),
                            field_id="gd")
            with Horizontal(classes="row"):
                yield FormCheckbox(_("Cannot act"), False, id="cannot-act", disabled=True)
                yield FormCheckbox(_("Cannot react"), False, id="cannot-react", disabled=True)
                yield FormCheckbox(_("Out"), False, id="out", disabled=True)
            yield Static(_("The own name and the boxes are for (other)."), classes="note")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Add ({key})"), "dialog.confirm"),
                             id="add", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        # At once (not deferred like Widget.focus): the focus never lands elsewhere first.
        self.set_focus(self.query_one("#kind", Select))

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "kind":
            own = event.value == OTHER
            for field_id in OWN_FIELDS:
                self.query_one(f"#{field_id}").disabled = not own

    def condition(self) -> Condition:
        text = self.value("duration").strip()
        duration = parse_int(text, "duration", "Asaltos",
                             *ask.bounds(Condition, "duration")) if text else None
        kind = str(self.query_one("#kind", Select).value)
        if kind != OTHER:
            try:
                return builtin(kind, began=0, duration=duration)
            except SombraError as error:
                raise FormError("duration", str(error)) from error
        own = self.value("own").strip()
        if not own:
            raise FormError("own", _("Give the condition a name."))
        gd = parse_int(self.value("gd"), "gd", "GD", *ask.bounds(GdEffect, "gd"), default=0)
        effects = ConditionEffects(
            cannot_act=self.query_one("#cannot-act", Checkbox).value,
            cannot_react=self.query_one("#cannot-react", Checkbox).value,
            out=self.query_one("#out", Checkbox).value,
            gd=(GdEffect(scope=ScopeKind.ANY, gd=gd),) if gd else ())
        return Condition(name=own[:ask.max_length(Condition, "name")], duration=duration,
                         effects=effects)

    def submit(self) -> None:
        self.clear_errors()
        try:
            command = c.AddCondition(character=self.name_, condition=self.condition())
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        self.finish(command)


class HealDialog(Dialog[c.Heal | c.SetCounters]):
    """H12: heal golpe or herida points, or set G and W directly."""

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

    def submit(self) -> None:
        self.clear_errors()
        kind = str(self.query_one("#kind", Select).value)
        command: c.Heal | c.SetCounters
        try:
            if kind == "set":
                command = c.SetCounters(
                    character=self.name_,
                    g=parse_int(self.value("g"), "g", "G", *ask.bounds(c.SetCounters, "g")),
                    w=parse_int(self.value("w"), "w", "W", *ask.bounds(c.SetCounters, "w")))
            else:
                command = c.Heal(character=self.name_, kind=c.HealKind(kind),
                                 points=parse_int(self.value("points"), "points",
                                                  _("Points"),
                                                  *ask.bounds(c.Heal, "points")))
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        self.finish(command)


M = TypeVar("M", bound=BaseModel)


def validated(model: type[M], old: M, changes: dict[str, Any]) -> M:
    """`old` with `changes`, checked as a new one (model_copy would not validate)."""
    try:
        return model.model_validate({**dict(old), **changes})
    except ValidationError as error:
        field, message = validation_message(error)
        raise FormError(field or "form", message) from error


def grades_text(grades: tuple[GdEffect, ...]) -> str:
    """A wound's grades as the DJ edits them: "+1 right arm, +1 physical actions"."""
    return ", ".join(f"{g.gd:+d} {_(g.scope_label())}" for g in grades)


def grade_scopes() -> dict[str, tuple[ScopeKind, BodySide | None]]:
    """Every grade scope by its label, in English and in the DJ's language (H10, C1)."""
    scopes: dict[str, tuple[ScopeKind, BodySide | None]] = {}
    for kind in ScopeKind:
        sides: tuple[BodySide | None, ...] = ((BodySide.LEFT, BodySide.RIGHT)
                                              if kind in (ScopeKind.ARM, ScopeKind.LEG)
                                              else (None,))
        for side in sides:
            label = GdEffect(scope=kind, side=side, gd=0).scope_label()
            scopes[label.casefold()] = scopes[_(label).casefold()] = (kind, side)
    scopes["physical"] = scopes[_("physical").casefold()] = (ScopeKind.PHYSICAL, None)
    scopes["any"] = (ScopeKind.ANY, None)
    return scopes


def parse_grades(text: str, field: str) -> tuple[GdEffect, ...]:
    """ "+1 right arm, +2 physical actions" -> the grades of a wound or condition."""
    scopes = grade_scopes()
    grades: list[GdEffect] = []
    for chunk in (part.strip() for part in text.split(",")):
        if not chunk:
            continue
        amount, _space, where = chunk.partition(" ")
        scope = scopes.get(where.strip().casefold())
        if scope is None:
            raise FormError(field, _("{chunk!r}: write a grade and what it applies to, e.g. "
                                     "'+1 right arm' ({known}).").format(
                chunk=chunk, known=", ".join(sorted({_(GdEffect(scope=k, side=s, gd=0)
                                                       .scope_label())
                                                     for k, s in scopes.values()}))))
        gd = parse_int(amount, field, _("GD"), *ask.bounds(GdEffect, "gd"))
        grades.append(GdEffect(scope=scope[0], side=scope[1], gd=gd))
    return tuple(grades)


class WoundDialog(Dialog[c.EditWound]):
    """H12: change any value of a wound (the counters stay: heal or set G / W for those)."""

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
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Save ({key})"), "dialog.confirm"),
                             id="save", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

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

    def submit(self) -> None:
        self.clear_errors()
        try:
            wound = self.edited()
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        if wound == self.wound:
            self.dismiss(None)  # nothing changed: nothing to log
            return
        command = c.EditWound(character=self.name_, wound=wound)
        self.finish(command)


class EditConditionDialog(Dialog[c.EditCondition]):
    """C2: change a condition's duration (C3), name or grades; built-in effects stay."""

    def __init__(self, name: str, condition: Condition, round_: int, check: Check) -> None:
        super().__init__()
        self.name_ = name
        self.condition = condition
        self.round = round_
        self.check = check

    def compose(self) -> ComposeResult:
        condition = self.condition
        left = ask.condition_left(condition, self.round)
        effects = condition.effects
        with Vertical(id="dialog"):
            yield Static(_("{name}'s condition: {condition}").format(
                name=self.name_, condition=condition.name), id="dialog-title")
            with Horizontal(classes="row"):
                yield Field(_("Name"), TextInput(condition.name, id="cname"),
                            field_id="cname")
                yield Field(_("Asaltos left"), TextInput(
                    "" if left is None else str(left), id="left", type="integer",
                    placeholder=_("empty: until removed"),
                    disabled=condition.permanent), field_id="left")
                yield Field(_("Grades"), TextInput(grades_text(effects.gd), id="grades",
                                                   placeholder=_("-1 every TA")),
                            field_id="grades")
            with Horizontal(classes="row"):
                yield FormCheckbox(_("Cannot act"), effects.cannot_act, id="cannot-act")
                yield FormCheckbox(_("Cannot react"), effects.cannot_react, id="cannot-react")
                yield FormCheckbox(_("Out"), effects.out, id="out")
            yield Static(_("Asaltos left: the rounds it still covers, this one included if it "
                           "does."), classes="note")
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Save ({key})"), "dialog.confirm"),
                             id="save", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.query_one("#left", Input).focus()

    def edited(self) -> Condition:
        condition = self.condition
        name = self.value("cname").strip()
        if not name:
            raise FormError("cname", _("Give the condition a name."))
        duration = condition.duration
        if not condition.permanent:
            text = self.value("left").strip()
            if not text:
                duration = None
            else:
                left = parse_int(text, "left", _("Asaltos left"),
                                 *ask.bounds(Condition, "duration"))
                try:  # C3 backwards: the duration that leaves `left` rounds from this one
                    duration = ask.condition_duration(condition, self.round, left)
                except SombraError as error:
                    raise FormError(error.field or "left", error.message) from error
        effects = ConditionEffects(
            cannot_act=self.query_one("#cannot-act", Checkbox).value,
            cannot_react=self.query_one("#cannot-react", Checkbox).value,
            out=self.query_one("#out", Checkbox).value,
            gd=parse_grades(self.value("grades"), "grades"))
        name = name[:ask.max_length(Condition, "name")]
        return validated(Condition, condition, {"name": name,
                                                "duration": duration, "effects": effects})

    def submit(self) -> None:
        self.clear_errors()
        try:
            condition = self.edited()
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        if condition == self.condition:
            self.dismiss(None)
            return
        command = c.EditCondition(character=self.name_, condition=condition)
        self.finish(command)


class CharacterSheet(Dialog[None]):
    """A character's sheet in combat: points, wounds, conditions and weapons, with the
    keys to heal, attend, add a condition or a hit (H12, C2), and to show the character
    in the players' view or leave it out (issue 23)."""

    BINDINGS = keys.bindings(keys.Scope.SHEET)

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
        character = state.character(self.name_)
        if character is None:
            self.dismiss(None)
            return
        body = state.body(self.name_)
        pv = ask.pv(state, self.name_)
        weapons = ", ".join(
            f"{'*' if i == character.default_weapon else ''}{w.name} (tipo {w.damage_type}"
            + (", " + _("lethal") if w.lethal else ", " + _("non-lethal")
               if w.lethal is False else "") + ")"
            for i, w in enumerate(character.weapons)) or _("none")
        protection = ", ".join(f"{_(loc.label)} {value}" for loc, value
                               in character.protection.items() if value) or _("none")
        self.query_one("#sheet-head", Static).update(_(
            "Resistencia {resistencia} · PV {pv} · {counters} · main arm {arm}\n"
            "Weapons: {weapons}\nProtection: {protection}").format(
            resistencia=character.resistencia, pv=pv, counters=body.counters,
            arm=_(character.main_arm.value), weapons=weapons, protection=protection)
            + "\n" + _(self.PLAYERS_SEE[ask.concealment(state, self.name_)]))
        items = self.query_one(OptionList)
        highlighted = items.highlighted
        items.clear_options()
        options: list[Option] = []
        for wound in body.wounds:
            bleeding = (_(", bleeds {counted}/{rate}").format(counted=wound.bleed_counted,
                                                             rate=wound.bleed_rate)
                        if wound.bleeding else _(", attended") if wound.attended else "")
            options.append(Option(_(
                "Wound: {location} {damage} {lethal}, {severity}{bleeding} (round {round})"
            ).format(location=_(wound.location.label), damage=wound.damage,
                     lethal=_("lethal") if wound.lethal else _("non-lethal"),
                     severity=_(wound.severity.label), bleeding=bleeding, round=wound.round),
                id=f"wound-{wound.id}"))
        for condition in body.conditions:
            left = ask.condition_left(condition, ask.counting_round(state))
            when = (_("never expires") if condition.permanent else _("until removed")
                    if left is None else ngettext("{left} asalto left", "{left} asaltos left",
                                                  left).format(left=left))
            options.append(Option(_("Condition: {name} ({when})").format(
                name=condition.name, when=when), id=f"condition-{condition.id}"))
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
            self.notify(_("No wound to attend."), severity="warning")
            return
        self._apply(c.AttendWound(character=self.name_, wound_id=wound_id))

    def action_edit(self) -> None:
        selected = self._selected()
        if selected is None:
            self.notify(_("Choose a wound or a condition to edit."), severity="warning")
            return
        state = self.get_state()
        body = state.body(self.name_)
        kind, number = selected
        if kind == "wound":
            wound = body.wound(number)
            if wound is not None:
                self.app.push_screen(WoundDialog(self.name_, wound, self.check), self._apply)
            return
        condition = body.condition(number)
        if condition is not None:
            self.app.push_screen(EditConditionDialog(
                self.name_, condition, ask.counting_round(state), self.check), self._apply)

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

    def submit(self) -> None:
        self.dismiss(None)
