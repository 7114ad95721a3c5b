"""Future*World played through the engine (issue 13's first playable slice): hand-built battles with fixed dice
where the round's rows show in the events (R-9.2 DEX order and simultaneity, R-9.3 half DEX, R-9.4/R-9.5
burst and impale, R-9.6 armour then screen, R-9.7 bookkeeping), legality's refusals, determinism, and the CLI."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from skirmish.ai.controllers import make_controller
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario, parse_scenario
from skirmish.core.errors import IllegalAction
from skirmish.rules.actions import EndTurn, Move, parse_action
from skirmish.rulesets.fw import FwIntent

ROOT = Path(__file__).resolve().parents[1]
RELAY = SCENARIOS_DIR / "fw" / "relay_station.yaml"
OPEN = ["##########", "#,,,,,,,,#", "#,,,,,,,,#", "#,,,,,,,,#", "##########"]


def chars(dex: int, con: int = 12, str_: int = 12, pow_: int = 10) -> str:
    return f"{{STR: {str_}, CON: {con}, SIZ: 12, INT: 12, POW: {pow_}, DEX: {dex}}}"


def fw_text(blue: str, red: str, blue_orders: list[str] = (), red_orders: list[str] = (),  # type: ignore[assignment]
            rows: list[str] = OPEN, max_rounds: int = 1) -> str:
    return (f"name: t\nruleset: fw\nseed: 3\nmap: {{ascii: {rows!r}}}\nvictory: {{max_rounds: {max_rounds}}}\n"
            f"sides:\n  - name: Blue\n    controller: scripted\n    orders: {list(blue_orders)!r}\n    units: {blue}\n"
            f"  - name: Red\n    controller: scripted\n    orders: {list(red_orders)!r}\n    units: {red}\n")


class Dice:
    """The battle's random source with its rolls given in order (boardgame.io's MockRandom)."""

    def __init__(self, rolls: list[int]) -> None:
        self.rolls = list(rolls)

    def randint(self, a: int, b: int) -> int:
        assert self.rolls, f"a roll of {a}-{b} was asked for, none is left"
        v = self.rolls.pop(0)
        assert a <= v <= b, f"the next roll {v} is not in {a}-{b}"
        return v


def battle(tmp_path: Path, text: str, dice: list[int] | None = None, seed: int | None = None) -> Battle:
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    ctrl = {s.name: make_controller(s.controller, list(s.orders), s.ai, "fw") for s in sc.spec.sides}
    b = Battle(sc, seed=seed, controllers=ctrl)  # type: ignore[arg-type]
    if dice is not None:
        b.sys.ctx.rng = Dice(dice)  # rolls are made only in resolution and bookkeeping: after this
    return b


def of(b: Battle, etype: str) -> list[Any]:
    return [e for e in b.log.events if e.type == etype]


BLUE = (f"[{{name: Ann, at: [2, 2], characteristics: {chars(14)}, skills: {{autogun: 60}}, weapons: [light_assault]}},"
        f" {{name: Bea, at: [2, 1], characteristics: {chars(12)}, skills: {{rifle: 50, first_aid: 70}},"
        f" weapons: [heavy_rifle], medikit: true}}]")
RED = (f"[{{name: Cid, at: [7, 2], characteristics: {chars(12, con=16)}, skills: {{rifle: 50}}, armour: [nylar],"
       f" weapons: [heavy_rifle], tacpack: {{generator: 5, screen: kinetic, screen_points: 5}}}},"
       f" {{name: Dan, at: [7, 3], characteristics: {chars(10)}, weapons: [light_pistol]}}]")
ORDERS_BLUE = ["intent Ann burst target=Cid", "intent Bea shoot target=Cid then=aid then_target=Bea"]
ORDERS_RED = ["intent Cid shoot target=Bea screen=kinetic points=5"]


def test_a_round_resolves_by_dex_simultaneously_with_burst_impale_armour_screen_and_bookkeeping(tmp_path: Path) -> None:
    dice = [5, 2, *[3] * 8, *[4] * 4,  # Ann's burst: d100 5 (<= 60/5 impales), 1d3 = 2 hits, 4D6 twice, 4D6
            3,  # Cid's major wound from the first hit (10 of 16 HP): d20 3 <= 6 HP left, stays up
            30, 8, 8,  # Bea at DEX 12: d100 30 hits (no impale: > 10), 2D8+4 = 20
            20, 8, 8]  # Cid at DEX 12, simultaneous: d100 20 hits, 2D8+4 = 20
    b = battle(tmp_path, fw_text(BLUE, RED, ORDERS_BLUE, ORDERS_RED), dice)
    b.run()
    declares = {e.actor: e for e in of(b, "fw_declare")}
    assert declares["Bea"].acts == [{"act": "shoot", "target": "Cid", "dex": 12},
                                     {"act": "aid", "target": "Bea", "dex": 6}]  # the second at half DEX
    assert declares["Cid"].split["screen"] == "kinetic" and declares["Cid"].split["screen_points"] == 5
    attacks = of(b, "fw_attack")
    assert [(a.actor, a.phase) for a in attacks] == [("Ann", 14), ("Bea", 12), ("Cid", 12)]  # highest DEX first
    burst = attacks[0]
    assert burst.impale and burst.burst_roll == 2 and [h["impale"] for h in burst.damage] == [True, False]
    assert burst.damage[0] == {"dice": "4D6", "rolls": [3] * 8, "rolled": 24, "impale": True, "damage_class": "P",
                               "armour": 9, "screen": 5, "through": 10}  # armour first, then the kinetic screen
    assert burst.damage[1]["rolled"] == 16 and burst.damage[1]["through"] == 2
    wounds = [(w.actor, w.hp_before, w.hp_after, w.major, w.d20, w.condition) for w in of(b, "fw_wound")]
    assert wounds == [("Cid", 16, 6, True, 3, "ok"), ("Cid", 6, 4, False, None, "ok"),
                      ("Cid", 4, -2, True, None, "unconscious"), ("Bea", 12, -8, True, None, "unconscious")]
    # Equal DEX is simultaneous: both DEX 12 attacks are rolled before either wound takes effect.
    kinds = [e.type for e in b.log.events if e.type in ("fw_attack", "fw_wound") and e.phase == 12]
    assert kinds == ["fw_attack", "fw_attack", "fw_wound", "fw_wound"]
    idle = of(b, "fw_idle")
    assert [(e.actor, e.act, e.phase) for e in idle] == [("Bea", "aid", 6)]  # down before its half-DEX slot
    bleeds = [(e.actor, e.hp_before, e.hp_after) for e in of(b, "fw_bleed")]
    assert bleeds == [("Bea", -8, -9), ("Cid", -2, -3)]  # bookkeeping, in scenario order
    assert len(of(b, "fw_energy_reset")) == 1 and b.outcome is not None and b.outcome.winner is None
    assert not b.sys.ctx.rng.rolls  # type: ignore[attr-defined]  # every die given was read, and no other
    text = [e.describe() for e in b.log.events]
    assert any("Ann bursts Cid with light_assault: 60% = 60% (impale 12%), d100 5 IMPALE, burst 1d3 = 2 hit: "
               "4D6 x2 [3, 3, 3, 3, 3, 3, 3, 3] = 24 P - armour 9 - screen 5 = 10" in t for t in text)


def test_a_fallen_figure_rises_on_a_later_bookkeeping_roll_and_death_comes_at_minus_con(tmp_path: Path) -> None:
    red = f"[{{name: Cid, at: [7, 2], characteristics: {chars(12, con=10)}, weapons: [light_pistol]}}]"
    blue = f"[{{name: Ann, at: [2, 2], characteristics: {chars(14)}, skills: {{rifle: 60}}, weapons: [heavy_rifle]}}]"
    dice = [50, 1, 1,  # R1 Ann hits (50 <= 60, no impale), 2D8+4 = 6 through of 10 HP: a major wound
            9,  # d20 9 > 4 HP left: Cid falls
            12,  # R1 bookkeeping: d20 12 > 4: stays down
            4,  # R2 bookkeeping: d20 4 <= 4: rises
            ]
    b = battle(tmp_path, fw_text(blue, red, ["intent Ann shoot target=Cid"], ["intent Cid shoot target=Ann"],
                                 max_rounds=2), dice)
    b.run()
    assert [(w.d20, w.condition) for w in of(b, "fw_wound")] == [(9, "fallen")]
    assert [(r.round, r.d20, r.rose) for r in of(b, "fw_rise")] == [(1, 12, False), (2, 4, True)]
    # Fallen, Cid was not asked to declare in round 2 (R-9.7: no actions); its R1 shot came after Ann's DEX 14.
    assert [e.actor for e in of(b, "fw_declare") if e.round == 2] == ["Ann"]
    assert [(e.actor, e.round) for e in of(b, "fw_idle")] == [("Cid", 1)]


def test_death_at_minus_con_after_bleeding(tmp_path: Path) -> None:
    red = f"[{{name: Cid, at: [7, 2], characteristics: {chars(12, con=3)}, weapons: [light_pistol]}}]"
    blue = f"[{{name: Ann, at: [2, 2], characteristics: {chars(14)}, skills: {{rifle: 60}}, weapons: [heavy_rifle]}}]"
    b = battle(tmp_path, fw_text(blue, red, ["intent Ann shoot target=Cid"], max_rounds=3), [50, 1, 2])  # 7 through
    b.run()
    assert [(w.hp_after, w.condition) for w in of(b, "fw_wound")] == [(-4, "dead")]  # -4 <= -CON (3): dead at once
    assert b.outcome is not None and b.outcome.winner == "Blue" and b.outcome.rounds == 1


@pytest.mark.parametrize(("order", "why"), [
    ("intent Ann shoot target=Ann", "R-9.4: Ann is on Ann's side"),
    ("intent Ann shoot target=Cid then=burst then_target=Cid", "R-9.3"),
    ("intent Ann burst target=Cid weapon=heavy_rifle", "R-9.4: Ann carries no heavy_rifle"),
    ("intent Ann shoot target=Cid screen=kinetic points=1", "R-9.8: 1 points allocated, the generator gives 0"),
    ("intent Ann aid target=Ann", "R-9.7: First Aid needs a medikit"),
    ("intent Ann jump=2", "R-9.11: no jump pack"),
    ("intent Ann cm=1 sensors=1", "R-9.8"),
])
def test_declarations_are_refused_with_their_rule(tmp_path: Path, order: str, why: str) -> None:
    b = battle(tmp_path, fw_text(BLUE, RED))
    assert b.pending is not None and b.pending.unit == "Ann" and b.pending.kind == "intent"
    refusal = b.check(parse_action(order))
    assert refusal is not None and str(refusal).startswith(why)
    with pytest.raises(IllegalAction, match=why.split(":")[0]):
        b.submit(parse_action(order))
    assert b.pending.unit == "Ann"  # asked again


def test_the_listed_answers_are_accepted_and_moves_reach_24_m_less_enc(tmp_path: Path) -> None:
    rows = ["#" * 30, "#" + "," * 28 + "#", "#" + "," * 28 + "#", "#" * 30]
    heavy = f"[{{name: Ann, at: [1, 1], characteristics: {chars(14, str_=3)}, weapons: [heavy_assault], armour: [chitin]}}]"
    red = f"[{{name: Cid, at: [28, 2], characteristics: {chars(12)}, weapons: [light_pistol]}}]"
    b = battle(tmp_path, fw_text(heavy, red, rows=rows))
    legal = b.legal_actions("Ann")
    assert legal.kind == "declare" and all(b.check(a) is None for a in legal.actions())
    b.submit(FwIntent("Ann"))
    b.submit(FwIntent("Cid"))
    assert b.pending is not None and b.pending.kind == "move"  # the slower DEX moves first
    assert b.pending.unit == "Cid"
    b.submit(EndTurn("Cid"))
    legal = b.legal_actions("Ann")
    # ENC 3 (heavy assault gun) + 3 (chitin) = 6 against STR 3: 3 excess points, 24 - 6 = 18 m: 9 cells.
    assert max(x for x, _ in legal.walk) == 10 and all(b.check(Move("Ann", c)) is None for c in legal.walk)
    refusal = b.check(Move("Ann", (11, 1)))
    assert refusal is not None and refusal.rule == "R-9.11" and "18 m" in refusal.reason


def test_a_record_of_an_fw_battle_replays(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    rec = tmp_path / "r.json"
    run = subprocess.run([sys.executable, "-m", "skirmish", "run", str(RELAY), "--record", str(rec), "--seed", "9"],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    again = subprocess.run([sys.executable, "-m", "skirmish", "replay", str(rec)], capture_output=True, text=True,
                           env=env, cwd=ROOT)
    assert again.returncode == 0, again.stderr
    assert again.stdout.splitlines()[-1] == run.stdout.splitlines()[-1]


def test_the_same_seed_gives_the_same_events_and_a_different_one_differs() -> None:
    sc = load_scenario(RELAY)

    def events(seed: int) -> str:
        ctrl = {s.name: make_controller(s.controller, list(s.orders), s.ai, "fw") for s in sc.spec.sides}
        with Battle(sc, seed=seed, controllers=ctrl, hashes=True) as b:  # type: ignore[arg-type]
            b.run()
            return b.log.jsonl() + "".join(b.round_hashes)

    assert events(11) == events(11)
    assert events(11) != events(12)


def test_skirmish_run_plays_the_fw_scenario_and_check_names_a_broken_key(tmp_path: Path) -> None:
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-m", "skirmish", "run", str(RELAY), "--ai", "Guards=hold",
                          "--ai", "Raiders=random", "--seed", "4"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[-1].startswith("result: winner=") and "seed=4" in out.stdout.splitlines()[-1]
    assert " declares " in out.stdout and "d100" in out.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text(RELAY.read_text(encoding="utf-8").replace("DEX: 14", "DEX: 19", 1)
                   .replace("heavy_rifle]", "laser_rifle]", 1), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "skirmish", "check", str(bad)], capture_output=True, text=True,
                         env=env, cwd=ROOT)
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"{bad}: sides[0].units[1].characteristics: DEX: expected a whole number 3-18, got 19" in out.stderr
    assert f"{bad}: sides[0].units[0].weapons[0]: unknown weapon 'laser_rifle'" in out.stderr
    out = subprocess.run([sys.executable, "-m", "skirmish", "run", str(RELAY), "--ai", "Guards=cunning"],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 2 and "no AI 'cunning' for Future*World yet" in out.stderr and "Traceback" not in out.stderr


SENSOR_MAP = ["##########", "#,,,,,,,,#", "#,,,,#,,,#", "#,,,,#,,,#", "##########"]


@pytest.mark.parametrize(("roll", "found"), [(80, True), (81, False)])
def test_combat_sensors_reveal_an_enemy_out_of_sight_to_their_side(tmp_path: Path, roll: int, found: bool) -> None:
    blue = (f"[{{name: Ann, at: [2, 2], characteristics: {chars(14)}, weapons: [heavy_rifle],"
            f" tacpack: {{generator: 3, sensors: 2}}}}]")
    red = (f"[{{name: Cid, at: [6, 1], characteristics: {chars(10)}, weapons: [light_pistol],"
           f" tacpack: {{generator: 3, effectors: 2}}}}]")
    b = battle(tmp_path, fw_text(blue, red, ["intent Ann none sensors=2"], ["intent Cid none cm=2", "move Cid 7,3"],
                                 rows=SENSOR_MAP), [roll])
    before = b.observe("Blue").unit("Cid").cell
    assert before == (6, 1)
    b.run()
    sweep = of(b, "fw_sensors")[0]
    assert (sweep.actor, sweep.points, sweep.range_m) == ("Ann", 2, 30)  # 15 m a sensor point
    assert sweep.scans == [{"enemy": "Cid", "metres": 10.2, "cm": 2, "chance": 80, "roll": roll, "registered": found}]
    seen = b.observe("Blue").unit("Cid")
    assert seen.ghost and seen.cell == ((7, 3) if found else (6, 1))  # out of sight: known where it is, or not


def test_the_board_plays_fw_with_a_display_and_headless_without(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from skirmish.cli import display, main

    monkeypatch.setenv("SKIRMISH_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setattr(display, "display_problem", lambda: None)
    with pytest.raises(SystemExit) as exit_:  # the board opens (SDL's dummy driver here) for a few frames
        main(["watch", str(RELAY), "--frames", "5"])
    assert exit_.value.code in (0, None)
    assert capsys.readouterr().err == ""
    monkeypatch.setattr(display, "display_problem", lambda: "no DISPLAY")
    with pytest.raises(SystemExit) as exit_:
        main(["watch", str(RELAY), "--seed", "3"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("Relay station — ") and out[-1].startswith("result: winner=") and "seed=3" in out[-1]
    assert any(line.startswith("  Guards: ") and "standing" in line for line in out)


@settings(max_examples=60, deadline=None)
@given(screen=st.sampled_from(["none", "kinetic", "diffusion", "magnetic", "plasma"]), points=st.integers(0, 9),
       act=st.sampled_from(["none", "shoot", "burst", "react", "program", "aid"]), cm=st.integers(0, 3),
       sensors=st.integers(0, 3), jump=st.integers(0, 3))
def test_an_accepted_declaration_never_splits_more_than_the_generator(screen: str, points: int, act: str, cm: int,
                                                                      sensors: int, jump: int) -> None:
    sc = load_scenario(RELAY)
    with Battle(sc, controllers={}) as b:
        assert b.pending is not None
        target = "Vosh" if act in ("shoot", "burst") else ("Okonkwo" if act == "aid" else None)
        intent = FwIntent(b.pending.unit, act, target, screen=screen, points=points, cm=cm, sensors=sensors, jump=jump)
        refusal = b.check(intent)
        if refusal is None:
            b.submit(intent)
            split = of(b, "fw_declare")[-1].split
            used = split["screen_points"] + split["shots"] + split["cm"] + split["dccm"] + split["sensors"] + split["jump"]
            assert used <= split["generator"] == 6  # Okonkwo's tacpack
        else:
            assert refusal.rule.startswith("R-9.")
            with pytest.raises(IllegalAction):
                b.submit(intent)


def test_an_fw_side_names_an_fw_ai_and_defaults_to_hold(tmp_path: Path) -> None:
    from skirmish.ai.fw_baselines import FW_AIS
    from skirmish.content.fw import AIS

    assert set(AIS) == set(FW_AIS)  # what a file may name is what plays
    text = RELAY.read_text(encoding="utf-8")
    assert parse_scenario(text.replace("ai: hold", "ai: utility:hard"), "t.yaml", base=SCENARIOS_DIR / "fw")
    assert parse_scenario(text.replace("ai: hold", "ai: search:hard"), "t.yaml", base=SCENARIOS_DIR / "fw")
    bad = text.replace("ai: hold", "ai: cunning")
    with pytest.raises(Exception, match=r"sides\[0\]\.ai: expected a Future\*World AI \(baseline, hold"):
        parse_scenario(bad, "t.yaml", base=tmp_path)
    sc = parse_scenario(text.replace("    ai: hold\n", ""), "t.yaml", base=SCENARIOS_DIR / "fw")
    assert sc.spec.sides[0].ai == "hold"


def test_an_attack_reads_r_9_4s_conditions_from_the_battle_in_the_digests_order(tmp_path: Path) -> None:
    rows = ["##########", "#,,,,,,,,#", "#,,,,,=,,#", "#,,,,,,,,#", "##########"]
    blue = (f"[{{name: Ann, at: [1, 2], prone: true, characteristics: {chars(14)}, skills: {{rifle: 80}},"
            f" weapons: [heavy_rifle]}}, {{name: Bea, at: [1, 3], characteristics: {chars(12)}, skills: {{rifle: 80}},"
            f" weapons: [heavy_rifle]}}]")
    red = (f"[{{name: Cid, at: [8, 1], characteristics: {chars(10)}, weapons: [light_pistol], jump_pack: true,"
           f" tacpack: {{generator: 2}}}}]")
    text = fw_text(blue, red, ["intent Ann shoot target=Cid", "intent Bea shoot target=Cid", "move Bea 2,3"],
                   ["intent Cid jump=1", "move Cid 7,2"], rows=rows).replace("seed: 3\n", "seed: 3\noptions: {darkness: true}\n")
    b = battle(tmp_path, text, [50, 60])
    b.run()
    leap = of(b, "fw_move")
    assert [(m.actor, m.jump, m.allowance) for m in leap] == [("Cid", True, 20.0), ("Bea", False, 24.0)]
    ann, bea = of(b, "fw_attack")
    reasons = [s["reason"] for s in ann.steps]
    assert reasons == ["fighting in the dark", "the target is moving", "the target is partly covered",
                       "the target is in the air", "the firer is prone"]
    assert [s["op"] for s in ann.steps] == ["x1/5", "x1/2", "x1/2", "x1/2", "+20"]
    assert (ann.base, ann.chance, ann.impale_chance) == (80, 22, 4)  # 80/5/2/2/2 = 2, + 20 = 22; impale 22/5
    assert "the firer moves while firing a missile weapon" in [s["reason"] for s in bea.steps]
    assert bea.chance == 1 and not bea.hit  # 80 x1/5 x1/2 x1/2 x1/2 x1/2 = 1
