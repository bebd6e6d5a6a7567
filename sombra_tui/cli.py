"""Command line entry point: `sombra-tui [FILE]` and `python -m sombra_tui`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from sombra_tui import __version__, pause_gc_for_start, resume_gc
from sombra_tui.engine import i18n
from sombra_tui.engine.i18n import N_, _

#: argparse's own words (it translates them with gettext's `_`, which cli points at
#: the app's catalog): its headings, its help for -h and --version, its errors.
ARGPARSE_WORDS = (
    N_("usage: "), N_("positional arguments"), N_("options"),
    N_("show this help message and exit"), N_("show program's version number and exit"),
    N_("the following arguments are required: %s"), N_("unrecognized arguments: %s"),
    N_("argument %(argument_name)s: %(message)s"), N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


def speak_argparse() -> None:
    """argparse's own strings through the app's catalog (its module-level gettext)."""
    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]


def requested_language(arguments: Sequence[str]) -> str | None:
    """The value of --lang (or --lang=X) among `arguments`, read before parsing so that
    --help itself speaks it."""
    for index, argument in enumerate(arguments):
        if argument == "--lang" and index + 1 < len(arguments):
            return arguments[index + 1]
        if argument.startswith("--lang="):
            return argument.split("=", 1)[1]
    return None


def without_lang(arguments: Sequence[str]) -> list[str]:
    kept: list[str] = []
    skip = False
    for argument in arguments:
        if skip:
            skip = False
        elif argument == "--lang":
            skip = True
        elif not argument.startswith("--lang="):
            kept.append(argument)
    return kept


def choose_language(arguments: Sequence[str]) -> str:
    """--lang, else the saved preference, else the locale, else Spanish; now in force."""
    from sombra_tui import config

    saved = config.load_preferences().preferences.language
    code = i18n.choose_language(requested_language(arguments), saved)
    i18n.set_language(code)
    speak_argparse()
    return code

if TYPE_CHECKING:
    from sombra_tui.session import Session


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sombra-tui",
        description=_(
            "Keyboard-driven combat tracker for Sistema Sombra: initiative, "
            "declarations with reacciones (Alerta), and the instant, round and "
            "extended phases of each asalto. With no FILE it opens a demo encounter."
        ),
        epilog=_("Other commands: 'sombra-tui schema' prints the JSON Schema of encounter "
                 "files; 'sombra-tui bench [--quick]' measures the engine and the app; "
                 "'sombra-tui players [URL]' shows the players' view in a terminal; "
                 "'sombra-tui report FILE' writes a combat's report. "
                 "Inside the app: space is the next step, ? shows every key and the rules."),
    )
    parser.add_argument("file", nargs="?", type=Path, metavar=_("FILE"),
                        help=_("an encounter file (.json) to open; one that does not "
                               "exist yet starts a new empty encounter saved there"))
    parser.add_argument("--theme", metavar=_("NAME"),
                        help=_("theme to use (sombra, papel, alto-contraste or one of yours)"))
    parser.add_argument("--seed", type=int, metavar="N",
                        help=_("dice seed of the demo encounter (a file keeps its own seed)"))
    parser.add_argument("--lang", choices=i18n.LANGUAGES,
                        help=_("language of the app: es (español) or en (English); "
                               "remembered choice or the locale otherwise, else es"))
    parser.add_argument("--paths", action="store_true",
                        help=_("print where your files are: the config folder, the keymap, "
                               "the data folder, the crash journals and the last "
                               "encounters opened"))
    # The help given here: argparse's own default is English on some Pythons (3.11).
    parser.add_argument("--version", action="version", version=f"sombra-tui {__version__}",
                        help=_("show program's version number and exit"))
    return parser


SUBCOMMANDS = {
    "schema": N_("print the JSON Schema of the encounter file format"),
    "bench": N_("benchmark the engine and the app on a synthetic encounter"),
    "players": N_("the players' view in this terminal, following the DJ's page (F8 in "
                  "the DJ's app)"),
    "report": N_("write the report of a combat (Markdown or HTML) beside its file"),
}


def schema_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="sombra-tui schema",
                                     description=_(SUBCOMMANDS["schema"]))
    parser.parse_args(argv)
    import json

    from sombra_tui.engine.storage import json_schema

    print(json.dumps(json_schema(), indent=2, ensure_ascii=False))
    return 0


#: The checkout sombra-tui runs from, when it does (an editable install, or `python -m
#: sombra_tui` in it): the benchmark is a developer's tool there (tests/tools/bench.py),
#: not part of the installed package (issue 36 item 6).
CHECKOUT = Path(__file__).resolve().parents[1]
BENCH_TOOL = Path("tests", "tools", "bench.py")


def bench_main(argv: Sequence[str]) -> int:
    """`sombra-tui bench`: the checkout's benchmark, or where to find it."""
    if not (CHECKOUT / BENCH_TOOL).is_file():
        print(_("The benchmark runs from a source checkout of sombra-tui, not from an "
                "installed copy: in a clone of the repository, installed as its README "
                "says, run '{command}' (or '{module}').").format(
                    command="sombra-tui bench", module="python -m tests.tools.bench"),
              file=sys.stderr)
        return 1
    if str(CHECKOUT) not in sys.path:
        sys.path.insert(0, str(CHECKOUT))
    from importlib import import_module

    bench = import_module("tests.tools.bench")
    return int(bench.main(argv))


