"""The footer, its key descriptions in the DJ's language.

Textual's Footer shows each binding's `description` as written; the bindings keep
their English description (marked for the catalog with N_) and this footer
translates it when it is built, so a language switch only needs a recompose.
"""

from __future__ import annotations

from typing import NamedTuple

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.geometry import Region
from textual.reactive import Reactive, reactive
from textual.screen import Screen
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


def key_width(key: ShownKey | FooterKey, compact: bool) -> int:
    """The columns a FooterKey takes in the footer (Textual's FooterKey CSS): the key
    padded 1 each side and the description 1 after; compact, the key, a space, the
    description and a margin of 1."""
    key_part = cell_len(key.key_display)
    description = cell_len(key.description)
    if compact:
        return key_part + (1 + description if description else 0) + 1
    return key_part + 2 + (description + 1 if description else 0)


def action_name(key: ShownKey | FooterKey) -> str:
    return key.action.rpartition(".")[2]


def fitting(keys: list[ShownKey], width: int, compact: bool) -> list[ShownKey]:
    """The keys that fit in `width` columns, whole: lower-priority ones left out."""
    kept = list(keys)

    def rank(key: ShownKey) -> int:
        name = action_name(key)
        return KEPT_LONGEST.index(name) + 1 if name in KEPT_LONGEST else 0

    while kept and sum(key_width(key, compact) for key in kept) > width:
        lowest = min(rank(key) for key in kept)
        victims = [key for key in kept if rank(key) == lowest]
        kept.remove(victims[-1] if lowest == 0 else victims[0])
    return kept


class ShownKey(NamedTuple):
    """A key the footer shows: what Textual's FooterKey holds, and where it is on the
    screen (`region`; empty when left out for want of room)."""

    key: str
    key_display: str
    description: str
    action: str
    disabled: bool = False
    tooltip: str = ""
    region: Region = Region()
    palette: bool = False

    @property
    def name(self) -> str:
        return self.action.rpartition(".")[2]


class FooterKeys(Widget, can_focus=False):
    """The footer's keys (all but the palette's) drawn as one line of text.

    Textual's Footer makes a FooterKey widget a key and builds them anew whenever the
    screen's bindings are refreshed: a phase change (other keys offered) cost a layout
    pass of the whole screen and four frames (issue 24). This widget keeps its size
    (the footer's width left of the palette's key, one line) whatever keys it shows, so
    new keys are a repaint in the frame of the command that changed them. It draws
    them as FooterKey does (the same component classes and CSS), leaves out whole the
    keys that do not fit, and a click on a key presses it, as FooterKey does."""

    ALLOW_SELECT = False
    COMPONENT_CLASSES = {"footer-key--key", "footer-key--description", "footer-key--item",
                         "footer-key--hover"}
    DEFAULT_CSS = """
    FooterKeys {
        width: 1fr;
        height: 1;
        text-wrap: nowrap;
        text-overflow: clip;
        .footer-key--item {
            background: $footer-item-background;
        }
        .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
            padding: 0 1;
        }
        .footer-key--description {
            padding: 0 1 0 0;
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .footer-key--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
        &.-compact {
            .footer-key--key {
                padding: 0;
            }
            .footer-key--description {
                padding: 0 0 0 1;
            }
        }
    }
    """

    compact = reactive(False, toggle_class="-compact")
    #: The key under the mouse (its index in the keys shown).
    hovered: Reactive[int | None] = reactive(None)

    def __init__(self) -> None:
        super().__init__()
        self._keys: tuple[ShownKey, ...] = ()

    def show_keys(self, keys: tuple[ShownKey, ...]) -> None:
        """Show `keys` (a repaint: the widget's size stays)."""
        if keys != self._keys:
            self._keys = keys
            self.hovered = None
            self.refresh()

    def placed(self) -> list[tuple[int, ShownKey]]:
        """The keys that fit the widget's width, each with its column in the widget."""
        room = self.size.width
        widths = {id(key): key_width(key, self.compact) for key in self._keys}
        kept = {id(key) for key in fitting(list(self._keys), room, self.compact)}
        placed, x = [], 0
        for key in self._keys:
            if id(key) in kept:
                placed.append((x, key))
                x += widths[id(key)]
        return placed

    def shown(self) -> list[ShownKey]:
        """The keys shown, with their regions on the screen."""
        region = self.region
        return [key._replace(region=Region(region.x + x, region.y, key_width(
            key, self.compact) - self.compact, 1)) for x, key in self.placed()]

    def render(self) -> Text:
        key_style = self.get_component_rich_style("footer-key--key")
        description_style = self.get_component_rich_style("footer-key--description")
        item_style = self.get_component_rich_style("footer-key--item")
        hover_style = self.get_component_rich_style("footer-key--hover")
        key_padding = self.get_component_styles("footer-key--key").padding
        description_padding = self.get_component_styles("footer-key--description").padding
        line = Text(no_wrap=True, end="")
        for index, (_x, key) in enumerate(self.placed()):
            key_part = " " * key_padding.left + key.key_display + " " * key_padding.right
            if key.description:
                text = Text.assemble(
                    (key_part, key_style),
                    (" " * description_padding.left + key.description
                     + " " * description_padding.right, description_style))
            else:
                text = Text.assemble((key.key_display, key_style))
            if index == self.hovered:  # FooterKey:hover
                text.stylize(Style(bgcolor=hover_style.bgcolor))
                text.stylize(Style(color=hover_style.color), len(key_part))
            text.stylize_before(item_style)
            if key.disabled:
                text.stylize(Style(dim=True))
            if self.compact and line:
                line.append(" ")  # FooterKey's margin in a compact footer
            line.append_text(text)
        return line

    def _key_at(self, x: int) -> int | None:
        for index, (start, key) in enumerate(self.placed()):
            if start <= x < start + key_width(key, self.compact) - self.compact:
                return index
        return None

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self._key_at(event.x)
        if self.hovered is not None:
            key = self.placed()[self.hovered][1]
            self.tooltip = key.tooltip or None

    def on_leave(self, event: events.Leave) -> None:
        self.hovered = None

    def on_mouse_down(self, event: events.MouseDown) -> None:
        index = self._key_at(event.x)
        if index is None:
            return
        key = self.placed()[index][1]
        if key.disabled:
            self.app.bell()
        else:
            self.app.simulate_key(key.key)


