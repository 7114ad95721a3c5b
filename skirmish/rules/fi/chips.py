"""R-8.5 story chips (option `chips`): the bin, the draws, the uses on a check and the wound negation table
(seed 000 "Collaborative Roleplaying", "Story Chips", "Saving your skin"), and the AI's spending policy.

Pure rules: the bin and hands are counts per colour; draws take one seeded random source; a spent chip goes
back to the bin, so the bin and every hand always add up to the bin's first contents (tests/test_fi_chips.py).
The engine's hooks are skirmish.ecs.systems.fi.chips. Stdlib only."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from skirmish.rules.actions import Action, register_action

COLOURS = ("white", "red", "blue")
BIN: Mapping[str, int] = {"white": 50, "red": 25, "blue": 10}  # the Master's pool
DRAW_LIMIT_LED = 3  # a side led by people (or scripted) draws up to 3 (less the chips it holds already)
DRAW_LIMIT_AI = 1  # an AI side draws one for all its combatants
# Saving your skin: wounds negated, CT regained per chip (each level of chip negates 5 points of wind).
NEGATES: Mapping[str, tuple[int, int]] = {"white": (1, 5), "red": (2, 10), "blue": (3, 15)}
BOUNTY: Mapping[str, int] = {"white": 1, "red": 2, "blue": 3}  # bounty points a chip converts to
# Uses on a check: white the entry directly above (`up`: row + 1) or below (`down`: row - 1); red draws another
# card and keeps either (`redraw`); blue draws another card and adds its chained value (`add`).
CHECK_USES: Mapping[str, tuple[str, ...]] = {"white": ("up", "down"), "red": ("redraw", "up", "down"),
                                             "blue": ("add",)}


def counts(**kw: int) -> dict[str, int]:
    """A colour -> count mapping with every colour (missing ones 0)."""
    return {c: int(kw.get(c, 0)) for c in COLOURS}


@dataclass
class ChipBin:
    """The bin: chips by colour. `draw` takes chips out at random (uniform over the chips left), `put` gives
    one back."""

    chips: dict[str, int] = field(default_factory=lambda: dict(BIN))

    @property
    def total(self) -> int:
        return sum(self.chips.values())

    def take(self, colour: str, n: int = 1) -> None:
        """Take named chips out (a side's chips carried over from an earlier session); ValueError if too few."""
        if self.chips.get(colour, 0) < n:
            raise ValueError(f"the bin holds {self.chips.get(colour, 0)} {colour} chip(s), {n} wanted")
        self.chips[colour] -= n

    def draw(self, rng: random.Random, n: int) -> list[str]:
        """Draw `n` chips at random (fewer if the bin runs out), in draw order."""
        out = []
        for _ in range(n):
            if self.total == 0:
                break
            pick = rng.randrange(self.total)
            for c in COLOURS:
                if pick < self.chips[c]:
                    self.chips[c] -= 1
                    out.append(c)
                    break
                pick -= self.chips[c]
        return out

    def put(self, colour: str) -> None:
        self.chips[colour] += 1


def bounty_points(hand: Mapping[str, int]) -> int:
    """The bounty points a side's unspent chips convert to at the end (seed 000 "Bounty": blue 3, red 2, white 1)."""
    return sum(BOUNTY[c] * int(hand.get(c, 0)) for c in COLOURS)


def draws_for(held: Mapping[str, int], limit: int) -> int:
    """Chips a side draws at the start: up to `limit` less those it holds (seed: two held, one drawn)."""
    return max(0, limit - sum(held.values()))


# Which checks a scripted chip order names: `check` an attack check (a shot's, a blow's, a maneuver's) or a
# concussion save; `initiative` the initiative read (a phase's Reflex, or a card hand's draw); `contest` a Reflex
# contest of a waiting trigger or a psychological contest; `bravery` a surprise or fear test.
CHECK_KINDS = ("check", "initiative", "contest", "bravery")


def parse_chip_order(text: str) -> tuple[str, str, tuple[str, ...]]:
    """`UNIT check|initiative|contest|bravery COLOUR USE` or `UNIT wounds COLOUR [COLOUR…]` -> (unit, when, what);
    ValueError saying why. The unit's name is everything before the keyword (names may hold spaces)."""
    words = text.split()
    for i, word in enumerate(words):
        if word in (*CHECK_KINDS, "wounds") and i > 0:
            unit, when, rest = " ".join(words[:i]), word, words[i + 1:]
            break
    else:
        raise ValueError(f"expected 'UNIT check COLOUR USE' (or initiative, contest, bravery for those checks) or "
                         f"'UNIT wounds COLOUR...', got {text!r}")
    one = when in CHECK_KINDS
    if any(c not in COLOURS for c in rest[:1 if one else None]) or not rest:
        raise ValueError(f"chips are {', '.join(COLOURS)}; got {' '.join(rest) or 'none'}")
    if one and (len(rest) != 2 or check_allowed(rest[0], rest[1], False)):
        uses = "; ".join(f"{c}: {', '.join(u)}" for c, u in CHECK_USES.items())
        raise ValueError(f"a check takes one chip and its use ({uses}), got {' '.join(rest)!r}")
    return unit, when, tuple(rest)


# ------------------------------------------------------------------------------------------------ checks


@dataclass(frozen=True)
class CheckOffer:
    """A check a chip could change: the raw read, what a result needs, and the adjacent entries' raw values
    (None where the grid ends or the entry is CF). `total(raw)` is the result after modifiers."""

    raw: int
    cf: bool
    tn: int
    modifier: int
    halve: bool
    up: int | None
    down: int | None

    def total(self, raw: int) -> int:
        return (raw // 2 if self.halve else raw) + self.modifier

    @property
    def success(self) -> bool:
        return not self.cf and self.total(self.raw) >= self.tn


def check_allowed(colour: str, use: str, cf: bool) -> str | None:
    """Why a chip cannot be used so on this check (None: it can). A CF forbids chips (R-3.5)."""
    if colour not in CHECK_USES:
        return f"no {colour!r} chip; chips are {', '.join(COLOURS)}"
    if use not in CHECK_USES[colour]:
        return f"a {colour} chip is used {' or '.join(CHECK_USES[colour])} on a check, not {use!r}"
    if cf:
        return "R-3.5: no chips on a critical failure"
    return None


def ai_check_chip(hand: Mapping[str, int], offer: CheckOffer) -> tuple[str, str] | None:
    """The AI's use on a failed check: the cheapest chip that surely turns it into a success (white or red on
    the entry above); none on a success, a CF, or a miss the entry above would not turn."""
    if offer.cf or offer.success or offer.up is None or offer.total(offer.up) < offer.tn:
        return None
    for colour in ("white", "red"):
        if hand.get(colour, 0) > 0:
            return colour, "up"
    return None


# ------------------------------------------------------------------------------------------------ wounds


@dataclass(frozen=True)
class Negation:
    """What chips did to one attack's damage: wounds left per hit, CT left per hit, and per chip
    (colour, wounds negated, CT negated)."""

    wounds: tuple[int, ...]
    ct: tuple[int, ...]
    used: tuple[tuple[str, int, int], ...]


def negate(wounds: Sequence[int], ct: Sequence[int], heads: Sequence[bool], chips: Sequence[str]) -> Negation:
    """Saving your skin: chips spent on one attack's damage, in order. While wounds remain a chip negates up to
    its wounds (head hits first, then the last hits); a red or blue chip that negates fewer than its full value
    also negates the attack's CT. With no wounds left a chip negates 5 CT per level (5, 10, 15)."""
    w, c = list(wounds), list(ct)
    order = sorted(range(len(w)), key=lambda i: (not heads[i], -i))
    used = []
    for colour in chips:
        cap, regain = NEGATES[colour]
        if sum(w) > 0:
            n = 0
            for i in order:
                while w[i] > 0 and n < cap:
                    w[i] -= 1
                    n += 1
            ct_off = 0
            if n < cap and colour != "white":
                ct_off = sum(c)
                c = [0] * len(c)
            used.append((colour, n, ct_off))
        else:
            ct_off = 0
            left = regain
            for i in range(len(c)):
                take = min(c[i], left)
                c[i] -= take
                left -= take
                ct_off += take
            used.append((colour, 0, ct_off))
    return Negation(tuple(w), tuple(c), tuple(used))


def ai_wound_chips(hand: Mapping[str, int], wounds_now: int, wounds: Sequence[int], heads: Sequence[bool],
                   out_at: int = 4) -> list[str]:
    """The AI spends chips on an attack's wounds only when they keep the combatant in action (below `out_at`
    wounds, and no two head wounds from the hit): the cheapest chips that do, or none."""
    total = sum(wounds)
    head = max((x for x, h in zip(wounds, heads, strict=True) if h), default=0)
    need = max(0, wounds_now + total - (out_at - 1), head - 1)
    if need == 0:
        return []
    held = [c for c in COLOURS for _ in range(hand.get(c, 0))]  # cheapest first
    for colour in held:  # one chip that covers it
        if NEGATES[colour][0] >= need:
            return [colour]
    chosen, covered = [], 0
    for colour in reversed(held):  # the largest until covered
        chosen.append(colour)
        covered += NEGATES[colour][0]
        if covered >= need:
            return chosen
    return []


# ------------------------------------------------------------------------------------------------ a person's policy

POLICIES: Mapping[str, str] = {"spend": "ai", "keep": "none"}  # a person's word -> the ChipBank's policy


@dataclass(frozen=True)
class ChipPolicy(Action):
    """How the side of `unit`, led by a person, spends its chips from now on (R-8.5): `spend` as the AI does (a
    white or red chip on the entry above when it turns a miss; chips on wounds that keep a combatant in action)
    or `keep`. Taken in the unit's turn, it costs nothing and does not end the turn; as an action it is in the
    battle's history, so a record or an undo replays it. Text: `chips Xenes keep`."""

    verb: ClassVar[str] = "chips"
    policy: str = "spend"


register_action(ChipPolicy, "policy")
