"""Theme files, validation, user themes and their use in a Textual app."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.color import Color
from textual.theme import Theme
from textual.widgets import Label

from sombra_tui import config, themes
from sombra_tui.themes import (
    ThemeFileError,
    ThemeSpec,
    builtin_themes_dir,
    load_all_themes,
    load_builtin_themes,
    load_theme_file,
    load_user_themes,
    pick_theme,
)

REPO = Path(__file__).resolve().parents[2]
BUILTIN = {"sombra": True, "papel": False, "alto-contraste": True}  # name -> dark

GOOD = """\
name = "{name}"
dark = true
primary = "{primary}"
secondary = "#445566"
accent = "#ffaa00"
foreground = "#eeeeee"
background = "#111111"
surface = "#1a1a1a"
panel = "#222222"
warning = "#ffcc00"
error = "#ff3300"
success = "#00aaff"
"""


def good_theme(name: str = "mi-tema", primary: str = "#123456") -> str:
    return GOOD.format(name=name, primary=primary)


@pytest.fixture
def user_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(config.CONFIG_DIR_ENV, str(tmp_path / "conf"))
    monkeypatch.setenv(config.DATA_DIR_ENV, str(tmp_path / "data"))
    folder = config.user_themes_dir()
    folder.mkdir(parents=True)
    return folder


def contrast(a: str, b: str) -> float:
    def luminance(colour: str) -> float:
        def channel(value: int) -> float:
            v = value / 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        c = Color.parse(colour)
        return 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b)
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


# --- built-in themes -----------------------------------------------------------------


def test_builtin_themes_load_with_the_right_dark_flag(user_dir: Path) -> None:
    loaded, problems = load_builtin_themes()
    assert problems == []
    assert {name: theme.dark for name, theme in loaded.items()} == BUILTIN
    for name, theme in loaded.items():
        assert isinstance(theme, Theme)
        assert theme.name == name
        assert theme.to_color_system().generate()["background"]


def test_builtin_folder_in_a_checkout_is_the_top_level_themes() -> None:
    folder = builtin_themes_dir()
    assert folder is not None
    assert {path.stem for path in folder.glob("*.toml")} >= set(BUILTIN)


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_builtin_files_have_a_comment_header_and_match_their_name(name: str) -> None:
    path = REPO / "themes" / f"{name}.toml"
    assert path.read_text(encoding="utf-8").startswith("# ")
    assert load_theme_file(path).name == name


def test_installed_layout_is_preferred(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "site-packages" / "sombra_tui"
    (package / "themes").mkdir(parents=True)
    (package / "themes" / "solo.toml").write_text(good_theme("solo"), encoding="utf-8")
    monkeypatch.setattr(themes, "_PACKAGE_DIR", package)
    assert builtin_themes_dir() == package / "themes"
    assert set(load_builtin_themes().themes) == {"solo"}


def test_missing_builtin_folder_is_a_problem_not_a_crash(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, user_dir: Path) -> None:
    monkeypatch.setattr(themes, "_PACKAGE_DIR", tmp_path / "nowhere" / "sombra_tui")
    assert builtin_themes_dir() is None
    loaded, problems = load_all_themes()
    assert loaded == {}
    assert len(problems) == 1 and "built-in themes are missing" in problems[0]


def test_wheel_ships_the_themes_folder_inside_the_package() -> None:
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = pyproject["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["force-include"]["themes"] == "sombra_tui/themes"


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_builtin_palettes_are_legible(name: str) -> None:
    spec = load_theme_file(REPO / "themes" / f"{name}.toml")
    for ground in (spec.background, spec.surface, spec.panel):
        assert contrast(spec.foreground, ground) >= 7, (name, ground)
        for field in ("primary", "accent", "warning", "error", "success"):
            assert contrast(getattr(spec, field), ground) >= 4.5, (name, field, ground)


def test_high_contrast_theme() -> None:
    spec = load_theme_file(REPO / "themes" / "alto-contraste.toml")
    assert Color.parse(spec.background) == Color(0, 0, 0)
    assert Color.parse(spec.foreground) == Color(255, 255, 255)
    success, error, warning = (Color.parse(c) for c in (spec.success, spec.error, spec.warning))
    # Opposite ends of the blue-yellow axis, which red-green colour blindness keeps:
    assert success.b > success.r + 100  # cyan-blue
    assert error.r > error.b + 150  # orange-red
    assert warning.r > 200 and warning.g > 200 and warning.b < 100  # yellow
    # and they differ in lightness too.
    assert contrast(spec.warning, spec.success) >= 1.5
    assert contrast(spec.success, spec.error) >= 1.4
    # No low-contrast greys: every text-ish override reads at 7:1 or better on black.
    variables = spec.variables
    texts = {key: value for key, value in variables.items()
             if key.startswith(("text", "foreground", "footer-"))}
    assert {"text-muted", "text-disabled", "foreground-muted"} <= set(texts)
    for key, value in texts.items():
        assert contrast(value, spec.background) >= 7, key
    for pair in ("block-cursor", "block-cursor-blurred", "input-selection", "screen-selection"):
        assert contrast(variables[f"{pair}-foreground"], variables[f"{pair}-background"]) >= 7
    assert contrast(variables["button-color-foreground"], spec.primary) >= 7


# --- the model ---------------------------------------------------------------------


def test_spec_converts_field_by_field() -> None:
    data = tomllib.loads(good_theme())
    data["variables"] = {"footer-key-foreground": "#ffaa00"}
    theme = ThemeSpec.model_validate(data).to_textual()
    assert theme.name == "mi-tema" and theme.dark is True
    for field in themes.COLOUR_FIELDS:
        assert getattr(theme, field) == data[field]
    assert theme.variables == {"footer-key-foreground": "#ffaa00"}


@pytest.mark.parametrize("colour", ["#abc", "#AABBCC", "rgb(10, 20, 30)", "white",
                                    "hsl(30, 50%, 50%)"])
def test_colour_forms_accepted(colour: str) -> None:
    data = tomllib.loads(good_theme(primary=colour))
    assert ThemeSpec.model_validate(data).primary == colour


# --- user themes -------------------------------------------------------------------


def test_no_user_folder_is_fine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(config.CONFIG_DIR_ENV, str(tmp_path / "nothing-here"))
    assert load_user_themes() == ({}, [])
    loaded, problems = load_all_themes()
    assert set(loaded) == set(BUILTIN) and problems == []


def test_user_theme_is_picked_up(user_dir: Path) -> None:
    (user_dir / "mio.toml").write_text(good_theme("mi-tema"), encoding="utf-8")
    loaded, problems = load_all_themes()
    assert problems == []
    assert set(loaded) == {*BUILTIN, "mi-tema"}
    assert loaded["mi-tema"].primary == "#123456"


def test_user_theme_overrides_a_builtin(user_dir: Path) -> None:
    (user_dir / "mi-sombra.toml").write_text(good_theme("sombra", "#ff00ff"),
                                             encoding="utf-8")
    builtin = load_builtin_themes().themes["sombra"]
    loaded, problems = load_all_themes()
    assert problems == []
    assert loaded["sombra"].primary == "#ff00ff"
    assert builtin.primary != "#ff00ff"


def test_bad_user_files_are_skipped_with_clear_problems(user_dir: Path) -> None:
    (user_dir / "bueno.toml").write_text(good_theme("bueno"), encoding="utf-8")
    (user_dir / "roto.toml").write_text('name = "roto"\ndark = \n', encoding="utf-8")
    (user_dir / "color.toml").write_text(good_theme("color", primary="#12345z"),
                                         encoding="utf-8")
    (user_dir / "falta.toml").write_text(
        good_theme("falta").replace('background = "#111111"\n', ""), encoding="utf-8")
    loaded, problems = load_all_themes()
    assert set(loaded) == {*BUILTIN, "bueno"}
    assert len(problems) == 3
    by_file = {name: [p for p in problems if str(user_dir / name) in p]
               for name in ("roto.toml", "color.toml", "falta.toml")}
    assert all(len(found) == 1 for found in by_file.values()), problems
    assert "not valid TOML" in by_file["roto.toml"][0]
    assert "line 2" in by_file["roto.toml"][0]
    assert "'primary'" in by_file["color.toml"][0] and "#12345z" in by_file["color.toml"][0]
    assert "'background'" in by_file["falta.toml"][0]
    assert "missing" in by_file["falta.toml"][0]


@pytest.mark.parametrize(("text", "field", "words"), [
    (good_theme() + 'backgroud = "#000000"\n', "backgroud", "not a theme field"),
    (good_theme().replace("dark = true", 'dark = "yes"'), "dark", "boolean"),
    (good_theme().replace('"mi-tema"', '"mi tema"'), "name", "not a usable theme name"),
    (good_theme().replace('"#123456"', "123456"), "primary", "string"),
    (good_theme() + '[variables]\n"Bad Name" = "#ffffff"\n', "variables", "Bad Name"),
    (good_theme() + '[variables]\ntext = "red; x"\n', "variables", "unusable value"),
])
def test_each_bad_field_is_named(user_dir: Path, text: str, field: str, words: str) -> None:
    path = user_dir / "malo.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ThemeFileError) as caught:
        load_theme_file(path)
    message = str(caught.value)
    assert str(path) in message and f"'{field}'" in message and words in message
    loaded, problems = load_user_themes()
    assert loaded == {} and problems == [f"{message} Skipped."]


@pytest.mark.parametrize(("text", "where"), [
    ('name = "roto"\ndark = \n', "línea 2, columna 8"),
    ('name = "roto', "al final del archivo"),
])
def test_a_theme_file_that_is_no_toml_is_named_in_spanish(
        user_dir: Path, spanish: str, text: str, where: str) -> None:
    """Bad input names the problem in the DJ's language: where the file stops being
    TOML, not tomllib's English ("Invalid value", "at end of document")."""
    path = user_dir / "roto.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ThemeFileError) as caught:
        load_theme_file(path)
    assert str(caught.value) == f"El archivo de tema {path} no es TOML válido ({where})."


