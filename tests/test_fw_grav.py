"""Grav cars in the Future*World engine (issue 13 item 7, R-9.12): a scenario places a car (checked on load), its
driver's split never above G, the car flies its metres with its riders, mount and dismount with their refusals, a
car without a driver stays put, riders under the car's armour and screen, and sight and cover in the vertical
(a car 10 m up sees over a wall lower than its floor; a rider fires at a prone figure "from above")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.battle import Battle
from skirmish.content.errors import ContentError
from skirmish.content.scenario import parse_scenario
from skirmish.rules.actions import EndTurn, Move
from skirmish.rulesets.fw import FwIntent, tables
from tests.conftest import cli
from tests.test_fw_battle import battle, chars, of

T = tables()
ROWS = ["##############", "#,,,,,,,,,,,,#", "#,,,,,,#,,,,,#", "#,,,,,,#,,,,,#", "#,,,,,,#,,,,,#", "##############"]


def unit(name: str, at: tuple[int, int], dex: int = 12, extra: str = "") -> str:
    return (f"{{name: {name}, at: [{at[0]}, {at[1]}], characteristics: {chars(dex)}, skills: {{rifle: 50}},"
            f" weapons: [heavy_rifle]{extra}}}")


def grav_text(blue: list[str], red: list[str], cars: str, blue_orders: list[str] = (),  # type: ignore[assignment]
              red_orders: list[str] = (), rows: list[str] = ROWS, max_rounds: int = 1,  # type: ignore[assignment]
              heights: str = "{}", ground: list[str] | None = None) -> str:
    layer = f", ground: {ground!r}" if ground is not None else ""
    return (f"name: t\nruleset: fw\nseed: 3\noptions: {{heights: {heights}{layer}}}\nmap: {{ascii: {rows!r}}}\n"
            f"victory: {{max_rounds: {max_rounds}}}\nsides:\n"
            f"  - name: Blue\n    controller: scripted\n    orders: {list(blue_orders)!r}\n    cars: {cars}\n"
            f"    units: [{', '.join(blue)}]\n"
            f"  - name: Red\n    controller: scripted\n    orders: {list(red_orders)!r}\n    units: [{', '.join(red)}]\n")


CREW = [unit("Rhee", (2, 2), 14), unit("Ost", (3, 2), 13), unit("Tamm", (1, 2), 11)]
SKIFF = "[{name: Skiff, type: scout_car, at: [2, 1], riders: [Rhee, Ost], screen: kinetic, screen_points: 30}]"
FOE = [unit("Cid", (11, 3), 15)]


def at_intent(b: Battle, name: str) -> None:
    """Answer every request before `name`'s declaration with the fallback (no action, usual screen)."""
    while b.pending is not None and not (b.pending.kind == "intent" and b.pending.unit == name):
        b.submit(b.sys.fallback(b.pending))
    assert b.pending is not None


# ---------------------------------------------------------------------------------------------- load (C-6)
@pytest.mark.parametrize(("cars", "where", "says"), [
    ("[{name: Skiff, type: sled, at: [2, 1]}]", "sides[0].cars[0].type", "unknown grav car 'sled'"),
    ("[{name: Skiff, type: scout_car, at: [2, 1], riders: [Cid]}]", "sides[0].cars[0].riders[0]",
     "'Cid' is not a unit of side 'Blue'"),
    ("[{name: Skiff, type: scout_car, at: [2, 1], riders: [Rhee, Ost, Tamm, Rhee]}]", "sides[0].cars[0].riders",
     "4 riders, the scout car seats 3"),
    ("[{name: Skiff, type: scout_car, at: [7, 3]}]", "sides[0].cars[0].at", "cell 7,3 is wall"),
    ("[{name: Skiff, type: scout_car, at: [2, 2]}]", "sides[0].cars[0].at", "cell 2,2 is taken by Rhee"),
    ("[{name: Skiff, type: scout_car, at: [5, 1], riders: [Rhee]}]", "sides[0].cars[0].riders[0]",
     "a rider boards within 2 m of the car"),
    ("[{name: Skiff, type: scout_car, at: [2, 1], screen: kinetic, screen_points: 31}]",
     "sides[0].cars[0].screen_points", "at most 30 points"),
])
def test_a_car_is_checked_on_load_naming_the_key(tmp_path: Path, cars: str, where: str, says: str) -> None:
    with pytest.raises(ContentError) as err:
        parse_scenario(grav_text(CREW, FOE, cars), str(tmp_path / "t.yaml"), base=tmp_path)
    assert err.value.where == where and says in err.value.message


