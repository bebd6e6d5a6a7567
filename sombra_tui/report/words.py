"""The report's words in the DJ's language (issue 38), shared by its two layouts."""

from __future__ import annotations

from sombra_tui.engine.i18n import N_, _, ngettext
from sombra_tui.engine.report import (
    RANK_NAMES,
    CharacterReport,
    CombatReport,
    ConditionLine,
    WoundLine,
)

SIDE_NAMES = {"PC": N_("PC"), "NPC": N_("NPC")}


def words() -> dict[str, str]:
    """The report's headings and labels in the language in force."""
    return {"title": _("Combat report"), "who": _("Who fought"), "character": _("Character"),
            "side": _("Side"), "end": _("At the end"), "moments": _("Key moments"),
            "none": _("None."), "timeline": _("Timeline"), "characters": _("Characters"),
            "tas": _("TAs"), "dealt": _("Hits dealt"), "taken": _("Hits taken"),
            "wounds": _("Wounds"), "conditions": _("Conditions"), "unhurt": _("unhurt"),
            "bleeding": _("bleeding"),
            "front": _("Seen from the front: their right side is on your left.")}


def asalto(round_: int) -> str:
    return _("Asalto {round}").format(round=round_)


def side_name(character: CharacterReport) -> str:
    return _(SIDE_NAMES[character.side.value])


def asaltos_words(report: CombatReport) -> str:
    if report.asaltos == 0:
        return _("The combat has not started.")
    words = ngettext("{count} asalto played", "{count} asaltos played", report.asaltos)
    text = words.format(count=report.asaltos)
    if not report.finished:
        text += _(" (the last one still under way)")
    return text + "."


def standing_words(character: CharacterReport) -> str:
    """How the character ends: out and why, or still in the fight."""
    reasons = [c.name for c in character.conditions if c.name in ("muerto", "inconsciente")]
    if reasons:
        return ", ".join(reasons)
    return _("out") if character.out else _("in the fight")


def condition_words(condition: ConditionLine) -> str:
    if condition.permanent:
        return _("{name} (never expires)").format(name=condition.name)
    if condition.hours:
        return ngettext("{name} ({count} hour)", "{name} ({count} hours)",
                        condition.hours).format(name=condition.name, count=condition.hours)
    if condition.rounds_left is None:
        return _("{name} (until removed)").format(name=condition.name)
    return ngettext("{name} ({count} asalto left)", "{name} ({count} asaltos left)",
                    condition.rounds_left).format(name=condition.name,
                                                  count=condition.rounds_left)


def wound_words(wound: WoundLine) -> str:
    lethal = _("lethal") if wound.lethal else _("non-lethal")
    text = _("{location}, {severity} ({damage}, {lethal}; asalto {round})").format(
        location=_(wound.location.label), severity=_(wound.severity.label),
        damage=wound.damage, lethal=lethal, round=wound.round)
    if wound.cause:
        text += f" [{wound.cause}]"
    return text


def bleeding_words(wound: WoundLine) -> str:
    if wound.attended:
        return _("attended")
    if not wound.bleeding or wound.bleed_rate is None:
        return ""
    text = ngettext("bleeds 1 point every {rate} asalto", "bleeds 1 point every {rate} asaltos",
                    wound.bleed_rate).format(rate=wound.bleed_rate)
    if wound.next_bleed is not None:
        text += _("; next at the end of asalto {round}").format(round=wound.next_bleed)
    return text


def tally_words(character: CharacterReport) -> str:
    return ", ".join(f"{count} × {_(RANK_NAMES[rank])}" for rank, count in character.tally())
