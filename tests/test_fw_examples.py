"""Every worked example and stated number of seed 004 (Future*World, ../shared/seeds/004_*.txt), replayed with
fixed dice against the pure rules (issue 13, "How it is shown"). Each test names the seed's passage (chapter
and heading) and the rule id; the property tests are in tests/test_fw_odds.py."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from skirmish.content.fw import shipped
from skirmish.rules.fw import attack, checks, damage, ew, gravcar, melee, missiles, movement, order, tacpack
from skirmish.rules.fw.attack import Attack
from skirmish.rules.fw.tacpack import Allocation, Tacpack

T = shipped()
NYLAR = T.armour["nylar"].stops
CERAMET = T.armour["ceramet"].stops


class Stacked(random.Random):
    """Fixed dice: each `randint` returns the next scripted value, checked against the die it is read for."""

    def __init__(self, *values: int) -> None:
        super().__init__(0)
        self.values = list(values)
        self.read: list[tuple[int, int, int]] = []

    def randint(self, a: int, b: int) -> int:
        assert self.values, f"a d{b} was rolled after the scripted dice ran out"
        v = self.values.pop(0)
        assert a <= v <= b, f"scripted {v} read for a roll of {a}-{b}"
        self.read.append((a, b, v))
        return v

    def dice(self) -> list[int]:
        """Sides of every die read, in order."""
        return [b for _, b, _ in self.read]


# ---------------------------------------------------------------- III. Time and scale
def test_time_and_scale_the_longest_range_is_300_m() -> None:
    """III "Time and scale": a 300 m weapon is 150 inches away at 2 m to the inch (75 at 4 m): 300 m is the
    table's longest range (R-9.12)."""
    longest = max(w.range_m for w in T.weapons.values() if w.range_m is not None)
    assert longest == 300 and longest // 2 == 150 and longest // 4 == 75
    assert {w.id for w in T.weapons.values() if w.range_m == 300} >= {"semi_portable", "laser_heavy_rifle"}


# ---------------------------------------------------------------- III. Game sequence
def test_game_sequence_movement_segment() -> None:
    """III "Game sequence" 2: the non-engaged move their full distance (24 m, R-9.2); a move of up to 6 m is
    an action; a jump pack user moves here and does nothing else."""
    assert movement.MOVE_M == 24 and movement.move_m(12, 12) == 24 and movement.ACTION_MOVE_M == 6
    assert order.refusal(("jump", "fire")) == ("R-9.2: a figure using a jump pack moves in the movement segment "
                                              "and does nothing else")
    assert order.refusal(("jump",)) is None and order.refusal(("move", "fire")) is None


def test_game_sequence_resolution_by_dex_equal_dex_simultaneous() -> None:
    """III "Game sequence" 3: highest DEX first down to the lowest; equal DEX resolve simultaneously (R-9.2)."""
    groups = order.resolution_order([("Sauriki", 12, ("fire",)), ("John", 16, ("fire",)), ("Quertzl", 12, ("fire",))])
    assert [[s.unit for s in g] for g in groups] == [["John"], ["Quertzl", "Sauriki"]]


def test_combining_actions_dex_16_switches_then_fires_at_8() -> None:
    """III "Game sequence": "A DEX 16 character could switch his screen at DEX 16 and fire at DEX 8 — or fire at
    DEX 16 and switch his screen at DEX 8"; halving an odd DEX rounds up; never two of the same action (R-9.3)."""
    for first, second in (("screen", "fire"), ("fire", "screen")):
        (a,), (b,) = order.resolution_order([("John", 16, (first, second))])
        assert (a.action, a.dex, b.action, b.dex) == (first, 16, second, 8)
    assert checks.half_dex(15) == 8 and checks.half_dex(9) == 5
    assert order.refusal(("fire", "fire")) == "R-9.3: a figure never takes the same action twice in a round (fire)"


