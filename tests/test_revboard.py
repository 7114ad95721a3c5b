"""Review of the board's ranged modes and the FI RL blocks (issue 14, reviewer "revboard"): each test shows a
defect found in review, fixed beside it."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.content.scenario import Scenario, parse_scenario
from skirmish.rules.actions import Launch, Throw
from skirmish.ui.app import App
from skirmish.ui.battle import BattleScreen
from tests.ui_helpers import cell_px, frames, hover, press

TRAITS = "{strength: III-2, dexterity: V-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
WALLED = ["................", "................", "########.#######", "................", "................"]


pytestmark = pytest.mark.usefixtures("isolated_config")


def _hidden_mover(tmp_path: Path) -> Scenario:
    """Me (a launcher and a grenade) south of a wall; Kyr-1 north of it, last seen at 1,0, walks unseen to 8,1
    in round 1 (Me ends its turn), so in round 2 Crew's view holds a ghost at 1,0."""
    text = f"""
name: hidden mover
seed: 2
ruleset: fi
map: {{ascii: {WALLED!r}}}
victory: {{max_rounds: 4}}
sides:
  - name: Crew
    controller: ai
    units:
      - {{name: Me, at: [1, 4], traits: {TRAITS}, skills: {{'shooting:launcher': 3, throwing: 2}},
         weapons: [grenade_launcher, {{weapon: frag_grenade, ammo: 1}}]}}
  - name: Kyr
    controller: scripted
    orders: ["declare Kyr-1 speed=normal", "move Kyr-1 to=8,1", "declare Kyr-1 speed=normal", "end Kyr-1"]
    units:
      - {{name: Kyr-1, at: [1, 0], traits: {TRAITS}}}
"""
    return parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)


def _round_two(app: App) -> BattleScreen:
    screen = app.screen
    assert isinstance(screen, BattleScreen)
    for _ in range(600):
        frames(app, 1)
        req = screen.session.human_request()
        if req is None or screen.anim.busy:
            continue
        if req.kind == "declare":
            press(pygame.K_2)
        elif req.kind == "act" and screen.session.battle.view().round == 1:
            press(pygame.K_e)
        elif req.kind == "act":
            return screen
    raise AssertionError("Me never acted in round 2")


def test_launch_and_throw_odds_on_the_board_name_no_enemy_the_side_does_not_see(tmp_path: Path) -> None:
    """The launch box (L) and the throw tip (T) read Battle.odds, which is all-seeing: they named an enemy the
    side does not see (its ghost elsewhere) as caught in the burst, telling where it truly is (fog of war)."""
    app = App(scenario=_hidden_mover(tmp_path), controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = _round_two(app)
    battle = screen.session.battle
    ghost = screen.view_now().unit("Kyr-1")
    assert ghost.ghost and ghost.cell == (1, 0) and battle.view().unit("Kyr-1").cell == (8, 1)
    aim = (8, 3)
    assert battle.odds(Launch("Me", aim)).caught["Kyr-1"] > 0.5  # the engine's odds see it (the AI's are its own)
    assert battle.odds(Throw("Me", aim, "frag_grenade")).caught["Kyr-1"] > 0.5
    hover(cell_px(screen, aim))
    press(pygame.K_l)
    frames(app, 2)
    modes = screen.commands.ranged  # type: ignore[attr-defined]
    assert modes.mode == "launch"
    text = " ".join(t for t, _ in modes.lines())
    assert "on target" in text and "Me" in text and "Kyr-1" not in text
    press(pygame.K_l)
    press(pygame.K_t)
    frames(app, 2)
    assert screen.throwing == "frag_grenade"
    tip = screen._throw_preview(aim)
    assert not isinstance(tip, str) and "on target" in tip.label() and "Kyr-1" not in tip.label()


def test_the_defence_plane_stays_in_the_observation_box_for_a_result_below_zero(tmp_path: Path) -> None:
    """An active defence's result may be below zero (a low draw, -4 standing, wounds: seen at -1 in boarding_action
    seed 1 played at random); the `defence` plane read it as -0.05, outside the observation space's [0, 1]. A result
    at or below zero helps no one (TN = max(normal TN, result), R-7.5): it reads 0."""
    from dataclasses import replace

    from skirmish.battle import Battle
    from skirmish.ecs.view import replace_unit
    from skirmish.env.observation import CHANNELS, Observer

    text = f"""
name: low defence
seed: 2
ruleset: fi
map: {{ascii: ["......", "......"]}}
sides:
  - name: Crew
    controller: ai
    units: [{{name: Me, at: [1, 0], traits: {TRAITS}, melee: [combat_knife]}}]
  - name: Kyr
    controller: ai
    units: [{{name: Kyr-1, at: [2, 0], traits: {TRAITS}, melee: [combat_knife]}}]
"""
    with Battle(parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)) as battle:
        view = battle.observe("Crew")
    ch = CHANNELS.index("defence")
    for result, plane in ((-1, 0.0), (-9, 0.0), (0, 0.0), (7, 7 / 20), (25, 1.0)):
        units = tuple(replace_unit(u, {"melee": replace(u.melee, defence=result)}) if u.melee is not None else u
                      for u in view.units)
        obs = Observer(view).observe(replace(view, units=units), "Crew", "Me", False)
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        assert obs[0, 1, ch] == pytest.approx(plane) and obs[0, 2, ch] == pytest.approx(plane)


