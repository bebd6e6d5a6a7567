"""How the DJ's initiative table lays its columns out in its panel: which columns show
and how wide each is (the short ones at their natural width, Status and the Declaration
sharing the rest)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from rich.cells import cell_len
from rich.text import Text

from sombra_tui.engine.i18n import _
from sombra_tui.widgets.table_cells import (
    ALERTA,
    COLUMNS,
    DECLARATION,
    INI,
    MARKER,
    NAME,
    POINTS,
    SIDE,
    STATUS,
    shown_cells,
)

#: The columns always shown, at their natural width (widest cell or heading).
SHORT_COLUMNS = (MARKER, NAME, POINTS, SIDE, INI)
#: A name wider than this wraps.
NAME_MAX = 14
#: The narrowest Status and Declaration cells before a column is left out for them, and
#: the Status width below which Alerta makes way.
STATUS_MIN = 10
DECLARATION_MIN = 14
STATUS_COMFORT = 18
#: Without room to lay out (before the first layout), the Declaration's width.
DECLARATION_WIDTH = 28


def _natural(rows: list[tuple[Text, ...]], index: int) -> int:
    heading = 1 if index == MARKER else cell_len(_(COLUMNS[index]))
    return max([heading, *(row[index].cell_len for row in rows)])


class Layout(NamedTuple):
    """The columns shown, their widths and the spaces each cell takes beside its text
    (one before it, and one after it too where the panel has room)."""

    columns: tuple[int, ...]
    widths: tuple[int, ...]
    gap: int = 2

    @property
    def total(self) -> int:
        return sum(self.widths) + self.gap * len(self.widths)


def column_layout(rows: Iterable[tuple[Text, ...]], available: int = 0) -> Layout:
    """The layout for a panel `available` columns wide (0: not laid out yet, every
    column at its natural width). The short columns keep their natural width; Status
    and Declaration share the rest (Status up to about half of it, the Declaration
    wrapping); Alerta, then the Declaration, is left out, and the columns close up to
    one space apart, when Status would get narrower than it needs."""
    rows = list(rows)
    natural = {index: _natural(rows, index) for index in range(len(COLUMNS))}
    natural[NAME] = min(natural[NAME], max(NAME_MAX, cell_len(_(COLUMNS[NAME]))))
    if available <= 0:
        columns = tuple(range(len(COLUMNS)))
        widths = {**natural, DECLARATION: min(natural[DECLARATION], DECLARATION_WIDTH)}
        return Layout(columns, tuple(widths[index] for index in columns))
    status_alone = max([natural[STATUS], *(shown_cells(row, (STATUS,))[0].cell_len
                                           for row in rows)])
    chosen: dict[int, int] = {}
    gap = 2
    for gap, alerta, declaration in ((2, True, True), (2, False, True), (2, True, False),
                                     (2, False, False), (1, False, False)):
        fixed = sum(natural[index] + gap for index in SHORT_COLUMNS)
        rest = available - fixed - (natural[ALERTA] + gap if alerta else 0)
        if declaration:
            flex = rest - 2 * gap
            status_need = max(STATUS_MIN, min(natural[STATUS], STATUS_COMFORT))
            if flex < status_need + DECLARATION_MIN:
                continue
            status = max(status_need, min(natural[STATUS], max(
                flex - natural[DECLARATION], flex // 2), flex - DECLARATION_MIN))
            chosen = {STATUS: status, DECLARATION: flex - status}
        else:
            flex = rest - gap
            if (alerta or gap == 2) and flex < max(STATUS_MIN, min(status_alone,
                                                                   STATUS_COMFORT)):
                continue
            chosen = {STATUS: max(flex, STATUS_MIN)}
        if alerta:
            chosen[ALERTA] = natural[ALERTA]
        break
    widths = {**{index: natural[index] for index in SHORT_COLUMNS}, **chosen}
    columns = tuple(sorted(widths))
    return Layout(columns, tuple(widths[index] for index in columns), gap)


def column_widths(rows: Iterable[tuple[Text, ...]]) -> tuple[int, ...]:
    """Each column's natural width (the panel not laid out yet)."""
    return column_layout(rows).widths

