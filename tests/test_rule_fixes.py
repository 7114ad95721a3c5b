"""Rules that were applied wrongly or not at all (issue 10, items 1, 3, 7, 9, 13-19), each replayed with a
stacked deck and scripted orders through the whole battle, or checked on the pure rules."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from skirmish.ai.controllers import make_controller
from skirmish.ai.utility import UtilityAI
from skirmish.battle import Battle
from skirmish.content.armoury import shipped
from skirmish.content.scenario import load_scenario, parse_scenario
from skirmish.ecs.systems.fi import IllegalAction
from skirmish.rules.actions import Move, Shoot
from skirmish.rules.fi.ranged import ShotFacts, ae_bonus, ae_shift, damage_row, shot_numbers
from skirmish.rules.fi.timing import Part, add_part, turn_speed
from tests.conftest import ROOT, make_card, write_deck

ARM = shipped()
TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-2, vigor: III-2, acuity: II-2}"


def _battle(tmp_path: Path, cards: list, units_a: str, units_b: str, orders_a: list[str],
            orders_b: list[str] | None = None, rows: tuple[str, ...] = ("............", "............"),
            victory: str = "{max_rounds: 3}") -> Battle:
    deck = write_deck(tmp_path / "deck.json", cards)
    text = f"""
name: fixture
seed: 1
map: {{ascii: {list(rows)!r}}}
deck: {{cards: {deck.name}, shuffle: false}}
victory: {victory}
sides:
  - name: Alpha
    controller: scripted
    orders: {orders_a!r}
    units: {units_a}
  - name: Beta
    controller: scripted
    orders: {(orders_b or [])!r}
    units: {units_b}
