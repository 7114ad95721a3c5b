"""Thrown explosives: R-6.10 TN, range and scatter; R-6.9 blast zones; the seed's concussion grenade."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.ai.controllers import ScriptedController
from skirmish.battle import Battle
from skirmish.content.armoury import shipped
from skirmish.content.scenario import parse_scenario
from skirmish.content.tiled import from_ascii
from skirmish.core.events import Event
from skirmish.ecs.components import Health, Loadout
from skirmish.ecs.systems.fi import IllegalAction
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Declare, Shoot, Throw, parse_action
from skirmish.rules.fi import thrown as thr
from tests.conftest import make_card, write_deck

ARM = shipped()
OPEN = ["." * 16] * 9


def test_throw_tn_from_strength() -> None:
    """R-6.10: a III Strength adds 1 per started 5 m, so 10 m is TN 7; a II Strength at 30 m is TN 13."""
    assert thr.throw_tn(10, "III")[0] == 7
    assert thr.throw_tn(11, "III")[0] == 8  # started, not full, increments
    assert thr.throw_tn(30, "II")[0] == 13
    assert thr.throw_tn(0, "II")[0] == 5
    assert thr.max_throw_m("II") == 30  # Kayla's 3d6 heaves a grenade 30 m
    assert thr.max_throw_m("III") == 40


def test_clock_faces_point_the_right_way() -> None:
    """12 is beyond the target, 6 back to the thrower, 3 a quarter turn clockwise on the map."""
    east = ((0.0, 0.0), (5.0, 0.0))
    for hour, want in ((12, (1, 0)), (6, (-1, 0)), (3, (0, 1)), (9, (0, -1))):
        v = thr.clock_vector(*east, hour)
        assert math.isclose(v[0], want[0], abs_tol=1e-9) and math.isclose(v[1], want[1], abs_tol=1e-9)


def test_blast_zones() -> None:
    """R-6.9: full damage within the radius, a column less per further 10 m, armour stops the outer ring."""
    frag = ARM.weapons["frag_grenade"]  # 3d8, radius 3 m
    assert thr.blast_column(frag, 3.0, armoured=True) == "III"
    assert thr.blast_column(frag, 3.1, armoured=True) is None
    assert thr.blast_column(frag, 3.1, armoured=False) == "II"
    assert thr.blast_column(frag, 13.0, armoured=False) == "II"
    assert thr.blast_column(frag, 13.5, armoured=False) == "I"
    assert thr.blast_column(frag, 33.5, armoured=False) is None
    assert thr.blast_reach_m(frag) == 33.0


def test_scatter_is_capped_at_the_distance_thrown() -> None:
    grid = from_ascii(OPEN, "t", "map", cell_m=1.0)
    land, sc = thr.scatter_landing(grid, (0, 4), (4, 4), clock=12, multiplier=3, margin=6, thrown_m=4.0, cf=False)
    assert sc.wanted_m == 18 and sc.metres == 4.0 and land == (8, 4)


def test_a_critical_failure_scatters_from_the_thrower() -> None:
    grid = from_ascii(OPEN, "t", "map", cell_m=1.0)
    land, sc = thr.scatter_landing(grid, (5, 4), (12, 4), clock=6, multiplier=1, margin=3, thrown_m=7.0, cf=True)
    assert sc.origin == "thrower" and land == (2, 4) and not sc.stopped  # 3 m back from the thrower, toward 6
    land, sc = thr.scatter_landing(grid, (1, 4), (12, 4), clock=6, multiplier=1, margin=3, thrown_m=11.0, cf=True)
    assert land == (0, 4) and sc.stopped  # the map edge stops it


def test_a_wall_stops_the_scatter() -> None:
    rows = ["........#.......", *OPEN[1:]]
    grid = from_ascii(rows, "t", "map", cell_m=1.0)
    land, sc = thr.scatter_landing(grid, (0, 0), (5, 0), clock=12, multiplier=2, margin=4, thrown_m=5.0, cf=False)
    assert sc.stopped and land == (7, 0)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(0, 15), st.integers(0, 8), st.integers(0, 15), st.integers(0, 8), st.integers(1, 12),
    st.integers(1, 5), st.integers(1, 20), st.booleans(),
)
def test_scatter_lands_on_an_open_cell_within_the_cap(tx: int, ty: int, ax: int, ay: int, hour: int, mult: int,
                                                      margin: int, cf: bool) -> None:
    rows = ["...#............", "...#....##......", *OPEN[2:]]
    grid = from_ascii(rows, "t", "map", cell_m=2.0)
    thrower, aim = (tx, ty), (ax, ay)
    if grid.blocks_sight[ty, tx] or grid.blocks_sight[ay, ax]:
        return
    thrown = geo.distance_m(thrower, aim, grid.cell_m)
    land, sc = thr.scatter_landing(grid, thrower, aim, clock=hour, multiplier=mult, margin=margin,
                                   thrown_m=thrown, cf=cf)
    assert grid.inside(land) and grid.passable(land) and not grid.blocks_sight[land[1], land[0]]
    origin = thrower if cf else aim
    # Within the cap, give or take the half-cell rounding of the landing point.
    assert geo.distance_m(origin, land, grid.cell_m) <= min(sc.wanted_m, thrown) + grid.cell_m * 0.75


TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: II-2}"


def _battle(tmp_path: Path, cards: list, units_a: str, units_b: str, rows: list[str] | None = None,
            cell_m: float = 1) -> Battle:
    deck = write_deck(tmp_path / "deck.json", cards)
    text = f"""
