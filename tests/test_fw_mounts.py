"""Grav-car weapons (issue 13 item 7, R-9.12 with R-9.4, R-9.5, R-9.8): each car type's mounts as data checked on
load (C-6), a rider firing the car's mount at the mounted chance (a semi-portable's 20%, not 5% hand-held) with
fixed dice, the split's weapon points paying an energy weapon's burst (x3) and slowing the car, and the
refusals naming the rule."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from skirmish.ai.controllers import make_ai
from skirmish.ai.fw import arms
from skirmish.ai.fw import car as fw_car
from skirmish.content.errors import ContentError
from skirmish.content.fw import DATA_FILE, parse_fw_armoury
from skirmish.content.scenario import parse_scenario
from skirmish.ecs.fw_components import FwCar, FwRound
from skirmish.rules.actions import EndTurn
from skirmish.rulesets.fw import FwIntent, tables
from tests.conftest import cli
from tests.test_fw_battle import battle, chars, of
from tests.test_fw_grav import at_intent, grav_text

T = tables()


def rider(name: str, at: tuple[int, int], dex: int = 12, skills: str = "{rifle: 50}",
          weapons: str = "[heavy_rifle]") -> str:
    return (f"{{name: {name}, at: [{at[0]}, {at[1]}], characteristics: {chars(dex)}, skills: {skills},"
            f" weapons: {weapons}}}")


CREW = [rider("Rhee", (2, 2), 14), rider("Gun", (3, 2), 13), rider("Tamm", (1, 2), 11)]
HAULER = "[{name: Mule, type: hauler, at: [2, 1], riders: [Rhee, Gun]}]"
BATTLECAR = "[{name: Brute, type: battlecar, at: [2, 1], riders: [Rhee, Gun, Tamm]}]"
FOE = [rider("Cid", (11, 3), 15)]


def _raw() -> dict:
    text = (Path(__file__).resolve().parents[1] / "skirmish" / "data" / DATA_FILE).read_text(encoding="utf-8")
    return copy.deepcopy(yaml.safe_load(text))


# ---------------------------------------------------------------------------------------------- the data (C-6)
def test_every_car_type_has_its_offense_as_mounts() -> None:
    cars = T.grav_cars
    assert cars["scout_car"].mounts == ()  # "Offense - none"
    (gun,) = cars["hauler"].mounts  # "semi-portable support gun"
    assert gun.weapon == "semi_portable" and gun.crew == "passenger"
    brute = {m.id: m for m in cars["battlecar"].mounts}  # "various missiles, semi-portables, one major weapon"
    assert T.weapons[brute["main_gun"].weapon].vehicle and T.weapons[brute["main_gun"].weapon].energy == 15
    assert brute["guided_rack"].rounds == 6 and brute["seeker_rack"].weapon == "seeker_missile"
    (mount,) = cars["explorer_hauler"].mounts  # "mount for semi-portable"
    assert mount.weapon is None and mount.takes == "support"


@pytest.mark.parametrize(("path", "value", "where", "says"), [
    (("grav_cars", "hauler", "mounts", "support_gun", "weapon"), "railgun", "grav_cars.hauler.mounts.support_gun.weapon",
     "unknown weapon 'railgun'"),
    (("grav_cars", "hauler", "mounts", "support_gun", "weapon"), "force_sword",
     "grav_cars.hauler.mounts.support_gun.weapon", "is not fired from a mount"),
    (("grav_cars", "hauler", "mounts", "support_gun", "crew"), "cook", "grav_cars.hauler",
     "mounts.support_gun.crew: expected one of driver, passenger, any"),
    (("grav_cars", "battlecar", "mounts", "guided_rack", "rounds"), 0, "grav_cars.battlecar.mounts.guided_rack.rounds",
     "a missile mount loads its rounds"),
    (("grav_cars", "explorer_hauler", "mounts", "mount", "takes"), "catapult",
     "grav_cars.explorer_hauler.mounts.mount.takes", "no weapon of category 'catapult'"),
    (("car_weapons", "blaster_cannon", "class"), "grenade", "car_weapons.blaster_cannon", "a car weapon fires"),
])
def test_a_bad_mount_names_the_file_and_key(path: tuple[str, ...], value: object, where: str, says: str) -> None:
    raw = _raw()
    node = raw
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = value
    with pytest.raises(ContentError) as err:
        parse_fw_armoury(raw, "fw.yaml")
    assert err.value.file == "fw.yaml" and err.value.where == where and says in err.value.message


@pytest.mark.parametrize(("cars", "where", "says"), [
    ("[{name: Van, type: explorer_hauler, at: [2, 1], mounts: {turret: semi_portable}}]", "sides[0].cars[0].mounts.turret",
     "has no mount 'turret'"),
    ("[{name: Van, type: explorer_hauler, at: [2, 1], mounts: {mount: heavy_rifle}}]", "sides[0].cars[0].mounts.mount",
     "takes a support weapon, not a heavy rifle"),
    ("[{name: Mule, type: hauler, at: [2, 1], mounts: {support_gun: laser_semi_portable}}]",
     "sides[0].cars[0].mounts.support_gun", "only an empty mount takes a weapon"),
])
def test_a_scenarios_bad_mount_is_named_and_check_exits_2(tmp_path: Path, cars: str, where: str, says: str) -> None:
    with pytest.raises(ContentError) as err:
        parse_scenario(grav_text(CREW, FOE, cars), str(tmp_path / "t.yaml"), base=tmp_path)
    assert err.value.where == where and says in err.value.message
    path = tmp_path / "t.yaml"
    path.write_text(grav_text(CREW, FOE, cars), encoding="utf-8")
    code, _, err_text = cli("check", str(path))
    assert code == 2 and where in err_text and "Traceback" not in err_text


def test_a_unit_may_not_carry_a_cars_weapon(tmp_path: Path) -> None:
    crew = [rider("Rhee", (2, 2), weapons="[blaster_cannon]")]
    with pytest.raises(ContentError) as err:
        parse_scenario(grav_text(crew, FOE, "[]"), str(tmp_path / "t.yaml"), base=tmp_path)
    assert err.value.where == "sides[0].units[0].weapons[0]" and "a grav car's weapon" in err.value.message


# ---------------------------------------------------------------------------------------------- firing a mount
def test_the_haulers_support_gun_fires_mounted_at_20_percent_with_fixed_dice(tmp_path: Path) -> None:
    """R-9.5: a semi-portable's base chance is 20% on a mount (5% hand-held); the gunner has no support skill.
    The car sits still (nobody drives), so no moving-firer halving: 20%. d100 18 hits; a burst's 1d3 = 2 hits;
    5D6 each through Cid's no armour (his own screen none)."""
    orders = ["intent Gun burst target=Cid mount=support_gun"]
    dice = [18, 2, 1, 2, 3, 4, 5, 6, 6, 6, 6, 6]
    b = battle(tmp_path, grav_text(CREW, FOE, HAULER, orders), dice=dice)
    b.run()
    (decl,) = [e for e in of(b, "fw_declare") if e.actor == "Gun"]
    assert decl.mount == "Mule's support gun" and decl.weapon == "semi_portable" and "R-9.12" in decl.rules
    (shot,) = of(b, "fw_attack")
    assert shot.base == 20 and shot.chance == 20 and shot.roll == 18 and shot.hit and shot.burst_roll == 2
    assert shot.weapon == "semi_portable" and shot.mount == "Mule's support gun" and "R-9.12" in shot.rules
    assert [h["rolled"] for h in shot.damage] == [15, 30]
    assert "from the Mule's support gun" in shot.describe()


