"""Modal dialogs (ModalScreen[T]); each returns its result through `dismiss`."""

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

__all__ = [
    "CharacterEditor", "ChoiceDialog", "ConfirmDialog", "DeclarationEditor", "ExtendedDialog",
    "FileDialog", "FreeTADialog", "HelpScreen", "NewEncounterDialog", "OpposedDialog",
    "OpposedResultDialog",
    "ReactionDialog", "RosterDialog", "SettingsDialog", "TADialog",
]