def test_heights_name_the_maps_terrain_and_check_exits_2(tmp_path: Path) -> None:
    path = tmp_path / "t.yaml"
    path.write_text(grav_text(CREW, FOE, SKIFF, heights="{tower: 20}"), encoding="utf-8")
    code, _, err = cli("check", str(path))
    assert code == 2 and "options.heights.tower: no terrain 'tower' on this map" in err
    assert "Traceback" not in err


# ---------------------------------------------------------------------------------------------- the split
def test_a_split_above_the_generator_or_the_screen_is_refused(tmp_path: Path) -> None:
    b = battle(tmp_path, grav_text(CREW, FOE, SKIFF))
    at_intent(b, "Rhee")
    r = b.check(FwIntent("Rhee", "drive", car_screen="kinetic", car_points=30, car_weapons=21))
    assert r is not None and r.rule == "R-9.12" and "51 points split, the scout car's generator gives 50" in r.reason
    r = b.check(FwIntent("Rhee", "drive", car_screen="kinetic", car_points=31))
    assert r is not None and "screen takes at most 30 points" in r.reason
    r = b.check(FwIntent("Rhee", "drive", car_ew=1))
    assert r is not None and "has 0 EW points" in r.reason
    r = b.check(FwIntent("Rhee", "shoot", "Cid", car_points=5, car_screen="kinetic"))
    assert r is not None and "comes with its driver's drive" in r.reason
    assert b.check(FwIntent("Rhee", "drive", car_screen="kinetic", car_points=30, car_weapons=20)) is None


@settings(max_examples=60, deadline=None)
@given(screen=st.integers(0, 40), weapons=st.integers(0, 60), ew=st.integers(0, 3))
def test_the_split_is_never_above_g_and_moves_the_rest(tmp_path_factory: pytest.TempPathFactory, screen: int,
                                                       weapons: int, ew: int) -> None:
    b = battle(tmp_path_factory.mktemp("g"), grav_text(CREW, FOE, SKIFF))
    at_intent(b, "Rhee")
    it = FwIntent("Rhee", "drive", car_screen="kinetic" if screen else "none", car_points=screen, car_weapons=weapons,
                  car_ew=ew)
    ok = screen <= 30 and ew == 0 and screen + weapons <= 50
    assert (b.check(it) is None) == ok
    if ok:
        b.submit(it)
        (split,) = of(b, "fw_car_split")
        assert split.move_m == min(500, 10 * (50 - screen - weapons)) and split.rules == ("R-9.12",)


# ---------------------------------------------------------------------------------------------- flying
def test_the_scout_cars_movement_example_and_a_flight_carrying_its_riders(tmp_path: Path) -> None:
    """Seed 004: the scout car's 50 points give 500 m; with the 30-point screen up, 200 m (R-9.12)."""
    orders = ["intent Rhee drive car_screen=kinetic car_points=30 then=shoot then_target=Cid", "intent Ost shoot target=Cid",
              "move Rhee 10,1"]
    b = battle(tmp_path, grav_text(CREW, FOE, SKIFF, orders, ["intent Cid shoot target=Ost"]), seed=1)
    b.run()
    (split,) = of(b, "fw_car_split")
    assert (split.screen, split.screen_points, split.move_m) == ("kinetic", 30, 200)
    (drive,) = of(b, "fw_drive")
    assert drive.path == [[2, 1], [10, 1]] and drive.metres == 16.0 and drive.allowance == 200.0
    assert drive.riders == ["Rhee", "Ost"] and drive.rules == ("R-9.2", "R-9.12")
    v = b.view()
    assert v.unit("Rhee").cell == v.unit("Ost").cell == (10, 1) and v.unit("Tamm").cell == (1, 2)
    shots = {a.actor: a for a in of(b, "fw_attack")}
    assert any("firer moves" in s["reason"] for s in shots["Ost"].steps)  # it flew: a moving firer
    assert any("target is moving" in s["reason"] for s in shots["Cid"].steps)
    (all_move,) = [e for e in b.log.events if e.type == "fw_car_split"]
    assert all_move.describe().startswith("R1 Rhee drives the Skiff (scout car, generator 50): screen kinetic 30")