# ---------------------------------------------------------------- III. Encumbrance
def test_encumbrance() -> None:
    """III "Encumbrance (ENC)": normal movement while ENC <= STR; each point over takes 2 m off the 24 m walk,
    6 m running, 5% off Climb, Jump and Move Quietly; a carried figure weighs its SIZ (R-9.11)."""
    assert movement.move_m(12, 12) == 24 and movement.skill_penalty(12, 12) == 0
    assert movement.move_m(15, 12) == 18 and movement.run_loss_m(15, 12) == 18 and movement.skill_penalty(15, 12) == 15
    load = 3 + movement.carried_body_enc(13)  # a rifle, armour and a wounded SIZ 13 comrade
    assert movement.move_m(load, 12) == 16 and movement.ENC_SKILLS == ("climb", "jump", "move_quietly")


# ---------------------------------------------------------------- III. Combat uses of EW (John Steel)
JOHN = Tacpack(generator=12, effectors=5, sensors=5)
JOHN_EW = Allocation(cm=2, sensors=2, dccm=3, dccm_target="Sauriki leader")


def test_ew_two_strategies() -> None:
    """III "Combat uses of electronic warfare": one program plus another action, or the whole round to program
    all three with any split (R-9.9)."""
    assert tacpack.refusal(JOHN, Allocation(cm=2, shots=3)) is None
    assert tacpack.refusal(JOHN, Allocation(cm=2, sensors=2, shots=3)) == (
        "R-9.9: one EW program a round with another action, or the whole round to program all three")


def test_john_steels_ew_split() -> None:
    """III, EXAMPLE: John set 2 effector points at CM, 2 sensor points at Sensor and the other 3 of each as DCCM
    at the missile's target, in the previous round (R-9.9, R-9.10)."""
    assert tacpack.refusal(JOHN, JOHN_EW, whole_round_programming=True) is None
    assert JOHN_EW.cm + JOHN_EW.dccm == JOHN.effectors and JOHN_EW.sensors + JOHN_EW.dccm == JOHN.sensors
    assert tacpack.refusal(JOHN, Allocation(cm=2, sensors=2, dccm=3, dccm_target="x", shots=1),
                           whole_round_programming=True) is not None  # that round he could not also fire
    assert tacpack.sensor_range_m(JOHN_EW.sensors) == 30  # "to make sure other Sauriki aren't about to jump him"
    # The Sauriki leader's seeker at John: his 2 CM take 20% off its acquisition.
    assert ew.acquisition(2, "John", []) == 80
    # John's 3 DCCM at the leader cancel up to 3 of its CM: a leader with 4 CM keeps 1 against John's seeker.
    beams = [(JOHN_EW, True)]
    assert ew.dccm_on("Sauriki leader", beams) == 3 and ew.acquisition(4, "Sauriki leader", beams) == 90
    assert ew.acquisition(2, "Sauriki leader", beams) == 100  # never below 0 CM
    assert ew.dccm_refusal(JOHN_EW, target_in_sight=False) is not None  # DCCM needs the target in sight
    assert ew.acquisition(4, "Sauriki leader", [(JOHN_EW, False)]) == 60
    # The seeker itself: d100 at or under 80 acquires (no to-hit roll), then 3D8.
    seeker = missiles.seeker_attack(2, 0, T.weapons["seeker_missile"])
    r = attack.resolve(Stacked(80, 8, 7, 6), seeker)
    assert (r.hit, r.damage) == (True, 21)
    assert not attack.resolve(Stacked(81), seeker).hit


