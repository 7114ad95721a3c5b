"""The shortcuts legality takes for speed list exactly what the full checks accept: the cells a grenade may be
thrown at (`FiThrowing.throw_cells`) are every cell in reach that `throw_setup` accepts, one full check each."""

from __future__ import annotations

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Identity, Loadout
from skirmish.rules.actions import Throw


def _full_check_cells(b: Battle, eid: int, item: str) -> frozenset[tuple[int, int]]:
    grid = b.sys.ctx.grid
    out = set()
    name = b.world.get(eid, Identity).name
    for y in range(grid.height):
        for x in range(grid.width):
            try:
                b.sys.throw_setup(eid, Throw(name, (x, y), item))
            except IllegalAction:
                continue
            out.add((x, y))
    return frozenset(out)


def test_throw_cells_are_the_cells_throw_setup_accepts() -> None:
    compared = 0
    for name, seed in (("depot_breach.yaml", 1), ("rubble_run.yaml", 2)):
        sc = load_scenario(SCENARIOS_DIR / name)
        with Battle(sc, seed=seed, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
            for _ in range(400):
                req = b.pending
                if req is None:
                    break
                if req.kind == "act":
                    eid = b.world.entity(req.unit)
                    listed = dict(b.legal_actions(req.unit).throws)
                    for ws in b.world.get(eid, Loadout).weapons:
                        if ws.weapon_id in listed:
                            assert listed[ws.weapon_id] == _full_check_cells(b, eid, ws.weapon_id), (req.unit, seed)
                            compared += 1
                b.step()
    assert compared >= 5


def test_listed_shots_are_the_shots_shot_setup_accepts() -> None:
    """Legality asks each target once after the first that has a shot (or an aim); the lists equal one full
    check per target, mode and burst (per target for aims), in the same order."""
    from skirmish.rules.actions import Aim, Shoot
    from skirmish.rules.fi.timing import ATTACK_MODES

    compared = 0
    for name, seed, ai in (("depot_breach.yaml", 2, "utility"), ("killhouse_drill.yaml", 1, "hold"),
                           ("canal_crossing.yaml", 4, "utility")):
        sc = load_scenario(SCENARIOS_DIR / name)
        with Battle(sc, seed=seed, controllers={s.name: make_ai(ai) for s in sc.spec.sides}) as b:
            for _ in range(300):
                req = b.pending
                if req is None:
                    break
                if req.kind == "act":
                    eid = b.world.entity(req.unit)
                    wpn = b.sys.weapon(eid)
                    listed = list(b.legal_actions(req.unit).shots)
                    full = []
                    if wpn is not None and not wpn[0].thrown:
                        for u in b.view().units:
                            if u.side == req.side or u.out_of_action:
                                continue
                            for mode in ATTACK_MODES:
                                for burst in (0, *wpn[0].bursts):
                                    shot = Shoot(req.unit, u.name, mode=mode, burst=burst)
                                    try:
                                        b.sys.shot_setup(eid, shot)
                                    except IllegalAction:
                                        continue
                                    full.append(shot)
                    assert listed == full, (name, req.unit)
                    compared += bool(full)
                    aims = []
                    for u in b.view().units:
                        try:
                            b.sys.aim_check(eid, Aim(req.unit, u.name))
                        except IllegalAction:
                            continue
                        aims.append(Aim(req.unit, u.name))
                    assert list(b.legal_actions(req.unit).aims) == aims, (name, req.unit)
                b.step()
    assert compared >= 10


def test_kept_throw_cells_equal_fresh_ones_and_stay_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`throw_cells` answers kept with the map's content are what working them out afresh gives, from every
    cell asked, and no more than THROW_CELLS_KEPT are kept."""
    from skirmish.ecs.systems.fi import thrown

    monkeypatch.setattr(thrown, "THROW_CELLS_KEPT", 3)
    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    with Battle(sc, seed=1, controllers={}) as b:
        grid = b.sys.ctx.grid
        eid = b.world.units()[0][0]
        weapon = b.sys.ctx.armoury.weapons["frag_grenade"] if "frag_grenade" in b.sys.ctx.armoury.weapons \
            else next(w for w in b.sys.ctx.armoury.weapons.values() if w.thrown)
        boxes = [(range(0, 12), range(0, 9)), (range(3, 20), range(2, 14)), (range(0, 12), range(0, 9)),
                 (range(5, 9), range(5, 9)), (range(3, 20), range(2, 14))]
        kept = grid.kept.get("throw_cells", {})
        for box in boxes:
            got = b.sys.throw_cells(eid, weapon, box)
            here = b.world.cell(eid)
            fresh = b.sys._throw_cells(here, thrown.thr.max_throw_m(b.sys.w.peek(eid, thrown.Profile).traits[
                "strength"][0]) + 1e-9, box)
            assert got == fresh and got  # kept or not, the same cells (and some: the thrower's own box)
            kept = grid.kept["throw_cells"]
            assert len(kept) <= 3
