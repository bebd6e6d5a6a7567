"""Command line entry point: `sombra-tui [FILE]` and `python -m sombra_tui`."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from sombra_tui import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sombra-tui",
        description=(
            "Keyboard-driven combat tracker for Sistema Sombra: initiative, "
            "declarations with reactions (Alerta), and the instant, round and "
            "extended phases of each asalto. With no FILE it opens a demo encounter."
        ),
        epilog="Other commands: 'sombra-tui schema' prints the JSON Schema of encounter "
               "files; 'sombra-tui bench [--quick]' measures the engine and the app. "
               "Inside the app: space is the next step, ? shows every key and the rules.",
    )
    parser.add_argument("file", nargs="?", type=Path, metavar="FILE",
                        help="an encounter file (.json) to open")
    parser.add_argument("--theme", metavar="NAME",
                        help="theme to use (sombra, papel, alto-contraste or one of yours)")
    parser.add_argument("--seed", type=int, metavar="N",
                        help="dice seed of the demo encounter (a file keeps its own seed)")
    parser.add_argument("--version", action="version", version=f"sombra-tui {__version__}")
    return parser


SUBCOMMANDS = {
    "schema": "print the JSON Schema of the encounter file format",
    "bench": "benchmark the engine and the app on a synthetic encounter",
}


def schema_main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="sombra-tui schema",
                                     description=SUBCOMMANDS["schema"])
    parser.parse_args(argv)
    import json

    from sombra_tui.engine.storage import json_schema

    print(json.dumps(json_schema(), indent=2, ensure_ascii=False))
    return 0


def bench_main(argv: Sequence[str]) -> int:
    from sombra_tui.bench import main as bench

    return bench(argv)


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    # Subcommands come first; a file that happens to be called "schema" opens as ./schema.
    if arguments and arguments[0] == "schema":
        return schema_main(arguments[1:])
    if arguments and arguments[0] == "bench":
        return bench_main(arguments[1:])
    args = build_parser().parse_args(arguments)
    # Imported here so --help and --version stay instant.
    from sombra_tui.app import SombraApp
    from sombra_tui.engine.errors import SombraError
    from sombra_tui.session import Session

    session = None
    if args.file is not None:
        try:
            session = Session.open(args.file)
        except SombraError as error:
            print(f"sombra-tui: {error}", file=sys.stderr)
            return 2
    if args.seed is not None and args.seed < 0:
        print("sombra-tui: --seed must be zero or more", file=sys.stderr)
        return 2
    SombraApp(session, theme=args.theme, seed=args.seed).run()
    return 0