# ---------------------------------------------------------------- III. Combat modifiers
def test_john_steel_halved_three_times_then_rolls() -> None:
    """III "Moving/covered target", EXAMPLE: heavy laser rifle at 80%; the Quertzl moves (40%), flies (20%) and
    uses trees (10%) (R-9.4). A 10 hits, an 11 misses; the heavy laser rifle's 3D6 land in full."""
    c = checks.attack_chance(80, {"moving_target", "target_in_air", "covered_target"})
    assert c.value == 10 and c.explain() == ("80% x1/2 (the target is moving) x1/2 (the target is partly covered) "
                                             "x1/2 (the target is in the air) = 10%")
    rifle = T.weapons["laser_heavy_rifle"]
    shot = Attack.of(c.value, rifle.damage or "1D6", rifle.damage_class, impales=rifle.impales)
    r = attack.resolve(Stacked(10, 4, 5, 6), shot)
    assert (r.hit, r.impale, r.damage) == (True, False, 15)
    assert attack.resolve(Stacked(11), shot).hit is False


@pytest.mark.parametrize(("conditions", "base", "value"), [
    ({"darkness"}, 60, 12),  # "Darkness": 1/5th his normal chance
    ({"knocked_down_attacker"}, 60, 30),  # "Knocked down": fighting from the ground with a melee weapon, half
    ({"knocked_down_target"}, 60, 80),  # an opponent using a melee weapon against him adds 20%
    ({"prone_firer"}, 60, 80),  # "Prone": firing from a prone position adds 20%
    ({"prone_target"}, 60, 30),  # a prone target halves the attacker's chance
    ({"surprised_target"}, 60, 120),  # "Caught by surprise": twice as easy to hit
    ({"moving_firer"}, 60, 30),  # "Moving attacker": halves his missile chance
])
def test_combat_modifiers(conditions: set[str], base: int, value: int) -> None:
    """III "Combat modifiers", each in turn (R-9.4)."""
    assert checks.attack_chance(base, conditions).value == value


def test_knock_downs_are_melee_only_and_prone_from_above() -> None:
    """III "Knocked down": "Regular missile weapon combat is unaffected by the knocked down situation on either
    side"; "Prone": halved "unless being attacked from a higher elevation" — a grav car 10 m up is (R-9.4)."""
    assert melee.condition_refusal({"knocked_down_target"}, melee=False) is not None
    assert melee.condition_refusal({"prone_firer"}, melee=True) is not None
    assert melee.melee_chance(60, {"knocked_down_attacker", "knocked_down_target"}).value == 50
    assert gravcar.from_above(gravcar.car_floor(0), 0) and not gravcar.from_above(1, 0)
    assert melee.may_stand(attacked_since_down=False) and not melee.may_stand(attacked_since_down=True)


def test_surprise_doubles_impale_and_96_still_misses() -> None:
    """III "Caught by surprise": twice as easy to hit, the chance to impale doubles, "A roll of 96-00 is still a
    miss" (R-9.4)."""
    plain, surprised = checks.attack_chance(50), checks.attack_chance(50, {"surprised_target"})
    assert (plain.impale, surprised.value, surprised.impale) == (10, 100, 20)
    pistol = T.weapons["heavy_pistol"]
    shot = Attack.of(surprised.value, pistol.damage or "1D6", "P", impales=True)
    assert attack.resolve(Stacked(20, 3, 4, 5, 6), shot).impale  # 20: an impale only because of surprise
    assert not attack.resolve(Stacked(96), shot).hit and not attack.resolve(Stacked(100), shot).hit
    assert attack.resolve(Stacked(95, 1, 1), shot).hit


# ---------------------------------------------------------------- III. Major wounds (John Steel)
def test_john_steels_major_wound() -> None:
    """III "Major wounds", EXAMPLE: John, 12 HP left after 5 points of minor wounds, takes an impaling projectile
    hit; armour and screen leave 6: exactly half, a major wound; he must roll 6 or less on d20 or fall, and a
    fallen John counts as knocked down (R-9.4, R-9.6, R-9.7)."""
    con, hp = 17, 17 - 5
    shot = Attack.of(60, T.weapons["heavy_pistol"].damage or "1D6", "P", impales=True, armour=NYLAR,
                     screen_type="kinetic", screen=3)
    r = attack.resolve(Stacked(7, 6, 6, 3, 3), shot)  # 7 <= 60/5: impale; 2D6 twice: 12 + 6
    (hit,) = r.hits
    assert r.impale and hit.rolls == (12, 6) and (hit.absorbed.armour, hit.absorbed.screen) == (9, 3)
    assert r.damage == 6 and damage.is_major_wound(hp, r.damage)
    hp -= r.damage
    assert damage.stays_up(Stacked(6), hp) == (6, True)
    assert damage.stays_up(Stacked(7), hp) == (7, False)  # he falls: only crawling or First Aid
    assert melee.melee_chance(40, {"knocked_down_target"}).value == 60
    assert damage.condition(hp, con) == "ok"


