"""The panel's details of one character and of the declarations made: the cursor's
character's whole declaration and conditions (D1, D2, C1, C3), and a line per
declaration already made (issue 39 item 5)."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from sombra_tui.engine import Action, CombatState, ExtendedMode, ReactionMode, ask, format_gd
from sombra_tui.engine.i18n import _, ngettext
from sombra_tui.widgets.formatting import Palette, cut_at_words


def action_detail(action: Action, *, targets: bool = True) -> str:
    """One action in full: 'shoots Bruno [asalto] · Armas cortas 13 · GD +1 · at Bruno ·
    with pistola' (without 'at Bruno' unless `targets`)."""
    parts = [action.summary()]
    if action.skill or action.target is not None:
        value = "" if action.target is None else f" {action.target}"
        label = action.skill or _("target")
        parts.append(f"{label}{value}")
    if action.gd:
        parts.append(f"GD {format_gd(action.gd)}")
    if action.targets and targets:
        parts.append(_("at {names}").format(names=", ".join(action.targets)))
    weapon = ask.attack_with(action)
    if weapon is not None:  # H1: the DJ sees which actions will propose a hit
        parts.append(weapon)
    if action.extended is not None:
        spec = action.extended
        parts.append(ngettext("simple, {duration} round", "simple, {duration} rounds",
                              spec.duration).format(duration=spec.duration)
                     if spec.mode is ExtendedMode.SIMPLE
                     else _("complex, {successes} S every {interval}").format(
                         successes=spec.successes, interval=spec.interval))
    if action.opposition is not None:
        parts.append(ask.opposed_with(action.opposition))
    return " · ".join(parts)


def declaration_detail(state: CombatState, name: str, palette: Palette) -> Text | None:
    """`name`'s whole declaration, every action and who it affects (D1, D2), readable
    whatever the table's width; None when they have not declared."""
    declaration = state.declaration_of(name)
    if declaration is None:
        return None
    text = Text()
    text.append(_("Declaration of {name}").format(name=name), style=f"bold {palette.accent}")
    if declaration.mode is not None:
        mode = (_("reacción: substitutes") if declaration.mode is ReactionMode.SUBSTITUTE
                else _("reacción: combines"))
        text.append(f" ({mode})", style="dim")
    text.append(":")
    if not declaration.actions:
        text.append("\n  " + _("inaction"), style="italic")
    for action in declaration.actions:
        text.append("\n  - ")
        text.append(action_detail(action), style="italic")
    if declaration.affected:
        text.append("\n  " + _("affects: {names}").format(names=", ".join(declaration.affected)),
                    style="dim")
    if name in state.locked:
        text.append("\n  " + _("locked: failed an Alerta TA this round"),
                    style=palette.warning)
    return text


def conditions_detail(state: CombatState, name: str, palette: Palette) -> list[Text]:
    """`name`'s conditions whole, with their asaltos left (C1, C3), which a narrow table
    folds (issue 39 item 5); nothing without conditions."""
    conditions = ask.row(state, name).conditions
    if not conditions:
        return []
    return [Text(_("Conditions of {name}: {conditions}").format(
        name=name, conditions=", ".join(dict.fromkeys(  # a bleeding wound each: said once
            condition.label for condition in conditions))),
        style=palette.warning)]


def wrapped_height(lines: list[Text], width: int) -> int:
    """How many lines `lines` take wrapped at `width` (a no_wrap line takes one)."""
    console = Console(width=max(width, 1))
    return sum(1 if line.no_wrap else len(line.wrap(console, width)) for line in lines)


def declared_line(state: CombatState, name: str, width: int = 0) -> Text:
    """'  Ana: dispara … · at Bruno': `name`'s declaration on one line of `width`, its
    words cut at a word boundary and its targets kept whole (issue 39 item 5)."""
    declaration = state.declaration_of(name)
    assert declaration is not None
    # Short labels (issue 39 item 1): "Guar.3" stays whole where "Guardia de…" would not.
    labels = ask.short_labels(state)
    line = Text(f"  {labels.get(name, name)}: ", style="bold", no_wrap=True,
                overflow="ellipsis")
    named = [labels.get(target, target) for target in dict.fromkeys(
        target for action in declaration.actions for target in action.targets)]
    tail = " · " + _("at {names}").format(names=", ".join(named)) if named else ""
    head = "; ".join(action_detail(action, targets=False)
                     for action in declaration.actions) or _("inaction")
    if width > 0:
        head = cut_at_words(head, width - line.cell_len - cell_len(tail))
    line.append(head + tail, style="italic")
    return line


def declared_lines(state: CombatState, declared: list[str], room: int | None,
                   width: int = 0) -> list[Text]:
    """'Declared:' and a line per declaration already made (the latest last), each cut
    at a word to one line of `width`, its targets kept (the table's cursor shows any of
    them whole). With `room` lines left in the panel, only the latest that fit are
    listed, and the rest counted."""
    shown = declared[-ask.MAX_WAITING:]
    if room is not None:
        shown = declared[-max(1, room - 2):] if len(declared) > room - 1 else declared
    lines = [Text(_("Declared:"), style="bold")]
    lines.extend(declared_line(state, name, width) for name in shown)
    if len(declared) > len(shown):
        earlier = len(declared) - len(shown)
        lines.append(Text(_("  (and {count} earlier)").format(count=earlier), style="dim"))
    return lines

