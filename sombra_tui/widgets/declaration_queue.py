"""Declaration queue panel: who declares now, who is next, the pending reaction prompts
with their GD breakdown (D4, D6, D9, D11), and the steps left while resolving."""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len
from rich.console import Console, Group
from rich.text import Span, Text
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual, visualize

from sombra_tui import keys
from sombra_tui.engine import (
    Action,
    CombatState,
    ExtendedMode,
    Phase,
    Prompt,
    PromptKind,
    ProposalKind,
    ReactionMode,
    Step,
    StepStatus,
    ask,
    format_gd,
    i18n,
    unable_reason,
)
from sombra_tui.engine.ask import NextKind, next_step
from sombra_tui.engine.i18n import N_, _, ngettext
from sombra_tui.widgets.formatting import Palette, cut_at_words
from sombra_tui.widgets.steady import SteadyVirtualSize
from sombra_tui.widgets.theme import FollowsTheme


def prompt_lines(state: CombatState, prompt: Prompt, *, top: bool, palette: Palette) -> Text:
    """'Ana - Alerta 14 - GD +2 = substitute 1 + 1 earlier reaction' and its combine twin."""
    declaration = state.declarations[prompt.declaration_id]
    character = state.character(prompt.reactor)
    alerta = character.alerta if character is not None else 0
    text = Text()
    text.append("▶ " if top else "  ", style=f"bold {palette.accent}")
    text.append(prompt.reactor, style="bold" if top else "")
    text.append((_(" - contrarreacción to {author}: ") if prompt.kind is PromptKind.COUNTER
                 else _(" - reacción to {author}: ")).format(author=declaration.author))
    text.append(declaration.summary(), style="italic")
    if prompt.forced:
        text.append(" [DJ]", style=palette.warning)
    substitute = ask.alerta_gd(state, prompt, ReactionMode.SUBSTITUTE)
    combine = ask.alerta_gd(state, prompt, ReactionMode.COMBINE)
    text.append(f"\n    {prompt.reactor} - Alerta {alerta} - ", style="dim" if not top else "")
    text.append(_("substituting {gd}").format(gd=substitute.describe()))
    text.append(" | " + _("combining {gd}").format(gd=combine.describe()), style="dim")
    return text


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


def next_step_hint(state: CombatState, keymap: Mapping[str, str] | None = None) -> str:
    """What the 'next' key (space unless the DJ rebound it) does now, naming the keys in
    force (`keymap`: the DJ's rebindings). It reads the engine's one answer (ask.next_step),
    as the key, the table's marker and the footer do: they cannot disagree."""
    named = KeyNames(keymap or {})
    step = next_step(state)
    kind, proposal = step.kind, step.proposal
    if kind is NextKind.SETTLE_HIT and proposal is not None:
        if proposal.attacker is None:
            return _("{next}: settle the hit on {target}").format(
                next=named.next, target=proposal.character)
        return _("{next}: settle {attacker}'s hit on {target}").format(
            next=named.next, attacker=proposal.attacker, target=proposal.character)
    if kind is NextKind.SETTLE_THRESHOLD and proposal is not None:
        return i18n.said_of(ask.gender(state, proposal.character),
                            N_("{next}: {condition} for {name}? (confirm or decline)"),
                            next=named.next, condition=proposal.condition,
                            name=proposal.character)
    if kind is NextKind.SETTLE_PREVENT and proposal is not None:
        return i18n.said_of(ask.gender(state, proposal.character),
                            N_("{next}: mark {name} prevented? ({condition})"),
                            next=named.next, name=proposal.character,
                            condition=proposal.condition)
    if kind is NextKind.ADD_CHARACTER:
        return _("{add}: add a character").format(add=named("add_character"))
    if kind is NextKind.START:
        return _("{next}: start asalto 1").format(next=named.next)
    if kind is NextKind.REACT and step.prompt is not None:
        # The same word as the prompt's line below: a counter prompt is a
        # contrarreacción ("counter-reaction" in English), not a plain reaction.
        hint = (_("{next}: {reactor}'s contrarreacción to {author} ({decline}: does not "
                  "react)")
                if step.counter
                else _("{next}: {reactor} reacts to {author} ({decline}: does not react)"))
        return hint.format(next=named.next, reactor=step.prompt.reactor, author=step.author,
                           decline=named("decline"))
    if kind is NextKind.DECLARE:
        return _("{next}: {name} declares").format(next=named.next, name=step.who[0])
    if kind is NextKind.TO_INSTANT:
        return _("{next}: resolve the instant actions").format(next=named.next)
    if kind is NextKind.NEXT_ROUND:
        return _("{next}: start asalto {round}").format(next=named.next, round=step.round)
    if kind is NextKind.RESOLVE:
        return _("{next}: resolve {name}'s action ({roll} rolls, {type} types dice)").format(
            next=named.next, name=step.group[0].character, roll=named("roll"),
            type=named("type_dice"))
    return {Phase.INSTANT: _("{next}: round actions"),
            Phase.ROUND: _("{next}: extended actions"),
            Phase.EXTENDED: _("{next}: end the asalto")}[step.phase].format(next=named.next)


