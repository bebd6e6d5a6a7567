"""Modal dialogs (ModalScreen[T]); each returns its result through `dismiss`.

Each dialog's module is imported when its name is first asked for (issue 24: the app's
first screen needs none of them, and the help's Markdown alone pulls markdown_it)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sombra_tui.screens.dialogs.character import CharacterEditor
    from sombra_tui.screens.dialogs.confirm import ChoiceDialog, ConfirmDialog
    from sombra_tui.screens.dialogs.declaration import DeclarationEditor
    from sombra_tui.screens.dialogs.extended import ExtendedDialog
    from sombra_tui.screens.dialogs.files import FileDialog
    from sombra_tui.screens.dialogs.free_ta import FreeTADialog
    from sombra_tui.screens.dialogs.help import HelpScreen
    from sombra_tui.screens.dialogs.new_encounter import NewEncounterDialog
    from sombra_tui.screens.dialogs.opposed import OpposedDialog, OpposedResultDialog
    from sombra_tui.screens.dialogs.reaction import ReactionDialog
    from sombra_tui.screens.dialogs.roster import RosterDialog
    from sombra_tui.screens.dialogs.settings import SettingsDialog
    from sombra_tui.screens.dialogs.ta import TADialog

#: Each name and the module (in this package) that defines it.
_MODULES = {
    "CharacterEditor": "character", "ChoiceDialog": "confirm", "ConfirmDialog": "confirm",
    "DeclarationEditor": "declaration", "ExtendedDialog": "extended", "FileDialog": "files",
    "FreeTADialog": "free_ta", "HelpScreen": "help", "NewEncounterDialog": "new_encounter",
    "OpposedDialog": "opposed", "OpposedResultDialog": "opposed",
    "ReactionDialog": "reaction", "RosterDialog": "roster", "SettingsDialog": "settings",
    "TADialog": "ta",
}

__all__ = [
    "CharacterEditor", "ChoiceDialog", "ConfirmDialog", "DeclarationEditor", "ExtendedDialog",
    "FileDialog", "FreeTADialog", "HelpScreen", "NewEncounterDialog", "OpposedDialog",
    "OpposedResultDialog",
    "ReactionDialog", "RosterDialog", "SettingsDialog", "TADialog",
]


def __getattr__(name: str) -> Any:
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value  # asked once
    return value
