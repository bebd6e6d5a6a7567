"""Issue 24's baseline for `sombra-tui bench` (tests/tools/bench.py): sombra-tui's screen
made of stock Textual widgets. Only Textual here (no sombra-tui module), so that its
memory and start are the stock widgets' own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def stock_app(characters: int, keys: int, lines: Sequence[str]) -> Any:
    """Issue 24's baseline: the screen sombra-tui shows, made of stock Textual widgets
    used as their documentation shows: a Header, a DataTable with a row per character
    (as many columns as the initiative table), a RichLog with the same log lines, a
    Footer with as many keys. Its `command(n)` changes one cell of a row and adds a log
    line (what most of the DJ's commands change; the title changes with the phase)."""
    from textual.app import App, ComposeResult
    from textual.binding import Binding
    from textual.containers import Horizontal, Vertical
    from textual.widgets import DataTable, Footer, Header, RichLog

    columns = ("", "Nombre", "Lado", "Ini", "Alerta", "PV", "Declaración", "Marcas")

    class StockApp(App[None]):
        BINDINGS = [Binding(key, f"key_{key}", f"acción {key}")
                    for key in "abcdefghijklmnopqrstuvwxyz"[:keys]]

        def compose(self) -> ComposeResult:
            yield Header()
            with Horizontal():
                yield DataTable(cursor_type="row")
                with Vertical():
                    yield RichLog(wrap=True, markup=False, highlight=False)
            yield Footer()

        def on_mount(self) -> None:
            self.title = "Banco de pruebas"
            table = self.query_one(DataTable)
            for column in columns:
                table.add_column(column, key=column)
            for index in range(characters):
                table.add_row("", f"PNJ {index:03d}", "PNJ", f"{index % 20}+{index % 9}",
                              "12", "0/10", "se pone a cubierto", "", key=str(index))
            log = self.query_one(RichLog)
            for line in lines:
                log.write(line)

        def command(self, number: int) -> None:
            row = str(number % characters)
            self.query_one(DataTable).update_cell(row, columns[6],
                                                  f"golpea a PNJ {number % 7:03d}")
            self.query_one(RichLog).write(f"A3 Ronda  PNJ {number:03d} golpea: TA 14, "
                                          f"éxito (GD {number % 3})")

    return StockApp()