def test_the_same_gun_hand_held_on_foot_is_5_percent(tmp_path: Path) -> None:
    crew = [rider("Rhee", (2, 2), 14), rider("Gun", (9, 2), 13, skills="{}", weapons="[semi_portable]")]
    b = battle(tmp_path, grav_text(crew, FOE, "[]", ["intent Gun shoot target=Cid"]), dice=[4, 1, 1, 1, 1, 1])
    b.run()
    (shot,) = of(b, "fw_attack")
    assert shot.base == 5 and shot.hit and shot.mount is None


def test_a_riders_own_semi_portable_on_the_explorer_haulers_mount_fires_mounted(tmp_path: Path) -> None:
    crew = [rider("Rhee", (2, 2), 14), rider("Gun", (3, 2), 13, skills="{}", weapons="[heavy_rifle, semi_portable]")]
    van = "[{name: Van, type: explorer_hauler, at: [2, 1], riders: [Rhee, Gun]}]"
    b = battle(tmp_path, grav_text(crew, FOE, van), seed=2)
    at_intent(b, "Gun")
    r = b.check(FwIntent("Gun", "shoot", "Cid", mount="mount"))
    assert r is not None and r.rule == "R-9.12" and "is empty: name the weapon set on it" in r.reason
    r = b.check(FwIntent("Gun", "shoot", "Cid", weapon="heavy_rifle", mount="mount"))
    assert r is not None and "takes a support weapon, not a heavy rifle" in r.reason
    it = FwIntent("Gun", "shoot", "Cid", weapon="semi_portable", mount="mount")
    assert b.check(it) is None
    assert b.odds(it).chance == 20  # the preview (Battle.odds) at the mounted chance
    assert b.odds(FwIntent("Gun", "shoot", "Cid", weapon="semi_portable")).chance == 5


