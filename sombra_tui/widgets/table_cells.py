"""The cells of a row of the DJ's initiative table (I3, I4, D7, P4, E1), drawn from the
engine's one reading of the row (ask.row), which the sheet and the players' view read
too; the first column's marks are composed in row_marks."""

from __future__ import annotations

from collections.abc import Mapping

from rich.cells import cell_len
from rich.text import Text

from sombra_tui.engine import CombatState, ExtendedProgress, ask, i18n
from sombra_tui.engine.i18n import N_, _
from sombra_tui.widgets.formatting import Palette, cut_at_words, side_label
from sombra_tui.widgets.row_marks import marks_cell

#: The columns' headings (English msgids, shown in the DJ's language). What a fight
#: changes comes first (G/W of PV, then Status with the conditions and their rounds
#: left). The table fits its panel: Status and Declaration take what the short columns
#: leave and wrap within it (a row grows a line rather than cutting a word), and a
#: narrow panel (80x24) leaves out Alerta, then the Declaration (Status then says
#: "declared"; the queue panel shows the declaration of the cursor's row whole).
COLUMNS = ("", N_("Name"), N_("G/W PV"), N_("Status"), N_("Side"), N_("Ini"), N_("Alerta"),
           N_("Declaration"))
MARKER, NAME, POINTS, STATUS, SIDE, INI, ALERTA, DECLARATION = range(len(COLUMNS))
#: A row holds one cell more than the columns: the "declared" mark Status takes when
#: the Declaration column is left out (see shown_cells).
DECLARED = len(COLUMNS)


def ordered_names(state: CombatState) -> list[str]:
    """Declaration order (I3) while declaring, action order (I4) while resolving."""
    return ask.table_order(state)


def acting_now(state: CombatState) -> set[str]:
    """Who the 'now' marker names: whoever the next key is about (ask.next_step), the
    target of an open hit proposal included (the cursor follows it)."""
    return set(ask.next_step(state).who)


def active_extended(state: CombatState) -> dict[str, list[ExtendedProgress]]:
    """Active extended actions by owner (looked up once per render, not once per row)."""
    return ask.active_extended(state)


def row_inputs(state: CombatState, name: str, now: set[str], palette: Palette,
               active: dict[str, list[ExtendedProgress]],
               due: frozenset[str] = frozenset(),
               labels: Mapping[str, str] | None = None) -> tuple[object, ...]:
    """Everything `row_for` reads, cheap to compare: equal inputs make an equal row, so
    only rows whose inputs changed are rebuilt. Keep it in step with `row_for`."""
    return (
        state.character(name), state.round_initiative.get(name), name in now,
        state.declaration_of(name), state.phase, targets_shown(state, name, labels),
        name in state.locked, name in state.prevented, name in state.out,
        state.concealed.get(name),
        tuple(progress.progress_text() for progress in active.get(name, ())),
        state.bodies.get(name), state.round, state.settings.wounds.pv_multiplier,
        name in due,
        palette.accent, palette.warning, palette.error, i18n.language(),
    )


def targets_shown(state: CombatState, name: str,
                  labels: Mapping[str, str] | None) -> tuple[str, ...]:
    """The short labels of whom `name`'s declaration names (`labels`: ask.short_labels,
    read once for the whole table): another name added can change them."""
    declaration = state.declaration_of(name)
    if declaration is None or labels is None:
        return ()
    return tuple(labels.get(target, target) for action in declaration.actions
                 for target in action.targets)


#: The table's styles of the marks (their words are the row's: ask.row).
MARK_STYLES = {ask.MarkKind.LOCKED: "bold {error}", ask.MarkKind.PREVENTED: "bold {warning}"}


