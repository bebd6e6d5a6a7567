"""Command line entry point: `sombra-tui` and `python -m sombra_tui`."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from sombra_tui import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sombra-tui",
        description=(
            "Keyboard-driven combat tracker for Sistema Sombra: initiative, "
            "declarations with reactions (Alerta), and the instant, round and "
            "extended phases of each asalto."
        ),
    )
    parser.add_argument(
        "--version", action="version", version=f"sombra-tui {__version__}"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    build_parser().parse_args(argv)
    print("sombra-tui: the terminal app is not built yet; the engine is importable "
          "as sombra_tui.engine.")
    return 0
