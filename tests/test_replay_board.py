"""The replay viewer (issue 11 item 6): `skirmish replay FILE --board`, Ctrl+R. The viewer driven by posted
events under SDL's dummy driver: seek to a round, step back, step forward, play, click and drag the timeline;
what it shows is checked against a headless re-run of the record at that moment, and its screenshots where a
miniature moved."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pygame
import pytest

from skirmish import record
from skirmish.cli import display
from skirmish.content.errors import ContentError
from skirmish.ecs.view import BattleView
from skirmish.ui.app import App
from skirmish.ui.frame import TOP_H
from skirmish.ui.replay import ReplayScreen
from skirmish.ui.replay_session import ReplaySession
from skirmish.ui.screens import MenuScreen
from skirmish.ui.settings import Settings
from skirmish.ui.timeline import moment_text
from tests.conftest import cli, one_line, run

LONG = 14  # the viewer's checks go to round 13 and act in it: a battle at least this long
# depot_breach, utility against utility, on the per-battle salt: seed 39 lasted 16 rounds, 19 14 (seeds 1-40, ship11's
# normal); the rest are tried in turn should the AI change, so the checks do not hang on one seed's length
SEEDS = (39, 19, *range(1, 61))


def _rounds(path: Path) -> int:
    """The battle's length as the record's result line says (`rounds=N`): what the viewer's counts are checked against."""
    found = re.search(r"\brounds=(\d+)\b", record.load(path).result or "")
    assert found, f"{path.name}: no rounds=N in the result line"
    return int(found.group(1))


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A long utility-vs-utility record of the default scenario, written by the real CLI: the first of SEEDS whose
    battle lasts LONG rounds or more."""
    folder = tmp_path_factory.mktemp("records")
    for seed in SEEDS:
        path = folder / f"depot-{seed}.json"
        code, _, err = cli("run", "--seed", str(seed), "--ai", "Raiders=utility", "--ai", "Guards=utility",
                           "--record", str(path), "--quiet", timeout=120)
        assert code == 0, err
        if _rounds(path) >= LONG:
            return path
    pytest.fail(f"no seed in {SEEDS[0]}, {SEEDS[1]}, 1-60 gives a battle of {LONG} rounds: the AI changed, widen SEEDS")


@pytest.fixture(autouse=True)
def _config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SKIRMISH_CONFIG_DIR", str(tmp_path / "config"))


def _key(key: int, unicode: str = "", mod: int = 0) -> None:
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0))


def _mouse(kind: int, pos: tuple[int, int], **extra: object) -> None:
    pygame.event.post(pygame.event.Event(kind, pos=pos, **extra))


def _frames(app: App, n: int = 1, dt: float = 1 / 60) -> None:
    for _ in range(n):
        assert app.tick(dt)


def _settle(app: App, screen: ReplayScreen) -> None:
    """Frames until every animation has played (0.1 s a frame at 8x)."""
    for _ in range(60):
        if not screen.anim.busy and not screen.anim.overlay:
            return
        _frames(app, 1, 0.1)
    raise AssertionError("the animations never ended")


def _viewer(path: Path, size: tuple[int, int] = (1280, 800)) -> tuple[App, ReplayScreen]:
    app = App(replay=ReplaySession(record.load(path)), settings=Settings(speed=8.0, reasons=False), size=size)
    screen = app.screen
    assert isinstance(screen, ReplayScreen)
    _key(pygame.K_SPACE, " ")  # pause: it starts playing, as watching does
    _frames(app)
    assert screen.paused
    return app, screen


def _headless(rec: record.Record, answers: int) -> tuple[BattleView, str]:
    """The battle after `answers` answers, re-run headless: its view and its log as JSON lines."""
    with record.resume(rec, answers=answers) as battle:
        return battle.view(), battle.log.jsonl()


def _assert_shows(screen: ReplayScreen, rec: record.Record) -> None:
    """The viewer shows exactly the headless re-run at its position: round, phase, every unit, the log."""
    view, log = _headless(rec, screen.replay.position)
    shown = screen.replay.view()
    assert (shown.round, shown.phase) == (view.round, view.phase)
    assert {u.name: (u.cell, u.wounds, u.out_of_action) for u in shown.units} == \
        {u.name: (u.cell, u.wounds, u.out_of_action) for u in view.units}
    assert screen.replay.battle.log.jsonl() == log


def _cells(screen: ReplayScreen) -> dict[str, tuple[int, int]]:
    return {u.name: u.cell for u in screen.replay.view().units}


def _type_round(n: int) -> None:
    for ch in str(n):
        _key(0, ch)
    _key(pygame.K_RETURN)


# ---------------------------------------------------------------------------------------------- the session
def test_the_stops_and_steps_follow_the_record(recorded: Path) -> None:
    rec = record.load(recorded)
    replay = ReplaySession(rec)
    try:
        assert replay.rounds == _rounds(recorded) >= LONG and replay.total == len(rec.answers)
        assert replay.round_starts[0] == 0 and len(replay.round_starts) == _rounds(recorded)
        assert replay.forward()  # the round's declarations and initiative at once, up to the first action
        first_act = next(i for i, a in enumerate(rec.answers) if a.request.kind == "act")
        assert replay.position == first_act and replay.acting() == rec.answers[first_act].request.unit
        heard: list[str] = []
        replay.listener = lambda e: heard.append(e.to_line())
        before = len(replay.battle.log)
        assert replay.forward() and replay.position == first_act + 1
        assert heard == [e.to_line() for e in replay.battle.log.events[before:]]  # every new event, once
        heard.clear()
        assert replay.back() and replay.position == first_act and heard == []  # a re-run is not animated
        assert replay.seek(replay.round_start(7)) and replay.view().round == 7 and replay.view().phase is None
        assert replay.previous_round() and replay.view().round == 6
        assert replay.next_round() and replay.view().round == 7
        assert replay.seek(replay.total) and replay.at_end and not replay.forward()
        assert replay.battle.outcome is not None and replay.battle.outcome.summary() == rec.result
        assert replay.snap(replay.round_start(7) + 1) in replay.stops
        assert moment_text(replay, replay.total) == f"the end: {rec.result}"
    finally:
        replay.close()


def test_a_drifted_record_is_refused_before_anything_is_shown(recorded: Path, tmp_path: Path) -> None:
    raw = json.loads(recorded.read_text())
    raw["rounds"][4]["state"] = "0" * 64
    bad = tmp_path / "drifted.json"
    bad.write_text(json.dumps(raw))
    with pytest.raises(ContentError) as err:
        ReplaySession(record.load(bad))
    assert "rounds[4]" in err.value.text and "drifted.json" in err.value.text


# ---------------------------------------------------------------------------------------------- the viewer
def test_seek_step_back_step_forward_show_the_battle_at_that_moment(recorded: Path) -> None:
    rec = record.load(recorded)
    app, screen = _viewer(recorded)
    try:
        _type_round(12)  # digits, then Enter: the start of round 12
        _frames(app)
        assert screen.replay.position == screen.replay.round_start(12) and screen.replay.view().round == 12
        _assert_shows(screen, rec)
        _key(pygame.K_PERIOD)  # forward: declarations and initiative, then the first action
        _frames(app)
        _key(pygame.K_RIGHT)
        _settle(app, screen)
        after_two = screen.replay.position
        assert after_two > screen.replay.round_start(12) + 1
        _assert_shows(screen, rec)
        _key(pygame.K_COMMA)  # back one action: a re-run from the seed
        _frames(app)
        assert screen.replay.round_start(12) < screen.replay.position < after_two
        _assert_shows(screen, rec)
        _key(pygame.K_LEFT)
        _frames(app)
        assert screen.replay.position == screen.replay.round_start(12)
        _assert_shows(screen, rec)
        _key(pygame.K_PAGEDOWN)
        _frames(app)
        assert screen.replay.view().round == 13
        _key(pygame.K_PERIOD)
        _frames(app)
        _key(pygame.K_PAGEUP)  # mid-round: back to the round's start ...
        _frames(app)
        assert screen.replay.position == screen.replay.round_start(13)
        _key(pygame.K_PAGEUP)  # ... and from there to the round before
        _frames(app)
        assert screen.replay.position == screen.replay.round_start(12)
        _key(pygame.K_END)
        _frames(app)
        assert screen.replay.at_end and rec.result is not None and rec.result in screen.prompt()
        _assert_shows(screen, rec)
        _type_round(99)  # a round the record does not have: said, nothing moves
        _frames(app)
        assert screen.replay.at_end and any("no round 99" in t.text for t in screen.toasts)
    finally:
        app.close()


def test_play_runs_the_record_at_the_board_s_speed_and_stops_at_the_end(recorded: Path) -> None:
    rec = record.load(recorded)
    app, screen = _viewer(recorded)
    try:
        _type_round(_rounds(recorded))  # the last round
        _frames(app)
        start = screen.replay.position
        _key(pygame.K_SPACE, " ")
        _frames(app, 40, 0.1)
        assert not screen.paused or screen.replay.at_end
        assert screen.replay.position > start + 2  # several actions played, each animated
        _settle(app, screen)
        _key(pygame.K_SPACE, " ")
        _frames(app)
        _assert_shows(screen, rec)
        _key(pygame.K_END)
        _frames(app)
        _key(pygame.K_SPACE, " ")  # play at the end: again from the start
        _frames(app)
        assert screen.replay.position == 0 and not screen.paused
        _frames(app, 20, 0.1)
        assert screen.replay.position > 0
    finally:
        app.close()


def test_clicking_and_dragging_the_timeline_goes_to_that_moment(recorded: Path) -> None:
    rec = record.load(recorded)
    app, screen = _viewer(recorded)
    try:
        _frames(app)
        bar = screen.timeline.bar()
        x10 = screen.timeline.x_of(screen.replay.round_start(10), screen.replay.total)
        _mouse(pygame.MOUSEBUTTONDOWN, (x10, bar.centery), button=1)
        _frames(app)
        assert screen.replay.position == screen.replay.round_start(10) and screen.paused
        _assert_shows(screen, rec)
        x15 = screen.timeline.x_of(screen.replay.round_start(15) + 3, screen.replay.total)
        _mouse(pygame.MOUSEMOTION, (x15, bar.centery), rel=(x15 - x10, 0), buttons=(1, 0, 0))
        _frames(app)
        assert screen.replay.view().round == 15 and screen.replay.position in screen.replay.stops
        _assert_shows(screen, rec)
        _mouse(pygame.MOUSEBUTTONUP, (x15, bar.centery), button=1)
        _mouse(pygame.MOUSEMOTION, (bar.x + 2, bar.centery), rel=(-50, 0), buttons=(0, 0, 0))
        _frames(app)
        assert screen.replay.view().round == 15  # the drag is over: moving the pointer moves nothing
        assert "round 1" in screen.timeline.tip(screen.replay, bar.x + 2)
    finally:
        app.close()


def _patch(shot: pygame.Surface, at: tuple[int, int], r: int = 3) -> list[tuple[int, int, int]]:
    return [tuple(shot.get_at((at[0] + dx, at[1] + dy))[:3]) for dx in range(-r, r + 1) for dy in range(-r, r + 1)]


def test_screenshots_differ_where_a_miniature_moved(recorded: Path, tmp_path: Path) -> None:
    app, screen = _viewer(recorded, size=(1600, 1000))
    try:
        _type_round(2)
        _frames(app)
        _settle(app, screen)
        for _ in range(40):  # forward until someone moves (on the board: not out of the camera's sight)
            before, cam_before = _cells(screen), (screen.board.cam.x, screen.board.cam.y, screen.board.cam.tile)
            acting_before = screen.replay.acting()
            shot_a = pygame.image.load(str(app.screenshot(tmp_path / "a.png")))
            _key(pygame.K_PERIOD)
            _frames(app)
            _settle(app, screen)
            moved = [n for n, c in _cells(screen).items() if c != before[n] and screen.board.cam.shows(c)
                     and screen.board.cam.shows(before[n])]
            if moved and (screen.board.cam.x, screen.board.cam.y, screen.board.cam.tile) == cam_before:
                break
        else:
            raise AssertionError("nobody moved in sight in 40 actions")
        shot_b = pygame.image.load(str(app.screenshot(tmp_path / "b.png")))
        unit = moved[0]
        for cell in (before[unit], _cells(screen)[unit]):  # where it stood and where it stands now
            x, y = screen.board.cam.centre(cell)
            assert _patch(shot_a, (x, y + TOP_H)) != _patch(shot_b, (x, y + TOP_H)), (unit, cell)
        ringed = {acting_before, screen.replay.acting()}  # the acting ring moved from one to the other
        still = [n for n, c in before.items() if _cells(screen)[n] == c and screen.board.cam.shows(c) and n not in ringed
                 and all(abs(c[0] - m[0]) + abs(c[1] - m[1]) > 3 for m in (before[unit], _cells(screen)[unit]))]
        if still:  # a miniature that stood still far from the move looks the same
            x, y = screen.board.cam.centre(before[still[0]])
            assert _patch(shot_a, (x, y + TOP_H)) == _patch(shot_b, (x, y + TOP_H))
        _key(pygame.K_COMMA)  # back: the miniature stands where it stood, drawn as before
        _frames(app)
        assert _cells(screen) == before
        shot_c = pygame.image.load(str(app.screenshot(tmp_path / "c.png")))
        x, y = screen.board.cam.centre(before[unit])
        assert _patch(shot_c, (x, y + TOP_H)) == _patch(shot_a, (x, y + TOP_H))
    finally:
        app.close()


def test_the_help_box_and_escape(recorded: Path) -> None:
    app, screen = _viewer(recorded)
    try:
        _key(pygame.K_h)
        _frames(app)
        assert screen.show_help
        _key(pygame.K_ESCAPE)  # closes the help first ...
        _frames(app)
        assert not screen.show_help and app.screen is screen
        _key(pygame.K_ESCAPE)  # ... then goes to the menu, freeing the battle shown
        _frames(app)
        assert isinstance(app.screen, MenuScreen)
    finally:
        app.close()


# ---------------------------------------------------------------------------------------------- the menu
def test_ctrl_r_in_the_menu_replays_the_record_typed_in_the_open_field(recorded: Path, tmp_path: Path) -> None:
    app = App(size=(1000, 650), settings=Settings())
    try:
        menu = app.screen
        assert isinstance(menu, MenuScreen)
        bad = tmp_path / "bad.json"
        bad.write_text('{"format": "skirmish-record"}')
        menu.field.text = str(bad)
        _key(pygame.K_r, mod=pygame.KMOD_LCTRL)
        _frames(app)
        assert app.screen is menu and app.toast is not None and "bad.json" in app.toast[0]
        assert "\n" not in app.toast[0]
        assert not menu.open_file(str(recorded)) and menu.field.error is not None
        assert "Ctrl+R replays it" in menu.field.error  # Enter on a record says how to open it
        menu.field.text = str(recorded)
        _key(pygame.K_r, mod=pygame.KMOD_LCTRL)
        _frames(app)
        screen = app.screen
        assert isinstance(screen, ReplayScreen) and screen.replay.rounds == _rounds(recorded)
        assert app.toast is not None and app.toast[0].startswith("replaying: ")
    finally:
        app.close()


# ---------------------------------------------------------------------------------------------- the command
def test_replay_board_with_a_bad_record_exits_2_before_any_window(recorded: Path, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(display, "display_problem", lambda: None)  # as if a display were there

    def no_window(*args: object, **kwargs: object) -> None:
        raise AssertionError("a window was opened for a bad record")

    monkeypatch.setattr(App, "__init__", no_window)
    raw = json.loads(recorded.read_text())
    raw["rounds"][2]["state"] = "f" * 64
    drifted = tmp_path / "drifted.json"
    drifted.write_text(json.dumps(raw))
    code, out, err = run(["replay", str(drifted), "--board"], capsys)
    assert code == 2 and out == ""
    line = one_line(err)
    assert "drifted.json" in line and "rounds[2]" in line and "state hash differs" in line
    code, out, err = run(["replay", str(tmp_path / "missing.json"), "--board"], capsys)
    assert code == 2 and out == "" and "missing.json" in one_line(err)


def test_replay_board_without_a_display_replays_headless(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, plain, err = run(["replay", str(recorded)], capsys)
    assert code == 0 and err == ""
    code, out, err = run(["replay", str(recorded), "--board"], capsys)  # SDL_VIDEODRIVER=dummy: no display
    assert code == 0
    line = one_line(err)
    assert "no display" in line and "headless" in line
    assert out == plain  # the same log and result line as without --board


def test_replay_board_opens_the_viewer(recorded: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(display, "display_problem", lambda: None)  # the dummy driver stands in for a display
    opened: list[ReplayScreen] = []
    tick = App.tick

    def spy(self: App, dt: float | None = None) -> bool:
        if isinstance(self.screen, ReplayScreen) and not opened:
            opened.append(self.screen)
        return tick(self, dt)

    monkeypatch.setattr(App, "tick", spy)
    code, out, err = run(["replay", str(recorded), "--board", "--frames", "5"], capsys)
    assert code == 0, err
    assert out == "" and len(opened) == 1 and opened[0].replay.rounds == _rounds(recorded)


def test_bench_reports_the_viewer_s_moves(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["bench", "--replay", str(recorded), "--repeat", "1"], capsys)
    assert code == 0, err
    assert f"{_rounds(recorded)} rounds" in out and "step back one action" in out and "step forward one action" in out
