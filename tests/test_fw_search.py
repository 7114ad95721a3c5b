"""The Future*World search tier (skirmish/ai/fw/search.py, issue 13: "the utility and search AIs"): the fw utility
AI's declarations weighed one exchange ahead in DEX order (R-9.2), over the exact odds (R-9.4 .. R-9.7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.controllers import make_ai
from skirmish.ai.fw import FwUtilityAI
from skirmish.ai.fw.search import FwSearchAI
from skirmish.ai.fw_baselines import FwIdle
from skirmish.battle import Battle
from skirmish.content.scenario import SCENARIOS_DIR, load_scenario, parse_scenario
from skirmish.rulesets.fw import INTENT, FwIntent

OPEN = ["############", "#,,,,,,,,,,#", "#,,,,,,,,,,#", "#,,,,,,,,,,#", "############"]
HAB = SCENARIOS_DIR / "fw" / "hab_module.yaml"


def unit(name: str, at: tuple[int, int], weapon: str, dex: int = 12, con: int = 12, skill: int = 50) -> str:
    return (f"{{name: {name}, at: [{at[0]}, {at[1]}], characteristics: {{STR: 12, CON: {con}, SIZ: 12, INT: 12,"
            f" POW: 10, DEX: {dex}}}, skills: {{rifle: {skill}}}, weapons: [{weapon}]}}")


def battle(tmp_path: Path, blue: list[str], red: list[str]) -> Battle:
    text = (f"name: t\nruleset: fw\nseed: 3\nmap: {{ascii: {OPEN!r}}}\nvictory: {{max_rounds: 4}}\n"
            f"sides:\n  - name: Blue\n    controller: ai\n    units: [{', '.join(blue)}]\n"
            f"  - name: Red\n    controller: ai\n    units: [{', '.join(red)}]\n")
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    return Battle(sc, controllers={"Blue": FwIdle(), "Red": FwIdle()})  # type: ignore[dict-item]


def at_declaration(b: Battle, name: str = "Me") -> Any:
    while b.pending is not None and not (b.pending.unit == name and b.pending.kind == INTENT):
        b.step()
    assert b.pending is not None
    return b.pending


def test_looking_ahead_it_shoots_the_slower_enemy_whose_reply_a_hit_prevents(tmp_path: Path) -> None:
    # Two riflemen the same in all but DEX, as far from Me and both in the open: Alpha (DEX 18) fires before Me
    # whatever Me does, Zulu (DEX 4) after, so only putting Zulu down saves a reply. CON 6: a hit from
    # a heavy rifle is likely to drop either.
    b = battle(tmp_path, [unit("Me", (2, 2), "heavy_rifle", skill=80)],
               [unit("Alpha", (8, 1), "heavy_rifle", dex=18, con=6, skill=70),
                unit("Zulu", (8, 3), "heavy_rifle", dex=4, con=6, skill=70)])
    req = at_declaration(b)
    view = b.observe("Blue")
    utility, trace_u = FwUtilityAI().decide_traced(view, req)
    search = FwSearchAI()
    chosen, trace = search.decide_traced(view, req)
    assert isinstance(utility, FwIntent) and isinstance(chosen, FwIntent)
    assert (utility.act, utility.target) == ("shoot", "Alpha")  # the two score the same: the first label
    assert (chosen.act, chosen.target) == ("shoot", "Zulu")  # looking ahead changes the choice
    assert b.check(chosen) is None
    names = {c["name"]: c for c in trace["chosen"]["considerations"]}
    assert names["search: replies our attack prevents"]["input"] > 0  # Zulu's reply, times P(Zulu down)
    alpha = next(r for r in trace["runners_up"] if r["option"].startswith("shoot Alpha"))
    assert {c["name"]: c for c in alpha["considerations"]}["search: replies our attack prevents"]["input"] == 0
    assert trace["chosen"]["score"] > alpha["score"]
    assert trace["personality"] == "search" and trace_u["personality"] == "normal"
    # The same question from the same view gives the same answer (nothing is drawn at random).
    assert FwSearchAI().decide_traced(view, req)[0] == chosen


def test_an_enemy_of_equal_dex_fires_all_the_same(tmp_path: Path) -> None:
    # Equal DEX resolves simultaneously: putting Zulu down saves nothing, so the tie stays the utility's.
    b = battle(tmp_path, [unit("Me", (2, 2), "heavy_rifle", skill=80)],
               [unit("Alpha", (8, 1), "heavy_rifle", dex=12, con=6, skill=70),
                unit("Zulu", (8, 3), "heavy_rifle", dex=12, con=6, skill=70)])
    req = at_declaration(b)
    chosen, trace = FwSearchAI().decide_traced(b.observe("Blue"), req)
    assert isinstance(chosen, FwIntent) and chosen.target == "Alpha"
    assert all(c["input"] == 0 for c in trace["chosen"]["considerations"]
               if c["name"] == "search: replies our attack prevents")


def test_a_faster_enemy_may_drop_it_before_it_fires(tmp_path: Path) -> None:
    b = battle(tmp_path, [unit("Me", (2, 2), "heavy_rifle", con=5, skill=80)],
               [unit("Alpha", (8, 2), "heavy_rifle", dex=18, skill=90)])
    at_declaration(b)
    search = FwSearchAI()
    view = b.observe("Blue")
    me = view.unit("Me")
    ex = search.exchange(view, me, FwIntent("Me", "shoot", "Alpha"), worth=10.0)
    assert 0 < ex.acts_first < 1 and ex.attack == pytest.approx(10.0 * ex.acts_first)
    still = search.exchange(view, me, FwIntent("Me"), worth=0.0)
    assert still.acts_first == 1.0 and still.replies == pytest.approx(ex.replies)  # it fires at us either way


def test_search_is_registered_for_fw_and_plays_deterministically() -> None:
    assert isinstance(make_ai("search", "fw"), FwSearchAI)
    assert make_ai("search:hard", "fw").name == "search:hard"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown personality 'nobody' for the Future\\*World search AI"):
        make_ai("search:nobody", "fw")
    sc = load_scenario(HAB)
    logs = []
    for _ in range(2):
        with Battle(sc, seed=4, controllers={"Crew": make_ai("search", "fw"),
                                             "Boarders": make_ai("utility", "fw")}) as b:
            b.run()
            logs.append([e.to_line() for e in b.log.events])
    assert logs[0] == logs[1]
    searched = [line for line in logs[0] if '"personality":"search"' in line and "search: replies in DEX order" in line]
    assert any('"request":"intent"' in line for line in searched)  # its traces are in the log: declarations
    assert any('"request":"move"' in line for line in searched)  # ... and the movement segment's cells


def test_the_search_tier_drives_a_grav_car_as_the_utility_ai_does(tmp_path: Path) -> None:
    """The search's answers go through the utility's car hook (ai/fw/car.adjust, R-9.12): a driver whose riders
    have nobody in sight behind a 12 m wall drives the car, screen up (review7d: the search never drove)."""
    from tests.test_fw_battle import battle
    from tests.test_fw_grav import at_intent, grav_text
    from tests.test_fw_grav_ai import CREW, HIDDEN, SKIFF

    b = battle(tmp_path, grav_text(CREW, HIDDEN, SKIFF, heights="{wall: 12}"))
    at_intent(b, "Rhee")
    req = b.pending
    assert req is not None
    action = FwSearchAI().decide(b.observe("Blue"), req)
    assert isinstance(action, FwIntent) and action.act == "drive" and b.check(action) is None
