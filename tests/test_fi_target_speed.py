"""Target speed (seed 000_..., Ranged Combat, "Target Speed"; RULES.md is silent, docs/RULES-NOTES.md "Target
speed"): a target whose fastest move this round covered more than FAST_TARGET_M (20) metres in its one action is
shot at FAST_TARGET_MOD (-4), besides R-6.1's -1 per 3 m moved: in the battle's shot (the attack event and its log
line), in Battle.odds, in the AI's estimate, in the board's attack menu; a stacked-deck example through the CLI and
a property (it applies exactly when the target's Rate is above the threshold)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmish.ai.controllers import ScriptedController
from skirmish.ai.estimate import estimate_shot
from skirmish.battle import Battle
from skirmish.content.armoury import shipped
from skirmish.content.scenario import parse_scenario
from skirmish.ecs.components import Turn
from skirmish.rules.actions import Shoot
from skirmish.rules.deck import Card
from skirmish.rules.equipment import Weapon
from skirmish.rules.fi.shot_numbers import FAST_TARGET_M, FAST_TARGET_MOD, ShotFacts, fast_target, shot_numbers
from skirmish.ui.fi_ranged import speed_note
from tests.conftest import cli, make_card, write_deck

DATA = Path(__file__).parent / "data" / "ranged"
FAST = "target faster than Rate 20"


def fast_rider_cards() -> list[Card]:
    init = make_card(1, upper={("III", 3): 12, ("III", 2): 7})
    shot = make_card(20, upper={("III", 3): 13}, toggle=False)
    filler = make_card(5, hit_stack=("chest", "vitals", "belly", "left_leg"), standard=0, lower={("III", 3): 11})
    return [init, shot] + [filler] * 10


def test_the_stacked_deck_file_is_the_one_the_test_writes(tmp_path: Path) -> None:
    fresh = write_deck(tmp_path / "deck.json", fast_rider_cards())
    assert json.loads((DATA / "fast_rider_deck.json").read_text()) == json.loads(fresh.read_text())


def test_a_fast_rider_through_the_cli() -> None:
    """The rider's bike covers 22 m in one move: 13 - 7 (moved 22 m) - 4 (faster than Rate 20) = 2 vs TN 5."""
    code, out, err = cli("run", str(DATA / "fast_rider.yaml"), "--json")
    assert code == 0, err
    events = [json.loads(x) for x in out.splitlines()]
    move = next(e for e in events if e["type"] == "move")
    assert move["metres"] == 22.0
    attack = next(e for e in events if e["type"] == "attack")
    mods = {m["reason"]: m["value"] for m in attack["modifiers"]}
    assert mods == {"target moved 22 m this round": -7, f"{FAST} (22 m in an action)": -4}
    assert (attack["card"], attack["tn"], attack["result"], attack["hit"]) == (20, 5, 2, False)
    code, text, _ = cli("run", str(DATA / "fast_rider.yaml"))
    assert "reads 13 -7 target moved 22 m this round; -4 target faster than Rate 20 (22 m in an action) = 2" in text


def _battle(tmp_path: Path, to_x: int, stacked: bool = True) -> Any:
    """The fast-rider scenario with its own deck (`stacked` False: the shuffled built-in deck), stopped at the
    shooter's turn after the rider moved to `to_x`."""
    write_deck(tmp_path / "fast_rider_deck.json", fast_rider_cards())
    text = (DATA / "fast_rider.yaml").read_text().replace("move Rider 13,0", f"move Rider {to_x},0")
    if not stacked:
        text = text.replace("deck: {cards: fast_rider_deck.json, shuffle: false}", "")
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    b = Battle(sc, controllers={s.name: ScriptedController(s.orders) for s in sc.spec.sides})  # type: ignore[arg-type]
    while b.pending is not None and not (b.pending.unit == "Shooter" and b.pending.kind == "act"):
        b.step()
    return b


@pytest.mark.parametrize(("to_x", "metres", "fast"), [(7, 10.0, False), (12, 20.0, False), (13, 22.0, True),
                                                       (17, 30.0, True)])
