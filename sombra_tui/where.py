"""Where the DJ's files are (issue 40 item 4): `sombra-tui --paths` prints it and the
help shows it, in the DJ's language. The folders come from config (platformdirs, or
SOMBRA_TUI_CONFIG_DIR / SOMBRA_TUI_DATA_DIR); the last encounters from ui_state."""

from __future__ import annotations

from pathlib import Path

from sombra_tui import config, ui_state
from sombra_tui.engine.i18n import _


def folders() -> list[tuple[str, Path]]:
    """(what it is, where) for each of the DJ's folders and files, in the language in
    force."""
    return [
        (_("Config folder"), config.config_dir()),
        (_("Keymap and preferences file"), config.preferences_path()),
        (_("Your own themes"), config.user_themes_dir()),
        (_("Data folder (your encounters)"), config.data_dir()),
        (_("Crash journals"), config.journal_dir()),
    ]


def text() -> str:
    """What `sombra-tui --paths` prints: one line per folder, then the last encounters."""
    width = max(len(label) for label, _path in folders()) + 1
    lines = [f"{label + ':':<{width}} {path}" for label, path in folders()]
    recent = ui_state.recently_opened()
    lines.append(_("Last encounters opened:") if recent
                 else _("Last encounters opened: none yet"))
    lines.extend(f"  {path}" for path in recent)
    return "\n".join(lines)


def markdown() -> str:
    """The help's section saying the same, in Markdown."""
    rows = [f"- {label}: `{path}`" for label, path in folders()]
    recent = ui_state.recently_opened()
    rows.append(_("- Last encounters opened:") if recent
                else _("- Last encounters opened: none yet"))
    rows.extend(f"    - `{path}`" for path in recent)
    title = _("Your files")
    how = _("`sombra-tui --paths` prints the same in a terminal.")
    return f"## {title}\n\n" + "\n".join(rows) + f"\n\n{how}\n"


def data_folder_hint() -> str:
    """Said after "file not found": where the encounters are by default."""
    return _("Encounters are saved in {folder} by default ('sombra-tui --paths' lists "
             "your files).").format(folder=config.data_dir())