def test_the_split_pays_the_laser_semi_portables_burst_x3_and_slows_the_battlecar(tmp_path: Path) -> None:
    """R-9.8: an energy weapon's burst draws 3 x its energy a shot (the laser semi-portable's 6: 18 points) from
    the split's weapon points; R-9.12: the battlecar's points left after screen and weapons move it 2 m each."""
    b = battle(tmp_path, grav_text(CREW, FOE, BATTLECAR), seed=4)
    at_intent(b, "Rhee")
    b.submit(FwIntent("Rhee", "drive", car_screen="kinetic", car_points=50, car_weapons=18))
    b.submit(FwIntent("Gun", "burst", "Cid", mount="right_gun"))
    at_intent(b, "Tamm")
    (split,) = of(b, "fw_car_split")
    assert split.weapons == 18 and split.move_m == 2 * (100 - 50 - 18)  # 64 m, not 100
    c = b.world.peek(b.sys.ctx.cars[0], FwCar)
    assert c.drawn == 18 and c.gunners == {"right_gun": "Gun"}
    r = b.check(FwIntent("Tamm", "shoot", "Cid", mount="main_gun"))  # 15 more points: none left
    assert r is not None and r.rule == "R-9.8" and "weapons have 0 left of 18" in r.reason
    r = b.check(FwIntent("Tamm", "shoot", "Cid", mount="right_gun"))
    assert r is not None and r.rule == "R-9.12" and "Gun works the Brute's right gun this round" in r.reason
    b.submit(FwIntent("Tamm", "launch", "Cid", mount="guided_rack"))  # missiles draw no energy
    while b.pending is not None:
        b.submit(EndTurn(b.pending.unit) if b.pending.kind == "move" else b.sys.fallback(b.pending))
    gun = next(e for e in of(b, "fw_attack") if e.actor == "Gun")
    assert gun.energy == 18 and gun.mount == "Brute's right gun" and "R-9.8" in gun.rules
    launch = next(e for e in of(b, "fw_attack") if e.actor == "Tamm")
    assert launch.weapon == "guided_missile" and launch.base == 20
    assert b.world.peek(b.sys.ctx.cars[0], FwCar).fired == {"guided_rack": 1}


def test_a_drive_split_must_cover_the_mount_fire_already_declared(tmp_path: Path) -> None:
    crew = [rider("Gun", (3, 2), 13), rider("Rhee", (2, 2), 14)]  # the gunner declares first (scenario order)
    car = "[{name: Brute, type: battlecar, at: [2, 1], riders: [Rhee, Gun]}]"
    b = battle(tmp_path, grav_text(crew, FOE, car), seed=4)
    at_intent(b, "Gun")
    b.submit(FwIntent("Gun", "shoot", "Cid", mount="main_gun"))  # a still car: its generator's rest pays 15
    at_intent(b, "Rhee")
    r = b.check(FwIntent("Rhee", "drive", car_screen="kinetic", car_points=50, car_weapons=10))
    assert r is not None and r.rule == "R-9.8" and "draws 15 points from the Brute" in r.reason
    assert b.check(FwIntent("Rhee", "drive", car_screen="kinetic", car_points=50, car_weapons=15)) is None


