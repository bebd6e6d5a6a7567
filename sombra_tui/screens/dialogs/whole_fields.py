"""Scrolling a form to a field without cutting a field's label off (issue 39 item 5).

When the focus moves to a widget out of view, Textual centres that widget in its
scrolling container; in a form of labelled fields that leaves the field above cut,
its box showing without its label (at 80x24 the reacción's description did). A dialog
scrolls instead so that the focused field is whole and the form's top edge falls on
the top of a field or row: one scroll, at the moment Textual would make its own (so
nothing races it).
"""

from __future__ import annotations

from textual.containers import ScrollableContainer
from textual.widget import Widget

from sombra_tui.screens.dialogs.fields import Field


def _form_and_field(widget: Widget) -> tuple[ScrollableContainer, Field] | None:
    """The form scrolling `widget` and the field holding it, or None."""
    field = next((node for node in widget.ancestors_with_self if isinstance(node, Field)),
                 None)
    if field is None:
        return None
    form = next((node for node in field.ancestors if isinstance(node, ScrollableContainer)),
                None)
    return None if form is None else (form, field)


def snap_target(tops: list[int], top: int, bottom: int, height: int) -> int:
    """The form's scroll offset that shows the lines `top` to `bottom` (the focused
    field) whole with the form's top edge on one of `tops` (where fields and rows
    begin), the most of the form above the field kept in view; `top` itself when the
    field is taller than the form."""
    fitting = [edge for edge in tops if edge <= top and bottom - edge <= height]
    return min(fitting, default=top)


def scroll_to_field(widget: Widget) -> bool:
    """Scroll `widget`'s form to show its field whole (see the module); False when
    `widget` is not a field in a scrolling form (the caller scrolls as Textual does)."""
    found = _form_and_field(widget)
    if found is None:
        return False
    form, field = found
    view = form.scrollable_content_region
    if view.height <= 0:
        return False
    offset = view.y - round(form.scroll_y)  # screen line of the form's first line
    tops = sorted({node.region.y - offset for node in form.query(Field)}
                  | {node.region.y - offset for node in form.children} | {0})
    top = field.region.y - offset
    target = snap_target(tops, top, top + field.region.height, view.height)
    form.scroll_to(y=target, animate=False, immediate=True)
    return True
