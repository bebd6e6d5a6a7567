"""Issue 24 item 5: the app's first screen imports only what it needs; the players'
page's server (aiohttp), its QR code (segno) and the help's Markdown (markdown_it)
are imported when first used."""

from __future__ import annotations

import json
import subprocess
import sys

LATER = ("aiohttp", "segno", "markdown_it")

SCRIPT = """
import json, sys
import sombra_tui.app
print(json.dumps(sorted(name for name in sys.modules
                        if name.split(".")[0] in {later})))
"""


def imported_by(statement: str) -> list[str]:
    script = SCRIPT.replace("import sombra_tui.app", statement).format(later=set(LATER))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=True, timeout=120)
    found: list[str] = json.loads(done.stdout.splitlines()[-1])
    return found


def test_importing_the_app_leaves_the_server_qr_and_markdown_for_later() -> None:
    assert imported_by("import sombra_tui.app") == []


def test_each_is_imported_where_it_is_used() -> None:
    """The check above would pass on a typo: these modules do import them."""
    found = imported_by("import sombra_tui.app, sombra_tui.players.server, "
                        "sombra_tui.screens.dialogs.help, sombra_tui.screens.dialogs.players; "
                        "sombra_tui.screens.dialogs.players.qr_text('http://x')")
    assert {name.split(".")[0] for name in found} == set(LATER)


def test_the_dialogs_package_still_gives_every_dialog_by_name() -> None:
    from sombra_tui.screens import dialogs

    for name in dialogs.__all__:
        assert isinstance(getattr(dialogs, name), type), name