def test_mount_refusals_name_the_rule(tmp_path: Path) -> None:
    b = battle(tmp_path, grav_text(CREW, FOE, BATTLECAR), seed=4)
    at_intent(b, "Rhee")
    r = b.check(FwIntent("Rhee", "shoot", "Cid", mount="main_gun"))
    assert r is not None and r.rule == "R-9.12" and "a passenger works its main gun" in r.reason
    assert b.check(FwIntent("Rhee", "launch", "Cid", mount="seeker_rack")) is None  # crew: any (the driver too)
    r = b.check(FwIntent("Rhee", "shoot", "Cid", mount="hatch"))
    assert r is not None and "has no mount 'hatch'" in r.reason
    r = b.check(FwIntent("Rhee", "drive", car_weapons=10, then="shoot", then_target="Cid", mount="guided_rack"))
    assert r is not None and r.rule == "R-9.4" and "cannot shoot" in r.reason  # a rack launches
    r = b.check(FwIntent("Rhee", "drive", car_screen="kinetic", car_points=50, then="launch", then_target="Cid",
                         mount="guided_rack"))
    assert r is None
    b.submit(FwIntent("Rhee", "none"))
    r = b.check(FwIntent("Gun", "dismount", then="shoot", then_target="Cid", mount="left_gun"))
    assert r is not None and "leaves the Brute before its DEX comes" in r.reason
    r = b.check(FwIntent("Gun", "melee", "Cid", mount="left_gun"))
    assert r is not None and r.rule == "R-9.12"
    walker = battle(tmp_path, grav_text(CREW, FOE, "[]"), seed=4)
    at_intent(walker, "Rhee")
    r = walker.check(FwIntent("Rhee", "shoot", "Cid", mount="support_gun"))
    assert r is not None and "rides no car" in r.reason


def test_the_rack_runs_out(tmp_path: Path) -> None:
    b = battle(tmp_path, grav_text(CREW, FOE, BATTLECAR), seed=4)
    at_intent(b, "Rhee")
    b.world.get(b.sys.ctx.cars[0], FwCar).fired["guided_rack"] = 6
    r = b.check(FwIntent("Rhee", "launch", "Cid", mount="guided_rack"))
    assert r is not None and r.rule == "R-9.10" and "no guided missile left" in r.reason


def test_the_listed_declarations_offer_the_mount_to_who_can_work_it(tmp_path: Path) -> None:
    b = battle(tmp_path, grav_text(CREW, FOE, HAULER), seed=4)
    at_intent(b, "Gun")
    listed = [a for a in b.legal_actions("Gun").actions() if isinstance(a, FwIntent) and a.mount]
    assert {(a.act, a.target, a.mount) for a in listed} == {("shoot", "Cid", "support_gun"),
                                                          ("burst", "Cid", "support_gun")}
    assert all(b.check(a) is None for a in listed)


def test_a_gunner_who_left_is_idle_at_its_dex(tmp_path: Path) -> None:
    b = battle(tmp_path, grav_text(CREW, FOE, HAULER), seed=4)
    at_intent(b, "Gun")
    b.submit(FwIntent("Gun", "shoot", "Cid", mount="support_gun"))
    b.world.get(b.sys.ctx.cars[0], FwCar).riders.remove("Gun")  # (as if it had been thrown out)
    while b.pending is not None:
        b.submit(EndTurn(b.pending.unit) if b.pending.kind == "move" else b.sys.fallback(b.pending))
    idle = [e for e in of(b, "fw_idle") if e.actor == "Gun"]
    assert idle and "no longer rides the car" in idle[0].reason


def test_the_intent_text_round_trips_with_its_mount() -> None:
    from skirmish.rules.actions import parse_action
    a = parse_action("intent Gun burst target=Cid mount=support_gun")
    assert isinstance(a, FwIntent) and a.mount == "support_gun" and parse_action(str(a)) == a