"""
    sc = parse_scenario(text, str(tmp_path / "s.yaml"), base=tmp_path)
    ctrl = {s.name: make_controller(s.controller, s.orders) for s in sc.spec.sides}
    return Battle(sc, controllers=ctrl)  # type: ignore[arg-type]


def _unit(name: str, at: tuple[int, int], extra: str = "") -> str:
    return f"{{name: {name}, at: [{at[0]}, {at[1]}], traits: {TRAITS}{', ' + extra if extra else ''}}}"


def _until_act(b: Battle, unit: str) -> None:
    while b.pending is not None and not (b.pending.kind == "act" and b.pending.unit == unit):
        b.step()
    assert b.pending is not None, f"{unit} never got a turn"


INIT = make_card(1, upper={("III", 2): 9})  # everyone reads 9: phase I at FAST, II at NORMAL, III at SLOW
MISS = make_card(3, upper={(c, r): 1 for c in ("I", "II", "III", "IV", "V", "VI") for r in range(1, 6)})


# ---------------------------------------------------------------------------------------------- item 1
def test_a_miniature_declared_fast_can_be_moved_on_the_board(tmp_path: Path) -> None:
    """Under FAST every move is a run (R-5.4): the board's questions (move_refusal, preview_move) must
    accept the run that submit accepts, instead of checking a walk and refusing with R-5.3."""
    b = _battle(tmp_path, [INIT] * 6, f"[{_unit('Runner', (0, 0))}]", f"[{_unit('Post', (11, 1))}]",
                ["declare Runner fast"])
    _until_act(b, "Runner")
    assert b.move_refusal() is None
    path, metres, running = b.preview_move((2, 0))
    assert running and metres == pytest.approx(4.0) and path[-1] == (2, 0)
    b.submit(Move("Runner", (2, 0)))
    assert b.view().unit("Runner").cell == (2, 0)
    b.close()


def test_a_refused_move_still_names_the_rule(tmp_path: Path) -> None:
    """After a SLOW-making aim under NORMAL, no move fits: the refusal still names R-5.3/R-5.5."""
    b = _battle(tmp_path, [INIT] * 6, f"[{_unit('Aimer', (0, 0), 'weapons: [blast_rifle]')}]",
                f"[{_unit('Post', (6, 0))}]", ["declare Aimer normal", "aim Aimer Post"])
    _until_act(b, "Aimer")
    b.step()  # the aim (NORMAL for a blast rifle)
    why = b.move_refusal()
    assert why is not None and why.startswith("R-5.")
    with pytest.raises(IllegalAction, match=r"R-5"):
        b.preview_move((1, 0))
    b.close()


# ---------------------------------------------------------------------------------------------- item 3
@pytest.mark.parametrize("eliminate", ["true", "false"])
def test_a_side_with_nobody_left_cannot_draw(tmp_path: Path, eliminate: str) -> None:
    """The only Beta is put out of action in round 1: Alpha wins at once, and the reason says why."""
    shot = make_card(34, upper={("III", 4): 7}, lower={("III", 3): 26}, burst={3: 2, 5: 3, 10: 5},
                     hit_stack=("head", "chest", "left_arm", "belly"), standard=2, ablation=("P", "P", "P"),
                     toggle=False)
    gun = _unit("Gun", (0, 0), "weapons: [blast_carbine], skills: {shooting:rifle: 4}")
    orders = ["declare Gun normal", "shoot Gun Mark mode=prepared burst=3 spends=none"]
    b = _battle(tmp_path, [INIT, shot, INIT, INIT], f"[{gun}]", f"[{_unit('Mark', (4, 0))}]", orders,
                victory=f"{{eliminate: {eliminate}, max_rounds: 15}}")
    out = b.run()
    result = next(e for e in b.log if e.type == "result")
    assert out.winner == "Alpha" and out.rounds == 1
    assert result.reason == "nobody left standing: Beta"
    b.close()


def test_the_round_limit_reason_is_the_round_limit(tmp_path: Path) -> None:
    b = _battle(tmp_path, [INIT] * 8, f"[{_unit('A', (0, 0))}]", f"[{_unit('B', (11, 1))}]", [],
                victory="{max_rounds: 2}")
    out = b.run()
    assert out.winner is None and out.rounds == 2
    assert next(e for e in b.log if e.type == "result").reason == "round limit"
    b.close()


# ---------------------------------------------------------------------------------------------- item 7
def test_no_declaration_shows_until_it_is_made(tmp_path: Path) -> None:
    """R-5.1: a unit that has not declared this round has no declared speed (the board shows '—'), also
    in the second round, where last round's speed must not linger."""
    b = _battle(tmp_path, [INIT] * 10, f"[{_unit('A', (0, 0))}]", f"[{_unit('B', (11, 1))}]",
                ["declare A fast", "declare A slow"])
    assert b.pending is not None and b.pending.kind == "declare"
    assert {u.name: u.declared for u in b.view().units} == {"A": None, "B": None}
    b.step()
    assert b.view().unit("A").declared == "fast" and b.view().unit("B").declared is None
    while b.ctx.round < 2 and b.pending is not None:
        b.step()
    assert b.pending is not None and b.pending.kind == "declare"
    assert {u.name: u.declared for u in b.view().units} == {"A": None, "B": None}
    b.close()


# ---------------------------------------------------------------------------------------------- item 9
def test_the_heat_map_outlines_the_cell_the_ai_moved_to() -> None:
    """Depot breach, whole battles (seed 3, then more until ten moves are checked: how many moves a battle holds
    follows the AI's play): after every move the utility AI decides, the best cell of its heat map is where the
    unit went (it was wrong for 3 of 10 moves when the map showed cell scores only)."""
    sc = load_scenario(ROOT / "scenarios" / "depot_breach.yaml")
    checked = 0
    for seed in (3, 7, 1, 2, 4, 5, 6, 8):
        ais = {s.name: UtilityAI() for s in sc.spec.sides}
        with Battle(sc, seed=seed, controllers=ais) as b:  # type: ignore[arg-type]
            while b.pending is not None:
                req = b.pending
                ai = ais[req.side]
                action, trace = ai.decide_traced(b.view(), req)
                if isinstance(action, Move) and req.unit in ai.heat:
                    heat = ai.heat[req.unit]
                    y, x = np.unravel_index(int(np.nanargmax(heat)), heat.shape)
                    assert (int(x), int(y)) == tuple(action.to), f"seed {seed}, round {b.ctx.round}: {req.unit}"
                    checked += 1
                b.answer(req, action, trace)
        if checked >= 10:
            break
    assert checked >= 10


