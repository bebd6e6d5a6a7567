"""Fixtures for every test: the language is pinned, never the machine's locale.

The existing tests read the app in English (the catalog's source language); a test
that wants Spanish (or the pseudo-language) sets it itself with
`sombra_tui.engine.i18n.set_language` or the `spanish` fixture.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from sombra_tui.engine import i18n


@pytest.fixture(autouse=True)
def pinned_language(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """English for the test, and LANGUAGE=en for any sombra-tui it starts."""
    for variable in i18n.LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANGUAGE", "en")
    i18n.set_language("en")
    yield "en"
    i18n.set_language("en")


@pytest.fixture
def spanish(monkeypatch: pytest.MonkeyPatch) -> str:
    """Spanish for the test (and LANGUAGE=es for any sombra-tui it starts)."""
    monkeypatch.setenv("LANGUAGE", "es")
    i18n.set_language("es")
    return "es"
