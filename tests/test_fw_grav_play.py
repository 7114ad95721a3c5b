"""The grav-car scenario played (issue 13 items 7 and 9): scenarios/fw/scout_run.yaml passes `skirmish check`, a
soak under the fw invariants (tests/test_fw_soak.py's) and the cars' own (riders at their car's cell, never more
than its seats, a split never above G, a flight never beyond its metres nor without a driver), the same seed
giving the same events, a record replaying, the baselines driving the car (rush drives at the enemy and its
riders leave near it; hold keeps it), and the board drawing the car."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pygame
import pytest

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.core.flow import Hooks
from skirmish.ecs.fw_components import FwCar
from skirmish.rulesets.fw import tables
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.frame import TOP_H
from skirmish.ui.settings import Settings
from skirmish.ui.widgets import ACCENT
from tests.conftest import cli
from tests.test_fw_soak import test_fw_battles_keep_their_invariants_and_end as fw_soak

SCOUT = SCENARIOS_DIR / "fw" / "scout_run.yaml"
PAIRS = [("rush", "hold"), ("hold", "rush"), ("rush", "rush"), ("random", "hold"), ("rush", "random")]


pytestmark = pytest.mark.usefixtures("isolated_config")


def test_the_scout_run_passes_check_and_check_with_no_files_lists_the_fw_scenarios() -> None:
    code, out, err = cli("check", str(SCOUT))
    assert code == 0 and "ok:" in out and "'Scout run'" in out, err
    code, out, err = cli("check")
    assert code == 0, err
    assert all(f"fw/{n}.yaml" in out for n in ("scout_run", "relay_station", "hab_module", "listening_post"))


def _car_invariants(b: Battle) -> None:
    for ceid in b.sys.ctx.cars:
        c = b.world.peek(ceid, FwCar)
        t = tables().grav_cars[c.car_type]
        assert len(c.riders) <= t.seats and len(set(c.riders)) == len(c.riders)
        assert c.screen_points <= t.screen and c.screen_points + c.weapons + c.ew <= t.generator
        for r in c.riders:
            assert b.world.cell(b.world.entity(r)) == b.world.cell(ceid), (c.name, r)
        assert not (c.drives and c.loading) or c.moved_m == 0
    aboard = [r for ceid in b.sys.ctx.cars for r in b.world.peek(ceid, FwCar).riders]
    assert len(aboard) == len(set(aboard))


@pytest.mark.parametrize("seed", range(1, 7))
def test_the_scout_run_keeps_the_fw_invariants_and_the_cars(seed: int) -> None:
    fw_soak("scout_run", seed)  # every fw invariant (tests/test_fw_soak.py), on this scenario
    sc = load_scenario(SCOUT)
    blue, red = PAIRS[seed % len(PAIRS)]
    hooks = Hooks()
    state: dict[str, Any] = {}
    hooks.add("action", lambda step, actor, answer: _car_invariants(state["b"]))
    hooks.add("round_end", lambda: _car_invariants(state["b"]))
    with Battle(sc, seed=seed, controllers={"Scouts": make_ai(blue, "fw"), "Picket": make_ai(red, "fw")},
                hooks=hooks) as b:
        state["b"] = b
        b.run()
        splits = {e.round: e for e in b.log.events if e.type == "fw_car_split"}
        for e in b.log.events:
            assert e.type != "refused", e.describe()
            if e.type == "fw_drive":
                split = splits[e.round]
                assert e.metres <= split.move_m == e.allowance and e.actor == split.actor
                assert e.actor in e.riders


def test_the_same_seed_gives_the_same_events_and_a_record_replays(tmp_path: Path) -> None:
    sc = load_scenario(SCOUT)

    def events(seed: int) -> list[str]:
        with Battle(sc, seed=seed, controllers={"Scouts": make_ai("rush", "fw"), "Picket": make_ai("hold", "fw")}) as b:
            b.run()
            return [e.to_line() for e in b.log.events]

    first = events(4)
    assert first == events(4) and first != events(5)
    assert any('"type":"fw_drive"' in line for line in first)
    rec = tmp_path / "scout.rec"
    code, out, err = cli("run", str(SCOUT), "--seed", "4", "--record", str(rec))
    assert code == 0, err
    code, again, err = cli("replay", str(rec))
    assert code == 0, err
    assert again.strip().splitlines()[-1] == out.strip().splitlines()[-1]
    assert "flies the Skiff" in again and "leaves the Skiff" in again


def test_rush_drives_at_the_enemy_and_its_riders_leave_near_it_while_hold_keeps_the_car() -> None:
    sc = load_scenario(SCOUT)
    with Battle(sc, seed=4, controllers={"Scouts": make_ai("rush", "fw"), "Picket": make_ai("hold", "fw")}) as b:
        b.run()
        drives = [e for e in b.log.events if e.type == "fw_drive"]
        leaves = [e for e in b.log.events if e.type == "fw_board" and e.act == "dismount"]
        assert drives and leaves and drives[0].round < leaves[0].round
        start, end = drives[0].path
        enemies = [(16, 1), (16, 12), (19, 7)]
        def near(c: list[int]) -> int:
            return min(max(abs(c[0] - x), abs(c[1] - y)) for x, y in enemies)
        assert near(end) < near(start)  # toward the enemy
    with Battle(sc, seed=4, controllers={"Scouts": make_ai("hold", "fw"), "Picket": make_ai("hold", "fw")}) as b:
        b.run()
        assert not [e for e in b.log.events if e.type in ("fw_drive", "fw_board")]


def test_the_board_draws_the_car_round_its_riders(tmp_path: Path) -> None:
    app = App(scenario=load_scenario(SCOUT), controls={"Scouts": "ai", "Picket": "ai"},
              settings=Settings(speed=8.0), size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    for _ in range(3):
        assert app.tick(1 / 60)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "car.png")))
    view = screen.session.view()
    car = view.unit("Rhee").ext.cars[0]
    assert car.cell == (7, 7) and view.unit("Ostrova").cell == (7, 7)
    x, y = screen.board.cam.centre(car.cell)
    r = screen.board.token_radius()
    half = round(2.6 * r) // 2
    edge = [shot.get_at((x - half, y + dy + TOP_H))[:3] for dy in range(-2, 3)]  # the frame's left side
    assert any(sum(abs(a - b) for a, b in zip(px, ACCENT, strict=True)) < 40 for px in edge), (edge, ACCENT)
    app.close()


def test_the_utility_hook_lists_the_drivers_choices_and_each_is_accepted() -> None:
    """ai/fw/car.py: `options` (stay, drive toward the enemy, drive to cover, each with the car's screen at its most
    against the enemies' firearms, R-9.12) for a reasoner to weigh; every one the engine accepts; `adjust` flies
    toward the enemy or to cover."""
    from skirmish.ai.fw import car as fw_car
    from skirmish.rulesets.fw import FwIntent, view_sight

    sc = load_scenario(SCOUT)
    with Battle(sc, seed=1, controllers={"Scouts": make_ai("rush", "fw"), "Picket": make_ai("hold", "fw")}) as b:
        assert b.pending is not None and (b.pending.kind, b.pending.unit) == ("intent", "Rhee")
        view = b.observe("Scouts")
        me = view.unit("Rhee")
        base = FwIntent("Rhee", "react", screen="kinetic", points=4)
        opts = fw_car.options(view, me, base)
        assert [o.label for o in opts] == ["stay", "drive toward the enemy", "drive to cover"]
        drive = opts[1].intent
        # two of the picket's three guns are lasers: the diffusion screen stops most of them
        assert (drive.act, drive.then, drive.car_screen, drive.car_points) == ("drive", "react", "diffusion", 30)
        for o in opts:
            assert b.check(o.intent) is None, o.label
        assert fw_car.options(view, view.unit("Ostrova"), FwIntent("Ostrova"))[0].label == "stay"  # a passenger
        b.submit(drive)
        while b.pending is not None and not (b.pending.kind == "move" and b.pending.unit == "Rhee"):
            b.step()
        assert b.pending is not None
        view = b.observe("Scouts")
        cells = b.legal_actions("Rhee").walk
        toward = fw_car.flight(view, view.unit("Rhee"), cells, aggressive=True)
        cover = fw_car.flight(view, view.unit("Rhee"), cells, aggressive=False)
        assert toward is not None and cover is not None and toward in cells and cover in cells
        enemies = [u.cell for u in view.units if u.side == "Picket"]
        def near(c: tuple[int, int]) -> int:
            return min(max(abs(c[0] - x), abs(c[1] - y)) for x, y in enemies)
        me = view.unit("Rhee")
        foes = [u for u in view.units if u.side == "Picket"]
        def seen(c: tuple[int, int]) -> int:  # enemies that see the car's cell in the vertical
            return sum(view_sight(view, e, c, me).visible for e in foes)
        assert near(toward) == fw_car.STANDOFF_CELLS and seen(toward) > 0 and seen(cover) < seen(toward)


def test_a_grav_car_record_on_the_replay_viewer_shows_the_car_where_it_flew(tmp_path: Path) -> None:
    from skirmish import record
    from skirmish.ui.replay import ReplayScreen
    from skirmish.ui.replay_session import ReplaySession

    path = tmp_path / "scout.json"
    code, _, err = cli("run", str(SCOUT), "--seed", "4", "--record", str(path), "--quiet", timeout=120)
    assert code == 0, err
    rec = record.load(path)
    app = App(replay=ReplaySession(rec), settings=Settings(speed=8.0, reasons=False), size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0))
    assert app.tick(1 / 60)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_END, mod=0, unicode="", scancode=0))
    for _ in range(2):
        assert app.tick(1 / 60)
    with record.resume(rec) as battle:
        final = battle.view()
    shown = screen.replay.view()
    car = next(u.ext.cars[0] for u in shown.units if u.ext.cars)
    assert car == final.unit("Rhee").ext.cars[0] and car.cell != (7, 7)  # it flew, and the viewer shows where
    shot = pygame.image.load(str(app.screenshot(tmp_path / "replay.png")))
    x, y = screen.board.cam.centre(car.cell)
    half = round(2.6 * screen.board.token_radius()) // 2
    edge = [shot.get_at((x - half, y + dy + TOP_H))[:3] for dy in range(-2, 3)]
    assert any(sum(abs(a - b) for a, b in zip(px, ACCENT, strict=True)) < 40 for px in edge), (edge, ACCENT)
    app.close()
