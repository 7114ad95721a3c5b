"""The board watches a battle with melee in it (the seed's Close example) to its results: every melee event is
drawn in the log without the board knowing it (its own melee panel comes later, issue 14), and the log file it
keeps has them all (SDL dummy driver)."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import load_scenario
from skirmish.ui.app import App
from skirmish.ui.screens import ResultsScreen
from skirmish.ui.settings import Settings

DATA = Path(__file__).resolve().parent / "data" / "melee"


pytestmark = pytest.mark.usefixtures("isolated_config")


def test_the_board_watches_close_and_open_to_the_results(tmp_path: Path) -> None:
    sc = load_scenario(DATA / "close.yaml")
    app = App(scenario=sc, controls={s.name: "ai" for s in sc.spec.sides}, settings=Settings(speed=8.0),
              size=(1000, 650))
    for _ in range(8000):
        assert app.tick(1 / 60)
        if isinstance(app.screen, ResultsScreen):
            break
    assert isinstance(app.screen, ResultsScreen)
    shot = pygame.image.load(str(app.screenshot(tmp_path / "results.png")))
    assert shot.get_size() == (1000, 650)
    assert app.last_log is not None
    types = [json.loads(line)["type"] for line in app.last_log.read_text().splitlines()]
    assert types.count("melee") == 3 and types.count("maneuver") == 2
    app.close()
