"""Properties of Future*World's pure rules (issue 13, "How it is shown"): allocations never above G, equal DEX
resolves simultaneously, impales only at or under chance/5, and odds.py's exact distributions — they sum to 1
and equal a brute-force walk of every roll `attack.resolve` can make, and a seeded sampling of the real rolls."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.content.fw import shipped
from skirmish.rules.fw import attack, damage, ew, gravcar, melee, missiles, odds, order, tacpack
from skirmish.rules.fw.attack import Attack
from skirmish.rules.fw.damage import SCREEN_TYPES
from skirmish.rules.fw.dice import DiceExpr

R = TypeVar("R")
T = shipped()


class Walk(random.Random):
    """Replays a prefix of die results, then reads each further die at its lowest face, noting every die read."""

    def __init__(self, prefix: tuple[int, ...]) -> None:
        super().__init__(0)
        self.prefix = prefix
        self.read: list[tuple[int, int, int]] = []

    def randint(self, a: int, b: int) -> int:
        i = len(self.read)
        v = self.prefix[i] if i < len(self.prefix) else a
        self.read.append((a, b, v))
        return v


def every_path(fn: Callable[[random.Random], R]) -> Iterator[tuple[R, Fraction]]:
    """Every outcome of `fn` over every sequence of dice it can read, each with its probability."""
    stack: list[tuple[int, ...]] = [()]
    while stack:
        prefix = stack.pop()
        rng = Walk(prefix)
        out = fn(rng)
        yield out, math.prod((Fraction(1, b - a + 1) for a, b, _ in rng.read), start=Fraction(1))
        for i in range(len(prefix), len(rng.read)):
            a, b, _ = rng.read[i]
            before = tuple(v for _, _, v in rng.read[:i])
            stack.extend((*before, face) for face in range(a + 1, b + 1))


armours = st.one_of(st.none(), st.fixed_dictionaries({"P": st.integers(0, 4), "B": st.integers(0, 4),
                                                      "L": st.integers(0, 4)}))
attacks = st.builds(
    Attack.of, st.integers(0, 120), st.sampled_from(("1D2", "1D3", "1D3+2", "2D2")), st.sampled_from("PBLF"),
    impales=st.booleans(), burst=st.booleans(), armour=armours,
    screen_type=st.one_of(st.none(), st.sampled_from(SCREEN_TYPES)), screen=st.integers(0, 3),
    always_miss=st.booleans())


@settings(max_examples=10, deadline=None)
@given(attacks)
def test_odds_equal_every_roll_resolve_can_make(a: Attack) -> None:
    """odds.odds is exactly the distribution of attack.resolve, found by walking every die it reads."""
    damage: dict[int, Fraction] = {}
    hit = impale = Fraction(0)
    hits: dict[int, Fraction] = {}
    for r, p in every_path(lambda rng: attack.resolve(rng, a)):
        damage[r.damage] = damage.get(r.damage, Fraction(0)) + p
        hits[len(r.hits)] = hits.get(len(r.hits), Fraction(0)) + p
        hit += p if r.hit else 0
        impale += p if r.impale else 0
    o = odds.odds(a)
    assert sum(o.damage.values()) == 1 and sum(o.hits.values()) == 1
    assert (o.hit, o.impale) == (hit, impale)
    assert {k: v for k, v in o.damage.items() if v} == damage and {k: v for k, v in o.hits.items() if v} == hits


@settings(max_examples=6, deadline=None)
@given(attacks, st.integers(1, 12))
def test_major_wound_chance_equals_every_roll(a: Attack, hp: int) -> None:
    """odds.major_wound_chance: some single hit takes at least half the HP it finds (R-9.7), hits in order."""
    def major(rng: random.Random) -> bool:
        left, any_major = hp, False
        for h in attack.resolve(rng, a).hits:
            any_major = any_major or damage.is_major_wound(left, h.absorbed.through)
            left -= h.absorbed.through
        return any_major
    walked = sum((p for m, p in every_path(major) if m), Fraction(0))
    assert odds.major_wound_chance(a, hp) == walked


def test_odds_match_a_seeded_sampling_of_the_real_rolls() -> None:
    """A heavy assault gun's burst at 55% into nylar and a 3-point kinetic screen: the exact mean and tail agree
    with 20,000 rolls of attack.resolve on one seeded source (within 4 standard errors)."""
    a = Attack.of(55, "4D6", "P", impales=True, burst=True, armour=T.armour["nylar"].stops, screen_type="kinetic",
                  screen=3)
    o = odds.odds(a)
    rng = random.Random(2026)
    n = 20_000
    rolls = [attack.resolve(rng, a).damage for _ in range(n)]
    mean = sum(rolls) / n
    sd = math.sqrt(float(sum((x - o.mean) ** 2 * p for x, p in o.damage.items())))
    assert abs(mean - float(o.mean)) < 4 * sd / math.sqrt(n)
    for k in (1, 10, 25):
        p = float(o.at_least(k))
        assert abs(sum(x >= k for x in rolls) / n - p) < 4 * math.sqrt(p * (1 - p) / n) + 1e-9


def test_odds_for_the_board_preview() -> None:
    """The preview's numbers for a force sword at 10% and a heavy laser rifle at 40% into tinsel with a diffusion
    screen: P(hit), P(impale), the damage after armour and screen (R-9.4, R-9.6)."""
    sword = odds.odds(Attack.of(10, "2D10", "F", screen_type="magnetic", screen=1))
    assert (sword.hit, sword.damage) == (Fraction(1, 10), {0: Fraction(1)})
    rifle = odds.odds(Attack.of(40, "3D6", "L", armour=T.armour["tinsel"].stops, screen_type="diffusion", screen=2))
    assert rifle.hit == Fraction(2, 5) and rifle.impale == 0  # lasers do not impale
    # 3D6 - 9 - 2 gets through only on 12+: P(3D6 >= 12) = 81/216.
    assert rifle.at_least(1) == Fraction(2, 5) * Fraction(81, 216) and rifle.percent(rifle.hit) == "40.0%"
    seeker = odds.odds(missiles.seeker_attack(0, 0, T.weapons["seeker_missile"]))
    assert seeker.hit == 1 and min(k for k, v in seeker.damage.items() if v) == 3  # 100% acquires: no 96-00
    pistol = odds.odds(Attack.of(100, "2D6", "P", impales=True))
    assert (pistol.hit, pistol.impale) == (Fraction(95, 100), Fraction(20, 100))


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 100), st.integers(0, 15), st.integers(-15, 15), st.integers(-15, 15), st.sampled_from((3, 6, 10)))
def test_p_caught_matches_every_throw(chance: int, aim_y: int, tx: int, ty: int, radius: int) -> None:
    """missiles.p_caught is exactly the chance that missiles.throw lands within the blast of a target."""
    thrower, aim, target = (0.0, 0.0), (0.0, float(-aim_y)), (float(tx), float(ty))
    walked = sum((p for lands, p in every_path(lambda rng: missiles.throw(rng, chance, thrower, aim).lands)
                  if missiles.within(lands, target, radius)), Fraction(0))
    assert missiles.p_caught(chance, thrower, aim, target, radius) == walked
    caught = odds.blast_odds(walked, missiles.blast_attack(T.weapons["concussion_grenade"]))
    assert sum(caught.damage.values()) == 1 and caught.hit == walked


@given(st.integers(1, 100), st.integers(0, 200), st.booleans())
def test_impale_only_at_or_under_a_fifth_of_the_chance(roll: int, chance: int, impales: bool) -> None:
    """R-9.4: an impale is a hit at or under chance/5 (rounded half up), never above, and only for impaling
    weapons."""
    a = Attack.of(chance, "1D6", "P", impales=impales)
    if a.impales_on(roll):
        assert impales and a.hits_on(roll) and roll <= Fraction(chance, 5) + Fraction(1, 2)
    elif impales and a.hits_on(roll):
        assert roll > Fraction(chance, 5)


@given(st.integers(1, 30), st.integers(0, 30), st.integers(0, 30), st.integers(0, 30), st.integers(0, 30),
       st.integers(0, 30), st.booleans())
def test_an_allocation_is_never_above_g(g: int, screen: int, shots: int, cm: int, sensors: int, jump: int,
                                        whole: bool) -> None:
    """R-9.8: whatever is asked, an accepted split of a tacpack never draws more than G."""
    a = tacpack.Allocation(screen_type="kinetic", screen=screen, shots=shots, cm=cm, sensors=sensors, jump=jump)
    if tacpack.refusal(tacpack.Tacpack(g, effectors=30, sensors=30), a, whole_round_programming=whole) is None:
        assert a.total <= g


@given(st.sampled_from(sorted(T.grav_cars)), st.integers(0, 60), st.integers(0, 60), st.integers(0, 12),
       st.integers(1, 20))
def test_a_grav_car_split_is_never_above_its_generator(car: str, screen: int, weapons: int, ew_points: int,
                                                       riders: int) -> None:
    """R-9.12: an accepted split never draws more than the generator, and the car moves within its top speed."""
    c, split = T.grav_cars[car], gravcar.CarSplit("kinetic", screen, weapons, ew_points)
    if gravcar.split_refusal(c, split) is None:
        assert split.spent <= c.generator
        assert 0 <= gravcar.move_m(c, split, riders) <= c.speed_m


units = st.lists(st.tuples(st.sampled_from("ABCDEFGH"), st.integers(3, 18),
                           st.sampled_from((("fire",), ("screen", "fire"), ("move", "fire"), ("fire", "ew")))),
                 min_size=1, max_size=8, unique_by=lambda u: u[0])


@given(units)
def test_equal_dex_resolves_simultaneously(declared: list[tuple[str, int, tuple[str, ...]]]) -> None:
    """R-9.2: every slot at one DEX is in one group (they take effect together), groups run from the highest DEX
    down, and a second action comes at half DEX rounded up (R-9.3)."""
    groups = order.resolution_order(declared)
    dexes = [g[0].dex for g in groups]
    assert dexes == sorted(set(dexes), reverse=True)
    assert all(s.dex == g[0].dex for g in groups for s in g)
    slots = [s for g in groups for s in g]
    assert len(slots) == sum(len(acts) for _, _, acts in declared)
    for unit, dex, acts in declared:
        mine = [s for s in slots if s.unit == unit]
        assert [s.dex for s in mine] == [dex, (dex + 1) // 2][: len(acts)]


def test_dice_pmf_is_exact() -> None:
    """odds.dice_pmf in Fractions agrees with dice.py's float pmf and sums to exactly 1, twice for an impale."""
    d = DiceExpr.parse("3D8+1")
    exact, approx = odds.dice_pmf(d), d.pmf()
    assert sum(exact.values()) == 1 and all(abs(float(exact[k]) - approx[k]) < 1e-12 for k in approx)
    twice = odds.dice_pmf(d, 2)
    assert min(twice) == 2 * d.low and max(twice) == 2 * d.high and sum(twice.values()) == 1


