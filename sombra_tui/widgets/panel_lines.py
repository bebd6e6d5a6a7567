"""The panel's lines, drawn from the engine's one reading of the panel (ask.panel, issue
36 item 3), which the players' view filters: who declares now, who is next, the pending
reacción prompts with their GD breakdown (D4, D6, D9, D11), and the steps left while
resolving (P3, P4, H1, H10, C1)."""

from __future__ import annotations

from collections.abc import Mapping

from rich.text import Text

from sombra_tui.engine import CombatState, Phase, StepStatus, ask, format_gd
from sombra_tui.engine.i18n import _, ngettext
from sombra_tui.widgets.formatting import Palette
from sombra_tui.widgets.next_hint import KeyNames, next_step_hint
from sombra_tui.widgets.panel_details import (
    conditions_detail,
    declaration_detail,
    declared_lines,
    wrapped_height,
)


def prompt_lines(prompt: ask.PanelPrompt, *, top: bool, palette: Palette) -> Text:
    """'Ana - Alerta 14 - GD +2 = substitute 1 + 1 earlier reaction' and its combine twin."""
    text = Text()
    text.append("▶ " if top else "  ", style=f"bold {palette.accent}")
    text.append(prompt.reactor, style="bold" if top else "")
    text.append((_(" - contrarreacción to {author}: ") if prompt.counter
                 else _(" - reacción to {author}: ")).format(author=prompt.author))
    text.append(prompt.declaration, style="italic")
    if prompt.forced:
        text.append(" [DJ]", style=palette.warning)
    text.append(f"\n    {prompt.reactor} - Alerta {prompt.alerta} - ",
                style="dim" if not top else "")
    text.append(_("substituting {gd}").format(gd=prompt.substitute))
    text.append(" | " + _("combining {gd}").format(gd=prompt.combine), style="dim")
    return text


def pending_line(panel: ask.Panel[ask.NextStep], palette: Palette) -> Text | None:
    """The open proposal the next key settles (H1, H7, H11), marked "▶" as the part
    the DJ acts on now: "▶ Pending: Carla's hit on Iker". None when none is open. It
    reads the panel, which holds ask.next_step, as the hint and the table's marker do:
    while a hit waits, the panel never says that someone else acts now."""
    if panel.pending is None:
        return None
    line = Text("▶ ", style=f"bold {palette.accent}")
    line.append(_("Pending: {what}").format(what=panel.pending), style="bold")
    return line


def setup_line(state: CombatState, named: KeyNames) -> Text:
    return Text(ngettext(
        "{count} character. Add ({add}, or '4 Matón' for several), duplicate "
        "({duplicate}), edit or remove characters, set the encounter ({settings}), then "
        "start.",
        "{count} characters. Add ({add}, or '4 Matón' for several), duplicate "
        "({duplicate}), edit or remove them, set the encounter ({settings}), then start.",
        len(state.characters)).format(count=len(state.characters),
                                      add=named("add_character"),
                                      duplicate=named("duplicate_character"),
                                      settings=named("settings")))


def declaring_lines(parts: list[Text], state: CombatState, panel: ask.Panel[ask.NextStep],
                    palette: Palette, selected: str | None,
                    fit: tuple[int, int] | None) -> None:
    """The declaration phase's lines, added to `parts` (the hint's): who declares now
    and next (D1, I3), the prompts waiting (D4), the cursor's character's declaration
    and conditions, and the declarations made, as many as fit (issue 39 item 5)."""
    line = Text(_("Declares next: ") if panel.pending is not None else _("Declaring now: "),
                style="bold")
    if panel.declarer:
        line.append(panel.declarer, style=f"bold {palette.accent}")
    elif panel.prompts:
        line.append(_("(those who react first)"), style="dim")
    else:
        line.append(_("everyone has declared"), style="dim")
    parts.append(line)
    if panel.waiting:
        more = f" … (+{panel.more_waiting})" if panel.more_waiting else ""
        parts.append(Text(_("Next: {names}").format(
            names=", ".join(panel.waiting) + more), style="dim"))
    if panel.prompts:
        # Before the rest: the GD breakdown must stay in sight on a small terminal.
        parts.insert(1, Text(_("Waiting to react ({count}):").format(
            count=len(panel.prompts)), style="bold"))
        for index, prompt in enumerate(panel.prompts):
            parts.insert(2 + index, prompt_lines(prompt, top=index == 0, palette=palette))
    elif panel.reaccion_off:
        parts.append(Text(_("Reacción off: no prompts."), style="dim"))
    detail = declaration_detail(state, selected, palette) if selected else None
    if detail is not None:
        parts.append(detail)
    if selected:
        parts.extend(conditions_detail(state, selected, palette))
    declared = [name for name in panel.declared if name != selected]
    if declared:
        width, height = fit if fit is not None else (0, 0)
        room = height - wrapped_height(parts, width) if width > 0 and height > 0 else None
        parts.extend(declared_lines(state, declared, room, width))


#: A step's mark by its status ("▶" for a step of the group acting now).
STEP_MARKS = {StepStatus.DONE: "✓", StepStatus.SKIPPED: "–", StepStatus.PENDING: "·"}