# ---------------------------------------------------------------- IV. Armour and force screens
@pytest.mark.parametrize(("armour", "p", "b", "l"), [("nylar", 9, 4, 5), ("tinsel", 2, 4, 9), ("chitin", 5, 10, 6),
                                                      ("ceramet", 7, 7, 7)])
def test_armour_table(armour: str, p: int, b: int, l: int) -> None:
    """IV "Armor": points off each hit of each type (R-9.6)."""
    stops = T.armour[armour].stops
    assert [damage.through_protection(20, c, stops, None, 0).through for c in "PBL"] == [20 - p, 20 - b, 20 - l]


def test_armour_and_screen_together_and_each_screens_class() -> None:
    """IV "Armor"/"Force screens": both protections modify the damage; kinetic stops impact, diffusion lasers,
    magnetic blasters, each point for point; none touches the others' classes (R-9.6)."""
    assert damage.through_protection(16, "P", NYLAR, "kinetic", 4).through == 3
    assert damage.through_protection(16, "L", NYLAR, "diffusion", 4).through == 7
    assert damage.through_protection(16, "B", NYLAR, "magnetic", 4).through == 8
    for screen, cls in (("kinetic", "L"), ("kinetic", "B"), ("diffusion", "P"), ("diffusion", "B"),
                        ("magnetic", "P"), ("magnetic", "L")):
        assert damage.through_protection(16, cls, None, screen, 10).screen == 0
    missile = missiles.guided_attack(20, T.weapons["guided_missile"], screen_type="diffusion", screen=20)
    assert missile.through(30).through == 30  # a diffusion screen "has no effect on projectiles, missiles"


def test_force_sword_against_armour_and_a_one_point_magnetic_screen() -> None:
    """IV "Armor": "No armor will even slow down a force sword"; "Magnetic screen": "Even a 1-point magnetic screen
    is an absolute defense against a force sword" (R-9.6). Rolled: d100 5 at 10%, 2D10 10 + 9."""
    sword = melee.melee_weapon(T.weapons["force_sword"])
    assert (sword.base_chance, str(sword.damage), sword.damage_class, sword.energy) == (10, "2D10", "F", 3)
    ceramet_kinetic = melee.melee_attack(sword, 10, armour=CERAMET, screen_type="kinetic", screen=30)
    assert attack.resolve(Stacked(5, 10, 9), ceramet_kinetic).damage == 19
    magnetic = melee.melee_attack(sword, 10, armour=CERAMET, screen_type="magnetic", screen=1)
    r = attack.resolve(Stacked(5, 10, 9), magnetic)
    assert r.hit and r.damage == 0 and r.hits[0].absorbed.screen == 19
    assert tacpack.refusal(Tacpack(generator=3), Allocation(shots=sword.energy)) is None  # a swing draws 3
    assert melee.swing_refusal(sword, 3) is None
    assert melee.swing_refusal(sword, 2) == "R-9.8: the force sword draws 3 points a swing, 2 allocated"


