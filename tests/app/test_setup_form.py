"""Issue 39 item 1, the set-up's forms: placeholders that never read as data, the lists
typed with completion (a wrong entry named, nothing typed lost), the side a new
character takes, the line that says what "4 Matón" adds, and the short labels kept
whole where the table and the panel cut names (D1, D2, H1, H5)."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from textual.widgets import Input, Select, SelectionList, Static

from sombra_tui.engine import commands as c
from sombra_tui.engine.i18n import _
from sombra_tui.engine.model import Action, Encounter, Side
from sombra_tui.engine.wounds import Location
from sombra_tui.screens.dialogs.character import CharacterEditor
from sombra_tui.screens.dialogs.lists import parse_protection, parse_skills, parse_weapon_list
from sombra_tui.screens.dialogs.new_encounter import NewEncounterDialog
from sombra_tui.screens.dialogs.parsing import FormError
from sombra_tui.widgets.declaration_queue import DeclarationQueue
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    char,
    field_error,
    fill,
    make_app,
    session_after,
    type_text,
)
from tests.app.test_at_the_table import _plain, on_main_screen
from tests.app.test_table_long import drawn, table_of

LANGUAGES = pytest.mark.parametrize("language", ["en", "es"])


def pin(language: str, request: pytest.FixtureRequest) -> None:
    if language == "es":
        request.getfixturevalue("spanish")


def party() -> Encounter:
    return Encounter(name="Muelle", seed=1, characters=[
        char("Ana", 8, 3, 14, side=Side.PC, skills={"Pelea": 12}),
        *(char(f"Guardia de seguridad {n}", 10, n, 10) for n in (1, 2, 3))])


@LANGUAGES
@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_no_placeholder_of_the_set_up_forms_reads_as_data(
        language: str, size: tuple[int, int], request: pytest.FixtureRequest) -> None:
    """An empty Protección shows no "pecho 2, cabeza 1": every placeholder of the
    character editor and of the new encounter is a word in brackets, which no list
    field reads as a value, and it fits its box."""
    pin(language, request)
    app = make_app(journal=False)
    async with app.run_test(size=size) as pilot:
        shown: dict[str, str] = {}
        for key, dialog in (("a", CharacterEditor), ("ctrl+n", NewEncounterDialog)):
            await pilot.press(key)
            assert isinstance(app.screen, dialog)
            await pilot.pause()
            boxes = [box for box in app.screen.query(Input) if box.placeholder]
            shown |= {f"{key}:{box.id}": box.placeholder for box in boxes}
            for box in boxes:
                assert cell_len(box.placeholder) <= box.content_region.width, box.id
            await pilot.press("escape")
            assert on_main_screen(app)
    assert {"a:skills", "a:weapons", "a:protection", "a:pv", "ctrl+n:party"} <= set(shown)
    for where, placeholder in shown.items():
        assert placeholder.startswith("(") and placeholder.endswith(")"), where
    for parse in (parse_skills, parse_weapon_list, parse_protection):
        with pytest.raises(FormError):
            parse(shown["a:protection"])


@LANGUAGES
@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_the_declaration_s_skill_placeholder_is_an_example_not_a_value(
        language: str, size: tuple[int, int], request: pytest.FixtureRequest) -> None:
    """D1: the declaration form's empty Habilidad shows "e.g. Armas cortas" (one of the
    character's skills, said as an example and fitting its box), not a list of skills
    that reads as if filled in."""
    pin(language, request)
    ana = char("Ana", 8, 3, 14, side=Side.PC,
               skills={"Armas cortas": 13, "Esquivar": 11, "Sigilo": 12})
    encounter = Encounter(name="Muelle", seed=1, characters=[ana, char("Bruno", 12, 5, 12)])
    app = make_app(session_after(encounter, c.StartCombat()), journal=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("d")
        await pilot.pause()
        box = app.screen.query_one("#a0-skill", Input)
        assert box.value == ""
        assert box.placeholder == {"en": "e.g. Armas cortas",
                                   "es": "p. ej. Armas cortas"}[language]
        assert cell_len(box.placeholder) <= box.content_region.width


@LANGUAGES
async def test_the_lists_complete_known_names_and_a_wrong_entry_is_named_and_kept(
        language: str, request: pytest.FixtureRequest) -> None:
    """H5: right completes a location (of H2, in the DJ's language) and a skill of the
    encounter; a wrong entry is named by its number and text, the form stays open with
    everything typed."""
    pin(language, request)
    app = make_app(session_after(party()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("a")
        assert isinstance(app.screen, CharacterEditor)
        await fill(pilot, "protection", _("chest")[:2])
        await pilot.press("right", *"2,", "right", "1")
        protection = app.screen.query_one("#protection", Input)
        assert protection.value == f"{_('chest')} 2, {_('head')} 1"
        await fill(pilot, "skills", "pe")
        await pilot.press("right", *"14, Sigilo x")
        assert app.screen.query_one("#skills", Input).value == "Pelea 14, Sigilo x"
        for field, value in (("name", "Rosa"), ("primaria", "9"), ("secundaria", "2"),
                             ("alerta", "11")):
            await fill(pilot, field, value)
        await pilot.press("enter")
        assert isinstance(app.screen, CharacterEditor)
        assert field_error(app, "skills") == _(
            "{label} must be a whole number, not {text!r}.").format(
            label=_("Skill {number} ({name})").format(number=2, name="Sigilo"), text="x")
        assert app.screen.query_one("#skills", Input).value == "Pelea 14, Sigilo x"
        await fill(pilot, "skills", "Pelea 14, pelea 3")
        await pilot.press("enter")
        assert field_error(app, "skills") == _(
            "Skill {number}, {chunk!r}: {name} is listed already.").format(
            number=2, chunk="pelea 3", name="pelea")
        await fill(pilot, "skills", "Pelea 14")
        await pilot.press("enter")
        assert on_main_screen(app)
        rosa = app.session.combat.state.character("Rosa")
        assert rosa is not None and rosa.protection == {Location.PECHO: 2,
                                                        Location.CABEZA: 1}


async def test_the_side_follows_the_cursor_and_ctrl_t_changes_it_before_enter() -> None:
    """A new character takes the side of the cursor's row; the title and the line of
    what Enter sends say it (D2), ctrl+t takes the other side from any field; "4 Matón"
    names the four it adds before they are added."""
    app = make_app(session_after(party()), journal=False)
    async with app.run_test(size=SIZE) as pilot:
        table = table_of(app)
        table.select_name("Ana")
        await pilot.pause()
        await pilot.press("a")
        assert isinstance(app.screen, CharacterEditor)
        assert app.screen.query_one("#side", Select).value is Side.PC
        assert str(app.screen.query_one("#dialog-title", Static).content) == \
            "New character: PC"
        await type_text(pilot, "4 Matón")
        await pilot.press("tab", "9", "tab", "2", "tab", "1", "ctrl+t")
        await pilot.pause()
        assert str(app.screen.query_one("#dialog-title", Static).content) == \
            "New character: NPC"
        assert str(app.screen.query_one("#summary", Static).content) == (
            "enter sends: Add Matón 1, Matón 2, Matón 3, Matón 4 (NPC)")
        await pilot.press("enter")
        assert on_main_screen(app)
        state = app.session.combat.state
        assert {state.character(f"Matón {n}").side for n in range(1, 5)} == {Side.NPC}  # type: ignore[union-attr]
        table.select_name("Guardia de seguridad 2")
        await pilot.pause()
        await pilot.press("a")
        assert isinstance(app.screen, CharacterEditor)
        assert app.screen.query_one("#side", Select).value is Side.NPC


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_long_names_keep_their_short_labels_whole_where_declarations_are_cut(
        size: tuple[int, int]) -> None:
    """D1: Ana shoots at "Guardia de seguridad 3": where her declaration is cut (the
    table's Declaración column, the panel's line of declarations made) its target
    stays whole, as its short label "Guar.3"; a declarer's name too."""
    long = "dispara desde detrás de las cajas apiladas junto a la grúa del muelle"
    app = make_app(session_after(party(), c.StartCombat(), c.Declare(
        character="Ana", actions=[Action(description=long, skill="Pelea",
                                         targets=["Guardia de seguridad 3"])]),
        c.Declare(character="Guardia de seguridad 1", actions=[Action(
            description=long, skill="Pelea")])), journal=False)
    async with app.run_test(size=size) as pilot:
        table = table_of(app)
        table.select_name("Guardia de seguridad 2")  # the panel lists the others' cut
        await pilot.pause()
        panel = " ".join(_plain(app.main_screen.query_one(DeclarationQueue)).split())
        assert "Ana: dispara" in panel and "… · at Guar.3" in panel, panel
        assert "Guar.1: dispara" in panel, panel
        if size == SIZE:  # at 80x24 the column makes way (the panel says it)
            [line] = drawn(table, "Ana")
            assert line.endswith("… · at Guar.3"), line
            assert long not in line


@pytest.mark.parametrize("size", [SIZE, MIN_SIZE])
async def test_the_target_lists_show_long_names_whole(size: tuple[int, int]) -> None:
    """D1: the declaration editor's list of targets, at 80x24 too, shows each name
    whole (a name is at most 40 letters; the list takes the form's width), so a target
    is never told from another by a cut name."""
    app = make_app(session_after(party(), c.StartCombat()), journal=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("space")  # Ana declares first (8/3)
        await pilot.pause()
        targets = app.screen.query_one("#a0-targets", SelectionList)
        assert targets.option_count == 3
        shown = ["".join(segment.text for segment in targets.render_line(y))
                 for y in range(targets.size.height)]
        for n in (1, 2, 3):
            assert any(f"Guardia de seguridad {n}" in line for line in shown), shown
