"""The combat report written out (issue 38): Markdown and a self-contained HTML page.

The data is the engine's (`engine.report.combat_report`); this package only words and
lays it out, in the DJ's language. Writing a report reads the encounter's file and never
writes it: the report goes beside it (FILE's stem + .report.md / .report.html), under a
new name when that one is taken (report-2, report-3...), never over another file.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sombra_tui.engine.report import CombatReport, combat_report
from sombra_tui.report.html import html
from sombra_tui.report.markdown import markdown

if TYPE_CHECKING:
    from sombra_tui.engine.history import Combat

FORMATS = ("md", "html")
#: At most this many numbered names are tried beside the file (report-2 ... report-N).
MAX_NUMBERED = 999

def stem_of(path: Path) -> str:
    """"pelea.sombra.json" -> "pelea"; "pelea.json" -> "pelea"."""
    name = path.name
    for suffix in (".sombra.json", ".json"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return path.stem or name


def free_path(folder: Path, stem: str, fmt: str) -> Path:
    """The report's name beside the file: STEM.report.FMT, or the first free
    STEM.report-N.FMT when that is taken (a report never overwrites a file)."""
    first = folder / f"{stem}.report.{fmt}"
    if not first.exists():
        return first
    for number in range(2, MAX_NUMBERED + 1):
        candidate = folder / f"{stem}.report-{number}.{fmt}"
        if not candidate.exists():
            return candidate
    raise FileExistsError(first)


def render(report: CombatReport, fmt: str) -> str:
    return html(report) if fmt == "html" else markdown(report)


def write_report(report: CombatReport, fmt: str, output: Path) -> Path:
    """Write the report to `output`, a new file (never one that exists)."""
    text = render(report, fmt)
    with open(output, "x", encoding="utf-8") as handle:
        handle.write(text)
    return output


def write_beside(combat: Combat, folder: Path, name: str) -> list[Path]:
    """The app's report (issue 38): both formats in `folder`, named after the file
    `name` ("pelea.json" -> pelea.report.md, pelea.report.html), each a new file."""
    report = combat_report(combat)
    stem = stem_of(Path(name))
    return [write_report(report, fmt, free_path(folder, stem, fmt)) for fmt in FORMATS]
