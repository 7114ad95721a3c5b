"""Future*World's pure rules and tables (RULES.md §9): the seed's worked examples, the digest's numbers and
properties of the percentile rules (issue 13, items 1, 3, 4, 7 and 8: the rules layer)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from skirmish.content.errors import ContentError
from skirmish.content.fw import DATA_FILE, parse_fw_armoury, shipped
from skirmish.rules.fw import checks, damage, movement
from skirmish.rules.fw.dice import DiceExpr


# ---------------------------------------------------------------- the attack chance
def test_john_steel_halved_three_times() -> None:
    """Seed 004: 80% with a heavy laser rifle at a moving, flying Quertzl in the trees: 40, 20, then 10%."""
    c = checks.attack_chance(80, {"covered_target", "target_in_air", "moving_target"})
    assert c.value == 10
    assert [s.key for s in c.steps] == ["moving_target", "covered_target", "target_in_air"]  # the digest's order
    assert c.explain().startswith("80% x1/2 (the target is moving)") and c.explain().endswith("= 10%")
    assert c.impale == 2


@given(st.integers(0, 200), st.sets(st.sampled_from(checks.MODIFIER_KEYS)))
def test_chance_is_the_digest_order_whatever_the_order_given(base: int, conds: set[str]) -> None:
    a = checks.attack_chance(base, conds)
    b = checks.attack_chance(base, tuple(reversed(sorted(conds))))
    assert a == b and a.value >= 0
    x = Fraction(base)  # the plain statement: multiply or add in the digest's order, round once
    for m in checks.MODIFIERS:
        if m.key in conds:
            x = x * m.times + m.plus
    assert a.value == checks.round_chance(x)


@given(st.integers(1, 100))
def test_surprise_doubles_the_impale_chance_too(base: int) -> None:
    plain, surprised = checks.attack_chance(base), checks.attack_chance(base, {"surprised_target"})
    assert surprised.value == 2 * plain.value
    assert abs(surprised.impale - 2 * plain.impale) <= 1  # both rounded half up from chance / 5


def test_prone_firer_adds_after_the_halvings() -> None:
    assert checks.attack_chance(50, {"moving_target", "prone_firer"}).value == 45
    assert checks.attack_chance(50, {"darkness"}).value == 10
    with pytest.raises(ValueError, match="unknown attack condition 'flanked'"):
        checks.attack_chance(50, {"flanked"})


@given(st.integers(1, 100), st.integers(0, 300), st.booleans())
def test_percentile_outcome(roll: int, chance: int, impales: bool) -> None:
    o = checks.Outcome.of(roll, chance, impales=impales)
    assert o.success == (roll <= chance and roll <= 95)  # 96-00 always misses
    assert not o.impale or (o.success and impales and roll <= checks.impale_chance(chance))
    if impales and o.success and roll * 5 <= chance:
        assert o.impale


def test_bursts_hit_one_to_three_times() -> None:
    rng = random.Random(7)
    assert {checks.burst_hits(rng) for _ in range(200)} == {1, 2, 3}


# ----------------------------------------------------------------
def test_characteristics() -> None:
    ch = checks.Characteristics.parse({"STR": 12, "CON": 15, "SIZ": 11, "INT": 13, "POW": 10, "DEX": 16})
    assert (ch.hp, ch.luck, ch.dead_at) == (15, 50, -15)
    with pytest.raises(ValueError, match="DEX: expected a whole number 3-18, got 19"):
        checks.Characteristics.parse({"STR": 12, "CON": 15, "SIZ": 11, "INT": 13, "POW": 10, "DEX": 19})
    with pytest.raises(ValueError, match="missing characteristic POW"):
        checks.Characteristics.parse({"STR": 12, "CON": 15, "SIZ": 11, "INT": 13, "DEX": 9})


def test_second_action_at_half_dex_rounded_up() -> None:
    assert checks.half_dex(16) == 8  # the seed's DEX 16 character switches his screen, then fires at 8
    assert checks.half_dex(15) == 8 and checks.half_dex(3) == 2


# ---------------------------------------------------------------- damage and wounds
NYLAR = {"P": 9, "B": 4, "L": 5}


def test_armour_then_the_matching_screen() -> None:
    a = damage.through_protection(15, "P", NYLAR, "kinetic", 4)
    assert (a.armour, a.screen, a.through) == (9, 4, 2)
    assert damage.through_protection(15, "P", NYLAR, "diffusion", 4).through == 6  # a diffusion screen: lasers only
    assert damage.through_protection(12, "L", NYLAR, "diffusion", 10).through == 0
    assert damage.through_protection(3, "B", NYLAR, None, 0).through == 0  # never below 0


def test_force_sword_ignores_armour_and_any_magnetic_screen_stops_it() -> None:
    ceramet = {"P": 7, "B": 7, "L": 7}
    assert damage.through_protection(14, "F", ceramet, "kinetic", 30).through == 14
    assert damage.through_protection(14, "F", ceramet, "magnetic", 1).through == 0


def test_major_wound_john_steel() -> None:
    """Seed 004: John, 12 HP left, takes 6 through armour and screen: exactly half is a major wound."""
    assert damage.is_major_wound(12, 6) and not damage.is_major_wound(12, 5)
    rng = random.Random(3)
    roll, ok = damage.stays_up(rng, 6)
    assert 1 <= roll <= 20 and ok == (roll <= 6)


def test_unconscious_bleeding_and_death() -> None:
    assert damage.condition(1, 15) == "ok"
    assert damage.condition(0, 15) == "unconscious" and damage.bleed(0) == -1
    assert damage.condition(-14, 15) == "unconscious" and damage.condition(-15, 15) == "dead"  # the seed's CON 15
    assert damage.bleed(5) == 5


def test_medikit_shock_can_kill() -> None:
    outcomes = [damage.medikit(random.Random(s), 60, 8) for s in range(300)]
    assert any(t.killed for t in outcomes) and any(t.restored for t in outcomes)
    for t in outcomes:
        assert t.killed == (t.survival_roll > 40)  # CON 8: 40%
        assert not (t.killed and t.restored) and 0 <= t.restored <= 6
        assert (t.restored > 0) == (not t.killed and t.first_aid_roll <= 60)


# ----------------------------------------------------------------
def test_encumbrance_and_the_jump_pack() -> None:
    assert movement.jump_m(5, 14, 12) == 20  # the seed: 2 extra ENC (-80 m), 5 energy (+100 m)
    assert movement.move_m(15, 12) == 18 and movement.run_loss_m(15, 12) == 18
    assert movement.skill_penalty(Fraction(25, 2), 12) == 0 and movement.skill_penalty(13.5, 12) == 5
    assert movement.move_m(40, 10) == 0


# ---------------------------------------------------------------- dice
@given(st.integers(1, 20), st.sampled_from((3, 4, 6, 8, 10, 20)), st.integers(-5, 10))
def test_dice_expressions(count: int, sides: int, add: int) -> None:
    d = DiceExpr(count, sides, add)
    assert DiceExpr.parse(str(d)) == d
    if count <= 6:
        pmf = d.pmf()
        assert abs(sum(pmf.values()) - 1) < 1e-9 and min(pmf) == d.low and max(pmf) == d.high
        assert abs(sum(k * p for k, p in pmf.items()) - d.mean) < 1e-6
    rng = random.Random(count * 100 + sides)
    assert all(d.low <= d.roll(rng) <= d.high for _ in range(20))


def test_dice_errors() -> None:
    for bad, why in (("2X8", "expected dice like"), ("0D6", "1-20 dice"), ("2D7", "d7")):
        with pytest.raises(ValueError, match=why):
            DiceExpr.parse(bad)


# ---------------------------------------------------------------- the tables
def test_the_tables_hold_the_seeds_numbers() -> None:
    t = shipped()
    assert len([w for w in t.weapons.values() if not w.vehicle]) == 35  # (the car_weapons rows are not the seed's)
    assert set(t.armour) == {"nylar", "tinsel", "chitin", "ceramet"}
    assert {k: a.stops for k, a in t.armour.items()} == {
        "nylar": NYLAR, "tinsel": {"P": 2, "B": 4, "L": 9}, "chitin": {"P": 5, "B": 10, "L": 6},
        "ceramet": {"P": 7, "B": 7, "L": 7}}
    d = t.weapons["derringer"]
    assert (str(d.damage), d.enc, d.range_m, d.cost, d.impales) == ("1D8", Fraction(1, 4), 6, 100, True)
    sp = t.weapons["semi_portable"]
    assert (sp.chance(mounted=True), sp.chance(mounted=False), sp.burst) == (20, 5, True)
    seeker, guided = t.weapons["seeker_missile"], t.weapons["guided_missile"]
    assert seeker.base_chance is None and seeker.line_of_sight and str(seeker.damage) == "3D8"
    assert guided.base_chance == 20 and str(guided.damage) == "5D8"
    # A pack of six missiles weighs six missiles: the two tables agree.
    assert t.equipment["guided_missile_pack"].enc_at() == 6 * guided.enc
    assert t.equipment["seeker_missile_pack"].enc_at() == 6 * seeker.enc
    grenades = {k: (w.base_chance, w.range_m, w.blast_radius_m) for k, w in t.weapons.items() if w.weapon_class == "grenade"}
    assert grenades == {"concussion_grenade": (45, 15, 3), "fragmentation_grenade": (45, 15, 6), "photon_grenade": (45, 15, 10)}
    assert t.weapons["photon_grenade"].effect == "blind" and t.weapons["photon_grenade"].damage is None
    sword = t.weapons["force_sword"]
    assert (sword.damage_class, sword.energy, sword.base_chance) == ("F", 3, 10)
    assert t.weapons["laser_heavy_assault"].shot_energy(burst=True) == 12  # x3 for a burst
    assert t.equipment["tacpack"].enc_at(10) == 5 and t.equipment["tacpack"].cost_at(10) == 2000
    scout = t.grav_cars["scout_car"]
    assert scout.move_m(50) == 500 and scout.move_m(50 - 30) == 200  # the seed: 200 m with the 30-point screen up
    assert (t.hover_m, t.max_slope_deg) == (10, 45)


def _raw() -> dict:
    from importlib import resources
    return yaml.safe_load(resources.files("skirmish.data").joinpath(DATA_FILE).read_text(encoding="utf-8"))


@pytest.mark.parametrize(("path", "value", "where", "why"), [
    (("weapons", "derringer", "damage"), "2X8", "weapons.derringer", "expected dice like '2D8+4'"),
    (("weapons", "magnum", "calibre"), 9, "weapons.magnum", "unknown field 'calibre'"),
    (("weapons", "flasher", "class"), "sonic", "weapons.flasher", "class: expected one of"),
    (("weapons", "blazer", "enc"), "a lot", "weapons.blazer", "enc: expected a number like 2 or 1/4"),
    (("weapons", "semi_portable", "base_chance"), "20/x", "weapons.semi_portable", "mounted/hand-held"),
    (("armour", "nylar", "stops"), {"P": 9, "B": 4}, "armour.nylar", "stops: expected points for each of P, B, L"),
    (("grav_cars", "hauler", "seats"), 0, "grav_cars.hauler", "seats: expected a whole number 1-"),
    (("equipment", "tacpack", "rating"), "mana", "equipment.tacpack", "rating: expected energy or EW"),
])
def test_a_bad_table_entry_names_file_and_key(path: tuple[str, ...], value: object, where: str, why: str) -> None:
    raw = _raw()
    node = raw
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    with pytest.raises(ContentError) as e:
        parse_fw_armoury(raw, "fw.yaml")
    assert e.value.file == "fw.yaml" and e.value.where == where and why in e.value.message


def test_a_missing_field_is_named() -> None:
    raw = _raw()
    del raw["weapons"]["light_rifle"]["cost"]
    with pytest.raises(ContentError, match=r"fw.yaml: weapons.light_rifle: missing field 'cost'"):
        parse_fw_armoury(raw, "fw.yaml")