def test_a_mode_ends_with_its_units_turn_not_carried_to_the_next_unit(tmp_path: Path) -> None:
    """A split burst put together for one unit, whose turn then ends another way (E), stayed on for the side's next
    unit: its box showed the first unit's split with odds Battle.odds worked out for the unit acting now, and Enter
    fired the first unit's shot out of turn (refused). A mode belongs to the unit it was started for."""
    from skirmish.rules.actions import Shoot

    text = f"""
name: two shooters
seed: 2
ruleset: fi
map: {{ascii: ["................", "................", "................", "................", "................"]}}
victory: {{max_rounds: 3}}
sides:
  - name: Crew
    controller: ai
    units:
      - {{name: Me, at: [1, 2], traits: {TRAITS}, weapons: [blast_rifle], skills: {{'shooting:rifle': 5}}}}
      - {{name: Mate, at: [1, 4], traits: {TRAITS}, weapons: [blast_rifle], skills: {{'shooting:rifle': 1}}}}
  - name: Kyr
    controller: idle
    units:
      - {{name: Kyr-1, at: [7, 1], traits: {TRAITS}}}
      - {{name: Kyr-2, at: [8, 3], traits: {TRAITS}}}
"""
    app = App(scenario=parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path),
              controls={"Crew": "human", "Kyr": "ai"}, size=(1280, 800))
    screen = app.screen
    assert isinstance(screen, BattleScreen)

    def acting(but: str | None = None) -> str:
        for _ in range(600):
            frames(app, 1)
            req = screen.session.human_request()
            if req is not None and req.kind == "declare" and not screen.anim.busy:
                press(pygame.K_2)
            elif req is not None and req.kind == "act" and not screen.anim.busy and req.unit != but:
                return req.unit
        raise AssertionError("no unit of Crew acted")

    first = acting()
    view = screen.session.view()
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=cell_px(screen, view.unit("Kyr-1").cell), button=1))
    frames(app, 2)
    press(pygame.K_s)
    frames(app, 1)
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=cell_px(screen, view.unit("Kyr-2").cell), button=1))
    frames(app, 2)
    modes = screen.commands.ranged  # type: ignore[attr-defined]
    assert modes.mode == "split" and modes.split.unit == first and modes.split.targets == ["Kyr-1", "Kyr-2"]
    press(pygame.K_e)
    second = acting(but=first)
    frames(app, 2)
    assert second != first and modes.mode is None and modes.split is None and not modes.lines()
    press(pygame.K_RETURN)
    frames(app, 3)
    assert not [e for e in screen.session.battle.log.events if e.type == "refused"]
    assert not [e for e in screen.session.battle.log.events if e.type == "attack"]  # nothing fired
    assert screen.session.battle.check(Shoot(first, "Kyr-1", mode="prepared", burst=5, also=("Kyr-2",))) is not None
