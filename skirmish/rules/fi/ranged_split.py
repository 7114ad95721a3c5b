"""Split bursts (R-6.3): an automatic weapon's burst divided between targets. Pure.

The skill dice are split as evenly as possible (the firer chooses who gets an extra die; by default the targets
named first), the die size is unchanged; every target after the first adds 2 to the TN of each (so two targets
are each at +2, three at +4); one card per target, each resolved as its own shot; the rounds are divided evenly
and the rounds left over miss (and may strike unintended targets, R-6.11); each target's share reads the card's
burst section closest to it (ties: the smaller), its hits capped at the rounds it got, and a share of one round
is a single shot. Aiming and called shots are not allowed on automatic (R-6.3).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from skirmish.rules.checks import Modifier

SECTIONS = (3, 5, 10)  # the card's burst sections
EXTRA_TARGET_TN = 2  # each extra target +2 TN


class SplitError(ValueError):
    """A split the rules refuse; the message names R-6.3."""


@dataclass(frozen=True)
class SplitShare:
    """One target's share of a split burst: its skill dice, its rounds and the card section it reads."""

    target: str
    dice: int
    rounds: int
    section: int  # 0: a single round, read as a single shot


@dataclass(frozen=True)
class SplitPlan:
    """A burst divided between targets (R-6.3): the shares in the order named, the rounds that miss, the TN."""

    burst: int
    shares: tuple[SplitShare, ...]
    extra: int  # rounds left over: they miss (R-6.11 may find them a target)
    tn_up: int

    def tn_modifier(self) -> Modifier:
        """The TN rise every target's shot takes."""
        n = len(self.shares) - 1
        return Modifier(self.tn_up, f"split burst: {n} extra target{'s' if n > 1 else ''} (R-6.3)")

    def to_json(self) -> dict[str, object]:
        """Event form (C-3)."""
        return {"burst": self.burst, "targets": [s.target for s in self.shares], "dice": [s.dice for s in self.shares],
                "rounds": [s.rounds for s in self.shares], "extra": self.extra}


def even_dice(dice: int, targets: int) -> tuple[int, ...]:
    """`dice` split over `targets` as evenly as possible, the extra dice to the targets named first."""
    base, extra = divmod(dice, targets)
    return tuple(base + (1 if i < extra else 0) for i in range(targets))


def section_for(rounds: int) -> int:
    """The card's burst section closest to `rounds` (ties: the smaller); 0 for a single round."""
    if rounds <= 1:
        return 0
    return min(SECTIONS, key=lambda s: (abs(s - rounds), s))


def plan_split(burst: int, targets: Sequence[str], dice: int, chosen: Sequence[int] = ()) -> SplitPlan:
    """Divide a burst of `burst` rounds fired with `dice` skill dice between `targets` (the first named first),
    with the firer's own split of the dice (`chosen`, one number per target) or the even one. SplitError names
    what is wrong."""
    n = len(targets)
    if n < 2:
        raise SplitError("R-6.3: a split burst names at least two targets")
    if len(set(targets)) != n:
        raise SplitError(f"R-6.3: each target of a split burst is named once ({', '.join(targets)})")
    if burst < n:
        raise SplitError(f"R-6.3: a burst of {burst} cannot give each of {n} targets a round")
    if dice < n:
        raise SplitError(f"R-6.3: {n} targets need a skill die each; the pool has {dice}")
    if chosen:
        if len(chosen) != n:
            raise SplitError(f"R-6.3: split names {len(chosen)} dice counts for {n} targets")
        if sum(chosen) != dice or min(chosen) < 1 or max(chosen) - min(chosen) > 1:
            even = even_dice(dice, n)
            raise SplitError(f"R-6.3: the skill dice are split as evenly as possible: {dice} dice over {n} targets "
                             f"is {','.join(map(str, even))} in some order, not {','.join(map(str, chosen))}")
        split = tuple(chosen)
    else:
        split = even_dice(dice, n)
    each, extra = divmod(burst, n)
    shares = tuple(SplitShare(t, d, each, section_for(each)) for t, d in zip(targets, split, strict=True))
    return SplitPlan(burst, shares, extra, EXTRA_TARGET_TN * (n - 1))


@dataclass(frozen=True)
class SplitOdds:
    """The odds of a split burst (R-6.3): each target's own shot (its share of the dice and rounds, the TN raised
    for the extra targets), in the order named. `per` holds (target, its ShotOdds)."""

    per: tuple[tuple[str, object], ...]

    @property
    def hit(self) -> float:
        """P(the first target is hit), as a one-target shot's `hit` (the board sorts lines by it)."""
        return float(getattr(self.per[0][1], "hit", 0.0)) if self.per else 0.0

    def label(self) -> str:
        """Short text for a menu line: each target's chance to hit and to be put down."""
        return " · ".join(f"{name} hit {getattr(o, 'hit', 0.0):.0%} down {getattr(o, 'out_of_action', 0.0):.0%}"
                          for name, o in self.per)