def step_line(step: ask.PanelStep, palette: Palette) -> Text:
    """'▶ Ana: shoots Bruno, with pistola  (Armas 13, GD +1)': a step with its mark, why
    it cannot act (P4), the value and GD its TA will carry (H10, C1) or its outcome."""
    mark = "▶" if step.acting else STEP_MARKS[step.status]
    pending = step.status is StepStatus.PENDING
    line = Text(f"{mark} {step.character}: {step.what}", style="" if pending else "dim")
    if step.unable is not None:  # P4: marked now, skipped when its turn comes
        line.append(f"  ({step.unable})", style=palette.warning)
    elif step.target is not None and step.gd is not None:
        line.append(f"  ({step.skill or _('target')} {step.target}, "
                    f"GD {format_gd(step.gd)})", style="dim")
    if step.success is not None:
        outcome = _("success") if step.success else _("failure")
        line.append(f"  {outcome}", style=palette.success if step.success else palette.error)
    return line


def resolving_lines(parts: list[Text], state: CombatState, panel: ask.Panel[ask.NextStep],
                    palette: Palette, selected: str | None, named: KeyNames) -> None:
    """A resolution phase's lines, added to `parts` (the hint's): who acts (P3), the
    steps with the cursor's (or the acting) character's conditions under its first
    step, the marks after the group (P4, H11), and that character's declaration."""
    if panel.group:
        # While a proposal is open, the group acts once it is settled (H1).
        title = (_("Acting next: {names}") if panel.pending is not None
                 else _("Acting now: {names}")).format(names=", ".join(panel.group))
        if len(panel.group) > 1:
            title += "  " + _("(simultaneous: effects after the group)")
        parts.append(Text(title, style="bold"))
    shown = selected or (panel.group[0] if panel.group else None)
    # The conditions the table folds (issue 39 item 5), under the character's step
    # (kept in sight on a small terminal), else under the title.
    conditions = conditions_detail(state, shown, palette) if shown else []
    at = under_title = len(parts)
    if panel.before:
        parts.append(Text("  " + ngettext("({count} earlier step)", "({count} earlier steps)",
                                          panel.before).format(count=panel.before),
                          style="dim"))
    for step in panel.steps:
        parts.append(step_line(step, palette))
        if step.character == shown and at == under_title:
            at = len(parts)  # under its first step shown
    if panel.after:
        parts.append(Text("  " + ngettext("(+{count} more step)", "(+{count} more steps)",
                                          panel.after).format(count=panel.after),
                          style="dim"))
    parts[at:at] = conditions
    if panel.marks_after:
        parts.append(Text(_("After the group: {marks}").format(
            marks=", ".join(panel.marks_after)), style=palette.warning))
    if panel.nothing_to_resolve:
        parts.insert(1, Text(_("Nothing to resolve in this phase: {next} moves on.").format(
            next=named.next), style="dim"))
    detail = declaration_detail(state, shown, palette) if shown else None
    if detail is not None:
        parts.append(detail)


def queue_lines(state: CombatState, palette: Palette, selected: str | None = None,
                keymap: Mapping[str, str] | None = None,
                fit: tuple[int, int] | None = None) -> list[Text]:
    """The panel's paragraphs, top to bottom, from the engine's one reading of the panel
    (ask.panel). The hint of the next key comes first, so it stays in sight on a small
    terminal; `selected` (the table's cursor) gets its whole declaration shown. Keys
    are named as in force (`keymap`: the DJ's rebindings). `fit` (the panel's width
    and height) keeps the list of declarations made to what fits under the rest (a
    reacción's prompts come first)."""
    panel = ask.panel(state)
    named = KeyNames(keymap or {})
    # The hint first: whatever follows may scroll out of a small panel (80x24).
    parts: list[Text] = [Text(next_step_hint(state, keymap), style=f"bold {palette.accent}")]
    if panel.phase is Phase.SETUP:
        parts.append(setup_line(state, named))
    elif panel.phase is Phase.DECLARATION:
        declaring_lines(parts, state, panel, palette, selected, fit)
    elif panel.phase in (Phase.INSTANT, Phase.ROUND, Phase.EXTENDED):
        resolving_lines(parts, state, panel, palette, selected, named)
    else:
        parts.append(Text(_("Asalto {round} is over. Change initiatives now if wounds or "
                            "state call for it.").format(round=panel.round)))
    pending = pending_line(panel, palette)
    if pending is not None:  # right under the hint: what the next key settles
        parts.insert(1, pending)
    return parts


def current_line(lines: list[Text], width: int) -> tuple[int, int]:
    """Where the part the DJ acts on now is in `lines` wrapped at `width`: its first
    line and how many lines it takes (the top reacción prompt, or the first step
    acting now: the parts marked "▶"); (0, 1) when no part is marked."""
    for index, line in enumerate(lines):
        if line.plain.lstrip().startswith("▶"):
            return wrapped_height(lines[:index], width), wrapped_height([line], width)
    return 0, 1
