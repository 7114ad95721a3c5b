"""How a utility AI weighs things, as data: a personality's weights and the response curves they shape.

A difficulty level is a personality (easy, normal, hard); scenarios and the CLI name one as
`utility:<name>`. Every weight lives here, so a new personality is a new entry, not new code.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from skirmish.ai.curves import Curve


@dataclass(frozen=True)
class Personality:
    """How a unit weighs things; pure data (a difficulty level is a personality)."""

    name: str = "normal"
    aggression: float = 0.5  # closing in, taking riskier shots
    caution: float = 0.5  # valuing cover and low threat
    focus: float = 0.5  # concentrating fire on hurt targets, avoiding overkill
    momentum: float = 0.25  # bonus for repeating the last choice (no flip-flopping)
    fallback: float = 0.03  # the constant score of ending the turn
    runners_up: int = 3
    think_moves: bool = True  # consider moving at all
    use_exposure: bool = True  # score exposure along the route
    use_commitment: bool = True  # count damage already committed by allies
    use_grenades: bool = True
    spacing_m: float = 3.0  # the blast radius friends keep apart by (a fragmentation grenade's, R-6.10)

    @staticmethod
    def parse(raw: dict[str, Any]) -> Personality:
        """From data; raises ValueError naming the field."""
        known = set(Personality.__dataclass_fields__)
        unknown = set(raw) - known
        if unknown:
            raise ValueError(f"personality: unknown field {sorted(unknown)[0]!r}")
        return replace(Personality(), **raw)

    def exposure_curve(self) -> Curve:
        """How much the threat along a move's route costs: more to a cautious unit."""
        c = self.caution
        return Curve("linear", m=0.6 + 0.3 * c, b=0.4 - 0.3 * c)

    def safety_curves(self) -> tuple[Curve, Curve]:
        """The curves of a cell's cover and of its low threat: steeper for a cautious unit."""
        c = self.caution
        return (Curve("linear", m=0.5 + 0.5 * c, b=0.5 - 0.5 * c), Curve("polynomial", m=1.0, k=1 + c))

    def kill_curve(self) -> Curve:
        """What a shot's chance to put the target down is worth: more to a focused unit."""
        return Curve("linear", m=0.2 + 0.4 * self.focus, b=0.8 - 0.4 * self.focus)


PERSONALITIES: dict[str, Personality] = {
    "easy": Personality("easy", aggression=0.7, caution=0.2, focus=0.1, momentum=0.1, use_exposure=False,
                        use_commitment=False, use_grenades=False),
    "normal": Personality("normal"),
    "hard": Personality("hard", aggression=0.45, caution=0.65, focus=0.8, momentum=0.3),
    "aggressive": Personality("aggressive", aggression=0.85, caution=0.3, focus=0.6),
    "cautious": Personality("cautious", aggression=0.25, caution=0.85, focus=0.6),
}
DIFFICULTIES = ("easy", "normal", "hard")
