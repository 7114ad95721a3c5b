"""The utility AI and the rest of ranged combat (issue 14 item 7; skirmish/ai/utility/ranged_extra.py): covering fire
when its shot is poor (R-6.12), friends on the line of fire (R-6.11), split bursts (R-6.3), double taps (R-6.12) and
launches (R-6.10). Hand-built battles: each is chosen where it pays and left where it does not."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from skirmish.ai.estimate import replaced
from skirmish.ai.utility import UtilityAI
from skirmish.ai.utility.personality import PERSONALITIES
from skirmish.ai.utility.ranged_extra import POOR_ODDS, POOR_SHOT
from skirmish.core.flow import Request
from skirmish.rules.actions import CoverFire, Launch, Shoot
from skirmish.rulesets.fi import Part
from tests.conftest import battle_at

T = "{strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
OPEN = ["...................."] * 4


def _decide(b: Any, view: Any = None, request: Any = None) -> tuple[Any, list[dict[str, Any]]]:
    ai = UtilityAI(replace(PERSONALITIES["hard"], runners_up=80))  # every extra on (the ladder: hard's)
    action, trace = ai.decide_traced(view or b.view(), request or b.pending)
    return action, [trace["chosen"], *trace["runners_up"]]


def _inputs(o: dict[str, Any]) -> dict[str, float]:
    return {str(c["name"]): float(c["input"]) for c in o["considerations"]}


def _smg(skill: int) -> str:
    return f"traits: {T}, skills: {{'shooting:smg': {skill}}}, weapons: [needle_smg]"


def _two(tmp_path: Path, wounds: int, far: bool = False, x: int = 4) -> Any:
    rows = OPEN + ["...................."] * (8 if far else 0)
    b_at = f"[{x}, 11]" if far else f"[{x}, 2]"
    return battle_at(tmp_path, rows, f"[{{name: Me, at: [0, 1], {_smg(4)}}}]",
                     f"[{{name: A, at: [{x}, 0], traits: {T}, wounds: {wounds}}}, "
                     f"{{name: B, at: {b_at}, traits: {T}, wounds: {wounds}}}]")


def test_a_burst_is_split_between_two_hurt_enemies_side_by_side(tmp_path: Path) -> None:
    """Two enemies 4 m apart, each two wounds down: a burst of 10 at one would overkill it, so the AI splits it
    (R-6.3: the dice halved, +2 TN each); its attack on the material scale is both shares'."""
    with _two(tmp_path, wounds=2) as b:
        action, opts = _decide(b)
        assert isinstance(action, Shoot) and action.also and action.burst in (5, 10), opts[0]["option"]
        assert {action.target, *action.also} == {"A", "B"} and b.check(action) is None
        single = max((o for o in opts if o["action"].startswith("shoot Me target=") and "also" not in o["action"]),
                     key=lambda o: _inputs(o)["material: value"])
        assert _inputs(opts[0])["material: value"] > _inputs(single)["material: value"]


def test_no_split_when_one_burst_does_more(tmp_path: Path) -> None:
    for wounds, far, x in ((0, False, 12), (2, True, 4)):  # unhurt side by side 24 m off; hurt but 22 m apart
        with _two(tmp_path / f"{wounds}{far}", wounds=wounds, far=far, x=x) as b:
            action, opts = _decide(b)
            assert isinstance(action, Shoot) and not action.also, opts[0]["option"]
            assert not [o for o in opts if "split burst" in o["option"]]


def _pistol(tmp_path: Path) -> Any:
    pistol = f"traits: {T}, skills: {{'shooting:pistol': 3, double_tap: 2}}, weapons: [slug_pistol]"
    return battle_at(tmp_path, OPEN, f"[{{name: Me, at: [0, 1], {pistol}}}]",
                     f"[{{name: R, at: [19, 1], traits: {T}}}]", declare="slow")


def _prepared_only(b: Any) -> Request:
    legal = b.legal_actions("Me")
    legal = replace(legal, shots=tuple(s for s in legal.shots if s.mode == "prepared"),
                    ranged=tuple(s for s in legal.ranged if s.mode == "prepared"), aims=())
    return Request("act", "Me", "Blue", ask=lambda: legal)


def test_a_double_tap_when_one_single_shot_is_left_of_the_turn(tmp_path: Path) -> None:
    """At SLOW a pistol (rate of fire 2) has fired five prepared shots: one more single shot fits the turn (R-5.5,
    R-6.3), or a double tap's two (R-6.12): the tap is chosen."""
    with _pistol(tmp_path) as b:
        view = b.view()
        shot = Part("attack", 0, "prepared", weapon="slug_pistol", rof=2, shots=2)
        parts = (shot, shot, replace(shot, shots=1))
        late = replace(view, units=tuple(replaced(u, turn_parts=parts, rounds=3) if u.name == "Me" else u
                                         for u in view.units))
        action, opts = _decide(b, late, _prepared_only(b))
        assert isinstance(action, Shoot) and action.double_tap and action.target == "R", opts[0]["option"]
        single = next(o for o in opts if o["option"] == "shoot R prepared")
        assert _inputs(opts[0])["material: value"] > _inputs(single)["material: value"]