def test_unreadable_bytes_and_huge_files_are_problems(user_dir: Path) -> None:
    (user_dir / "binario.toml").write_bytes(b"name = \"\xff\xfe\"\n")
    (user_dir / "enorme.toml").write_text("# " + "x" * themes.MAX_THEME_BYTES,
                                          encoding="utf-8")
    loaded, problems = load_user_themes()
    assert loaded == {}
    assert len(problems) == 2
    assert "binario.toml" in problems[0] and "enorme.toml" in problems[1]


def test_duplicate_user_names_are_reported(user_dir: Path) -> None:
    (user_dir / "a.toml").write_text(good_theme("doble", "#111111"), encoding="utf-8")
    (user_dir / "b.toml").write_text(good_theme("doble", "#222222"), encoding="utf-8")
    loaded, problems = load_user_themes()
    assert loaded["doble"].primary == "#222222"
    assert len(problems) == 1 and "a.toml" in problems[0] and "b.toml" in problems[0]


def test_hidden_and_other_files_are_ignored(user_dir: Path) -> None:
    (user_dir / ".borrador.toml").write_text("not toml at all [", encoding="utf-8")
    (user_dir / "notas.txt").write_text("not toml at all [", encoding="utf-8")
    assert load_user_themes() == ({}, [])


def test_user_themes_path_is_a_file(user_dir: Path) -> None:
    user_dir.rmdir()
    user_dir.write_text("oops", encoding="utf-8")
    loaded, problems = load_all_themes()
    assert set(loaded) == set(BUILTIN)
    assert len(problems) == 1 and str(user_dir) in problems[0]