def test_bad_values_are_refused_with_a_reason() -> None:
    """Readable refusals from the pure rules: what was expected, and the rule where there is one."""
    with pytest.raises(ValueError, match="damage class: expected one of P, B, L, F, got 'X'"):
        Attack.of(50, "1D6", "X")
    with pytest.raises(ValueError, match="screen: expected one of kinetic, diffusion, magnetic, got 'sonic'"):
        Attack.of(50, "1D6", "P", screen_type="sonic")
    with pytest.raises(ValueError, match="'light_rifle' is a projectile weapon, not a melee weapon"):
        melee.melee_weapon(T.weapons["light_rifle"])
    with pytest.raises(ValueError, match=r"R-9\.4: prone_firer applies to missile fire, not melee"):
        melee.melee_chance(50, iter(["prone_firer"]))
    assert melee.melee_chance(50, iter(["knocked_down_target"])).value == 70  # a one-pass iterable is read once
    with pytest.raises(ValueError, match=r"R-9\.12: 51 points split, the scout car.s generator gives 50"):
        gravcar.move_m(T.grav_cars["scout_car"], gravcar.CarSplit("kinetic", 30, weapons=21))
    with pytest.raises(ValueError, match=r"R-9\.12: all 1 seats are taken"):
        gravcar.mount(gravcar.Cabin(1, ("Ada",)), "Bo")
    with pytest.raises(ValueError, match="0 < t < 1"):
        gravcar.sight(2, 0, 2, [(1, 5)])
    assert missiles.throw_refusal(20) == "R-9.10: a grenade reaches 15 m, the point is 20 m away"


