"""The footer, its key descriptions in the DJ's language.

Textual's Footer shows each binding's `description` as written; the bindings keep
their English description (marked for the catalog with N_) and this footer
translates it when it is built, so a language switch only needs a recompose.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.widgets import Footer

from sombra_tui.engine import i18n
from sombra_tui.engine.i18n import N_, _
from sombra_tui.textual_compat import FooterKey, footer_bindings_ready

#: The bindings a narrow footer (80 columns) keeps, by action (so a rebound key stays):
#: the next step, undo, save, help, quit and the command palette.
#: The phase's own keys (d, r, x, t, y) go: space does each of them in turn, and the
#: help lists them.
NARROW_ACTIONS = frozenset({"next_step", "undo", "save", "help", "quit", "command_palette"})


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
                self.show_command_palette, bindings)

    async def recompose(self) -> None:
        if self.is_attached:
            shows = self._what_it_shows()
            if shows == self._built_from:
                return
            self._built_from = shows
        await super().recompose()

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            if self.narrow and isinstance(widget, FooterKey) and \
                    widget.action.rpartition(".")[2] not in NARROW_ACTIONS:
                continue
            if isinstance(widget, FooterKey):
                widget.description = _(widget.description) if widget.description else ""
                if isinstance(widget.tooltip, str) and widget.tooltip:
                    widget.tooltip = _(widget.tooltip)
            yield widget


#: Textual's own descriptions the footer may show (its command palette's key).
TEXTUAL_DESCRIPTIONS = (N_("palette"),)
