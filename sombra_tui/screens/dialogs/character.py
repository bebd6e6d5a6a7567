"""Character editor: name, side, initiative, Alerta, skills, notes (I1)."""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Input, Select, Static

from sombra_tui import keys
from sombra_tui.engine import (
    DEFAULT_RESISTENCIA,
    AddCharacters,
    BodySide,
    Character,
    CombatState,
    Gender,
    Side,
    SombraError,
    ask,
)
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import Field, FormSelect, TextInput, save_or_cancel
from sombra_tui.screens.dialogs.lists import (
    CompletingInput,
    completer,
    format_protection,
    format_skills,
    location_words,
    parse_protection,
    parse_skills,
    parse_weapon_list,
    weapon_words,
)
from sombra_tui.screens.dialogs.parsing import (
    FormError,
    format_weapons,
    parse_int,
    validation_message,
)
from sombra_tui.widgets.formatting import side_label

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

    BINDINGS = keys.bindings(keys.Scope.CHARACTER)  # ctrl+t: the other side

    def __init__(self, character: Character | None,
                 check: Callable[[Character], SombraError | None], *,
                 many: bool = False, state: CombatState | None = None,
                 side: Side = Side.NPC) -> None:
        super().__init__()
        self.character = character
        self.check = check
        self.many = many
        #: The encounter: what the lists complete (issue 39 item 1) and the summary reads.
        self.state = state
        #: A new character's side (the cursor's row's, ask.new_character_side).
        self.side = character.side if character else side
        #: How many characters the DJ asked for ("4 Matón"); None: just this one.
        self.count: int | None = None

    def heading(self, side: object) -> str:
        if self.character:
            return _("Edit {name}").format(name=self.character.name)
        return _("New character: {side}").format(side=side_label(str(side)))

    def compose(self) -> ComposeResult:
        ch = self.character
        with Vertical(id="dialog"):
            yield Static(self.heading(self.side), id="dialog-title")
            with VerticalScroll():
                yield Field(_("Name"), TextInput(ch.name if ch else "", id="name"),
                            field_id="name",
                            hint=_("'4 Matón' adds Matón 1-4") if self.many else "")
                # The newcomer's path first (issue 39 item 1): name, initiative, Alerta,
                # skills, weapons, protection; the side is the cursor's (ctrl+t changes it).
                with Horizontal(classes="row"):
                    yield Field(_("Primaria"), TextInput(str(ch.primaria) if ch else "",
                                                         id="primaria",
                                                  type="integer"), field_id="primaria")
                    yield Field(_("Secundaria"), TextInput(str(ch.secundaria) if ch else "",
                                                    id="secundaria", type="integer"),
                                field_id="secundaria")
                    yield Field("Alerta", TextInput(str(ch.alerta) if ch else "", id="alerta",
                                                type="integer"), field_id="alerta")
                yield from self.list_fields()
                with Horizontal(classes="row"):
                    yield Field(_("Side"), FormSelect(
                        [(side_label(side.value), side) for side in Side],
                        value=self.side, allow_blank=False, id="side"), field_id="side",
                        hint=self.key_in_force("character.side"))
                    yield Field("Resistencia", TextInput(
                        str(ch.resistencia if ch else DEFAULT_RESISTENCIA), id="resistencia",
                        type="integer"), field_id="resistencia")
                    yield Field(_("Own PV"), TextInput(
                        str(ch.pv) if ch and ch.pv is not None else "", id="pv",
                        type="integer", placeholder=_("(auto)")), field_id="pv")
                    yield Field(_("Main arm"), FormSelect(
                        [(_("right"), BodySide.RIGHT), (_("left"), BodySide.LEFT)],
                        value=ch.main_arm if ch else BodySide.RIGHT, allow_blank=False,
                        id="main-arm"), field_id="main_arm")
                # Spanish agreement ("Ana queda impedida"); a new sheet guesses it.
                yield Field(_("Gender"), FormSelect(
                    [(_("from the name"), GUESS), *((_(gender.label), gender.value)
                                                    for gender in Gender)],
                    value=ch.gender.value if ch else GUESS, allow_blank=False,
                    id="gender"), field_id="gender")
                yield Field(_("Notes"), TextInput(ch.notes if ch else "", id="notes"),
                            field_id="notes")
            yield from save_or_cancel(self.keyed)

    def list_fields(self) -> ComposeResult:
        """Skills, weapons and protection: entries with completion (lists.py), from what
        the encounter knows (its skills and weapons) and the locations of H2."""
        ch, state = self.character, self.state
        skills = completer(ask.known_skills(state) if state else [], after=" ")
        weapons = completer(weapon_words(ask.known_weapons(state)) if state else [])
        right = _("→ completes")
        yield Field(_("Skills"), CompletingInput(
            format_skills(ch.skills) if ch else "", id="skills", complete=skills,
            placeholder=_("(none)")), field_id="skills",
            hint=_("name and value, a comma between; {right}").format(right=right))
        yield Field(_("Weapons"), CompletingInput(
            format_weapons(ch.weapons) if ch else "", id="weapons", complete=weapons,
            placeholder=_("(none)")), field_id="weapons",
            hint=_("name type [lethal/non-lethal] [(skill)]; the first is the "
                   "default; {right}").format(right=right))
        yield Field(_("Protection"), CompletingInput(
            format_protection(ch.protection) if ch else "", id="protection",
            complete=completer(location_words(), after=" "),
            placeholder=_("(none)")), field_id="protection",
            hint=_("location and value; {right}").format(right=right))


    def action_toggle_side(self) -> None:
        """The other side (issue 39 item 1), from any field: the title says it."""
        select = self.query_one("#side", Select)
        select.value = Side.PC if select.value == Side.NPC else Side.NPC

    def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "side":
            self.query_one("#dialog-title", Static).update(self.heading(event.value))

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
            "side": Side(side) if side in tuple(Side) else Side.NPC,
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
            "weapons": parse_weapon_list(self.value("weapons")),
            "protection": parse_protection(self.value("protection")),
        }
        if not str(data["name"]).strip():
            raise FormError("name", _("A character needs a name."))
        try:
            return Character.model_validate(data)
        except ValidationError as error:
            field, message = validation_message(error)
            raise FormError(field, message) from error

