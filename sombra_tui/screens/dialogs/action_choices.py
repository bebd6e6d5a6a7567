"""The choices of an action's form (kind, what a TA uses) and its sections shown on
demand: an extended action's fields (E2, E3) and an opposition's (O2, O3)."""

from __future__ import annotations

from collections.abc import Callable

from textual.containers import Horizontal
from textual.widget import Widget

from sombra_tui.engine import ActionKind, ActionScope, BodySide, ExtendedMode, Reading, Role
from sombra_tui.engine.i18n import N_, _
from sombra_tui.screens.dialogs.fields import Field, FormSelect, PickList, TextInput

KIND_OPTIONS = [
    (N_("Round action (asalto)"), ActionKind.ROUND),
    (N_("Instant action"), ActionKind.INSTANT),
    (N_("Automatic (no roll)"), ActionKind.AUTOMATIC),
    (N_("Extended action"), ActionKind.EXTENDED),
]
NO_OPPOSITION = "none"
NO_WEAPON = "none"
#: H10: what an action uses; "default" is physical with the main arm (no scope stored).
SCOPES: dict[str, ActionScope | None] = {
    "default": None,
    N_("left arm"): ActionScope(arms=frozenset({BodySide.LEFT})),
    N_("right arm"): ActionScope(arms=frozenset({BodySide.RIGHT})),
    N_("both arms"): ActionScope(arms=frozenset({BodySide.LEFT, BodySide.RIGHT})),
    N_("legs"): ActionScope(legs=frozenset({BodySide.LEFT, BodySide.RIGHT})),
    N_("no limb"): ActionScope(),
    N_("not physical"): ActionScope(physical=False),
}


def scope_options(main_arm: BodySide | None) -> list[tuple[str, str]]:
    """H10's choices of what a TA uses, the default naming the character's main arm."""
    default = (_("physical, main arm ({side})").format(side=_(main_arm.value))
               if main_arm is not None else _("physical, main arm"))
    return [(default, "default"), *((_(name), name) for name in SCOPES if name != "default")]


def extended_fields(p: Callable[[str], str]) -> list[Widget]:
    """E2, E3: the fields of an extended action (`p`: a field's id in its form)."""
    return [
        Horizontal(Field(_("Extended mode"), FormSelect(
            [(_("Simple: one TA after N rounds"), ExtendedMode.SIMPLE),
             (_("Complex: S successes, a TA every K rounds"), ExtendedMode.COMPLEX)],
            value=ExtendedMode.SIMPLE, allow_blank=False, id=p("mode")),
            field_id=p("mode")), classes="row"),
        Horizontal(
            Field(_("Duration N"), TextInput("2", id=p("duration"), type="integer"),
                  field_id=p("duration")),
            Field(_("Successes S"), TextInput("3", id=p("successes"), type="integer"),
                  field_id=p("successes")),
            Field(_("Interval K"), TextInput("1", id=p("interval"), type="integer"),
                  field_id=p("interval")),
            classes="row"),
    ]


def opposition_fields(p: Callable[[str], str], others: list[str]) -> list[Widget]:
    """O2, O3: who the action is opposed with, its role and its reading."""
    return [
        Field(_("Opposed with"), PickList(
            *[(name, name) for name in others], id=p("against")),
            field_id=p("against")),
        Horizontal(
            Field(_("This action"), FormSelect(
                [(_("conditions the others (rolls first)"), Role.CONDITIONING),
                 (_("is conditioned (rolls second)"), Role.CONDITIONED)],
                value=Role.CONDITIONING, allow_blank=False, id=p("role")),
                field_id=p("role")),
            Field(_("Reading"), FormSelect(
                [(_("generic"), Reading.GENERIC), (_("attack vs dodge"), Reading.ATTACK),
                 (_("stealth vs perception"), Reading.STEALTH)],
                value=Reading.GENERIC, allow_blank=False, id=p("reading")),
                field_id=p("reading")),
            # O2 has neither: all roll, the best wins (hidden for a direct opposition).
            classes="row conditioned-only"),
    ]
