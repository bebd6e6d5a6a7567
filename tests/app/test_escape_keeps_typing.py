"""Nothing the DJ typed is lost (issue 35 item 5): Escape on a changed form asks (keep
editing in focus: a second Escape or Enter keeps the form; discard closes it); an
unchanged form closes at once; a form open when sombra-tui stopped comes back with the
resume, or, when its command no longer applies, a notice shows what it held."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Button, Input, Select

from sombra_tui import config
from sombra_tui.engine import (
    Action,
    ActionKind,
    Combat,
    Condition,
    Encounter,
    ExtendedSpec,
    Location,
    i18n,
    storage,
)
from sombra_tui.engine import commands as c
from sombra_tui.screens.dialogs import (
    CharacterEditor,
    ChoiceDialog,
    ConfirmDialog,
    DeclarationEditor,
)
from sombra_tui.screens.dialogs.forecast import ForecastDialog
from sombra_tui.screens.dialogs.keeping import field_values
from sombra_tui.screens.dialogs.note import NoteDialog
from sombra_tui.screens.dialogs.sheet import CharacterSheet
from sombra_tui.screens.main import MainScreen
from sombra_tui.session import Session
from tests.app.conftest import (
    MIN_SIZE,
    SIZE,
    Dirs,
    char,
    make_app,
    notifications,
    on_main_screen,
    send_keys,
    session_after,
    type_text,
    worked_example_encounter,
)

LANGUAGES = pytest.mark.parametrize(("size", "language"), [(SIZE, "en"), (MIN_SIZE, "es")],
                                    ids=["120x40-en", "80x24-es"])


def speak(language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANGUAGE", language)
    i18n.set_language(language)


@LANGUAGES
async def test_escape_on_a_half_typed_declaration_asks_and_keeps_it(
        size: tuple[int, int], language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """d, half a declaration, Escape: the question, "keep editing" in focus; Escape
    again, or Enter, keeps the form with the text and its cursor; y discards."""
    speak(language, monkeypatch)
    app = make_app(session_after(worked_example_encounter(), c.StartCombat()), journal=False)
    async with app.run_test(size=size) as pilot:
        combat = app.session.combat
        await pilot.press("d", *"dispara a", "escape")
        assert isinstance(app.screen, ConfirmDialog)
        assert app.screen.focused is app.screen.query_one("#no", Button)
        for keep in ("escape", "enter"):
            await pilot.press(keep)
            assert isinstance(app.screen, DeclarationEditor), keep
            field = app.screen.query_one("#a0-description", Input)
            assert field.value == "dispara a" and app.screen.focused is field
            await pilot.press("escape")
            assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")  # discard
        assert on_main_screen(app)
        assert len(combat.commands) == 1  # nothing declared


@LANGUAGES
async def test_escape_on_a_half_typed_character_asks_and_an_unchanged_form_closes(
        size: tuple[int, int], language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    speak(language, monkeypatch)
    app = make_app(session_after(worked_example_encounter()), journal=False)
    async with app.run_test(size=size) as pilot:
        await pilot.press("a", "escape")  # nothing typed: closes at once
        assert on_main_screen(app)
        await pilot.press("a", *"Rosa", "escape")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")
        assert isinstance(app.screen, CharacterEditor)
        assert app.screen.query_one("#name", Input).value == "Rosa"
        await pilot.press("backspace", "backspace", "backspace", "backspace", "escape")
        assert on_main_screen(app)  # back as it opened: nothing to lose
        await pilot.press("a", *"Rosa", "escape", "y")
        assert on_main_screen(app)
        assert [ch.name for ch in app.session.combat.state.characters] == [
            "Ana", "Bruno", "Carla"]


async def resume_first_combat(monkeypatch: pytest.MonkeyPatch, who: str | None = None
                              ) -> list[tuple[str, str]]:
    """A first app half-types Ana's declaration and stops without quitting (the journal
    stays, as after a crash); the second resumes. `who`: the draft says it was for
    another character (its command no longer applies)."""
    first = make_app(Session(session_after(worked_example_encounter(),
                                           c.StartCombat()).combat))
    async with first.run_test(size=SIZE) as pilot:
        await first.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("d", *"medio escr")
        await pilot.pause()
        assert isinstance(first.screen, DeclarationEditor)
    if who is not None:
        path = config.data_dir() / "form-draft.json"
        drafts = json.loads(path.read_text(encoding="utf-8"))
        for draft in drafts.values():
            draft["who"] = who
        path.write_text(json.dumps(drafts), encoding="utf-8")
    second = make_app()
    async with second.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(second.screen, ChoiceDialog)
        await pilot.press("r")
        await second.workers.wait_for_complete()
        for _ in range(5):
            await pilot.pause()
        screen = second.screen
        if who is None:
            assert isinstance(screen, DeclarationEditor)
            assert screen.character.name == "Ana"
            assert screen.query_one("#a0-description", Input).value == "medio escr"
        else:
            assert on_main_screen(second)
        return notifications(second)


async def test_a_form_open_when_the_app_stopped_comes_back_with_the_resume(
        monkeypatch: pytest.MonkeyPatch) -> None:
    await resume_first_combat(monkeypatch)


async def test_a_form_whose_command_no_longer_applies_is_told_with_its_text(
        monkeypatch: pytest.MonkeyPatch) -> None:
    told = await resume_first_combat(monkeypatch, who="Carla")
    assert any(severity == "warning" and "medio escr" in message
               and "no longer applies" in message for severity, message in told)


# ---- the forms that send no command (new encounter, files, import, carry on) ----------

#: How each form opens by keys, and the keys that change it: (keys, the text typed in
#: the palette or a file to pick first, the form it opens, the keys that change it).
NO_COMMAND_FORMS = {
    "new encounter": (["ctrl+n"], None, "NewEncounterDialog", list("Emboscada")),
    "save as": (["f2"], None, "FileDialog", list("otro")),
    "open": (["ctrl+o"], None, "FileDialog", list("otro.json")),
    "import's file": (["i"], None, "FileDialog", list("grupo")),
    "import's characters": (["i"], "grupo.json", "RosterDialog", ["space"]),
    "carry on": (["ctrl+p"], "Carry the party on", "CarryOnDialog", ["space"]),
}


async def open_no_command_form(pilot: Any, how: str) -> str:
    """Open the form `how` by keys; returns the name of the form it is."""
    keys_, then, form, _change = NO_COMMAND_FORMS[how]
    await pilot.press(*keys_)
    await pilot.pause()
    if then is not None:
        await type_text(pilot, i18n._(then) if how == "carry on" else then)
        await pilot.press("enter")
        await pilot.pause()
    assert type(pilot.app.screen).__name__ == form, how
    return form


def saved_party(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    storage.save(Combat(Encounter(name="Grupo", characters=[
        char("Iker", 10, 6, 12), char("Rosa", 9, 4, 13)])), folder / "grupo.json")


@pytest.mark.parametrize("how", list(NO_COMMAND_FORMS))
@LANGUAGES
async def test_escape_asks_in_a_changed_form_that_sends_no_command(
        size: tuple[int, int], language: str, how: str, app_dirs: Dirs,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35 item 5, the forms with no command: a new encounter's name, a file's
    name to open or save as, an import's file or its characters, who carries on. Opened
    and left as it opened, Escape closes at once; changed, Escape asks (keep editing in
    focus: Escape keeps the form as it was typed; y discards, and nothing happened)."""
    speak(language, monkeypatch)
    saved_party(app_dirs.data)
    started = session_after(worked_example_encounter(), c.StartCombat())
    app = make_app(Session(started.combat, app_dirs.data / "ejemplo.json"), journal=False)
    async with app.run_test(size=size) as pilot:
        combat = app.session.combat
        await open_no_command_form(pilot, how)
        await pilot.press("escape")  # unchanged: closes at once
        assert on_main_screen(app), how
        form = await open_no_command_form(pilot, how)
        pristine = field_values(app.screen)
        await send_keys(pilot, *NO_COMMAND_FORMS[how][3])
        typed = field_values(app.screen)
        assert typed != pristine, how
        await pilot.press("escape")
        assert isinstance(app.screen, ConfirmDialog), how
        assert app.screen.focused is app.screen.query_one("#no", Button)
        await pilot.press("escape")  # keep editing
        assert type(app.screen).__name__ == form
        assert field_values(app.screen) == typed
        await pilot.press("escape", "y")  # discard
        assert on_main_screen(app), how
        assert app.session.combat is combat and len(combat.commands) == 1
        assert app.session.path == app_dirs.data / "ejemplo.json"


