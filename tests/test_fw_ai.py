"""The Future*World utility AI (skirmish/ai/fw/, issue 13 items 5 and 9): hand-built fw battles where the tacpack's
budget choice shows (a figure under laser fire picks a diffusion screen; with no enemy in sight it spends nothing
on the screen and closes in; an energy weapon's shot is paid before the screen only when it is worth more),
traces, fog (it reads only its side's view), determinism and the CLI (run, tournament)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.ai.fw import PERSONALITIES, FwUtilityAI
from skirmish.ai.fw_baselines import FwIdle, FwScripted
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario, parse_scenario
from skirmish.rules.actions import EndTurn, Move
from skirmish.rulesets.fw import INTENT, FwIntent

ROOT = Path(__file__).resolve().parents[1]
RELAY = SCENARIOS_DIR / "fw" / "relay_station.yaml"
OPEN = ["############", "#,,,,,,,,,,#", "#,,,,,,,,,,#", "#,,,,,,,,,,#", "############"]
# A wall between the two halves: nobody on one side sees the other (a door far down at 6,7).
WALLED = ["##############", "#,,,,,#,,,,,,#", "#,,,,,#,,,,,,#", "#,,,,,#,,,,,,#", "#,,,,,#,,,,,,#",
          "#,,,,,#,,,,,,#", "#,,,,,#,,,,,,#", "#,,,,,,,,,,,,#", "##############"]


def chars(dex: int = 12, con: int = 12) -> str:
    return f"{{STR: 12, CON: {con}, SIZ: 12, INT: 12, POW: 10, DEX: {dex}}}"


def unit(name: str, at: tuple[int, int], weapon: str, skill: int = 50, armour: str | None = None,
         tacpack: str | None = None, con: int = 12) -> str:
    kit = f", armour: [{armour}]" if armour else ""
    kit += f", tacpack: {tacpack}" if tacpack else ""
    return (f"{{name: {name}, at: [{at[0]}, {at[1]}], characteristics: {chars(con=con)},"
            f" skills: {{rifle: {skill}, handgun: {skill}, autogun: {skill}}}, weapons: [{weapon}]{kit}}}")


def battle(tmp_path: Path, rows: list[str], blue: list[str], red: list[str], ai: Any, red_ai: Any = None) -> Battle:
    text = (f"name: t\nruleset: fw\nseed: 3\nmap: {{ascii: {rows!r}}}\nvictory: {{max_rounds: 4}}\n"
            f"sides:\n  - name: Blue\n    controller: ai\n    units: [{', '.join(blue)}]\n"
            f"  - name: Red\n    controller: ai\n    units: [{', '.join(red)}]\n")
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    return Battle(sc, controllers={"Blue": ai, "Red": red_ai or FwIdle()})  # type: ignore[dict-item]


def declaration(b: Battle, ai: FwUtilityAI, name: str = "Me") -> tuple[FwIntent, dict[str, Any]]:
    """Step the battle to `name`'s declaration and ask the AI (from Blue's view)."""
    while b.pending is not None and not (b.pending.unit == name and b.pending.kind == INTENT):
        b.step()
    assert b.pending is not None
    action, trace = ai.decide_traced(b.observe("Blue"), b.pending)
    assert isinstance(action, FwIntent)
    assert b.check(action) is None  # the rules accept what it declares
    return action, trace


GEN6 = "{generator: 6, screen: kinetic, screen_points: 3}"


@pytest.mark.parametrize(("weapon", "screen"), [("laser_heavy_rifle", "diffusion"), ("heavy_rifle", "kinetic"),
                                                ("blaster_light_rifle", "magnetic")])
def test_under_fire_it_puts_the_whole_generator_on_the_screen_that_stops_the_enemys_class(
        tmp_path: Path, weapon: str, screen: str) -> None:
    ai = FwUtilityAI()
    b = battle(tmp_path, OPEN, [unit("Me", (2, 2), "heavy_rifle", armour="nylar", tacpack=GEN6)],
               [unit("Foe", (8, 2), weapon, skill=70, armour="chitin")], ai)
    intent, trace = declaration(b, ai)
    assert intent.act == "shoot" and intent.target == "Foe"  # the heavy rifle's shots draw no energy
    assert (intent.screen, intent.points) == (screen, 6)  # the type that stops the enemy's class
    chosen = trace["chosen"]
    assert chosen["option"] == f"shoot Foe, screen {screen} 6"
    names = [c["name"] for c in chosen["considerations"]]
    assert "threat here" in names and any(n.startswith("worth (hit chance") for n in names)
    assert trace["runners_up"] and all(o["score"] <= chosen["score"] for o in trace["runners_up"])


def test_with_no_enemy_in_sight_it_spends_nothing_on_the_screen_and_closes_in(tmp_path: Path) -> None:
    ai = FwUtilityAI()
    b = battle(tmp_path, WALLED, [unit("Me", (2, 2), "heavy_rifle", tacpack=GEN6)],
               [unit("Foe", (11, 2), "laser_heavy_rifle", skill=70)], ai)
    intent, _ = declaration(b, ai)
    assert intent.points == 0 and intent.screen == "none"  # nothing sees it: a screen would stop nothing
    b.submit(intent)
    while b.pending is not None and not (b.pending.unit == "Me" and b.pending.kind != INTENT):
        b.step()
    assert b.pending is not None
    view = b.observe("Blue")
    move, trace = ai.decide_traced(view, b.pending)
    assert isinstance(move, Move) and b.check(move) is None
    foe = (11, 2)

    def dist(c: tuple[int, int]) -> float:
        return float(((c[0] - foe[0]) ** 2 + (c[1] - foe[1]) ** 2) ** 0.5)
    assert dist(move.to) < dist((2, 2)) and move.to[1] >= 6  # closing in, round the wall by the gap at 6,7
    assert any(c["name"] == "distance to close" and c["output"] > 0 for c in trace["chosen"]["considerations"])


def test_an_energy_shot_is_paid_before_the_screen_only_when_it_is_worth_more(tmp_path: Path) -> None:
    # A laser at an unarmoured, badly hurt-able target, a weak threat: the shot's 4 points come first.
    ai = FwUtilityAI()
    b = battle(tmp_path, OPEN, [unit("Me", (2, 2), "laser_heavy_rifle", skill=90, tacpack=GEN6)],
               [unit("Foe", (8, 2), "light_pistol", skill=20, con=8)], ai)
    intent, _ = declaration(b, ai)
    assert (intent.act, intent.target) == ("shoot", "Foe")
    assert (intent.screen, intent.points) == ("kinetic", 2)  # the generator's rest: 6 - 4
    # The same laser at a target in tinsel (stops L 9) with a diffusion screen of its own, while a deadly
    # rifleman shoots back: the shot would get nothing through, so the whole generator goes on the screen.
    ai = FwUtilityAI()
    b = battle(tmp_path, OPEN, [unit("Me", (2, 2), "laser_heavy_rifle", skill=90, tacpack=GEN6)],
               [unit("Foe", (8, 2), "heavy_rifle", skill=90, armour="tinsel",
                     tacpack="{generator: 6, screen: diffusion, screen_points: 6}")], ai)
    intent, trace = declaration(b, ai)
    assert intent.act not in ("shoot", "burst") and (intent.screen, intent.points) == ("kinetic", 6)
    assert any(o["option"].startswith("shoot Foe, screen kinetic 2") for o in trace["runners_up"])


def test_it_reads_only_its_sides_view(tmp_path: Path) -> None:
    """Where an enemy Blue cannot see goes changes nothing in Blue's decisions (Ghost starts out of sight and
    walks to one of two cells beyond the wall in the first movement segment)."""
    def traces(ghost_to: str) -> list[Any]:
        ai = FwUtilityAI()
        red = FwScripted(["intent Ghost none", f"move Ghost {ghost_to}"])
        b = battle(tmp_path, WALLED, [unit("Me", (2, 2), "heavy_rifle", tacpack=GEN6)],
                   [unit("Foe", (4, 5), "heavy_rifle"), unit("Ghost", (12, 3), "laser_heavy_rifle")], ai, red)
        out = []
        while b.pending is not None and b.ctx.round <= 2:
            if b.pending.side == "Blue":
                view = b.observe("Blue")
                ghost = view.find("Ghost")
                assert ghost is None or (ghost.ghost and ghost.cell == (12, 3))  # never seen where it went
                action, trace = ai.decide_traced(view, b.pending)
                out.append(trace)
                b.submit(action)
            else:
                b.step()
        x, y = ghost_to.split(",")
        assert b.view().unit("Ghost").cell == (int(x), int(y))  # it did go there
        return out
    first = traces("12,1")
    assert len(first) >= 4 and first == traces("11,6")


def test_same_seed_same_events_and_every_answer_legal() -> None:
    def events(seed: int) -> list[str]:
        sc = load_scenario(RELAY)
        ctrl = {"Guards": make_ai("utility", "fw"), "Raiders": make_ai("utility:aggressive", "fw")}
        with Battle(sc, seed=seed, controllers=ctrl) as b:
            b.run()
            assert not [e for e in b.log.events if e.type in ("refused", "illegal")]
            return [json.dumps(e.to_json() if hasattr(e, "to_json") else repr(e), sort_keys=True, default=str)
                    for e in b.log.events]
    first = events(2)
    assert first == events(2)
    assert any('"decision"' in e or "decision" in e for e in first)


def test_personalities_are_data_and_a_bad_one_is_named() -> None:
    assert set(PERSONALITIES) == {"easy", "normal", "hard", "aggressive", "cautious"}
    assert PERSONALITIES["aggressive"].press > PERSONALITIES["cautious"].press
    assert isinstance(make_ai("utility:hard", "fw"), FwUtilityAI)
    with pytest.raises(ValueError, match=r"unknown personality 'bogus'.*known: normal, hard"):
        make_ai("utility:bogus", "fw")


def test_cli_run_and_tournament_play_the_fw_utility_ai() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "skirmish", "run", str(RELAY), "--ai", "Guards=utility",
                          "--ai", "Raiders=hold", "--seed", "2"], capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert " decides: " in out.stdout and "result: winner=" in out.stdout
    out = subprocess.run([sys.executable, "-m", "skirmish", "run", str(RELAY), "--ai", "Guards=utility:bogus"],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 2 and "unknown personality 'bogus'" in out.stderr and "Traceback" not in out.stderr
    out = subprocess.run([sys.executable, "-m", "skirmish", "tournament", "--ai", "utility", "--vs", "hold",
                          "--pairs", "1", "--workers", "1", str(RELAY)], capture_output=True, text=True, env=env,
                         cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "utility  hold" in out.stdout and "Relay station" in out.stdout


def test_the_tournament_gives_fw_scenarios_their_own_ais() -> None:
    from skirmish.ai import tournament

    games = tournament.play_pair(str(RELAY), 1, "utility", "hold")
    assert len(games) == 2 and {g.ai_side for g in games} == {0, 1}
    assert any(g.result != 0.5 or g.rounds < 15 for g in games)  # FI's AIs in an fw battle only ever drew


def test_a_stay_answer_is_an_end(tmp_path: Path) -> None:
    """In sight of its target with cover, a rifleman stays put to shoot at full chance (a moving firer halves
    it, R-9.4): its move answer is `end`."""
    rows = ["############", "#,,,,,,,,,,#", "#,,,=,,,,,,#", "#,,,,,,,,,,#", "############"]
    ai = FwUtilityAI()
    b = battle(tmp_path, rows, [unit("Me", (3, 2), "heavy_rifle", skill=80, tacpack=GEN6)],
               [unit("Foe", (9, 2), "heavy_rifle", skill=30)], ai)
    intent, _ = declaration(b, ai)
    b.submit(intent)
    while b.pending is not None and b.pending.unit != "Me":
        b.step()
    assert b.pending is not None
    move, trace = ai.decide_traced(b.observe("Blue"), b.pending)
    assert isinstance(move, EndTurn), trace["chosen"]
