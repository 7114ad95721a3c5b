"""Issue 12 item 6 (engine15): the engine's shortcuts are the plain statements they replace, on real battle states.

- the cells a wait may name (`legality._wait_cells`, R-5.7 `enemy_enters:X,Y`) are kept with the map for every
  battle on it: the same set as worked out from the map cell by cell;
- `LegalActions.allows` looks a plain shot up in a set kept with the list (`shot_set`): for every shot listed and
  for shots that are not (another target, mode or burst), it answers as a scan of `shots` does.
"""

from __future__ import annotations

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle, consult
from skirmish.cli.common import scenario_arg
from skirmish.core.legal import LegalActions
from skirmish.rules.actions import Shoot


def _plain_open(grid) -> frozenset[tuple[int, int]]:  # type: ignore[no-untyped-def]
    return frozenset((x, y) for x in range(grid.width) for y in range(grid.height) if grid.passable((x, y)))


def _lists(ai: str, seeds: range) -> list[tuple[Battle, LegalActions]]:
    """Every act request's legal list of a few default-scenario battles, with its battle."""
    s = scenario_arg(None)
    out = []
    for seed in seeds:
        ctrl = {x.name: make_ai(ai, s.spec.ruleset) for x in s.spec.sides}
        with Battle(s, seed=seed, controllers=ctrl) as b:
            while b.pending is not None:
                req = b.pending
                if req.kind == "act":
                    out.append((b, b.legal_actions(req.unit)))
                action, trace = consult(ctrl[req.side], b.observe(req.side), req)
                b.answer(req, action, trace)
    return out


def test_wait_cells_kept_with_the_map_are_the_maps_open_cells() -> None:
    lists = _lists("utility", range(2))
    with_waits = [legal for _, legal in lists if legal.waits]
    assert with_waits, "no wait was listed: the test saw nothing"
    grid = lists[0][0].ctx.grid
    want = _plain_open(grid)
    assert len(want) < grid.width * grid.height  # the map has walls: the set is not every cell
    for legal in with_waits:
        assert legal.wait_cells == want
    # one set for every battle on the map (kept with it), not one a battle
    assert len({id(legal.wait_cells) for legal in with_waits}) == 1
    assert grid.kept["open_cells"] is with_waits[0].wait_cells


def test_allows_a_shot_as_a_scan_of_the_list() -> None:
    asked = 0
    for _, legal in _lists("utility", range(2)):
        if not legal.shots:
            continue
        targets = {s.target for s in legal.shots} | {"nobody"}
        modes = {s.mode for s in legal.shots} | {"aimed", "snap", "prepared"}
        bursts = {s.burst for s in legal.shots} | {0, 99}
        for t in targets:
            for m in modes:
                for burst in bursts:
                    shot = Shoot(legal.unit, t, mode=m, burst=burst)
                    want = any(s == shot for s in legal.shots)  # the plain statement: a scan
                    assert legal.allows(shot) is want, (legal.unit, shot)
                    asked += 1
        assert legal.shot_set == frozenset(legal.shots) and legal.shot_set is legal.shot_set
    assert asked > 50
