"""The fw utility AI's options beyond the firearm (skirmish/ai/fw/arms.py, issue 13 items 6 and 9), on hand-built
fw battles: a swordsman in contact strikes (and one a walk away walks into contact and strikes); a grenadier
facing two enemies behind low walls throws where the blast catches both, and not where it would catch a friend;
a figure an enemy seeker sees spends on CM (R-9.9); a seeker goes with DCCM at its target; the choices are
read from its side's view only, and a whole battle is the same twice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from skirmish.ai.fw import FwUtilityAI
from skirmish.ai.fw_baselines import FwIdle, FwScripted
from skirmish.ai.tournament import Game, marks, print_marks
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.rulesets.fw import INTENT, FwIntent
from tests.test_fw_ai import OPEN, WALLED, declaration


def chars(dex: int = 12, con: int = 12, pow_: int = 10) -> str:
    return f"{{STR: 12, CON: {con}, SIZ: 12, INT: 12, POW: {pow_}, DEX: {dex}}}"


def unit(name: str, at: tuple[int, int], weapons: str, *, skills: str = "{rifle: 50}", armour: str | None = None,
         tacpack: str | None = None, con: int = 12) -> str:
    kit = f", armour: [{armour}]" if armour else ""
    kit += f", tacpack: {tacpack}" if tacpack else ""
    return (f"{{name: {name}, at: [{at[0]}, {at[1]}], characteristics: {chars(con=con)}, skills: {skills},"
            f" weapons: [{weapons}]{kit}}}")


def battle(tmp_path: Path, rows: list[str], blue: list[str], red: list[str], ai: Any, red_ai: Any = None,
           seed: int = 3, rounds: int = 4) -> Battle:
    text = (f"name: t\nruleset: fw\nseed: {seed}\nmap: {{ascii: {rows!r}}}\nvictory: {{max_rounds: {rounds}}}\n"
            f"sides:\n  - name: Blue\n    controller: ai\n    units: [{', '.join(blue)}]\n"
            f"  - name: Red\n    controller: ai\n    units: [{', '.join(red)}]\n")
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    return Battle(sc, controllers={"Blue": ai, "Red": red_ai or FwIdle()})  # type: ignore[dict-item]


SWORD = "{force_sword: 60}"
GEN6 = "{generator: 6, screen: kinetic, screen_points: 3}"


def test_a_swordsman_in_contact_strikes(tmp_path: Path) -> None:
    ai = FwUtilityAI()
    b = battle(tmp_path, OPEN, [unit("Me", (4, 2), "force_sword", skills=SWORD, tacpack=GEN6)],
               [unit("Foe", (5, 2), "heavy_rifle", tacpack="{generator: 4, screen: kinetic, screen_points: 4}")], ai)
    intent, trace = declaration(b, ai)
    assert (intent.act, intent.target, intent.weapon) == ("melee", "Foe", "force_sword")
    assert intent.points <= 3  # the swing's 3 points come out of the generator first
    worth = next(c for c in trace["chosen"]["considerations"] if c["name"].startswith("worth"))
    assert "strike 60%" in worth["name"] and worth["output"] > 0


def test_a_strike_is_not_made_where_a_magnetic_screen_stops_it(tmp_path: Path) -> None:
    """The same foe, but its side has seen that swords are about: it is taken to raise its magnetic screen, so
    the swordsman with a rifle as well shoots instead (R-9.6: any magnetic point stops a force sword)."""
    ai = FwUtilityAI()
    b = battle(tmp_path, OPEN, [unit("Me", (4, 2), "heavy_rifle, force_sword", skills="{rifle: 60, force_sword: 60}",
                                     tacpack=GEN6)],
               [unit("Foe", (5, 2), "heavy_rifle", tacpack="{generator: 4, screen: magnetic, screen_points: 4}")], ai)
    intent, trace = declaration(b, ai)
    assert intent.act != "melee", trace["chosen"]
    strike = [o for o in trace["runners_up"] if o["option"].startswith("strike Foe")]
    assert all(o["score"] < trace["chosen"]["score"] for o in strike)


def test_a_swordsman_a_walk_away_walks_into_contact_and_strikes(tmp_path: Path) -> None:
    ai = FwUtilityAI()
    b = battle(tmp_path, OPEN, [unit("Me", (2, 2), "force_sword", skills=SWORD, tacpack=GEN6)],
               [unit("Foe", (8, 2), "heavy_rifle")], ai)
    intent, _ = declaration(b, ai)
    assert (intent.act, intent.target) == ("melee", "Foe")
    b.submit(intent)
    while b.pending is not None and not (b.pending.unit == "Me" and b.pending.kind != INTENT):
        b.step()
    assert b.pending is not None
    move, trace = ai.decide_traced(b.observe("Blue"), b.pending)
    assert b.check(move) is None
    to = getattr(move, "to", None)
    assert to is not None and max(abs(to[0] - 8), abs(to[1] - 2)) == 1, trace["chosen"]  # beside the foe
    b.submit(move)
    b.run()
    assert any(e.type == "fw_attack" and getattr(e, "act", "") == "melee" and e.actor == "Me" for e in b.log.events)


COVER = ["##############", "#,,,,,,,,,,,,#", "#,,,,,,,=,,,,#", "#,,,,,,,=,,,,#", "#,,,,,,,=,,,,#",
         "#,,,,,,,,,,,,#", "##############"]


def test_a_grenadier_facing_two_enemies_in_cover_throws_where_the_blast_catches_both(tmp_path: Path) -> None:
    ai = FwUtilityAI()
    grenadier = unit("Me", (3, 3), "light_pistol, fragmentation_grenade", skills="{handgun: 40, throw: 60}",
                     tacpack=GEN6)
    foes = [unit("Foe", (9, 2), "heavy_rifle"), unit("Fox", (9, 4), "heavy_rifle")]
    b = battle(tmp_path, COVER, [grenadier], foes, ai)
    intent, trace = declaration(b, ai)
    assert intent.act == "throw" and intent.target in ("Foe", "Fox"), trace["chosen"]
    assert intent.weapon == "fragmentation_grenade"
    shots = [o for o in trace["runners_up"] if o["option"].startswith("shoot")]
    assert all(o["score"] < trace["chosen"]["score"] for o in shots)


def test_no_grenade_where_the_blast_would_catch_a_friend(tmp_path: Path) -> None:
    ai = FwUtilityAI()
    grenadier = unit("Me", (3, 3), "light_pistol, fragmentation_grenade", skills="{handgun: 40, throw: 60}",
                     tacpack=GEN6)
    friend = unit("Pal", (10, 3), "force_sword", skills=SWORD)
    foes = [unit("Foe", (9, 2), "heavy_rifle"), unit("Fox", (9, 4), "heavy_rifle")]
    b = battle(tmp_path, COVER, [grenadier, friend], foes, ai)
    intent, trace = declaration(b, ai)
    assert intent.act != "throw", trace["chosen"]


def test_under_an_enemy_seeker_it_spends_on_cm(tmp_path: Path) -> None:
    """An enemy holding a seeker sees it; a rifle at it would get little through chitin: CM points (10% off the
    seeker's acquisition each, R-9.9, R-9.10) are worth more than a screen point, and are traced."""
    ai = FwUtilityAI()
    me = unit("Me", (2, 2), "light_pistol", skills="{handgun: 30}", armour="nylar",
              tacpack="{generator: 6, screen: kinetic, screen_points: 2, effectors: 6}", con=10)
    foe = unit("Foe", (9, 2), "light_pistol, seeker_missile", skills="{handgun: 20}",
               tacpack="{generator: 4, screen: kinetic, screen_points: 2}")
    b = battle(tmp_path, OPEN, [me], [foe], ai)
    intent, trace = declaration(b, ai)
    assert intent.cm > 0, trace["chosen"]
    assert any(c["name"] == "CM against seekers" and c["output"] > 0 for c in trace["chosen"]["considerations"])
    assert b.check(intent) is None  # within the generator and the effectors, one program


def test_a_seeker_is_launched_with_dccm_at_its_target(tmp_path: Path) -> None:
    ai = FwUtilityAI()
    me = unit("Me", (2, 2), "seeker_missile", skills="{support: 40}",
              tacpack="{generator: 6, screen: kinetic, screen_points: 2, effectors: 3, sensors: 3}")
    foe = unit("Foe", (9, 2), "heavy_rifle", tacpack="{generator: 6, screen: kinetic, screen_points: 2, effectors: 3}")
    b = battle(tmp_path, OPEN, [me], [foe], ai)
    intent, trace = declaration(b, ai)
    assert (intent.act, intent.target, intent.weapon) == ("launch", "Foe", "seeker_missile"), trace["chosen"]
    assert intent.dccm == 3 and intent.dccm_at == "Foe"  # cancels the CM it is taken to run
    assert "acquires 100%" in trace["chosen"]["considerations"][0]["name"]


def test_it_names_no_enemy_its_side_does_not_know_of(tmp_path: Path) -> None:
    """A swordsman and a grenadier behind a wall from an enemy they have never seen: no strike, throw or launch
    names it, whatever that enemy carries (its view only)."""
    def options(foe_kit: str) -> list[str]:
        ai = FwUtilityAI()
        blue = [unit("Me", (2, 2), "force_sword, fragmentation_grenade", skills="{force_sword: 60, throw: 60}",
                     tacpack=GEN6)]
        b = battle(tmp_path, WALLED, blue, [unit("Foe", (11, 2), foe_kit)], ai)
        _, trace = declaration(b, ai)
        return [trace["chosen"]["option"], *(o["option"] for o in trace["runners_up"])]
    first = options("heavy_rifle")
    assert not any("Foe" in o for o in first)
    assert first == options("light_pistol, seeker_missile")


def test_a_close_quarters_battle_is_the_same_twice_and_every_answer_legal(tmp_path: Path) -> None:
    def events() -> list[str]:
        blue = [unit("Me", (2, 2), "force_sword", skills=SWORD, tacpack=GEN6),
                unit("Bo", (2, 3), "light_assault, concussion_grenade", skills="{autogun: 45, throw: 50}",
                     tacpack=GEN6)]
        red = [unit("Foe", (9, 2), "heavy_shotgun", skills="{flechette: 50}",
                    tacpack="{generator: 4, screen: magnetic, screen_points: 4}"),
               unit("Fox", (9, 3), "magnum", skills="{handgun: 50}")]
        b = battle(tmp_path, OPEN, blue, red, FwUtilityAI(), FwUtilityAI("aggressive"), seed=5, rounds=6)
        b.run()
        assert not [e for e in b.log.events if e.type in ("refused", "illegal")]
        return [e.describe() for e in b.log.events]
    first = events()
    assert first == events()
    assert any(" strikes at " in line for line in first)


def test_fw_games_are_marked_against_issue_13s_targets_only() -> None:
    games = [Game("Hab module", 1 + i // 2, "utility", "hold", i % 2, 1.0 if i % 4 else 0.5, 10, "fw")
             for i in range(40)]
    ms = marks(games)
    assert ms and all(m.ruleset == "fw" and m.group == "Hab module" and ">= 70%" in m.target for m in ms)
    assert ms[0].met  # 35 of 40 with 5 draws: 93.8%
    import io
    out = io.StringIO()
    print_marks(games, out)
    assert "issue 13's targets" in out.getvalue() and "issue 12" not in out.getvalue()
    fi = [Game("Yard", 1, "utility", "hold", 0, 1.0, 5)]
    out = io.StringIO()
    print_marks(fi + games, out)
    assert "issue 12's targets" in out.getvalue() and "issue 13's targets" in out.getvalue()


def test_scripted_orders_still_answer(tmp_path: Path) -> None:
    """A scripted strike is taken as written (the AI's options change nothing of what orders declare)."""
    b = battle(tmp_path, OPEN, [unit("Me", (4, 2), "force_sword", skills=SWORD, tacpack=GEN6)],
               [unit("Foe", (5, 2), "heavy_rifle")],
               FwScripted(["intent Me melee target=Foe weapon=force_sword"]))
    while b.pending is not None and not (b.pending.unit == "Me" and b.pending.kind == INTENT):
        b.step()
    assert b.pending is not None
    action = FwScripted(["intent Me melee target=Foe weapon=force_sword"]).decide(b.observe("Blue"), b.pending)
    assert isinstance(action, FwIntent) and action.act == "melee"
