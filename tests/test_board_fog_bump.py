"""The board after a move that ran into an unseen enemy (docs/RULES-NOTES.md "Moving into an unseen enemy"): the
miniature is animated along the ground it covered and the board keeps it where it stopped, not at the end of the
route it set out on (which went on through the enemy's cell)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.content.scenario import parse_scenario
from skirmish.ecs.components import Status
from skirmish.rules.actions import Declare, Move
from skirmish.ui.anim import MoveAnim
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from tests.test_board_fog import TRAITS
from tests.ui_helpers import frames

YARD = f"""
name: Bump yard
seed: 2
map: {{ascii: ["..#...", "..#...", "......"]}}
victory: {{max_rounds: 2}}
sides:
  - name: Watch
    controller: scripted
    units:
      - {{name: Me, at: [1, 0], traits: {TRAITS}}}
  - name: Raid
    controller: scripted
    orders: ["declare Them speed=normal"]
    units:
      - {{name: Them, at: [3, 2], traits: {TRAITS}}}
"""


pytestmark = pytest.mark.usefixtures("isolated_config")


def test_the_board_keeps_a_bumped_mover_where_it_stopped(tmp_path: Path) -> None:
    sc = parse_scenario(YARD, str(tmp_path / "yard.yaml"), base=tmp_path)
    app = App(scenario=sc, controls={"Watch": "human", "Raid": "ai"}, size=(1000, 650))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    try:
        frames(app, 3)
        screen.session.submit(Declare("Me", "normal"))
        for _ in range(3000):
            app.tick(1 / 60)
            r = screen.session.human_request()
            if r is not None and r.kind == "act" and not screen.anim.busy:
                break
        b = screen.session.battle
        b.world.get(b.world.entity("Them"), Status).known_to = frozenset({"Raid"})  # it slipped away unseen
        b.knowledge.update(b.world, b.ctx.grid, b.ctx.round)
        assert "Them" not in b.knowledge.seen["Watch"] and b.view().unit("Them").cell == (3, 2)
        screen.session.submit(Move("Me", (5, 1)))  # the route round the wall runs on through 3,2
        queued = [a for group in [screen.anim.current, *screen.anim.queue] for a in group]
        paths = [a.path for a in queued if isinstance(a, MoveAnim) and a.unit == "Me"]
        assert paths, "the move is animated"
        for _ in range(600):
            app.tick(1 / 60)
            if not screen.anim.busy:
                break
        assert b.view().unit("Me").cell == (2, 2)
        assert screen._cells["Me"] == (2, 2)
        assert all((3, 2) not in p and (5, 1) not in p for p in paths)
    finally:
        app.close()