def test_all_fifty_points_give_five_hundred_metres_and_a_flight_beyond_its_metres_is_refused(tmp_path: Path) -> None:
    b = battle(tmp_path, grav_text(CREW, FOE, SKIFF))
    at_intent(b, "Rhee")
    b.submit(FwIntent("Rhee", "drive"))
    assert of(b, "fw_car_split")[0].move_m == 500
    b = battle(tmp_path, grav_text(CREW, FOE, SKIFF))
    at_intent(b, "Rhee")
    b.submit(FwIntent("Rhee", "drive", car_screen="kinetic", car_points=30, car_weapons=19))  # 1 point: 10 m
    while b.pending is not None and not (b.pending.kind == "move" and b.pending.unit == "Rhee"):
        assert b.pending.unit != "Ost" or b.pending.kind != "move", "a passenger is not asked to move"
        b.submit(b.sys.fallback(b.pending))
    assert b.pending is not None
    r = b.check(Move("Rhee", (8, 1)))
    assert r is not None and r.rule == "R-9.12" and "12.0 m is beyond the Skiff's 10 m" in r.reason
    assert (8, 1) not in b.legal_actions("Rhee").walk and (7, 1) in b.legal_actions("Rhee").walk
    b.submit(Move("Rhee", (7, 1)))
    assert b.view().unit("Ost").cell == (7, 1)


def test_a_car_without_a_driver_stays_put_and_a_wall_as_tall_as_its_floor_stops_it(tmp_path: Path) -> None:
    empty = "[{name: Skiff, type: scout_car, at: [2, 1]}]"
    b = battle(tmp_path, grav_text(CREW, FOE, empty))
    at_intent(b, "Rhee")
    r = b.check(FwIntent("Rhee", "drive"))
    assert r is not None and "at no car's controls" in r.reason
    b = battle(tmp_path, grav_text(CREW, FOE, SKIFF, heights="{wall: 10}"))
    at_intent(b, "Rhee")
    b.submit(FwIntent("Rhee", "drive"))
    while b.pending is not None and b.pending.unit != "Rhee":
        b.submit(b.sys.fallback(b.pending))
    r = b.check(Move("Rhee", (10, 3)))
    assert r is not None and "cannot pass wall 10 m tall at 7,2" in r.reason


# ---------------------------------------------------------------------------------------------- boarding
def test_mount_and_dismount_refusals(tmp_path: Path) -> None:
    b = battle(tmp_path, grav_text(CREW, FOE, SKIFF))
    at_intent(b, "Rhee")
    r = b.check(FwIntent("Rhee", "mount", "Skiff"))
    assert r is not None and (r.rule, r.reason) == ("R-9.12", "Rhee is already aboard the Skiff")
    b.submit(FwIntent("Rhee", "drive"))
    at_intent(b, "Ost")
    r = b.check(FwIntent("Ost", "dismount"))
    assert r is not None and r.reason == "the car sets down to unload and does not move this round"
    r = b.check(FwIntent("Ost", "drive"))
    assert r is not None and "Ost is at no car's controls" in r.reason
    b.submit(FwIntent("Ost"))
    at_intent(b, "Tamm")
    r = b.check(FwIntent("Tamm", "mount", "Skiff"))
    assert r is not None and "sets down to load" in r.reason
    r = b.check(FwIntent("Tamm", "dismount"))
    assert r is not None and "Tamm rides no car" in r.reason
    # A boarding declared first sets the car down: its driver may not drive then.
    crew = [unit("Ost", (3, 2), 13), unit("Rhee", (2, 2), 14), unit("Tamm", (1, 2), 11)]
    b = battle(tmp_path, grav_text(crew, FOE, SKIFF))
    at_intent(b, "Ost")
    b.submit(FwIntent("Ost", "dismount"))
    r = b.check(FwIntent("Rhee", "drive"))
    assert r is not None and "sets down this round" in r.reason


