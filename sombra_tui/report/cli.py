"""`sombra-tui report FILE [--format md|html] [--output PATH]` (issue 38).

The file is read as opening it reads it (engine/storage.py: the same message for a file
that is not JSON, not an encounter, or whose history does not replay; exit status 2);
it is never written. The report goes beside it under a new name (STEM.report.md, or
STEM.report-2.md when that is taken); an --output that exists is refused, not replaced.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from sombra_tui.engine.i18n import _
from sombra_tui.report import FORMATS, free_path, stem_of, write_report


def report_file(source: Path, fmt: str = "md", output: Path | None = None) -> Path:
    """Write the report of the encounter in `source`; the path written. Raises
    SombraError (the file cannot be read or replayed) or FileExistsError."""
    from sombra_tui.engine.report import combat_report
    from sombra_tui.engine.storage import load

    combat = load(source)
    target = output if output is not None else free_path(
        source.resolve().parent, stem_of(source), fmt)
    return write_report(combat_report(combat), fmt, target)


def main(argv: Sequence[str], description: str) -> int:
    parser = argparse.ArgumentParser(prog="sombra-tui report", description=description)
    parser.add_argument("file", type=Path, metavar=_("FILE"),
                        help=_("the encounter file (.json) whose combat is reported"))
    parser.add_argument("--format", choices=FORMATS, default="md",
                        help=_("md (Markdown, the default) or html (one page that prints "
                               "on A4)"))
    parser.add_argument("--output", type=Path, metavar=_("PATH"),
                        help=_("where to write it (default: beside FILE, named after it); "
                               "a file that exists is never replaced"))
    args = parser.parse_args(argv)
    from sombra_tui.engine.errors import SombraError

    try:
        written = report_file(args.file, args.format, args.output)
    except SombraError as error:
        print(f"sombra-tui: {error}", file=sys.stderr)
        return 2
    except FileExistsError as error:
        print("sombra-tui: " + _("{path} already exists: the report does not replace it; "
                                 "choose another --output.").format(path=error.args[0]),
              file=sys.stderr)
        return 1
    except OSError as error:
        print("sombra-tui: " + _("cannot write the report to {path}: {reason}").format(
            path=error.filename, reason=error.strerror), file=sys.stderr)
        return 1
    print(_("Report written to {path}").format(path=written))
    return 0
