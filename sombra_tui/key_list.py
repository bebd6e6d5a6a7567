"""Every key binding of sombra-tui, declared once: the list (:data:`KEYS`), each with
its id, default key(s), action, footer label, help sentence, scope and help group.
What is done with it (Textual's bindings, the palette, showing and rebinding keys, the
key tables) is in :mod:`sombra_tui.keys`, which gives these names too."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sombra_tui.engine.i18n import N_


class Scope(StrEnum):
    """Where a binding applies."""

    APP = "app"  # the app: on the main screen (priority ones in dialogs too)
    MAIN = "main"  # the main screen
    TABLE = "table"  # the initiative table (focused on the main screen)
    DIALOG = "dialog"  # every dialog
    FORM = "form"  # a form's lists, dropdowns and checkboxes
    ROLL = "roll"  # the dialogs that roll a TA: TA, free TA, reaction, opposed
    REACTION = "reaction"
    DECLARATION = "declaration"
    EXTENDED = "extended"
    CONFIRM = "confirm"
    OPPOSED_RESULT = "opposed_result"
    HIT = "hit"  # the hit proposal
    SHEET = "sheet"  # the character sheet
    CHARACTER = "character"  # the character editor (a new character, or edit)
    HELP = "help"
    FORECAST = "forecast"  # what the coming asaltos hold
    PLAYERS = "players"  # the players' view in a terminal (sombra-tui players)


#: The scopes in force together, by where the DJ is: two bindings of one of these on
#: one key clash (the app's priority bindings apply in each of them as well).
CONTEXTS: dict[str, tuple[Scope, ...]] = {
    N_("on the main screen"): (Scope.APP, Scope.MAIN, Scope.TABLE),
    N_("in the TA dialogs"): (Scope.DIALOG, Scope.FORM, Scope.ROLL),
    N_("in the reacción dialog"): (Scope.DIALOG, Scope.FORM, Scope.ROLL, Scope.REACTION),
    N_("in the declaration editor"): (Scope.DIALOG, Scope.FORM, Scope.DECLARATION),
    N_("in the extended action dialog"): (Scope.DIALOG, Scope.FORM, Scope.EXTENDED),
    N_("in the yes/no question"): (Scope.DIALOG, Scope.CONFIRM),
    N_("in the opposed result"): (Scope.DIALOG, Scope.OPPOSED_RESULT),
    N_("in the hit proposal"): (Scope.DIALOG, Scope.FORM, Scope.HIT),
    N_("in the character sheet"): (Scope.DIALOG, Scope.FORM, Scope.SHEET),
    N_("in the character editor"): (Scope.DIALOG, Scope.FORM, Scope.CHARACTER),
    N_("in the help"): (Scope.DIALOG, Scope.HELP),
    N_("in the coming asaltos"): (Scope.DIALOG, Scope.FORECAST),
    N_("in the players' view in a terminal"): (Scope.PLAYERS,),
}


class Group(StrEnum):
    """The help's and README's sections of the key table."""

    ROUND = N_("The round")
    CHARACTERS = N_("Characters")
    FILES = N_("Files and the app")
    TABLE = N_("The initiative table")
    DIALOGS = N_("In dialogs")


@dataclass(frozen=True)
class Key:
    id: str
    #: Default key(s), comma-separated, as Textual names them ("ctrl+s", "question_mark").
    keys: str
    action: str
    #: Short: the footer's label.
    description: str
    #: One sentence: the help, the palette and README say this.
    help: str
    scope: Scope
    group: Group
    #: Shown in the footer.
    show: bool = False
    priority: bool = False
    #: The command palette's title for it; None keeps it out of the palette.
    title: str | None = None
    #: An app binding that works on the main screen only: a priority binding there, so
    #: the dialog it opens is up before the next key is read (as the main screen's own
    #: keys, above); in front of a dialog the key is the dialog's (typed in a field).
    #: The palette runs it over any screen.
    main_only: bool = False


KEYS: tuple[Key, ...] = (
    # ---- the main screen: the round --------------------------------------------------
    # Priority bindings: the app runs them as it reads the key, so a dialog they open is
    # on screen before the next key is read, and keys typed right after reach it (a
    # plain binding runs later, once the key has bubbled up from the table, and the
    # keys typed meanwhile would go to the main screen). The table never edits text.
    Key("next_step", "space", "next_step", N_("Next"),
        N_("The next step: start, declare, react, resolve, next phase, next round"),
        Scope.MAIN, Group.ROUND, priority=True, show=True, title=N_("Next step")),
    Key("declare", "d", "declare", N_("Declare"), N_("The current character declares"),
        Scope.MAIN, Group.ROUND, priority=True, show=True, title=N_("Declare")),
    Key("react", "r", "react", N_("React"), N_("Answer the open reacción prompt"),
        Scope.MAIN, Group.ROUND, priority=True, show=True, title=N_("React")),
    Key("decline", "x", "decline", N_("Decline"),
        N_("The prompted character does not react (no roll, no lock)"),
        Scope.MAIN, Group.ROUND, priority=True, show=True, title=N_("Decline the reacción")),
    Key("allow_prompt", "A", "allow_prompt", N_("DJ allow"),
        N_("DJ: let the selected character react to the latest declaration"),
        Scope.MAIN, Group.ROUND, priority=True, title=N_("DJ: allow a reacción")),
    Key("deny_prompt", "z", "deny_prompt", N_("DJ deny"),
        N_("DJ: withdraw the open reacción prompt"),
        Scope.MAIN, Group.ROUND, priority=True, title=N_("DJ: deny the reacción")),
    Key("roll", "t", "roll", N_("Roll"), N_("Roll the acting character's TA"),
        Scope.MAIN, Group.ROUND, priority=True, show=True, title=N_("Roll the TA")),
    Key("type_dice", "y", "type_dice", N_("Type dice"),
        N_("Type the dice the player rolled, dS first"),
        Scope.MAIN, Group.ROUND, priority=True, show=True, title=N_("Type dice")),
    Key("free_ta", "f", "free_ta", N_("Free TA"),
        N_("DJ: a TA for any character outside the steps: perception, first aid, "
           "a sentinel's confirming TA"),
        Scope.MAIN, Group.ROUND, priority=True, title=N_("DJ: free TA")),
    Key("prevent", "p", "prevent", N_("Prevented"),
        N_("The selected character's round action is cancelled (again: undo the mark)"),
        Scope.MAIN, Group.ROUND, priority=True, title=N_("Mark prevented")),
    Key("toggle_out", "o", "toggle_out", N_("Out/back"),
        N_("The selected character is out, or back"),
        Scope.MAIN, Group.ROUND, priority=True, title=N_("Mark out / back")),
    Key("adjust_extended", "j", "adjust_extended", N_("Extended"),
        N_("Adjust an extended action (duration, successes, GD) or abandon it"),
        Scope.MAIN, Group.ROUND, priority=True, title=N_("Adjust an extended action")),
    Key("undo", "u,ctrl+z", "undo", N_("Undo"), N_("Undo the last command"),
        Scope.MAIN, Group.ROUND, priority=True, show=True, title=N_("Undo")),
    Key("redo", "U,ctrl+y", "redo", N_("Redo"), N_("Redo the undone command"),
        Scope.MAIN, Group.ROUND, priority=True, title=N_("Redo")),
    # ---- the main screen: characters and settings ---------------------------------------
    Key("add_character", "a", "add_character", N_("Add"),
        N_("Add a character or a reinforcement; '4 Matón' adds Matón 1-4"),
        Scope.MAIN, Group.CHARACTERS, priority=True, title=N_("Add a character")),
    Key("edit_character", "e", "edit_character", N_("Edit"),
        N_("Edit the selected character"),
        Scope.MAIN, Group.CHARACTERS, priority=True, title=N_("Edit the character")),
    Key("duplicate_character", "c", "duplicate_character", N_("Duplicate"),
        N_("A copy of the selected character's sheet, numbered: Matón 2 gives the next "
           "Matón"),
        Scope.MAIN, Group.CHARACTERS, priority=True, title=N_("Duplicate the character")),
    Key("forecast", "l", "forecast", N_("Ahead"),
        N_("What the coming asaltos hold: bleeding due, conditions ending, extended TAs, "
           "your notes"),
        Scope.MAIN, Group.ROUND, priority=True, title=N_("What the coming asaltos hold")),
    Key("sheet", "w", "sheet", N_("Sheet"),
        N_("The selected character's sheet: points, wounds, conditions and weapons; heal, "
           "attend, add a condition or a hit"),
        Scope.MAIN, Group.CHARACTERS, show=True, priority=True, title=N_("Character sheet")),
    Key("manual_hit", "h", "manual_hit", N_("Hit"),
        N_("A hit the tracker did not roll on the selected character: a fall, fire"),
        Scope.MAIN, Group.CHARACTERS, priority=True, title=N_("Hit by hand")),
    # Issue 39 item 4: one line on the selected row, opened with the sign typed.
    Key("quick_damage", "minus", "quick_points('-')", N_("Damage"),
        N_("Quick damage on the selected character: -7 chest is a hit by hand of 7 on the "
           "chest"),
        Scope.MAIN, Group.CHARACTERS, priority=True, title=N_("Quick damage (-7 chest)")),
    Key("quick_heal", "plus", "quick_points('+')", N_("Heal"),
        N_("Quick healing of the selected character: +3 heals 3 points"),
        Scope.MAIN, Group.CHARACTERS, priority=True, title=N_("Quick healing (+3)")),
    Key("remove_character", "delete", "remove_character", N_("Remove"),
        N_("Remove the selected character (asks; undo brings them back)"),
        Scope.MAIN, Group.CHARACTERS, priority=True, title=N_("Remove the character")),
    Key("reveal_character", "v", "reveal_character", N_("Show to players"),
        N_("The players' view shows the selected character (an ambush sprung)"),
        Scope.MAIN, Group.CHARACTERS, priority=True,
        title=N_("Show the character to the players")),
    Key("hide_character", "V", "hide_character", N_("Hide from players"),
        N_("The players' view leaves the selected character out until shown again"),
        Scope.MAIN, Group.CHARACTERS, priority=True,
        title=N_("Hide the character from the players")),
    Key("settings", "g", "settings", N_("Settings"),
        N_("Encounter settings: reacción, niveles de calidad, iniciativa variable, whose "
           "dice (the table or the tracker), language, what the players see; PV, damage "
           "types and bleeding"),
        Scope.MAIN, Group.CHARACTERS, priority=True, title=N_("Encounter settings")),
    # The app's action, bound on the main screen only (not in dialogs, where ctrl+n adds
    # an action); its palette entry is among the app's commands.
    Key("new_encounter", "ctrl+n", "app.new_encounter", N_("New encounter"),
        N_("A new empty encounter, optionally with a party file's characters (asks if "
           "unsaved)"),
        Scope.MAIN, Group.FILES, priority=True, title=N_("New encounter")),
    # ---- the initiative table (focused on the main screen) -------------------------------
    Key("table.edit", "enter", "select_row", N_("Edit"),
        N_("Edit the character of the row"), Scope.TABLE, Group.TABLE),
    Key("table.up", "up", "cursor_up", N_("Up"), N_("The row above"),
        Scope.TABLE, Group.TABLE),
    Key("table.down", "down", "cursor_down", N_("Down"), N_("The row below"),
        Scope.TABLE, Group.TABLE),
    Key("table.page_up", "pageup", "page_up", N_("Page up"), N_("A page up"),
        Scope.TABLE, Group.TABLE),
    Key("table.page_down", "pagedown", "page_down", N_("Page down"), N_("A page down"),
        Scope.TABLE, Group.TABLE),
    Key("table.first", "home", "first_row", N_("First"), N_("The first row"),
        Scope.TABLE, Group.TABLE),
    Key("table.last", "end", "last_row", N_("Last"), N_("The last row"),
        Scope.TABLE, Group.TABLE),
    # ---- the app ----------------------------------------------------------------------
    # Each opens a dialog (save: the first time), so each is a priority binding on the
    # main screen only (main_only), as the main screen's keys above.
    Key("save", "ctrl+s", "save", N_("Save"), N_("Save the encounter"),
        Scope.APP, Group.FILES, show=True, title=N_("Save"), priority=True, main_only=True),
    Key("save_as", "f2", "save_as", N_("Save as"), N_("Save the encounter to a new file"),
        Scope.APP, Group.FILES, title=N_("Save as"), priority=True, main_only=True),
    Key("open", "ctrl+o", "open", N_("Open"),
        N_("Open an encounter file (asks if unsaved)"),
        Scope.APP, Group.FILES, title=N_("Open"), priority=True, main_only=True),
    Key("import_roster", "i", "import_roster", N_("Import"),
        N_("Import characters from another encounter file, e.g. the party"),
        Scope.APP, Group.FILES, title=N_("Import characters"), priority=True,
        main_only=True),
    Key("players_view", "f8", "players_view", N_("Players"),
        N_("The players' view: a page for a TV or phones that follows the combat; "
           "starts it and shows its address and QR code, or stops it"),
        Scope.APP, Group.FILES, title=N_("Players' view (start / stop)"), priority=True,
        main_only=True),
    Key("report", "ctrl+e", "report", N_("Report"),
        N_("Write the combat's report (Markdown and an HTML page that prints) beside the "
           "encounter's file, or in the data folder if it is not saved"),
        Scope.APP, Group.FILES, title=N_("Combat report"), priority=True, main_only=True),
    Key("command_palette", "ctrl+p", "command_palette", N_("palette"),
        N_("The command palette: every command, and the themes"),
        Scope.APP, Group.FILES, priority=True),
    # F1 as in other terminal apps (Posting, Harlequin...); ? as before.
    Key("help", "question_mark,f1", "help", N_("Help"), N_("Keys and rules summary"),
        Scope.APP, Group.FILES, show=True, title=N_("Help"), priority=True, main_only=True),
    # Quitting: every way out asks first if there are unsaved changes (App.action_quit,
    # also behind Textual's own "Quit" palette command).
    Key("quit", "q", "quit", N_("Quit"), N_("Quit (asks if there are unsaved changes)"),
        Scope.APP, Group.FILES, show=True, priority=True, main_only=True),
    # Its own action: "quit" is the main screen's only (main_only above).
    Key("quit_anywhere", "ctrl+q", "quit_anywhere", N_("Quit"),
        N_("Quit from anywhere, dialogs too (asks if there are unsaved changes)"),
        Scope.APP, Group.FILES, priority=True),
    Key("quit_ctrl_c", "ctrl+c", "quit", N_("Quit"),
        N_("Quit (asks if there are unsaved changes); copies in a text field"),
        Scope.APP, Group.FILES, priority=True, main_only=True),
    # ---- dialogs --------------------------------------------------------------------
    Key("dialog.cancel", "escape", "cancel", N_("Cancel"),
        N_("Back out of the dialog without changing anything (a form you typed in asks "
           "first)"), Scope.DIALOG, Group.DIALOGS),
    Key("dialog.confirm", "enter", "confirm_dialog", N_("Confirm"),
        N_("Confirm the dialog, from any field (a dropdown list too)"),
        Scope.FORM, Group.DIALOGS),
    # Not enter (it confirms from any field) nor space (the hit proposal's accept).
    Key("dialog.open_list", "down,up", "show_overlay", N_("Open list"),
        N_("Open the focused dropdown list (in it, enter picks and escape closes it)"),
        Scope.FORM, Group.DIALOGS),
    Key("dialog.next_field", "tab", "app.focus_next", N_("Next field"),
        N_("The next field"), Scope.DIALOG, Group.DIALOGS, priority=True),
    Key("dialog.previous_field", "shift+tab", "app.focus_previous", N_("Previous field"),
        N_("The previous field"), Scope.DIALOG, Group.DIALOGS, priority=True),
    Key("dialog.roll", "ctrl+r", "roll", N_("Roll"),
        N_("Roll the dice still empty (when the table rolls a side's dice, enter with "
           "them empty asks for them; when the tracker rolls, enter rolls)"),
        Scope.ROLL, Group.DIALOGS, show=True),
    Key("reaction.mode", "ctrl+t", "toggle_mode", N_("Combine/substitute"),
        N_("Reacción: combine with the declaration, or substitute it"),
        Scope.REACTION, Group.DIALOGS, show=True),
    Key("reaction.decline", "ctrl+b", "decline", N_("Decline"),
        N_("Reacción: decline it"), Scope.REACTION, Group.DIALOGS, show=True),
    Key("declaration.add_action", "ctrl+n", "add_action", N_("Another action"),
        N_("Declaration: another action"), Scope.DECLARATION, Group.DIALOGS, show=True),
    # Not ctrl+r: that rolls the dice in every dialog that rolls. A priority binding:
    # it declares as the key is read, so a `d` typed right after it opens the next
    # declarer's editor instead of landing in this one's field.
    Key("declaration.inaction", "ctrl+b", "inaction", N_("Inaction"),
        N_("Declaration: inaction"), Scope.DECLARATION, Group.DIALOGS, show=True,
        priority=True),
    # Issue 39 item 2: not ctrl+r (it rolls in the dialogs that roll).
    Key("declaration.repeat", "ctrl+l", "repeat_last", N_("Repeat last"),
        N_("Declaration: the character's last declaration again, in the form (enter sends "
           "it)"), Scope.DECLARATION, Group.DIALOGS, show=True, priority=True),
    # Issue 39 item 3: "los 4 Matones": every character of the declarer's side who
    # declares right after it, ticked (or all unticked) in the form's "also for" list.
    Key("declaration.together", "ctrl+g", "together", N_("Together"),
        N_("Declaration: the same for the next characters of the declarer's side, each in "
           "turn (all or none)"), Scope.DECLARATION, Group.DIALOGS, show=True,
        priority=True),
    Key("extended.abandon", "ctrl+b", "abandon", N_("Abandon"),
        N_("Extended action: abandon it"), Scope.EXTENDED, Group.DIALOGS, show=True),
    Key("confirm.yes", "y", "confirm", N_("Yes"), N_("Yes/no question: yes"),
        Scope.CONFIRM, Group.DIALOGS, show=True),
    Key("confirm.no", "n", "cancel", N_("No"), N_("Yes/no question: no (as escape)"),
        Scope.CONFIRM, Group.DIALOGS, show=True),
    Key("opposed.confirm_ta", "f", "confirm_ta", N_("Confirming TA"),
        N_("Opposed result: the sentinel's confirming TA"),
        Scope.OPPOSED_RESULT, Group.DIALOGS),
    Key("hit.accept", "space", "submit", N_("Accept"),
        N_("Hit proposal: accept it (as enter), from any field but a text field"),
        Scope.HIT, Group.DIALOGS, show=True),
    # A priority binding: from the reason field too, where ctrl+d would delete a letter.
    Key("hit.decline", "ctrl+d", "decline", N_("Decline"),
        N_("Hit proposal: decline it, from any field (the reason too)"),
        Scope.HIT, Group.DIALOGS, show=True, priority=True),
    # Issue 39 item 1: a priority binding, so it works from a text field too.
    Key("character.side", "ctrl+t", "toggle_side", N_("PC/NPC"),
        N_("Character editor: the other side (PC or NPC), from any field"),
        Scope.CHARACTER, Group.DIALOGS, show=True, priority=True),
    Key("sheet.hit", "h", "hit", N_("Hit"), N_("Sheet: a hit by hand"),
        Scope.SHEET, Group.DIALOGS, show=True),
    Key("sheet.condition", "c", "condition", N_("Condition"), N_("Sheet: add a condition"),
        Scope.SHEET, Group.DIALOGS, show=True),
    Key("sheet.heal", "plus,H", "heal", N_("Heal"), N_("Sheet: heal, or set G / W"),
        Scope.SHEET, Group.DIALOGS, show=True),
    Key("sheet.attend", "a", "attend", N_("Attend"),
        N_("Sheet: attend the highlighted (or the first bleeding) wound"),
        Scope.SHEET, Group.DIALOGS, show=True),
    Key("sheet.edit", "e", "edit", N_("Edit"),
        N_("Sheet: edit the highlighted wound or condition"),
        Scope.SHEET, Group.DIALOGS, show=True),
    Key("sheet.remove", "delete", "remove", N_("Remove"),
        N_("Sheet: remove the highlighted wound or condition"),
        Scope.SHEET, Group.DIALOGS, show=True),
    # v shows, shift+v hides, as u undoes and U redoes (the same keys on the main screen).
    Key("sheet.reveal", "v", "reveal", N_("Show to players"),
        N_("Sheet: the players' view shows this character (an ambush sprung)"),
        Scope.SHEET, Group.DIALOGS, show=True),
    Key("sheet.hide", "V", "hide", N_("Hide from players"),
        N_("Sheet: the players' view leaves this character out until shown again"),
        Scope.SHEET, Group.DIALOGS, show=True),
    # escape closes it as every dialog (dialog.cancel).
    Key("sheet.close", "q", "cancel", N_("Close"), N_("Close the sheet (as escape)"),
        Scope.SHEET, Group.DIALOGS, show=True),
    Key("help.close", "q,question_mark,f1", "cancel", N_("Close"),
        N_("Close the help (as escape)"), Scope.HELP, Group.DIALOGS),
    Key("forecast.add", "a,n", "add_note", N_("Add a note"),
        N_("The coming asaltos: pin a note to an asalto (the highlighted one's)"),
        Scope.FORECAST, Group.DIALOGS, show=True),
    Key("forecast.edit", "e", "edit_note", N_("Edit"),
        N_("The coming asaltos: change the highlighted note (enter too)"),
        Scope.FORECAST, Group.DIALOGS, show=True),
    Key("forecast.remove", "delete", "remove_note", N_("Remove"),
        N_("The coming asaltos: remove the highlighted note (undo brings it back)"),
        Scope.FORECAST, Group.DIALOGS, show=True),
    Key("forecast.close", "q,l", "cancel", N_("Close"),
        N_("Close the coming asaltos (as escape)"), Scope.FORECAST, Group.DIALOGS),
    Key("players.quit", "q", "quit", N_("Quit"),
        N_("The players' view in a terminal (sombra-tui players): quit"),
        Scope.PLAYERS, Group.FILES),
)

BY_ID: dict[str, Key] = {key.id: key for key in KEYS}
