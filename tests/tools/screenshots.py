"""Regenerate the screenshots of the real app: ``python -m tests.tools.screenshots [OUTDIR]``
(from a checkout's top folder; by default into its ``screenshots`` folder).

Every picture is the demo encounter (fixed seed) driven by keys through a Pilot
session, headless at 120x40, with typed dice only: running it again gives the same
pictures. The SVGs come from ``App.save_screenshot``; a PNG copy of each is made
with ``rsvg-convert`` (librsvg) when it is installed, else with ``cairosvg`` when
it is importable, else the PNGs are skipped (with a note on how to get them).

The key-driving functions are the snapshot tests' own (``tests/app/drivers.py``), so
each sequence is written once. Preferences and encounter folders point at a temporary
folder while this runs: the user's own theme choice and files are never touched.
"""

from __future__ import annotations

import asyncio
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from sombra_tui.config import folders_under
from tests.app.drivers import (
    SIZE,
    THEMES,
    Driver,
    character_sheet,
    declaration_editor,
    hit_proposal,
    make_app,
    reaction_dialog,
    resolution_mid_round,
    round_two,
)

#: (file name without extension, theme, driver) of every screenshot; each is taken in
#: English (that name) and in Spanish (the name with "-es").
SHOTS: list[tuple[str, str | None, Driver]] = [
    ("main-reaction-prompt", None, reaction_dialog),
    ("log-after-round", None, round_two),
    ("declaration-editor", None, declaration_editor),
    ("hit-proposal", None, hit_proposal),
    ("character-sheet", None, character_sheet),
    *[(f"theme-{theme}", theme, resolution_mid_round) for theme in THEMES],
]
#: The languages of the screenshots and the suffix of their file names.
LANGUAGES = {"en": "", "es": "-es"}


# ---- files ----------------------------------------------------------------------------


def default_outdir() -> Path:
    """The checkout's top-level ``screenshots`` folder, else ``./screenshots``."""
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file():
        return checkout / "screenshots"
    return Path.cwd() / "screenshots"


async def take(name: str, theme: str | None, driver: Driver, outdir: Path,
               language: str = "en") -> Path:
    app = make_app(theme, language=language)
    async with app.run_test(headless=True, size=SIZE) as pilot:
        await driver(pilot)
        saved = app.save_screenshot(f"{name}.svg", str(outdir))
    return Path(saved)


def printable_svg(svg: Path) -> bytes:
    """The SVG with ``xml:space="preserve"``: without it librsvg drops the no-break
    spaces that start a text run, and every such run slides one cell to the left."""
    text = svg.read_text(encoding="utf-8")
    return text.replace("<svg ", '<svg xml:space="preserve" ', 1).encode("utf-8")


def png_converter() -> Callable[[Path, Path], None] | None:
    """rsvg-convert, else cairosvg, else None."""
    rsvg = shutil.which("rsvg-convert")
    if rsvg is not None:
        def with_rsvg(svg: Path, png: Path) -> None:
            subprocess.run([rsvg, "--output", str(png)], input=printable_svg(svg), check=True)
        return with_rsvg
    if importlib.util.find_spec("cairosvg") is not None:
        def with_cairosvg(svg: Path, png: Path) -> None:
            import cairosvg

            cairosvg.svg2png(bytestring=printable_svg(svg), write_to=str(png))
        return with_cairosvg
    return None


async def take_all(outdir: Path, languages: Sequence[str] = tuple(LANGUAGES)) -> list[Path]:
    written: list[Path] = []
    for language in languages:
        for name, theme, driver in SHOTS:
            svg = await take(name + LANGUAGES[language], theme, driver, outdir, language)
            print(svg)
            written.append(svg)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    languages: list[str] = list(LANGUAGES)
    if len(args) >= 2 and args[0] == "--lang" and args[1] in LANGUAGES:
        languages = [args[1]]
        args = args[2:]
    if len(args) > 1 or (args and args[0].startswith("-")):
        print("usage: python -m tests.tools.screenshots [--lang es|en] [OUTDIR]\n\n"
              "Regenerates every screenshot (SVG, and PNG when rsvg-convert or cairosvg is "
              f"available) into OUTDIR (default: {default_outdir()}), in English (NAME.svg) "
              "and Spanish (NAME-es.svg), or only in the --lang given.")
        return 0 if args and args[0] in ("-h", "--help") else 2
    outdir = Path(args[0]) if args else default_outdir()
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="sombra-tui-screenshots-") as scratch, \
            folders_under(Path(scratch)):
        svgs = asyncio.run(take_all(outdir, languages))
    convert = png_converter()
    if convert is None:
        print("PNGs skipped: install rsvg-convert (Debian/Ubuntu: apt install librsvg2-bin; "
              "macOS: brew install librsvg) or `pip install cairosvg`, then run this again.")
        return 0
    for svg in svgs:
        png = svg.with_suffix(".png")
        convert(svg, png)
        print(png)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