def test_a_full_car_and_a_far_one_refuse_a_rider(tmp_path: Path) -> None:
    full = "[{name: Skiff, type: scout_car, at: [2, 1], riders: [Rhee, Ost, Tamm]}]"
    far = [unit("Rhee", (2, 2), 14), unit("Ost", (3, 2), 13), unit("Tamm", (12, 4), 11)]
    b = battle(tmp_path, grav_text([*CREW, unit("Bo", (3, 1))], FOE, full))
    at_intent(b, "Bo")
    r = b.check(FwIntent("Bo", "mount", "Skiff"))
    assert r is not None and r.reason == "all 3 seats are taken"
    b = battle(tmp_path, grav_text(far, FOE, SKIFF))
    at_intent(b, "Tamm")
    r = b.check(FwIntent("Tamm", "mount", "Skiff"))
    assert r is not None and "Tamm must be within 2 m of the car to board" in r.reason


def test_riders_leave_and_board_at_their_dex_and_the_next_rider_drives(tmp_path: Path) -> None:
    orders = ["intent Rhee dismount", "intent Tamm mount target=Skiff"]
    b = battle(tmp_path, grav_text(CREW, FOE, SKIFF, orders, max_rounds=2), seed=1)
    b.run()
    boards = [(e.actor, e.act, e.cell, e.driver, e.phase) for e in of(b, "fw_board")]
    assert boards == [("Rhee", "dismount", [3, 1], "Ost", 14), ("Tamm", "mount", [2, 1], "Ost", 11)]
    v = b.view()
    assert v.unit("Rhee").cell == (3, 1) and v.unit("Tamm").cell == v.unit("Ost").cell == (2, 1)
    car = v.unit("Ost").ext.cars[0]
    assert car.riders == ("Ost", "Tamm") and car.driver == "Ost" and v.unit("Tamm").ext.aboard == "Skiff"
    assert v.unit("Rhee").ext.aboard is None


# ---------------------------------------------------------------------------------------------- the vertical
SIGHT_ROWS = ["##############", "#,,,,,,,,,,,,#", "#,,,,,,#,,,,,#", "#,,,,,,#,,,,,#", "#,,,,,,#,,,,,#",
              "##############"]


def test_a_car_sees_over_a_wall_lower_than_its_floor_and_not_over_a_taller_one(tmp_path: Path) -> None:
    cars = "[{name: Skiff, type: scout_car, at: [5, 3], riders: [Rhee]}]"
    crew = [unit("Rhee", (5, 2), 14), unit("Ost", (6, 3), 13)]
    red = [unit("Cid", (9, 3), 10)]
    b = battle(tmp_path, grav_text(crew, red, cars))
    s = b.sys
    rhee, ost, cid = (b.world.entity(n) for n in ("Rhee", "Ost", "Cid"))
    assert not s.sees(ost, cid).visible  # on the ground, the wall at 7,3 hides Cid
    assert s.sees(rhee, cid).visible and s.sees(cid, rhee).visible  # 11 m up over a 4 m wall, and seen back
    assert "Cid" in b.knowledge.seen["Blue"]  # the side sees him through the rider (fog of war)
    assert not b.observe("Blue").unit("Cid").ghost
    tall = battle(tmp_path, grav_text(crew, red, cars, heights="{wall: 12}"))
    assert not tall.sys.sees(tall.world.entity("Rhee"), tall.world.entity("Cid")).visible