def pending_line(state: CombatState, palette: Palette) -> Text | None:
    """The open proposal the next key settles (H1, H7, H11), marked "▶" as the part
    the DJ acts on now: "▶ Pending: Carla's hit on Iker". None when none is open. It
    reads ask.next_step, as the hint and the table's marker do: while a hit waits,
    the panel never says that someone else acts now."""
    step = next_step(state)
    proposal = step.proposal
    if proposal is None:
        return None
    if proposal.kind is ProposalKind.HIT:
        what = (_("the hit on {target}").format(target=proposal.character)
                if proposal.attacker is None
                else _("{attacker}'s hit on {target}").format(attacker=proposal.attacker,
                                                              target=proposal.character))
    else:
        what = str(ask.proposal_question(proposal, state))
    line = Text("▶ ", style=f"bold {palette.accent}")
    line.append(_("Pending: {what}").format(what=what), style="bold")
    return line


class KeyNames:
    """The keys in force as the DJ reads them in a sentence (their rebindings applied)."""

    def __init__(self, keymap: Mapping[str, str]) -> None:
        self.keymap = keymap
        self.next = self("next_step")

    def __call__(self, binding_id: str) -> str:
        return keys.first_key_in_force(binding_id, self.keymap)


#: How a pending mark reads in the panel (SetMark's values).
MARK_WORDS = {"out": N_("out"), "prevented": N_("prevented"), "back": N_("back"),
              "unprevent": N_("no longer prevented")}

#: A big encounter lists only this many names after "Next" and this many steps
#: (a few done ones, the acting group and what follows), with counts of the rest: the
#: panel stays readable, and redrawing it after each command stays quick.
MAX_WAITING = 12
MAX_STEPS = 24
STEPS_BEFORE = 4


def steps_window(state: CombatState) -> tuple[list[Step], int, int]:
    """The steps to list, and how many are left out before and after them."""
    steps = state.steps
    if len(steps) <= MAX_STEPS:
        return steps, 0, 0
    first = next((i for i, step in enumerate(steps) if step.status is StepStatus.PENDING),
                 len(steps))
    start = max(0, min(first - STEPS_BEFORE, len(steps) - MAX_STEPS))
    end = start + MAX_STEPS
    while first < len(steps) and end < len(steps) and \
            steps[end].group == steps[first].group:  # never cut the acting group
        end += 1
    return steps[start:end], start, len(steps) - end


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
    line = Text(f"  {name}: ", style="bold", no_wrap=True, overflow="ellipsis")
    named = list(dict.fromkeys(target for action in declaration.actions
                               for target in action.targets))
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
    shown = declared[-MAX_WAITING:]
    if room is not None:
        shown = declared[-max(1, room - 2):] if len(declared) > room - 1 else declared
    lines = [Text(_("Declared:"), style="bold")]
    lines.extend(declared_line(state, name, width) for name in shown)
    if len(declared) > len(shown):
        earlier = len(declared) - len(shown)
        lines.append(Text(_("  (and {count} earlier)").format(count=earlier), style="dim"))
    return lines