# ---------------------------------------------------------------------------------------------- item 13
def test_a_laser_burst_needs_power_for_every_round(tmp_path: Path) -> None:
    """R-6.13: a tacpack with 1 point free fires one laser shot, not a burst of 3 charged 1."""
    gun = _unit("Laser", (0, 0), "weapons: [laser_rifle], tacpack: {type: tp4, screen: kinetic, screen_points: 3}")
    b = _battle(tmp_path, [INIT, MISS, MISS, INIT], f"[{gun}]", f"[{_unit('Mark', (6, 0))}]",
                ["declare Laser normal"])
    _until_act(b, "Laser")
    with pytest.raises(IllegalAction, match=r"R-6\.13: the tacpack has 1 point.*burst of 3 draws 3"):
        b.submit(Shoot("Laser", "Mark", mode="prepared", burst=3))
    assert not b.view().unit("Laser").can_fire_burst(3) and b.view().unit("Laser").can_fire_burst(0)
    b.submit(Shoot("Laser", "Mark", mode="prepared"))
    assert b.view().unit("Laser").shot_points == 1
    b.close()


def test_a_burst_with_power_enough_draws_a_point_a_round(tmp_path: Path) -> None:
    gun = _unit("Laser", (0, 0), "weapons: [laser_rifle], tacpack: {type: tp6}")
    b = _battle(tmp_path, [INIT, MISS, INIT], f"[{gun}]", f"[{_unit('Mark', (6, 0))}]", ["declare Laser normal"])
    _until_act(b, "Laser")
    b.submit(Shoot("Laser", "Mark", mode="prepared", burst=5))
    assert b.view().unit("Laser").shot_points == 5
    b.close()


# ---------------------------------------------------------------------------------------------- item 14
def test_kayla_wide_beam_just_under_twenty_metres() -> None:
    """R-6.9, the seed's example: a hand flamer on wide beam at just under 20 m gets +1 to the shot and
    shifts damage 3 rows; at 1-10 m it shifts all 4 rows and gets no bonus."""
    flamer = ARM.weapons["hand_flamer"]
    assert (ae_shift(flamer, 19.5), ae_bonus(flamer, 19.5)) == (3, 1)
    assert (ae_shift(flamer, 20.0), ae_bonus(flamer, 20.0)) == (3, 1)
    assert (ae_shift(flamer, 8.0), ae_bonus(flamer, 8.0)) == (4, 0)
    assert (ae_shift(flamer, 45.0), ae_bonus(flamer, 45.0)) == (0, 4)
    _, _, mods = shot_numbers(flamer, ShotFacts(distance_m=19.5, mode="prepared"), 5)
    assert [m.value for m in mods if "R-6.9" in m.reason] == [1]


def test_the_area_bonus_reaches_the_attack_result(tmp_path: Path) -> None:
    """Through the battle: the flamer's read of 9 at 20 m is a result of 10 (it was 9)."""
    shot = make_card(20, upper={("III", 3): 9})
    flamer = _unit("Kayla", (0, 0), "weapons: [hand_flamer], skills: {shooting:flamer: 3}")
    b = _battle(tmp_path, [INIT, shot, INIT], f"[{flamer}]", f"[{_unit('Blob', (10, 0))}]",
                ["declare Kayla normal", "shoot Kayla Blob mode=prepared spends=none"], victory="{max_rounds: 1}")
    b.run()
    attack = next(e for e in b.log if e.type == "attack")
    assert attack.distance_m == 20.0 and attack.read == 9 and attack.result == 10
    assert "R-6.9" in " ".join(m["reason"] for m in attack.modifiers)
    b.close()


# ---------------------------------------------------------------------------------------------- item 15
def test_location_rows_apply_to_shotguns_not_to_explosives() -> None:
    """R-6.8: only explosives take no location rows. A combat shotgun (2d8, AE 4) to the head at 6 m reads
    row 2 + 2 (head) + 4 (AE) = 8, so the last row, 7; a frag grenade to the head stays on its row."""
    shotgun = ARM.weapons["combat_shotgun"]
    assert damage_row(shotgun, shotgun.damage.row, "head", 6.0) == 7
    assert damage_row(shotgun, shotgun.damage.row, "vitals", 25.0) == 2 + 1 + 2
    assert damage_row(shotgun, shotgun.damage.row, "chest", 6.0) == 6
    frag = ARM.weapons["frag_grenade"]
    assert damage_row(frag, frag.damage.row, "head", 3.0) == frag.damage.row