def test_the_modifier_applies_exactly_above_rate_20(tmp_path: Path, to_x: int, metres: float, fast: bool) -> None:
    """The battle, its odds and the AI's estimate agree: -4 only when the move covered more than 20 m."""
    with _battle(tmp_path, to_x) as b:
        assert b.world.peek(b.world.entity("Rider"), Turn).rate_m == metres
        shot = Shoot("Shooter", "Rider", mode="prepared")
        setup, _, _ = b.sys.shot_setup(b.world.entity("Shooter"), shot)
        reasons = [m.reason for m in setup.result_mods]
        assert any(r.startswith(FAST) for r in reasons) == fast
        view = b.observe("Guns")  # the shooter's side's view: the rider's speed shows (it is seen moving)
        assert view.unit("Rider").rate_m == metres
        est = estimate_shot(view, view.unit("Shooter"), view.unit("Rider"), mode="prepared")
        assert est.modifier == sum(m.value for m in setup.result_mods)
        note = speed_note(view.unit("Rider"))
        assert (note == f" · Rider moving fast: -4 ({metres:.0f} m in an action)") == fast and (note == "") != fast


def test_the_odds_before_committing_count_it(tmp_path: Path) -> None:
    """Battle.odds (the board's odds before a shot is committed) over a shuffled deck: lower for the rider that
    covered 22 m in its move than for the same rider had its move been 20 m (the -1 per 3 m unchanged: 22 m)."""
    with _battle(tmp_path, 13, stacked=False) as b:
        shot = Shoot("Shooter", "Rider", mode="prepared")
        fast = b.odds(shot).hit
        b.world.get(b.world.entity("Rider"), Turn).rate_m = 20.0
        slow = b.odds(shot).hit
        assert 0 < fast < slow


def test_the_rate_is_the_fastest_move_and_clears_at_the_round_end(tmp_path: Path) -> None:
    with _battle(tmp_path, 13) as b:
        rider = b.world.entity("Rider")
        b.run()
        assert b.world.peek(rider, Turn).rate_m == 0.0  # end of round 1 (R-5.1: a fresh round)


def test_a_ghost_shows_no_speed(tmp_path: Path) -> None:
    from skirmish.ecs.knowledge import Sighting, ghost

    with _battle(tmp_path, 13) as b:
        u = b.view().unit("Rider")
        s = Sighting(u.cell, 1, u.facing, u.prone, u.out_of_action, u.dead, u.wounds, u.armour)
        assert u.rate_m == 22.0 and ghost(u, "Guns", s, False).rate_m == 0.0


WEAPON: Weapon = shipped().weapons["blast_carbine"]


@given(rate=st.floats(min_value=0.0, max_value=200.0, allow_nan=False), moved=st.floats(min_value=0.0, max_value=400.0))
def test_property_the_modifier_is_there_exactly_above_the_threshold(rate: float, moved: float) -> None:
    _, _, mods = shot_numbers(WEAPON, ShotFacts(distance_m=10.0, target_moved_m=moved, target_rate_m=rate), 5)
    fast = [m for m in mods if m.reason.startswith(FAST)]
    assert len(fast) == (1 if rate > FAST_TARGET_M else 0)
    assert all(m.value == FAST_TARGET_MOD for m in fast)
    assert (fast_target(rate) is not None) == (rate > FAST_TARGET_M)


def test_the_threshold_and_the_penalty_are_data(monkeypatch: pytest.MonkeyPatch) -> None:
    import skirmish.rules.fi.shot_numbers as sn

    monkeypatch.setattr(sn, "FAST_TARGET_M", 10.0)
    monkeypatch.setattr(sn, "FAST_TARGET_MOD", -3)
    m = sn.fast_target(12.0)
    assert m is not None and m.value == -3 and m.reason == "target faster than Rate 10 (12 m in an action)"
    assert replace(ShotFacts(distance_m=1.0), target_rate_m=12.0).target_rate_m == 12.0