# --- choosing a theme --------------------------------------------------------------


def test_pick_theme() -> None:
    assert pick_theme("papel", {"papel", "sombra"}) == ("papel", None)
    name, warning = pick_theme("perdido", {"papel", "sombra"})
    assert name == "sombra" and warning is not None and "perdido" in warning
    assert pick_theme("perdido", {"papel"})[0] == "textual-dark"


# --- in a Textual app --------------------------------------------------------------


class ThemedApp(App[None]):
    def __init__(self, available: dict[str, Theme]) -> None:
        super().__init__()
        for theme in available.values():
            self.register_theme(theme)

    def compose(self) -> ComposeResult:
        yield Label("Asalto 1")


async def test_every_theme_applies_in_an_app(user_dir: Path) -> None:
    (user_dir / "mio.toml").write_text(good_theme("mi-tema"), encoding="utf-8")
    available, problems = load_all_themes()
    assert problems == []
    assert set(available) == {*BUILTIN, "mi-tema"}
    app = ThemedApp(available)
    async with app.run_test(size=(80, 24)) as pilot:
        for name, theme in available.items():
            app.theme = name
            await pilot.pause()
            assert app.theme == name
            assert app.current_theme is theme
            assert app.theme_variables["background"] == Color.parse(theme.background).hex
            assert app.screen.has_class(f"-theme-{name}") or app.has_class(f"-theme-{name}")
            assert app.has_class("-dark-mode") is theme.dark


