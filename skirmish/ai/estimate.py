"""What a shot is likely to do, read from a frozen view with the rules' own numbers (for the AIs).

The TN and modifiers come from `ranged.shot_numbers` and `checks.skill_pool`, the same functions the
systems use, and the hit chance is exact over the firer's dice pool. What a hit does is the expectation
over the deck model: standard-location frequencies, cover by location, the ablation bands, and the exact
distribution of the effect dice (R-4.3, R-4.4, R-4.7, R-6.6–R-6.8).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from skirmish.ecs.view import BattleView, UnitView, replace_unit
from skirmish.rules import geometry as geo
from skirmish.rules.checks import skill_pool, tn
from skirmish.rules.deck import SIDES, STANDARD_FREQUENCY
from skirmish.rules.dice import exploding_pmf, pool_pmf
from skirmish.rules.equipment import SCREEN_STOPS, Weapon
from skirmish.rulesets.fi import (
    INCAPACITATED_AT,
    LOW_COVERED,
    MOUNTED_MOD,
    Part,
    ShotFacts,
    ae_shift,
    damage_row,
    expected_hit_probability,
    fits,
    hand_penalty,
    shot_numbers,
    wound_penalty,
)
from skirmish.rulesets.fi import thrown as thr

# ablation bands of the deck model: P(P), P(A), P(D) for PN > AV, PN in {AV, AV-1}, PN <= AV-2.
BANDS = ((32 / 54, 16 / 54, 6 / 54), (16 / 54, 22 / 54, 16 / 54), (6 / 54, 16 / 54, 32 / 54))
LOCATION_P = {loc: f / 100 for loc, f in STANDARD_FREQUENCY.items()}
HIGH_EXPOSED = frozenset({"head", "chest", "right_arm"})
_MAX_EFFECT = 160


@dataclass(frozen=True, init=False)
class ShotEstimate:
    """Expected outcome of one attack."""

    hit: float  # P(the check succeeds)
    damage: float  # P(any wound or CT)
    wounds: float  # expected wounds
    ct: float  # expected CT damage
    kill: float  # P(the target is out of action afterwards)
    tn: int
    modifier: int

    def __init__(self, hit: float, damage: float, wounds: float, ct: float, kill: float, tn: int,
                 modifier: int) -> None:
        # The frozen dataclass's __init__ written out (the AIs make one for every shot they weigh).
        d = self.__dict__
        d["hit"], d["damage"], d["wounds"], d["ct"], d["kill"], d["tn"], d["modifier"] = \
            hit, damage, wounds, ct, kill, tn, modifier


NO_SHOT = ShotEstimate(0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)  # a target out of sight (frozen: one for every such shot)


@lru_cache(maxsize=256)
def effect_pmf(sides: int, row: int) -> npt.NDArray[np.float64]:
    """Exact distribution of `row` exploding dice of `sides` (index = total), truncated at 160."""
    one = np.zeros(_MAX_EFFECT + 1)
    for v, p in exploding_pmf(sides).items():
        if v <= _MAX_EFFECT:
            one[v] = p
    out = np.zeros(_MAX_EFFECT + 1)
    out[0] = 1.0
    for _ in range(max(1, row)):
        out = np.convolve(out, one)[: _MAX_EFFECT + 1]
    return out


def _levels(pn: int, av: int) -> tuple[float, float, float]:
    """P(full), P(reduced), P(none) for one armour layer (R-6.7)."""
    if pn <= av - 5:
        return 0.0, 0.0, 1.0
    band = BANDS[0] if pn > av else BANDS[1] if pn >= av - 1 else BANDS[2]
    p, a, d = band
    if pn >= av + 5:  # a D reads P on toggle YES, else A
        p, a, d = p + d / 2, a + d / 2, 0.0
    return p, a, d


def firer_mounted(view: BattleView, me: UnitView) -> bool:
    """Whether `me` rides a mount in `view` (R-6.1: its shots, throws and launches take MOUNTED_MOD); a look over
    the mounts the view holds (none in a battle without mounts)."""
    return bool(view.mounts) and any(m.rider == me.name for m in view.mounts)


def hit_probability(view: BattleView, me: UnitView, target: UnitView, *, mode: str = "prepared",
                    burst: int = 0, moved: str = "none", at: geo.Cell | None = None) -> tuple[float, int, int]:
    """(P(hit), TN, total modifier) of a shot by `me` (standing at `at`) with the rules' numbers."""
    w = me.weapon
    if w is None:
        return 0.0, 0, 0
    here = at or me.cell
    sight = view.sight(me, target, here)
    if not sight.visible:
        return 0.0, 0, 0
    return _hit_numbers(view, me, w, target, sight, geo.distance_m(here, target.cell, view.grid.cell_m), mode, burst,
                        moved)


