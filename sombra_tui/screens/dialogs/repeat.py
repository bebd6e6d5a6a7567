"""The declaration form repeats the character's last declaration (issue 39 item 2).

One key writes the character's last own declaration (ask.last_declaration: D1's, not a
reacción) into the form, every action with its kind, description, skill, target value,
GD, targets, weapon, what it uses, extended parameters and opposition, and the affected
list (D2); the summary line then says what Enter sends, and the DJ may change anything
first. A name no longer in the combat is left out of the lists.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.containers import Vertical
from textual.widget import Widget
from textual.widgets import Input, Select, SelectionList

from sombra_tui.engine import Action, ActionKind, Character, Weapon
from sombra_tui.screens.dialogs.action_choices import (
    NO_OPPOSITION,
    NO_WEAPON,
    SCOPES,
    extended_fields,
    opposition_fields,
)

if TYPE_CHECKING:
    from sombra_tui.screens.dialogs.action_form import ActionForm

#: How many refreshes the form's values are written over (once more after all are
#: written: a list just built may still set its own first value).
PASSES = 6
#: Every change message a written value would post (the form's own reactions to the
#: DJ's typing: a skill's target and weapon, the affected pre-fill, are not wanted here).
CHANGES = (Input.Changed, Select.Changed, SelectionList.SelectedChanged,
           SelectionList.SelectionToggled)


def weapon_value(character: Character, weapon: Weapon | None) -> str:
    """The weapon list's value for `weapon`: its index on the sheet (by its name when
    the sheet's weapon was edited since), or no weapon."""
    if weapon is None:
        return NO_WEAPON
    matches: tuple[Callable[[Weapon], bool], ...] = (
        lambda w: w == weapon, lambda w: w.name == weapon.name)
    for match in matches:
        index = next((i for i, w in enumerate(character.weapons) if match(w)), None)
        if index is not None:
            return str(index)
    return NO_WEAPON


def action_values(form: ActionForm, action: Action, others: list[str]) -> dict[str, Any]:
    """The fields of `form` (by widget id) that say `action`."""
    p = form.fid
    scope = next((key for key, value in SCOPES.items() if value == action.scope), "default")
    values: dict[str, Any] = {
        p("kind"): action.kind, p("gd"): str(action.gd), p("description"): action.description,
        p("skill"): action.skill,
        p("target"): "" if action.target is None else str(action.target),
        p("targets"): [name for name in action.targets if name in others],
        p("weapon"): weapon_value(form.character, action.weapon), p("scope"): scope,
        p("opposition"): NO_OPPOSITION if action.opposition is None
        else action.opposition.mode}
    if action.extended is not None:
        spec = action.extended
        values |= {p("mode"): spec.mode, p("duration"): str(spec.duration),
                   p("successes"): str(spec.successes), p("interval"): str(spec.interval)}
    if action.opposition is not None:
        opposition = action.opposition
        values |= {p("against"): [name for name in opposition.against if name in others],
                   p("role"): opposition.role, p("reading"): opposition.reading}
    return values


async def build_sections(form: ActionForm, action: Action) -> None:
    """Build (and wait for) the sections `action` needs that the form has not shown yet:
    an extended action's fields, an opposition's (the form builds them on demand)."""
    sections: tuple[tuple[bool, str, Callable[[], list[Widget]]], ...] = (
        (action.extended is not None, "extended", lambda: extended_fields(form.fid)),
        (action.opposition is not None and action.kind is not ActionKind.AUTOMATIC,
         "opposition", lambda: opposition_fields(form.fid, form.others)))
    for wanted, name, fields in sections:
        section = form.query_one(f".{name}", Vertical)
        if wanted and not section.children:
            await section.mount(*fields())


def ready(widget: Widget) -> bool:
    """Mounted with all its parts (a list just shown builds its own widgets after)."""
    return widget.is_mounted and all(part.is_mounted for part in widget.walk_children(Widget))


def write(form: ActionForm, values: dict[str, Any]) -> dict[str, Any]:
    """Write `values` into `form`'s fields, quietly (no change message: the form's own
    reactions to typing stay out); the values whose fields are not built yet."""
    found = {widget.id: widget for widget in form.walk_children(Widget)
             if widget.id and ready(widget)}
    missing = {}
    with form.prevent(*CHANGES):
        for key, value in values.items():
            widget = found.get(key)
            if isinstance(widget, Input | Select):
                widget.value = value
            elif isinstance(widget, SelectionList):
                widget.deselect_all()
                for name in value:
                    widget.select(name)
            else:
                missing[key] = value
        # The sections the kind and opposition ask for (built on their change, quieted
        # here), and the weapon as written is the DJ's choice: it no longer follows the
        # skill (ActionForm's own bookkeeping, which its module has no room to wrap).
        form._sync_visibility()
        form._auto_weapon = ""
    return missing