@pytest.mark.parametrize("name", sorted(BUILTIN))
async def test_ticked_and_unticked_boxes_differ_clearly(name: str) -> None:
    """In every theme a ticked box in a pick list is filled and an unticked one is not:
    their backgrounds differ plainly (Textual's default changed only the tick's colour)."""
    from sombra_tui.screens.dialogs.fields import PickList

    class PickApp(App[None]):
        CSS_PATH = REPO / "sombra_tui" / "sombra.tcss"

        def on_mount(self) -> None:
            for theme in load_builtin_themes().themes.values():
                self.register_theme(theme)
            self.theme = name

        def compose(self) -> ComposeResult:
            yield PickList(("Ana", "Ana"), ("Bruno", "Bruno"))

    app = PickApp()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        picks = app.query_one(PickList)
        ticked = picks.get_component_styles("selection-list--button-selected")
        unticked = picks.get_component_styles("selection-list--button")
        assert contrast(ticked.background.hex, unticked.background.hex) >= 1.5
        assert contrast(ticked.color.hex, ticked.background.hex) >= 3


# ---- read without pydantic's validator where the types are exact (issue 24 item 5) ---

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sombra_tui.themes import _read_exact  # noqa: E402
from tests.app.quick_reads import assert_quick_read_agrees  # noqa: E402

GOOD_DATA = tomllib.loads(GOOD.format(name="bueno", primary="#102030"))
#: Values of every kind a theme file may hold, right and wrong.
THEME_VALUE = st.one_of(st.booleans(), st.integers(0, 2), st.sampled_from(
    ["#102030", " #102030 ", "white", "rgb(1, 2, 3)", "no-colour", "", "mi-tema", "-x",
     "ok"]), st.dictionaries(st.sampled_from(["footer-key-foreground", "Bad", "a"]),
                             st.sampled_from(["#fff", "", "x;y", 3]), max_size=2))


@st.composite
def theme_data(draw: st.DrawFn) -> dict[str, object]:
    data: dict[str, object] = dict(GOOD_DATA)
    for key in draw(st.lists(st.sampled_from([*GOOD_DATA, "variables", "extra"]),
                             max_size=3)):
        if draw(st.booleans()):
            data.pop(key, None)
        else:
            data[key] = draw(THEME_VALUE)
    return data


@settings(max_examples=400, deadline=None)
@given(theme_data())
def test_the_quick_read_agrees_with_validation(data: dict[str, object]) -> None:
    """Whatever the quick checks take, pydantic takes the same way (same values, same
    fields set); what they do not take goes to pydantic, which judges it."""
    assert_quick_read_agrees(ThemeSpec, _read_exact, ThemeSpec.read, data)


@pytest.mark.parametrize("name", sorted(BUILTIN))
def test_the_builtin_themes_take_the_quick_read(name: str) -> None:
    """The first screen's theme never builds pydantic's validator."""
    data = tomllib.loads((REPO / "themes" / f"{name}.toml").read_text("utf-8"))
    quick = _read_exact(data)
    assert quick is not None and quick == ThemeSpec.model_validate(data)
