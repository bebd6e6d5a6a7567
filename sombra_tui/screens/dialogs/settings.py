"""Encounter settings: name, reacción (D3), niveles de calidad (T4), iniciativa variable
(I2), points per GD (T3) and who rolls each side's dice (the table or the tracker)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, Select, Static

from sombra_tui.engine import i18n
from sombra_tui.engine.commands import ChangeSettings, Command, RenameEncounter
from sombra_tui.engine.errors import SombraError
from sombra_tui.engine.i18n import N_, _
from sombra_tui.engine.model import DiceSource, Settings
from sombra_tui.screens.dialogs.base import (
    Dialog,
    Field,
    FormCheckbox,
    FormError,
    FormSelect,
    TextInput,
    parse_int,
)

#: Who rolls a side's TAs (issue 13): the table types them or the tracker rolls them.
DICE_OPTIONS = [(N_("typed: the table rolls"), DiceSource.TABLE),
                (N_("rolled by the tracker"), DiceSource.TRACKER)]


class LanguageChosen(Message):
    """The DJ chose the app's language (an app preference, not a command): the app
    switches, remembers it and re-renders every screen."""

    def __init__(self, code: str) -> None:
        super().__init__()
        self.code = code


class SettingsDialog(Dialog[list[Command]]):
    DEFAULT_CSS = """
    SettingsDialog #fields { height: auto; max-height: 65vh; }
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
                yield Button(_("Apply (enter)"), id="apply", variant="primary")
                yield Button(_("Cancel (esc)"), id="cancel")

    def _fields(self) -> ComposeResult:
        s = self.settings
        yield Field(_("Encounter name"), TextInput(self.name_, id="name"), field_id="name")
        yield FormCheckbox(_("Reacción: prompt reactions during declarations"),
                           s.reaccion, id="reaccion")
        yield FormCheckbox(_("Niveles de calidad: alto / medio / bajo"),
                           s.niveles_de_calidad, id="niveles")
        yield FormCheckbox(_("Iniciativa variable: +1d10 on primaria in round 1"),
                           s.iniciativa_variable, id="variable", disabled=self.started)
        yield Field(_("Points per GD"), TextInput(str(s.points_per_gd), id="points",
                    type="integer"), field_id="points")
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

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#name", Input))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "apply":
            self.submit()
        else:
            self.dismiss(None)

    def submit(self) -> None:
        self.clear_errors()
        try:
            points = parse_int(self.value("points"), "points", _("Points per GD"), 1, 20)
            name = self.value("name").strip()
            if not name:
                raise FormError("name", _("The encounter needs a name."))
            if len(name) > 80:
                raise FormError("name", _("At most 80 characters."))
        except FormError as error:
            self.show_error(error.field, error.message)
            return
        pc_dice = self.query_one("#pc-dice", Select).value
        npc_dice = self.query_one("#npc-dice", Select).value
        settings = self.settings.model_copy(update={
            "reaccion": self.query_one("#reaccion", Checkbox).value,
            "niveles_de_calidad": self.query_one("#niveles", Checkbox).value,
            "iniciativa_variable": self.query_one("#variable", Checkbox).value,
            "points_per_gd": points,
            "pc_dice": DiceSource(str(pc_dice)),
            "npc_dice": DiceSource(str(npc_dice)),
        })
        commands: list[Command] = []
        if name != self.name_:
            commands.append(RenameEncounter(name=name))
        if settings != self.settings:
            change = ChangeSettings(settings=settings)
            problem = self.check(change)
            if problem:
                self.show_problem(problem)
                return
            commands.append(change)
        language = self.query_one("#language", Select).value
        if isinstance(language, str) and language != i18n.language():
            self.app.post_message(LanguageChosen(language))
        self.dismiss(commands)
