"""Issue 15 item 1: deployment zones. An AI side is placed by the rule (test_triggers); a person's side places its
own units before round 1: `move U X,Y` within its zone (any number), `end U` — answers like any other, so a record
replays them — and on the board by dragging its miniatures to lit cells, Enter to start."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish import record
from skirmish.ai.controllers import ScriptedController
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.core.errors import IllegalAction
from skirmish.rules.actions import EndTurn, Move
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.settings import Settings
from tests.objectives_helpers import unit
from tests.ui_helpers import cell_px

TEXT = f"""name: deploy test
seed: 4
map: {{ascii: ['..........', '..........', '..........', '..........']}}
victory: {{max_rounds: 2}}
zones: {{west: {{rect: [0, 0, 2, 3]}}}}
sides:
  - name: Blue
    controller: scripted
    deployment: west
    orders: ["move B1 2,3", "end B1", "move B2 0,0", "move B2 1,0", "end B2"]
    units: [{unit("B1", 0, 1)}, {unit("B2", 0, 2)}]
  - name: Red
    controller: scripted
    units: [{unit("R1", 9, 3)}]
"""


def scenario(tmp_path: Path):  # type: ignore[no-untyped-def]
    path = tmp_path / "deploy.yaml"
    path.write_text(TEXT, encoding="utf-8")
    return parse_scenario(TEXT, str(path), base=tmp_path)


def test_a_persons_side_places_its_units_first(tmp_path: Path) -> None:
    sc = scenario(tmp_path)
    b = Battle(sc, controllers={s.name: ScriptedController(list(s.orders)) for s in sc.spec.sides},  # type: ignore[misc]
               deploy=("Blue",))
    assert (b.pending.kind, b.pending.unit, b.ctx.round) == ("deploy", "B1", 1)  # type: ignore[union-attr]
    legal = b.legal_actions("B1")
    assert (2, 3) in legal.walk and (3, 0) not in legal.walk and (0, 2) not in legal.walk  # B2 stands there
    with pytest.raises(IllegalAction, match="not a free cell of west"):
        b.submit(Move("B1", (5, 1)))
    b.step()  # move B1 2,3
    b.step()  # end B1
    assert b.pending is not None and (b.pending.kind, b.pending.unit) == ("deploy", "B2")
    b.step(), b.step(), b.step()
    assert b.pending is not None and b.pending.kind == "declare"  # then the round goes on as ever
    view = b.view()
    assert view.unit("B1").cell == (2, 3) and view.unit("B2").cell == (1, 0)
    b.run()
    # the same scenario without a person deploying: no deployment step at all
    plain = Battle(sc, controllers={s.name: ScriptedController([]) for s in sc.spec.sides})  # type: ignore[misc]
    assert plain.pending is not None and plain.pending.kind == "declare"


def test_a_record_replays_a_persons_deployment(tmp_path: Path) -> None:
    sc = scenario(tmp_path)
    b = Battle(sc, controllers={"Red": ScriptedController([])}, deploy=("Blue",), hashes=True)  # type: ignore[dict-item]
    b.submit(Move("B1", (2, 0)))
    b.submit(EndTurn("B1"))
    b.submit(EndTurn("B2"))
    rec = record.record_of(b, record.capture(sc, sc.source), {"Blue": "human", "Red": "scripted"})
    again = record.resume(rec)
    assert again.view().unit("B1").cell == (2, 0)
    assert [e.to_line() for e in again.log.events] == [e.to_line() for e in b.log.events]


def test_dragging_within_the_zone_then_enter_on_the_board(tmp_path: Path, isolated_config: None) -> None:
    app = App(scenario=scenario(tmp_path), controls={"Blue": "human", "Red": "ai"}, settings=Settings(speed=8.0),
              size=(1000, 650))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    try:
        for _ in range(3):
            app.tick(1 / 60)
        req = screen.session.human_request()
        assert req is not None and (req.kind, req.unit) == ("deploy", "B1")
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=cell_px(screen, (0, 1)), button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=cell_px(screen, (2, 2)), rel=(1, 1), buttons=(1, 0, 0)))
        for _ in range(2):
            app.tick(1 / 60)
        shot = pygame.image.load(str(app.screenshot(tmp_path / "deploy.png")))
        r, g, b = shot.get_at(cell_px(screen, (2, 0)))[:3]  # a free cell of the zone: lit green
        r2, g2, b2 = shot.get_at(cell_px(screen, (5, 0)))[:3]  # outside the zone: not
        assert g > r and g > b and g - max(r, b) > g2 - max(r2, b2) + 20
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=cell_px(screen, (2, 2)), button=1))
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0))
        for _ in range(3):
            app.tick(1 / 60)
        view = screen.session.view()
        assert view.unit("B1").cell == (2, 2) and view.unit("B2").cell == (0, 2)
        req = screen.session.human_request()
        assert req is None or req.kind == "declare"
        placed = [a for a in screen.session.battle.history if isinstance(a, Move)]
        assert placed == [Move("B1", (2, 2))]
    finally:
        app.close()