def _hit_numbers(view: BattleView, me: UnitView, w: Weapon, target: UnitView, sight: geo.Sight, dist: float,
                 mode: str, burst: int, moved: str) -> tuple[float, int, int]:
    """`hit_probability` once the sight (visible) and the distance are known."""
    if dist > w.max_range_m + 1e-9:
        return 0.0, 0, 0
    ready = me.ready_target == target.name
    dodge = dict(target.skills).get("dodge", 0) if target.declared == "dodge" and view.round > 0 else 0
    base = tn("standard", view.scope)  # type: ignore[arg-type]
    mounted = bool(view.mounts) and firer_mounted(view, me)  # (no call in a battle without mounts)
    # The numbers read the distance only through the range increments it spans and an area weapon's row shift
    # (shot_numbers: range_tn, ae_bonus), and the target's name only in the modifiers' texts: so they are kept
    # by those, the weapon and everything else they read.
    key = (id(w), math.floor(dist / w.range_inc_m + 1e-9), ae_shift(w, dist), mode, burst, moved, ready, me.aim,
           target.size, dodge, target.moved_m, target.rate_m, sight.concealed, base, me.trait("dexterity"), me.skills,
           me.wounds, me.off_hand is not None, mounted)
    kept = _hits_kept.get(key)
    if kept is not None and kept[0] is w:
        return kept[1]
    facts = ShotFacts(
        distance_m=dist, mode=mode, burst=burst, firer_moved=moved, ready=ready, aims=me.aim, target=target.name,
        target_size=target.size, target_dodge=dodge, target_moved_m=target.moved_m, target_rate_m=target.rate_m,
        concealed=sight.concealed,  # the target's speed too (shot_numbers.fast_target: faster than Rate 20, −4)
        firer_mounted=mounted,  # a rider's shot, −2
    )
    target_tn, _, mods = shot_numbers(w, facts, base)
    pool = skill_pool(me.trait("dexterity"), dict(me.skills), w.skill)
    mod = sum(m.value for m in (*pool.modifiers, *mods)) + wound_penalty(me.wounds)
    if me.off_hand is not None:  # two weapons: every shot -2, the main hand's here (the off hand's: two_guns)
        mod += hand_penalty(w, False)
    out = (pool_hit_chance(pool.column, pool.row, target_tn, mod, pool.halve), target_tn, mod)
    if len(_hits_kept) >= _HITS_KEPT:
        _hits_kept.clear()
    _hits_kept[key] = (w, out)
    return out


_HITS_KEPT = 8192
_hits_kept: dict[tuple[object, ...], tuple[Weapon, tuple[float, int, int]]] = {}  # hit_probability's numbers


def replaced(u: UnitView, **changes: Any) -> UnitView:
    """`dataclasses.replace(u, **changes)`, built as the views are (`ecs.view.replace_unit`: the same view in a
    twentieth of the time). The AIs make one for every cell a shot after a move is weighed from."""
    return replace_unit(u, changes)


@lru_cache(maxsize=4096)
def fits_kept(declared: str | None, parts: tuple[Part, ...]) -> bool:
    """The rules' `fits` (R-5.3, R-5.5: the parts make a turn the declaration allows), kept: it reads only the
    declaration and the parts (frozen), and the AIs ask the same few turns for every cell they weigh."""
    return fits(declared, list(parts))


