"""Real-browser tests of the players' page (issue 23 item 7): Playwright for Python
driving Debian's `chromium` (the browser Playwright bundles cannot be downloaded here).
Without chromium on the PATH (or Playwright) they skip, saying so; `.ci/run` installs
chromium with apt, so CI runs them."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    if CHROMIUM is None:
        pytest.skip("no chromium on the PATH: the browser tests need Debian's chromium "
                    "(apt-get install chromium; .ci/run installs it)")
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        pytest.skip("Playwright is not installed: pip install -e '.[test]'")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM)
        try:
            yield launched
        finally:
            await launched.close()
