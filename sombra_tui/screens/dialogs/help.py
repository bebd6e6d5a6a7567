"""Help: the keys, and the rules the DJ needs at the table, by id."""

from __future__ import annotations

from collections.abc import Mapping

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widgets import Markdown, Static

from sombra_tui import keys, where
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.help_rules import HELP_SECTIONS
from sombra_tui.widgets.row_marks import legend_markdown


def help_text(keymap: Mapping[str, str] | None = None) -> str:
    """The whole help in the language in force: the keys in force, where the DJ's files
    are, then the rules."""
    title = _("Keys")
    return "\n".join([f"## {title}\n\n{keys.help_keys(keymap)}\n", legend_markdown() + "\n",
                      where.markdown(),
                      *(_(section) for section in HELP_SECTIONS)])


class HelpScreen(Dialog[None]):
    BINDINGS = keys.bindings(keys.Scope.HELP)

    DEFAULT_CSS = """
    HelpScreen > #dialog { width: 100; height: 90%; }
    """

    def __init__(self, keymap: Mapping[str, str] | None = None) -> None:
        """`keymap`: the DJ's rebindings in force (binding id -> keys), shown instead
        of the defaults."""
        super().__init__()
        self.keymap = dict(keymap or {})

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(self.keyed(_("sombra-tui help ({key} closes)"), "dialog.cancel"),
                         id="dialog-title")
            with VerticalScroll(id="help-scroll"):
                yield Markdown(help_text(self.keymap))

    def on_mount(self) -> None:
        self.query_one("#help-scroll").focus()

    async def relabel(self) -> None:
        """The language changed (from the palette, over the help): show it anew."""
        await self.recompose()
        self.query_one("#help-scroll").focus()
