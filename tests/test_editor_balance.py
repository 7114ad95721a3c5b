"""The editor's balance figures (issue 15 item 4), driven by posted events under SDL's dummy driver on a tiny
scenario with a few battles: Ctrl+B runs `skirmish balance`'s engine in the background, the panel shows its
table (the same figures as skirmish.sim.balance on the same file), an edit marks them stale, + and - set the
battles a level, and Esc cancels a run and closes the panel."""

from __future__ import annotations

import time
from pathlib import Path

import pygame
import pytest

from skirmish.sim.balance import balance
from skirmish.ui.app import App
from skirmish.ui.editor import EditorScreen
from skirmish.ui.editor.balance_panel import BATTLES, next_battles, panel_rect
from tests.test_editor_board import _open, _shot, _texts
from tests.ui_helpers import frames, press

pytestmark = [pytest.mark.usefixtures("isolated_config"), pytest.mark.app(settings={"editor": {"balance_battles": 2}})]


def _until_done(app: App, ed: EditorScreen, limit: float = 240.0) -> None:
    start = time.monotonic()
    while ed.balance is not None and ed.balance.running:
        assert time.monotonic() - start < limit, "the balance run did not end"
        frames(app)
        time.sleep(0.02)
    frames(app, 2)


def test_ctrl_b_shows_the_balance_table_and_an_edit_makes_it_stale(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path)
    assert ed.balance_battles == 2
    before = _shot(app)
    press(pygame.K_b, mod=pygame.KMOD_CTRL)
    frames(app)
    run = ed.balance
    assert run is not None and run.battles == 2
    assert run.running or run.result is not None
    _until_done(app, ed)
    assert run.error is None and run.total == 24  # each side: 5 levels and the mirror, 2 battles each
    same = tuple(balance(run.path, side, battles=2) for side in ("Blue", "Red"))
    assert run.results == same  # the engine of `skirmish balance`, not a copy
    text = _texts(ed)
    assert f"nearest the target 50%: Blue: {same[0].best.opponent}" in text and f"Red: {same[1].best.opponent}" in text
    assert all(r.opponent in text for r in same[0].rows) and "fair by side" in text and "stale" not in text
    assert f"{same[1].rows[2].score:.0%} {same[1].rows[2].interval}" in text
    panel = panel_rect(ed.panels.canvas, ed.fonts)
    inside = (panel.x + 4, panel.y + 4)
    assert _shot(app).get_at(inside) != before.get_at(inside)  # the panel is drawn over the map
    # an edit: the figures are stale
    ed.doc.set(("name", ), "Duel 2")
    frames(app)
    assert "stale: the scenario was edited since" in _texts(ed)
    # Esc closes the panel: the map shows again
    press(pygame.K_ESCAPE)
    frames(app)
    assert ed.balance is None and _shot(app).get_at(inside) == before.get_at(inside)


def test_battles_a_level_are_set_and_a_run_is_cancelled(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path)
    press(pygame.K_b, mod=pygame.KMOD_CTRL)
    frames(app)
    _until_done(app, ed)
    for _ in range(len(BATTLES)):
        press(pygame.K_EQUALS, "+")
    frames(app)
    assert ed.balance_battles == BATTLES[-1] and app.settings.editor["balance_battles"] == BATTLES[-1]
    assert f"next run: {BATTLES[-1]}" in _texts(ed)
    press(pygame.K_b, mod=pygame.KMOD_CTRL)
    frames(app)
    run = ed.balance
    assert run is not None and run.battles == BATTLES[-1] and run.running
    assert "Esc cancels" in _texts(ed)
    press(pygame.K_ESCAPE)
    frames(app)
    run.thread.join(timeout=120)
    frames(app)
    assert run.cancelled and run.results == () and run.done < run.total
    assert "cancelled after" in _texts(ed) and ed.balance is run
    press(pygame.K_MINUS, "-")
    frames(app)
    assert ed.balance_battles == BATTLES[-2]
    assert next_battles(2, 1) == BATTLES[0] and next_battles(BATTLES[0], -1) == BATTLES[0]


def test_a_scenario_with_problems_is_not_balanced(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path)
    ed.doc.set(("sides", 0, "units", 0, "weapons"), ["lasrifle"])
    press(pygame.K_b, mod=pygame.KMOD_CTRL)
    frames(app)
    assert ed.balance is None and any("cannot balance" in t.text for t in ed.toasts)


def test_a_second_run_after_an_edit_plays_the_edited_scenario(app: App, tmp_path: Path) -> None:
    """The battles are played from a scratch copy of the scenario: a run after an edit must not play the
    copy an earlier run loaded (skirmish.sim.batch caches a scenario by its path)."""
    from skirmish.sim.batch import _scenario

    ed = _open(app, tmp_path)
    press(pygame.K_b, mod=pygame.KMOD_CTRL)
    frames(app)
    _until_done(app, ed)
    first = ed.balance
    assert first is not None and first.error is None
    ed.doc.set(("victory", "max_rounds"), 1)
    ed.doc.set(("sides", 1, "units", 0, "at"), [2, 1])  # Red next to Blue: the battles go otherwise
    press(pygame.K_b, mod=pygame.KMOD_CTRL)
    frames(app)
    _until_done(app, ed)
    run = ed.balance
    assert run is not None and run is not first and run.error is None
    _scenario.cache_clear()
    fresh = tuple(balance(run.path, side, battles=2) for side in ("Blue", "Red"))
    assert run.results == fresh
    assert run.results != first.results


def test_leaving_the_editor_while_a_run_plays_stops_it_quietly(app: App, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The Menu button while the figures are being made: the run is cancelled, its thread ends on its own
    (after the battle being played) and raises nothing later; the menu keeps drawing."""
    import threading

    from skirmish.ui.screens import MenuScreen

    raised: list[BaseException | None] = []
    monkeypatch.setattr(threading, "excepthook", lambda args: raised.append(args.exc_value))
    ed = _open(app, tmp_path)
    ed.balance_battles = 50
    press(pygame.K_b, mod=pygame.KMOD_CTRL)
    frames(app)
    run = ed.balance
    assert run is not None and run.running
    menu_button = next(b.rect for b in ed.buttons.buttons if b.label.startswith("Menu"))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=menu_button.center, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=menu_button.center, button=1))
    frames(app, 2)
    assert isinstance(app.screen, MenuScreen) and run.stopping
    run.thread.join(timeout=120)
    frames(app, 2)
    assert not run.running and run.cancelled and run.results == () and raised == []
    assert not any(t.name == "skirmish-balance" and t.is_alive() for t in threading.enumerate())


def test_ctrl_b_during_a_run_cancels_it_and_starts_again(app: App, tmp_path: Path) -> None:
    ed = _open(app, tmp_path)
    press(pygame.K_b, mod=pygame.KMOD_CTRL)
    frames(app)
    first = ed.balance
    assert first is not None and first.running
    press(pygame.K_b, mod=pygame.KMOD_CTRL)
    frames(app)
    run = ed.balance
    assert run is not None and run is not first and first.stopping
    _until_done(app, ed)
    first.thread.join(timeout=120)
    assert first.cancelled and first.results == ()
    assert run.error is None and not run.cancelled
    assert run.results == tuple(balance(run.path, side, battles=2) for side in ("Blue", "Red"))
    assert "cancelled" not in _texts(ed) and "fair by side" in _texts(ed)
