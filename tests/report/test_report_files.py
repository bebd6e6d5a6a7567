"""`sombra-tui report FILE` (issue 38 items 2 and 6): Markdown and HTML beside the file,
never over another file; a file that cannot be reported gets the message opening it
gets, and a non-zero exit; the encounter's file is never changed."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from sombra_tui import cli
from sombra_tui.engine import storage
from sombra_tui.engine.i18n import set_language
from sombra_tui.engine.report import combat_report
from sombra_tui.report import render
from tests.engine.test_report import play_key_moments
from tests.engine.test_worked_example_hits import play_worked_example_h_and_c


@pytest.fixture(scope="module")
def worked_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("worked") / "worked.sombra.json"
    storage.save(play_worked_example_h_and_c(), path)
    return path


def _copy(source: Path, folder: Path) -> Path:
    path = folder / "pelea.sombra.json"
    path.write_bytes(source.read_bytes())
    return path


def test_report_markdown_of_the_worked_example_number_by_number(worked_file: Path) -> None:
    """H2, H3, H6, H8, H9, C3 in the written report: Bruno's right arm leve 11 (8 + 3,
    tipo II, round 2), his head 6 sin importancia, G 18 / W 12 of PV 21 after the bleed of
    round 18, the next point at the end of 34; Ana's head leve 7 (round 4)."""
    text = render(combat_report(storage.load(worked_file)), "md")
    assert "18 asaltos played." in text
    assert "| Bruno | NPC | 18 / 12 / 21 | in the fight |" in text
    assert "| Ana | NPC | 7 / 0 / 18 | in the fight |" in text
    assert "Asalto 2: Carla hits Bruno: right arm, light (11, lethal)" in text
    assert "Asalto 3: Ana hits Bruno: head, minor (6, non-lethal)" in text
    assert "Asalto 4: Carla hits Ana: head, light (7, non-lethal)" in text
    assert ("right arm, light (11, lethal; asalto 2) [pistol] — bleeds 1 point every 16 "
            "asaltos; next at the end of asalto 34") in text
    assert "- Conditions: sangrando (until removed)" in text
    assert "- **Asalto 3**: Bruno: a critical (Bruno: \"shoots Carla\")" in text
    assert "TAs: 1 × high success (critical), 2 × high failure (fumble)" in text
    assert "### Asalto 18\n\n- Bruno bleeds 1 point" in text


def test_report_cli_writes_beside_the_file_and_never_over_one(
        worked_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Default: STEM.report.md beside FILE; again: STEM.report-2.md; an --output that
    exists is refused (exit 1) and left as it was; the encounter's file is unchanged
    (bytes and mtime)."""
    path = _copy(worked_file, tmp_path)
    os.utime(path, (1_000_000, 1_000_000))
    before = path.read_bytes()
    assert cli.main(["report", str(path)]) == 0
    assert cli.main(["report", str(path), "--format", "html"]) == 0
    assert cli.main(["report", str(path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["pelea.report-2.md", "pelea.report.html", "pelea.report.md",
                     "pelea.sombra.json"]
    assert "pelea.report-2.md" in capsys.readouterr().out
    taken = tmp_path / "mine.md"
    taken.write_text("mine", encoding="utf-8")
    assert cli.main(["report", str(path), "--output", str(taken)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert taken.read_text(encoding="utf-8") == "mine"
    assert path.read_bytes() == before and path.stat().st_mtime == 1_000_000


@pytest.mark.parametrize("problem", ["bad json", "does not replay"])
def test_report_of_a_file_that_cannot_be_read_says_what_opening_says(
        worked_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        problem: str) -> None:
    """Issue 38 item 6: the same message as opening the file (storage's SombraError),
    exit status 2, no report written, the file untouched."""
    path = tmp_path / "roto.sombra.json"
    if problem == "bad json":
        path.write_text("{", encoding="utf-8")
    else:  # the first hit accepted names a proposal that never was: the replay stops
        text = worked_file.read_text(encoding="utf-8")
        path.write_text(re.sub(r'"proposal_id": \d+', '"proposal_id": 999', text, count=1),
                        encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(storage.SombraError) as opening:
        storage.load(path)
    assert cli.main(["report", str(path)]) == 2
    assert capsys.readouterr().err.strip() == f"sombra-tui: {opening.value}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["roto.sombra.json"]
    assert path.read_bytes() == before


def test_report_in_spanish(tmp_path: Path) -> None:
    """The DJ's language: headings, outcomes, locations and severities in Spanish."""
    set_language("es")
    text = render(combat_report(play_key_moments()), "md")
    assert "# Informe del combate: Test" in text
    assert "- **Asalto 1**: Bruno está muerto." in text
    assert "Carla alcanza a Eva: cabeza, grave (6, letal)" in text
    assert "inconsciente (6 horas)" in text


def test_report_html_is_self_contained(worked_file: Path) -> None:
    """No script, no link, no address to fetch: inline CSS and SVG only; each location of
    the figure carries its worst severity (H2, H8)."""
    page = render(combat_report(storage.load(worked_file)), "html")
    assert "<script" not in page and "<link" not in page
    assert not re.search(r"(src|href)=|url\(|@import", page)
    bruno = page.split('data-character="Bruno"')[1].split("</section>")[0]
    assert 'data-location="brazo derecho" data-severity="leve"' in bruno
    assert 'data-location="cabeza" data-severity="sin importancia"' in bruno
    assert 'data-location="brazo izquierdo" data-severity=""' in bruno
