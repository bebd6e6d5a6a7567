"""Open and save-as dialogs: a path field with a file tree of the encounters folder."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, DirectoryTree, Input, Static

from sombra_tui import config, ui_state, where
from sombra_tui.engine.i18n import _
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.screens.dialogs.fields import Field, TextInput
from sombra_tui.screens.dialogs.parsing import FormError

SUFFIX = ".json"


class EncounterTree(DirectoryTree):
    """Folders and JSON files only (encounters are JSON)."""

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        # Crash journals and the app's own notes (the table's cursor, the last
        # encounters opened) are not encounters.
        hidden = {config.journal_dir(), ui_state.path(), ui_state.recent_path()}
        return [p for p in paths if not p.name.startswith(".") and p not in hidden
                and (p.is_dir() or p.name.endswith(SUFFIX))]


class FileDialog(Dialog[Path]):
    """`mode` is 'open' or 'save'. Returns the chosen path; Escape returns None."""

    ASKS_ON_ESCAPE = True  # sends no command, yet Escape asks before typing is lost (issue 35)

    DEFAULT_CSS = """
    FileDialog EncounterTree { height: 12; }
    """
    #: The file name field first, not the tree (Textual focuses the first focusable
    #: widget as the dialog is built, and keys typed meanwhile would go to the tree).
    AUTO_FOCUS = "#path"

    def __init__(self, mode: str, folder: Path, suggested: str = "", *,
                 title: str | None = None, confirm: str | None = None) -> None:
        """`title` and `confirm` (a button label with {key}) name what the file is for
        when it is not opening or saving the encounter (importing characters)."""
        super().__init__()
        self.mode = mode
        self.folder = folder
        self.suggested = suggested
        self.title_ = title
        self.confirm = confirm

    def compose(self) -> ComposeResult:
        title = self.title_ or (_("Open an encounter") if self.mode == "open"
                                else _("Save the encounter as"))
        with Vertical(id="dialog"):
            yield Static(title, id="dialog-title")
            yield Static(_("Folder: {folder}").format(folder=self.folder), classes="note")
            yield EncounterTree(self.folder, id="tree")
            yield Field(_("File"), TextInput(self.suggested, id="path",
                                         placeholder=_("name.json or a full path")),
                        field_id="path", hint=self.keyed(_("{key} confirms"), "dialog.confirm"))
            yield Static("", id="form-error")
            with Horizontal(classes="buttons"):
                label = self.keyed(self.confirm or (_("Open ({key})") if self.mode == "open"
                                                    else _("Save ({key})")), "dialog.confirm")
                yield Button(label, id="ok", variant="primary")
                yield Button(self.keyed(_("Cancel ({key})"), "dialog.cancel"), id="cancel")

    def on_mount(self) -> None:
        self.set_focus(self.query_one("#path", Input))

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        self.query_one("#path", Input).value = str(event.path)
        if self.mode == "open":
            self.submit()

    def resolve_path(self) -> Path:
        text = self.value("path").strip()
        if not text:
            raise FormError("path", _("Type a file name or pick one in the tree."))
        path = Path(text).expanduser()
        if not path.is_absolute():
            path = self.folder / path
        if self.mode == "save" and (path.is_dir() or text.endswith(("/", os.sep))):
            # Before the suffix: "FOLDER" would become "FOLDER.json" beside it.
            raise FormError("path", _("{path} is a folder: give a file name.").format(
                path=path))
        if self.mode == "save" and not path.name.endswith(SUFFIX):
            path = path.with_name(path.name + SUFFIX)
        return path

    def build(self) -> Path:
        path = self.resolve_path()
        if self.mode == "open":
            if path.is_dir():
                raise FormError("path", _("{path} is a folder: pick a file.").format(path=path))
            if not path.exists():
                raise FormError("path", _("{path} does not exist.").format(path=path)
                                + " " + where.data_folder_hint())
        elif not path.parent.exists():
            raise FormError("path", _("The folder {folder} does not exist.").format(
                folder=path.parent))
        return path
