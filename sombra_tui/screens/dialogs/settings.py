"""Encounter settings: name, reacción (D3), niveles de calidad (T4), iniciativa variable
(I2), points per GD (T3), who rolls each side's dice (the table or the tracker), what the
players' view shows of each side (issue 23), and section H's settings: PV multiplier (H6),
the damage-type table with the DJ's formulas (H3), sides (H2), severity reading (H8),
bleeding (H9)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, Select, Static

from sombra_tui.engine import (
    TIPOS,
    ChangeSettings,
    Command,
    DamageType,
    DeclarationView,
    DiceSource,
    PlayerViewSettings,
    RenameEncounter,
    Settings,
    SeverityReading,
    SideMapping,
    SideView,
    SombraError,
    WoundSettings,
    WoundView,
    ask,
    i18n,
)
from sombra_tui.engine.i18n import N_, _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import Field, FormCheckbox, FormSelect, TextInput
from sombra_tui.screens.dialogs.odds_line import odds_shown
from sombra_tui.screens.dialogs.parsing import FormError, parse_int, parse_tipo, tipo_id

SIDES = [(N_("4 left arm, 5 right, 8 left leg, 9 right"), SideMapping.EVEN_LEFT),
         (N_("4 right arm, 5 left, 8 right leg, 9 left"), SideMapping.EVEN_RIGHT)]
SEVERITY_READINGS = [(N_("floor(D / R): 1 leve, 2+ grave"), SeverityReading.FLOOR),
                     (N_("strict: D > R leve, D > 2R grave"), SeverityReading.STRICT)]


#: Who rolls a side's TAs (issue 13): the table types them or the tracker rolls them.
DICE_OPTIONS = [(N_("typed: the table rolls"), DiceSource.TABLE),
                (N_("rolled by the tracker"), DiceSource.TRACKER)]

#: What the players' view shows of a side (issue 23): its wounds, and when its
#: declarations appear.
WOUND_VIEWS = [(N_("numbers: G, W and PV"), WoundView.NUMBERS),
               (N_("words: unhurt, wounded…"), WoundView.WORDS),
               (N_("not shown"), WoundView.HIDDEN)]
DECLARATION_VIEWS = [(N_("as made"), DeclarationView.AS_MADE),
                     (N_("when the declarations end"), DeclarationView.AFTER_PHASE)]
#: The players' view's fields by side: (side, its fields' id prefix).
PLAYER_SIDES = (("pc", "players-pc"), ("npc", "players-npc"))


class LanguageChosen(Message):
    """The DJ chose the app's language (an app preference, not a command): the app
    switches, remembers it and re-renders every screen."""

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code


class OddsShown(Message):
    """The DJ shows or hides the odds before each roll (issue 37; an app preference,
    not a command): the app remembers it."""

    def __init__(self, shown: bool) -> None:
        super().__init__()
        self.shown = shown


class SettingsDialog(Dialog[list[Command]]):
    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    # Narrow (80 columns), a row of four fields is two rows of two, and a row of
    # checkboxes one a line: each label whole ("PV = x Resistencia", "GD de dolor
    # intenso", "Solo sangran las heridas letales"), none cut to fit a quarter or a half.
    DEFAULT_CSS = """
    SettingsDialog #fields { height: auto; max-height: 65vh; }
    SettingsDialog.-narrow #fields .row {
        layout: grid; grid-size: 2; grid-rows: auto; grid-gutter: 0 1;
    }
    SettingsDialog.-narrow #fields .row > * { margin-right: 0; }
    SettingsDialog.-narrow #fields .row.checks { layout: vertical; }
    """

    def __init__(self, name: str, settings: Settings, check: Callable[[Any], SombraError | None],
                 *, started: bool = False) -> None:
        super().__init__()
        self.name_ = name
        self.settings = settings
        self.check = check
        self.started = started

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(_("Encounter settings"), id="dialog-title")
            with VerticalScroll(id="fields"):
                yield from self._fields()
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                yield Button(self.keyed(_("Apply ({key})"), "dialog.confirm"),
                             id="apply", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def _fields(self) -> ComposeResult:
        s = self.settings
        yield Field(_("Encounter name"), TextInput(self.name_, id="name"), field_id="name")
        yield FormCheckbox(_("Reacción: reacción prompts during declarations"),
                           s.reaccion, id="reaccion")
        yield FormCheckbox(_("Niveles de calidad: high / medium / low quality"),
                           s.niveles_de_calidad, id="niveles")
        yield FormCheckbox(_("Iniciativa variable: +1d10 on primaria in round 1"),
                           s.iniciativa_variable, id="variable", disabled=self.started)
        yield Field(_("Points per GD"), TextInput(str(s.points_per_gd), id="points",
                    type="integer"), field_id="points")
        yield Field(_("Length of an asalto (seconds)"), TextInput(  # issue 38
            "" if s.asalto_seconds is None else str(s.asalto_seconds), id="asalto-seconds"),
            field_id="asalto-seconds", hint=_("the rules give none: yours"))
        with Horizontal(classes="row"):
            for label, field_id, value in ((_("PCs' dice"), "pc-dice", s.pc_dice),
                                           (_("NPCs' dice"), "npc-dice", s.npc_dice)):
                yield Field(label, FormSelect([(_(text), source) for text, source
                                               in DICE_OPTIONS], value=value,
                            allow_blank=False, id=field_id), field_id=field_id)
        # Each language named in itself, so a DJ who reads only one finds it.
        yield Field(_("Language of the app (remembered)"), FormSelect(
            [(i18n.LANGUAGE_NAMES[code], code) for code in i18n.LANGUAGES],
            value=i18n.language() if i18n.language() in i18n.LANGUAGES else "es",
            allow_blank=False, id="language"), field_id="language")
        # Issue 37: the DJ's own display choice, kept with the language (config.py).
        yield FormCheckbox(_("Show the odds before each roll (remembered)"),
                           odds_shown(self.app), id="show-odds")
        yield from self._players_fields(s.players)
        yield from self._wound_fields(s.wounds)

    def _wound_fields(self, w: WoundSettings) -> ComposeResult:
        """Sections H and C's options: PV, pain, bleeding, sides, severity, damage types."""
        yield Static(_("Hits and wounds"), classes="note")
        with Horizontal(classes="row"):
            yield Field(_("PV = x Resistencia"), TextInput(
                str(w.pv_multiplier), id="pv-multiplier", type="integer"),
                field_id="pv-multiplier")
            yield Field(_("Dolor intenso GD"), TextInput(
                str(w.dolor_intenso_gd), id="dolor", type="integer"),
                field_id="dolor")
            yield Field(_("Bleeds every (leve)"), TextInput(
                str(w.bleed_rate_leve), id="rate-leve", type="integer"),
                field_id="rate-leve")
            yield Field(_("(grave)"), TextInput(
                str(w.bleed_rate_grave), id="rate-grave", type="integer"),
                field_id="rate-grave")
        with Horizontal(classes="row"):
            yield Field(_("Sides"), FormSelect(
                [(_(label), value) for label, value in SIDES], value=w.side_mapping,
                allow_blank=False, id="sides"), field_id="sides")
            yield Field(_("Severity"), FormSelect(
                [(_(label), value) for label, value in SEVERITY_READINGS],
                value=w.severity_reading, allow_blank=False,
                id="severity"), field_id="severity")
        with Horizontal(classes="row checks"):
            yield FormCheckbox(_("Bleeding"), w.bleeding, id="bleeding")
            yield FormCheckbox(_("Only lethal wounds bleed"), w.only_lethal_bleeds,
                               id="only-lethal")
        yield FormCheckbox(_("A new aturdido asks before it cancels a pending round action"),
                           w.unable_asks_prevented, id="unable-asks")
        yield Static(_("Damage types: a formula over dS, d+, d-, whole numbers, "
                       "+ - x and brackets (empty: type the damage)"), classes="note")
        for entry in w.damage_types:
            with Horizontal(classes="row"):
                yield Field(_("Tipo {tipo}").format(tipo=entry.id), TextInput(
                    entry.formula or "", id=tipo_id(entry.id),
                    placeholder="(d+ + d-) x 2"), field_id=tipo_id(entry.id))
                yield FormCheckbox(_("lethal"), entry.lethal,
                                   id=f"lethal-{entry.id}")

    def _players_fields(self, players: PlayerViewSettings) -> ComposeResult:
        """What the players' view (F8) shows, a column per side as the dice above."""
        pc, npc = players.pc, players.npc
        yield Static(_("What the players see (the players' view)"), classes="note")
        with Horizontal(classes="row"):
            for label, prefix, view in ((_("PCs' wounds"), "players-pc", pc),
                                        (_("NPCs' wounds"), "players-npc", npc)):
                yield Field(label, FormSelect([(_(text), value) for text, value
                                               in WOUND_VIEWS], value=view.wounds,
                            allow_blank=False, id=f"{prefix}-wounds"),
                            field_id=f"{prefix}-wounds")
        with Horizontal(classes="row"):
            for label, prefix, view in ((_("PCs' declarations"), "players-pc", pc),
                                        (_("NPCs' declarations"), "players-npc", npc)):
                yield Field(label, FormSelect([(_(text), value) for text, value
                                               in DECLARATION_VIEWS],
                                              value=view.declarations, allow_blank=False,
                                              id=f"{prefix}-declarations"),
                            field_id=f"{prefix}-declarations")
        # A line each: the words are long, and a box cut in half reads wrong.
        yield FormCheckbox(_("New PCs hidden from the players until they act"),
                           pc.hidden_until_acts, id="players-pc-hidden")
        yield FormCheckbox(_("New NPCs hidden from the players until they act"),
                           npc.hidden_until_acts, id="players-npc-hidden")
        yield FormCheckbox(_("PCs see their own reacción odds (never NPCs)"),
                           players.reaction_odds, id="players-odds")  # issue 37

    def players_settings(self) -> PlayerViewSettings:
        """The players' view's settings from the form."""
        def side(prefix: str) -> SideView:
            return SideView(
                wounds=WoundView(str(self.query_one(f"#{prefix}-wounds", Select).value)),
                declarations=DeclarationView(str(self.query_one(
                    f"#{prefix}-declarations", Select).value)),
                hidden_until_acts=self.query_one(f"#{prefix}-hidden", Checkbox).value)
        return PlayerViewSettings(**{key: side(prefix) for key, prefix in PLAYER_SIDES},
                                  reaction_odds=self.query_one("#players-odds",
                                                               Checkbox).value)

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#name", Input))

    def wound_settings(self) -> WoundSettings:
        """Section H's settings from the form; every formula checked by the grammar."""
        table = tuple(DamageType(id=tipo, formula=parse_tipo(tipo, self.value(tipo_id(tipo))),
                                 lethal=self.query_one(f"#lethal-{tipo}", Checkbox).value)
                      for tipo in TIPOS)
        return self.settings.wounds.model_copy(update={
            "pv_multiplier": parse_int(self.value("pv-multiplier"), "pv-multiplier",
                                       _("PV multiplier"),
                                       *ask.bounds(WoundSettings, "pv_multiplier")),
            "dolor_intenso_gd": parse_int(self.value("dolor"), "dolor", _("Dolor intenso GD"),
                                          *ask.bounds(WoundSettings, "dolor_intenso_gd")),
            "bleed_rate_leve": parse_int(self.value("rate-leve"), "rate-leve",
                                         _("Bleeding rate"),
                                         *ask.bounds(WoundSettings, "bleed_rate_leve")),
            "bleed_rate_grave": parse_int(self.value("rate-grave"), "rate-grave",
                                          _("Bleeding rate"),
                                          *ask.bounds(WoundSettings, "bleed_rate_grave")),
            "side_mapping": SideMapping(str(self.query_one("#sides", Select).value)),
            "severity_reading": SeverityReading(str(self.query_one("#severity",
                                                                   Select).value)),
            "bleeding": self.query_one("#bleeding", Checkbox).value,
            "only_lethal_bleeds": self.query_one("#only-lethal", Checkbox).value,
            "unable_asks_prevented": self.query_one("#unable-asks", Checkbox).value,
            "damage_types": table,
        })

    def build(self) -> list[Command]:
        points = parse_int(self.value("points"), "points", _("Points per GD"),
                           *ask.bounds(Settings, "points_per_gd"))
        seconds_text = self.value("asalto-seconds").strip()
        seconds = parse_int(seconds_text, "asalto-seconds", _("Length of an asalto (seconds)"),
                            *ask.bounds(Settings, "asalto_seconds")) if seconds_text else None
        name = self.value("name").strip()
        if not name:
            raise FormError("name", _("The encounter needs a name."))
        longest = ask.max_length(RenameEncounter, "name")
        if len(name) > longest:
            raise FormError("name", _("At most {max} characters.").format(max=longest))
        wounds = self.wound_settings()
        pc_dice = self.query_one("#pc-dice", Select).value
        npc_dice = self.query_one("#npc-dice", Select).value
        settings = self.settings.model_copy(update={
            "reaccion": self.query_one("#reaccion", Checkbox).value,
            "niveles_de_calidad": self.query_one("#niveles", Checkbox).value,
            "iniciativa_variable": self.query_one("#variable", Checkbox).value,
            "points_per_gd": points,
            "asalto_seconds": seconds,
            "pc_dice": DiceSource(str(pc_dice)),
            "npc_dice": DiceSource(str(npc_dice)),
            "wounds": wounds,
            "players": self.players_settings(),
        })
        commands: list[Command] = []
        if name != self.name_:
            commands.append(RenameEncounter(name=name))
        if settings != self.settings:
            commands.append(ChangeSettings(settings=settings))
        return commands

    def problem_with(self, commands: list[Command]) -> SombraError | None:
        """The engine checks the change of settings (a rename needs no check)."""
        change = next((command for command in commands
                       if isinstance(command, ChangeSettings)), None)
        return None if change is None or self.check is None else self.check(change)

    def accepted(self, commands: list[Command]) -> None:
        language = self.query_one("#language", Select).value
        if isinstance(language, str) and language != i18n.language():
            self.app.post_message(LanguageChosen(language))
        shown = self.query_one("#show-odds", Checkbox).value
        if shown != odds_shown(self.app):
            self.app.post_message(OddsShown(shown))