@lru_cache(maxsize=4096)
def pool_hit_chance(column: str, row: int, target: int, mod: int, halve: bool) -> float:
    """The chance a pool (column, row dice, halved if untrained) plus `mod` reaches `target` (kept: the same few
    pools and TNs come up all battle long)."""
    return expected_hit_probability(pool_pmf(SIDES[column], row, target - mod), target, mod, halve)


def estimate_shot(view: BattleView, me: UnitView, target: UnitView, *, mode: str = "prepared", burst: int = 0,
                  moved: str = "none", at: geo.Cell | None = None) -> ShotEstimate:
    """Chance to hit, chance of damage, expected wounds and CT, and kill chance of one attack."""
    w = me.weapon
    if w is None:
        return ShotEstimate(0.0, 0.0, 0.0, 0.0, 0.0, 0, 0)
    here = at or me.cell
    sight = view.sight(me, target, here)  # (hit_probability's sight and distance, asked once for both)
    if not sight.visible:
        return NO_SHOT
    dist = geo.distance_m(here, target.cell, view.grid.cell_m)
    if dist > w.max_range_m + 1e-9:
        return NO_SHOT  # (_hit_numbers' (0.0, 0, 0): no hit, TN and modifier 0)
    # The whole estimate reads what `_hit_numbers` and `_per_hit` key their numbers by, and the burst: kept by
    # both keys at once (one look-up where a shot is weighed again: the AIs weigh the same pairs for every option)
    key = (id(w), math.floor(dist / w.range_inc_m + 1e-9), ae_shift(w, dist), mode, burst, moved,
           me.ready_target == target.name, me.aim, target.size,
           target.declared == "dodge" and view.round > 0 and dict(target.skills).get("dodge", 0),
           target.moved_m, target.rate_m, sight.concealed, view.scope, me.trait("dexterity"), me.skills, me.wounds, target.armour,
           target.screen_type, target.screen_points, target.wounds, target.ct, sight.cover, sight.cover_av,
           me.off_hand is not None, bool(view.mounts) and firer_mounted(view, me))
    kept = _shots_kept.get(key)
    if kept is not None and kept[0] is w:
        return kept[1]
    p_hit, target_tn, mod = _hit_numbers(view, me, w, target, sight, dist, mode, burst, moved)
    if p_hit <= 0:
        out = ShotEstimate(0.0, 0.0, 0.0, 0.0, 0.0, target_tn, mod)
    else:
        per_hit = _per_hit(w, target, sight.cover, sight.cover_av, sight.concealed, dist)
        rounds = max(1.0, burst / 2) if burst else 1.0
        dmg_p, wounds, ct, kill = per_hit
        out = ShotEstimate(
            hit=p_hit, damage=p_hit * (1 - (1 - dmg_p) ** rounds), wounds=p_hit * wounds * rounds,
            ct=p_hit * ct * rounds, kill=p_hit * (1 - (1 - kill) ** rounds), tn=target_tn, modifier=mod,
        )
    if len(_shots_kept) >= _SHOTS_KEPT:
        _shots_kept.clear()
    _shots_kept[key] = (w, out)
    return out


_SHOTS_KEPT = 16384
_shots_kept: dict[tuple[object, ...], tuple[Weapon, ShotEstimate]] = {}  # estimate_shot's answers (frozen)


_PER_HIT_KEPT = 8192
_per_hit_kept: dict[tuple[object, ...], tuple[Weapon, tuple[float, float, float, float]]] = {}


def _per_hit(w: Weapon, target: UnitView, cover: str, cover_av: int, concealed: bool,
             dist: float) -> tuple[float, float, float, float]:
    """`per_hit_now`, kept: it reads the target's armour, screen, size, wounds and CT, the cover, and the
    distance only through an area weapon's row shift (`damage_row`, R-6.9), so those are the key."""
    key = (id(w), target.armour, target.screen_type, target.screen_points, target.size, target.wounds, target.ct,
           cover, cover_av, concealed, ae_shift(w, dist))
    kept = _per_hit_kept.get(key)
    if kept is not None and kept[0] is w:
        return kept[1]
    if len(_per_hit_kept) >= _PER_HIT_KEPT:
        _per_hit_kept.clear()
    out = per_hit_now(w, target, cover, cover_av, concealed, dist)
    _per_hit_kept[key] = (w, out)
    return out


