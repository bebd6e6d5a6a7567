"""The odds of a TA and of an opposition, exact (issue 37): the engine's read side.

3d10 has 1,000 outcomes; every one is resolved by the code that resolves a TA at the
table (dice.resolve_ta, T2 and T4) and compared by the code that compares two (T5,
dice.compare_ta), so the odds can never disagree with the rules. Nothing is sampled.

A TA's chances depend on the dice only through the total's room under the target
(target - points x GD - modifier) and on whether quality levels are on: the
distributions are cached by those two.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from functools import cache
from itertools import product

from sombra_tui.engine.dice import (
    DEFAULT_POINTS_PER_GD,
    DIE_FACES,
    Dice,
    Rank,
    TAResult,
    compare_ta,
    resolve_ta,
)
from sombra_tui.engine.frozen import Frozen
from sombra_tui.engine.i18n import _

OUTCOMES = DIE_FACES ** 3
#: The success ranks, best first (T4), and the failure ranks.
SUCCESSES = (Rank.EXITO_ALTO, Rank.EXITO_MEDIO, Rank.EXITO_BAJO, Rank.EXITO)
FAILURES = (Rank.FRACASO_BAJO, Rank.FRACASO_MEDIO, Rank.FRACASO_ALTO, Rank.FRACASO)


class TASpec(Frozen):
    """A TA about to be rolled: what it rolls under and with which grades (T2, T3)."""

    target: int
    gd: int = 0
    points_per_gd: int = DEFAULT_POINTS_PER_GD
    modifier: int = 0
    quality_levels: bool = True

    @property
    def room(self) -> int:
        """The highest dice sum that still succeeds."""
        return self.target - self.points_per_gd * self.gd - self.modifier

    def shifted(self, grades: int) -> TASpec:
        """The same TA with `grades` more GD (O3's bonus or penalty)."""
        return self.model_copy(update={"gd": self.gd + grades})


class TAOdds(Frozen):
    """A TA's chances, each a fraction of the 1,000 outcomes (T2, T4)."""

    #: Outcomes by result rank (T4's six levels, or success/failure with them off).
    by_rank: dict[Rank, int]

    def chance(self, *ranks: Rank) -> Fraction:
        return Fraction(sum(self.by_rank.get(rank, 0) for rank in ranks), OUTCOMES)

    @property
    def success(self) -> Fraction:
        return self.chance(*SUCCESSES)

    @property
    def critical(self) -> Fraction:
        """Éxito alto: the three dice equal and a success (T4)."""
        return self.chance(Rank.EXITO_ALTO)

    @property
    def fumble(self) -> Fraction:
        """Fracaso alto: the three dice equal and a failure (T4)."""
        return self.chance(Rank.FRACASO_ALTO)

    def words(self) -> str:
        """The chances as the DJ reads them before the roll: "35 % success", with a
        critical's and a fumble's when quality levels are on (T4)."""
        text = _("{chance} success").format(chance=percent(self.success))
        if Rank.EXITO in self.by_rank or Rank.FRACASO in self.by_rank:  # T4 off
            return text
        return _("{success} · critical {critical} · fumble {fumble}").format(
            success=text, critical=percent(self.critical), fumble=percent(self.fumble))


class OpposedOdds(Frozen):
    """An opposition's chances between two sides (T5): the first wins, the second wins,
    or a tie the DJ breaks. They add up to 1."""

    first: Fraction
    second: Fraction
    tie: Fraction


@cache
def every_dice() -> tuple[Dice, ...]:
    """The 1,000 outcomes of 3d10, dS first (T1); made on first use, not at start-up."""
    return tuple(Dice(ds=ds, a=a, b=b)
                 for ds, a, b in product(range(1, DIE_FACES + 1), repeat=3))


@cache
def _results(room: int, quality_levels: bool) -> tuple[TAResult, ...]:
    """Every outcome resolved as at the table, for a TA with this room (a target of
    `room` at GD 0: the room is all that decides success, rank and closeness)."""
    return tuple(resolve_ta(dice, target=room, quality_levels=quality_levels)
                 for dice in every_dice())


def ta_odds(spec: TASpec) -> TAOdds:
    """The exact chances of a TA (T2, T4)."""
    return _ta_odds(spec.room, spec.quality_levels)


@cache
def _ta_odds(room: int, quality_levels: bool) -> TAOdds:
    counts = Counter(result.rank for result in _results(room, quality_levels))
    return TAOdds(by_rank=dict(counts))


@cache
def _classes(room: int, quality_levels: bool) -> tuple[tuple[TAResult, int], ...]:
    """The outcomes grouped by what T5 compares (rank, closeness): one result of each
    class with how many outcomes give it."""
    counts: Counter[tuple[Rank, int]] = Counter()
    sample: dict[tuple[Rank, int], TAResult] = {}
    for result in _results(room, quality_levels):
        key = (result.rank, result.closeness)
        counts[key] += 1
        sample.setdefault(key, result)
    return tuple((sample[key], count) for key, count in counts.items())


def _compare(first: TASpec, second: TASpec,
             success: bool | None = None) -> tuple[int, int, int]:
    """Outcome pairs (out of 1,000,000) where the first wins, the second wins, a tie;
    with `success`, only the pairs where the first's success is that."""
    won = lost = tied = 0
    theirs = _classes(second.room, second.quality_levels)
    for mine, count in _classes(first.room, first.quality_levels):
        if success is not None and mine.success is not success:
            continue
        for other, other_count in theirs:
            verdict = compare_ta(mine, other)
            pairs = count * other_count
            if verdict > 0:
                won += pairs
            elif verdict < 0:
                lost += pairs
            else:
                tied += pairs
    return won, lost, tied


def _odds(*counts: tuple[int, int, int]) -> OpposedOdds:
    won, lost, tied = (sum(each) for each in zip(*counts, strict=True))
    total = OUTCOMES * OUTCOMES
    return OpposedOdds(first=Fraction(won, total), second=Fraction(lost, total),
                       tie=Fraction(tied, total))


def direct_odds(first: TASpec, second: TASpec) -> OpposedOdds:
    """O2: both roll; the better result wins (T5). Both sides share the encounter's
    quality levels setting (T4)."""
    return _odds(_compare(first, second))


def conditioned_odds(conditioning: TASpec, conditioned: TASpec,
                     size: int = 1) -> OpposedOdds:
    """O3: the conditioning TA first; the conditioned one gets +`size` GD if it
    succeeded, -`size` if it failed; then both compare as T5. `first` is the
    conditioning side's chance to win."""
    return _odds(_compare(conditioning, conditioned.shifted(size), success=True),
                 _compare(conditioning, conditioned.shifted(-size), success=False))


def best_odds(specs: Sequence[TASpec]) -> tuple[tuple[Fraction, ...], Fraction]:
    """O2 with any number of sides: each side's chance of the one best result (T5), and
    the chance of a tie for the best, which the DJ breaks. With two sides these are
    direct_odds's `first`, `second` and `tie`."""
    classes = [_classes(spec.room, spec.quality_levels) for spec in specs]
    wins: list[Fraction] = []
    for index, mine in enumerate(classes):
        won = 0
        for result, count in mine:
            # Every other side below this result (T5), each independently.
            for other, theirs in enumerate(classes):
                if other != index and count:
                    count *= sum(n for their, n in theirs if compare_ta(result, their) > 0)
            won += count
        wins.append(Fraction(won, OUTCOMES ** len(specs)))
    return tuple(wins), 1 - sum(wins, Fraction(0))


def percent(chance: Fraction) -> str:
    """A chance as the table says it: whole percent, "<1 %" and ">99 %" at the ends
    (never "0 %" for what can happen, nor "100 %" for what can fail)."""
    if chance == 0 or chance == 1:
        return f"{int(chance * 100)} %"
    value = round(float(chance) * 100)
    if value < 1:
        return "<1 %"
    if value > 99:
        return ">99 %"
    return f"{value} %"
