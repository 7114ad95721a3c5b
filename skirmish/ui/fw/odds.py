"""What the fw panel shows of a declaration before it is committed (issue 13: "Odds previews on the board are exact
for fw"): for each declared attack the battle's own preview (`Battle.odds`, one path with the AIs': the chance with
R-9.4's steps, hit, impale, the damage through the target's armour and screen as the person's side knows them, a
major wound, dropping it), a strike's reach, a grenade's range and everyone its blast may catch (R-9.10), a seeker's
acquisition against the CM the target may run (R-9.9, R-9.10), and what the EW programs of the split do (R-9.9).
No drawing here: `FwPreview` is read by the panel (its lines) and by the board marks (the blast, the beams)."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from skirmish.core.errors import IllegalAction
from skirmish.ecs.view import BattleView
from skirmish.rules import geometry as geo
from skirmish.rulesets.fw import FwIntent, cell_target, touching
from skirmish.rulesets.fw_preview import ODDS_ACTS, catches, percent, seeker_table, sensor_range_m, weapon
from skirmish.ui.fw.draft import Draft

MAX_SCATTER_M = 10  # a missed grenade scatters up to 1D10 m: the ring that bounds where it may land


Pmf = tuple[tuple[int, Fraction], ...]  # (points through, exact chance), by points


@dataclass(frozen=True)
class Blast:
    """A grenade declared at a figure: where it is aimed, its radius and who it may catch (name, cell, chance)."""

    aim: tuple[int, int]
    radius_m: float
    caught: tuple[tuple[str, tuple[int, int], str], ...]


@dataclass(frozen=True)
class FwPreview:
    """The panel's lines and the marks the board draws for one draft."""

    lines: tuple[str, ...] = ()
    blast: Blast | None = None
    targets: tuple[str, ...] = ()  # the figures an attack is declared at (a line is drawn to each)
    sensors_m: int = 0
    dccm_at: str | None = None
    refusals: tuple[str, ...] = field(default=())  # an attack the battle refuses now, in its words
    damage: tuple[tuple[str, Pmf, int], ...] = ()  # each attack's damage through armour and screen, the target's HP


def _metres(a: tuple[int, int], b: tuple[int, int], cell_m: float) -> float:
    return geo.distance_m(a, b, cell_m)


def _attack_line(battle: Any, view: BattleView, d: Draft, act: str, target: str, grid: geo.GridMap,
                 blast: list[Blast], damage: list[tuple[str, Pmf, int]]) -> tuple[str, str | None]:
    """(the line for one declared attack at `target`, the battle's refusal or None)."""
    cell_m = grid.cell_m
    w = weapon(d.weapon)
    wname = w.name if w is not None else "no weapon"
    try:
        it = d.intent()  # (from a grav car's mount: its weapon at the mounted chance, R-9.12)
        p = battle.odds(FwIntent(d.unit, act, target, weapon=it.weapon, mount=it.mount))
    except (IllegalAction, ValueError) as exc:  # the rules' refusal, in their words (never a traceback)
        return f"{act} {target}: {exc}", str(exc)
    me, them = view.unit(d.unit), view.find(target)
    cell = cell_target(target) if them is None and act == "throw" else None
    if cell is not None and w is not None:
        return _cell_line(view, d, cell, p, w, grid, blast), None
    damage.append((f"{act} {target}", tuple(sorted(p.odds.damage.items())), p.hp))
    steps = "".join(f", {s}" for s in p.steps)
    a = p.attack
    screen = f"{a.screen_type} {a.screen}" if a.screen_type and a.screen else "none"
    if act == "launch" and w is not None and w.base_chance is None:  # a seeker: no to-hit roll, it acquires
        f = them.ext if them is not None else None
        most = min(f.effectors, f.generator) if f is not None else 0
        dccm = d.dccm if d.dccm_at == target else 0
        worse = [f"CM {cm}: {acq}%" for cm, acq in seeker_table(dccm, most) if acq < 100]
        hidden = (f"should it run {', '.join(worse)}" if worse else
                  f"any CM it can run (up to {most}) is cancelled" + (f" by your DCCM {dccm}" if dccm else ""))
        text = p.text.replace("hit ", "acquires ", 1)
        return (f"launch {target} ({wname}, acquires at 100% - 10% x net CM, R-9.10): {text}; its CM is hidden from "
                f"your side (taken as 0): {hidden}; its screen {screen}"), None
    where = ""
    if them is not None:
        metres = _metres(me.cell, them.cell, cell_m)
        if act == "melee":
            move = me.ext.move_m if me.ext is not None else 0
            where = (" · in reach" if touching(grid, me.cell, them.cell) else
                     f" · {metres:.0f} m away: it walks into contact in the movement segment" if metres <= move + 2 else
                     f" · {metres:.0f} m away, beyond its {move} m move: it will be idle unless the target closes in")
        elif act == "throw" and w is not None:
            reach = w.range_m or 15
            where = f" · {metres:.0f} m of {reach} m" + ("" if metres <= reach else ": out of reach unless it closes in")
    if act == "throw" and w is not None and them is not None:
        # every figure not dead is caught, the thrower's own and those down too (as `arms.throw_grenade` has it)
        figures = [(u.name, u.cell) for u in view.units if not (u.ext.dead if u.ext is not None else u.dead)
                   and not getattr(u.ext, "aboard", None)]  # riders are 10 m up: never caught
        caught = catches(p.chance, me.cell, them.cell, figures, w.blast_radius_m, cell_m)
        blast.append(Blast(them.cell, w.blast_radius_m, tuple((n, c, percent(q)) for n, q in caught
                                                               for c in [view.unit(n).cell])))
        others = [f"{n}{' (yours)' if view.unit(n).side == me.side else ''} {percent(q)}" for n, q in caught
                  if n != target]
        more = f"; its {w.blast_radius_m:g} m blast may also catch " + ", ".join(others) if others else ""
        return f"throw {target} ({wname}{steps}): {p.text}{where}{more}; its screen {screen}", None
    m = d.mounted
    on = f" from the {m.name}, mounted" if m is not None else ""
    return f"{act} {target} ({wname}{on}, {p.chance}%{steps}): {p.text}{where}; its screen {screen}", None


