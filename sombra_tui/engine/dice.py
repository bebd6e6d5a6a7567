"""Dice and the action roll (TA): rules T1-T7.

A TA rolls 3d10; one die is the dado Sombra (dS), the other two are ranked
into d+ and d-. Everything here is pure and deterministic given the dice.
"""

from __future__ import annotations

import random
import re
from enum import IntEnum, StrEnum
from typing import Self

from pydantic import Field, model_validator

from sombra_tui.engine.errors import SombraError, invalid
from sombra_tui.engine.frozen import Frozen
from sombra_tui.engine.i18n import N_, _

DIE_FACES = 10
DEFAULT_POINTS_PER_GD = 5

#: The grades' names (T3), English msgids (Muy fácil ... Muy difícil in Spanish).
GD_NAMES: dict[int, str] = {
    -2: N_("Very easy"),
    -1: N_("Easy"),
    0: N_("Normal"),
    1: N_("Hard"),
    2: N_("Very hard"),
}


def gd_name(gd: int) -> str:
    """Name of a difficulty grade (T3) in the language in force; grades beyond +2 stack
    as 'Very hard +N' (Muy difícil +N)."""
    if gd in GD_NAMES:
        return _(GD_NAMES[gd])
    if gd > 2:
        return _("Very hard +{extra}").format(extra=gd - 2)
    return _("Very easy {extra}").format(extra=gd + 2)


def format_gd(gd: int) -> str:
    return f"+{gd}" if gd > 0 else str(gd)


