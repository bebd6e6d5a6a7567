"""The combat report as one self-contained HTML page (issue 38): inline CSS and SVG, no
script, no network; each character's wounds on a body outline coloured by severity
(H2's locations, H8's severities), a timeline of the asaltos; A4 on paper, one column on
a phone."""

from __future__ import annotations

from html import escape

from sombra_tui.engine.dice import Rank
from sombra_tui.engine.i18n import _, language
from sombra_tui.engine.report import (
    CharacterReport,
    CombatReport,
    HitLine,
    TimelineItem,
    WoundLine,
    hit_words,
)
from sombra_tui.engine.wounds import Location, Severity
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

#: H8: a location's colour by its worst wound (none: unhurt).
COLOURS = {None: "#f5f2ea", Severity.SIN_IMPORTANCIA: "#f3d36b",
           Severity.LEVE: "#ee8a2f", Severity.GRAVE: "#c0262d"}
_ORDER = {None: 0, Severity.SIN_IMPORTANCIA: 1, Severity.LEVE: 2, Severity.GRAVE: 3}

#: H2's locations on a figure seen from the front (its right side on the viewer's left).
SHAPES: dict[Location, str] = {
    Location.CABEZA: '<circle cx="60" cy="22" r="16"',
    Location.PECHO: '<rect x="40" y="42" width="40" height="44" rx="6"',
    Location.ABDOMEN: '<rect x="42" y="88" width="36" height="32" rx="5"',
    Location.BRAZO_DERECHO: '<rect x="20" y="44" width="17" height="74" rx="7"',
    Location.BRAZO_IZQUIERDO: '<rect x="83" y="44" width="17" height="74" rx="7"',
    Location.PIERNA_DERECHA: '<rect x="42" y="122" width="17" height="92" rx="7"',
    Location.PIERNA_IZQUIERDA: '<rect x="61" y="122" width="17" height="92" rx="7"',
}

CSS = """
:root { --ink: #1d1b18; --muted: #6b655c; --line: #d8d2c6; --paper: #fffdf8; }
* { box-sizing: border-box; }
body { margin: 0; padding: 1.2rem; background: var(--paper); color: var(--ink);
  font: 15px/1.45 Georgia, "DejaVu Serif", serif; }
h1 { font-size: 1.6rem; margin: 0 0 .2rem; }
h2 { font-size: 1.2rem; border-bottom: 2px solid var(--ink); margin: 1.4rem 0 .6rem; }
h3 { font-size: 1.05rem; margin: 0 0 .3rem; }
.muted, figcaption { color: var(--muted); font-size: .85rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: .25rem .4rem; text-align: left;
  vertical-align: top; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(21rem, 1fr));
  gap: .8rem; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: .7rem;
  display: flex; gap: .7rem; break-inside: avoid; page-break-inside: avoid; }
.card figure { margin: 0; flex: 0 0 6.5rem; text-align: center; }
.card svg { width: 6.5rem; height: auto; }
.card ul { margin: .2rem 0 .4rem; padding-left: 1.1rem; }
.card .body { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.legend span { display: inline-block; margin-right: .8rem; }
.swatch { display: inline-block; width: .9em; height: .9em; border: 1px solid #555;
  vertical-align: -.1em; margin-right: .25em; }
.out { font-weight: bold; color: #8a1c1c; }
ol.timeline { list-style: none; padding: 0; margin: 0; border-left: 3px solid var(--ink); }
ol.timeline > li { margin: 0 0 .6rem; padding-left: .8rem; position: relative;
  break-inside: avoid; page-break-inside: avoid; }
ol.timeline > li::before { content: ""; position: absolute; left: -.45rem; top: .35rem;
  width: .6rem; height: .6rem; border-radius: 50%; background: var(--ink); }
.round { font-weight: bold; }
ol.timeline ul { margin: .1rem 0 0; padding-left: 1rem; }
.k-hit { color: #7a2d0c; } .k-bleed { color: #a3161c; } .k-moment { font-weight: bold; }
.k-condition { color: #3b4a6b; }
.r-good { color: #1e6b2f; } .r-bad { color: #8a1c1c; } .r-high { font-weight: bold; }
@media (max-width: 40rem) {
  body { padding: .6rem; font-size: 14px; }
  .cards { grid-template-columns: 1fr; }
  .card { flex-direction: column; }
  .card figure { flex-basis: auto; }
  table, thead, tbody, tr, th, td { font-size: .9rem; }
}
@page { size: A4; margin: 14mm; }
@media print {
  body { padding: 0; background: #fff; font-size: 10.5pt; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .cards { grid-template-columns: 1fr 1fr; }
  h2 { break-after: avoid; page-break-after: avoid; }
}
"""


def _e(text: object) -> str:
    return escape(str(text))


def worst(wounds: tuple[WoundLine, ...], location: Location) -> Severity | None:
    found: Severity | None = None
    for wound in wounds:
        if wound.location is location and _ORDER[wound.severity] > _ORDER[found]:
            found = wound.severity
    return found


