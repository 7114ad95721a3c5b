"""How a utility AI weighs things, as data: a personality's weights and the response curves they shape.

A difficulty level is a personality (easy, normal, hard); scenarios and the CLI name one as
`utility:<name>`. Every weight lives here, so a new personality is a new entry, not new code. The ladder
(issue 12): easy plays blunter (no squad features, fewer moves weighed, no fire and move, hesitant rounds,
misjudged options, every draw fixed by the battle's salt, the round, unit and option; none of the rest of ranged
combat), normal plays a squad by its considerations with all of ranged combat and the grapples (a little blunter:
misjudged options, its own scores counting more against the material), hard looks one exchange ahead (the search
tier over its options); the fields default to the top rung's utility behaviour (hard, aggressive, cautious).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any

from skirmish.ai.curves import Curve

TOP_MOVES = 8  # move cells that get the exact shot-after-moving and route-exposure considerations (normal)


def draw(key: str) -> float:
    """A number in [0, 1) fixed by `key`: a blunt personality's deterministic misjudgements. blake2b, not CRC-32:
    CRC is linear, so keys alike but for a character kept their draws in step whatever the battle's salt ("South-1"
    hesitated with "South-3" in every battle, the noise of "move (3, 4)" followed "move (3, 6)"'s, 0.89)."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big") / 2 ** 64


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
    top_moves: int = TOP_MOVES  # move cells weighed in full (shot after moving, exposure on the way)
    use_squad: bool = True  # spacing, crossfire, bounding overwatch, regrouping, a wounded unit's retreat and DODGE
    noise: float = 0.0  # a blunter choice: each option's score times 1 +/- noise, drawn from (round, unit, option)
    moves_with_a_shot: bool = True  # considers moving when it has a target from where it stands (fire and move)
    hesitate: float = 0.0  # the share of rounds a unit does not think of moving (drawn from the battle, round, unit)
    material: bool = True  # ranks attacking or not by expected material (the search tier's model, issue 12)
    scale_reply: float = 1.0  # on that scale, the weight of the enemy's replies (the search tier's `Weights.reply`)
    scale_utility: float = 0.3  # on that scale, the share of the options' utility score (`Weights.utility`)
    declare_slow: bool = True  # SLOW where the considerations chose NORMAL or FAST (options.slow_first, issue 12)
    look_ahead: int = 0  # its best options (this many) weighed again one exchange ahead (the search tier); 0: not
    # the rest of ranged combat and hand to hand (issue 14 item 7; ranged_extra.py, grapple_options.py): each a
    # rung's switch (issue 12 item 4), on for every personality but easy
    use_cover_fire: bool = True  # covering fire that pins when its best shot is poor
    use_split: bool = True  # bursts split between two enemies
    use_double_tap: bool = True  # both shots off one card
    use_launch: bool = True  # launched grenades, the landing-cell search
    mind_the_line: bool = True  # friends on the line of fire weighed, poor bursts through them not fired
    use_grapple: bool = True  # entangle and trip when they beat the blow

    @staticmethod
    def parse(raw: dict[str, Any]) -> Personality:
        """From data; raises ValueError naming the field."""
        known = set(Personality.__dataclass_fields__)
        unknown = set(raw) - known
        if unknown:
            raise ValueError(f"personality: unknown field {sorted(unknown)[0]!r}")
        out = replace(Personality(), **raw)
        if out.top_moves < 1:
            raise ValueError("personality: top_moves must be at least 1")
        if out.look_ahead < 0:
            raise ValueError("personality: look_ahead must be 0 or more")
        if not 0.0 <= out.hesitate <= 1.0:
            raise ValueError("personality: hesitate must be in [0, 1]")
        if not 0.0 <= out.noise < 1.0:
            raise ValueError("personality: noise must be in [0, 1)")
        return out

    def hesitates(self, round_no: int, unit: str, salt: str = "") -> bool:
        """Whether the unit does not think of moving this round (`hesitate`): drawn from the battle's key
        (`BattleView.salt`), the round and the unit's name, so the same battle and seed give the same choices, no
        random source is read, and the units that hesitate differ from battle to battle."""
        return self.hesitate > 0 and draw(f"{salt}|{round_no}|{unit}|hesitate") < self.hesitate

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


# The middle rung (issue 12 item 4; docs/AI.md "Difficulty ladder"): a squad that picks by its considerations and
# the material scale and uses the rest of ranged combat and the grapples (issue 14 item 7: the default AI uses them
# all), weighing fewer move cells, misjudging a little and giving the options' utility ten times the default say
# against the material (scale_utility 3.0) instead of idling (ladder11, blake2b draws: hard 64.4% over 100 pairs
# against 62.0% for ladder10's hesitate 0.25, 16% fewer decisions; docs/results/ladder.txt).
EXTRAS_OFF = dict(use_cover_fire=False, use_split=False, use_double_tap=False, use_launch=False, mind_the_line=False,
                  use_grapple=False)
PERSONALITIES: dict[str, Personality] = {
    "easy": Personality("easy", focus=0.1, use_commitment=False, use_grenades=False, use_squad=False, top_moves=3,
                        moves_with_a_shot=False, hesitate=0.85, noise=0.3, declare_slow=False, material=False,
                        **EXTRAS_OFF),
    "normal": Personality("normal", top_moves=4, noise=0.1, scale_utility=3.0),
    "hard": Personality("hard", look_ahead=6),
    "aggressive": Personality("aggressive", aggression=0.85, caution=0.3, focus=0.6),
    "cautious": Personality("cautious", aggression=0.25, caution=0.85, focus=0.6),
}
DIFFICULTIES = ("easy", "normal", "hard")
