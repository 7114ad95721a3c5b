"""Card-hand initiative, option `initiative: cards` (R-5.8; `000_…` "Action Card Hand Management", "Action
Time", "Action Speed", "Waiting", "Extended Actions", "Continuous Tasks", "Special Cards", "Rushing" and the
"Optional Aiming System"). Pure rules: stdlib only; the engine is `skirmish.ecs.systems.fi.hand`.

- The draw: a Reflex check against Easy (3 pulp, 4 gritty, R-3.2) draws 1 card, +1 on a success, +1 per bump
  (R-3.3); a CF draws none (Chuk: Reflex 8 vs 3 is a success and one bump, three cards).
- DISCARD (red joker) is lost with the highest other card; a reserve counts highest, so it is lost instead.
  BONUS (black joker) is kept besides two others. Two cards are kept; the rest are discarded.
- Steps are counted 14 → 0; in one step a higher fragment goes first (R-4.1: the impulse counts down with the
  step), then Reflex column and training, side, id (R-5.1).
- A rush declares a later card for an earlier step: the test's TN row shifts up one per step early, then the
  column left; never past I-1. It is a Standard (5) Dexterity check at the shifted column and row; a failure
  acts two steps after the card (Kayla: IV-2 rushed from 7 to 11 reads I-1).
- Aim and ready take steps (R-6.2 under R-5.8): pistols 1, SMGs 2, rifles/shotguns 3, bulky 4; one count of
  steps readies, a second and third add +x each. SLOW weapons have action speed 2: one preparation card first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from skirmish.rules.actions import Declare, register_action
from skirmish.rules.checks import COLUMN_NUMBER

TOP_STEP = 14  # the black joker's step: the count-down starts there
STEPS = tuple(range(TOP_STEP, -1, -1))  # 14, 13, … 0
KEEP = 2  # cards kept besides a BONUS
FAILED_RUSH_DELAY = 2  # a failed rush acts two steps after its card
COLUMNS = ("I", "II", "III", "IV", "V", "VI")
PISTOL_STEPS, SMG_STEPS, LONG_STEPS, BULKY_STEPS = 1, 2, 3, 4


class HandError(ValueError):
    """A hand choice the rules refuse; the message names the rule."""


@dataclass(frozen=True)
class Hand(Declare):
    """The answer to the hand request under `initiative: cards` (R-5.8): the steps of the cards kept
    (`keep=10,6`; empty: the default, the two earliest), `forgo=yes` to hold a reserve instead of drawing,
    `rush=7@11` to rush the card of step 7 at step 11, `bonus=9` for the step a BONUS card acts at (14 if
    not given). It is the cards mode's declaration: `speed` still says DODGE (no attacks) or not."""

    verb: ClassVar[str] = "hand"
    keep: str = ""
    forgo: str = "no"
    rush: str = ""
    bonus: str = ""

    def same_as(self, other: object) -> bool:
        """The same choice (keep steps in any order; the default keep written or not)."""
        if not isinstance(other, Hand):
            return False
        try:
            return (self.unit, self.speed, self.forgoes(), self.rush_plan(), self.bonus_step()) == \
                (other.unit, other.speed, other.forgoes(), other.rush_plan(), other.bonus_step()) and \
                sorted(self.keep_steps() or [-1]) == sorted(other.keep_steps() or [-1])
        except HandError:
            return False

    def keep_steps(self) -> list[int] | None:
        """The steps asked for, or None for the default keep."""
        if not self.keep or self.keep == "auto":
            return None
        return [_int(s, "keep") for s in self.keep.split(",")]

    def forgoes(self) -> bool:
        if self.forgo not in ("yes", "no"):
            raise HandError(f"R-5.8: forgo is yes or no, not {self.forgo!r}")
        return self.forgo == "yes"

    def rush_plan(self) -> tuple[int, int] | None:
        """(card step, step it is rushed at), or None."""
        if not self.rush:
            return None
        card, at, when = self.rush.partition("@")
        if not at:
            raise HandError(f"R-5.8: a rush reads <card step>@<step>, like 7@11, not {self.rush!r}")
        return _int(card, "rush"), _int(when, "rush")

    def bonus_step(self) -> int:
        return TOP_STEP if not self.bonus else _int(self.bonus, "bonus")


def _int(raw: str, key: str) -> int:
    try:
        value = int(raw)
    except ValueError:
        raise HandError(f"R-5.8: {key} takes step numbers 0-14, not {raw!r}") from None
    if not 0 <= value <= TOP_STEP:
        raise HandError(f"R-5.8: {key} takes step numbers 0-14, not {value}")
    return value


register_action(Hand)


@dataclass(frozen=True)
class HandCard:
    """One card of a hand: only its timing is read (R-4.1, R-5.8)."""

    number: int
    step: int
    fragment: int
    special: str | None  # "bonus", "discard" or None

    @property
    def label(self) -> str:
        mark = f" {self.special.upper()}" if self.special else ""
        return f"{self.step}.{self.fragment}{mark}"

    def to_json(self) -> dict[str, object]:
        return {"number": self.number, "step": self.step, "fragment": self.fragment, "special": self.special}