def players_main(argv: Sequence[str]) -> int:
    from sombra_tui.players.terminal import DEFAULT_URL

    parser = argparse.ArgumentParser(prog="sombra-tui players",
                                     description=_(SUBCOMMANDS["players"]))
    parser.add_argument("url", nargs="?", default=DEFAULT_URL, metavar="URL",
                        help=_("the address the DJ's app shows (default: {url})").format(
                            url=DEFAULT_URL))
    args = parser.parse_args(argv)
    if not args.url.startswith(("http://", "https://")):
        parser.error(_("the address must start with http:// (as the DJ's app shows it)"))
    from sombra_tui.players.terminal import main as players

    return players(args.url)


def report_main(argv: Sequence[str]) -> int:
    from sombra_tui.report.cli import main as report

    return report(argv, _(SUBCOMMANDS["report"]))


def open_or_create(path: Path) -> Session:
    """The session of `sombra-tui FILE`: the file opened, or, when it does not exist
    yet, a new empty encounter saved there (SombraError when that cannot be done)."""
    from sombra_tui.session import Session

    if path.exists():
        return Session.open(path)
    return Session.create(path)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    starts_app = not (arguments and arguments[0] in SUBCOMMANDS)
    if starts_app:  # the collector waits for the first screen (issue 24 item 5)
        pause_gc_for_start()
    try:
        return _main(arguments, starts_app)
    finally:
        resume_gc()  # the app resumed it at its first screen; else (an error) now


def _main(arguments: list[str], starts_app: bool) -> int:
    language = choose_language(arguments)
    if not starts_app:  # --lang is the app's; a subcommand only speaks it
        arguments = without_lang(arguments)
    # Subcommands come first; a file that happens to be called "schema" opens as ./schema.
    if arguments and arguments[0] == "schema":
        return schema_main(arguments[1:])
    if arguments and arguments[0] == "bench":
        return bench_main(arguments[1:])
    if arguments and arguments[0] == "players":
        return players_main(arguments[1:])
    if arguments and arguments[0] == "report":
        return report_main(arguments[1:])
    args = build_parser().parse_args(arguments)
    if args.paths:
        from sombra_tui import where

        print(where.text())
        return 0
    # Imported here so --help and --version stay instant.
    from sombra_tui.app import SombraApp
    from sombra_tui.engine.errors import SombraError

    session = None
    if args.file is not None:
        try:
            session = open_or_create(args.file)
        except SombraError as error:
            print(f"sombra-tui: {error}", file=sys.stderr)
            if error.code in ("session.no_folder", "storage.missing"):
                from sombra_tui import where

                print(where.data_folder_hint(), file=sys.stderr)
            return 2
    if args.seed is not None and args.seed < 0:
        print("sombra-tui: " + _("--seed must be zero or more"), file=sys.stderr)
        return 2
    SombraApp(session, theme=args.theme, seed=args.seed, language=language).run()
    return 0