def test_a_figure_hugging_a_wall_is_covered_from_the_car_and_a_prone_one_is_shot_from_above(tmp_path: Path) -> None:
    cars = "[{name: Skiff, type: scout_car, at: [2, 3], riders: [Rhee]}]"
    crew = [unit("Rhee", (2, 2), 14)]
    red = [unit("Cid", (8, 3), 10), unit("Dan", (10, 1), 9, ", prone: true")]
    b = battle(tmp_path, grav_text(crew, red, cars, ["intent Rhee shoot target=Dan"], heights="{wall: 2}"), seed=2)
    s = b.sys
    rhee, cid = b.world.entity("Rhee"), b.world.entity("Cid")
    sight = s.sees(rhee, cid)
    assert sight.visible and sight.cover == "low"  # the 2 m wall before him hides a quarter or more of him
    assert s.sees(cid, rhee).visible  # and he sees the car over it
    b.sys.ctx.height_names["wall"] = 4  # (a 4 m wall hides all of him from 11 m up, 12 m away)
    assert not s.sees(rhee, cid).visible
    b.sys.ctx.height_names["wall"] = 2
    b.run()
    (shot,) = [a for a in of(b, "fw_attack") if a.actor == "Rhee"]
    reasons = [st_["reason"] for st_ in shot.steps]
    assert not any("prone" in r for r in reasons)  # from a higher elevation: the prone target is not halved
    on_foot = battle(tmp_path, grav_text([unit("Rhee", (2, 2), 14)], red, "[]", ["intent Rhee shoot target=Dan"]), seed=2)
    on_foot.run()
    (shot,) = [a for a in of(on_foot, "fw_attack") if a.actor == "Rhee"]
    assert any("prone" in st_["reason"] for st_ in shot.steps)  # the same shot from the ground is halved


def test_riders_take_the_cars_screen_and_armour(tmp_path: Path) -> None:
    hauler = "[{name: Mule, type: hauler, at: [2, 1], riders: [Rhee]}]"
    crew = [unit("Rhee", (2, 2), 14, ", armour: [nylar]")]
    b = battle(tmp_path, grav_text(crew, FOE, hauler))
    stops = b.sys.armour_of(b.world.entity("Rhee"))
    nylar = T.armour["nylar"].stops
    assert stops == {c: nylar[c] + 10 for c in ("P", "B", "L")}  # the hauler's 10 points of ceramet on top
    b = battle(tmp_path, grav_text(CREW, FOE, SKIFF))
    assert b.sys.screen_of(b.world.entity("Ost")) == ("kinetic", 30)  # the car's screen, not its own
    assert b.sys.screen_of(b.world.entity("Tamm")) == (None, 0)


def test_riders_are_never_engaged_and_nobody_strikes_or_throws_at_them(tmp_path: Path) -> None:
    red = [unit("Cid", (3, 1), 10, ", weapons: [heavy_rifle, force_sword, fragmentation_grenade]")]
    b = battle(tmp_path, grav_text(CREW, red, SKIFF))
    assert not b.sys.engaged(b.world.entity("Ost")) and not b.sys.engaged(b.world.entity("Cid"))
    at_intent(b, "Cid")
    r = b.check(FwIntent("Cid", "melee", "Ost", weapon="force_sword"))
    assert r is not None and "out of reach of a strike" in r.reason
    r = b.check(FwIntent("Cid", "throw", "Ost", weapon="fragmentation_grenade"))
    assert r is not None and "out of reach of a grenade" in r.reason


def test_a_passenger_is_not_asked_to_move_and_the_listed_car_declarations_are_accepted(tmp_path: Path) -> None:
    b = battle(tmp_path, grav_text(CREW, FOE, SKIFF))
    at_intent(b, "Rhee")
    listed = [it for it in b.legal_actions("Rhee").actions() if isinstance(it, FwIntent)]
    assert any(it.act == "drive" and it.car_points == 30 for it in listed) and any(it.act == "dismount" for it in listed)
    for it in listed:
        assert b.check(it) is None, it
    b.submit(FwIntent("Rhee", "drive"))
    asked = []
    while b.pending is not None and b.pending.kind in ("intent", "move"):
        asked.append((b.pending.kind, b.pending.unit))
        if b.pending.kind == "move" and b.pending.unit == "Rhee":
            b.submit(EndTurn("Rhee"))
            break
        b.submit(b.sys.fallback(b.pending))
    assert ("move", "Ost") not in asked and ("move", "Rhee") in asked


# ---------------------------------------------------------------------------------------------- ground and slopes
HILL = ["00000000000000", "00000000002600", "00000000000000", "00000000000000", "00000000000000",
        "00000000000000"]


