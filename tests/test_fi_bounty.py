"""Bounty (R-8.5, seed 000 "Bounty"; issue 14 item 5): as a battle with story chips ends, each side's unspent chips
count as bounty points (blue 3, red 2, white 1) in the `result` event's optional `bounty` field; `skirmish run`
prints them on a line before the C-1 summary line, the board's results screen shows them, and `skirmish sim` adds a
`bounty` column (and summary.json a `bounty` key) only when a battle had chips — a batch without writes the same
files as before."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pygame
import pytest

from skirmish.ai.controllers import make_controller
from skirmish.battle import Battle
from skirmish.cli import main
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario
from skirmish.rules.fi import chips as C
from skirmish.sim.batch import CSV_HEADER, read_rows
from tests.conftest import cli
from tests.test_fi_chips import INIT, SAVE, of, scenario, shot_card


def test_the_seed_values_of_a_hand() -> None:
    assert C.bounty_points(C.counts(white=2, red=1, blue=3)) == 2 + 2 + 9
    assert C.bounty_points(C.counts()) == 0


def test_unspent_chips_are_the_result_events_bounty_and_run_prints_them(tmp_path: Path) -> None:
    """Xenes hold white + blue and spend the white on the shot: 3 left (the blue); the Thug spends his red on the
    wounds: 0. Without orders nothing is spent: 1 + 3 and 2."""
    path = scenario(tmp_path, [INIT, shot_card(4), SAVE, INIT, INIT])
    code, out, err = cli("run", str(path), "--json")
    assert code == 0, err
    evs = [json.loads(line) for line in out.splitlines()]
    assert [c["colour"] for c in of(evs, "chip")] == ["white", "red"]
    assert evs[-1]["type"] == "result" and evs[-1]["bounty"] == {"Xenes": 3, "Thugs": 0}
    code, out, err = cli("run", str(path))
    lines = out.splitlines()
    assert code == 0 and lines[-1].startswith("result: winner=") and lines[-2] == "bounty: Xenes=3 Thugs=0"
    assert "bounty {'Xenes': 3, 'Thugs': 0}" in lines[-3]  # the result event's line
    kept = scenario(tmp_path, [INIT, shot_card(4), SAVE, INIT, INIT], x_orders="[]", t_orders="[]")
    code, out, _ = cli("run", str(kept))
    assert code == 0 and out.splitlines()[-2] == "bounty: Xenes=4 Thugs=2"
    code, out, _ = cli("run", str(path), "--quiet")  # --quiet: the C-1 result line alone, bounty or not
    assert code == 0 and len(out.splitlines()) == 1 and out.startswith("result: winner=")


def test_a_battle_without_chips_has_no_bounty(tmp_path: Path) -> None:
    path = scenario(tmp_path, [INIT, shot_card(4), SAVE, INIT, INIT])
    path.write_text(path.read_text(encoding="utf-8").replace("options: {chips: true}", "options: {chips: false}")
                    .replace("    chips: {white: 1, blue: 1}\n", "").replace("    chips: {red: 1}\n", "")
                    .replace("    chip_draws: 0\n", "").replace('    chip_orders: ["Xenes check white up"]\n', "")
                    .replace('    chip_orders: ["Thug wounds red"]\n', ""), encoding="utf-8")
    code, out, err = cli("run", str(path), "--json")
    assert code == 0, err
    result = json.loads(out.splitlines()[-1])
    assert result["type"] == "result" and "bounty" not in result
    code, out, _ = cli("run", str(path))
    assert code == 0 and not any(line.startswith("bounty") for line in out.splitlines())


def _sim(args: list[str]) -> int:
    with pytest.raises(SystemExit) as exc:
        main(["sim", *args])
    return int(exc.value.code or 0)


def test_sim_adds_the_bounty_column_only_for_battles_with_chips(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    chipped = scenario(tmp_path, [INIT, shot_card(4), SAVE, INIT, INIT])
    assert _sim([str(chipped), "--battles", "2", "--workers", "1", "--out", str(tmp_path / "a")]) == 0
    rows = read_rows(tmp_path / "a" / "battles.csv")
    header = (tmp_path / "a" / "battles.csv").read_text(encoding="utf-8").splitlines()[0].split(",")
    assert header == [*CSV_HEADER, "bounty"] and [r["bounty"] for r in rows] == [{"Xenes": "3", "Thugs": "0"}] * 2
    summary = json.loads((tmp_path / "a" / "summary.json").read_text(encoding="utf-8"))
    assert set(summary["scenarios"][0]["bounty"]) == {"Xenes", "Thugs"}
    plain = SCENARIOS_DIR / "killhouse_drill.yaml"
    assert _sim([str(plain), "--battles", "1", "--workers", "1", "--out", str(tmp_path / "b")]) == 0
    text = (tmp_path / "b" / "battles.csv").read_text(encoding="utf-8")
    assert text.splitlines()[0].split(",") == CSV_HEADER and "bounty" not in text
    assert "bounty" not in (tmp_path / "b" / "summary.json").read_text(encoding="utf-8")
    capsys.readouterr()


def test_the_results_screen_shows_the_bounty(tmp_path: Path) -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from skirmish.ui.app import App
    from skirmish.ui.layout import layout_problems
    from skirmish.ui.screens import Reset, ResultsScreen
    from skirmish.ui.settings import Settings

    sc = load_scenario(scenario(tmp_path, [INIT, shot_card(4), SAVE, INIT, INIT]))
    b = Battle(sc, controllers={s.name: make_controller(s.controller, s.orders) for s in sc.spec.sides})  # type: ignore[arg-type]
    outcome = b.run()
    assert outcome.bounty == {"Xenes": 3, "Thugs": 0}
    a = App(size=(1024, 700), settings=Settings())
    try:
        screen = ResultsScreen(a.fonts, outcome, sc, {}, a.start_battle, a.make_menu, None, b.log.events)
        a.apply(Reset(screen))
        assert a.tick(1 / 60)
        assert screen.page is not None
        texts = [t for t, _ in screen.page.lines]
        assert any(t.endswith("· bounty Xenes 3, Thugs 0") for t in texts), texts[:3]
        assert layout_problems(screen.page, a.window.get_rect(), screen.buttons.buttons) == []  # type: ignore[arg-type]
        assert isinstance(pygame.display.get_surface(), pygame.Surface)
    finally:
        a.close()
        b.close()
