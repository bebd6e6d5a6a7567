"""One action inside a declaration or reaction: kind, description, skill and target, GD,
targets, extended parameters and opposition (D1, D2, E2, E3, O2, O3)."""

from __future__ import annotations

from collections.abc import Callable

from pydantic import ValidationError
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.suggester import SuggestFromList
from textual.widgets import Input, Select, SelectionList, Static

from sombra_tui.engine import (
    Action,
    ActionKind,
    Character,
    ExtendedMode,
    ExtendedSpec,
    Opposition,
    OppositionMode,
    Reading,
    Role,
    ask,
    gd_name,
)
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.action_choices import (
    KIND_OPTIONS,
    NO_OPPOSITION,
    NO_WEAPON,
    SCOPES,
    extended_fields,
    opposition_fields,
    scope_options,
)
from sombra_tui.screens.dialogs.fields import (
    Field,
    FormSelect,
    PickList,
    TextInput,
    refill_inputs,
    refill_picks,
    refill_select,
)
from sombra_tui.screens.dialogs.parsing import FormError, parse_int, validation_message

#: H1: the index of the weapon an action with this skill starts with (None: no weapon).
WeaponFor = Callable[[str], int | None]


class ActionForm(Vertical):
    """Fields of one Action; `build()` returns it or raises FormError naming the field."""

    DEFAULT_CSS = """
    ActionForm { height: auto; border-top: solid $primary-darken-2; }
    ActionForm .extended, ActionForm .opposition { height: auto; display: none; }
    ActionForm.-extended .extended, ActionForm.-opposed .opposition { display: block; }
    ActionForm.-direct .conditioned-only { display: none; }
    ActionForm SelectionList { height: auto; max-height: 6; }
    """

    character: Character  #: The author, as `fill` last gave them.

    def __init__(self, character: Character | None = None, others: list[str] | None = None,
                 *, prefix: str = "a0", kind: ActionKind = ActionKind.ROUND,
                 title: str = "", weapon_for: WeaponFor | None = None,
                 description_first: bool = False) -> None:
        super().__init__(id=f"form-{prefix}")
        #: Kind and GD after the weapon, not on top (a reacción: its text comes right
        #: after the dice, then its skill and targets; a declaration keeps them on top).
        self.description_first = description_first
        if character is not None:
            self.character = character
        self.others = others or []
        self.prefix = prefix
        self.initial_kind = kind
        self.title = title
        self._auto_target = ""
        self.weapon_for = weapon_for
        #: The weapon the form chose by itself (H1); the DJ's own choice is kept.
        self._auto_weapon = NO_WEAPON

    def _weapon_value(self, skill: str) -> str:
        """H1: the weapon of `skill`, else the last one used, else the default."""
        if self.weapon_for is not None:
            index = self.weapon_for(skill)
        else:
            index = self.character.weapon_index(skill)  # no history at hand
        return NO_WEAPON if index is None else str(index)

    def _follow_skill(self, skill: str) -> None:
        """The weapon follows the skill until the DJ chooses one by hand."""
        select = self.query_one(f"#{self.fid('weapon')}", Select)
        if str(select.value) == self._auto_weapon:
            self._auto_weapon = self._weapon_value(skill)
            select.value = self._auto_weapon

    def fid(self, name: str) -> str:
        return f"{self.prefix}-{name}"

    def compose(self) -> ComposeResult:
        # What depends on the character (their skills, weapons, main arm and the
        # others' names) is written by `fill`, on mount and each time the form is
        # filled again: one way to make the form, new or shown again.
        p = self.fid
        if self.title:
            yield Static(self.title, classes="note")
        kind_row = Horizontal(
            Field(_("Kind"), FormSelect([(_(label), kind) for label, kind in KIND_OPTIONS],
                                        value=self.initial_kind, allow_blank=False,
                                        id=p("kind")), field_id=p("kind")),
            Field("GD", TextInput("0", id=p("gd"), type="integer"), field_id=p("gd"),
                  hint=gd_name(0)),
            classes="row")
        if not self.description_first:
            yield kind_row
        yield Field(_("Description"), TextInput(id=p("description"),
                                                placeholder=_("e.g. shoots Bruno")),
                    field_id=p("description"))
        with Horizontal(classes="row"):
            yield Field(_("Skill"), TextInput(id=p("skill")), field_id=p("skill"))
            yield Field(_("Target value"), TextInput(id=p("target"), type="integer"),
                        field_id=p("target"), hint=_("roll under"))
        yield Field(_("Aimed at (pre-fills affected)"),
                    PickList(id=p("targets")),
                    field_id=p("targets"), hint=_("space toggles"))
        with Horizontal(classes="row"):
            yield Field(_("Weapon (an attack, with targets)"), FormSelect(
                [(_("No weapon"), NO_WEAPON)], value=NO_WEAPON,
                allow_blank=False, id=p("weapon")), field_id=p("weapon"))
            yield Field(_("Uses"), FormSelect(scope_options(None), value="default",
                                              allow_blank=False, id=p("scope")),
                        field_id=p("scope"))
        if self.description_first:
            yield kind_row
        # The extended and opposition fields are built the first time they are shown
        # (_sync_visibility): most actions need neither, and every widget built up front
        # delays the dialog's opening.
        yield Vertical(classes="extended")
        with Horizontal(classes="row"):
            yield Field(_("Opposed"), FormSelect(
                [(_("No (independent)"), NO_OPPOSITION),
                 (_("Direct: only one can succeed"), OppositionMode.DIRECT),
                 (_("Conditioned: one conditions the other"), OppositionMode.CONDITIONED)],
                value=NO_OPPOSITION, allow_blank=False, id=p("opposition")),
                field_id=p("opposition"))
        yield Vertical(classes="opposition")

    def _weapon_options(self) -> list[tuple[str, str]]:
        return [(_("No weapon"), NO_WEAPON),
                *((f"{w.name} (tipo {w.damage_type})", str(i))
                  for i, w in enumerate(self.character.weapons))]

    #: An action added to an open dialog: it fills itself and takes the focus once
    #: mounted. A dialog's first form is filled by the dialog's `show`.
    added = False

    def on_mount(self) -> None:
        if self.added:
            with self.prevent(Input.Changed, Select.Changed, SelectionList.SelectedChanged,
                              SelectionList.SelectionToggled):
                self.fill(self.character, self.others, self.weapon_for)
            self.focus_first()

    def can_refill(self) -> bool:
        """Whether `fill` can make this form as new: not once the DJ opened its
        extended or opposition fields (a new form is built then, as it costs the same)."""
        return not any(self.query_one(f".{name}", Vertical).children
                       for name in ("extended", "opposition"))

    def fill(self, character: Character, others: list[str],
             weapon_for: WeaponFor | None = None) -> None:
        """Write what depends on `character` into the fields, as new: on mount, and for
        the next character when the dialog is shown again (issue 13). Call it inside
        `prevent` of the change messages (Dialog.quietly): nothing here is the DJ's edit."""
        p = self.fid
        self.character = character
        self.others = others
        self._auto_target = ""
        self.weapon_for = weapon_for
        self._auto_weapon = self._weapon_value("")
        skills = list(character.skills)
        kind = self.query_one(f"#{p('kind')}", Select)
        kind.value = self.initial_kind
        refill_inputs(self, {p("gd"): "0", p("description"): "", p("skill"): "",
                             p("target"): ""})
        skill = self.query_one(f"#{p('skill')}", Input)
        skill.suggester = SuggestFromList(skills, case_sensitive=False)
        skill.placeholder = _("e.g. {skill}").format(skill=skills[0]) if skills else ""  # a hint
        self.query_one(f"#field-{p('gd')}", Field).set_hint(gd_name(0))
        refill_picks(self.query_one(f"#{p('targets')}", SelectionList), others)
        refill_select(self.query_one(f"#{p('weapon')}", Select), self._weapon_options(),
                      self._auto_weapon)
        refill_select(self.query_one(f"#{p('scope')}", Select),
                      scope_options(character.main_arm), "default")
        self.query_one(f"#{p('opposition')}", Select).value = NO_OPPOSITION
        for select in self.walk_children(Select):
            select.expanded = False
        self._sync_visibility()

    def on_select_changed(self, event: Select.Changed) -> None:
        self._sync_visibility()

    def _sync_visibility(self) -> None:
        kind = self.query_one(f"#{self.fid('kind')}", Select).value
        opposition = self.query_one(f"#{self.fid('opposition')}", Select).value
        extended = kind == ActionKind.EXTENDED
        opposed = opposition != NO_OPPOSITION and kind != ActionKind.AUTOMATIC
        for shown, name in ((extended, "extended"), (opposed, "opposition")):
            section = self.query_one(f".{name}", Vertical)
            if shown and not section.children:
                section.mount(*(extended_fields(self.fid) if name == "extended"
                                else opposition_fields(self.fid, self.others)))
        self.set_class(extended, "-extended")
        self.set_class(opposed, "-opposed")
        self.set_class(opposed and opposition == OppositionMode.DIRECT, "-direct")

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == self.fid("skill"):
            # Fill the target from the character's skill unless the DJ typed one.
            target = self.query_one(f"#{self.fid('target')}", Input)
            value = self.character.skill_value(event.value.strip())
            if value is not None and target.value in ("", self._auto_target):
                target.value = self._auto_target = str(value)
            self._follow_skill(event.value)
        elif event.input.id == self.fid("gd"):
            try:
                label = gd_name(int(event.value))
            except ValueError:
                label = "?"
            self.query_one(f"#field-{self.fid('gd')}", Field).set_hint(label)

    def focus_first(self, *, scroll_visible: bool = True) -> None:
        # At once (not deferred like Widget.focus): keys typed while the dialog opens
        # wait for the first field to have the focus (Dialog).
        self.screen.set_focus(self.query_one(f"#{self.fid('description')}", Input),
                              scroll_visible=scroll_visible)

    def targets(self) -> list[str]:
        return list(self.query_one(f"#{self.fid('targets')}", SelectionList).selected)

    def _text(self, name: str) -> str:
        return self.query_one(f"#{self.fid(name)}", Input).value

    def build(self) -> Action:
        p = self.fid
        kind = self.query_one(f"#{p('kind')}", Select).value
        assert isinstance(kind, ActionKind)
        description = self._text("description").strip()
        if not description:
            raise FormError(p("description"),
                            _("Describe the action (what the character does)."))
        gd = parse_int(self._text("gd"), p("gd"), "GD", *ask.bounds(Action, "gd"), default=0)
        target_text = self._text("target")
        target = (parse_int(target_text, p("target"), _("Target value"),
                            *ask.bounds(Action, "target"))
                  if target_text.strip() else None)
        skill = self._text("skill").strip()
        extended = None
        if kind is ActionKind.EXTENDED:
            mode = self.query_one(f"#{p('mode')}", Select).value
            assert isinstance(mode, ExtendedMode)
            extended = ExtendedSpec(
                mode=mode,
                duration=parse_int(self._text("duration"), p("duration"), _("Duration"),
                                   *ask.bounds(ExtendedSpec, "duration")),
                successes=parse_int(self._text("successes"), p("successes"), _("Successes"),
                                    *ask.bounds(ExtendedSpec, "successes")),
                interval=parse_int(self._text("interval"), p("interval"), _("Interval"),
                                   *ask.bounds(ExtendedSpec, "interval")),
            )
        opposition = None
        mode_value = self.query_one(f"#{p('opposition')}", Select).value
        if mode_value != NO_OPPOSITION and kind is not ActionKind.AUTOMATIC:
            against = list(self.query_one(f"#{p('against')}", SelectionList).selected)
            if not against:
                raise FormError(p("against"), _("Choose who the action is opposed with."))
            role = self.query_one(f"#{p('role')}", Select).value
            reading = self.query_one(f"#{p('reading')}", Select).value
            opposition = Opposition(mode=OppositionMode(str(mode_value)), against=against,
                                    role=Role(str(role)), reading=Reading(str(reading)))
        if kind is not ActionKind.AUTOMATIC and target is None and skill and \
                self.character.skill_value(skill) is None:
            raise FormError(p("target"), _("{name} has no skill {skill!r}: give the target "
                                           "value.").format(name=self.character.name,
                                                            skill=skill))
        weapon_value = str(self.query_one(f"#{p('weapon')}", Select).value)
        if weapon_value == self._auto_weapon:  # the skill typed just now counts too
            weapon_value = self._weapon_value(skill)
        weapon = (None if weapon_value == NO_WEAPON or kind is ActionKind.AUTOMATIC
                  else self.character.weapons[int(str(weapon_value))])
        scope = SCOPES[str(self.query_one(f"#{p('scope')}", Select).value)]
        try:
            return Action(kind=kind, description=description, skill=skill, target=target,
                          gd=gd, targets=self.targets(), extended=extended,
                          opposition=opposition, weapon=weapon, scope=scope)
        except ValidationError as error:
            field, message = validation_message(error)
            raise FormError(p(field) if field else p("description"), message) from error