# ---------------------------------------------------------------------------------------------- the AI
NEAR = [rider("Cid", (6, 1), 15)]  # in plain sight of the car at 2,1 along the open top row


def test_the_utility_gunner_fires_the_support_gun_from_the_car(tmp_path: Path) -> None:
    """On a hand-built view: the gunner has support 60 (the support gun's 5D6 burst at 60% beats its heavy rifle's
    single shot) and the utility AI declares the burst from the hauler's mount; `mount_options` weighs it at the
    mounted chance and the battle accepts it."""
    crew = [rider("Rhee", (2, 2), 14), rider("Gun", (3, 2), 13, skills="{rifle: 40, support: 60}")]
    b = battle(tmp_path, grav_text(crew, NEAR, HAULER), seed=5)
    at_intent(b, "Rhee")
    b.submit(FwIntent("Rhee", "none"))
    at_intent(b, "Gun")
    view = b.observe("Blue")
    me = view.unit("Gun")
    opts = arms.mount_options(view, me, view.enemies(me), 1.0, {}, {})
    assert {(a.intent.act, a.intent.mount) for a in opts} == {("shoot", "support_gun"), ("burst", "support_gun")}
    assert all("mounted 60%" in a.why and a.energy == 0 for a in opts)
    ai = make_ai("utility", "fw")
    req = b.pending
    assert req is not None
    action = ai.decide(view, req)
    assert isinstance(action, FwIntent) and action.mount == "support_gun" and action.act == "burst", action
    assert b.check(action) is None


def test_a_driving_ai_keeps_weapon_points_for_the_energy_mounts(tmp_path: Path) -> None:
    """The battlecar's split (ai/fw/car.py): its main gun (15 a shot) and laser semi-portable (6 x 3 a burst) reach
    Cid, so a drive keeps 33 weapon points and its screen takes what is left of them (R-9.8, R-9.12)."""
    b = battle(tmp_path, grav_text(CREW, NEAR, BATTLECAR), seed=5)
    at_intent(b, "Rhee")
    view = b.observe("Blue")
    me = view.unit("Rhee")
    car = fw_car.car_of(me)
    assert car is not None and [m.id for m in car.mounts][:3] == ["main_gun", "left_gun", "right_gun"]
    assert fw_car.mount_reserve(view, me, car, FwIntent("Rhee")) == 15 + 18
    (drive,) = [o.intent for o in fw_car.options(view, me, FwIntent("Rhee")) if o.label == "drive toward the enemy"]
    assert drive.car_weapons == 33 and drive.car_points == 50 and b.check(drive) is None
    b.submit(drive)
    at_intent(b, "Gun")
    assert b.check(FwIntent("Gun", "shoot", "Cid", mount="main_gun")) is None  # paid from the 33 kept


def test_a_weapon_the_scenario_sets_on_the_explorer_haulers_mount_fires_on_the_cars_energy(tmp_path: Path) -> None:
    """`mounts: {mount: laser_semi_portable}`: the gunner fires it without carrying it; the car does not drive, so
    its generator's rest after its 30-point screen (20) pays the burst's 18 (R-9.8), not the gunner's tacpack."""
    van = ("[{name: Van, type: explorer_hauler, at: [2, 1], riders: [Rhee, Gun, Tamm], screen: kinetic, "
           "screen_points: 30, mounts: {mount: laser_semi_portable}}]")
    b = battle(tmp_path, grav_text(CREW, NEAR, van), seed=3)
    at_intent(b, "Rhee")
    b.submit(FwIntent("Rhee", "none"))
    it = FwIntent("Gun", "burst", "Cid", mount="mount")
    assert b.check(it) is None and b.odds(it).chance == 20
    b.submit(it)
    c = b.world.peek(b.sys.ctx.cars[0], FwCar)
    assert c.drawn == 18 and b.world.peek(b.world.entity("Gun"), FwRound).shots == 0
    view = b.observe("Blue")
    (m,) = fw_car.car_of(view.unit("Tamm")).mounts  # type: ignore[union-attr]
    assert (m.weapon, m.gunner) == ("laser_semi_portable", "Gun")
    while b.pending is not None:
        b.submit(EndTurn(b.pending.unit) if b.pending.kind == "move" else b.sys.fallback(b.pending))
    (shot,) = [e for e in of(b, "fw_attack") if e.actor == "Gun"]
    assert shot.weapon == "laser_semi_portable" and shot.energy == 18 and shot.mount == "Van's semi-portable mount"