# ---------------------------------------------------------------------------------------------- item 16
def test_rate_of_fire_two_shots_are_one_action() -> None:
    """R-6.3: a blast pistol (rof 2) fires twice in one NORMAL action; a third shot is another action."""
    pistol = Part("attack", 1, "prepared", weapon="blast_pistol", rof=2)
    two = add_part([pistol], pistol)
    assert len(two) == 1 and two[0].shots == 2 and turn_speed(two) == 1
    three = add_part(two, pistol)
    assert len(three) == 2 and turn_speed(three) == 2  # two actions: one slower
    rifle = Part("attack", 1, "prepared", weapon="blast_rifle", rof=1)
    assert len(add_part([rifle], rifle)) == 2


def test_second_blast_pistol_shot_under_normal(tmp_path: Path) -> None:
    pistol = _unit("Kayla", (0, 0), "weapons: [blast_pistol], skills: {shooting:pistol: 3}")
    orders = ["declare Kayla normal", "shoot Kayla Agent mode=prepared", "shoot Kayla Agent mode=prepared"]
    b = _battle(tmp_path, [INIT, MISS, MISS, INIT, INIT], f"[{pistol}]", f"[{_unit('Agent', (5, 0))}]", orders,
                victory="{max_rounds: 1}")
    _until_act(b, "Kayla")
    b.step()
    b.step()
    assert [e.type for e in b.log if e.actor == "Kayla" and e.type in ("attack", "refused")] == ["attack", "attack"]
    with pytest.raises(IllegalAction, match=r"R-5\.3"):
        b.submit(Shoot("Kayla", "Agent", mode="prepared"))  # a third shot is a second action: SLOW
    b.close()


# ---------------------------------------------------------------------------------------------- item 17
def test_the_first_aim_action_adds_its_bonus(tmp_path: Path) -> None:
    """R-6.2: declare SLOW, aim, then a prepared shot with a blast rifle (aim 2/3): +2 for the aim."""
    rifle = _unit("Sniper", (0, 0), "weapons: [blast_rifle], skills: {shooting:rifle: 3}")
    orders = ["declare Sniper slow", "aim Sniper Mark", "shoot Sniper Mark mode=prepared"]
    b = _battle(tmp_path, [INIT, MISS, INIT], f"[{rifle}]", f"[{_unit('Mark', (8, 0))}]", orders,
                victory="{max_rounds: 1}")
    b.run()
    aim = next(e for e in b.log if e.type == "aim")
    attack = next(e for e in b.log if e.type == "attack")
    assert aim.aim == 1
    assert {"value": 2, "reason": "aimed ×1 (R-6.2)"} in attack.modifiers
    b.close()


# ---------------------------------------------------------------------------------------------- item 18
def test_a_burst_that_incapacitates_then_kills_says_both(tmp_path: Path) -> None:
    """Two rounds of 26 (4 wounds each): the first incapacitates (R-8.1: 4 wounds), the second kills
    (6 wounds). Both changes of state have their event."""
    shot = make_card(34, upper={("III", 4): 7}, lower={("III", 3): 26}, burst={3: 2, 5: 3, 10: 5},
                     hit_stack=("head", "chest", "left_arm", "belly"), standard=2, ablation=("P", "P", "P"),
                     toggle=False)
    gun = _unit("Gun", (0, 0), "weapons: [blast_carbine], skills: {shooting:rifle: 4}")
    b = _battle(tmp_path, [INIT, shot, INIT], f"[{gun}]", f"[{_unit('Mark', (4, 0))}]",
                ["declare Gun normal", "shoot Gun Mark mode=prepared burst=3 spends=none"])
    b.run()
    states = [(e.state, e.was) for e in b.log if e.type == "out_of_action"]
    assert states == [("incapacitated", None), ("dead", "incapacitated")]
    assert b.view().unit("Mark").dead
    b.close()


