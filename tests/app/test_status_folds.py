"""The table's Status cell folded for a narrow column (issue 39 item 5; C1, C3)."""

from rich.text import Text

from sombra_tui.engine import ask
from sombra_tui.widgets.table_cells import status_folds

FOUR = [ask.RowCondition(id=1, name="dolor intenso", left=3),
        ask.RowCondition(id=2, name="aturdido", left=2),
        ask.RowCondition(id=3, name="cegado", left=4),
        ask.RowCondition(id=4, name="derribado")]


def folds(conditions: list[ask.RowCondition], now: bool) -> list[str]:
    now_mark = Text("ahora") if now else None
    marks = [Text("sangra"), *([now_mark] if now_mark is not None else [])]
    return [fold.plain for fold in status_folds(
        [(condition, "") for condition in conditions], marks, now_mark, "")]


def test_c3_abbreviated_then_without_now_then_counted_shortest_first() -> None:
    assert folds(FOUR, now=True) == [
        "dol.int.3 atu.2 ceg.4 der. sangra ahora",
        "dol.int.3 atu.2 ceg.4 der. sangra",  # the ▶ beside the name says "now"
        "der. atu.2 ceg.4 +1 sangra",
        "der. atu.2 +2 sangra",
        "der. +3 sangra",
        "+4 sangra"]


def test_c1_a_condition_that_keeps_the_character_from_acting_is_counted_last() -> None:
    blocking = ask.RowCondition(id=5, name="inconsciente", blocking=True)
    assert folds([*FOUR, blocking], now=False)[-2] == "inc. +4 sangra"


def test_without_now_no_fold_drops_a_mark() -> None:
    assert all(fold.endswith("sangra") for fold in folds(FOUR, now=False))
