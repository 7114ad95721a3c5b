"""A legal list's throw cells asked about a few cells only (`LazyCells.among`, speedutil11): the AI weighs throws
at the cells near the enemies it sees (ai/blast.py `_near_legal`), so it asks whether those few are legal (R-6.10:
open, in sight, within reach) instead of working out every cell in reach. The answers are the full set's."""

from __future__ import annotations

import random

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.core.legal import LazyCells


def test_among_answers_from_the_rule_before_the_set_and_from_the_set_after() -> None:
    asked: list[list[tuple[int, int]]] = []
    cells = frozenset({(1, 2), (3, 4)})

    def among(cs: list[tuple[int, int]]) -> list[bool]:
        asked.append(list(cs))
        return [c in cells for c in cs]

    lazy = LazyCells(lambda: cells, among)
    assert lazy.among([(1, 2), (0, 0), (3, 4)]) == [True, False, True]
    assert lazy._cells is None and asked == [[(1, 2), (0, 0), (3, 4)]]  # the set is not worked out for it
    assert lazy == cells  # worked out now
    assert lazy.among([(3, 4), (9, 9)]) == [True, False] and len(asked) == 1  # from the set, not the rule
    assert LazyCells(lambda: cells).among([(1, 2), (2, 1)]) == [True, False]  # no rule for a few: the set's


def test_throw_cells_among_equal_the_full_set_in_battles() -> None:
    rng = random.Random(11)
    checked = 0
    # seed 3 of each, then more battles until five lists with throws are checked (how many follows the AI's play)
    for name, seed in [(n, s) for s in (3, 4, 5, 6, 7, 8) for n in ("depot_breach.yaml", "killhouse_drill.yaml")]:
        if checked >= 5:
            break
        sc = load_scenario(SCENARIOS_DIR / name)
        with Battle(sc, seed=seed, controllers={s.name: make_ai("utility") for s in sc.spec.sides}) as b:
            grid = b.sys.ctx.grid
            for _ in range(150):
                req = b.pending
                if req is None:
                    break
                if req.kind == "act":
                    for _, lazy in b.legal_actions(req.unit).throws:
                        probe = [(rng.randrange(-2, grid.width + 2), rng.randrange(-2, grid.height + 2))
                                 for _ in range(60)]
                        x, y = b.world.cell(b.world.entity(req.unit))
                        probe += [(x + dx, y + dy) for dx in range(-6, 7) for dy in range(-6, 7)]
                        got = lazy.among(probe)
                        assert lazy._cells is None
                        full = lazy.cells()
                        assert got == [c in full for c in probe]
                        checked += 1
                b.step()
    assert checked >= 5
