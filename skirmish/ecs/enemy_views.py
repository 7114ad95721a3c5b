"""Enemies as a side knows them (issue 11, item 4; skirmish.ecs.knowledge): one it sees now (`seen_enemy`) and one it
does not (`ghost`, at its last sighting), made from the all-seeing view of the unit; the fields each reads, sets or
shows as the view holds them, which `Knowledge._as_known` keeps its answers by; and the board's hidden declarations.
docs/RULES-NOTES.md ("Side views") lists the fields."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Any

from skirmish.ecs.fi_mind import CAUSES
from skirmish.ecs.view import BattleView, UnitView, replace_unit

if TYPE_CHECKING:
    from skirmish.ecs.knowledge import Sighting

HIDDEN = "hidden"  # what a declaration reads as to the other sides before initiative is flipped


def _differ(a: UnitView, b: UnitView, names: tuple[str, ...]) -> list[str]:
    """The fields among `names` in which two views of one unit hold values that are not equal."""
    da, db = a.__dict__, b.__dict__
    return [k for k in names if (x := da[k]) is not (y := db[k]) and x != y]


def _shown_declared(declared: str | None, hide: bool) -> str | None:
    """An enemy's declaration as another side reads it: HIDDEN until initiative is flipped (R-5.1)."""
    return HIDDEN if hide and declared is not None else declared


# The fields of the all-seeing view that `seen_enemy` and `ghost` set to what they show whatever the view holds
# there (`_unknown`'s, the sighting's, constants): an enemy's view changed only in these gives the same enemy as a
# side sees it (Knowledge.observe keeps it). Every other field is read, those added later too;
# tests/test_knowledge_speed.py changes each of these alone and finds the same answer.
_SEEN_SETS = frozenset({"last_seen", "ct", "stunned", "rounds", "magazines", "jammed", "tacpack_generator",
                        "screen_type", "screen_points", "shot_points", "waiting", "ready_target", "aim", "throwables",
                        "turn_parts", "full", "off_rounds", "off_jammed"})
_GHOST_SETS = _SEEN_SETS | {"cell", "facing", "prone", "out_of_action", "dead", "wounds", "armour", "moved_m", "rate_m",
                            "cover", "firing", "ghost", "weapon"}
_SEEN_READS = tuple(f.name for f in dataclasses.fields(UnitView) if f.name not in _SEEN_SETS)
_GHOST_READS = tuple(f.name for f in dataclasses.fields(UnitView) if f.name not in _GHOST_SETS)
# Of the fields read, those `seen_enemy` and `ghost` show as the view holds them, or (`declared`) as `hide` shows
# it (`_shown_declared`): an enemy's view changed only in these gives the kept answer with them put in
# (Knowledge._as_known). Not here: what an answer works out of other fields (CT from ct_max, known_to, the states
# of mind and melee a ghost hides; covering, overwritten) and every field added later; tests/test_battle_speed11.py
# changes each of these alone and finds the answer made afresh.
_SEEN_PASSED = frozenset(_SEEN_READS) - {"ct_max", "known_to", "covering"}
_GHOST_PASSED = frozenset(_GHOST_READS) - {"ct_max", "known_to", "covering", "mind", "melee"}


def _unknown(u: UnitView, side: str) -> dict[str, Any]:
    """The fields no enemy shows: ammunition, breakdowns, tacpack, CT and stun, intentions and what its turn
    has spent on the timing rules (read as unknown)."""
    return {"ct": u.ct_max, "stunned": False, "rounds": 0, "magazines": 0, "jammed": False,
            "tacpack_generator": 0, "screen_type": "none", "screen_points": 0, "shot_points": 0,
            "waiting": None, "covering": None, "ready_target": None, "aim": 0, "throwables": (), "turn_parts": (),
            "off_rounds": 0, "off_jammed": False,  # two weapons: the other hand's weapon shows, its rounds do not
            "known_to": (side,) if side in u.known_to else (), "full": False}


def seen_enemy(u: UnitView, side: str, round_no: int, hide_declared: bool) -> UnitView:
    """An enemy `side` sees now: where it is, how it stands and faces, its wounds, weapon in hand, worn armour,
    cover, movement this round and whether it fires; its profile (traits, skills, size) is the scenario's
    roster. Its declaration shows once initiative is flipped (R-5.1)."""
    return replace_unit(u, {"declared": _shown_declared(u.declared, hide_declared), "last_seen": round_no,
                            **_unknown(u, side)})


def ghost(u: UnitView, side: str, s: Sighting, hide_declared: bool, armoury: Any = None) -> UnitView:
    """An enemy `side` does not see now, at its last known cell with what showed of it then (the ranged weapon
    in hand then, looked up in `armoury`). Its declaration and initiative phase are known as a seen enemy's are
    (revealed when initiative is flipped, R-5.1); its cover and movement this round are not."""
    declared = _shown_declared(u.declared, hide_declared)
    unseen: dict[str, Any] = {}  # FI's states of mind and melee state now are not seen (what it causes is roster)
    if u.mind:
        unseen["mind"] = tuple(m for m in u.mind if m in CAUSES.values())
    if u.melee is not None:
        unseen["melee"] = None
    return replace_unit(u, dict(
        cell=s.cell, facing=s.facing, prone=s.prone, out_of_action=s.out_of_action, dead=s.dead,
        wounds=s.wounds, armour=s.armour, weapon=_held(s, armoury), declared=declared, moved_m=0.0, rate_m=0.0,
        cover="none", firing=False, ghost=True,
        last_seen=s.round, **_unknown(u, side), **unseen))


def _held(s: Sighting, armoury: Any) -> Any:
    """The ranged weapon a ghost shows in hand: the one its sighting saw (None for a thrown one, as the view
    lists those apart, or without an armoury to look it up in). Never the unit's weapon now."""
    w = armoury.weapons.get(s.weapon) if armoury is not None and s.weapon else None
    return None if w is None or w.thrown else w


def hide_declarations(view: BattleView, reveal: set[str]) -> BattleView:
    """The view with the declarations of sides not in `reveal` read as HIDDEN (the same object if none is):
    the board's all-seeing view before initiative is flipped (R-5.1)."""
    hide = [i for i, u in enumerate(view.units) if u.side not in reveal and u.declared not in (None, HIDDEN)]
    if not hide:
        return view
    units = list(view.units)
    for i in hide:
        units[i] = replace_unit(units[i], {"declared": HIDDEN})
    return dataclasses.replace(view, units=tuple(units))
