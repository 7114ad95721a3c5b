"""The fw utility AI's movement segment: where a figure ends its move for next round's shot, and what the enemies a
walk from seeing a cell could fire into it next round (docs/AI.md, "Future*World"; R-9.2, R-9.4: a covered
target and a moving firer each at half chance)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.fw import PERSONALITIES, FwUtilityAI
from skirmish.ai.fw import estimate as est
from skirmish.ai.fw.side import side_intent
from skirmish.rules import geometry as geo
from skirmish.rules.actions import EndTurn, Move
from skirmish.rulesets.fw import INTENT
from tests.test_fw_ai import GEN6, battle, declaration, unit

# A crate beside each figure: Me (3,3) is covered from Foe (10,3) and Foe from Me; a step off the line gives a
# clear shot at Foe but no cover.
CRATES = ["##############", "#,,,,,,,,,,,,#", "#,,,,,,,,,,,,#", "#,,,x,,,,x,,,#", "#,,,,,,,,,,,,#",
          "#,,,,,,,,,,,,#", "##############"]


def _move(tmp_path: Path, aim: float) -> tuple[Any, dict[str, Any], Any]:
    ai = FwUtilityAI(replace(PERSONALITIES["normal"], aim=aim))
    # Foe is the stronger (HP, and nylar against our rifle, side.py): the side holds rather than presses, so
    # closing in counts for nothing.
    b = battle(tmp_path, CRATES, [unit("Me", (3, 3), "heavy_rifle", tacpack=GEN6, con=8)],
               [unit("Foe", (10, 3), "heavy_rifle", skill=30, armour="nylar", con=18)], ai)
    intent, _ = declaration(b, ai)
    assert (intent.act, intent.target) == ("shoot", "Foe")
    b.submit(intent)
    while b.pending is not None and not (b.pending.unit == "Me" and b.pending.kind != INTENT):
        b.step()
    assert b.pending is not None
    view = b.observe("Blue")
    action, trace = ai.decide_traced(view, b.pending)
    assert b.check(action) is None
    return action, trace, view


def test_a_gunner_whose_target_is_behind_cover_moves_to_a_clear_line_for_next_rounds_shot(tmp_path: Path) -> None:
    action, trace, view = _move(tmp_path, PERSONALITIES["normal"].aim)
    assert "hold" in trace["intent"]
    assert isinstance(action, Move)
    assert geo.sight(view.grid, action.to, (10, 3)).cover == "none"  # a clear shot at Foe from there
    chosen = {c["name"]: c for c in trace["chosen"]["considerations"]}
    assert chosen["next round's shot"]["input"] == 0.5  # 50% standing still, uncovered
    assert all(o["option"] != "stay" for o in trace["runners_up"])  # staying: 25% next round, behind the crate


def test_without_the_next_rounds_shot_it_keeps_its_cover(tmp_path: Path) -> None:
    action, trace, _ = _move(tmp_path, 0.0)  # the same hand-built view: the weight is what moves it
    assert isinstance(action, EndTurn)
    assert all(c["name"] != "next round's shot" for c in trace["chosen"]["considerations"])


# A long room with a block of wall at 4-5,3-4: from far up the room Foe sees 2,2 but not 2,4 or 3,4.
W = 34
LONG = ["#" * W, "#" + "," * (W - 2) + "#", "#" + "," * (W - 2) + "#", "#,,,##" + "," * (W - 7) + "#",
        "#,,,##" + "," * (W - 7) + "#", "#" + "," * (W - 2) + "#", "#" * W]


@pytest.mark.parametrize(("foe_at", "near"), [((9, 2), True), ((30, 2), False)])
def test_a_cell_out_of_an_enemys_sight_but_a_walk_from_it_counts_its_fire_next_round(
        tmp_path: Path, foe_at: tuple[int, int], near: bool) -> None:
    ai = FwUtilityAI()
    b = battle(tmp_path, LONG, [unit("Me", (2, 2), "heavy_rifle", tacpack=GEN6)],
               [unit("Foe", foe_at, "heavy_rifle", skill=70)], ai)
    view = b.observe("Blue")
    me = view.unit("Me")
    assert est.ext(view.unit("Foe")).move_m == 24  # 12 cells of 2 m: 9,2 is a walk from 2,4, 30,2 is not
    seen, hidden = (2, 2), (2, 4)
    assert geo.sight(view.grid, foe_at, seen).visible and not geo.sight(view.grid, foe_at, hidden).visible
    assert ai._walk_ins(view, me, seen, est.threats(view, me, seen)) == 0.0  # weighed as the threat here instead
    later = ai._walk_ins(view, me, hidden, est.threats(view, me, hidden))
    assert (later > 0) == near
    option = ai._cell(view, me, hidden, True, Move("Me", hidden), "walk", side_intent(view, me), 0.0, 12.0, True)
    named = {c["name"]: c["output"] for c in option.to_json()["considerations"]}
    assert named["enemies a walk from sight"] == pytest.approx(-PERSONALITIES["normal"].ahead * later, abs=1e-3)
