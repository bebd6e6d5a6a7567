"""The numbers of a hit proposal, worded for the DJ (H1-H9): what the dice read,
the wounds the hit makes and the points, all computed by the engine.
"""

from __future__ import annotations

from sombra_tui import engine as c  # the commands, through the engine's door
from sombra_tui.engine import (
    CombatState,
    HitReading,
    Proposal,
    SombraError,
    ask,
)
from sombra_tui.engine.i18n import _


def proposal_lines(state: CombatState, proposal: Proposal, edits: c.AcceptHit | None = None,
                   problem: str = "") -> list[str]:
    """Every number of a hit proposal and where it came from (H1-H9, in the DJ's language):
    what the dice read, then the wounds the hit makes and the points, by the engine's
    preview with the DJ's `edits` (None: as read). `problem`: why the values being typed
    make no hit yet, shown instead of its wounds."""
    reading = proposal.reading
    weapon = proposal.weapon
    lines = [_("Weapon: {weapon}, tipo {tipo} — {attacker}'s TA \"{action}\"").format(
        weapon=weapon.name if weapon else "?", tipo=proposal.damage_type,
        attacker=proposal.attacker, action=proposal.action)]
    if reading is None:
        lines.append(_("No dice (the DJ decided the TA): give the location and the damage."))
        if edits is None:
            return lines
    else:
        lines.extend(reading_lines(reading))
        lines.extend(override_lines(reading, edits))
    if problem:
        return [*lines, problem]
    return lines + outcome_lines(state, proposal, edits)


def reading_lines(reading: HitReading) -> list[str]:
    """H2, H3: what the attack's dice read (location and damage)."""
    dice = reading.dice
    lines = [_("Dice: dS {ds} · d+ {plus} · d- {minus}").format(
        ds=dice.ds, plus=dice.d_plus, minus=dice.d_minus)]
    lines.append(_("Location: dS {ds} -> value {value} -> {location}").format(
        ds=dice.ds, value=reading.location_value, location=_(reading.location.label)))
    damage = reading.damage
    if damage.value is None:
        lines.append(_("Damage: tipo {tipo} has no formula yet: type it").format(
            tipo=damage.tipo))
    else:
        raw = _(" (the formula gives {raw})").format(raw=damage.raw) if damage.clamped else ""
        lethal = _("lethal") if reading.lethal else _("non-lethal")
        lines.append(_("Damage: {working}{raw}, {lethal}").format(
            working=damage.working(damage.value), raw=raw, lethal=lethal))
    if reading.tipo_iv_count is not None:
        lines.append(_("Tipo IV: reaches {count} location values (d- {minus}): list "
                       "(location damage, ...)").format(count=reading.tipo_iv_count,
                                                         minus=dice.d_minus))
    return lines


def override_lines(reading: HitReading, edits: c.AcceptHit | None) -> list[str]:
    """H1, H2: the DJ's location or damage where it differs from what the dice read
    (the DJ's value wins): said under the dice's, so both are in sight."""
    if edits is None:
        return []
    lines = []
    if edits.location is not None and edits.location is not reading.location:
        lines.append(_("Location chosen by the DJ: {location} (the dice read {read})").format(
            location=_(edits.location.label), read=_(reading.location.label)))
    read = reading.damage.value
    if edits.damage is not None and edits.damage != read:
        lines.append(_("Damage typed by the DJ: {damage} (the dice read {read})").format(
            damage=edits.damage, read="?" if read is None else read))
    return lines


def outcome_lines(state: CombatState, proposal: Proposal, edits: c.AcceptHit | None
                  ) -> list[str]:
    """H4-H9, H6: each wound the hit makes and the points, as accepting `edits` would
    (the engine's preview: nothing here is worked out by the screen)."""
    try:
        preview = ask.hit_preview(state, proposal, edits)
    except SombraError as error:  # values the engine would refuse: say why
        return [str(error)]
    if preview is None:
        return []
    lines = []
    for assessment in preview.assessments:
        lines.append(_("Protection: {location} {protection} -> damage {damage}").format(
            location=_(assessment.location.label), protection=assessment.protection,
            damage=assessment.damage))
        lines.append(_("Severity: {damage} / Resistencia {resistencia} -> {severity}").format(
            damage=assessment.damage, resistencia=assessment.resistencia,
            severity=_(assessment.severity.label)))
        lines.append(_("Consequences: {consequences}").format(
            consequences=ask.consequence_words(assessment)))
    before, after = preview.before, preview.after
    lines.append(_("Points: G {g0} -> {g1}, W {w0} -> {w1} of PV {pv}").format(
        g0=before.g, g1=after.g, w0=before.w, w1=after.w, pv=preview.pv))
    return lines


def proposal_question(proposal: Proposal, state: CombatState | None = None) -> str:
    return str(ask.proposal_question(proposal, state))  # H7/H11, in the DJ's language