# ---------------------------------------------------------------- IV. Computers and EW
def test_computers_and_ew_ratings() -> None:
    """IV "Computers"/"Types of EW": 5 EW points per ENC; a 1-ENC sensor unit reaches 75 m (15 m a point); each
    CM point is 10% off a seeker's acquisition and off being registered; DCCM cancels CM to 0; a tool computer
    puts out no more EW than its generator's points (R-9.9)."""
    assert tacpack.module_enc(5) == 1 and tacpack.sensor_range_m(5) == 75
    assert T.equipment["sensors"].enc_at(5) == 1 and T.equipment["effectors"].enc_at(10) == 2
    assert [tacpack.seeker_acquisition(cm, 0) for cm in (0, 1, 3)] == [100, 90, 70]
    assert tacpack.net_cm(3, 5) == 0 and tacpack.seeker_acquisition(3, 5) == 100
    assert ew.detect_chance(75, 5, target_cm=3) == 70 and ew.detect_chance(76, 5, target_cm=0) == 0
    assert ew.detect_chance(10, 5, target_cm=0) == 95  # 96-00 fails a sensor's roll too
    assert ew.tool_computer_ew(10, 6) == 6


def test_force_screens_share_the_generator() -> None:
    """IV "Force screens": one screen type at a time, switchable each round; screen, energy weapon, EW and jump
    belt all draw on the one generator (R-9.8)."""
    pack = Tacpack(generator=10, effectors=5, sensors=5)
    assert tacpack.refusal(pack, Allocation(screen_type="magnetic", screen=4, shots=4, cm=2)) is None
    assert tacpack.refusal(pack, Allocation(screen_type="magnetic", screen=4, shots=4, cm=2, jump=1)) == (
        "R-9.8: 11 points allocated, the generator gives 10")
    assert T.equipment["tacpack"].enc_at(10) == 5  # a tacpack weighs 1 ENC per 2 points of generator


# ---------------------------------------------------------------- IV. Grav cars
@pytest.mark.parametrize(("car", "seats", "per_point", "top", "generator"), [
    ("scout_car", 3, 10, 500, 50), ("hauler", 20, 6, 300, 50), ("battlecar", 5, 2, 200, 100),
    ("explorer_hauler", 6, 6, 300, 50)])
def test_grav_car_table(car: str, seats: int, per_point: int, top: int, generator: int) -> None:
    """IV "Grav cars": carries, metres a melee round per generator point, speed, generator (R-9.12)."""
    c = T.grav_cars[car]
    assert (c.seats, c.m_per_energy, c.speed_m, c.generator) == (seats, per_point, top, generator)
    assert gravcar.move_m(c, gravcar.CarSplit()) == min(top, per_point * generator)


def test_the_scout_cars_movement() -> None:
    """IV "Scout car": 10 m a melee round per point, 500 m; "If the 30-point screen is up, it only will go at 200
    meters a melee round" (R-9.12)."""
    scout = T.grav_cars["scout_car"]
    assert gravcar.move_m(scout, gravcar.CarSplit()) == 500
    assert gravcar.move_m(scout, gravcar.CarSplit("kinetic", 30)) == 200
    assert gravcar.split_refusal(scout, gravcar.CarSplit("kinetic", 31)) == (
        "R-9.12: the scout car's screen takes at most 30 points")


def test_hauler_battlecar_and_explorer_slow_down() -> None:
    """IV "Hauler"/"Battlecar"/"Explorer hauler": energy used for anything else slows them; a full set of
    passengers halves the explorer hauler's speed (R-9.12)."""
    hauler, battle, explorer = (T.grav_cars[k] for k in ("hauler", "battlecar", "explorer_hauler"))
    assert gravcar.move_m(hauler, gravcar.CarSplit(weapons=10)) == 240
    assert gravcar.move_m(battle, gravcar.CarSplit("magnetic", 50, weapons=20)) == 60
    assert gravcar.move_m(explorer, gravcar.CarSplit(), riders=6) == 150
    assert gravcar.move_m(explorer, gravcar.CarSplit(ew=10), riders=5) == 240
    assert gravcar.car_armour(explorer, "cab") == {"P": 10, "B": 10, "L": 10}


