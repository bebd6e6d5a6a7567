"""The footer, its key descriptions in the DJ's language.

Textual's Footer shows each binding's `description` as written; the bindings keep
their English description (marked for the catalog with N_) and this footer
translates it when it is built, so a language switch only needs a recompose.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Footer

from sombra_tui.engine import i18n
from sombra_tui.engine.i18n import N_, _
from sombra_tui.textual_compat import FooterKey, footer_bindings_ready

#: The bindings a narrow footer (80 columns) keeps, by action (so a rebound key stays):
#: the next step, undo, save, help, quit and the command palette.
#: The phase's own keys (d, r, x, t, y) go: space does each of them in turn, and the
#: help lists them.
NARROW_ACTIONS = frozenset({"next_step", "undo", "save", "help", "quit", "command_palette"})
#: When the keys still do not fit (a long language, a wide key display), the ones that
#: go first: any key not named here (from the right), then these from the left. The
#: next step and quit stay. A key is left out whole, never cut ("Sal" for "Salir").
KEPT_LONGEST = ("save", "undo", "help", "quit", "next_step")


def key_width(key: FooterKey, compact: bool) -> int:
    """The columns a FooterKey takes in the footer (Textual's FooterKey CSS): the key
    padded 1 each side and the description 1 after; compact, the key, a space, the
    description and a margin of 1."""
    key_part = cell_len(key.key_display)
    description = cell_len(key.description)
    if compact:
        return key_part + (1 + description if description else 0) + 1
    return key_part + 2 + (description + 1 if description else 0)


def action_name(key: FooterKey) -> str:
    return key.action.rpartition(".")[2]


def fitting(keys: list[FooterKey], width: int, compact: bool) -> list[FooterKey]:
    """The keys that fit in `width` columns, whole: lower-priority ones left out."""
    kept = list(keys)

    def rank(key: FooterKey) -> int:
        name = action_name(key)
        return KEPT_LONGEST.index(name) + 1 if name in KEPT_LONGEST else 0

    while kept and sum(key_width(key, compact) for key in kept) > width:
        lowest = min(rank(key) for key in kept)
        victims = [key for key in kept if rank(key) == lowest]
        kept.remove(victims[-1] if lowest == 0 else victims[0])
    return kept


class TranslatedFooter(Footer):
    #: Only NARROW_ACTIONS are shown (set on a narrow terminal; recompose to apply).
    narrow = False
    #: What the keys on show were built from. Textual rebuilds the footer's keys each
    #: time the screen's bindings are refreshed (after every command, every dialog
    #: closed), some forty widgets each time; the same keys again need no new widgets.
    _built_from: tuple[object, ...] | None = None

    def _what_it_shows(self) -> tuple[object, ...]:
        bindings = tuple(
            (binding.key, self.app.get_key_display(binding), binding.description,
             binding.action, binding.show, id(binding.group), enabled, tooltip)
            for (_node, binding, enabled, tooltip) in self.screen.active_bindings.values())
        return (self.narrow, i18n.language(), footer_bindings_ready(self),
                self.show_command_palette, self.compact, self._width(), bindings)

    def _width(self) -> int:
        """The footer's width (the screen's, before the first layout)."""
        return self.size.width or self.app.size.width

    def on_resize(self, event: events.Resize) -> None:
        if self._built_from is not None and self._built_from[5] != event.size.width:
            self.call_later(self.recompose)

    async def recompose(self) -> None:
        if self.is_attached:
            shows = self._what_it_shows()
            if shows == self._built_from:
                return
            self._built_from = shows
        await super().recompose()

    def compose(self) -> ComposeResult:
        widgets: list[Widget] = []
        for widget in super().compose():
            if self.narrow and isinstance(widget, FooterKey) and \
                    action_name(widget) not in NARROW_ACTIONS:
                continue
            if isinstance(widget, FooterKey):
                widget.description = _(widget.description) if widget.description else ""
                if isinstance(widget.tooltip, str) and widget.tooltip:
                    widget.tooltip = _(widget.tooltip)
            widgets.append(widget)
        # Keys that do not fit are left out whole rather than cut at the palette's key.
        keys = [widget for widget in widgets if isinstance(widget, FooterKey)
                and not widget.has_class("-command-palette")]
        palette = [widget for widget in widgets if isinstance(widget, FooterKey)
                   and widget.has_class("-command-palette")]
        # The palette's key is docked right with a border (and a padding unless compact).
        room = self._width() - sum(key_width(key, self.compact) + 1 + (not self.compact)
                                   for key in palette)
        shown = set(map(id, fitting(keys, room, self.compact)))
        for widget in widgets:
            if widget in keys and id(widget) not in shown:
                continue
            yield widget


#: Textual's own descriptions the footer may show (its command palette's key).
TEXTUAL_DESCRIPTIONS = (N_("palette"),)