@pytest.mark.parametrize(("ground", "where", "says"), [
    (HILL[:3], "options.ground", "3 rows, the map has 6"),
    ([*HILL[:5], "0000"], "options.ground[5]", "4 cells, the map is 14 wide"),
    ([*HILL[:5], "0000000000000x"], "options.ground", "expected one digit (metres 0-9) a cell"),
])
def test_a_ground_layer_is_checked_on_load(tmp_path: Path, ground: list[str], where: str, says: str) -> None:
    with pytest.raises(ContentError) as err:
        parse_scenario(grav_text(CREW, FOE, SKIFF, ground=ground), str(tmp_path / "t.yaml"), base=tmp_path)
    assert err.value.where.startswith(where) and says in err.value.message


def test_no_slope_over_45_degrees_for_a_car(tmp_path: Path) -> None:
    """R-9.12: the ground rises 2 m from 9,1 to 10,1 (2 m cells: 45 degrees, allowed) and 4 m from 10,1 to 11,1."""
    b = battle(tmp_path, grav_text(CREW, FOE, SKIFF, ground=HILL))
    at_intent(b, "Rhee")
    b.submit(FwIntent("Rhee", "drive"))
    while b.pending is not None and b.pending.unit != "Rhee":
        b.submit(b.sys.fallback(b.pending))
    assert b.check(Move("Rhee", (10, 1))) is None
    r = b.check(Move("Rhee", (12, 1)))
    assert r is not None and r.rule == "R-9.12" and "over 45 degrees (+4 m over 2 m from 10,1 to 11,1)" in r.reason
    assert (10, 1) in b.legal_actions("Rhee").walk and (12, 1) not in b.legal_actions("Rhee").walk
    flat = battle(tmp_path, grav_text(CREW, FOE, SKIFF))
    at_intent(flat, "Rhee")
    flat.submit(FwIntent("Rhee", "drive"))
    while flat.pending is not None and flat.pending.unit != "Rhee":
        flat.submit(flat.sys.fallback(flat.pending))
    assert flat.check(Move("Rhee", (12, 1))) is None  # a flat map never refuses for slope


def test_higher_ground_shoots_from_above(tmp_path: Path) -> None:
    ground = ["00000000000000", "03000000000000", "00000000000000", "00000000000000", "00000000000000",
              "00000000000000"]
    blue = [unit("Ann", (1, 1), 14)]
    red = [unit("Cid", (6, 1), 10, ", prone: true")]
    b = battle(tmp_path, grav_text(blue, red, "[]", ["intent Ann shoot target=Cid"], ground=ground), seed=1)
    b.run()
    (shot,) = [a for a in of(b, "fw_attack") if a.actor == "Ann"]
    assert not any("prone" in s_["reason"] for s_ in shot.steps)  # 3 m up: from a higher elevation


_WALLED = ["##############", "#,,,,,,,,,,,,#", "#,,,,,,#,,,,,#", "#,,,,,,#,,,,,#", "#,,,,,,#,,,,,#",
           "#,,,,,,#,,,,,#", "##############"]


def _red_car_after_a_flight(tmp_path: Path, wall_m: int) -> Any:
    foe = [unit("Cid", (11, 4), 15)]
    txt = grav_text(CREW, foe, SKIFF, ["intent Rhee drive", "intent Ost none", "intent Tamm none", "move Rhee 5,5"],
                    ["intent Cid none"], rows=_WALLED, heights=f"{{wall: {wall_m}}}", max_rounds=1)
    b = battle(tmp_path, txt)
    before = b.observe("Red").unit("Cid").ext.cars[0]
    b.run()
    assert any(e.type == "fw_drive" for e in b.log.events)
    return before, b.observe("Red").unit("Cid").ext.cars[0]


def test_an_enemy_car_out_of_sight_shows_where_and_with_whom_it_was_last_seen(tmp_path: Path) -> None:
    """Behind a 40 m wall the Skiff flies unseen: Red's view keeps it where it was, with the riders it had, not
    where it is now (review7c: the car told where hidden enemies were); over a 4 m wall it is seen from 10 m up and
    shows where it is. Its split never shows to Red (R-9.12, R-9.8)."""
    before, after = _red_car_after_a_flight(tmp_path / "a", 40)
    assert after.cell == before.cell != (5, 5) and after.riders == before.riders and not after.full
    _, seen = _red_car_after_a_flight(tmp_path / "b", 4)
    assert seen.cell == (5, 5) and seen.screen == "none" and not seen.drives