class TranslatedFooter(Footer):
    """Textual's Footer: its keys drawn by FooterKeys (updated in place when the
    screen's bindings change), the palette's key as Textual draws it."""

    #: Only NARROW_ACTIONS are shown (set on a narrow terminal; recompose to apply).
    narrow = False
    #: What the footer's widgets were built from: the same again needs no new widgets.
    _built_from: tuple[object, ...] | None = None

    def _what_it_shows(self) -> tuple[object, ...]:
        palette = self.screen.active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        shown = None
        if palette is not None:
            _node, binding, enabled, tooltip = palette
            shown = (binding.key, self.app.get_key_display(binding), binding.description,
                     binding.action, enabled, tooltip, binding.tooltip)
        return (self.narrow, i18n.language(), footer_bindings_ready(self),
                self.show_command_palette, self.compact, shown)

    def keys(self) -> tuple[ShownKey, ...]:
        """The screen's keys to show (one per action, as Textual's Footer), translated."""
        keys: dict[str, ShownKey] = {}
        for (_node, binding, enabled, tooltip) in self.screen.active_bindings.values():
            if not binding.show or binding.action in keys:
                continue
            if self.narrow and binding.action.rpartition(".")[2] not in NARROW_ACTIONS:
                continue
            keys[binding.action] = ShownKey(
                binding.key, self.app.get_key_display(binding),
                _(binding.description) if binding.description else "", binding.action,
                disabled=not enabled, tooltip=_(tooltip) if tooltip else "")
        return tuple(keys.values())

    def on_mount(self) -> None:
        # Textual's Footer hears of new bindings once its own messages are handled,
        # which is after the frame of the command that changed them (a frame of its
        # own, issue 24); the keys are told at once here (Footer's on_mount, which
        # runs after this one, subscribes Textual's recompose, skipped when only the
        # keys changed).
        self.screen.bindings_updated_signal.subscribe(self, self.show_keys, immediate=True)

    def show_keys(self, screen: Screen[object]) -> None:
        """Show the screen's keys now (a repaint of one line)."""
        if self.is_attached and screen is self.screen:
            for line in self.query(FooterKeys):
                line.show_keys(self.keys())

    async def recompose(self) -> None:
        if self.is_attached:
            shows = self._what_it_shows()
            if shows == self._built_from:
                return
            self._built_from = shows
        await super().recompose()

    def compose(self) -> ComposeResult:
        if not footer_bindings_ready(self):
            return
        line = FooterKeys().data_bind(compact=Footer.compact)
        line.show_keys(self.keys())
        yield line
        for widget in super().compose():
            if isinstance(widget, FooterKey) and widget.has_class("-command-palette"):
                widget.description = _(widget.description) if widget.description else ""
                if isinstance(widget.tooltip, str) and widget.tooltip:
                    widget.tooltip = _(widget.tooltip)
                yield widget

    def shown_keys(self) -> list[ShownKey]:
        """The keys on show, left to right, with their regions; the palette's last."""
        keys = [key for line in self.query(FooterKeys) for key in line.shown()]
        for widget in self.query(FooterKey):
            keys.append(ShownKey(widget.key, widget.key_display, widget.description,
                                 widget.action, widget.has_class("-disabled"),
                                 str(widget.tooltip or ""), widget.region, palette=True))
        return keys


def footer_keys(screen: Screen[object]) -> list[ShownKey]:
    """The keys the screen's footer shows (tests read the footer through this)."""
    return [key for footer in screen.query(TranslatedFooter) for key in footer.shown_keys()]


#: Textual's own descriptions the footer may show (its command palette's key).
TEXTUAL_DESCRIPTIONS = (N_("palette"),)
