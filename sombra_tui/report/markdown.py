"""The combat report as Markdown (issue 38): to paste in the campaign's notes."""

from __future__ import annotations

from sombra_tui.engine.i18n import _
from sombra_tui.engine.report import CharacterReport, CombatReport, HitLine, hit_words
from sombra_tui.report.words import (
    asalto,
    asaltos_words,
    bleeding_words,
    condition_words,
    side_name,
    standing_words,
    tally_words,
    words,
    wound_words,
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown(report: CombatReport) -> str:
    say = words()
    lines = [f"# {say['title']}: {report.name}", "", asaltos_words(report), ""]
    lines += [f"## {say['who']}", "",
              f"| {say['character']} | {say['side']} | G / W / PV | {say['end']} |",
              "|---|---|---|---|"]
    for ch in report.characters:
        lines.append(f"| {_cell(ch.name)} | {side_name(ch)} | {ch.g} / {ch.w} / {ch.pv} | "
                     f"{_cell(standing_words(ch))} |")
    lines += ["", f"## {say['moments']}", ""]
    if report.moments:
        lines += [f"- **{asalto(m.round)}**: {m.what}"
                  for m in report.moments]
    else:
        lines.append(say["none"])
    for ch in report.characters:
        lines += ["", *_character(ch)]
    lines += ["", f"## {say['timeline']}", ""]
    for round_, items in report.rounds():
        lines += [f"### {asalto(round_)}", ""]
        for item in items:
            outcome = f" — {item.ta.label}" if item.ta is not None else ""
            lines.append(f"- {item.what}{outcome}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def _hits(title: str, hits: tuple[HitLine, ...]) -> list[str]:
    if not hits:
        return []
    return [f"- {title}:", *(f"  - {asalto(h.round)}: "
                             f"{hit_words(h)}" for h in hits)]


def _character(ch: CharacterReport) -> list[str]:
    say = words()
    lines = [f"## {ch.name} ({side_name(ch)})", "",
             f"- G {ch.g} / W {ch.w} / PV {ch.pv}; {standing_words(ch)}"]
    if ch.actions:
        lines.append(f"- {say['tas']}: {tally_words(ch) or '—'}")
        lines += [f"  - {asalto(a.round)}: {a.what} — "
                  f"{_(a.rank_name)}" for a in ch.actions]
    lines += _hits(say["dealt"], ch.hits_dealt)
    lines += _hits(say["taken"], ch.hits_taken)
    if ch.wounds:
        lines.append(f"- {say['wounds']}:")
        for wound in ch.wounds:
            bleeding = bleeding_words(wound)
            lines.append(f"  - {wound_words(wound)}" + (f" — {bleeding}" if bleeding else ""))
    if ch.conditions:
        lines.append(f"- {say['conditions']}: "
                     + ", ".join(condition_words(c) for c in ch.conditions))
    return lines