# ---- the forms about one thing come back on that thing -----------------------------------

LOCK = Action(kind=ActionKind.EXTENDED, description="picks the lock", target=12,
              extended=ExtendedSpec(duration=3))

#: Each form that sends a command and was not kept before, by keys: (the commands that
#: make what it is about, after StartCombat; the keys that open it and type in it; the
#: form; its field typed in and the text; what it is about, read off the form).
FORMS_ABOUT_ONE_THING: dict[str, tuple[list[c.Command], list[str], str, str, str,
                                      Callable[[Any], object]]] = {
    "a wound, the second": (
        [c.ManualHit(character="Ana", location=Location.BRAZO_IZQUIERDO, damage=3),
         c.ManualHit(character="Ana", location=Location.PIERNA_DERECHA, damage=2)],
        ["w", "down", "e", "end", "ctrl+u", *"12"], "WoundDialog", "damage", "12",
        lambda form: form.wound.location),
    "a condition, the second": (
        [c.AddCondition(character="Ana", condition=Condition(name="cegado")),
         c.AddCondition(character="Ana", condition=Condition(name="mareado"))],
        ["w", "down", "e", *"4"], "EditConditionDialog", "left", "4",
        lambda form: form.condition.name),
    "an extended action": (
        [*(c.Declare(character=who, actions=[LOCK]) for who in ("Ana", "Bruno", "Carla")),
         c.Advance(), c.Advance()],
        ["j", "end", "ctrl+u", *"5"], "ExtendedDialog", "duration", "5",
        lambda form: (form.progress.id, form.progress.owner)),
    "the settings": ([], ["g", "end", "ctrl+u", *"Emboscada"], "SettingsDialog", "name",
                     "Emboscada", lambda form: None),
    "a note, the second": (
        [c.AddNote(round=1, text="se va la luz"), c.AddNote(round=2, text="llegan")],
        ["l", "down", "e", "end", "ctrl+u", *"amanece"], "NoteDialog", "text", "amanece",
        lambda form: form.note.text),
    "a new note": ([], ["l", "a", *"se abre la trampilla"], "NoteDialog", "text",
                   "se abre la trampilla", lambda form: form.note),
}