def test_grav_cars_hover_10_m_and_no_slopes_over_45_degrees() -> None:
    """IV "Grav cars": "All grav cars travel about 10 meters above the local terrain, and they cannot travel up or
    down inclines greater than 45°" (R-9.12); from 10 m up a rider sees over a wall a figure behind it cannot."""
    assert gravcar.car_floor(3) == 13 and T.hover_m == gravcar.HOVER_M == 10
    assert gravcar.slope_ok(0, 4, 4) and not gravcar.slope_ok(0, 5, 4) and gravcar.slope_ok(8, 4, 4)
    assert gravcar.path_refusal([0, 2, 4, 10], 4) == ("R-9.12: a grav car cannot climb or descend over 45 degrees "
                                                      "(step 3: +6 m over 4 m)")
    wall = [(Fraction(9, 10), 2)]  # a 2 m wall 2 m in front of a figure 20 m away: its lower half hidden from 11 m
    assert gravcar.sight(2, 0, 2, wall) == "blocked"
    assert gravcar.sight(gravcar.car_floor(0) + gravcar.SEATED_EYE_M, 0, 2, wall) == "covered"
    assert gravcar.sight(gravcar.car_floor(0) + gravcar.SEATED_EYE_M, 0, 2, [(Fraction(1, 2), 2)]) == "clear"


def test_passengers_mount_and_dismount() -> None:
    """IV "Scout car": carries 3 (R-9.12)."""
    cab = gravcar.Cabin(T.grav_cars["scout_car"].seats)
    assert gravcar.drive_refusal(cab) is not None
    for name in ("Ada", "Bo", "Cy"):
        cab = gravcar.mount(cab, name, 1.5)
    assert cab.driver == "Ada" and gravcar.mount_refusal(cab, "Di", 1, False) == "R-9.12: all 3 seats are taken"
    assert gravcar.dismount_refusal(cab, "Bo", car_moves=True) is not None
    assert gravcar.dismount(cab, "Ada").driver == "Bo"


# ---------------------------------------------------------------- IV. Jump pack, medikit
def test_jump_pack() -> None:
    """IV "Jump pack": 20 m per energy point "even if fully encumbered"; each extra ENC point -40 m: 2 extra
    points (-80 m) and 5 energy (+100 m) leap 20 m (R-9.11)."""
    assert movement.jump_m(5, 14, 12) == 20
    assert movement.jump_m(3, 12, 12) == 60 and movement.jump_m(1, 15, 12) == 0


def test_medikit_and_the_march_of_death() -> None:
    """IV "Medikit": 1D6 a round at First Aid %; below 0 a figure loses 1 HP a round until twice below its CON
    ("a character with 15 CON ... at -15 hit points ... will be dead"); each use needs d100 <= CON x 5 (R-9.7)."""
    hp = 0
    for _ in range(14):
        hp = damage.bleed(hp)
    assert (hp, damage.condition(hp, 15)) == (-14, "unconscious")
    assert damage.condition(damage.bleed(hp), 15) == "dead"
    t = damage.medikit(Stacked(40, 75, 4), first_aid=50, con=15)
    assert (t.restored, t.killed, t.survival) == (4, False, 75)
    assert damage.medikit(Stacked(40, 76), first_aid=50, con=15).killed
    assert damage.medikit(Stacked(51, 10), first_aid=50, con=15).restored == 0


# ---------------------------------------------------------------- IV. Weapons table notes
def test_a_burst_hits_1d3_and_only_the_first_impales() -> None:
    """IV "Weapons table" ***: a burst rolls 1D3 for hits; on an impale only the first bullet impales; energy x3
    (R-9.5, R-9.8). Heavy assault gun 4D6 at 50%: d100 8 impales, 1D3 = 3."""
    gun = T.weapons["heavy_assault"]
    shot = Attack.of(50, gun.damage or "1D6", "P", impales=gun.impales, burst=gun.burst)
    rng = Stacked(8, 3, 1, 2, 3, 4, 4, 4, 4, 4, 6, 6, 6, 6, 1, 1, 1, 1)
    r = attack.resolve(rng, shot)
    assert r.impale and r.burst_roll == 3 and [h.rolls for h in r.hits] == [(10, 16), (24,), (4,)]
    assert rng.dice() == [100, 3] + [6] * 16 and r.damage == 54
    assert T.weapons["laser_heavy_assault"].shot_energy(burst=True) == 12


