"""The difficulty ladder's rungs as data switches (issue 12 item 4; skirmish/ai/utility/personality.py): the rest of
ranged combat (covering fire, split bursts, double taps, launches, friends on the line; ranged_extra.py) and the
grapples (grapple_options.py) are each a `Personality` field. A unit whose personality has the switch off never
weighs that option in a battle where one with it on chooses it; hard, aggressive and cautious keep every one."""

from __future__ import annotations

from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest

from skirmish.ai.utility import PERSONALITIES, Personality, UtilityAI
from skirmish.rules.actions import CoverFire, Launch, Shoot
from skirmish.rulesets.fi import Trip
from tests.conftest import battle_at

SWITCHES = ("use_cover_fire", "use_split", "use_double_tap", "use_launch", "mind_the_line", "use_grapple")
T = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
SMG = f"traits: {T}, skills: {{'shooting:smg': 4}}, weapons: [needle_smg]"
WEAK = f"traits: {T}, skills: {{'shooting:smg': 1}}, weapons: [needle_smg]"
GL = f"traits: {T}, skills: {{'shooting:launcher': 3}}, weapons: [grenade_launcher]"
RIFLE = f"traits: {T}, skills: {{'shooting:rifle': 2}}, weapons: [assault_rifle]"
WALL = ["..............................", "..............................", "...................#..........",
        "..............................", ".............................."]
NIMBLE = "strength: II-2, dexterity: IV-4, reflexes: III-2, vigor: III-2, acuity: II-2"
WHIP = f'traits: {{{NIMBLE}}}, skills: {{"fighting:whips": 5}}, melee: [whip]'
SWORD = ('traits: {strength: IV-3, dexterity: IV-3, reflexes: III-2, vigor: III-2, acuity: II-2}, '
         'skills: {"fighting:swords": 5}, melee: [sword]')
BRUTE = ('traits: {strength: V-3, dexterity: II-2, reflexes: III-2, vigor: III-2, acuity: II-2}, '
         'skills: {"fighting:swords": 5}, armour: [flak_vest], melee: [sword]')

# (switch, rows, blue, red, the chosen action's test with the switch on, the option labels it gives)
CASES: list[tuple[str, list[str], str, str, Any, str]] = [
    ("use_cover_fire", WALL, f"[{{name: Me, at: [0, 2], {WEAK}}}, {{name: F1, at: [24, 4], {RIFLE}}}]",
     f"[{{name: R, at: [20, 2], traits: {T}, weapons: [needle_smg], skills: {{'shooting:smg': 2}}}}]",
     lambda a: isinstance(a, CoverFire), "cover"),
    ("use_split", ["...................."] * 4, f"[{{name: Me, at: [0, 1], {SMG}}}]",
     f"[{{name: A, at: [4, 0], traits: {T}, wounds: 2}}, {{name: B, at: [4, 2], traits: {T}, wounds: 2}}]",
     lambda a: isinstance(a, Shoot) and bool(a.also), "split burst"),
    ("use_launch", [".............................."] * 4, f"[{{name: Me, at: [0, 1], {GL}}}]",
     f"[{{name: A, at: [20, 1], traits: {T}}}, {{name: B, at: [21, 2], traits: {T}}}]",
     lambda a: isinstance(a, Launch), "launch"),
    ("use_grapple", ["...................."] * 4,
     f"[{{name: Me, at: [2, 1], {WHIP}}}, {{name: F, at: [3, 2], {SWORD}}}, {{name: G, at: [4, 2], {SWORD}}}]",
     f"[{{name: R1, at: [3, 1], {BRUTE}}}]", lambda a: isinstance(a, Trip), "trip"),
]


def _decide(tmp_path: Path, rows: list[str], blue: str, red: str, p: Personality) -> tuple[Any, list[str]]:
    with battle_at(tmp_path, rows, blue, red) as b:
        action, trace = UtilityAI(replace(p, runners_up=80)).decide_traced(b.view(), b.pending)
        assert b.check(action) is None
        return action, [str(o["option"]) for o in (trace["chosen"], *trace["runners_up"])]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_a_switch_off_leaves_the_option_unweighed(tmp_path: Path, case: tuple[Any, ...]) -> None:
    switch, rows, blue, red, chosen, label = case
    on, opts_on = _decide(tmp_path / "on", rows, blue, red, PERSONALITIES["hard"])
    assert chosen(on), opts_on[0]
    off, opts_off = _decide(tmp_path / "off", rows, blue, red, replace(PERSONALITIES["hard"], **{switch: False}))
    assert not chosen(off), opts_off[0]
    assert not [o for o in opts_off if o.startswith(label) or label in o.split(" (")[0]]


