"""Two weapons in legality (R-6.12): `LegalActions.offhand` lists the off hand's shots (single, bursts, double taps)
as `Battle.check` accepts them, worked out when first read; none for a unit without a weapon in each hand, with no
second fired weapon, or with the off hand's weapon empty. Each hand fires up to its own weapon's rate of fire in one
attack action (a shot past it starts a new action)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from skirmish.core.legal import LazyActions
from skirmish.ecs.components import Loadout, Status, Turn
from skirmish.rules.actions import Shoot, parse_action
from tests.conftest import battle_at

TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
ROWS = ["..........", "..........", ".........."]


def _battle(tmp_path: Path, weapons: str, two: bool = True, declare: str = "normal") -> Any:
    me = (f"[{{name: Me, at: [0, 1], weapons: {weapons}, skills: {{'shooting:pistol': 3}}, traits: {TRAITS}"
          f"{', two_weapons: true' if two else ''}}}]")
    red = ", ".join(f"{{name: {n}, at: [{x}, {y}], traits: {TRAITS}, wounds: 0}}"
                    for n, x, y in (("A", 4, 1), ("B", 4, 2), ("C", 5, 0), ("D", 5, 2)))
    red = f"[{red}]"
    return battle_at(tmp_path, ROWS, me, red, declare=declare)


def _agree(b: Any, legal: Any) -> None:
    """Every listed off-hand shot is accepted; every off-hand candidate not listed is refused."""
    for t in ("A", "B"):
        for mode in ("snap", "prepared", "aimed"):
            for burst in (0, 3, 5):
                for tap in (False, True):
                    a = Shoot("Me", t, mode=mode, burst=burst, double_tap=tap, hand="off")
                    assert legal.allows(a) == (b.check(a) is None), a


def test_the_off_hands_shots_are_listed_as_the_battle_accepts_them(tmp_path: Path) -> None:
    b = _battle(tmp_path, "[blast_pistol, slug_pistol]")
    legal = b.legal_actions("Me")
    assert isinstance(legal.offhand, LazyActions)
    singles = [a for a in legal.offhand if not a.double_tap and not a.burst]
    # (both hands share one action at the slower pistol's speed, NORMAL: aimed would be SLOW, R-5.4)
    assert {(a.target, a.mode) for a in singles} == {(t, m) for t in "ABCD" for m in ("snap", "prepared")}
    assert any(a.double_tap for a in legal.offhand)  # the slug pistol double taps
    assert all(a.hand == "off" for a in legal.offhand)
    assert legal.allows(Shoot("Me", "A", mode="snap", hand="off", called="head"))  # a called single shot
    assert legal.allows(Shoot("Me", "A", mode="snap", hand="main"))  # the main hand's are the plain shots
    _agree(b, legal)
    b.close()


def test_none_without_two_weapons_a_second_weapon_or_rounds(tmp_path: Path) -> None:
    b = _battle(tmp_path, "[blast_pistol, slug_pistol]", two=False)
    legal = b.legal_actions("Me")
    assert legal.offhand == () and not legal.allows(Shoot("Me", "A", hand="off"))
    assert b.check(Shoot("Me", "A", hand="off")) is not None
    b.close()
    b = _battle(tmp_path, "[blast_pistol]")
    legal = b.legal_actions("Me")
    assert tuple(legal.offhand) == () and b.check(Shoot("Me", "A", hand="off")) is not None
    b.close()
    b = _battle(tmp_path, "[blast_pistol, slug_pistol]")
    b.world.get(b.world.entity("Me"), Loadout).weapons[1].rounds = 0
    legal = b.legal_actions("Me")
    assert tuple(legal.offhand) == () and b.check(Shoot("Me", "A", hand="off")) is not None
    assert any(s.target == "A" for s in legal.shots)  # the main hand still fires
    b.world.get(b.world.entity("Me"), Loadout).weapons[1].rounds = 1  # one round: no double tap
    legal = b.legal_actions("Me")
    assert legal.offhand and not any(a.double_tap for a in legal.offhand)
    _agree(b, legal)
    b.close()


def _fire(b: Any, hand: str) -> None:
    """A snap shot from `hand` at the first enemy still in action."""
    view = b.observe("Blue")
    target = next(u.name for u in view.units if u.side != "Blue" and not u.out_of_action)
    b.submit(Shoot("Me", target, mode="snap", hand=hand))


def test_each_hand_fires_up_to_its_own_rate_of_fire_in_one_action(tmp_path: Path) -> None:
    b = _battle(tmp_path, "[blast_pistol, slug_pistol]", declare="slow")  # rate of fire 2 each
    eid = b.world.entity("Me")
    _fire(b, "")
    _fire(b, "")
    assert b.world.peek(eid, Status).hand_shots == (1, 2, 0)
    parts = b.world.peek(eid, Turn).parts
    assert len(parts) == 1 and parts[0].shots == 2
    # the main hand is done in this action: a third main shot is a new attack action; the off hand still fits
    third = b.sys.attack_part(eid, b.sys.weapon(eid)[0], "snap")
    assert third.weapon != parts[0].weapon
    legal = b.legal_actions("Me")
    assert any(a.mode == "snap" and not a.burst for a in legal.offhand)
    _fire(b, "off")
    _fire(b, "off")
    parts = b.world.peek(eid, Turn).parts
    assert len(parts) == 1 and parts[0].shots == 4 and b.world.peek(eid, Status).hand_shots == (1, 2, 2)
    b.close()


def test_the_off_hands_list_is_not_worked_out_for_a_unit_that_never_reads_it(tmp_path: Path) -> None:
    b = _battle(tmp_path, "[blast_pistol, slug_pistol]")
    legal = b.legal_actions("Me")
    b.submit(parse_action("shoot Me A mode=prepared"))
    try:
        list(legal.offhand)
    except RuntimeError:
        pass  # read after its request was answered: refused, not listed for another state
    else:
        raise AssertionError("a stale off-hand list was read")
    assert replace(Shoot("Me", "A"), hand="off").hand == "off"
    b.close()
