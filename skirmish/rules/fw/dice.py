"""Damage dice as Future*World writes them: "2D8+4", "1D10", "3D8+1" (seed 004's weapons table).

Unlike Future Imperfect's effect-grid addresses, these are plain sums: N dice of S sides plus a constant. The
expression is a value (parsed once from the data tables) that rolls on the battle's random source and gives
its exact distribution for the AI's estimates.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from functools import lru_cache

_EXPR = re.compile(r"\s*(\d+)\s*[dD]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*")
MAX_DICE = 20
DIE_SIDES = (2, 3, 4, 6, 8, 10, 12, 20, 100)


@dataclass(frozen=True)
class DiceExpr:
    """`count` dice of `sides` sides plus `add` (which may be negative)."""

    count: int
    sides: int
    add: int = 0

    @staticmethod
    def parse(text: str) -> DiceExpr:
        """Parse "NdS", "NdS+K" or "NdS-K" (case-insensitive d); raises ValueError saying what was expected."""
        m = _EXPR.fullmatch(str(text))
        if not m:
            raise ValueError(f"expected dice like '2D8+4' (N dice of S sides plus or minus K), got {text!r}")
        count, sides = int(m.group(1)), int(m.group(2))
        add = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
        if not 1 <= count <= MAX_DICE:
            raise ValueError(f"expected 1-{MAX_DICE} dice, got {count} in {text!r}")
        if sides not in DIE_SIDES:
            raise ValueError(f"expected dice of {', '.join(map(str, DIE_SIDES))} sides, got d{sides} in {text!r}")
        return DiceExpr(count, sides, add)

    def roll(self, rng: random.Random) -> int:
        """One roll on the battle's random source: each die with `randint`, in order, then `add`."""
        return sum(rng.randint(1, self.sides) for _ in range(self.count)) + self.add

    @property
    def low(self) -> int:
        """The smallest possible roll."""
        return self.count + self.add

    @property
    def high(self) -> int:
        """The largest possible roll."""
        return self.count * self.sides + self.add

    @property
    def mean(self) -> float:
        """The expected roll."""
        return self.count * (self.sides + 1) / 2 + self.add

    def pmf(self) -> dict[int, float]:
        """The exact distribution: total -> probability."""
        return {t + self.add: p for t, p in _sum_pmf(self.count, self.sides).items()}

    def __str__(self) -> str:
        tail = f"{'+' if self.add > 0 else '-'}{abs(self.add)}" if self.add else ""
        return f"{self.count}D{self.sides}{tail}"


@lru_cache(maxsize=256)
def _sum_pmf(count: int, sides: int) -> dict[int, float]:
    dist = {0: 1.0}
    face = 1.0 / sides
    for _ in range(count):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for f in range(1, sides + 1):
                nxt[total + f] = nxt.get(total + f, 0.0) + p * face
        dist = nxt
    return dist