def test_friends_on_the_line_only_with_the_switch() -> None:
    """Friends on the line (R-6.11) weigh into a shot as "friends clear of the line", only with `mind_the_line`."""
    long = ["................................................"] * 3
    blue = f"[{{name: Me, at: [0, 1], {WEAK}}}, {{name: F, at: [6, 1], {WEAK}}}]"
    red = f"[{{name: R, at: [40, 1], traits: {T}}}]"

    def read(tmp: Path, p: Personality) -> list[set[str]]:
        with battle_at(tmp, long, blue, red) as b:
            _, trace = UtilityAI(replace(p, runners_up=80)).decide_traced(b.view(), b.pending)
            return [{str(c["name"]) for c in o["considerations"]} for o in (trace["chosen"], *trace["runners_up"])
                    if str(o["option"]).startswith("shoot R")]

    import tempfile
    with tempfile.TemporaryDirectory() as d:
        hard = PERSONALITIES["hard"]
        on, off = read(Path(d) / "on", hard), read(Path(d) / "off", replace(hard, mind_the_line=False))
    assert on and all("friends clear of the line" in c for c in on)
    assert off and not any("friends clear of the line" in c for c in off)


def test_the_rungs_are_data() -> None:
    """Every switch is a field read from data (`Personality.parse`); normal (the default AI, issue 14 item 7), the top
    rung and the two characters keep every one, easy none; normal plays with the material scale, fewer move cells,
    its own utility scores counting more against the material, and a little misjudgement
    (docs/AI.md's ladder)."""
    names = {f.name for f in fields(Personality)}
    assert set(SWITCHES) <= names
    assert Personality.parse({"use_split": False, "use_cover_fire": False}) == replace(
        Personality(), use_split=False, use_cover_fire=False)
    for name in ("normal", "hard", "aggressive", "cautious"):
        assert all(getattr(PERSONALITIES[name], s) for s in SWITCHES), name
    normal, easy, hard = PERSONALITIES["normal"], PERSONALITIES["easy"], PERSONALITIES["hard"]
    assert not any(getattr(easy, s) for s in SWITCHES)
    assert easy.hesitate > normal.hesitate == hard.hesitate == 0.0  # normal is blunter by its weights, not idling
    assert normal.scale_utility > hard.scale_utility  # its own scores against the material: a larger share
    assert normal.use_squad and normal.use_commitment and normal.declare_slow  # normal still plays a squad (item 2)
    assert normal.material and hard.material and not easy.material  # the scale keeps normal's fights short
    assert easy.top_moves < normal.top_moves < hard.top_moves and easy.noise > normal.noise > hard.noise == 0.0
    for s in SWITCHES:  # easy never weighs what normal leaves
        assert getattr(easy, s) <= getattr(normal, s), s


def test_normal_misjudges_by_the_round_unit_and_option(tmp_path: Path) -> None:
    """Normal misjudges each option by a factor in [0.9, 1.1] drawn from the round, unit and option (`noise`; hard
    not at all): the trace shows the factor, and the same decision gives the same factors (no random source)."""
    rows = ["...................."] * 6
    blue = f"[{{name: Me, at: [0, 2], {SMG}}}]"
    red = f"[{{name: R, at: [14, 3], traits: {T}}}]"

    def trace(tmp: Path, p: Personality) -> dict[str, Any]:
        with battle_at(tmp, rows, blue, red) as b:
            return UtilityAI(replace(p, runners_up=300)).decide_traced(b.view(), b.pending)[1]

    got = [trace(tmp_path / name, PERSONALITIES[name]) for name in ("normal", "hard")]
    again = trace(tmp_path / "again", PERSONALITIES["normal"])
    assert got[0] == again
    opts = [got[0]["chosen"], *got[0]["runners_up"]]
    factors = [o["noise"] for o in opts if "noise" in o]
    assert factors and all(0.9 <= f <= 1.1 for f in factors) and len(set(factors)) > 1
    assert not any("noise" in o for o in [got[1]["chosen"], *got[1]["runners_up"]])
