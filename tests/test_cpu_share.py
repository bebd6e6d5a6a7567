"""tests/tools/cpu_share.py gives each function's own time to its owner, a built-in's to
its caller's owner, and leaves the event loop's waits out (issue 36 item 8)."""

from __future__ import annotations

from typing import Any

from tests.tools import cpu_share


class Stats:
    """pstats.Stats' table: (file, line, name) -> (cc, calls, own, cumulative, callers)."""

    def __init__(self, table: dict[tuple[str, int, str], tuple[Any, ...]]) -> None:
        self.stats = table


def test_owners_built_ins_and_waits() -> None:
    textual = ("/venv/site-packages/textual/css/stylesheet.py", 470, "apply")
    engine = ("/repo/sombra_tui/engine/ask.py", 1, "panel")
    table = Stats({
        textual: (1, 1, 3.0, 5.0, {}),
        engine: (1, 1, 0.5, 0.7, {}),
        ("/repo/sombra_tui/widgets/table_cells.py", 1, "cells"): (1, 1, 0.25, 0.25, {}),
        # a built-in called from both: its time split by the edges
        ("~", 0, "<built-in method builtins.isinstance>"): (
            3, 3, 1.5, 1.5, {textual: (2, 2, 1.0, 1.0), engine: (1, 1, 0.5, 0.5)}),
        ("~", 0, "<method 'poll' of 'select.epoll' objects>"): (1, 1, 9.0, 9.0, {}),
        ("/usr/lib/python3.11/json/decoder.py", 1, "decode"): (1, 1, 0.125, 0.125, {}),
    })
    by_owner, idle = cpu_share.shares(table)  # type: ignore[arg-type]
    assert by_owner == {"Textual": 4.0, "sombra-tui: the engine": 1.0,
                        "sombra-tui: the screen side": 0.25,
                        "the rest (standard library, other packages)": 0.125}
    assert idle == 9.0
    text = cpu_share.report(by_owner, idle)
    assert text.splitlines()[0].endswith("Textual") and "74.4 %" in text.splitlines()[0]
    assert "9.0 s idle" in text.splitlines()[-1]
