"""The board driven by posted events under SDL's dummy driver, with screenshots checked (issue 3)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pygame
import pytest

from skirmish.ai.utility.personality import PERSONALITIES
from skirmish.content.scenario import Scenario, default_scenario_path, load_scenario, parse_scenario
from skirmish.rules.actions import Move
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from skirmish.ui.frame import TOP_H
from skirmish.ui.screens import MenuScreen, ResultsScreen
from skirmish.ui.settings import Settings, load_settings
from skirmish.ui.widgets import ACCENT

TRAITS = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
DUEL = f"""
name: Duel
seed: 4
map: {{ascii: ["............",
               "............",
               "....#.......",
               "....#.......",
               "............",
               "............"]}}
victory: {{eliminate: true, max_rounds: 6}}
sides:
  - name: Blue
    controller: ai
    units:
      - {{name: Blue-1, at: [1, 1], traits: {TRAITS}, skills: {{"shooting:pistol": 3}}, weapons: [slug_pistol]}}
  - name: Red
    controller: idle
    units:
      - {{name: Red-1, at: [9, 0], traits: {TRAITS}}}
"""


@pytest.fixture(autouse=True)
def _config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKIRMISH_CONFIG_DIR", str(tmp_path / "config"))


def _duel(tmp_path: Path) -> Scenario:
    return parse_scenario(DUEL, str(tmp_path / "duel.yaml"), base=tmp_path)


def _grenade_duel(tmp_path: Path) -> Scenario:
    """The duel with a frag grenade for Blue-1 and a concussion grenade for Red-1."""
    text = DUEL.replace("weapons: [slug_pistol]", "weapons: [slug_pistol, {weapon: frag_grenade, ammo: 1}]")
    text = text.replace('skills: {"shooting:pistol": 3}', 'skills: {"shooting:pistol": 3, throwing: 3}')
    text = text.replace("{name: Red-1, at: [9, 0], traits: " + TRAITS + "}",
                        "{name: Red-1, at: [9, 0], traits: " + TRAITS + ", weapons: [concussion_grenade]}")
    return parse_scenario(text, str(tmp_path / "duel.yaml"), base=tmp_path)


def _key(key: int, unicode: str = "", mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0))


def _click(pos: tuple[int, int], button: int = 1) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))


def _drag(a: tuple[int, int], b: tuple[int, int]) -> None:
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=a, button=1))
    mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    for p in (mid, b):
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=p, rel=(1, 1), buttons=(1, 0, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b, button=1))


def _frames(app: App, n: int) -> None:
    for _ in range(n):
        assert app.tick(1 / 60)


def _screen_pos(screen: BattleScreen, cell: tuple[int, int]) -> tuple[int, int]:
    x, y = screen.board.cam.centre(cell)
    return x, y + TOP_H


def _play_app(tmp_path: Path) -> tuple[App, BattleScreen]:
    app = App(scenario=_duel(tmp_path), controls={"Blue": "human", "Red": "ai"}, size=(1100, 700))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    _frames(app, 3)
    req = screen.session.human_request()
    assert req is not None and req.kind == "declare" and req.unit == "Blue-1"
    _key(pygame.K_2, "2")  # declare NORMAL
    _frames(app, 5)
    req = screen.session.human_request()
    assert req is not None and req.kind == "act" and req.unit == "Blue-1"
    return app, screen


def test_drag_and_drop_moves_the_miniature_and_shows_reach(tmp_path: Path) -> None:
    app, screen = _play_app(tmp_path)
    start = _screen_pos(screen, (1, 1))
    # Hold the miniature over (3, 1): the walk area is shaded green in the screenshot.
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=_screen_pos(screen, (3, 1)), rel=(1, 0),
                                         buttons=(1, 0, 0)))
    _frames(app, 2)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "drag.png")))
    reach_px = shot.get_at(_screen_pos(screen, (2, 3)))[:3]
    far_px = shot.get_at(_screen_pos(screen, (11, 5)))[:3]
    assert reach_px[1] > reach_px[0] and reach_px[1] > reach_px[2], reach_px  # green tint inside the walk
    assert not (far_px[1] > far_px[0] + 30), far_px  # beyond the run: no tint
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=_screen_pos(screen, (3, 1)), button=1))
    _frames(app, 30)
    assert screen.session.view().unit("Blue-1").cell == (3, 1)
    assert isinstance(screen.session.battle.history[-1], Move)
    app.close()


def test_illegal_drop_is_refused_with_the_reason(tmp_path: Path) -> None:
    app, screen = _play_app(tmp_path)
    _drag(_screen_pos(screen, (1, 1)), _screen_pos(screen, (4, 2)))  # a wall
    _frames(app, 3)
    assert screen.session.view().unit("Blue-1").cell == (1, 1)
    assert any("wall" in t.text and "refused" in t.text for t in screen.toasts)
    _drag(_screen_pos(screen, (1, 1)), _screen_pos(screen, (11, 5)))  # beyond the run
    _frames(app, 3)
    assert any("R-5.6" in t.text for t in screen.toasts)
    app.close()


def test_undo_takes_back_a_move(tmp_path: Path) -> None:
    app, screen = _play_app(tmp_path)
    _drag(_screen_pos(screen, (1, 1)), _screen_pos(screen, (2, 2)))
    _frames(app, 20)
    assert screen.session.view().unit("Blue-1").cell == (2, 2)
    assert screen.session.can_undo()
    _key(pygame.K_u, "u")
    _frames(app, 2)
    assert screen.session.view().unit("Blue-1").cell == (1, 1)
    assert screen.session.human_request() is not None
    app.close()


def test_attack_through_the_menu_with_odds(tmp_path: Path) -> None:
    app, screen = _play_app(tmp_path)
    _click(_screen_pos(screen, (9, 0)))
    _frames(app, 2)
    menu = screen.attack
    assert menu is not None and menu.target == "Red-1"
    usable = [o for o in menu.options if o.odds is not None]
    assert usable and all(0.0 <= o.odds.hit <= 1.0 for o in usable if o.odds)
    assert any(o.refusal and "R-6.3" in o.refusal for o in menu.options) or not any(
        getattr(o.action, "burst", 0) for o in menu.options)  # a charge line has none
    first = next(i for i, o in enumerate(menu.options) if o.odds is not None)
    app.screenshot(tmp_path / "menu.png")
    _key(pygame.K_1 + first, str(first + 1))
    _frames(app, 60)
    attacks = [e for e in screen.session.battle.log if e.type == "attack" and e.actor == "Blue-1"]
    assert len(attacks) == 1 and attacks[0].target == "Red-1"
    app.close()


def test_watch_pause_step_and_results(tmp_path: Path) -> None:
    settings = Settings(speed=8.0)
    app = App(scenario=_duel(tmp_path), controls={"Blue": "ai", "Red": "ai"}, settings=settings, size=(1000, 650))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    _frames(app, 30)
    _key(pygame.K_SPACE, " ")
    _frames(app, 2)
    n = len(screen.session.battle.history)
    _frames(app, 120)
    assert len(screen.session.battle.history) == n  # paused: nothing happens
    _key(pygame.K_PERIOD, ".")
    _frames(app, 2)
    assert len(screen.session.battle.history) > n  # one step
    _key(pygame.K_SPACE, " ")
    for _ in range(6000):
        app.tick(1 / 60)
        if isinstance(app.screen, ResultsScreen):
            break
    assert isinstance(app.screen, ResultsScreen)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "results.png")))
    assert shot.get_size() == (1000, 650)
    assert app.last_log is not None and app.last_log.exists()
    _key(pygame.K_s, "s")  # same seed again
    _frames(app, 2)
    assert isinstance(app.screen, BattleScreen) and app.screen.session.seed == 4
    app.close()


def test_watch_screenshot_shows_the_tokens(tmp_path: Path) -> None:
    app = App(scenario=load_scenario(default_scenario_path()), size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    _frames(app, 2)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "watch.png")))
    view = screen.session.view()
    for u in view.units:
        x, y = _screen_pos(screen, u.cell)
        r = screen.board.cam.tile * 0.4
        expected = (206, 70, 60) if u.side_index == 0 else (60, 120, 210)
        # inside the disc, off the label; the facing wedge covers one lower corner, so either corner may show it
        corners = [shot.get_at((x + dx, y + int(r * 0.6)))[:3] for dx in (-int(r * 0.6), int(r * 0.6))]
        assert min(sum(abs(a - b) for a, b in zip(px, expected, strict=True)) for px in corners) < 60, (u.name, corners)
    app.close()


def test_menu_starts_a_battle_and_settings_are_remembered(tmp_path: Path) -> None:
    app = App(size=(1100, 700))
    assert isinstance(app.screen, MenuScreen)
    _frames(app, 2)
    for _ in range(9):
        _key(pygame.K_BACKSPACE)
    for ch in "123":
        _key(getattr(pygame, f"K_{ch}"), ch)
    _key(pygame.K_RETURN, "\r")
    _frames(app, 2)
    assert isinstance(app.screen, BattleScreen) and app.screen.session.seed == 123
    _key(pygame.K_RIGHTBRACKET, "]")
    _frames(app, 1)
    app.close()
    saved = load_settings()
    assert saved.speed == 2.0 and saved.seed == 123 and saved.window == (1100, 700)


def test_monkey_five_thousand_random_events(tmp_path: Path) -> None:
    """Random keys, clicks, drags, wheels and resizes on menu, battle (hot-seat) and results screens."""
    rng = random.Random(11)
    keys = [pygame.K_SPACE, pygame.K_PERIOD, pygame.K_1, pygame.K_2, pygame.K_3, pygame.K_4, pygame.K_a,
            pygame.K_r, pygame.K_w, pygame.K_e, pygame.K_u, pygame.K_c, pygame.K_g, pygame.K_h, pygame.K_TAB,
            pygame.K_HOME, pygame.K_LEFT, pygame.K_UP, pygame.K_LEFTBRACKET, pygame.K_RIGHTBRACKET, pygame.K_ESCAPE,
            pygame.K_RETURN, pygame.K_s, pygame.K_n, pygame.K_m, pygame.K_BACKSPACE, pygame.K_5, pygame.K_9,
            pygame.K_t, pygame.K_t]
    settings = Settings(speed=8.0)
    app = App(scenario=_grenade_duel(tmp_path), controls={"Blue": "human", "Red": "human"}, settings=settings,
              size=(1000, 650))
    posted = 0
    while posted < 5000:
        w, h = app.window.get_size()
        kind = rng.random()
        pos = (rng.randrange(w), rng.randrange(h))
        if kind < 0.35:
            k = rng.choice(keys)
            _key(k, pygame.key.name(k)[:1])
        elif kind < 0.6:
            _click(pos, rng.choice((1, 1, 1, 3)))
            posted += 1
        elif kind < 0.8:
            pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(rng.randint(-9, 9),
                                                 rng.randint(-9, 9)), buttons=(rng.random() < 0.3, 0, 0)))
        elif kind < 0.97:
            pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice((-1, 1)), flipped=False))
        else:
            pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, w=rng.randint(700, 1300), h=rng.randint(500, 900),
                                                 size=(0, 0)))
        posted += 1
        if posted % 4 == 0 and not app.tick(1 / 30):
            app.close()
            app = App(scenario=_duel(tmp_path), controls={"Blue": "human", "Red": "ai"}, settings=settings,
                      size=(1000, 650))
    app.close()


def test_throw_mode_shows_the_burst_and_throws(tmp_path: Path) -> None:
    """T enters throw mode: the hovered cell shows the burst radius and the odds; a click throws, and the
    blast radius is drawn where it lands (R-6.9, R-6.10)."""
    app = App(scenario=_grenade_duel(tmp_path), controls={"Blue": "human", "Red": "ai"}, size=(1100, 700))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    _frames(app, 3)
    _key(pygame.K_2, "2")
    _frames(app, 5)
    target = (9, 0)
    cx, cy = _screen_pos(screen, (8, 0))  # one cell from the aim: inside the 3 m (1.5 cell) radius,
    near = (cx, cy - screen.board.cam.tile // 4)  # clear of the odds tip (below the pointer) and the sight line
    pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=_screen_pos(screen, target), rel=(1, 0),
                                         buttons=(0, 0, 0)))
    _frames(app, 2)
    before = pygame.image.load(str(app.screenshot(tmp_path / "before.png"))).get_at(near)[:3]
    _key(pygame.K_t, "t")
    _frames(app, 2)
    assert screen.throwing == "frag_grenade"
    after = pygame.image.load(str(app.screenshot(tmp_path / "throw.png"))).get_at(near)[:3]
    assert after[0] > before[0] + 15 and after[2] < before[2], (before, after)  # an orange tint
    odds = screen._throw_preview(target)
    assert not isinstance(odds, str) and 0 < odds.on_target < 1 and odds.full["Red-1"] >= odds.on_target
    assert odds.full["Blue-1"] < 0.05  # the thrower is well clear of its own burst
    _click(_screen_pos(screen, target))
    _frames(app, 2)
    throws = [e for e in screen.session.battle.log if e.type == "throw"]
    assert len(throws) == 1 and throws[0].at == [9, 0]
    assert screen.throwing is None
    landed = tuple(throws[0].landed)
    for _ in range(120):  # play on until the burst is drawn
        app.tick(1 / 60)
        if any(type(a).__name__ == "BlastAnim" and a.k > 0.4 for a in screen.anim.current):
            break
    assert any(type(a).__name__ == "BlastAnim" for a in screen.anim.current)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "blast.png")))
    x, y = _screen_pos(screen, landed)
    ring = [shot.get_at((x + dx, y + dy))[:3] for dx, dy in ((0, screen.board.cam.tile), (screen.board.cam.tile, 0))
            if 0 <= x + dx < 1100 - 380 and TOP_H <= y + dy < 700 - 44]
    assert any(px[0] > 180 and px[0] > px[2] + 60 for px in ring), ring
    app.close()


def _step_until(app: App, screen: BattleScreen, done: object, limit: int = 400) -> None:
    """Press `.` (step one action) until `done()` holds."""
    for _ in range(limit):
        if done():  # type: ignore[operator]
            return
        _key(pygame.K_PERIOD, ".")
        _frames(app, 3)
    raise AssertionError("the battle never got there")


def test_ai_reason_label_and_move_heat_map(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 4: the acting AI unit's reason is drawn over it, I hides it, and M shades its move scores."""
    # the duel is one round: a default AI that hesitates then (the battle's draws) weighs no move to shade
    monkeypatch.setitem(PERSONALITIES, "normal", replace(PERSONALITIES["normal"], hesitate=0.0))
    app = App(scenario=_duel(tmp_path), controls={"Blue": "ai", "Red": "ai"}, settings=Settings(speed=8.0),
              size=(1100, 700))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    _key(pygame.K_SPACE, " ")  # pause, then step
    _frames(app, 2)
    log = screen.session.battle.log
    _step_until(app, screen, lambda: screen.acting == "Blue-1" and any(  # an act it weighed moves for (a round it
        e.type == "decision" and e.actor == "Blue-1" and e.request == "act" for e in log)  # hesitates has none)
        and screen.session.heat("Blue-1") is not None)
    screen.anim.finish()
    _frames(app, 2)
    last = [e for e in log if e.type == "decision" and e.actor == "Blue-1"][-1]
    label = last.label()
    assert screen.reasons["Blue-1"] == label
    assert label.startswith(("Shoot", "Walk", "Run", "Aim", "Wait", "Reload", "End turn"))
    x, y = _screen_pos(screen, screen.session.view().unit("Blue-1").cell)
    band = pygame.Rect(x - 300, y - int(screen.board.cam.tile * 0.55) - 40, 600, 40)
    band = band.clip(pygame.Rect(0, TOP_H, 1100 - 380, 700 - TOP_H))

    def frame_pixels(shot: pygame.Surface) -> int:
        """Pixels of the label frame's colour in a band just above the miniature."""
        sub = shot.subsurface(band)
        return sum(sub.get_at((i, j))[:3] == ACCENT for i in range(sub.get_width()) for j in range(sub.get_height()))

    with_label = frame_pixels(pygame.image.load(str(app.screenshot(tmp_path / "reason.png"))))
    assert with_label > 40
    _key(pygame.K_i, "i")  # hide the reasons
    _frames(app, 2)
    assert frame_pixels(pygame.image.load(str(app.screenshot(tmp_path / "no_reason.png")))) < with_label // 4
    assert app.settings.reasons is False

    heat = screen.session.heat("Blue-1")
    assert heat is not None and np.isfinite(heat).sum() > 10
    screen.selected = "Blue-1"
    _frames(app, 1)
    plain = pygame.image.load(str(app.screenshot(tmp_path / "plain.png")))
    _key(pygame.K_m, "m")
    _frames(app, 2)
    assert app.settings.heat is True
    shaded = pygame.image.load(str(app.screenshot(tmp_path / "heat.png")))
    taken = {u.cell for u in screen.session.view().units}
    ys, xs = np.nonzero(np.isfinite(heat))
    cells = [c for c in zip(xs.tolist(), ys.tolist(), strict=True) if c not in taken]
    changed = sum(plain.get_at(p)[:3] != shaded.get_at(p)[:3] for p in (_screen_pos(screen, c) for c in cells))
    assert changed == len(cells)  # every scored cell is tinted
    far = next(((cx, cy) for cy in range(heat.shape[0]) for cx in range(heat.shape[1])
                if not np.isfinite(heat[cy, cx]) and (cx, cy) not in taken and
                screen.session.scenario.grid.passable((cx, cy))), None)
    if far is not None:  # a cell it did not score is left alone
        assert plain.get_at(_screen_pos(screen, far))[:3] == shaded.get_at(_screen_pos(screen, far))[:3]
    best_y, best_x = np.unravel_index(int(np.nanargmax(heat)), heat.shape)
    ex, ey = screen.board.cam.to_screen((int(best_x), int(best_y)))
    assert min(shaded.get_at((ex + 1, ey + TOP_H + 1))[:3]) > 200  # the best cell is outlined in white
    app.close()
