"""Issue 13, at the table: a new encounter in seconds, the table's own dice first, and
nothing the DJ typed ever lost; the declarations readable and 80x24 holding.

Everything is driven by keyboard, as a DJ would. The newcomer path at the end plays a
whole first round from an empty encounter with keys only.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from rich.console import Console
from textual.widgets import Button, Checkbox, Input, Select, SelectionList, Static

from sombra_tui.app import SombraApp
from sombra_tui.engine import commands as c
from sombra_tui.engine import storage
from sombra_tui.engine.events import EventKind
from sombra_tui.engine.history import Combat
from sombra_tui.engine.model import (
    Action,
    DiceSource,
    Encounter,
    Opposition,
    OppositionMode,
    Settings,
    Side,
)
from sombra_tui.engine.state import Phase, StepStatus
from sombra_tui.screens.dialogs import (
    CharacterEditor,
    ChoiceDialog,
    DeclarationEditor,
    FreeTADialog,
    NewEncounterDialog,
    OpposedDialog,
    OpposedResultDialog,
    ReactionDialog,
    SettingsDialog,
    TADialog,
)
from sombra_tui.screens.dialogs.base import Dialog
from sombra_tui.widgets import footer
from sombra_tui.widgets.declaration_queue import DeclarationQueue
from sombra_tui.widgets.footer import ShownKey
from sombra_tui.widgets.initiative_table import InitiativeTable
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    Dirs,
    assert_unchanged,
    char,
    choose,
    field_error,
    fill,
    focus,
    make_app,
    notifications,
    on_main_screen,
    send_keys,
    session_after,
    snapshot,
    text_of,
    type_text,
)

BOTH_SIZES = pytest.mark.parametrize("size", [SIZE, MIN_SIZE], ids=["120x40", "80x24"])


def pc(name: str, primaria: int, secundaria: int, alerta: int, **fields: Any) -> Any:
    return char(name, primaria, secundaria, alerta, side=Side.PC, **fields)


def table_encounter(**settings: Any) -> Encounter:
    """Ana (PC, the table rolls her dice) and Bruno (NPC, the tracker rolls his)."""
    return Encounter(name="Mesa", seed=5, settings=Settings(**settings), characters=[
        pc("Ana", 8, 3, 14, skills={"Esquivar": 12}),
        char("Bruno", 12, 5, 12, skills={"Pelea": 13})])


def shoots_ana() -> list[c.Command]:
    """Round 1, Ana declared first; Bruno attacks her: Ana's prompt is open (D4)."""
    return [c.StartCombat(),
            c.Declare(character="Ana", actions=[Action(description="aims", target=14)]),
            c.Declare(character="Bruno", actions=[Action(description="punches Ana",
                                                         skill="Pelea", targets=["Ana"])])]