def queue_lines(state: CombatState, palette: Palette, selected: str | None = None,
                keymap: Mapping[str, str] | None = None,
                fit: tuple[int, int] | None = None) -> list[Text]:
    """The panel's paragraphs, top to bottom. The hint of the next key comes first, so
    it stays in sight on a small terminal; `selected` (the table's cursor) gets its
    whole declaration shown. Keys are named as in force (`keymap`: the DJ's rebindings).
    `fit` (the panel's width and height) keeps the list of declarations made to what
    fits under the rest (a reacción's prompts come first)."""
    named = KeyNames(keymap or {})
    # The hint first: whatever follows may scroll out of a small panel (80x24).
    parts: list[Text] = [Text(next_step_hint(state, keymap), style=f"bold {palette.accent}")]
    pending = pending_line(state, palette)
    phase = state.phase
    if phase is Phase.SETUP:
        parts.append(Text(ngettext(
            "{count} character. Add ({add}, or '4 Matón' for several), duplicate "
            "({duplicate}), edit or remove characters, set the encounter ({settings}), then "
            "start.",
            "{count} characters. Add ({add}, or '4 Matón' for several), duplicate "
            "({duplicate}), edit or remove them, set the encounter ({settings}), then start.",
            len(state.characters)).format(count=len(state.characters),
                                          add=named("add_character"),
                                          duplicate=named("duplicate_character"),
                                          settings=named("settings"))))
    elif phase is Phase.DECLARATION:
        declarer = state.current_declarer
        waiting = state.declarers_after(declarer)
        line = Text(_("Declares next: ") if pending is not None else _("Declaring now: "),
                    style="bold")
        if declarer:
            line.append(declarer, style=f"bold {palette.accent}")
        elif state.prompts:
            line.append(_("(those who react first)"), style="dim")
        else:
            line.append(_("everyone has declared"), style="dim")
        parts.append(line)
        if waiting:
            more = (f" … (+{len(waiting) - MAX_WAITING})" if len(waiting) > MAX_WAITING
                    else "")
            parts.append(Text(_("Next: {names}").format(
                names=", ".join(waiting[:MAX_WAITING]) + more), style="dim"))
        if state.prompts:
            # Before the rest: the GD breakdown must stay in sight on a small terminal.
            parts.insert(1, Text(_("Waiting to react ({count}):").format(
                count=len(state.prompts)), style="bold"))
            for index, prompt in enumerate(reversed(state.prompts)):
                parts.insert(2 + index, prompt_lines(state, prompt, top=index == 0,
                                                     palette=palette))
        elif not state.settings.reaccion:
            parts.append(Text(_("Reacción off: no prompts."), style="dim"))
        detail = declaration_detail(state, selected, palette) if selected else None
        if detail is not None:
            parts.append(detail)
        if selected:
            parts.extend(conditions_detail(state, selected, palette))
        declared = [name for name in state.declaration_order
                    if name in state.current and name != selected]
        if declared:
            width, height = fit if fit is not None else (0, 0)
            room = height - wrapped_height(parts, width) if width > 0 and height > 0 \
                else None
            parts.extend(declared_lines(state, declared, room, width))
    elif phase in (Phase.INSTANT, Phase.ROUND, Phase.EXTENDED):
        group = state.current_group()
        if group:
            names = list(dict.fromkeys(step.character for step in group))
            # While a proposal is open, the group acts once it is settled (H1).
            title = (_("Acting next: {names}") if pending is not None
                     else _("Acting now: {names}")).format(names=", ".join(names))
            if len(names) > 1:
                title += "  " + _("(simultaneous: effects after the group)")
            parts.append(Text(title, style="bold"))
        shown = selected or (group[0].character if group else None)
        # The conditions the table folds (issue 39 item 5), under the character's step
        # (kept in sight on a small terminal), else under the title.
        conditions = conditions_detail(state, shown, palette) if shown else []
        at = under_title = len(parts)
        acting = {id(step) for step in group} if pending is None else set()
        steps, before, after = steps_window(state)
        if before:
            parts.append(Text("  " + ngettext("({count} earlier step)", "({count} earlier steps)",
                                              before).format(count=before),
                              style="dim"))
        for step in steps:
            action = state.step_action(step) if state.character(step.character) else None
            what = action.summary() if action is not None else ""
            weapon = ask.attack_with(action) if action is not None else None
            if weapon is not None:  # H1: a step that will propose a hit says with what
                what = f"{what}, {weapon}"
            mark = {StepStatus.DONE: "✓", StepStatus.SKIPPED: "–",
                    StepStatus.PENDING: "▶" if id(step) in acting else "·"}[step.status]
            line = Text(f"{mark} {step.character}: {what}",
                        style="dim" if step.status is not StepStatus.PENDING else "")
            unable = (unable_reason(state, step.character)
                      if step.status is StepStatus.PENDING else None)
            if unable is not None:  # P4: marked now, skipped when its turn comes
                line.append(f"  ({unable})", style=palette.warning)
            elif action is not None and step.status is StepStatus.PENDING:
                # The value and GD the TA will carry (the sheet's skill; wounds and
                # conditions, H10, C1), as the engine will roll it.
                preview = ask.step_preview(state, step)
                if preview.target is not None:
                    line.append(f"  ({action.skill or _('target')} {preview.target}, "
                                f"GD {format_gd(preview.gd.total)})", style="dim")
            if step.result is not None:
                outcome = _("success") if step.result.success else _("failure")
                line.append(f"  {outcome}", style=palette.success if step.result.success
                            else palette.error)
            parts.append(line)
            if step.character == shown and at == under_title:
                at = len(parts)  # under its first step shown
        if after:
            parts.append(Text("  " + ngettext("(+{count} more step)", "(+{count} more steps)",
                                              after).format(count=after),
                              style="dim"))
        parts[at:at] = conditions
        if state.pending_marks:
            parts.append(Text(_("After the group: {marks}").format(marks=", ".join(
                f"{m.character} "
                f"{i18n.said_of(ask.gender(state, m.character), MARK_WORDS.get(m.mark, m.mark))}"
                for m in state.pending_marks)), style=palette.warning))
        if pending is None and next_step(state).kind is NextKind.NEXT_PHASE:
            parts.insert(1, Text(_("Nothing to resolve in this phase: {next} moves on.").format(
                next=named.next), style="dim"))
        detail = declaration_detail(state, shown, palette) if shown else None
        if detail is not None:
            parts.append(detail)
    else:
        parts.append(Text(_("Asalto {round} is over. Change initiatives now if wounds or state "
                            "call for it.").format(round=state.round)))
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