def test_missiles_need_line_of_sight_and_semi_portables() -> None:
    """IV "Weapons table" †: "the target must been seen to be fired at with these missiles"; semi-portables 20%
    on a tripod or mount, 5% hand-held (R-9.5, R-9.10)."""
    for m in ("guided_missile", "seeker_missile"):
        assert missiles.launch_refusal(T.weapons[m], in_sight=False) is not None
        assert missiles.launch_refusal(T.weapons[m], in_sight=True) is None
    assert missiles.launch_refusal(T.weapons["light_rifle"], in_sight=False) is None
    guided = missiles.guided_attack(20, T.weapons["guided_missile"], armour=CERAMET)
    assert attack.resolve(Stacked(20, 8, 8, 8, 8, 8), guided).damage == 33 and not attack.resolve(Stacked(21), guided).hit
    assert (T.weapons["semi_portable"].chance(True), T.weapons["semi_portable"].chance(False)) == (20, 5)


def test_grenades_and_the_photon_flash() -> None:
    """IV "Weapons table": grenades 45%, 15 m; concussion 3D6 in 3 m, fragmentation 4D6 in 6 m; "A photon grenade
    blinds anyone within the specified radius for 1D6 melee rounds unless the attacked character makes a luck
    roll" (R-9.10)."""
    frag = T.weapons["fragmentation_grenade"]
    assert missiles.throw_refusal(16, frag) is not None and missiles.throw_refusal(15, frag) is None
    hit = missiles.throw(Stacked(45), 45, (0, 0), (0, -12))
    assert hit.hit and hit.lands == (0, -12)
    miss = missiles.throw(Stacked(46, 12, 4), 45, (0, 0), (0, -12))  # 12 o'clock: 4 m beyond the point aimed at
    assert not miss.hit and miss.lands == pytest.approx((0, -16))
    back = missiles.throw(Stacked(99, 6, 5), 45, (0, 0), (0, -12))  # 6 o'clock: back towards the thrower
    assert back.lands == pytest.approx((0, -7))
    assert missiles.within((0, -10.5), miss.lands, frag.blast_radius_m)
    assert not missiles.within((0, -10.5), miss.lands, T.weapons["concussion_grenade"].blast_radius_m)
    rolled = missiles.blast_roll(Stacked(6, 6, 5, 5), frag)
    assert rolled == 22 and missiles.blast_attack(frag, armour=NYLAR).through(rolled).through == 13
    flash = missiles.photon_flash(Stacked(30, 71, 4), {"Ada": 50, "Bo": 70})
    assert flash == {"Ada": (30, 0), "Bo": (71, 4)}
    assert checks.attack_chance(60, {missiles.BLIND_CONDITION}).value == 12  # blinded: fights as in the dark


def test_medikit_first_aid_halts_the_march_of_death() -> None:
    """IV "Medikit": "Medikit First Aid successfully applied before then will halt the march of death;
    sufficient successful subsequent applications will bring the character to above +1 hit points, where he is
    able to function again" (R-9.7). A CON 15 figure at -6: a use at First Aid 50 (roll 30, survival 20, 1D6 4)."""
    hp = -6
    t = damage.medikit(Stacked(30, 20, 4), first_aid=50, con=15)
    assert not t.killed and t.restored == 4
    hp += t.restored
    assert damage.bleed(hp, treated=True) == -2 and damage.bleed(hp) == -3
    hp += damage.medikit(Stacked(30, 20, 3), first_aid=50, con=15).restored
    assert (hp, damage.condition(hp, 15)) == (1, "ok")
    assert T.equipment["medikit"].enc_at() == 1 and T.equipment["library_computer"].enc_at() == 8