#: What the form is about where two could be chosen: the second.
SECOND = {"a wound, the second": Location.PIERNA_DERECHA,
          "a condition, the second": "mareado", "a note, the second": "llegan"}
#: The dialog a form is opened from, where it is not the main screen.
OPENED_FROM = {"a wound": CharacterSheet, "a condition": CharacterSheet,
               "a note": ForecastDialog, "a new note": ForecastDialog}


@pytest.mark.parametrize("what", list(FORMS_ABOUT_ONE_THING))
@LANGUAGES
async def test_a_form_about_one_thing_left_open_comes_back_on_it_with_the_resume(
        size: tuple[int, int], language: str, what: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35 item 5: a wound or a condition edited on the sheet (the second of two),
    an extended action adjusted, the encounter's settings, a note pinned or changed from
    the forecast (the second of two), half typed when sombra-tui stops: the resume opens
    that form again (the sheet or the forecast first, for theirs), on the same wound,
    condition, extended action or note, with what was typed; Escape then asks."""
    speak(language, monkeypatch)
    made, keys_, form, field, text, about = FORMS_ABOUT_ONE_THING[what]
    first = make_app(Session(session_after(worked_example_encounter(), c.StartCombat(),
                                           *made).combat))
    async with first.run_test(size=size) as pilot:
        await first.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press(*keys_)
        await pilot.pause()
        assert type(first.screen).__name__ == form
        was_about = about(first.screen)
        assert was_about == SECOND.get(what, was_about)  # the second, where there are two
        assert first.screen.query_one(f"#{field}", Input).value == text
    second = make_app()
    async with second.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(second.screen, ChoiceDialog)
        await pilot.press("r")
        await second.workers.wait_for_complete()
        for _ in range(5):
            await pilot.pause()
        screen = second.screen
        assert type(screen).__name__ == form
        assert about(screen) == was_about
        assert screen.query_one(f"#{field}", Input).value == text
        assert isinstance(second.screen_stack[-2], next(
            (host for start, host in OPENED_FROM.items() if what.startswith(start)),
            MainScreen))
        await pilot.press("escape")
        assert isinstance(second.screen, ConfirmDialog)


@LANGUAGES
async def test_a_choice_left_empty_comes_back_empty_with_the_resume(
        size: tuple[int, int], language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35 item 5 with a choice left empty: a note about Bruno changed to be about
    nobody, half typed, when sombra-tui stops: the resume opens it about nobody (the
    empty choice kept as empty: not Bruno again, nor a made-up value); Escape asks, and
    keeping the form keeps it empty. A new note's "About", empty and untouched, is no
    change: the form reads it as empty and Escape closes it at once."""
    speak(language, monkeypatch)
    first = make_app(Session(session_after(worked_example_encounter(), c.StartCombat(
        ), c.AddNote(round=2, text="llegan", character="Bruno")).combat))
    async with first.run_test(size=size) as pilot:
        await first.workers.wait_for_complete()
        await pilot.pause()
        await pilot.press("l", "e", "end", *" por el norte", "shift+tab")
        about = first.screen.query_one("#character", Select)
        assert first.screen.focused is about and about.value == "Bruno"
        await pilot.press("down", "home", "enter")  # the list's first entry: nobody
        await pilot.pause()
        assert about.is_blank()
    second = make_app()
    async with second.run_test(size=size) as pilot:
        await pilot.pause()
        assert isinstance(second.screen, ChoiceDialog)
        await pilot.press("r")
        await second.workers.wait_for_complete()
        for _ in range(5):
            await pilot.pause()
        form = second.screen
        assert isinstance(form, NoteDialog) and form.note is not None
        assert form.query_one("#text", Input).value == "llegan por el norte"
        assert form.query_one("#character", Select).is_blank()
        await pilot.press("escape")
        assert isinstance(second.screen, ConfirmDialog)
        await pilot.press("escape")  # keep editing
        assert second.screen is form and form.query_one("#character", Select).is_blank()
        await pilot.press("escape", "y", "a")  # discarded; a new note
        await pilot.pause()
        fresh = second.screen
        assert isinstance(fresh, NoteDialog) and fresh.note is None
        assert fresh.query_one("#character", Select).is_blank()
        assert field_values(fresh)["character"] is None
        await pilot.press("escape")  # untouched: closes at once
        await pilot.pause()
        assert isinstance(second.screen, ForecastDialog)