@given(st.integers(0, 100), st.integers(0, 100))
def test_p_blinded_equals_every_flash(caught_pct: int, luck: int) -> None:
    """missiles.p_blinded is exactly the chance the flash blinds (damage.photon_blinding's Luck roll)."""
    walked = sum((p for (_, rounds), p in every_path(lambda rng: damage.photon_blinding(rng, luck)) if rounds),
                 Fraction(0))
    caught = Fraction(caught_pct, 100)
    assert missiles.p_blinded(caught, luck) == caught * walked


def test_describe_is_the_preview_line() -> None:
    """odds.describe: what the board prints for an aimed attack, from the exact odds."""
    a = Attack.of(50, "2D6", "P", impales=True, armour=T.armour["nylar"].stops)
    line = odds.describe(a, hp=6)
    o = odds.odds(a)
    assert line.startswith("hit 50.0%, impale 10.0%, mean ") and line.endswith(f"down {o.percent(o.at_least(6))}")
    assert odds.describe(Attack.of(30, "3D6", "L")) == "hit 30.0%, mean 3.2 through"


@given(st.integers(0, 120), st.integers(0, 8), st.integers(0, 12), st.integers(0, 12))
def test_detect_chance_is_what_registers_rolls(distance: int, points: int, cm: int, dccm: int) -> None:
    """ew.detect_chance (the preview's figure) counts exactly the d100 rolls on which tacpack.registers succeeds."""
    rolls = sum(tacpack.registers(r, distance, points, cm, dccm) for r in range(1, 101))
    assert ew.detect_chance(distance, points, cm, dccm) == rolls
