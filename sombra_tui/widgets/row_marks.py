"""The marks at the start of a row of the DJ's table, composed in one place (issue 39).

The table's first column holds a row's marks, one character each, side by side: who
the next key is about ("▶"), a character the players' view leaves out ("◌", item
7), and one with something due this asalto ("◆", issue 37 item 4). A mark is added
here, with its line of the legend (the help says what each mark means, in the DJ's
language); the column is as wide as the most marks a row has, so a table without
hidden characters or anything due keeps its width.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.text import Text

from sombra_tui.engine import ask
from sombra_tui.engine.i18n import N_, _
from sombra_tui.widgets.formatting import Palette


class Mark(NamedTuple):
    glyph: str
    #: The style, its colours named as the palette's ("bold {accent}").
    style: str
    #: The legend's words (an English msgid).
    meaning: str


NOW = Mark("▶", "bold {accent}", N_("the next key is about this character"))
HIDDEN = Mark("◌", "bold {warning}", N_("hidden from the players: the players' view "
                                        "leaves this character out"))
#: Something is due for the character in the asalto (issue 37 item 4: ask.due_now, from
#: the engine's forecast): a bleeding point, a condition ending, an extended TA, a note.
DUE = Mark("◆", "bold {warning}", N_("something is due for this character this asalto: "
                                     "a bleeding point, a condition ending, an extended TA "
                                     "or your note about them (what the coming asaltos "
                                     "hold says which)"))
#: In the order they are drawn (and listed in the legend).
MARKS = (NOW, HIDDEN, DUE)


def marks_of(row: ask.Row) -> list[Mark]:
    """The marks `row` carries, in drawing order."""
    shown = {NOW: row.now, HIDDEN: row.hidden, DUE: row.due}
    return [mark for mark in MARKS if shown[mark]]


def marks_cell(row: ask.Row, palette: Palette) -> Text:
    """The marks column's cell of `row` ("" when it carries none)."""
    colours = {"accent": palette.accent, "warning": palette.warning,
               "error": palette.error}
    text = Text()
    for mark in marks_of(row):
        text.append(mark.glyph, style=mark.style.format(**colours))
    return text


def legend_markdown() -> str:
    """The help's legend of the table's marks, in the language in force."""
    title = _("The initiative table's marks")
    lines = "\n".join(f"- **{mark.glyph}** {_(mark.meaning)}" for mark in MARKS)
    return f"### {title}\n\n{lines}"