def _plain(widget: Static) -> str:
    """What a Static shows, as plain text (wide: no wrapping)."""
    console = Console(width=500, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


def visible(widget: Any) -> bool:
    """Wholly on the screen, not clipped by its scrolling parents (what the DJ sees)."""
    region = widget.region
    screen = widget.screen.region
    return bool(region) and screen.contains_region(region) and \
        widget.screen.find_widget(widget).region == region


# ---- 1. a new encounter --------------------------------------------------------------------


async def test_ctrl_n_asks_about_unsaved_changes_then_starts_an_empty_encounter() -> None:
    app = make_app(journal=False)  # the demo, six characters
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space")  # a change: the demo starts
        assert app.session.dirty
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert isinstance(app.screen, ChoiceDialog)  # save / discard / cancel
        assert text_of(app, "#question") == ("The encounter has unsaved changes. Save them "
                                             "before starting a new encounter?")
        await pilot.press("escape")
        await pilot.pause()
        assert on_main_screen(app) and len(app.session.combat.state.characters) == 6
        await pilot.press("ctrl+n")
        await pilot.pause()
        await pilot.press("d")  # discard
        await pilot.pause()
        assert isinstance(app.screen, NewEncounterDialog)
        await fill(pilot, "name", "La verja")
        await pilot.press("enter")
        await pilot.pause()
        assert on_main_screen(app)
        combat = app.session.combat
        assert combat.state.name == "La verja" and combat.state.characters == []
        assert combat.log == [] and combat.commands == []  # no "leaves the encounter"
        assert not app.session.dirty and app.session.path is None
        assert combat.state.phase is Phase.SETUP


async def test_the_palette_lists_new_encounter_and_a_party_file_joins_at_creation(
        app_dirs: Dirs) -> None:
    app_dirs.data.mkdir(parents=True, exist_ok=True)
    party = Combat(Encounter(name="Grupo", characters=[pc("Ana", 8, 3, 14),
                                                       pc("Iker", 10, 6, 12)]))
    storage.save(party, app_dirs.data / "grupo.json")
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        new = next(command for command in app.get_system_commands(app.main_screen)
                   if command.title == "New encounter")
        new.callback()
        await pilot.pause()
        assert isinstance(app.screen, NewEncounterDialog)
        await fill(pilot, "party", "no-such.json")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, NewEncounterDialog)
        assert "does not exist" in field_error(app, "party")
        await fill(pilot, "party", "grupo.json")
        assert field_error(app, "party") == ""  # fixed: the error line goes
        await pilot.press("enter")
        await pilot.pause()
        assert on_main_screen(app)
        assert [ch.name for ch in app.session.combat.state.characters] == ["Ana", "Iker"]
        assert app.session.combat.log == []


# ---- 2. many characters at once ----------------------------------------------------------