def body_svg(character: CharacterReport) -> str:
    """H2, H8: the figure, each location filled by its worst wound's severity."""
    say = words()
    parts = ['<svg viewBox="0 0 120 220" role="img" xmlns="http://www.w3.org/2000/svg" '
             f'aria-label="{_e(_("Wounds of {name}").format(name=character.name))}">']
    for location, shape in SHAPES.items():
        severity = worst(character.wounds, location)
        label = _(location.label) + (f": {_(severity.label)}" if severity else "")
        parts.append(f'{shape} fill="{COLOURS[severity]}" stroke="#3a352e" '
                     f'stroke-width="1.5" data-location="{_e(location.value)}" '
                     f'data-severity="{_e(severity.value if severity else "")}">'
                     f'<title>{_e(label)}</title>{shape.split()[0].replace("<", "</")}>')
    if any(w.bleeding for w in character.wounds):
        parts.append('<path d="M104 196 q6 9 0 14 q-6 -5 0 -14z" fill="#a3161c"><title>'
                     f'{_e(say["bleeding"])}</title></path>')
    parts.append("</svg>")
    return "".join(parts)


def _rank_class(rank: Rank) -> str:
    good = rank in (Rank.EXITO_ALTO, Rank.EXITO_MEDIO, Rank.EXITO_BAJO, Rank.EXITO)
    high = rank in (Rank.EXITO_ALTO, Rank.FRACASO_ALTO)
    return ("r-good" if good else "r-bad") + (" r-high" if high else "")


def _hits(title: str, hits: tuple[HitLine, ...]) -> str:
    if not hits:
        return ""
    items = "".join(f"<li>{_e(asalto(h.round))}: "
                    f"{_e(hit_words(h))}</li>" for h in hits)
    return f"<strong>{_e(title)}</strong><ul>{items}</ul>"


def _card(ch: CharacterReport) -> str:
    say = words()
    out = f' <span class="out">{_e(standing_words(ch))}</span>' if ch.out else ""
    body = [f"<h3>{_e(ch.name)} <span class=muted>({_e(side_name(ch))})</span>{out}</h3>",
            f"<div>G {ch.g} / W {ch.w} / PV {ch.pv}</div>"]
    if ch.actions:
        items = "".join(
            f"<li>{_e(asalto(a.round))}: {_e(a.what)} — "
            f'<span class="{_rank_class(a.rank)}">{_e(_(a.rank_name))}</span></li>'
            for a in ch.actions)
        body.append(f"<strong>{_e(say['tas'])}</strong>: {_e(tally_words(ch))}<ul>{items}</ul>")
    body.append(_hits(say["dealt"], ch.hits_dealt))
    body.append(_hits(say["taken"], ch.hits_taken))
    if ch.wounds:
        items = "".join(f"<li>{_e(wound_words(w))}"
                        + (f" — <em>{_e(bleeding_words(w))}</em>" if bleeding_words(w) else "")
                        + "</li>" for w in ch.wounds)
        body.append(f"<strong>{_e(say['wounds'])}</strong><ul>{items}</ul>")
    if ch.conditions:
        body.append(f"<strong>{_e(say['conditions'])}</strong>: "
                    + _e(", ".join(condition_words(c) for c in ch.conditions)))
    return (f'<section class="card" data-character="{_e(ch.name)}"><figure>{body_svg(ch)}'
            f"</figure><div class=body>{''.join(body)}</div></section>")


def _item(item: TimelineItem) -> str:
    outcome = ""
    if item.ta is not None:
        outcome = f' — <span class="{_rank_class(item.ta.rank)}">{_e(item.ta.label)}</span>'
    return f'<li class="k-{item.kind.value}">{_e(item.what)}{outcome}</li>'


def html(report: CombatReport) -> str:
    say = words()
    title = f"{say['title']}: {report.name}"
    who = "".join(f"<tr><td>{_e(ch.name)}</td><td>{_e(side_name(ch))}</td>"
                  f"<td>{ch.g} / {ch.w} / {ch.pv}</td><td>{_e(standing_words(ch))}</td></tr>"
                  for ch in report.characters)
    moments = "".join(f"<li><span class=round>{_e(asalto(m.round))}"
                      f"</span>: {_e(m.what)}</li>" for m in report.moments)
    legend = "".join(f'<span><i class="swatch" style="background:{COLOURS[s]}"></i>'
                     f"{_e(_(s.label) if s else say['unhurt'])}</span>" for s in COLOURS)
    rounds = "".join(
        f"<li><span class=round>{_e(asalto(round_))}</span>"
        f"<ul>{''.join(_item(i) for i in items)}</ul></li>" for round_, items in report.rounds())
    return f"""<!DOCTYPE html>
<html lang="{_e(language())}">
<head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>{CSS}</style></head>
<body>
<header><h1>{_e(title)}</h1><p class=muted>{_e(asaltos_words(report))}</p></header>
<h2>{_e(say['who'])}</h2>
<table><thead><tr><th>{_e(say['character'])}</th><th>{_e(say['side'])}</th><th>G / W / PV</th>
<th>{_e(say['end'])}</th></tr></thead><tbody>{who}</tbody></table>
<h2>{_e(say['moments'])}</h2>
{f'<ul class="moments">{moments}</ul>' if moments else f"<p>{_e(say['none'])}</p>"}
<h2>{_e(say['characters'])}</h2>
<p class="legend muted">{legend}<br>{_e(say['front'])}</p>
<div class="cards">{''.join(_card(ch) for ch in report.characters)}</div>
<h2>{_e(say['timeline'])}</h2>
<ol class="timeline">{rounds}</ol>
</body></html>
"""
