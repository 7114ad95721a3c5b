"""Save and load on the board (issue 11 item 6): Ctrl+S writes a battle record into the settings folder,
Ctrl+O continues the latest one, `skirmish play --load FILE`; the board driven by posted events under SDL's
dummy driver."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pygame
import pytest

from skirmish import record
from skirmish.content.scenario import Scenario, default_scenario_path, load_scenario, parse_scenario
from skirmish.rules.actions import Move
from skirmish.ui.app import App, latest_save, saves_dir
from skirmish.ui.battle import HELP, BattleScreen
from skirmish.ui.session import Session
from skirmish.ui.settings import Settings
from tests.conftest import one_line, run
from tests.test_ui import DUEL
from tests.ui_helpers import frames, press, type_text

SEED = 2
SAVE_NAME = re.compile(r"depot_breach-\d{8}-\d{6}(-\d+)?\.json")


pytestmark = pytest.mark.usefixtures("isolated_config")


def _ctrl(key: int) -> None:
    press(key, mod=pygame.KMOD_LCTRL)


def _depot() -> Scenario:
    return load_scenario(default_scenario_path())


def _board(scenario: Scenario | None = None) -> App:
    app = App(scenario=scenario or _depot(), seed=SEED, controls={"Raiders": "ai", "Guards": "ai"},
              settings=Settings(speed=8.0), size=(1000, 650))
    assert isinstance(app.screen, BattleScreen)
    return app


def _advance(session: Session, round_no: int, extra: int = 0) -> None:
    """Let the AIs play until round `round_no` has begun, then `extra` answers more (mid-round)."""
    while session.battle.ctx.round < round_no:
        assert session.ai_step()
    for _ in range(extra):
        assert session.ai_step()


def _cells(session: Session) -> dict[str, tuple[int, int]]:
    return {u.name: u.cell for u in session.view().units}


def _save_at_round_3(app: App) -> tuple[Path, Session]:
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    press(pygame.K_SPACE, unicode=" ")  # paused: the board stands still while it is saved
    frames(app, 2)
    _advance(screen.session, 3, extra=5)
    _ctrl(pygame.K_s)
    frames(app, 1)
    path = latest_save()
    assert path is not None and path.parent == saves_dir()
    return path, screen.session


def test_ctrl_s_mid_battle_writes_a_record_that_replays(tmp_path: Path) -> None:
    app = _board()
    path, session = _save_at_round_3(app)
    assert SAVE_NAME.fullmatch(path.name), path.name
    assert app.toast is not None and str(path) in app.toast[0]
    rec = record.load(path)
    assert rec.result is None and len(rec.answers) == len(session.battle.answers)
    with record.replay(rec) as battle:
        assert battle.ctx.round == 3 and battle.state_hash() == session.battle.state_hash()
    assert json.loads(path.read_text())["controllers"] == {"Raiders": "ai:utility", "Guards": "ai:utility"}
    _ctrl(pygame.K_s)  # a second save in the same second gets its own file
    frames(app, 1)
    assert len(list(saves_dir().glob("*.json"))) == 2
    app.close()


def test_ctrl_o_brings_the_same_battle_back(tmp_path: Path) -> None:
    app = _board()
    _, saved = _save_at_round_3(app)
    round_no, cells, answers = saved.battle.ctx.round, _cells(saved), len(saved.battle.answers)
    _advance(saved, 5)  # the battle goes on after the save ...
    assert _cells(saved) != cells
    _ctrl(pygame.K_o)  # ... and Ctrl+O brings back the saved moment
    frames(app, 2)
    screen = app.screen
    assert isinstance(screen, BattleScreen) and screen.session is not saved
    loaded = screen.session
    assert loaded.battle.ctx.round == round_no and _cells(loaded) == cells
    # the same answers up to the save (AI declarations may already have run on the first frame)
    assert [str(a.action) for a in loaded.battle.answers[:answers]] == [str(a.action) for a in saved.battle.answers[:answers]]
    assert loaded.controls == {"Raiders": "ai", "Guards": "ai"}
    assert app.toast is not None and app.toast[0].startswith("loaded: ")
    frames(app, 30)  # the board goes on playing it
    app.close()


def test_save_at_round_3_load_finish_gives_the_same_events() -> None:
    fresh = Session(_depot(), SEED)
    while not fresh.is_over():
        assert fresh.ai_step()
    whole = fresh.battle.log.jsonl()
    fresh.close()

    app = _board()
    _save_at_round_3(app)
    _ctrl(pygame.K_o)
    frames(app, 1)
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    loaded = screen.session
    while not loaded.is_over():
        assert loaded.ai_step()
    assert loaded.battle.log.jsonl() == whole
    app.close()


def test_a_person_s_moves_are_saved_and_loaded(tmp_path: Path) -> None:
    (tmp_path / "duel.yaml").write_text(DUEL)
    duel = parse_scenario(DUEL, str(tmp_path / "duel.yaml"), base=tmp_path)
    app = App(scenario=duel, controls={"Blue": "human", "Red": "ai"}, size=(1000, 650))
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    frames(app, 3)
    press(pygame.K_2, unicode="2")  # declare NORMAL
    frames(app, 3)
    screen.session.submit(Move("Blue-1", (2, 1)))
    frames(app, 2)
    cells = _cells(screen.session)
    _ctrl(pygame.K_s)
    frames(app, 1)
    path = latest_save()
    assert path is not None and path.name.startswith("duel-")
    assert json.loads(path.read_text())["controllers"]["Blue"] == "human"
    _ctrl(pygame.K_o)
    frames(app, 1)
    loaded = app.screen
    assert isinstance(loaded, BattleScreen) and loaded is not screen
    assert _cells(loaded.session) == cells and loaded.session.controls == {"Blue": "human", "Red": "ai"}
    req = loaded.session.human_request()
    assert req is not None and req.unit == "Blue-1"
    app.close()


@pytest.mark.parametrize("damage", ["not json", "hash", "scenario"])
def test_a_bad_or_drifted_save_is_one_line_in_a_toast(damage: str, tmp_path: Path) -> None:
    app = _board()
    path, session = _save_at_round_3(app)
    text = path.read_text()
    if damage == "not json":
        text = "{ this is not a record"
    elif damage == "hash":
        rec = json.loads(text)
        rec["rounds"][1]["state"] = "0" * 64
        text = json.dumps(rec)
    else:
        text = text.replace("name: Depot breach", "name: Depot breached", 1)
        assert "Depot breached" in text
    path.write_text(text)
    _ctrl(pygame.K_o)
    frames(app, 2)
    assert isinstance(app.screen, BattleScreen) and app.screen.session is session  # the battle goes on
    assert app.toast is not None
    msg = app.toast[0]
    assert "\n" not in msg and path.name in msg and "Traceback" not in msg
    if damage == "hash":
        assert "rounds[1]" in msg
    app.close()


def test_ctrl_o_with_no_save_says_so() -> None:
    app = _board()
    _ctrl(pygame.K_o)
    frames(app, 1)
    assert app.toast is not None and "no saved battle" in app.toast[0]
    app.close()


def test_a_scenario_file_gone_is_not_saved_with_one_line(tmp_path: Path) -> None:
    gone = parse_scenario(DUEL, str(tmp_path / "gone.yaml"), base=tmp_path)  # never written to disk
    app = App(scenario=gone, controls={"Blue": "ai", "Red": "ai"}, size=(1000, 650))
    frames(app, 2)
    _ctrl(pygame.K_s)
    frames(app, 1)
    assert latest_save() is None
    assert app.toast is not None and app.toast[0].startswith("not saved: ") and "gone.yaml" in app.toast[0]
    assert "\n" not in app.toast[0]
    app.close()


def test_the_help_overlay_lists_the_keys() -> None:
    assert any("Ctrl+S" in line and "Ctrl+O" in line for line in HELP)


def _saved_record(tmp_path: Path) -> tuple[Path, str]:
    """A record saved at round 3 from a board session, and the result line of the uninterrupted battle."""
    session = Session(_depot(), SEED)
    _advance(session, 3, extra=5)
    path = tmp_path / "mid.json"
    session.save(path)
    while not session.is_over():
        session.ai_step()
    assert session.battle.outcome is not None
    result = session.battle.outcome.summary()
    session.close()
    return path, result


def test_play_load_a_bad_record_exits_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "skirmish-record", "version": 1}')
    code, out, err = run(["play", "--load", str(bad)], capsys)
    assert code == 2 and out == ""
    assert "bad.json" in one_line(err)
    code, out, err = run(["watch", "--load", str(tmp_path / "missing.json")], capsys)
    assert code == 2 and "missing.json" in one_line(err)


def test_play_load_headless_finishes_the_battle(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path, result = _saved_record(tmp_path)
    code, out, err = run(["play", "--load", str(path)], capsys)  # SDL_VIDEODRIVER=dummy: no display
    assert code == 0, err
    assert "no display" in one_line(err)
    assert out.strip().splitlines()[-1] == result
    code, out, err = run(["watch", "--load", str(path), "depot.yaml"], capsys)
    assert code == 2 and "--load" in one_line(err)


def test_ctrl_shift_s_saves_to_a_chosen_path(tmp_path: Path) -> None:
    """Ctrl+Shift+S opens a dialog over the paused board; a path in a missing folder is refused with its
    reason and the dialog stays; a good path (no suffix: .json added) writes a record that replays; Esc
    cancels without writing."""
    from skirmish.ui.save_as import SaveAsScreen

    app = _board()
    try:
        frames(app, 3)
        press(pygame.K_s, mod=pygame.KMOD_LCTRL | pygame.KMOD_LSHIFT)
        frames(app, 1)
        dialog = app.screen
        assert isinstance(dialog, SaveAsScreen)
        board = app.stack[0]
        assert isinstance(board, BattleScreen) and dialog.text.endswith("depot_breach.json")
        answers_before = len(board.session.battle.answers)
        _ctrl(pygame.K_u)
        type_text(str(tmp_path / "nowhere" / "x"))
        press(pygame.K_RETURN)
        frames(app, 2)
        assert app.screen is dialog and dialog.error is not None and "nowhere" in dialog.error
        assert "\n" not in dialog.error and not (tmp_path / "nowhere").exists()
        assert len(board.session.battle.answers) == answers_before  # the battle waits while the dialog is open
        _ctrl(pygame.K_u)
        type_text(str(tmp_path / "mine"))
        press(pygame.K_RETURN)
        frames(app, 1)
        assert isinstance(app.screen, BattleScreen) and dialog.saved == tmp_path / "mine.json"
        rec = record.load(tmp_path / "mine.json")
        record.replay(rec).close()
        press(pygame.K_s, mod=pygame.KMOD_LCTRL | pygame.KMOD_LSHIFT)
        frames(app, 1)
        press(pygame.K_ESCAPE)
        frames(app, 1)
        assert isinstance(app.screen, BattleScreen)
        assert sorted(p.name for p in tmp_path.iterdir() if p.name != "config") == ["mine.json"]
    finally:
        app.close()
