"""Paths, environment overrides and preferences (sombra_tui.config)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from sombra_tui import config
from sombra_tui.config import Preferences, load_preferences, save_preferences


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    data, conf = tmp_path / "data", tmp_path / "conf"
    monkeypatch.setenv(config.DATA_DIR_ENV, str(data))
    monkeypatch.setenv(config.CONFIG_DIR_ENV, str(conf))
    return data, conf


def test_environment_overrides_the_folders(dirs: tuple[Path, Path]) -> None:
    data, conf = dirs
    assert config.data_dir() == data
    assert config.config_dir() == conf
    assert config.user_themes_dir() == conf / "themes"
    assert config.preferences_path() == conf / "preferences.json"
    assert not data.exists() and not conf.exists()  # asking for a path creates nothing


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="XDG folders are Linux's")
def test_without_overrides_platformdirs_decides(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(config.DATA_DIR_ENV, raising=False)
    monkeypatch.setenv(config.CONFIG_DIR_ENV, "   ")  # blank counts as unset
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg-config"))
    assert config.data_dir() == tmp_path / "xdg-data" / "sombra-tui"
    assert config.config_dir() == tmp_path / "xdg-config" / "sombra-tui"
    assert config.user_themes_dir() == tmp_path / "xdg-config" / "sombra-tui" / "themes"


def test_missing_file_gives_defaults_silently(dirs: tuple[Path, Path]) -> None:
    preferences, warning = load_preferences()
    assert preferences == Preferences()
    assert preferences.theme == "sombra"
    assert warning is None
    assert not config.preferences_path().exists()


def test_preferences_round_trip(dirs: tuple[Path, Path]) -> None:
    written = save_preferences(Preferences(theme="papel"))
    assert written == config.preferences_path()
    assert json.loads(written.read_text(encoding="utf-8")) == {"theme": "papel", "keys": {},
                                                              "players_lan": False,
                                                              "show_odds": True}
    preferences, warning = load_preferences()
    assert preferences == Preferences(theme="papel")
    assert warning is None


def test_saving_creates_missing_folders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    conf = tmp_path / "a" / "b" / "conf"
    monkeypatch.setenv(config.CONFIG_DIR_ENV, str(conf))
    save_preferences(Preferences(theme="alto-contraste"))
    assert (conf / "preferences.json").is_file()
    assert load_preferences().preferences.theme == "alto-contraste"


def test_saving_replaces_and_leaves_no_temporary_files(dirs: tuple[Path, Path]) -> None:
    save_preferences(Preferences(theme="papel"))
    save_preferences(Preferences(theme="sombra"))
    assert load_preferences().preferences.theme == "sombra"
    assert [path.name for path in config.config_dir().iterdir()] == ["preferences.json"]


def test_failed_save_keeps_the_old_file(dirs: tuple[Path, Path],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    save_preferences(Preferences(theme="papel"))

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", broken_replace)
        with pytest.raises(OSError):
            save_preferences(Preferences(theme="sombra"))
    assert load_preferences().preferences.theme == "papel"
    assert sorted(path.name for path in config.preferences_path().parent.iterdir()) == [
        "preferences.json"]


def test_explicit_path(tmp_path: Path) -> None:
    path = tmp_path / "elsewhere" / "prefs.json"
    save_preferences(Preferences(theme="papel"), path)
    assert load_preferences(path) == (Preferences(theme="papel"), None)


@pytest.mark.parametrize("content", [
    b"{not json",
    b"",
    b'["theme", "papel"]',
    b"\xff\xfe\x00garbage",
])
def test_corrupt_file_gives_defaults_and_a_warning(dirs: tuple[Path, Path],
                                                   content: bytes) -> None:
    path = config.preferences_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(content)
    preferences, warning = load_preferences()
    assert preferences == Preferences()
    assert warning is not None
    assert str(path) in warning
    assert path.read_bytes() == content  # loading never rewrites the file


def test_a_key_twice_is_refused_naming_it(dirs: tuple[Path, Path]) -> None:
    """Issue 41 item 4: json alone keeps the last value silently; the preferences say
    which key is written twice, and where, and keep the defaults (the file is left)."""
    path = config.preferences_path()
    path.parent.mkdir(parents=True)
    content = b'{"theme": "papel", "keys": {"undo": "u", "undo": "ctrl+u"}}'
    path.write_bytes(content)
    preferences, warning = load_preferences()
    assert preferences == Preferences()
    assert warning is not None and '"undo" twice' in warning and "keys.undo" in warning
    assert path.read_bytes() == content


def test_bad_value_is_reset_and_named(dirs: tuple[Path, Path]) -> None:
    path = config.preferences_path()
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"theme": 7}), encoding="utf-8")
    preferences, warning = load_preferences()
    assert preferences.theme == "sombra"
    assert warning is not None and "'theme'" in warning and str(path) in warning


def test_empty_theme_name_is_a_bad_value(dirs: tuple[Path, Path]) -> None:
    path = config.preferences_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"theme": ""}', encoding="utf-8")
    preferences, warning = load_preferences()
    assert preferences.theme == "sombra"
    assert warning is not None


def test_unknown_keys_are_ignored(dirs: tuple[Path, Path]) -> None:
    path = config.preferences_path()
    path.parent.mkdir(parents=True)
    path.write_text('{"theme": "papel", "from_a_newer_version": true}', encoding="utf-8")
    assert load_preferences() == (Preferences(theme="papel"), None)


def test_folder_in_place_of_the_file(dirs: tuple[Path, Path]) -> None:
    config.preferences_path().mkdir(parents=True)
    preferences, warning = load_preferences()
    assert preferences == Preferences()
    assert warning is not None and "folder" in warning


def test_folders_under_points_data_and_config_there_then_restores(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(config.DATA_DIR_ENV, "/somewhere/data")
    monkeypatch.delenv(config.CONFIG_DIR_ENV, raising=False)
    with config.folders_under(tmp_path):
        assert config.data_dir() == tmp_path / "data"
        assert config.config_dir() == tmp_path / "config"
    assert os.environ[config.DATA_DIR_ENV] == "/somewhere/data"
    assert config.CONFIG_DIR_ENV not in os.environ


# ---- read without pydantic's validator where the types are exact (issue 24 item 5) ---

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.app.quick_reads import assert_quick_read_agrees  # noqa: E402

#: Values of every kind a preferences file may hold, right and wrong.
ANY_VALUE = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.sampled_from(
    ["", "es", "en", "fr", "sombra", "true", "1", " "]), st.lists(st.integers(0, 1),
                                                                max_size=1),
    st.dictionaries(st.sampled_from(["declare", "undo", ""]), st.sampled_from(["ctrl+d", 1]),
                    max_size=2))
PREFERENCE_DATA = st.dictionaries(
    st.sampled_from(["theme", "language", "keys", "players_lan", "show_odds", "other"]),
    ANY_VALUE)


@settings(max_examples=300, deadline=None)
@given(PREFERENCE_DATA)
def test_the_quick_read_agrees_with_validation(data: dict[str, object]) -> None:
    """Whatever the quick checks take, pydantic takes the same way (same values, same
    fields set); what they do not take goes to pydantic, which judges it."""
    assert_quick_read_agrees(Preferences, config._read_exact, Preferences.read, data)


def test_a_file_of_exact_types_takes_the_quick_read() -> None:
    """A preferences file as the app writes it never builds pydantic's validator."""
    data = json.loads(Preferences(theme="papel", language="en", keys={"undo": "u"},
                                  players_lan=True, show_odds=False).model_dump_json())
    quick = config._read_exact(data)
    assert quick == Preferences.model_validate(data) and quick is not None
    assert config._read_exact({"theme": ""}) is None  # an empty name: pydantic names it
    assert Preferences.default() == Preferences()