def test_no_double_tap_when_single_shots_fit(tmp_path: Path) -> None:
    with _pistol(tmp_path) as b:
        view = b.view()
        fresh = replace(view, units=tuple(replaced(u, rounds=3) if u.name == "Me" else u for u in view.units))
        action, opts = _decide(b, fresh, _prepared_only(b))
        assert isinstance(action, Shoot) and not action.double_tap, opts[0]["option"]
        assert any("double tap" in o["option"] for o in opts)  # weighed, and left


WALL = ["..............................",
        "..............................",
        "...................#..........",
        "..............................",
        ".............................."]
ENEMY = f"[{{name: R, at: [20, 2], traits: {T}, weapons: [needle_smg], skills: {{'shooting:smg': 2}}}}]"
FRIEND = f"{{name: F1, at: [24, 4], traits: {T}, skills: {{'shooting:rifle': 2}}, weapons: [assault_rifle]}}"


def test_covering_fire_watches_the_exits_of_an_enemy_it_cannot_hit(tmp_path: Path) -> None:
    """R stands behind a pillar: Me cannot see it (no shot), a friend does. Me covers the cells beside the pillar,
    which R must cross to move (R-6.12), with the trace's reason."""
    with battle_at(tmp_path, WALL, f"[{{name: Me, at: [0, 2], {_smg(2)}}}, {FRIEND}]", ENEMY) as b:
        action, opts = _decide(b)
        assert isinstance(action, CoverFire) and b.check(action) is None, opts[0]["option"]
        assert "watches R" in opts[0]["option"] and _inputs(opts[0])["shot in hand is poor"] == 1.0
        assert abs(action.at[0] - 20) + abs(action.at[1] - 2) <= 3  # round the pillar


def test_no_covering_fire_with_a_good_shot(tmp_path: Path) -> None:
    with battle_at(tmp_path, WALL, f"[{{name: Me, at: [14, 2], {_smg(2)}}}, {FRIEND}]",
                   f"[{{name: R, at: [20, 3], traits: {T}, weapons: [needle_smg], skills: {{'shooting:smg': 2}}}}]") as b:
        _, opts = _decide(b)
        best = max(_inputs(o).get("expected harm", 0) for o in opts if o["option"].startswith("shoot"))
        assert best >= POOR_SHOT and not [o for o in opts if o["option"].startswith("cover")]


LONG = ["................................................"] * 3
WEAK = f"traits: {T}, skills: {{'shooting:smg': 1}}, weapons: [needle_smg]"


def test_no_burst_through_a_friend_at_poor_odds(tmp_path: Path) -> None:
    """F stands on the line of fire at R, 80 m off (R-6.11): no burst at under POOR_ODDS is offered, and the single
    shot's "friends clear of the line" and material count what strays into F; with F off the line, the bursts
    come back."""
    with battle_at(tmp_path, LONG, f"[{{name: Me, at: [0, 1], {WEAK}}}, {{name: F, at: [6, 1], {WEAK}}}]",
                   f"[{{name: R, at: [40, 1], traits: {T}}}]") as b:
        _, opts = _decide(b)
        shots = [o for o in opts if o["option"].startswith("shoot R")]
        assert shots and not [o for o in shots if "burst" in o["option"] and _inputs(o)["hit chance"] < POOR_ODDS]
        assert all(_inputs(o)["friends clear of the line"] < 1 for o in shots)
    with battle_at(tmp_path / "off", LONG, f"[{{name: Me, at: [0, 1], {WEAK}}}, {{name: F, at: [6, 0], {WEAK}}}]",
                   f"[{{name: R, at: [40, 2], traits: {T}}}]") as b:
        _, opts = _decide(b)
        bursts = [o for o in opts if o["option"].startswith("shoot R") and "burst" in o["option"]]
        assert bursts and all("friends clear of the line" not in _inputs(o) for o in bursts)


GL = f"traits: {T}, skills: {{'shooting:launcher': 3}}, weapons: [grenade_launcher]"
FIELD = [".............................."] * 4


def test_a_launch_at_two_enemies_together(tmp_path: Path) -> None:
    with battle_at(tmp_path, FIELD, f"[{{name: Me, at: [0, 1], {GL}}}]",
                   f"[{{name: A, at: [20, 1], traits: {T}}}, {{name: B, at: [21, 2], traits: {T}}}]") as b:
        action, opts = _decide(b)
        assert isinstance(action, Launch) and b.check(action) is None, opts[0]["option"]
        assert "(A, B)" in opts[0]["option"] and abs(action.at[0] - 20) <= 1 and abs(action.at[1] - 1) <= 1


def test_no_launch_onto_a_friend(tmp_path: Path) -> None:
    """A friend wrestles the one enemy: every cell that would catch the enemy catches the friend too (harm to a
    friend weighs 1.5 times): no launch."""
    with battle_at(tmp_path, FIELD, f"[{{name: Me, at: [0, 1], {GL}}}, {{name: F, at: [20, 2], traits: {T}}}]",
                   f"[{{name: A, at: [20, 1], traits: {T}}}]") as b:
        action, opts = _decide(b)
        assert not isinstance(action, Launch) and not [o for o in opts if o["option"].startswith("launch")]
