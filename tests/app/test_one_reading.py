"""One reading of a row and of the panel (issue 36 item 3; P4, C1, C3, H6, H7, D1, D4).

The DJ's table, the character's sheet and the players' view say the same of every
character, and the DJ's panel and the players' view the same of whose turn it is, on
every state of a scripted evening (feminine characters, Spanish words, the players'
settings showing numbers, words or nothing). And each reads the engine's one reading
(ask.row, ask.panel): a reading swapped for a marked one shows in every one of them,
so none works a fact out of the state on its own (the table and the players' view did,
and disagreed on "impedida" and on "badly hurt").
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from sombra_tui.engine import (
    Combat,
    Decline,
    Encounter,
    Gender,
    Phase,
    PlayersSnapshot,
    PlayerViewSettings,
    Side,
    SideView,
    StepStatus,
    WoundView,
    ask,
)
from sombra_tui.engine.i18n import _
from sombra_tui.engine.rows import Hurt, MarkKind, Row, RowCondition, RowMark
from sombra_tui.screens.dialogs.sheet import sheet_lines
from sombra_tui.widgets.formatting import Palette
from sombra_tui.widgets.initiative_table import (
    ALERTA,
    DECLARATION,
    DECLARED,
    INI,
    NAME,
    POINTS,
    STATUS,
    acting_now,
    active_extended,
    row_for,
)
from sombra_tui.widgets.panel_lines import queue_lines
from tests import builders
from tests.engine.conftest import act, advance_to, char, declare, started

# ---- the same facts everywhere, on every state of an evening -------------------------


def evening_encounter(pc: WoundView, npc: WoundView) -> Encounter:
    """The scripted DJ's encounter, one character in three feminine (the Spanish words
    agree), the players shown each side's wounds as `pc` and `npc` say."""
    built = builders.build_encounter(8, seed=3)
    characters = [character.model_copy(update={"gender": Gender.FEMENINO})
                  if index % 3 == 0 else character
                  for index, character in enumerate(built.characters)]
    settings = built.settings.model_copy(update={"players": PlayerViewSettings(
        pc=SideView(wounds=pc), npc=SideView(wounds=npc))})
    return built.model_copy(update={"characters": characters, "settings": settings})


def plain(cells: tuple[Any, ...]) -> list[str]:
    return [cell.plain for cell in cells]


def check_table(cells: list[str], row: Row) -> None:
    """The table's cells say the row (I2, H6, C1, C3, P4, D1, D7)."""
    assert cells[NAME] == row.name
    assert cells[POINTS] == f"{row.g}/{row.w} {row.pv}"
    assert cells[INI] == f"{row.primaria}/{row.secundaria}"
    assert cells[ALERTA] == str(row.alerta)
    said = (row.declaration or "") + (" · " + _("at {names}").format(
        names=", ".join(row.targets)) if row.targets else "")  # by their short labels
    assert cells[DECLARATION] == said
    assert cells[DECLARED] == row.declared
    status = cells[STATUS]
    for condition in row.conditions:
        assert (condition.label in status) != condition.bleeding, (row.name, status)
    assert ("sangra" in status.split()) == row.bleeding
    for mark in row.marks:
        assert (mark.word if mark.kind is not MarkKind.OUT else _("OUT")) in status


def check_sheet(head: str, items: list[tuple[str, str]], row: Row) -> None:
    """The sheet's PV, counters and conditions are the row's (H6, C2, C3)."""
    assert f"PV {row.pv}" in head and f"G {row.g} / W {row.w}" in head
    said = [text for item, text in items if item.startswith("condition-")]
    assert len(said) == len(row.conditions)
    for text, condition in zip(said, row.conditions, strict=True):
        assert f": {condition.name} (" in text


