"""Initiative order panel: one row per character with its marks (I3, I4, D7, P4, E1)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import DataTable

from sombra_tui.engine.initiative import action_order
from sombra_tui.engine.state import CombatState, ExtendedStatus, Phase
from sombra_tui.widgets.formatting import Palette

# Estado before Declaración: when the panel is narrow, the long text is what gets cut.
COLUMNS = ("", "Nombre", "Lado", "Ini", "Alerta", "Estado", "Declaración")
DECLARATION_WIDTH = 28


def ordered_names(state: CombatState) -> list[str]:
    """Declaration order (I3) while declaring, action order (I4) while resolving."""
    dj_order = [ch.name for ch in state.characters]
    in_round = [n for n in state.declaration_order if state.character(n) is not None]
    if state.phase is Phase.SETUP or not state.round_initiative:
        return dj_order
    if state.phase is Phase.DECLARATION:
        base = in_round
    else:
        base = [n for n in action_order(state.round_initiative, dj_order)
                if state.character(n) is not None]
    # Reinforcements joined mid-round are listed last until the next round.
    return base + [n for n in dj_order if n not in base]


def acting_now(state: CombatState) -> set[str]:
    if state.phase is Phase.DECLARATION:
        top = state.top_prompt
        if top is not None:
            return {top.reactor}
        return {state.current_declarer} if state.current_declarer else set()
    return {step.character for step in state.current_group()}


def row_for(state: CombatState, name: str, now: set[str], palette: Palette) -> tuple[Text, ...]:
    character = state.character(name)
    assert character is not None
    primaria, secundaria = state.round_initiative.get(
        name, (character.primaria, character.secundaria))
    marker = Text("▶", style=f"bold {palette.accent}") if name in now else Text("")
    side = Text(character.side.value,
                style=palette.accent if character.side.value == "PC" else palette.warning)
    declaration = state.declaration_of(name)
    summary = declaration.summary() if declaration is not None else ""
    if len(summary) > DECLARATION_WIDTH:
        summary = summary[: DECLARATION_WIDTH - 1] + "…"
    marks: list[Text] = []
    if name not in state.round_initiative and state.phase is not Phase.SETUP:
        marks.append(Text("next round", style="dim"))
    if declaration is not None:
        marks.append(Text("declared", style="dim"))
    if name in now:
        marks.append(Text("now", style=f"bold {palette.accent}"))
    if name in state.locked:
        marks.append(Text("locked", style=f"bold {palette.error}"))
    if name in state.prevented:
        marks.append(Text("prevented", style=f"bold {palette.warning}"))
    if name in state.out:
        marks.append(Text("OUT", style=f"bold reverse {palette.error}"))
    for progress in state.extended:
        if progress.owner == name and progress.status is ExtendedStatus.ACTIVE:
            marks.append(Text(f"ext {progress.progress_text()}", style=palette.accent))
    status = Text(" ").join(marks)
    name_style = "strike dim" if name in state.out else ("bold" if name in now else "")
    return (
        marker,
        Text(name, style=name_style),
        side,
        Text(f"{primaria}/{secundaria}"),
        Text(str(character.alerta)),
        status,
        Text(summary, style="italic" if declaration is not None else ""),
    )


class InitiativeTable(DataTable[Text]):
    """Updates changed cells in place; rebuilds rows only when the order changes."""

    DEFAULT_CSS = """
    InitiativeTable { height: 1fr; }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(cursor_type="row", zebra_stripes=True, **kwargs)  # type: ignore[arg-type]
        self.palette = Palette()
        self._rows: dict[str, tuple[Text, ...]] = {}
        self._order: list[str] = []
        self._acting: set[str] = set()

    def on_mount(self) -> None:
        for label in COLUMNS:
            self.add_column(label, key=label or "now")

    @property
    def selected_name(self) -> str | None:
        if not self._order or self.cursor_row < 0 or self.cursor_row >= len(self._order):
            return None
        return self._order[self.cursor_row]

    def select_name(self, name: str) -> None:
        if name in self._order:
            self.move_cursor(row=self._order.index(name))

    def show_state(self, state: CombatState) -> None:
        order = ordered_names(state)
        now = acting_now(state)
        rows = {name: row_for(state, name, now, self.palette) for name in order}
        if order != self._order:
            selected = self.selected_name
            self.clear()
            for name in order:
                self.add_row(*rows[name], key=name)
            self._order = order
            if selected in order:
                self.move_cursor(row=order.index(selected))
        else:
            keys = [label or "now" for label in COLUMNS]
            for name in order:
                old = self._rows.get(name)
                for index, cell in enumerate(rows[name]):
                    if old is None or old[index] != cell:
                        self.update_cell(name, keys[index], cell, update_width=True)
        self._rows = rows
        if now and now != self._acting:  # the cursor follows whoever acts now
            self.select_name(next(name for name in order if name in now))
        self._acting = now
