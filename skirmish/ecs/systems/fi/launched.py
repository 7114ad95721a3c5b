"""Launched grenades in a battle (R-6.10, R-6.9): `launch U X,Y` with a launcher in hand, `launch U X,Y hand=off`
with the launcher in the other hand of a unit holding two weapons (R-6.12: its −2, the off hand's −4 and a
two-handed launcher's −2, as a shot's; the off hand's rounds; both hands' shots share the attack action). The rules
are in skirmish.rules.fi.ranged_launch; the burst is a thrown explosive's (FiThrowing.caught and _blast_hit); the
card's breakdown is read for the launcher after it fires (R-4.8, `broke_down`): an off-hand launcher broken down
is cleared by a reload of that hand (two_weapons.reload_hand)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from skirmish.core.errors import IllegalAction
from skirmish.ecs.components import Declared, Status, Turn, WeaponState
from skirmish.ecs.systems.fi import two_weapons
from skirmish.rules import geometry as geo
from skirmish.rules.actions import Launch
from skirmish.rules.checks import tn
from skirmish.rules.fi.ranged import ShotFacts, ShotSetup, breaks, shot_numbers
from skirmish.rules.fi.ranged_launch import LaunchEvent, place_launch  # noqa: F401  (registers the event)
from skirmish.rules.randomizer import Draw

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi.thrown import FiThrowing


def launch_setup(sys: FiThrowing, eid: int, action: Launch) -> ShotSetup:
    """Check a launch and work out its TN and modifiers (R-6.10, R-6.1); IllegalAction naming the rule. With
    `hand=off`, the other hand's launcher's (R-6.12)."""
    with two_weapons.hand(sys, eid, action.hand):
        return _setup(sys, eid, action)


def _setup(sys: FiThrowing, eid: int, action: Launch) -> ShotSetup:
    w = sys.w
    if not sys.active(eid):
        raise IllegalAction("R-8.1: out of action")
    if w.peek(eid, Declared).speed == "dodge":
        raise IllegalAction("R-5.4: a dodging combatant makes no attacks")
    wpn = sys.weapon(eid)
    if wpn is None or not wpn[0].launched:
        raise IllegalAction("R-6.10: the weapon in hand launches nothing; a launcher fires at a cell")
    weapon, ws = wpn
    if ws.jammed:
        raise IllegalAction(f"R-4.8: the {weapon.name} has broken down; clear it with a reload action")
    if ws.rounds < 1:
        raise IllegalAction(f"R-6.12: the {weapon.name} is empty; reload")
    grid = sys.ctx.grid
    here, at = w.cell(eid), (int(action.at[0]), int(action.at[1]))
    if not grid.inside(at):
        raise IllegalAction(f"cell {at[0]},{at[1]} is off the map")
    if grid.blocks_sight[at[1], at[0]]:
        raise IllegalAction(f"R-6.10: cell {at[0]},{at[1]} is {grid.terrain(at).name}; launch at an open cell")
    if not geo.sight(grid, here, at).visible:
        raise IllegalAction(f"R-6.10: no line of sight to {at[0]},{at[1]}")
    dist = geo.distance_m(here, at, grid.cell_m)
    if dist > weapon.max_range_m + 1e-9:
        raise IllegalAction(f"R-6.1: {dist:.0f} m is beyond the {weapon.name}'s {weapon.max_range_m:g} m")
    sys.check_parts(eid, sys.attack_part(eid, weapon, "prepared"))
    turn = w.peek(eid, Turn)
    moved = ("ran" if turn.ran_this_turn else "walked") if turn.moved_this_turn else "none"
    facts = ShotFacts(distance_m=dist, mode="prepared", firer_moved=moved, target=f"{at[0]},{at[1]}",
                      firer_mounted=w.peek(eid, Status).mounted)  # a rider's launch is a shot from the saddle: -2
    target_tn, tn_mods, shot_mods = shot_numbers(weapon, facts, tn("standard", sys.ctx.scope))  # type: ignore[arg-type]
    pool = sys.skill_pool(eid, weapon.skill, "dexterity")
    mods = (list(pool.modifiers) + list(sys.wound_mod(eid)) + list(sys.mind_mods(eid)) + shot_mods  # annoyed
            + two_weapons.modifiers(sys, eid, weapon))  # a weapon in each hand
    return ShotSetup(weapon=weapon, column=pool.column, row=pool.row, halve=pool.halve, tn=target_tn,
                     tn_mods=tuple(tn_mods), result_mods=tuple(mods), distance_m=dist)


def launch(sys: FiThrowing, eid: int, action: Launch) -> None:
    """Launch: one draw places it (a miss scatters by the launched multiplier, R-6.10); each combatant the burst
    reaches draws a card for its damage (R-6.9, R-6.8)."""
    setup = launch_setup(sys, eid, action)
    with two_weapons.hand(sys, eid, action.hand):
        weapon = setup.weapon
        w = sys.w
        ws = sys.weapon(eid)[1]  # type: ignore[index]
        turn = w.get(eid, Turn)
        turn.parts = parts = sys.check_parts(eid, sys.attack_part(eid, weapon, "prepared"))
        two_weapons.count_shot(sys, eid, parts, 1)  # each hand's shots in the action
        turn.acted = True
        grid = sys.ctx.grid
        here, aim = w.cell(eid), (int(action.at[0]), int(action.at[1]))
        rules = ["R-6.10", "R-6.1", "R-3.3"] + (["R-6.12"] if action.hand == "off" else [])
        sys.explode(eid, "launch", rules, setup, ws, aim, lambda draw: place_launch(draw, setup, grid, here, aim),
                    reliability=weapon.reliability, hand="off" if action.hand == "off" else None)


def broke_down(ws: WeaponState, draw: Draw, reliability: str | None) -> dict[str, bool]:
    """R-4.8 after a launch: the card's breakdown letter at or right of the launcher's reliability breaks it down
    (`ws.jammed`: no launch until a reload action clears it); {"breakdown": True} for the event then, else {}."""
    if reliability is None or not breaks(draw.fields.breakdown, reliability):
        return {}
    ws.jammed = True
    return {"breakdown": True}