def cards_to_draw(success: bool, bumps: int, cf: bool) -> int:
    """1 card, +1 for a success, +1 per bump; none on a CF (R-5.8)."""
    if cf:
        return 0
    return 1 + (1 if success else 0) + max(0, bumps)


@dataclass(frozen=True)
class Sorted:
    """What a draw leaves before the keep: the cards one may keep, the BONUS cards, and what the DISCARD
    cards took (themselves, the highest other card, or the reserve)."""

    keepable: tuple[HandCard, ...]
    bonus: tuple[HandCard, ...]
    discarded: tuple[HandCard, ...]
    reserve_lost: bool


def sort_draw(drawn: Sequence[HandCard], holding_reserve: bool) -> Sorted:
    """Apply the special cards of a draw (R-5.8): each DISCARD is lost with the highest other card (the
    reserve first, if one is held); BONUS cards are set aside to be kept besides two others."""
    rest = [c for c in drawn if c.special != "discard"]
    discarded = [c for c in drawn if c.special == "discard"]
    reserve_lost = False
    for _ in discarded[:]:
        if holding_reserve and not reserve_lost:
            reserve_lost = True
            continue
        others = [c for c in rest if c.special is None]
        if others:
            top = max(others, key=count_down_key)
            rest.remove(top)
            discarded.append(top)
    bonus = tuple(c for c in rest if c.special == "bonus")
    keepable = tuple(c for c in rest if c.special is None)
    return Sorted(keepable, bonus, tuple(discarded), reserve_lost)


def count_down_key(card: HandCard) -> tuple[int, int]:
    """Higher first in the count-down: step, then fragment (R-4.1)."""
    return (card.step, card.fragment)


def choose_keep(keepable: Sequence[HandCard], wanted: Iterable[int] | None) -> tuple[list[HandCard], list[HandCard]]:
    """(kept, discarded) of the keepable cards: the steps `wanted` (one card each, the higher fragment when two
    share a step) or by default the two earliest in the count-down; HandError naming R-5.8 otherwise."""
    pool = sorted(keepable, key=count_down_key, reverse=True)
    if wanted is None:
        return pool[:KEEP], pool[KEEP:]
    steps = list(wanted)
    if len(steps) > KEEP:
        raise HandError(f"R-5.8: keep two cards (a BONUS is kept besides them), not {len(steps)}")
    kept: list[HandCard] = []
    for step in steps:
        match = next((c for c in pool if c.step == step and c not in kept), None)
        if match is None:
            have = ", ".join(str(c.step) for c in pool) or "none"
            raise HandError(f"R-5.8: no card of step {step} to keep (steps drawn: {have})")
        kept.append(match)
    return kept, [c for c in pool if c not in kept]


def max_rush(column: str, row: int) -> int:
    """Steps a test at (column, row) can be rushed: rows up to 1, then columns left to I (R-5.8)."""
    return (row - 1) + (COLUMN_NUMBER[column] - 1)


def rush_shift(column: str, row: int, steps_early: int) -> tuple[str, int]:
    """The TN row shifted up once per step early, then the column left (R-5.8); HandError past I-1."""
    if steps_early < 0:
        raise HandError("R-5.8: a rush takes an action earlier than its card, not later")
    if steps_early > max_rush(column, row):
        raise HandError(f"R-5.8: a rush may not take an action before I-1 ({column}-{row} can be rushed "
                        f"{max_rush(column, row)} step(s), not {steps_early})")
    up = min(steps_early, row - 1)
    left = steps_early - up
    return COLUMNS[COLUMN_NUMBER[column] - 1 - left], row - up


def failed_rush_step(card_step: int) -> int:
    """A failed rush acts two steps after its card (never after step 0)."""
    return max(0, card_step - FAILED_RUSH_DELAY)


def ready_steps(skill: str, bulky: bool) -> int:
    """Steps one ready or aim count takes (R-6.2 under R-5.8): pistols 1, SMGs 2, rifles and shotguns 3,
    bulky weapons 4 (any other long arm counts as a rifle)."""
    if bulky:
        return BULKY_STEPS
    spec = skill.partition(":")[2]
    if spec == "pistol":
        return PISTOL_STEPS
    if spec == "smg":
        return SMG_STEPS
    return LONG_STEPS


def aim_from_counters(counters: int, steps: int) -> tuple[bool, int]:
    """(ready, aim bonus counts) after `counters` steps of aiming: one count readies, the next two add +x each
    (at most three in a row, R-6.2)."""
    done = min(3, counters // max(1, steps))
    return done >= 1, max(0, done - 1)


def action_speed(weapon_speed_rank: int) -> int:
    """Cards a shot with a weapon takes (R-5.8 "Action Speed"): SLOW weapons 2 (a preparation card, then the
    card that fires), others 1. The data has no action speeds; this reads the weapon's speed."""
    return 2 if weapon_speed_rank >= 2 else 1


def can_reserve(card: HandCard) -> bool:
    """Special cards can never be reserved (R-5.8)."""
    return card.special is None
