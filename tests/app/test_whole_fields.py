"""The scroll offset a form takes to show its focused field whole (issue 39 item 5)."""

from sombra_tui.screens.dialogs.whole_fields import snap_target


def test_a_field_below_the_view_comes_in_whole_with_the_top_on_a_field_s_top() -> None:
    # Fields begin at lines 0, 4, 8, 12, 16; each is 4 lines; the form shows 10 lines.
    tops = [0, 4, 8, 12, 16]
    assert snap_target(tops, 12, 16, 10) == 8  # lines 8..17: the field at 12 whole
    assert snap_target(tops, 16, 20, 10) == 12


def test_the_most_of_the_form_above_the_field_stays_in_view() -> None:
    assert snap_target([0, 3, 6, 9], 6, 9, 10) == 0


def test_a_field_taller_than_the_form_shows_from_its_top() -> None:
    assert snap_target([0, 4, 20], 4, 20, 10) == 4