def _cell_line(view: BattleView, d: Draft, cell: tuple[int, int], p: Any, w: Any, grid: geo.GridMap,
               blast: list[Blast]) -> str:
    """A grenade declared at a cell (R-9.10): its chance, range, and everyone its blast may catch there."""
    me = view.unit(d.unit)
    figures = [(u.name, u.cell) for u in view.units if not (u.ext.dead if u.ext is not None else u.dead)
               and not getattr(u.ext, "aboard", None) and not u.ghost]  # riders are 10 m up
    caught = catches(p.chance, me.cell, cell, figures, w.blast_radius_m, grid.cell_m)
    blast.append(Blast(cell, w.blast_radius_m, tuple((n, view.unit(n).cell, percent(q)) for n, q in caught)))
    reach, metres = w.range_m or 15, _metres(me.cell, cell, grid.cell_m)
    where = f" · {metres:.0f} m of {reach} m" + ("" if metres <= reach else ": out of reach unless it closes in")
    who = ", ".join(f"{n}{' (yours)' if view.unit(n).side == me.side else ''} {percent(q)}" for n, q in caught)
    steps = "".join(f", {s}" for s in p.steps)
    return (f"throw {cell[0]},{cell[1]} (a cell; {w.name}{steps}): hit {p.chance}%{where}; its {w.blast_radius_m:g} m "
            f"blast may catch " + (who or "nobody"))


def preview(battle: Any, view: BattleView, d: Draft, grid: geo.GridMap) -> FwPreview:
    """Everything shown of draft `d` before it is declared (the battle is asked, nothing changes)."""
    lines: list[str] = []
    refusals: list[str] = []
    blast: list[Blast] = []
    damage: list[tuple[str, Pmf, int]] = []
    targets: list[str] = []
    for act, target in ((d.act, d.target), (d.then, d.then_target)):
        if act not in ODDS_ACTS:
            continue
        if target is None:
            w = weapon(d.weapon)
            lines.append(f"{act} ({w.name if w is not None else 'no weapon'}): click an enemy on the map")
            continue
        targets.append(target)
        line, why = _attack_line(battle, view, d, act, target, grid, blast, damage)
        lines.append(line)
        if why:
            refusals.append(why)
    if d.act == "program":
        lines.append("program (R-9.9): the whole round, so CM, DCCM and sensors may all run")
    if d.cm:
        lines.append(f"CM {d.cm} (R-9.9): seekers at {d.unit} acquire, and sensors register it, {10 * d.cm}% less")
    if d.dccm:
        lines.append(f"DCCM {d.dccm} at {d.dccm_at} (R-9.9): cancels up to {d.dccm} of its CM points for your seekers"
                     if d.dccm_at else f"DCCM {d.dccm}: click an enemy in sight to beam it at (R-9.9)")
    if d.sensors:
        lines.append(f"sensors {d.sensors} (R-9.9): register enemies out of sight within {sensor_range_m(d.sensors)} m "
                     "(100% - 10% per net CM point)")
    return FwPreview(tuple(lines), blast[0] if blast else None, tuple(targets), sensor_range_m(d.sensors),
                     d.dccm_at if d.dccm else None, tuple(refusals), tuple(damage))
