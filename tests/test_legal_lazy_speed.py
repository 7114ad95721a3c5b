"""A legal list's throw cells are worked out when first read (`LazyCells`, speed session 8): the same cells as
working them out at once, read, compared, hashed, copied and pickled as that frozenset; not worked out while
nobody reads them; and read after the thrower has moved on, still the cells from where the list was made."""

from __future__ import annotations

import copy
import pickle

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.core.legal import LazyCells
from skirmish.ecs.components import Loadout, Position, Profile
from skirmish.rules.fi import thrown as thr


def test_lazy_cells_read_as_their_frozenset() -> None:
    calls = []
    cells = frozenset({(1, 2), (3, 4), (0, 0)})

    def work() -> frozenset[tuple[int, int]]:
        calls.append(1)
        return cells

    lazy = LazyCells(work)
    assert not calls  # nothing worked out yet
    assert lazy == cells and cells == lazy and hash(lazy) == hash(cells)
    assert (3, 4) in lazy and (5, 5) not in lazy and len(lazy) == 3 and sorted(lazy) == sorted(cells)
    assert lazy - {(0, 0)} == {(1, 2), (3, 4)} and type(lazy & {(1, 2)}) is frozenset
    assert ("g", lazy) == ("g", cells)
    assert copy.deepcopy(lazy) == cells and type(copy.copy(lazy)) is frozenset
    assert pickle.loads(pickle.dumps(lazy)) == cells
    assert len(calls) == 1  # worked out once, on the first read
    assert LazyCells(lambda: frozenset()) != cells and not LazyCells(lambda: frozenset())


def test_throw_cells_wait_for_a_reader_and_keep_the_cell_they_were_listed_from() -> None:
    sc = load_scenario(SCENARIOS_DIR / "depot_breach.yaml")
    listed = 0
    with Battle(sc, seed=1, controllers={s.name: make_ai("hold") for s in sc.spec.sides}) as b:
        for _ in range(200):
            req = b.pending
            if req is None:
                break
            if req.kind == "act":
                eid = b.world.entity(req.unit)
                throws = b.legal_actions(req.unit).throws
                if throws and b.world.get(eid, Loadout).weapons:
                    item, cells = throws[0]
                    assert isinstance(cells, LazyCells) and cells._cells is None  # not worked out yet
                    pos = b.world.get(eid, Position)
                    here = (pos.x, pos.y)
                    weapon = b.sys.ctx.armoury.weapons[item]
                    want = b.sys.throw_cells(eid, weapon, _box(b, eid, here))
                    pos.x, pos.y = (here[0] + 1) % b.sys.ctx.grid.width, here[1]  # the thrower "moves" first
                    assert cells == want  # read now: the cells from where the list was made
                    pos.x, pos.y = here
                    listed += 1
            b.step()
    assert listed >= 3


def _box(b: Battle, eid: int, here: tuple[int, int]) -> tuple[range, range]:
    grid = b.sys.ctx.grid
    reach = int(thr.max_throw_m(b.world.get(eid, Profile).traits["strength"][0]) / grid.cell_m) + 1
    return (range(max(0, here[0] - reach), min(grid.width, here[0] + reach + 1)),
            range(max(0, here[1] - reach), min(grid.height, here[1] + reach + 1)))
