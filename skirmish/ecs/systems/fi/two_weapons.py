"""Two weapons (R-6.12; the seed's "Two Weapons" and "Two handed ranged weapons"): a unit whose scenario entry says
`two_weapons: true` holds its first fired weapon in its main hand and its next one in the other. Every attack it
makes takes −2; a shot with the off hand (`shoot U T hand=off`) −4 more (−6 in all); a two-handed weapon fired
with one hand −2 more (the numbers: skirmish.rules.fi.two_hands). Both hands share one attack action, at the slower
weapon's speed; each shot is its own task, and each hand fires no more than its own weapon's rate of fire in the
action (`Status.hand_shots` counts them: a shot past its hand's rate starts a new attack action). The off hand's
weapon is made the active one for its shot and put back after (checks change nothing). `offhand_shots` lists the
off hand's shots for legality (LegalActions.offhand)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Loadout, Status, Turn
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Shoot
from skirmish.rules.checks import Modifier
from skirmish.rules.equipment import Weapon
from skirmish.rules.fi.timing import ATTACK_MODES, Part
from skirmish.rules.fi.two_hands import hand_modifiers

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi.shooting import FiShooting

HANDS = ("", "main", "off")
FULL = 1 << 20  # a hand's count in an action not counted here: no room


def off_hand(sys: FiShooting, eid: int) -> int | None:
    """The loadout index of the off hand's weapon when the unit holds one in each hand, else None."""
    if not sys.w.peek(eid, Status).two_weapons:
        return None
    load = sys.w.peek(eid, Loadout)
    fired = [i for i, ws in enumerate(load.weapons) if not sys.ctx.armoury.weapons[ws.weapon_id].thrown]
    return fired[1] if len(fired) >= 2 else None


def modifiers(sys: FiShooting, eid: int, weapon: Weapon) -> list[Modifier]:
    """What holding two weapons costs the shot about to be made with `weapon` (the active one)."""
    off = off_hand(sys, eid)
    if off is None:
        return []
    return hand_modifiers(weapon, sys.w.peek(eid, Loadout).active == off)


def fired_main(sys: FiShooting, eid: int) -> int:
    """The loadout index of the main hand's weapon (the first fired weapon carried)."""
    arm = sys.ctx.armoury.weapons
    return next(i for i, ws in enumerate(sys.w.peek(eid, Loadout).weapons) if not arm[ws.weapon_id].thrown)


def _hand_rof(sys: FiShooting, eid: int, off: int) -> tuple[int, int, str]:
    """The main and off hands' rates of fire and the two guns' part name ("main_id|off_id")."""
    load = sys.w.peek(eid, Loadout)
    arm = sys.ctx.armoury.weapons
    main_id = next(ws.weapon_id for ws in load.weapons if not arm[ws.weapon_id].thrown)
    off_id = load.weapons[off].weapon_id
    return max(1, arm[main_id].rof), max(1, arm[off_id].rof), f"{main_id}|{off_id}"


def _counts(sys: FiShooting, eid: int, base: str) -> tuple[Part | None, int, int]:
    """The turn's last part when it is the two guns' attack action, and each hand's shots in it (R-6.12)."""
    parts = sys.w.peek(eid, Turn).parts
    last = parts[-1] if parts else None
    if last is None or last.kind != "attack" or not last.weapon.startswith(base):
        return None, 0, 0
    at, main, off = sys.w.peek(eid, Status).hand_shots
    if at != len(parts) or main + off != last.shots:
        return last, FULL, FULL  # an action this module did not count (a shot before two guns): full
    return last, main, off


def attack_part(sys: FiShooting, eid: int, weapon: Weapon, mode: str, shots: int = 1) -> Part | None:
    """A two-gun unit's attack part: both hands share one attack action, each up to its weapon's rate of fire
    (R-6.3, R-6.12): a shot its hand has no room for in the action going on is a new action (another part name,
    so `add_part` does not join it); None for anyone else."""
    off = off_hand(sys, eid)
    if off is None:
        return None
    main_rof, off_rof, base = _hand_rof(sys, eid, off)
    last, main, off_n = _counts(sys, eid, base)
    name = base
    if last is not None:
        is_off = sys.w.peek(eid, Loadout).active == off
        room = (off_n + shots <= off_rof) if is_off else (main + shots <= main_rof)
        name = last.weapon if room else (base + "+" if last.weapon == base else base)
    arm, load = sys.ctx.armoury.weapons, sys.w.peek(eid, Loadout)
    speed = max(int(arm[ws.weapon_id].speed) for ws in (load.weapons[off], load.weapons[fired_main(sys, eid)]))
    return Part("attack", speed, mode, weapon=name, rof=main_rof + off_rof)  # the slower hand's speed: either first


