"""Character editor: name, side, initiative, Alerta, skills, notes (I1)."""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Select, Static

from sombra_tui.engine import (
    DEFAULT_RESISTENCIA,
    AddCharacters,
    BodySide,
    Character,
    Gender,
    Side,
    SombraError,
    ask,
)
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import Field, FormSelect, TextInput, save_or_cancel
from sombra_tui.screens.dialogs.parsing import (
    FormError,
    format_protection,
    format_skills,
    format_weapons,
    parse_int,
    parse_protection,
    parse_skills,
    parse_weapons,
    validation_message,
)

#: The gender choice of a new sheet: guessed from the name (model.guess_gender).
GUESS = "guess"


#: "4 Matón": a count, then the name (the add dialog makes Matón 1 ... Matón 4).
COUNT_AND_NAME = re.compile(r"^\s*(?P<count>\d+)\s+(?P<name>\S.*)$")


class CharacterEditor(Dialog[Character]):
    """Returns the edited Character; nothing is committed until every field is valid.

    With `many` (adding), a name such as "4 Matón" asks for that many characters with
    this sheet: `count` is then 4 and the Character is called "Matón".
    """

    SUMMARY = True  # the form says what Enter sends (issue 35, D2)

    #: A name already taken is shown at the name field.
    ERROR_FIELDS = {"character.name": "name"}

    def __init__(self, character: Character | None,
                 check: Callable[[Character], SombraError | None], *,
                 many: bool = False) -> None:
        super().__init__()
        self.character = character
        self.check = check
        self.many = many
        #: How many characters the DJ asked for ("4 Matón"); None: just this one.
        self.count: int | None = None

    def compose(self) -> ComposeResult:
        ch = self.character
        title = _("Edit {name}").format(name=ch.name) if ch else _("New character")
        with Vertical(id="dialog"):
            yield Static(title, id="dialog-title")
            with VerticalScroll():
                yield Field(_("Name"), TextInput(ch.name if ch else "", id="name"),
                            field_id="name",
                            hint=_("'4 Matón' adds Matón 1-4") if self.many else "")
                with Horizontal(classes="row"):
                    yield Field(_("Side"), FormSelect([(_("PC (player)"), Side.PC),
                                                       (_("NPC (DJ)"), Side.NPC)],
                                               value=ch.side if ch else Side.NPC,
                                               allow_blank=False, id="side"), field_id="side")
                with Horizontal(classes="row"):
                    yield Field(_("Primaria"), TextInput(str(ch.primaria) if ch else "",
                                                         id="primaria",
                                                  type="integer"), field_id="primaria")
                    yield Field(_("Secundaria"), TextInput(str(ch.secundaria) if ch else "",
                                                    id="secundaria", type="integer"),
                                field_id="secundaria")
                    yield Field("Alerta", TextInput(str(ch.alerta) if ch else "", id="alerta",
                                                type="integer"), field_id="alerta")
                # Skills before the sheet of section H: a new character needs them first.
                yield Field(_("Skills"), TextInput(format_skills(ch.skills) if ch else "",
                                                   id="skills", placeholder="Pelea 14, Sigilo 11"),
                            field_id="skills", hint=_("name value, comma separated"))
                with Horizontal(classes="row"):
                    yield Field("Resistencia", TextInput(
                        str(ch.resistencia if ch else DEFAULT_RESISTENCIA), id="resistencia",
                        type="integer"), field_id="resistencia")
                    yield Field(_("Own PV"), TextInput(
                        str(ch.pv) if ch and ch.pv is not None else "", id="pv",
                        type="integer", placeholder=_("x Resistencia")), field_id="pv")
                    yield Field(_("Main arm"), FormSelect(
                        [(_("right"), BodySide.RIGHT), (_("left"), BodySide.LEFT)],
                        value=ch.main_arm if ch else BodySide.RIGHT, allow_blank=False,
                        id="main-arm"), field_id="main_arm")
                    # Spanish agreement ("Ana queda impedida"); a new sheet guesses it. After
                    # the newcomer's path (name, side, initiative, Alerta, skills).
                    yield Field(_("Gender"), FormSelect(
                        [(_("from the name"), GUESS), *((_(gender.label), gender.value)
                                                        for gender in Gender)],
                        value=ch.gender.value if ch else GUESS, allow_blank=False,
                        id="gender"), field_id="gender")
                yield Field(_("Weapons"), TextInput(format_weapons(ch.weapons) if ch else "",
                                                    id="weapons",
                                                    placeholder="pistola II, puños 0"),
                            field_id="weapons", hint=_("name type [lethal/non-lethal] "
                                                       "[(skill)]; the first is the "
                                                       "default"))
                yield Field(_("Protection"), TextInput(
                    format_protection(ch.protection) if ch else "", id="protection",
                    placeholder=_("chest 2, head 1")), field_id="protection")
                yield Field(_("Notes"), TextInput(ch.notes if ch else "", id="notes"),
                            field_id="notes")
            yield from save_or_cancel(self.keyed)

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#name", Input))

    def _name_and_count(self) -> tuple[str, int | None]:
        name = self.value("name")
        match = COUNT_AND_NAME.match(name) if self.many else None
        if match is None:
            return name, None
        count = int(match.group("count"))
        low, high = ask.bounds(AddCharacters, "count")
        if not low <= count <= high:
            raise FormError("name", _("At most {max} characters at once, not {count}.").format(
                max=high, count=count))
        return match.group("name"), count

    def build(self) -> Character:
        side = self.query_one("#side", Select).value
        gender = self.query_one("#gender", Select).value
        name, self.count = self._name_and_count()
        data = {
            "name": name,
            "side": side if isinstance(side, Side) else Side.NPC,
            "primaria": parse_int(self.value("primaria"), "primaria", _("Primaria"),
                                  *ask.bounds(Character, "primaria")),
            "secundaria": parse_int(self.value("secundaria"), "secundaria", _("Secundaria"),
                                    *ask.bounds(Character, "secundaria")),
            "alerta": parse_int(self.value("alerta"), "alerta", "Alerta",
                                *ask.bounds(Character, "alerta")),
            "skills": parse_skills(self.value("skills")),
            "notes": self.value("notes").strip(),
            "resistencia": parse_int(self.value("resistencia"), "resistencia", "Resistencia",
                                     *ask.bounds(Character, "resistencia")),
            "pv": (parse_int(self.value("pv"), "pv", _("Own PV"), *ask.bounds(Character, "pv"))
                   if self.value("pv").strip() else None),
            "main_arm": self.query_one("#main-arm", Select).value,
            "gender": gender if gender in tuple(Gender) else None,
            "weapons": parse_weapons(self.value("weapons")),
            "protection": parse_protection(self.value("protection")),
        }
        if not str(data["name"]).strip():
            raise FormError("name", _("A character needs a name."))
        try:
            return Character.model_validate(data)
        except ValidationError as error:
            field, message = validation_message(error)
            raise FormError(field, message) from error