def check_players(snapshot: PlayersSnapshot, row: Row, encounter: Encounter) -> None:
    """The players' row is the row, filtered by the DJ's settings for its side."""
    seen = next((each for each in snapshot.characters if each.name == row.name), None)
    if row.hidden:
        assert seen is None
        return
    assert seen is not None
    view = encounter.settings.players.side(row.side).wounds
    assert seen.marks == [mark.word for kind in (MarkKind.OUT, MarkKind.PREVENTED)
                          for mark in row.marks if mark.kind is kind]
    assert [each.name for each in seen.conditions] == [
        condition.name for condition in row.conditions
        if not (view is WoundView.HIDDEN and condition.from_wounds)]
    if view is WoundView.NUMBERS:
        assert seen.wounds is not None
        assert (seen.wounds.g, seen.wounds.w, seen.wounds.pv) == (row.g, row.w, row.pv)
    elif view is WoundView.WORDS:
        assert seen.wounds is not None and seen.wounds.text == row.hurt_word
    else:
        assert seen.wounds is None
    assert seen.declaration in (None, row.declaration)
    assert not seen.now or row.now
    if row.side is Side.PC and row.in_round:
        assert seen.initiative == f"{row.primaria}/{row.secundaria}"


def check_panel(lines: str, panel: ask.Panel[ask.NextStep], snapshot: PlayersSnapshot
                ) -> None:
    """The DJ's panel and the players' view say whose turn it is alike (D1, D4, P3)."""
    assert set(snapshot.now_names) <= set(panel.step.who)
    if panel.declarer is not None:
        assert any(line.endswith(f": {panel.declarer}") for line in lines.splitlines())
    if snapshot.prompt is not None:
        top = panel.prompts[0]
        assert top.reactor in snapshot.prompt and top.author in snapshot.prompt
        assert f"▶ {top.reactor}" in lines
    for step in panel.steps:
        assert f"{step.character}: {step.what}" in lines


@pytest.mark.parametrize(("pc", "npc"), [(WoundView.NUMBERS, WoundView.WORDS),
                                         (WoundView.WORDS, WoundView.HIDDEN)])
def test_p4_c1_h6_d1_the_table_the_sheet_the_panel_and_the_players_agree_all_evening(
        spanish: str, pc: WoundView, npc: WoundView) -> None:
    encounter = evening_encounter(pc, npc)
    combat = Combat(encounter)
    seen_kinds: set[str] = set()
    for command in builders.build_history(encounter, 160, seed=7):
        combat.execute(command)
        state = combat.state
        snapshot = ask.players_view(state, combat.log, combat.revision)
        now, active, due = acting_now(state), active_extended(state), ask.due_now(state)
        for name in ask.table_order(state):
            row = ask.row(state, name)
            check_table(plain(row_for(state, name, now, Palette(), active, due)), row)
            check_sheet(*sheet_lines(state, name), row)
            check_players(snapshot, row, encounter)
            seen_kinds.update(condition.name for condition in row.conditions)
            seen_kinds.update(mark.kind.value for mark in row.marks)
            seen_kinds.add(row.hurt.value)
        panel = ask.panel(state)
        lines = "\n".join(line.plain for line in queue_lines(state, Palette()))
        check_panel(lines, panel, snapshot)
        seen_kinds.add(panel.step.kind.value)
    # The evening had what the readings must agree on (not only quiet rows).
    assert {"react", "declare", "resolve", Hurt.HURT.value, MarkKind.OUT.value} <= seen_kinds


# ---- each reads the one reading ------------------------------------------------------

MARKED_CONDITION = RowCondition(id=9, name="marcada", left=3)
MARKED_MARK = RowMark(kind=MarkKind.PREVENTED, word="señalada")


def marked_row(row: Row) -> Row:
    """`row` with values no state of the test holds: shown only if read from here."""
    return row.model_copy(update={
        "g": 41, "w": 42, "pv": 43, "primaria": 44, "secundaria": 45, "alerta": 46,
        "in_round": True, "hurt": Hurt.BADLY_HURT, "conditions": (MARKED_CONDITION,),
        "marks": (MARKED_MARK,), "declaration": "dice algo", "targets": ("Yago",),
        "hidden": False})


def one_of_each() -> Combat:
    """Ana (PC, feminine, numbers shown) and Bruno (NPC, words), after their declarations."""
    combat = started(char("Ana", 8, 3, 14, side=Side.PC, gender=Gender.FEMENINO),
                     char("Bruno", 12, 5, 12))
    declare(combat, "Ana")
    declare(combat, "Bruno")
    return combat