def count_shot(sys: FiShooting, eid: int, parts: list[Part], shots: int) -> None:
    """After a two-gun unit's shot joined the turn (`parts`): count it to its hand (`Status.hand_shots`)."""
    if off_hand(sys, eid) is None:
        return
    st = sys.w.peek(eid, Status)
    last = parts[-1]
    at, main, off_n = st.hand_shots
    if last.shots == shots:
        main = off_n = 0  # a new action
    elif at != len(parts) or main + off_n != last.shots - shots:
        main = off_n = FULL  # an action not counted here: no room in it
    is_off = sys.w.peek(eid, Loadout).active == off_hand(sys, eid)
    sys.w.get(eid, Status).hand_shots = (len(parts), main + (0 if is_off else shots), off_n + (shots if is_off else 0))


def reload_hand(sys: FiShooting, eid: int) -> str:
    """The hand a two-gun unit's reloading action serves (R-6.12, R-4.8): of the hands whose weapon needs one (broken
    down, a reload under way, or short of a full magazine with a spare), the broken-down one, else the one with a
    reload under way, else the emptier (the main hand on a tie): "off" for the off hand's; "" (the weapon in hand)
    otherwise and for anyone else."""
    off = off_hand(sys, eid)
    if off is None:
        return ""
    load, arm = sys.w.peek(eid, Loadout), sys.ctx.armoury.weapons

    def need(i: int) -> tuple[bool, bool, float] | None:
        ws = load.weapons[i]
        weapon = arm[ws.weapon_id]
        if weapon.thrown or not (ws.jammed or ws.reload_stage > 0 or (ws.rounds < weapon.magazine
                                                                        and ws.magazines > 0)):
            return None
        return ws.jammed, ws.reload_stage > 0, 1 - ws.rounds / max(1, weapon.magazine)
    main, other = need(load.active), need(off)
    return "off" if other is not None and (main is None or other > main) else ""


def offhand_shots(sys: FiShooting, eid: int, me: str, targets: list[str]) -> tuple[Shoot, ...]:
    """Every off-hand shot (`hand=off`: single, each burst, double tap) at `targets` (enemies in action and in sight)
    that `shot_setup` accepts, in the order (target, mode, burst, double tap); () for a unit without a weapon in
    each hand. The firer's checks (the off hand's weapon, rounds, tacpack, timing) are asked on the first target
    that passes the off hand's range; each other target in range takes the same kinds."""
    off = off_hand(sys, eid)
    if off is None:
        return ()
    weapon = sys.ctx.armoury.weapons[sys.w.peek(eid, Loadout).weapons[off].weapon_id]
    kinds = [(m, b, False) for m in ATTACK_MODES for b in (0, *weapon.bursts)]
    kinds += [(m, 0, True) for m in ATTACK_MODES] if weapon.double_tap else []
    grid, here = sys.ctx.grid, sys.w.cell(eid)
    in_range = [t for t in targets
                if geo.distance_m(here, sys.w.cell(sys.w.entity(t)), grid.cell_m) <= weapon.max_range_m + 1e-9]
    if not in_range:
        return ()
    first = [k for k in kinds if _ok(lambda k=k: sys.shot_setup(  # type: ignore[misc]
        eid, Shoot(me, in_range[0], mode=k[0], burst=k[1], double_tap=k[2], hand="off")))]
    return tuple(Shoot(me, t, mode=m, burst=b, double_tap=d, hand="off") for t in in_range for m, b, d in first)


def _ok(check: Callable[[], object]) -> bool:
    try:
        check()
    except IllegalAction:
        return False
    return True


@contextmanager
def hand(sys: FiShooting, eid: int, which: str) -> Iterator[None]:
    """Within: the weapon in `which` hand is the active one ("" or "main": no change)."""
    if which not in HANDS:
        raise IllegalAction(f"R-6.12: hand is main or off, not {which!r}")
    if which != "off":
        yield
        return
    off = off_hand(sys, eid)
    if off is None:
        raise IllegalAction(f"R-6.12: {sys.name(eid)} does not hold a weapon in each hand (a scenario unit's "
                            f"two_weapons: true, with two fired weapons)")
    load = sys.w.peek(eid, Loadout)  # put back as it was: nothing changed for the view
    was = load.active
    load.active = off
    try:
        yield
    finally:
        load.active = was
