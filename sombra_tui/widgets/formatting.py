"""Rich renderings of engine data, shared by the panels and dialogs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rich.cells import cell_len, set_cell_size
from rich.text import Text

from sombra_tui.engine import PHASE_LABELS, EventKind, LogEvent, Phase, TAResult, format_gd
from sombra_tui.engine.i18n import N_, _

#: The phases' short names in the log's margin (pgettext context "phase").
PHASE_SHORT: dict[Phase, str] = {
    Phase.SETUP: N_("set"),
    Phase.DECLARATION: N_("decl"),
    Phase.INSTANT: N_("inst"),
    Phase.ROUND: N_("asalto"),
    Phase.EXTENDED: N_("ext"),
    Phase.END_OF_ROUND: N_("end"),
}


#: How the sides read (PC/NPC in English, PJ/PNJ in Spanish).
SIDE_LABELS = {"PC": N_("PC"), "NPC": N_("NPC")}


def cut_at_words(text: str, room: int) -> str:
    """`text` cut to `room` cells at a word boundary, ending in "…" (a word longer than
    the room is cut inside; issue 39 item 5)."""
    if cell_len(text) <= room:
        return text
    if room <= 1:
        return "…"[:max(room, 0)]
    words = text.split(" ")
    while len(words) > 1 and cell_len(" ".join(words)) > room - 1:
        words.pop()
    kept = " ".join(words).rstrip(" ,;·")
    if cell_len(kept) > room - 1:
        kept = set_cell_size(kept, room - 1)
    return kept + "…"


def side_label(side: str) -> str:
    return _(SIDE_LABELS.get(side, side))


def phase_label(phase: Phase) -> str:
    return _(PHASE_LABELS[phase])


def phase_short(phase: Phase) -> str:
    return _(PHASE_SHORT[phase])


@dataclass(frozen=True)
class Palette:
    """Theme colours as Rich style strings (the log and tables are Rich renderables).

    Built from the app's theme by `sombra_tui.widgets.theme.theme_palette`, the one place.
    """

    success: str = "green"
    error: str = "red"
    warning: str = "yellow"
    accent: str = "cyan"

    @classmethod
    def from_variables(cls, variables: Mapping[str, str]) -> Palette:
        """From a theme's CSS variables (`$success`, `$error`, `$warning`, `$accent`)."""
        return cls(success=variables.get("success", cls.success),
                   error=variables.get("error", cls.error),
                   warning=variables.get("warning", cls.warning),
                   accent=variables.get("accent", cls.accent))


def ta_text(result: TAResult, palette: Palette) -> Text:
    """dS apart, then d+ d-, GD, total vs target, margin and quality, coloured by outcome."""
    text = Text()
    if result.unrolled:
        text.append(_("no roll") + " ", style="italic")
    elif result.dice is not None:
        text.append("dS ", style="dim")
        text.append(f" {result.dice.ds} ", style="bold reverse")
        text.append(f" {result.dice.d_plus} {result.dice.d_minus}", style="bold")
    text.append(f"  GD {format_gd(result.gd)}")
    if result.modifier:
        text.append(" " + _("mod {gd}").format(gd=format_gd(result.modifier)))
    if not result.unrolled:
        text.append("  " + _("{total} vs {target}  margin {margin}").format(
            total=result.total, target=result.target, margin=format_gd(result.margin)))
    text.append("  ")
    colour = palette.success if result.success else palette.error
    text.append(result.label, style=f"bold {colour}")
    return text


def event_text(event: LogEvent, palette: Palette) -> Text:
    """One log line: round and phase, then the event and its numbers (S2)."""
    head = Text(f"A{event.round:<2} {phase_short(event.phase):<6} ", style="dim")
    style = {
        EventKind.ROUND: "bold",
        EventKind.PHASE: "bold",
        EventKind.PROMPT: palette.accent,
        EventKind.WITHDRAWN: "dim italic",
        EventKind.SKIPPED: "dim italic",
        EventKind.OVERRIDE: palette.warning,
        EventKind.MARK: palette.warning,
    }.get(event.kind, "")
    line = head + Text(event.text, style=style)
    if event.ta is not None:
        line.append("  ")
        line.append_text(ta_text(event.ta, palette))
    if event.gd is not None:
        line.append(f"  ({event.gd.describe()})", style="dim")  # numbers and GD only
    if event.override:
        line.append("  [DJ]", style=f"bold {palette.warning}")
    return line