async def test_four_maton_in_the_add_dialog_is_one_undoable_command_and_c_duplicates(
        ) -> None:
    app = make_app(session_after(Encounter(name="E", characters=[pc("Ana", 8, 3, 14)])),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        assert isinstance(app.screen, CharacterEditor)
        await type_text(pilot, "4 Matón")
        await fill(pilot, "primaria", "10")
        await fill(pilot, "secundaria", "2")
        await fill(pilot, "alerta", "9")
        await fill(pilot, "skills", "Pelea 13")
        await pilot.press("enter")
        await pilot.pause()
        assert on_main_screen(app)
        combat = app.session.combat
        names = [ch.name for ch in combat.state.characters]
        assert names == ["Ana", "Matón 1", "Matón 2", "Matón 3", "Matón 4"]
        assert len(combat.commands) == 1 and isinstance(combat.commands[0], c.AddCharacters)
        assert all(ch.skills == {"Pelea": 13} for ch in combat.state.characters[1:])
        table = app.main_screen.query_one(InitiativeTable)
        assert table.selected_name == "Matón 1"
        # c duplicates the selected row: the next Matón, same sheet.
        await pilot.press("c")
        assert combat.state.characters[-1].name == "Matón 5"
        assert combat.state.characters[-1].skills == {"Pelea": 13}
        await pilot.press("u", "u")
        assert [ch.name for ch in combat.state.characters] == ["Ana"]
        # Too many at once is refused next to the name.
        await pilot.press("a")
        await type_text(pilot, "99 Matón")
        await fill(pilot, "primaria", "1")
        await fill(pilot, "secundaria", "1")
        await fill(pilot, "alerta", "1")
        await pilot.press("enter")
        assert isinstance(app.screen, CharacterEditor)
        assert field_error(app, "name") == "At most 50 characters at once, not 99."


# ---- 3. whose dice -----------------------------------------------------------------------------


async def test_t6_the_table_types_a_pcs_dice_enter_empty_asks_the_tracker_rolls_an_npcs(
        ) -> None:
    """Ana (PC): her reaction dialog opens on the dice; Enter with them empty asks for
    them and changes nothing. Bruno (NPC): Enter with no dice rolls his TA."""
    app = make_app(session_after(table_encounter(), *shoots_ana()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, ReactionDialog)
        assert app.focused is not None and app.focused.id == "dice"  # first when typed
        dice = app.screen.query_one("#dice", Input)
        assert dice.placeholder == "the player's dice: dS d+ d-"
        await focus(pilot, "a0-description")
        await type_text(pilot, "dodges")
        before = snapshot(app)
        await pilot.press("enter")
        assert isinstance(app.screen, ReactionDialog)
        assert field_error(app, "dice").startswith("Type the dice the player rolled")
        assert app.focused is dice
        assert_unchanged(app, before)
        await type_text(pilot, "3 4 2")
        assert field_error(app, "dice") == ""
        await pilot.press("enter")
        await pilot.pause()
        assert on_main_screen(app)
        react = app.session.combat.commands[-1]
        assert isinstance(react, c.React) and react.dice is not None
        assert (react.dice.ds, react.dice.a, react.dice.b) == (3, 4, 2)
        await pilot.press("x")  # Bruno does not counter-react
        await pilot.press("space", "space")  # to the round phase: Bruno (12) acts first
        assert app.session.combat.state.phase is Phase.ROUND
        await pilot.press("y")
        assert isinstance(app.screen, TADialog)
        assert app.screen.query_one("#dice", Input).placeholder == "empty: roll"
        await pilot.press("enter")  # the tracker rolls Bruno's dice
        await pilot.pause()
        assert on_main_screen(app)
        resolved = app.session.combat.commands[-1]
        assert isinstance(resolved, c.Resolve) and resolved.dice is not None
        # Ana's own step: the table's, so the dice come first and Enter asks for them.
        await pilot.press("y")
        assert isinstance(app.screen, TADialog) and app.focused is not None
        assert app.focused.id == "dice"
        await pilot.press("enter")
        assert field_error(app, "dice").startswith("Type the dice")
        await pilot.press("ctrl+r")  # ctrl+r rolls them all the same
        assert app.screen.query_one("#dice", Input).value != ""
        await fill(pilot, "target", "12")
        await pilot.press("enter")
        await pilot.pause()
        assert on_main_screen(app)


async def test_the_settings_give_the_pcs_dice_to_the_tracker_and_then_enter_rolls() -> None:
    app = make_app(session_after(table_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        assert isinstance(app.screen, SettingsDialog)
        await choose(pilot, "pc-dice", DiceSource.TRACKER)
        await choose(pilot, "npc-dice", DiceSource.TABLE)
        await focus(pilot, "points")
        await pilot.press("enter")
        await pilot.pause()
        settings = app.session.combat.state.settings
        assert (settings.pc_dice, settings.npc_dice) == (DiceSource.TRACKER, DiceSource.TABLE)
        for command in shoots_ana():
            app.main_screen.run_command(command)
        await pilot.press("r")
        assert isinstance(app.screen, ReactionDialog)
        assert app.focused is not None and app.focused.id == "a0-description"
        await type_text(pilot, "dodges")
        await pilot.press("enter")  # the tracker rolls Ana's Alerta now
        await pilot.pause()
        assert on_main_screen(app)
        react = app.session.combat.commands[-1]
        assert isinstance(react, c.React) and react.dice is not None  # rolled
        while app.session.combat.state.top_prompt is not None:
            await pilot.press("x")
        app.main_screen.run_command(c.Advance())
        app.main_screen.run_command(c.Advance())
        # Bruno (NPC, now the table's) acts first: his dice are asked for.
        await pilot.press("y")
        assert isinstance(app.screen, TADialog) and app.screen.step.character == "Bruno"
        assert app.focused is not None and app.focused.id == "dice"
        await pilot.press("enter")
        assert field_error(app, "dice").startswith("Type the dice")


def grab_the_key() -> list[c.Command]:
    """Ana and Bruno both want the key (O2); the round phase, Bruno (12) acts first."""
    return [c.StartCombat(),
            c.Declare(character="Ana", actions=[Action(
                description="keeps the key", target=12, opposition=Opposition(
                    mode=OppositionMode.DIRECT, against=["Bruno"]))]),
            c.Declare(character="Bruno", actions=[Action(
                description="grabs the key", target=13, opposition=Opposition(
                    mode=OppositionMode.DIRECT, against=["Ana"]))]),
            c.Advance(), c.Advance()]


async def test_the_free_ta_and_an_opposed_step_ask_the_tables_dice_and_roll_the_trackers(
        ) -> None:
    app = make_app(session_after(table_encounter(), *grab_the_key()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        assert app.session.combat.state.phase is Phase.ROUND
        await pilot.press("space")  # Bruno acts first: all roll (O2)
        assert isinstance(app.screen, OpposedDialog)
        before = snapshot(app)
        await pilot.press("enter")
        assert isinstance(app.screen, OpposedDialog)
        ana = next(slug for name, slug in app.screen.slugs.items() if name == "Ana")
        assert field_error(app, f"{ana}-dice").startswith("Type the dice Ana's player rolled")
        assert not app.screen.query(f"#error-{app.screen.slugs['Bruno']}-dice")  # tracker's
        assert_unchanged(app, before)
        await fill(pilot, f"{ana}-dice", "1 2 3")
        await pilot.press("enter")
        await pilot.pause()
        opposed = app.session.combat.commands[-1]
        assert isinstance(opposed, c.ResolveOpposed)
        assert [(r.character, (r.dice.ds, r.dice.a, r.dice.b)) for r in opposed.rolls
                if r.character == "Ana"] == [("Ana", (1, 2, 3))]
        await pilot.press("escape")  # the result dialog
        await pilot.pause()
        # The DJ's free TA for Ana: the dice first, Enter empty asks.
        table = app.main_screen.query_one(InitiativeTable)
        table.select_name("Ana")
        await pilot.press("f")
        assert isinstance(app.screen, FreeTADialog)
        assert app.focused is not None and app.focused.id == "dice"
        await fill(pilot, "target", "12")
        await pilot.press("enter")
        assert isinstance(app.screen, FreeTADialog)
        assert field_error(app, "dice").startswith("Type the dice")
        await choose(pilot, "who", "Bruno")  # the tracker's: Enter rolls
        await focus(pilot, "target")
        await pilot.press("enter")
        await pilot.pause()
        assert on_main_screen(app)
        free = app.session.combat.commands[-1]
        assert isinstance(free, c.FreeTA) and free.character == "Bruno"


# ---- 4. nothing typed is lost ------------------------------------------------------------------


async def test_d2_a_quick_space_then_enter_on_aimed_at_declares_with_the_target_affected(
        ) -> None:
    """The pre-fill of "Directly affected" comes in a queued message; the submitted
    declaration computes the list from the targets, so the prompt opens (D2, D4)."""
    app = make_app(session_after(table_encounter(), c.StartCombat(), c.Declare(
        character="Ana", actions=[Action(description="aims", target=14)])), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        assert isinstance(app.screen, DeclarationEditor)
        await type_text(pilot, "shoots Ana")
        await focus(pilot, "a0-targets")
        await send_keys(pilot, "space", "enter")  # no pause between them
        await pilot.pause()
        assert on_main_screen(app)
        declaration = app.session.combat.state.declaration_of("Bruno")
        assert declaration is not None and declaration.affected == ["Ana"]
        assert app.session.combat.state.top_prompt is not None  # D4: Ana may react


async def test_an_edited_affected_list_is_what_is_declared() -> None:
    app = make_app(session_after(table_encounter(), c.StartCombat(), c.Declare(
        character="Ana", actions=[Action(description="aims", target=14)])), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await type_text(pilot, "shoots Ana")
        await focus(pilot, "a0-targets")
        await send_keys(pilot, "space")
        await focus(pilot, "affected")
        await send_keys(pilot, "space", "enter")  # the DJ unticks Ana: nobody affected
        await pilot.pause()
        declaration = app.session.combat.state.declaration_of("Bruno")
        assert declaration is not None and declaration.affected == []
        assert declaration.actions[0].targets == ["Ana"]


DECLARATION_KEYS = ["d", *"shoots Ana", "tab", *"Pelea", "tab", "tab", "space", "enter"]


@pytest.mark.parametrize("how", ["pilot.press", "no pause at all"])
async def test_a_whole_dialogs_keys_typed_at_once_all_arrive(how: str) -> None:
    """The declaration dialog opens from the key itself, so keys typed right after d
    reach it (none goes to the main screen's bindings: s, a, P...); Tab moves the focus
    at once, so the text after it lands in the next field."""
    app = make_app(session_after(table_encounter(), c.StartCombat(), c.Declare(
        character="Ana", actions=[Action(description="aims", target=14)])), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        if how == "pilot.press":
            await pilot.press(*DECLARATION_KEYS)
        else:
            await send_keys(pilot, *DECLARATION_KEYS)
        for _ in range(5):
            await pilot.pause()
        assert on_main_screen(app), f"still on {app.screen}"
        declaration = app.session.combat.state.declaration_of("Bruno")
        assert declaration is not None
        [action] = declaration.actions
        assert (action.description, action.skill, action.targets) == \
            ("shoots Ana", "Pelea", ["Ana"])
        assert declaration.affected == ["Ana"]
        assert len(app.session.combat.commands) == 3  # nothing else ran


async def test_text_typed_right_after_tab_lands_in_the_next_field() -> None:
    app = make_app(session_after(table_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await send_keys(pilot, "a", *"Rosa", "tab", *"9", "tab", *"2", "tab", *"11")
        for _ in range(3):
            await pilot.pause()
        assert isinstance(app.screen, CharacterEditor)
        values = {name: app.screen.query_one(f"#{name}", Input).value
                  for name in ("name", "primaria", "secundaria", "alerta")}
        assert values == {"name": "Rosa", "primaria": "9", "secundaria": "2", "alerta": "11"}


# ---- 5. the declarations, readable -----------------------------------------------------------


@BOTH_SIZES
async def test_the_panel_shows_the_selected_characters_whole_declaration(
        size: tuple[int, int]) -> None:
    long = "runs along the pier, jumps onto the boat and cuts the mooring rope"
    app = make_app(session_after(table_encounter(), c.StartCombat(), c.Declare(
        character="Ana", actions=[Action(description=long, skill="Esquivar", gd=1,
                                         targets=["Bruno"])])), journal=False)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = " ".join(_plain(app.main_screen.query_one(DeclarationQueue)).split())
        # Bruno declares now; what Ana declared (lower initiative) takes a line, cut at
        # a word with her target kept (issue 39 item 5), and reads whole on her row.
        assert "Esquivar 12" not in text  # the sheet is not used
        declared = text.partition("Ana: ")[2]
        assert declared.endswith("… · at Bruno"), declared
        assert long.startswith(declared.removesuffix("… · at Bruno"))
        await pilot.press("up")  # the cursor on Ana: her whole declaration on top
        text = " ".join(_plain(app.main_screen.query_one(DeclarationQueue)).split())
        assert f"Declaration of Ana: - {long} [asalto] · Esquivar · GD +1 · at Bruno" \
            in text
        assert "affects: Bruno" in text


# ---- 6. 80x24 holds --------------------------------------------------------------------------


def footer_keys(app: SombraApp) -> dict[str, ShownKey]:
    return {key.key: key for key in footer.footer_keys(app.main_screen)}


async def assert_footer_holds(app: SombraApp) -> None:
    keys = footer_keys(app)
    width = app.size.width
    for key in ("space", "u", "question_mark", "q"):
        assert key in keys, f"{key} not in the footer ({sorted(keys)})"
        assert keys[key].region and keys[key].region.right <= width, f"{key} is cut"


def assert_buttons_whole(app: SombraApp) -> None:
    dialog = app.screen
    assert isinstance(dialog, Dialog)
    for button in dialog.query(Button):
        assert visible(button), f"{button.id} of {type(dialog).__name__} is cut"


async def test_at_80x24_the_footer_the_hint_the_gd_breakdown_and_every_button_hold() -> None:
    app = make_app(session_after(table_encounter(), *shoots_ana()), journal=False)
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.pause()
        await assert_footer_holds(app)
        queue = app.main_screen.query_one(DeclarationQueue)
        text = _plain(queue)
        assert text.startswith("space: Ana reacts to Bruno")
        assert "Alerta 14 - substituting GD +1" in text
        # Both within the panel's visible lines (it scrolls; these are at its top).
        lines = text.splitlines()
        panel = app.main_screen.query_one("#queue-panel")
        rows = panel.scrollable_content_region.height
        assert any("substituting GD +1" in line for line in lines[:rows])
        for key, kind in (("r", ReactionDialog), ("g", SettingsDialog)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, kind)
            assert_buttons_whole(app)
            await pilot.press("escape")
            await pilot.pause()
        await pilot.press("x", "space", "space")
        assert app.session.combat.state.phase is Phase.ROUND
        await assert_footer_holds(app)
        assert _plain(queue).startswith("space: resolve Bruno's action")
        for key, kind in (("y", TADialog), ("f", FreeTADialog), ("a", CharacterEditor)):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, kind)
            assert_buttons_whole(app)
            await pilot.press("escape")
            await pilot.pause()
        app.main_screen.run_command(c.Advance())
        app.main_screen.run_command(c.Advance())
        await pilot.pause()
        await assert_footer_holds(app)


@pytest.mark.usefixtures("spanish")
async def test_at_80x24_in_spanish_the_footer_holds_and_the_table_is_asked_for_its_dice(
        ) -> None:
    """The Spanish words are longer: the narrow footer keeps only its essential keys."""
    app = make_app(session_after(table_encounter(), *shoots_ana()), journal=False)
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.pause()
        await assert_footer_holds(app)
        assert "d" not in footer_keys(app)  # space declares in turn; the help lists d
        await pilot.press("r", "enter")  # enter typed while the dialog opens: kept for it
        assert isinstance(app.screen, ReactionDialog)
        for _turn in range(50):  # handed to the dialog once its first field has the focus
            if app.screen.query("#error-dice"):
                break
            await pilot.pause()
        assert field_error(app, "dice").startswith("Teclea los dados que tiró el jugador")


async def test_at_80x24_the_declaration_dialog_keeps_its_buttons() -> None:
    app = make_app(session_after(table_encounter(), c.StartCombat()), journal=False)
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DeclarationEditor)
        assert_buttons_whole(app)


async def test_at_80x24_the_opposed_its_result_and_the_new_encounter_keep_their_buttons(
        ) -> None:
    app = make_app(session_after(table_encounter(), *grab_the_key()), journal=False)
    async with app.run_test(size=MIN_SIZE) as pilot:
        await pilot.press("space")
        assert isinstance(app.screen, OpposedDialog)
        assert_buttons_whole(app)
        await fill(pilot, f"{app.screen.slugs['Ana']}-dice", "4 4 1")
        await pilot.press("ctrl+r")  # rolls the empty ones (Bruno's), as in every dialog
        bruno = app.screen.query_one(f"#{app.screen.slugs['Bruno']}-dice", Input)
        assert bruno.value != ""
        assert app.screen.query_one(f"#{app.screen.slugs['Ana']}-dice", Input).value == \
            "4 4 1"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, OpposedResultDialog)
        assert_buttons_whole(app)
        await pilot.press("escape", "ctrl+n")
        await pilot.pause()
        if isinstance(app.screen, ChoiceDialog):  # unsaved changes: discard them
            await pilot.press("d")
            await pilot.pause()
        assert isinstance(app.screen, NewEncounterDialog)
        assert_buttons_whole(app)


# ---- 7. small frictions ------------------------------------------------------------------------


async def test_ticked_and_unticked_boxes_differ_by_shape() -> None:
    app = make_app(session_after(table_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("g")
        box = app.screen.query_one("#variable", Checkbox)
        assert not box.value and box._button.plain == "▐ ▌"
        assert app.screen.query_one("#reaccion", Checkbox)._button.plain == "▐X▌"
        await pilot.press("escape")
        app.main_screen.run_command(c.StartCombat())
        await pilot.press("d")
        targets = app.screen.query_one("#a0-targets", SelectionList)
        await focus(pilot, "a0-targets")

        def box_of(row: int) -> str:
            return targets.render_line(row).text[:3]
        assert box_of(0) == "▐ ▌"
        await pilot.press("space")
        assert box_of(0) == "▐X▌"


async def test_one_character_is_singular_and_an_empty_phase_says_space_moves_on() -> None:
    app = make_app(session_after(Encounter(name="E", characters=[pc("Ana", 8, 3, 14)])),
                   journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "1 character. " in _plain(app.main_screen.query_one(DeclarationQueue))
        await pilot.press("space", "d", "ctrl+b", "space")  # inaction: nothing to resolve
        await pilot.pause()
        assert app.session.combat.state.phase is Phase.INSTANT
        assert "Nothing to resolve in this phase: space moves on." in _plain(
            app.main_screen.query_one(DeclarationQueue))


async def test_the_counter_reaction_hint_panel_and_dialog_say_the_same_word() -> None:
    """D9: the hint, the panel and the dialog all say counter-reaction (contrarreacción
    in Spanish), none of them a plain "reacts"."""
    app = make_app(session_after(table_encounter(), *shoots_ana(), c.React(
        character="Ana", mode=c.ReactionMode.SUBSTITUTE, actions=[Action(
            description="dodges", targets=["Bruno"])], dice=c.Dice.of(3, 4, 2))),
        journal=False)
    async with app.run_test(size=SIZE) as pilot:
        text = _plain(app.main_screen.query_one(DeclarationQueue))
        assert text.startswith("space: Bruno's contrarreacción to Ana (x: does not react)")
        assert "Bruno - contrarreacción to Ana" in text
        assert "reacts" not in text
        await pilot.press("r")
        title = str(app.screen.query_one("#dialog-title", Static).content)
        assert title == "Bruno's contrarreacción to Ana's reacción “dodges”"


async def test_after_a_resolution_the_cursor_stays_on_the_row_the_dj_chose() -> None:
    """The DJ moves to Ana; Bruno's TA resolves; `e` edits Ana, not whoever acts."""
    encounter = Encounter(name="E", seed=3, characters=[
        char("Ana", 8, 3, 14), char("Bruno", 12, 5, 12), char("Carla", 15, 2, 13)])
    app = make_app(session_after(
        encounter, c.StartCombat(),
        *[c.Declare(character=n, actions=[Action(description="acts", target=10)])
          for n in ("Ana", "Bruno", "Carla")], c.Advance(), c.Advance()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.main_screen.query_one(InitiativeTable)
        assert table.selected_name == "Carla"  # follows who acts, until the DJ moves
        await pilot.press("down", "down")
        assert table.selected_name == "Ana"
        await pilot.press("y")
        assert isinstance(app.screen, TADialog)
        assert app.screen.step.character == "Carla"  # Ana does not act yet: Carla's TA
        await pilot.press("enter")
        await pilot.pause()
        steps = app.session.combat.state.steps
        assert [s.status for s in steps if s.character == "Carla"] == [StepStatus.DONE]
        assert table.selected_name == "Ana"  # not pulled to Bruno
        await pilot.press("e")
        assert isinstance(app.screen, CharacterEditor)
        assert app.screen.query_one("#name", Input).value == "Ana"


async def test_an_error_line_goes_once_its_field_is_changed_and_down_opens_a_select(
        ) -> None:
    app = make_app(session_after(table_encounter()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        await type_text(pilot, "Rosa")
        await fill(pilot, "primaria", "1000")
        await pilot.press("enter")
        assert field_error(app, "primaria") != ""
        await fill(pilot, "primaria", "9")
        assert field_error(app, "primaria") == ""
        await focus(pilot, "side")
        await pilot.press("down")
        assert app.screen.query_one("#side", Select).expanded
        assert isinstance(app.screen, CharacterEditor)


# ---- the newcomer path ------------------------------------------------------------------------


async def test_newcomer_makes_an_encounter_of_three_and_plays_a_round_by_keyboard() -> None:
    """Start the app; ctrl+n; add Ana (PC) and "2 Matón"; a round with one reaction,
    the PC's dice typed as the table rolled them, the NPCs' rolled by the tracker."""
    app = make_app(journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+n")
        assert isinstance(app.screen, NewEncounterDialog)
        await pilot.press("ctrl+u", *"Noche", "enter")
        assert on_main_screen(app) and app.session.combat.state.characters == []
        # Ana, a PC: the first character of an encounter is (issue 39 item 1).
        await pilot.press("a", *"Ana", "tab", "8", "tab",
                          "3", "tab", *"14", "tab", *"Esquivar 12", "enter")
        # Two NPCs with one sheet: the cursor is on Ana's row, ctrl+t the other side.
        await pilot.press("a", *"2 Matón", "ctrl+t", "tab", *"10", "tab", "2", "tab", *"10",
                          "tab", *"Pelea 13", "enter")
        state = app.session.combat.state
        assert [(ch.name, ch.side) for ch in state.characters] == [
            ("Ana", Side.PC), ("Matón 1", Side.NPC), ("Matón 2", Side.NPC)]
        await pilot.press("space")  # round 1
        assert app.session.combat.state.declaration_order == ["Ana", "Matón 1", "Matón 2"]
        await pilot.press("space", *"vigila", "tab", *"Esquivar", "enter")
        await pilot.press("space", *"golpea a Ana", "tab", *"Pelea", "tab", "tab", "space",
                          "enter")
        state = app.session.combat.state
        assert state.top_prompt is not None and state.top_prompt.reactor == "Ana"
        # Ana reacts: the dialog opens on her dice; Enter empty asks for them first.
        await pilot.press("space")
        assert isinstance(app.screen, ReactionDialog)
        await pilot.press("enter")
        assert field_error(app, "dice").startswith("Type the dice")
        # Issue 22: the reacción's own text is the next field after the dice.
        await pilot.press(*"3 4 2", "tab", *"se agacha", "enter")
        state = app.session.combat.state
        [reaction] = [e for e in app.session.combat.log if e.kind is EventKind.REACTION]
        assert reaction.ta is not None and reaction.ta.success  # 9 + 5 <= 14
        assert state.top_prompt is not None and state.top_prompt.reactor == "Matón 1"
        await pilot.press("x")  # no contrarreacción
        await pilot.press("space", "ctrl+b")  # Matón 2: inaction
        await pilot.press("space", "space")  # nothing instant; to the round phase
        state = app.session.combat.state
        assert state.phase is Phase.ROUND
        await pilot.press("space", "enter")  # Matón 1's TA: the tracker rolls
        await pilot.press("space")  # Ana's TA: her dice first, then the target
        assert isinstance(app.screen, TADialog)
        await pilot.press(*"5 3 1", "tab", "tab", *"12", "enter")
        state = app.session.combat.state
        assert all(step.status is StepStatus.DONE for step in state.steps)
        ana = next(step for step in state.steps if step.character == "Ana")
        assert ana.result is not None and ana.result.success
        await pilot.press("space", "space")  # extended phase, end of the round
        assert app.session.combat.state.phase is Phase.END_OF_ROUND
        assert not any(severity == "error" for severity, _ in notifications(app))