def test_p4_h6_c3_the_table_the_sheet_and_the_players_read_ask_row(
        spanish: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = ask.row
    monkeypatch.setattr(ask, "row", lambda *args, **kwargs: marked_row(real(*args, **kwargs)))
    combat = one_of_each()
    state = combat.state
    snapshot = ask.players_view(state, combat.log, combat.revision)
    now, active, due = acting_now(state), active_extended(state), ask.due_now(state)
    for name in ("Ana", "Bruno"):
        cells = plain(row_for(state, name, now, Palette(), active, due))
        assert (cells[POINTS], cells[INI], cells[ALERTA], cells[DECLARATION]) == (
            "41/42 43", "44/45", "46", "dice algo · a Yago")
        assert "marcada 3" in cells[STATUS] and "señalada" in cells[STATUS]
        head, items = sheet_lines(state, name)
        assert "PV 43" in head and "G 41 / W 42" in head
        assert [item for item, _text in items if item.startswith("condition")] == [
            "condition-9"]
        seen = next(each for each in snapshot.characters if each.name == name)
        assert [each.name for each in seen.conditions] == ["marcada"]
        assert seen.marks == ["señalada"] and seen.declaration == "dice algo"
    ana, bruno = snapshot.characters
    assert ana.wounds is not None and (ana.wounds.g, ana.wounds.w, ana.wounds.pv) == (
        41, 42, 43) and ana.initiative == "44/45"
    assert bruno.wounds is not None and bruno.wounds.text == "grave"


def marked_panel(panel: ask.Panel[ask.NextStep]) -> ask.Panel[ask.NextStep]:
    """`panel` naming Zoe and Yago, who are in no state of the test."""
    prompts = tuple(replace(prompt, reactor="Zoe", author="Yago") for prompt in panel.prompts)
    steps = tuple(replace(step, character="Zoe", what="baila") for step in panel.steps)
    return replace(panel, step=replace(panel.step, who=("Zoe",)),
                   declarer="Zoe" if panel.declarer else None,
                   waiting=("Yago",) if panel.waiting else (), prompts=prompts,
                   group=(), steps=steps)  # (the group names whose conditions to show)


def panel_and_players(combat: Combat) -> tuple[str, PlayersSnapshot]:
    state = combat.state
    lines = "\n".join(line.plain for line in queue_lines(state, Palette()))
    return lines, ask.players_view(state, combat.log, combat.revision)


def test_d1_d4_p3_the_dj_s_panel_and_the_players_read_ask_panel(
        spanish: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = ask.panel
    monkeypatch.setattr(ask, "panel", lambda state: marked_panel(real(state)))
    combat = started(char("Ana", 8, 3, 14, side=Side.PC, gender=Gender.FEMENINO),
                     char("Bruno", 12, 5, 12), char("Carla", 15, 2, 13))
    lines, snapshot = panel_and_players(combat)  # D1: Ana declares, then Bruno, Carla
    _hint, rest = lines.split("\n", 1)  # the hint is the key's: ask.next_step
    assert "Declara ahora: Zoe" in rest and "Yago" in rest and "Ana" not in rest
    assert snapshot.now_names == ["Zoe"] and "Zoe" in snapshot.now
    declare(combat, "Ana")
    declare(combat, "Bruno", act("dispara a Ana", "Ana"))  # D4: Ana may react
    lines, snapshot = panel_and_players(combat)
    assert "▶ Zoe - reacción a Yago" in lines
    assert snapshot.prompt is not None and "Zoe" in snapshot.prompt \
        and "Yago" in snapshot.prompt and "Bruno" not in snapshot.prompt
    combat.execute(Decline(character="Ana"))
    declare(combat, "Carla")
    advance_to(combat, Phase.ROUND)
    lines, snapshot = panel_and_players(combat)  # P3: Bruno's shot acts now
    assert combat.state.steps and combat.state.steps[0].status is StepStatus.PENDING
    assert "▶ Zoe: baila" in lines and "Bruno:" not in lines
    assert snapshot.now_names == ["Zoe"]