name: grenades
seed: 1
map: {{ascii: {rows or OPEN!r}, cell_m: {cell_m}}}
deck: {{cards: {deck.name}, shuffle: false}}
sides:
  - name: Kyr
    controller: scripted
    units: {units_a}
  - name: Sid
    controller: scripted
    units: {units_b}
"""
    sc = parse_scenario(text, str(tmp_path / "s.yaml"), base=tmp_path)
    return Battle(sc, controllers={s.name: ScriptedController([]) for s in sc.spec.sides})  # type: ignore[arg-type]


def _eid(b: Battle, name: str) -> int:
    return next(e for e, i in b.world.units() if i.name == name)


def test_the_commandos_concussion_grenade(tmp_path: Path) -> None:
    """Seed example 2: grenade skill 4d6, TN 7 at this range; the throw misses by 1, the clock reads 11 and
    the thrown multiplier 2, so it lands 2 m from Sid, inside the 3 m radius. Concussion takes no hit
    location and deals no wounds: the 11 (3d6) is read as non-lethal damage, one full 6 = 3 CT (R-7.4)."""
    throw = make_card(10, upper={("II", 4): 6}, clock=11, scatter_thrown=2)
    blast = make_card(11, lower={("II", 3): 11})
    pad = make_card(12, upper={("III", r): 14 for r in range(1, 6)})
    b = _battle(
        tmp_path, [throw, blast] + [pad] * 6,
        '[{name: Commando, at: [0, 4], traits: {strength: III-2, dexterity: II-2, reflexes: III-2, '
        'vigor: III-2, acuity: II-2}, skills: {throwing: 4}, armour: [flak_vest], '
        'weapons: [{weapon: concussion_grenade, ammo: 2}]}]',
        f"[{{name: Sid, at: [10, 4], traits: {TRAITS}}}]",
    )
    with b:
        kyr = _eid(b, "Commando")
        b.sys.declare(kyr, Declare("Commando", "normal"))
        b.sys.throw(kyr, Throw("Commando", (10, 4), "concussion_grenade"))
        ev = next(e for e in b.log if e.type == "throw")
        assert ev.tn == 7 and ev.result == 6 and not ev.hit
        assert ev.scatter["clock"] == 11 and ev.scatter["metres"] == 2.0
        assert "Commando throws a concussion grenade at 10,4" in ev.describe()  # thrown, not launched
        assert "11 o'clock, x" in ev.describe() and "launched" not in ev.describe()
        land = tuple(ev.landed)
        assert land == (12, 3)  # 2 m toward 11 o'clock, 12 pointing away from the commando
        assert geo.distance_m((10, 4), land, 1.0) <= 3.0
        assert ev.caught == ["Sid"]  # the armoured commando is outside the radius: untouched
        hit = next(e for e in b.log if e.type == "blast")
        assert hit.target == "Sid" and hit.zone == "full"
        assert (hit.damage, hit.wounds, hit.ct) == (11, 0, 3)
        assert "R-6.9" in hit.rules and "R-6.10" in ev.rules and "R-4.9" in ev.rules
        assert b.world.get(_eid(b, "Sid"), Health).ct == 16 - 3  # CT left of a d8 Vigor track
        assert any(e.type == "concussion" and e.actor == "Sid" for e in b.log)  # after CT damage
        assert b.world.get(kyr, Loadout).weapons[0].rounds == 1
        # The events are plain JSON and read back the same.
        for e in b.log:
            assert Event.from_json(json.loads(json.dumps(e.to_json()))) == e


def test_a_hit_lands_on_the_cell_and_catches_both_sides(tmp_path: Path) -> None:
    hit_card = make_card(10, upper={("III", 2): 14})
    pad = make_card(12, lower={c_r: 9 for c_r in [("III", 3), ("II", 3), ("I", 3)]})
    b = _battle(
        tmp_path, [hit_card] + [pad] * 12,
        f"[{{name: Thrower, at: [0, 4], traits: {TRAITS}, weapons: [frag_grenade]}},"
        f" {{name: Buddy, at: [9, 4], traits: {TRAITS}, armour: [lba3]}}]",
        f"[{{name: Foe, at: [8, 4], traits: {TRAITS}}}, {{name: Far, at: [8, 8], traits: {TRAITS}, armour: [lba3]}}]",
    )
    with b:
        t = _eid(b, "Thrower")
        b.sys.declare(t, Declare("Thrower", "normal"))
        b.sys.throw(t, Throw("Thrower", (8, 4)))
        ev = next(e for e in b.log if e.type == "throw")
        assert ev.hit and ev.landed == [8, 4] and ev.scatter is None
        # Foe in the burst, Buddy beside it (friendly fire), Far armoured and 4 m off: untouched.
        assert ev.caught[:2] == ["Foe", "Buddy"] and "Far" not in ev.caught
        zones = {e.target: e.zone for e in b.log if e.type == "blast"}
        assert zones["Foe"] == "full" and zones["Buddy"] == "full"
        assert zones.get("Thrower") == "outer"  # unarmoured and 8 m off: the outer ring
        foe = next(e for e in b.log if e.type == "blast" and e.target == "Foe")
        assert foe.row == 3 and foe.column == "III"


def test_walls_shield_from_the_blast(tmp_path: Path) -> None:
    rows = [".........#......", *OPEN[1:]]
    rows = [r[:9] + "#" + r[10:] for r in rows]
    b = _battle(
        tmp_path, [make_card(10, upper={("III", 1): 14})] + [make_card(12)] * 6,
        f"[{{name: Thrower, at: [0, 4], traits: {TRAITS}, armour: [lba3], weapons: [frag_grenade]}}]",
        f"[{{name: Foe, at: [7, 4], traits: {TRAITS}}}, {{name: Behind, at: [10, 4], traits: {TRAITS}}}]",
        rows=rows,
    )
    with b:
        t = _eid(b, "Thrower")
        b.sys.declare(t, Declare("Thrower", "normal"))
        b.sys.throw(t, Throw("Thrower", (8, 4)))
        ev = next(e for e in b.log if e.type == "throw")
        assert "Foe" in ev.caught and "Behind" not in ev.caught


def test_throw_refusals(tmp_path: Path) -> None:
    rows = [*OPEN[:4], "..........#.....", *OPEN[5:]]
    b = _battle(
        tmp_path, [make_card(12)] * 4,
        "[{name: Thrower, at: [0, 4], traits: {strength: I-2, dexterity: III-2, reflexes: III-2, vigor: III-2,"
        " acuity: II-2}, weapons: [frag_grenade]}]",
        f"[{{name: Foe, at: [15, 8], traits: {TRAITS}}}]",
        rows=rows, cell_m=2,
    )
    with b:
        t = _eid(b, "Thrower")
        b.sys.declare(t, Declare("Thrower", "normal"))
        b.sys.throw_setup(t, Throw("Thrower", (2, 4)))  # 4 m: fine
        with pytest.raises(IllegalAction, match="no line of sight"):
            b.sys.throw_setup(t, Throw("Thrower", (15, 4)))
        with pytest.raises(IllegalAction, match="beyond a Strength I throw of 20 m"):
            b.sys.throw_setup(t, Throw("Thrower", (15, 8)))
        with pytest.raises(IllegalAction, match="carries no smoke grenade"):
            b.sys.throw_setup(t, Throw("Thrower", (2, 4), item="smoke_grenade"))
        with pytest.raises(IllegalAction, match="throw at an open cell"):
            b.sys.throw_setup(t, Throw("Thrower", (10, 4)))
        with pytest.raises(IllegalAction, match=r"R-6\.10: the fragmentation grenade is thrown"):
            b.sys.shot_setup(t, Shoot("Thrower", "Foe"))
        b.sys.declare(t, Declare("Thrower", "dodge"))
        with pytest.raises(IllegalAction, match=r"R-5\.4"):
            b.sys.throw_setup(t, Throw("Thrower", (2, 4)))


def test_throw_text_round_trips() -> None:
    a = Throw("Sid", (12, 4), "frag_grenade")
    assert str(a) == "throw Sid at=12,4 item=frag_grenade"
    assert parse_action(str(a)) == a and parse_action("throw Sid 12,4") == Throw("Sid", (12, 4))