# ---------------------------------------------------------------------------------------------- item 19
CORRIDOR = (".........", "####.####", ".........")


def _contest(tmp_path: Path, waiter_read: int, mover_read: int) -> Battle:
    w_card = make_card(5, upper={("III", 2): waiter_read})
    m_card = make_card(6, upper={("III", 2): mover_read})
    shot = make_card(7, upper={("III", 3): 2})
    waiter = _unit("Watch", (4, 0), "weapons: [blast_carbine], skills: {shooting:rifle: 3}")
    return _battle(tmp_path, [INIT, w_card, m_card, shot, INIT, INIT], f"[{waiter}]",
                   f"[{_unit('Runner', (0, 2))}]", ["declare Watch normal", "wait Watch"],
                   ["declare Runner normal", "move Runner 8,2"], rows=CORRIDOR, victory="{max_rounds: 1}")


def test_a_waiter_that_wins_the_contest_fires_at_once(tmp_path: Path) -> None:
    b = _contest(tmp_path, waiter_read=8, mover_read=2)
    b.run()
    trig = next(e for e in b.log if e.type == "trigger")
    attack = next(e for e in b.log if e.type == "attack")
    assert trig.waiter_first and attack.trigger
    assert attack.distance_m < 5  # fired at the runner by the gap, mid-move (it ends 8 m away)
    b.close()


def test_a_mover_that_wins_the_contest_moves_first(tmp_path: Path) -> None:
    """R-5.7: the winner acts first. The runner beats the watcher, finishes its run out of sight, and
    the watcher holds its fire (still waiting) instead of shooting it in the gap."""
    b = _contest(tmp_path, waiter_read=2, mover_read=8)
    b.run()
    trig = next(e for e in b.log if e.type == "trigger")
    assert not trig.waiter_first
    assert not any(e.type == "attack" for e in b.log)
    lost = next(e for e in b.log if e.type == "trigger_lost")
    assert lost.actor == "Watch" and "out of sight" in lost.reason
    b.close()



def test_miniatures_start_facing_the_enemy() -> None:
    """At the start each miniature faces the middle of the enemy force (to the nearest 45°), not south."""
    sc = load_scenario(ROOT / "scenarios" / "depot_breach.yaml")
    with Battle(sc, controllers={}) as b:
        facing = {u.name: u.facing for u in b.view().units}
    assert facing["Raider-3"] == (0, 1) and facing["Guard-2"] == (0, -1)  # north squad faces south, and back
    assert facing["Raider-1"] == (1, 1) and facing["Guard-4"] == (-1, -1)  # the flanks turn inward
    assert facing["Guard-1"] == (1, -1) and facing["Guard-3"] == (-1, -1)


def test_a_short_move_is_run_when_a_walk_no_longer_fits(tmp_path: Path) -> None:
    """Declared NORMAL, an aim with a FAST weapon (laser pistol): a walk now would make the turn SLOW, a run
    keeps it NORMAL (R-5.4, R-5.5). So a short move is made at a run, the legal cells say so (no walk area to
    shade), and what the board shades is what submit accepts."""
    gun = _unit("Aimer", (0, 0), "weapons: [laser_pistol], tacpack: {type: tp4}")
    b = _battle(tmp_path, [INIT] * 6, f"[{gun}]", f"[{_unit('Post', (6, 0))}]", ["declare Aimer normal", "aim Aimer Post"])
    _until_act(b, "Aimer")
    b.step()  # the aim
    legal = b.legal_actions("Aimer")
    assert not legal.walk and (1, 1) in legal.run
    assert b.move_refusal() is None
    _, _, running = b.preview_move((1, 1))
    assert running
    b.submit(Move("Aimer", (1, 1)))
    assert b.log[-1].type == "move" and b.log[-1].running
    b.close()


def test_no_walk_area_under_fast(tmp_path: Path) -> None:
    b = _battle(tmp_path, [INIT] * 6, f"[{_unit('Runner', (0, 0))}]", f"[{_unit('Post', (11, 1))}]",
                ["declare Runner fast"])
    _until_act(b, "Runner")
    legal = b.legal_actions("Runner")
    assert not legal.walk and (1, 0) in legal.run and (8, 0) in legal.run
    b.close()