class DeclarationQueue(SteadyVirtualSize, FollowsTheme, ScrollView):
    """The panel's lines, scrolling inside the panel (issue 24): the widget fills its
    panel whatever it shows, so a command that changes its lines repaints it without
    a layout pass of the screen (a Static of the lines' height made the screen lay out
    again each time they outgrew a small panel, at 80x24 after most commands). It keeps
    the part the DJ acts on now in view, with what fits of the lines above it."""

    # Its scrollbar always shows: one that came and went with the lines would change
    # their width, and each time the screen would be laid out again. (It stands for
    # the padding on the right: the lines keep the width they had in a panel with room.)
    DEFAULT_CSS = """
    DeclarationQueue {
        height: 1fr; padding: 0 0 0 1; overflow-x: hidden; overflow-y: scroll;
        scrollbar-size-vertical: 1;
    }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.palette = Palette()
        self._shown: list[tuple[str, str, list[Span]]] = []
        self._lines: list[Text] = []
        self._strips: list[Strip] = []
        #: How many of the first lines (the hint's) stay put when the panel scrolls.
        self._pinned = 0
        #: The state last shown, painted again when the theme's colours change.
        self._state: CombatState | None = None
        self._selected: str | None = None
        #: The DJ's rebindings (the screen sets them): hints name the keys in force.
        self.keymap: Mapping[str, str] = {}

    @property
    def content(self) -> Group:
        """What the panel shows (its lines, unwrapped)."""
        return Group(*self._lines)

    def repaint_palette(self) -> None:
        if self._state is not None:
            self.show_state(self._state, self._selected)

    def fit(self) -> tuple[int, int]:
        """The width of the lines and the panel's room for them (the widget's
        viewport); 0 before the first layout."""
        region = self.scrollable_content_region
        return region.width, region.height

    def on_resize(self) -> None:
        if self._state is not None:  # the lines wrap (and the declarations fit) anew
            self._shown = []
            self.show_state(self._state, self._selected)

    def show_state(self, state: CombatState, selected: str | None = None) -> None:
        self._state, self._selected = state, selected
        width, room = self.fit()
        lines = queue_lines(state, self.palette, selected, self.keymap, fit=(width, room))
        # Many commands leave the queue as it was. (Text's own == ignores its style.)
        key = [(line.plain, str(line.style), line.spans) for line in lines]
        if key == self._shown:
            return
        self._shown = key
        self._lines = lines
        if width <= 0:  # not laid out yet: its first size shows them (on_resize)
            return
        self._strips = Visual.to_strips(self, visualize(self, Group(*lines)), width, None,
                                        self.visual_style, pad=True)
        # A repaint, or a layout pass only if a scrollbar comes or goes (SteadyVirtualSize).
        self.virtual_size = Size(width, len(self._strips))
        # The hint of the next key stays on the panel's first lines (playtest: at 80x24
        # it scrolled away); under it, what the DJ acts on now in view, with as much as
        # fits above it.
        self._pinned = min(wrapped_height(lines[:1], width), room)
        first, height = current_line(lines, width)
        self.scroll_to(y=max(0, min(first - self._pinned, first + height - room)),
                       animate=False, immediate=True)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        # The hint's lines are pinned; the rest scrolls beneath them.
        index = y if y < self._pinned else y + round(self.scroll_y)
        if 0 <= index < len(self._strips):
            return self._strips[index].crop_extend(0, width, self.rich_style)
        return Strip.blank(width, self.rich_style)