def row_for(state: CombatState, name: str, now: set[str], palette: Palette,
            active: dict[str, list[ExtendedProgress]] | None = None,
            due: frozenset[str] | None = None) -> tuple[Text, ...]:
    """`name`'s cells, drawn from the engine's one reading of the row (ask.row), which
    the sheet and the players' view read too."""
    row = ask.row(state, name, now, active, due)
    marker = marks_cell(row, palette)  # the marks column: ▶ now, ◌ hidden, ◆ due (row_marks)
    side = Text(side_label(row.side.value),
                style=palette.accent if row.side.value == "PC" else palette.warning)
    colours = {"error": palette.error, "warning": palette.warning}
    # Conditions first (C1), each with its rounds left (C3); folded when the column is
    # narrow (issue 39 item 5: abbreviated, then counted; the sheet and the panel say
    # them whole).
    shown = [condition for condition in row.conditions if not condition.bleeding]
    styles = [f"bold {palette.error}" if condition.blocking else palette.warning
              for condition in shown]  # sangrando is said once, as "sangra"
    marks: list[Text] = []
    if row.bleeding:
        marks.append(Text(_("sangra"), style=palette.error))
    if row.next_round:
        marks.append(Text(_("next asalto"), style="dim"))
    now_mark = Text(_("now"), style=f"bold {palette.accent}") if row.now else None
    if now_mark is not None:
        marks.append(now_mark)
    for mark in row.marks:
        if mark.kind is ask.MarkKind.OUT:
            marks.append(Text(_("OUT"), style=f"bold reverse {palette.error}"))
        else:
            marks.append(Text(mark.word, style=MARK_STYLES[mark.kind].format(**colours)))
    for progress in row.extended:
        marks.append(Text(_("ext {progress}").format(progress=progress),
                          style=palette.accent))
    pairs = list(zip(shown, styles, strict=True))
    full = [Text(condition.label, style=style) for condition, style in pairs]
    status = Text(" ").join([*full, *marks])
    out = row.has(ask.MarkKind.OUT)
    name_style = "strike dim" if out else ("bold" if row.now else "")
    points_style = (f"bold {palette.error}" if row.at_pv else palette.warning
                    if row.badly_hurt else "")
    points = Text(f"{row.g}/{row.w} {row.pv}", style=points_style)
    return (
        marker,
        Text(name, style=name_style),
        points,
        status,
        side,
        Text(f"{row.primaria}/{row.secundaria}"),
        Text(str(row.alerta)),
        declaration_cell(row),
        # Said in Status when the Declaration column makes way, while it tells who
        # has declared (afterwards everyone in the round has).
        Text(row.declared, style="dim"),
        # Status folded, from the longest to the shortest (see shown_cells).
        *status_folds(pairs, marks, now_mark, palette.warning),
    )


class KeptEnd(Text):
    """A Declaration cell whose end, " · at Matón 1" (its targets' short labels), stays
    whole where the cell is cut: its words are cut first (issue 39 item 1)."""

    #: How many characters of the end are kept.
    kept = 0

    def fitted(self, width: int) -> Text:
        head, end = self.plain[:len(self.plain) - self.kept], self.plain[-self.kept:]
        room = width - cell_len(end)
        if room < 2:  # no room for words: the targets alone, as many as fit
            return Text(end.removeprefix(" · "), style=self.style)
        return Text(cut_at_words(head, room) + end, style=self.style)


def declaration_cell(row: ask.Row) -> Text:
    """The row's declaration and, after it, whom it names by their short labels."""
    if row.declaration is None:
        return Text("")
    if not row.targets:
        return Text(row.declaration, style="italic")
    end = " · " + _("at {names}").format(names=", ".join(row.targets))
    cell = KeptEnd(row.declaration + end, style="italic")
    cell.kept = len(end)
    return cell


def status_folds(pairs: list[tuple[ask.RowCondition, str]], marks: list[Text],
                 now_mark: Text | None, counted_style: str) -> list[Text]:
    """Status folded for a narrow column, in the order the table tries them (issue 39
    item 5): the conditions abbreviated; then without "now" (the ▶ beside the name says
    it); then the conditions counted, those that keep the character from acting (C1)
    kept the longest, then the shortest (the most said in the room), the rest as "+N"."""
    full = [Text(condition.label, style=style) for condition, style in pairs]
    short = [Text(condition.short, style=style) for condition, style in pairs]
    rest = [mark for mark in marks if mark is not now_mark]
    folds = [[*short, *marks]] if short != full else []
    if now_mark is not None:
        folds.append([*short, *rest])
    ranked = [text for (condition, _style), text in sorted(
        zip(pairs, short, strict=True),
        key=lambda pair: (not pair[0][0].blocking, pair[1].cell_len))]
    folds += [[*ranked[:kept], Text(f"+{len(ranked) - kept}", style=counted_style), *rest]
              for kept in range(len(ranked) - 1, -1, -1)]
    return [Text(" ").join(fold) for fold in folds]



def shown_cells(row: tuple[Text, ...], columns: tuple[int, ...],
                widths: tuple[int, ...] = ()) -> tuple[Text, ...]:
    """The cells of `row` for the columns shown; without the Declaration column, Status
    says "declared" of whoever has declared, while the DJ takes declarations. With the
    columns' `widths`, Status is the longest of its folds that fits its width (issue 39
    item 5: the conditions abbreviated, then counted), else the shortest."""
    mark = row[DECLARED]
    statuses = [row[STATUS], *row[DECLARED + 1:]]
    if DECLARATION not in columns and mark.plain:
        statuses = [Text(" ").join([status, mark]) if status.plain else mark
                    for status in statuses]
    status = statuses[0]
    if widths and STATUS in columns:
        width = widths[columns.index(STATUS)]
        status = next((fold for fold in statuses if fold.cell_len <= width), statuses[-1])
    row = (*row[:STATUS], status, *row[STATUS + 1:])
    return tuple(row[index] for index in columns)