# ---------------------------------------------------------------------------------------------- review8b
def test_a_riders_missile_is_not_launched_from_an_empty_mount(tmp_path: Path) -> None:
    """review8b: a guided missile is a `support` weapon, so the explorer hauler's empty mount took it, and a missile
    launched from a mount is counted off the mount's rack (an empty mount has none) and never off the rider: one
    missile launched round after round (R-9.10: used up when fired). An empty mount takes a gun; the missile is
    launched by its carrier (refused by name, not listed, and a scenario may not bolt one there)."""
    crew = [rider("Rhee", (2, 2), 14), rider("Gun", (3, 2), 13, skills="{support: 60}", weapons="[guided_missile]"),
            rider("Tamm", (1, 2), 11)]
    van = "[{name: Van, type: explorer_hauler, at: [2, 1], riders: [Rhee, Gun, Tamm]}]"
    b = battle(tmp_path, grav_text(crew, NEAR, van, max_rounds=3), seed=3)
    at_intent(b, "Gun")
    r = b.check(FwIntent("Gun", "launch", "Cid", weapon="guided_missile", mount="mount"))
    assert r is not None and r.rule == "R-9.12" and "guided missile" in r.reason
    assert not [a for a in b.legal_actions("Gun").actions() if isinstance(a, FwIntent) and a.mount]
    view = b.observe("Blue")
    me = view.unit("Gun")
    assert arms.mount_options(view, me, view.enemies(me), 1.0, {}, {}) == []
    assert b.check(FwIntent("Gun", "launch", "Cid", weapon="guided_missile")) is None  # from the hand, as ever
    bolted = van.replace("riders: [Rhee, Gun, Tamm]", "riders: [Rhee, Gun, Tamm], mounts: {mount: guided_missile}")
    with pytest.raises(ContentError) as err:
        parse_scenario(grav_text(crew, NEAR, bolted), str(tmp_path / "t.yaml"), base=tmp_path)
    assert err.value.where == "sides[0].cars[0].mounts.mount" and "guided missile" in err.value.message


def test_the_fw_search_weighs_a_mount_burst_with_the_mounts_gun(tmp_path: Path) -> None:
    """review8b: the fw search's exchange took the chance a mount fire puts its target down (the replies it saves)
    from the rider's own first firearm at its hand-held chance, here a light pistol "burst" (10%), not the hauler's
    support gun fired mounted (59%, `estimate.shot(..., mounted=True)`, as `arms.mount_options` weighs it)."""
    from skirmish.ai.fw import estimate as est
    from skirmish.ai.fw.search import FwSearchAI

    crew = [rider("Rhee", (2, 2), 14), rider("Gun", (3, 2), 13, skills="{rifle: 40, support: 60}",
                                            weapons="[light_pistol]")]
    b = battle(tmp_path, grav_text(crew, NEAR, HAULER), seed=5)
    at_intent(b, "Rhee")
    b.submit(FwIntent("Rhee", "none"))
    at_intent(b, "Gun")
    view = b.observe("Blue")
    me, cid = view.unit("Gun"), view.unit("Cid")
    burst = FwIntent("Gun", "burst", "Cid", weapon="semi_portable", mount="support_gun")
    assert b.check(burst) is None
    mounted = est.shot(view, me, T.weapons["semi_portable"], me.cell, cid, cid.cell, burst=True, mounted=True).down
    hand = est.shot(view, me, T.weapons["light_pistol"], me.cell, cid, cid.cell).down
    assert mounted > 0.5 > 0.1 > hand
    assert FwSearchAI()._attack(view, me, burst, me.cell, False) == ("Cid", mounted)
    unnamed = FwIntent("Gun", "burst", "Cid", mount="support_gun")  # the mount's own gun, named by the car's data
    assert b.check(unnamed) is None and FwSearchAI()._attack(view, me, unnamed, me.cell, False) == ("Cid", mounted)
