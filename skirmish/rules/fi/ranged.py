"""Ranged combat (R-6.1–R-6.8, R-6.12, R-6.13): TN, modifiers, the bump pool, locations, cover,
armour, screens and damage, resolved from one draw. Pure: the caller applies the outcome.

The numbers known before the draw (TN, modifiers, effect rows) are in skirmish.rules.fi.shot_numbers and are
importable from here too."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from skirmish.rules.checks import Modifier, bumps
from skirmish.rules.deck import BREAKDOWN_ORDER, Card
from skirmish.rules.equipment import SCREEN_STOPS, Dice, Weapon
from skirmish.rules.fi.damage import split_damage
from skirmish.rules.fi.shot_numbers import (
    CALLED_GROUP,
    CALLED_LOCATION,
    CALLED_PENALTY,
    CALLED_SHOTS,
    MAX_ROW,
    ShotFacts,
    ae_bonus,
    ae_shift,
    called_penalty,
    damage_row,
    expected_hit_probability,
    range_tn,
    shot_numbers,
    size_modifiers,
)
from skirmish.rules.randomizer import Draw, Read

__all__ = [  # the shot's numbers were always imported from here too
    "BUMP_COST", "BUMP_SPENDS", "CALLED_GROUP", "CALLED_LOCATION", "CALLED_PENALTY", "CALLED_SHOTS", "LOCATION_VALUE",
    "LOW_COVERED", "MAX_ROW",
    "ArmourLayer", "HitResult", "ShotFacts", "ShotOutcome", "ShotSetup", "TargetState", "ae_bonus", "ae_shift",
    "apply_hit", "breaks", "called_box", "called_penalty", "damage_row", "expected_hit_probability", "range_tn", "read_attack",
    "resolve_shot", "shot_numbers", "size_modifiers",
]

LOW_COVERED = frozenset({"left_leg", "right_leg", "belly", "vitals"})  # waist-high cover
BUMP_SPENDS = ("location_up", "location_down", "damage", "armour", "a_to_p", "d_to_a")
BUMP_COST = {"location_up": 1, "location_down": 1, "damage": 1, "armour": 1, "a_to_p": 2, "d_to_a": 2}


@dataclass(frozen=True)
class ArmourLayer:
    """One armour layer on a location at the moment of the shot."""

    piece: int  # index into the target's armour list (or -1 for the tacpack screen)
    name: str
    kind: str
    av: int


@dataclass(frozen=True)
class TargetState:
    """What the rules need to know about the target."""

    size: int
    armour: dict[str, tuple[ArmourLayer, ...]]  # location -> layers, outermost first
    screen_type: str | None = None
    screen_av: int = 0
    prone: bool = False
    dodge: int = 0
    firing_arm: str = "right_arm"


@dataclass(frozen=True)
class ShotSetup:
    """Everything decided before the card is turned (the seed: 'know what is happening before you draw')."""

    weapon: Weapon
    column: str
    row: int
    halve: bool
    tn: int
    tn_mods: tuple[Modifier, ...]
    result_mods: tuple[Modifier, ...]
    distance_m: float
    burst: int = 0
    cover: str = "none"
    cover_av: int = 0
    concealed: bool = False
    exposed: frozenset[str] = frozenset()
    point_blank: bool = False
    prone_rule: bool = False
    called: str | None = None
    spends: tuple[str, ...] | None = None  # None = spend the pool automatically
    rounds: int = 0  # a split burst's share of rounds at this target: caps the card's burst hits
    start_shift: int = 0  # boxes from the card's standard the shot lands (a double tap's second shot, R-6.12)
    reliability: str | None = None  # the weapon's reliability for this shot's breakdown, if not its own


@dataclass
class HitResult:
    """One hit of a shot and what became of it."""

    location: str
    box: int
    counted: bool = True
    cover: str | None = None  # 'penetrated' | 'stopped' | None
    pn: int = 0
    layers: list[dict[str, Any]] = field(default_factory=list)
    level: str = "full"  # full | reduced | none
    row: int = 0
    damage: int = 0
    wounds: int = 0
    ct: int = 0
    av_loss: list[tuple[int, int]] = field(default_factory=list)  # (armour piece index, loss)
    screen_loss: int = 0

    def to_json(self) -> dict[str, Any]:
        """Event form of a hit (C-3)."""
        out: dict[str, Any] = {
            "location": self.location, "counted": self.counted, "level": self.level,
            "damage": self.damage, "wounds": self.wounds, "ct": self.ct,
        }
        if self.cover:
            out["cover"] = self.cover
        if self.layers:
            out["ablation"] = self.layers
        if self.row:
            out["row"] = self.row
        return out


@dataclass
class ShotOutcome:
    """A resolved shot."""

    read: int
    cf: bool
    total: int
    tn: int
    hit: bool
    bumps: int
    pool: int
    spent: list[str]
    hits: list[HitResult]
    rounds_hit: int
    breakdown: bool
    extra: list[tuple[int, int]]
    source: dict[str, Any]

    @property
    def wounds(self) -> int:
        """Wounds over all hits."""
        return sum(h.wounds for h in self.hits)

    @property
    def ct(self) -> int:
        """CT damage over all hits."""
        return sum(h.ct for h in self.hits)

    @property
    def damage(self) -> int:
        """Damage over all hits."""
        return sum(h.damage for h in self.hits)


def called_box(called: str, stack: tuple[str, ...], standard: int) -> str:
    """The location a called shot strikes (R-6.1): a hand its arm, a foot its leg, an eye the head, the heart the
    vitals; `torso` the card's standard if it is a torso box, else the stack's torso box nearest it, else the
    chest."""
    if called != "torso":
        return CALLED_LOCATION.get(called, called)
    torso = [i for i, loc in enumerate(stack) if CALLED_GROUP[loc] == "torso"]
    if not torso:
        return "chest"
    return stack[min(torso, key=lambda i: (abs(i - standard), i))]


def breaks(card_letter: str | None, reliability: str) -> bool:
    """R-4.8: equipment breaks when the letter is at or right of its reliability."""
    if card_letter is None:
        return False
    return BREAKDOWN_ORDER.index(card_letter) >= BREAKDOWN_ORDER.index(reliability)


def _box_order(standard: int, hits: int) -> list[int]:
    """Boxes for successive hits: the standard, then the boxes above it, then those below (R-6.3)."""
    order = [standard, *list(range(standard - 1, -1, -1)), *list(range(standard + 1, 4))]
    return [order[i % 4] for i in range(hits)]


def _covered(setup: ShotSetup, location: str) -> bool:
    if setup.concealed:
        return True
    if setup.cover == "low":
        return location in LOW_COVERED
    if setup.cover == "high":
        return location not in setup.exposed
    return False


def read_attack(draw: Draw, setup: ShotSetup) -> tuple[Read, int, bool]:
    """The attack check of a shot or throw: the read, the total after modifiers (0 on a CF), and whether
    it reaches the TN (R-3.3, R-3.5, R-3.6 halving)."""
    mod_total = sum(m.value for m in setup.result_mods)
    read = draw.check(setup.column, setup.row, setup.tn, mod_total)
    base = read.result // 2 if setup.halve else read.result
    total = 0 if read.cf else base + mod_total
    return read, total, (not read.cf) and total >= setup.tn


def resolve_shot(draw: Draw, setup: ShotSetup, target: TargetState) -> ShotOutcome:
    """Resolve one shot or burst against one target from one draw (R-6.1–R-6.8, R-6.13)."""
    card: Card = draw.fields
    read, total, hit = read_attack(draw, setup)
    weapon = setup.weapon
    result_bumps = bumps(total, setup.tn) if hit else 0
    outcome = ShotOutcome(
        read=read.result, cf=read.cf, total=total, tn=setup.tn, hit=hit, bumps=result_bumps, pool=0,
        spent=[], hits=[], rounds_hit=0, breakdown=breaks(card.breakdown, setup.reliability or weapon.reliability),
        extra=[], source=read.source,
    )
    if not hit:
        return outcome
    rounds = card.burst[setup.burst] if setup.burst else 1
    if setup.rounds:
        rounds = min(rounds, setup.rounds)
    outcome.rounds_hit = rounds
    pool = result_bumps + (rounds - 1)  # each hit after the first adds a bump
    outcome.pool = pool

    start = max(0, min(3, card.standard + setup.start_shift))
    if setup.called is not None:
        # A called shot that hits strikes the called location: put it first in the stack order.
        called = called_box(setup.called, card.hit_stack, start)
        stack = list(card.hit_stack)
        if called not in stack:
            stack[start] = called
        start = stack.index(called)
        hit_stack: tuple[str, ...] = tuple(stack)
    else:
        hit_stack = card.hit_stack
    prone_marks = card.prone

    spends = list(setup.spends) if setup.spends is not None else None
    if setup.point_blank:
        # mandatory location bump at point-blank: toward an uncovered, then a deadlier box.
        start = _best_shift(setup, hit_stack, prone_marks, start, 1, extra_free=True)
    if spends is None:
        spends, start = _auto_spends(setup, target, card, hit_stack, prone_marks, start, pool, rounds)
    else:
        for s in spends:
            name = s.split("@")[0]
            if name == "location_up":
                start = max(0, start - 1)
            elif name == "location_down":
                start = min(3, start + 1)
    cost = sum(BUMP_COST[s.split("@")[0]] for s in spends)
    if cost > pool:
        spends = _trim(spends, pool)
    outcome.spent = spends

    per_hit: dict[int, list[str]] = {}
    for s in spends:
        name, _, idx = s.partition("@")
        if name in ("location_up", "location_down"):
            continue
        per_hit.setdefault(int(idx) if idx else 0, []).append(name)

    first_damage = True
    for k, box in enumerate(_box_order(start, rounds)):
        location = hit_stack[box]
        h = HitResult(location=location, box=box)
        if setup.prone_rule and not prone_marks[box]:
            h.counted = False
            h.level = "none"
            outcome.hits.append(h)
            continue
        mine = per_hit.get(k, [])
        apply_hit(draw, setup, target, card, h, mine)
        if h.level != "none" and first_damage and card.extra_damage:
            first_damage = False
            extra = draw.extra_effect(_damage_dice(weapon, h.level).column, h.row)
            outcome.extra = extra
            h.damage += sum(v for _, v in extra)
            h.wounds, h.ct = split_damage(h.damage, target.size, weapon.weapon_class == "stun")
        elif h.level != "none":
            first_damage = False
        outcome.hits.append(h)
    return outcome


def _damage_dice(weapon: Weapon, level: str) -> Dice:
    return weapon.damage if level == "full" else weapon.reduced


def apply_hit(
    draw: Draw, setup: ShotSetup, target: TargetState, card: Card, h: HitResult, spends: list[str]
) -> None:
    """Cover, then worn armour, then the screen, then damage for one hit (R-6.6, R-6.7, R-6.13, R-6.8)."""
    weapon = setup.weapon
    pn_cut = 0
    if _covered(setup, h.location):
        pn = weapon.pn_against("rigid")
        if pn > setup.cover_av or (pn == setup.cover_av and card.toggle):
            h.cover = "penetrated"
            pn_cut = setup.cover_av // 2
        else:
            h.cover = "stopped"
            h.level = "none"
            return
    armour_bumps = spends.count("armour")
    a_to_p = spends.count("a_to_p")
    d_to_a = spends.count("d_to_a")
    level = "full"
    layers = list(target.armour.get(h.location, ()))
    if target.screen_type and target.screen_av > 0 and weapon.weapon_class in SCREEN_STOPS[target.screen_type]:
        layers.append(ArmourLayer(-1, f"{target.screen_type} screen", "energy", target.screen_av))
    for layer in layers:
        pn = weapon.pn_against(layer.kind) - pn_cut
        av = max(0, layer.av - armour_bumps)
        letter = card.ablation_for(pn, av)
        raw = letter
        if pn >= av + 5 and letter == "D":
            letter = "P" if card.toggle else "A"
        if letter == "D" and d_to_a:
            d_to_a -= 1
            letter = "A"
        if letter == "A" and a_to_p:
            a_to_p -= 1
            letter = "P"
        no_damage = pn <= av - 5
        loss = 0
        if letter == "A" or (letter == "P" and card.toggle):
            loss = 1
        if loss:
            if layer.piece >= 0:
                h.av_loss.append((layer.piece, loss))
            else:
                h.screen_loss += loss
        h.layers.append({"armour": layer.name, "pn": pn, "av": av, "card": raw, "result": letter,
                         "av_loss": loss})
        if letter == "D" or no_damage:
            h.level = "none"
            return
        if letter == "A":
            level = "reduced"
    h.level = level
    dice = _damage_dice(weapon, level)
    h.row = damage_row(weapon, dice.row + spends.count("damage"), h.location, setup.distance_m)
    h.damage = draw.effect(dice.column, h.row)
    h.wounds, h.ct = split_damage(h.damage, target.size, weapon.weapon_class == "stun")


def _trim(spends: list[str], pool: int) -> list[str]:
    out, left = [], pool
    for s in spends:
        c = BUMP_COST[s.split("@")[0]]
        if c <= left:
            out.append(s)
            left -= c
    return out


LOCATION_VALUE = {"head": 5, "vitals": 4, "chest": 3, "belly": 3, "left_arm": 1, "right_arm": 1,
                  "left_leg": 2, "right_leg": 2}


def _best_shift(
    setup: ShotSetup, stack: tuple[str, ...], prone: tuple[bool, ...], start: int, budget: int,
    extra_free: bool = False,
) -> int:
    """The box within `budget` moves of `start` that counts, is uncovered, and hurts most."""
    best, best_key = start, None
    for box in range(max(0, start - budget), min(3, start + budget) + 1):
        loc = stack[box]
        key = (
            not (setup.prone_rule and not prone[box]),
            not _covered(setup, loc),
            LOCATION_VALUE[loc],
            -abs(box - start),
        )
        if best_key is None or key > best_key:
            best, best_key = box, key
    if extra_free:
        return best
    return best


def _auto_spends(
    setup: ShotSetup, target: TargetState, card: Card, stack: tuple[str, ...], prone: tuple[bool, ...],
    start: int, pool: int, rounds: int,
) -> tuple[list[str], int]:
    """Spend the bump pool the way a careful player would: reach a box that counts and is not
    behind cover, then beat the armour, then push damage rows down (R-6.4)."""
    spends: list[str] = []
    new_start = _best_shift(setup, stack, prone, start, pool)
    moves = new_start - start
    spends += ["location_down" if moves > 0 else "location_up"] * abs(moves)
    pool -= abs(moves)
    loc = stack[new_start]
    layers = list(target.armour.get(loc, ()))
    weapon = setup.weapon
    for layer in layers[:1]:
        pn = weapon.pn_against(layer.kind)
        letter = card.ablation_for(pn, layer.av)
        if letter == "D" and pn < layer.av + 5 and pool >= 2:
            spends.append("d_to_a@0")
            pool -= 2
            letter = "A"
        if letter == "A" and pool >= 2:
            spends.append("a_to_p@0")
            pool -= 2
    k = 0
    while pool > 0 and k < rounds:
        row = damage_row(weapon, weapon.damage.row, stack[_box_order(new_start, rounds)[k]], setup.distance_m)
        room = MAX_ROW - row - sum(1 for s in spends if s == f"damage@{k}")
        if room <= 0:
            k += 1
            continue
        spends.append(f"damage@{k}")
        pool -= 1
    return spends, new_start