class Dice(Frozen):
    """Three d10, the dado Sombra first (T1, T6)."""

    ds: int = Field(ge=1, le=DIE_FACES, description="dado Sombra")
    a: int = Field(ge=1, le=DIE_FACES)
    b: int = Field(ge=1, le=DIE_FACES)

    @classmethod
    def of(cls, ds: int, a: int, b: int) -> Self:
        """Dice from three typed values, dS first, with a DJ-readable error naming the
        die (T6): a 0 is the face a d10 shows for 10 and reads as 10."""
        values: list[int] = []
        for position, value in (("dS", ds), (_("second die"), a), (_("third die"), b)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise SombraError(N_("The {position} must be a whole number from 1 to 10, "
                                     "not {value!r}."),
                                  code="dice.not_whole",
                                  params={"position": position, "value": str(value)})
            if not 0 <= value <= DIE_FACES:
                raise SombraError(N_("The {position} must be from 1 to 10 (a 0 reads as 10), "
                                     "not {value}."),
                                  code="dice.out_of_range",
                                  params={"position": position, "value": str(value)})
            values.append(value or DIE_FACES)  # T6: the d10's 0 is its 10
        return cls(ds=values[0], a=values[1], b=values[2])

    @property
    def d_plus(self) -> int:
        return max(self.a, self.b)

    @property
    def d_minus(self) -> int:
        return min(self.a, self.b)

    @property
    def sum(self) -> int:
        return self.ds + self.a + self.b

    def __str__(self) -> str:
        return f"dS {self.ds} + {self.d_plus} + {self.d_minus}"


_DICE_SPLIT = re.compile(r"[\s,;/+-]+")
#: A minus sign starting a number ("3 -4 2"): a negative die, not a separator (T6).
_NEGATIVE = re.compile(r"(?:^|[\s,;/+])-\d+")


def parse_dice(text: str) -> Dice:
    """Parse three dice typed by the DJ, dS first: '3 4 2', '3,4,2' or '342' (T6); a 0
    reads as 10 (the face a d10 shows for 10). Every dice field reads its dice here."""
    values = _typed_dice(text)
    return Dice.of(values[0], values[1], values[2])


def zero_read_as_ten(text: str) -> Dice | None:
    """T6: the dice `text` reads as when a 0 was typed among them (the field shows the
    DJ that it counts as 10); None when no 0 was typed or the text is not three dice."""
    try:
        values = _typed_dice(text)
        dice = Dice.of(values[0], values[1], values[2])
    except SombraError:
        return None
    return dice if 0 in values else None


def _typed_dice(text: str) -> list[int]:
    """The three whole numbers typed for the dice, as typed (T6)."""
    cleaned = text.strip()
    if not cleaned:
        raise SombraError(N_("Type three dice from 1 to 10, the dS first (for example 3 4 "
                             "2)."),
                          code="dice.empty")
    negative = _NEGATIVE.search(cleaned)
    if negative:  # T6: a value outside 1..10 is refused, not read as its absolute value
        raise SombraError(N_("{text} is not a die: each die is a whole number from 1 to 10."),
                          code="dice.negative", params={"text": negative.group().strip(' ,;/+')})
    if cleaned.isdigit() and len(cleaned) == 3:
        parts = list(cleaned)
    else:
        parts = [p for p in _DICE_SPLIT.split(cleaned) if p]
    for part in parts:  # "xyz" is no die at all, not "1 die"
        if not part.isdigit():
            raise SombraError(N_("{text!r} is not a die: each die is a whole number from 1 "
                                 "to 10."),
                              code="dice.not_a_die", params={"text": part})
    if len(parts) != 3:
        raise SombraError(N_("Type exactly three dice, the dS first; got {count} in "
                             "{text!r}."),
                          code="dice.count", params={"count": len(parts), "text": text})
    return [int(part) for part in parts]


class DiceRoller:
    """Seeded 3d10 roller (T6): the same seed gives the same dice."""

    def __init__(self, seed: int | str) -> None:
        self._random = random.Random(seed)

    def d10(self) -> int:
        return self._random.randint(1, DIE_FACES)

    def roll(self) -> Dice:
        return Dice(ds=self.d10(), a=self.d10(), b=self.d10())


class Quality(StrEnum):
    """Quality levels of a TA (T4)."""

    ALTO = "alto"
    MEDIO = "medio"
    BAJO = "bajo"


def quality_of(dice: Dice) -> Quality:
    """T4: alto if the three dice are equal, bajo if d+ + d- <= 4, else medio."""
    if dice.ds == dice.a == dice.b:
        return Quality.ALTO
    if dice.d_plus + dice.d_minus <= 4:
        return Quality.BAJO
    return Quality.MEDIO


class Rank(IntEnum):
    """Result ranking of T4, higher is better."""

    FRACASO_ALTO = 0
    FRACASO_MEDIO = 1
    FRACASO_BAJO = 2
    EXITO_BAJO = 3
    EXITO_MEDIO = 4
    EXITO_ALTO = 5
    # With quality levels off only success and failure exist.
    FRACASO = 10
    EXITO = 11


_RANKS: dict[tuple[bool, Quality], Rank] = {
    (True, Quality.ALTO): Rank.EXITO_ALTO,
    (True, Quality.MEDIO): Rank.EXITO_MEDIO,
    (True, Quality.BAJO): Rank.EXITO_BAJO,
    (False, Quality.BAJO): Rank.FRACASO_BAJO,
    (False, Quality.MEDIO): Rank.FRACASO_MEDIO,
    (False, Quality.ALTO): Rank.FRACASO_ALTO,
}


class TAResult(Frozen):
    """One resolved action roll with every number behind it (T2, S2)."""

    dice: Dice | None = None
    gd: int = 0
    points_per_gd: int = DEFAULT_POINTS_PER_GD
    modifier: int = 0
    target: int
    total: int
    success: bool
    quality: Quality | None = None
    #: True when the DJ accepted the action without a roll (D12) or it was automatic (T7).
    unrolled: bool = False

    @property
    def margin(self) -> int:
        """T2: target - total (positive or zero on success)."""
        return self.target - self.total

    @property
    def closeness(self) -> int:
        """T5: distance of the total from its own target, smaller is better."""
        return abs(self.target - self.total)

    @property
    def rank(self) -> Rank:
        if self.quality is None:
            return Rank.EXITO if self.success else Rank.FRACASO
        return _RANKS[(self.success, self.quality)]

    @property
    def label(self) -> str:
        """Success or failure and its nivel de calidad (T4), in the DJ's language."""
        if self.quality is None:
            return _("success") if self.success else _("failure")
        if self.quality is Quality.ALTO:
            return _("high success (critical)") if self.success else _("high failure (fumble)")
        if self.quality is Quality.MEDIO:
            return _("medium success") if self.success else _("medium failure")
        return _("low success") if self.success else _("low failure")

    def describe(self) -> str:
        if self.unrolled:
            return (_("accepted without a roll (success)") if self.success
                    else _("accepted without a roll (failure)"))
        parts = [f"[{self.dice}]" if self.dice else "", f"GD {format_gd(self.gd)}"]
        if self.modifier:
            parts.append(_("mod {gd}").format(gd=format_gd(self.modifier)))
        parts.append(_("= {total} vs {target}").format(total=self.total, target=self.target))
        parts.append(_("margin {margin}").format(margin=format_gd(self.margin)))
        parts.append(self.label)
        return " ".join(p for p in parts if p)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.dice is None and not self.unrolled:
            raise invalid("dice.rolled_ta_needs_dice", N_("a rolled TA needs its dice"))
        return self


def resolve_ta(
    dice: Dice,
    *,
    target: int,
    gd: int = 0,
    points_per_gd: int = DEFAULT_POINTS_PER_GD,
    modifier: int = 0,
    quality_levels: bool = True,
) -> TAResult:
    """T2: total = dS + d+ + d- + points x GD + modifier; success iff total <= target."""
    total = dice.sum + points_per_gd * gd + modifier
    success = total <= target
    return TAResult(
        dice=dice,
        gd=gd,
        points_per_gd=points_per_gd,
        modifier=modifier,
        target=target,
        total=total,
        success=success,
        quality=quality_of(dice) if quality_levels else None,  # T4
    )


def unrolled_ta(*, target: int, success: bool = True, gd: int = 0) -> TAResult:
    """A TA the DJ accepts without dice (D12) or an automatic action (T7)."""
    return TAResult(dice=None, gd=gd, target=target, total=target if success else target + 1,
                    success=success, quality=None, unrolled=True)


def compare_ta(first: TAResult, second: TAResult) -> int:
    """T5: 1 if `first` wins, -1 if `second` wins, 0 for a tie the DJ breaks.

    Better rank (T4) wins; at equal rank the total closer to its own target.
    """
    if first.rank != second.rank:
        return 1 if first.rank > second.rank else -1
    if first.closeness != second.closeness:
        return 1 if first.closeness < second.closeness else -1
    return 0


def best_of(results: dict[str, TAResult]) -> list[str]:
    """T5 over many TAs: the names sharing the best result (one name unless tied)."""
    best: list[str] = []
    for name, result in results.items():
        if not best:
            best = [name]
            continue
        verdict = compare_ta(result, results[best[0]])
        if verdict > 0:
            best = [name]
        elif verdict == 0:
            best.append(name)
    return best
