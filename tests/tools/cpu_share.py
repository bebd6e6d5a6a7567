"""Whose code a set of tests spends its CPU in (issue 36 item 8, README "Tests in
lanes"): pytest runs the tests given, in this process and without workers, under
cProfile; each function's own time goes to its owner (sombra-tui's engine, its screen
side, Textual, Rich, pydantic, asyncio, pytest, the tests, the rest), a built-in's to
the owner of the function that called it; the event loop's waits (epoll, select) are
idle time, not CPU, and are left out.

    python -m tests.tools.cpu_share tests/app/test_target_lists.py tests/app/...

cProfile slows every call alike, so a code of many small calls (Textual's) weighs a
little more than it would unprofiled: the shares are an order of size, not a figure to
the percent.
"""

from __future__ import annotations

import cProfile
import pstats
import sys
from collections import Counter
from collections.abc import Sequence

#: The owners, by a piece of the function's file path, first match wins.
OWNERS = (
    ("/sombra_tui/engine/", "sombra-tui: the engine"),
    ("/sombra_tui/", "sombra-tui: the screen side"),
    ("/textual/", "Textual"),
    ("/rich/", "Rich"),
    ("/pydantic", "pydantic"),
    ("/asyncio/", "asyncio"),
    ("/selectors.py", "asyncio"),
    ("/_pytest/", "pytest"),
    ("/pluggy/", "pytest"),
    ("/syrupy/", "pytest"),
    ("/tests/", "the tests"),
)
#: Built-ins that wait for the event loop's next event: idle, not CPU.
WAITS = ("poll' of 'select.epoll", "select.select", "poll' of 'select.poll")


def owner(path: str) -> str:
    for piece, name in OWNERS:
        if piece in path:
            return name
    return "the rest (standard library, other packages)"


def shares(stats: pstats.Stats) -> tuple[Counter[str], float]:
    """CPU seconds by owner (built-ins given to their callers) and the idle seconds."""
    table = stats.stats  # type: ignore[attr-defined]
    by_owner: Counter[str] = Counter()
    idle = 0.0
    for (path, _line, name), (_cc, _calls, own, _cumulative, callers) in table.items():
        if path != "~":
            by_owner[owner(path)] += own
        elif any(wait in name for wait in WAITS):
            idle += own
        elif callers:
            for (caller_path, _l, _n), edge in callers.items():
                by_owner[owner(caller_path) if caller_path != "~" else "built-ins"] += edge[2]
        else:
            by_owner["built-ins"] += own
    return by_owner, idle


def report(by_owner: Counter[str], idle: float) -> str:
    total = sum(by_owner.values())
    lines = [f"{seconds:8.1f} s  {100 * seconds / total:5.1f} %  {name}"
             for name, seconds in by_owner.most_common()]
    lines.append(f"{total:8.1f} s of CPU under cProfile; {idle:.1f} s idle (waits left out)")
    return "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    import pytest

    profile = cProfile.Profile()
    code = profile.runcall(pytest.main, ["-q", "-n", "0", "-p", "no:cacheprovider", *argv])
    print(report(*shares(pstats.Stats(profile))))
    return int(code)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
