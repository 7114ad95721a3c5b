"""The fw utility AI throws a grenade at a cell between two enemies when that catches both (R-9.10; ai/fw/arms.py
`between`: the midpoints and neighbours of pairs of enemies in sight, within range and in sight), on a
hand-built battle read from Blue's view; the declaration is the rules' (legal, resolved at the cell)."""

from __future__ import annotations

from pathlib import Path

from skirmish.ai.fw import FwUtilityAI
from skirmish.ai.fw.arms import between, throw_worth
from skirmish.rulesets.fw import cell_target, tables
from tests.test_fw_ai import declaration
from tests.test_fw_ai_arms import GEN6, battle, unit

FIELD = ["##############", *["#" + "," * 12 + "#"] * 7, "##############"]
GRENADIER = unit("Me", (3, 4), "light_pistol, fragmentation_grenade", skills="{handgun: 40, throw: 60}", tacpack=GEN6)


def test_it_throws_between_two_enemies_when_that_catches_both(tmp_path: Path) -> None:
    # Foe and Fox 8 m apart: a blast of 6 m at either misses the other; at the cell between them (4 m from each) both.
    foes = [unit("Foe", (9, 2), "heavy_rifle"), unit("Fox", (9, 6), "heavy_rifle")]
    ai = FwUtilityAI()
    b = battle(tmp_path, FIELD, [GRENADIER], foes, ai)
    intent, trace = declaration(b, ai)
    cell = cell_target(intent.target)
    assert intent.act == "throw" and cell is not None, trace["chosen"]
    assert cell[0] in (8, 9, 10) and cell[1] in (3, 4, 5), cell  # the midpoint 9,4 or a neighbour
    assert all(" at Fo" not in o["option"] for o in trace["runners_up"])  # the cells between them rank first
    view = b.observe("Blue")
    me, g = view.unit("Me"), tables().weapons["fragmentation_grenade"]
    at_cell = throw_worth(view, me, g, me.cell, cell, 1.0, 1.0)[0]
    assert all(throw_worth(view, me, g, me.cell, view.unit(n), 1.0, 1.0)[0] < at_cell for n in ("Foe", "Fox"))
    b.submit(intent)  # the battle takes it and resolves it at the cell
    while b.pending is not None and not [e for e in b.log.events if e.type in ("fw_throw", "fw_idle")
                                           and e.actor == "Me"]:
        b.step()
    (t,) = [e for e in b.log.events if e.type == "fw_throw"]
    assert t.at == list(cell) and t.target is None


def test_no_cell_between_enemies_too_far_apart_for_one_blast(tmp_path: Path) -> None:
    foes = [unit("Foe", (9, 1), "heavy_rifle"), unit("Fox", (12, 7), "heavy_rifle")]  # 13.4 m apart: over 2 x 6 m
    b = battle(tmp_path, FIELD, [GRENADIER], foes, FwUtilityAI())
    view = b.observe("Blue")
    g = tables().weapons["fragmentation_grenade"]
    assert between(view, view.unit("Me"), [view.unit("Foe"), view.unit("Fox")], g) == []
    near = [unit("Foe", (9, 2), "heavy_rifle"), unit("Fox", (9, 6), "heavy_rifle")]
    b = battle(tmp_path, FIELD, [GRENADIER], near, FwUtilityAI())
    view = b.observe("Blue")
    cells = between(view, view.unit("Me"), [view.unit("Foe"), view.unit("Fox")], g)
    assert (9, 4) in cells and (9, 2) not in cells and all(abs(c[0] - 3) * 2 <= 15 for c in cells)