def per_hit_now(w: Weapon, target: UnitView, cover: str, cover_av: int, concealed: bool,
                 dist: float) -> tuple[float, float, float, float]:
    """P(damage), E[wounds], E[CT], P(out of action) for one hit on `target`."""
    armour = {loc: (kind, av) for loc, kind, av in target.armour}
    screen = target.screen_points if target.screen_type in SCREEN_STOPS and \
        w.weapon_class in SCREEN_STOPS[target.screen_type] else 0
    dmg_p = wounds = ct = kill = 0.0
    for loc, p_loc in LOCATION_P.items():
        covered = concealed or (cover == "low" and loc in LOW_COVERED) or (cover == "high" and loc not in HIGH_EXPOSED)
        pn_cut = 0
        pass_p = 1.0
        if covered:
            pn_rigid = w.pn_against("rigid")
            pass_p = 1.0 if pn_rigid > cover_av else 0.5 if pn_rigid == cover_av else 0.0
            pn_cut = cover_av // 2
        if pass_p == 0:
            continue
        full, reduced = 1.0, 0.0
        layers = []
        if loc in armour:
            layers.append(armour[loc])
        if screen:
            layers.append(("energy", screen))
        for kind, av in layers:
            f, r, _ = _levels(w.pn_against(kind) - pn_cut, av)
            full, reduced = full * f, (full + reduced) * (f + r) - full * f
        for level_p, dice in ((full, w.damage), (reduced, w.reduced)):
            if level_p <= 0:
                continue
            d_p, d_wounds, d_ct, d_kill = _hit_sums(dice.column, damage_row(w, dice.row, loc, dist), max(1, target.size),
                                                    target.wounds, target.ct, loc == "head")
            weight = p_loc * pass_p * level_p
            dmg_p += weight * d_p
            wounds += weight * d_wounds
            ct += weight * d_ct
            kill += weight * d_kill
    return dmg_p, wounds, ct, kill


@lru_cache(maxsize=4096)
def _hit_sums(column: str, row: int, size: int, wounds: int, ct: int, head: bool) -> tuple[float, float, float, float]:
    """What one hit's damage roll gives (`per_hit_now`, per location and level): P(damage), E[wounds], E[CT] and
    P(out of action), from the effect dice (kept: it reads only these)."""
    pmf = effect_pmf(SIDES[column], row)
    d = np.arange(len(pmf))
    wd, cd = d // size, d % size
    head_kill = (wd >= 2) if head else np.zeros_like(wd, dtype=bool)
    out = (wounds + wd >= INCAPACITATED_AT) | (ct - cd <= 0) | head_kill
    return float(pmf[d > 0].sum()), float((pmf * wd).sum()), float((pmf * cd).sum()), float(pmf[out].sum())


SCATTER_THROWN = {1: 18 / 54, 2: 20 / 54, 3: 16 / 54}  # thrown multipliers over deck A


def throw_chance(me: UnitView, weapon: Weapon, dist: float, scope: str, mounted: bool = False) -> float:
    """Chance a throw's burst still covers the aimed cell: on target, or a scatter (multiplier × margin
    metres, R-6.10) no longer than the radius. From the exact dice distribution of the thrower's pool; `mounted`:
    thrown from the saddle (R-6.1, MOUNTED_MOD)."""
    target_tn, _ = thr.throw_tn(dist, me.trait("strength")[0], tn("standard", scope))  # type: ignore[arg-type]
    col, training = me.trait("dexterity")
    level = me.skill(weapon.skill)
    mod = -min(3, me.wounds) + (MOUNTED_MOD if mounted else 0)
    halve = not level
    pmf = pool_pmf(SIDES[col], level or training, target_tn - mod)
    total = 0.0
    for v, p in pmf:
        if v <= 0:
            continue  # a CF scatters from the thrower
        margin = target_tn - ((v // 2 if halve else v) + mod)
        if margin <= 0:
            total += p
        else:
            total += p * sum(q for mult, q in SCATTER_THROWN.items() if mult * margin <= weapon.blast_m)
    return total
