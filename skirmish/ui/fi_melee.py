"""Future Imperfect's close fight and contests on the board (R-5.4, R-7.1–R-7.6, R-8.4): the lines the attack menu
adds for an enemy (blows lethal or not, Close, Open, entangle, trip, a charge, the psychological contests) and the
fight menu of a unit's own maneuvers (active defence, breaking free, rising), each with its odds from
`Battle.odds` before it is chosen; the charge a drag onto an enemy makes; the marks of engaged, entangled, tripped
and closed figures; the weapons in hand on the unit card.

Everything here asks the Battle (`legal_actions`, `odds`, `preview_move`: STYLE 13); what the engine lists is what
is offered. A contest has no odds in the engine: its line shows the two skill dice (R-8.4)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pygame

from skirmish.core.errors import IllegalAction
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rules.actions import Action
from skirmish.rulesets import fi

ENGAGED_C = (235, 80, 70)  # the tick between two figures within 1 m of each other (engaged, R-7.1)


@dataclass
class Line:
    """One choice of a menu: the action, its odds (a ShotOdds or ManeuverOdds) or why the rules refuse it, or a
    note where the engine has no odds (a contest's dice, active defence's skill)."""

    action: Action
    odds: Any = None
    refusal: str | None = None
    note: str | None = None

    def text(self) -> str:
        if self.refusal:
            return self.refusal
        if self.odds is not None:
            return str(self.odds.label())
        return self.note or ""


def _weapon(w: str) -> str:
    return w.replace("_", " ") if w else "in hand"


def _held(view: BattleView | None, a: Any) -> str:
    """The id of the weapon in hand of the unit acting (none without a view)."""
    me = view.find(a.unit) if view is not None else None
    return me.melee.held if me is not None and me.melee is not None else ""


def _kind(view: BattleView | None, a: Any) -> str:
    """A blow's damage where the weapon does not choose: non-lethal for brawling, stun and the heavier
    improvised weapons (R-7.4)."""
    me = view.find(a.unit) if view is not None else None
    if me is None or me.melee is None:
        return ""
    wid = a.weapon or me.melee.held
    w = next((w for w in me.melee.carried if w.id == wid), fi.melee.UNARMED if wid == "fists" else None)
    lethal = w.lethal if w is not None else ""
    return ", non-lethal" if lethal == "nonlethal" else ""


def describe(a: Action, view: BattleView | None = None) -> str:
    """A menu line's name for a melee action or a contest (`view`: to name a blow's non-lethal damage)."""
    held = _held(view, a)
    if held and getattr(a, "weapon", None) == "":
        a = replace(a, weapon=held)  # type: ignore[call-arg]
    if isinstance(a, fi.MeleeAttack) and a.maneuver:  # a martial arts maneuver, its effects, an Escape's step
        return (a.maneuver.replace("_", " ") + (f" ({a.effects.replace('_', ' ')})" if a.effects else "")
                + (f" at {a.called}" if a.called else "") + (f", on a raise step to {a.to[0]},{a.to[1]}" if a.to else ""))
    if isinstance(a, fi.MeleeAttack):
        lethal = {"no": ", non-lethal", "yes": ", lethal"}.get(a.lethal, "") or _kind(view, a)
        return f"blow ({_weapon(a.weapon)}{lethal})" + (f" at {a.called}" if a.called else "")
    if isinstance(a, fi.Charge):
        return f"charge to {a.at[0]},{a.at[1]} ({_weapon(a.weapon)}, -2)"
    if isinstance(a, fi.Close):
        return f"Close ({_weapon(a.weapon)})"
    if isinstance(a, fi.Open):
        return "Open distance"
    if isinstance(a, fi.Entangle | fi.Trip):
        return f"{a.verb} ({_weapon(a.weapon)})"
    if isinstance(a, fi.Defend):
        return f"defend: {a.skill}" + (f", step to {a.to[0]},{a.to[1]}" if a.to else ", standing (-4)")
    if isinstance(a, fi.BreakFree):
        return "break free: " + ("Strength" if a.how == "strength" else "wriggle")
    if isinstance(a, fi.Rise):
        return "rise"
    if isinstance(a, fi.Contest):
        return f"{a.kind}, {a.mode}"
    return a.verb


def _odds(battle: Any, a: Action) -> Line:
    try:
        return Line(a, battle.odds(a))
    except IllegalAction as exc:
        if "no odds" in str(exc):  # listed (so accepted), but not rolled against: rising
            return Line(a, note="no roll: it is done")
        return Line(a, refusal=str(exc))


def _dice(u: UnitView, skill: str) -> str:
    try:
        col, _ = u.trait(fi.SKILL_TRAIT[skill])
    except KeyError:
        col = "?"
    return f"{skill} {col}+{u.skill(skill)}"


def contest_note(view: BattleView, a: Any) -> str:
    """A contest's two skill dice: the initiator's test against the defender's resisting skill (R-8.4)."""
    me, them = view.unit(a.unit), view.unit(a.target)
    return f"{_dice(me, a.kind)} vs {_dice(them, fi.CONTESTS[a.kind])}"


def charges(battle: Any, unit: str, target: str) -> list[Any]:
    """The charges listed against `target`, one per weapon: to the cell of the shortest route."""
    out: dict[str, tuple[float, Any]] = {}
    for a in battle.legal_actions(unit).melee:
        if isinstance(a, fi.Charge) and a.target == target:
            try:
                _, metres, _ = battle.preview_move(a.at)
            except IllegalAction:
                continue
            if a.weapon not in out or metres < out[a.weapon][0]:
                out[a.weapon] = (metres, a)
    return [a for _, a in sorted(out.values(), key=lambda x: (x[1].weapon != "", x[0]))]


def enemy_lines(battle: Any, view: BattleView, unit: str, target: str, called: str | None) -> list[Line]:
    """The melee actions and contests the engine lists against `target`, with their odds: blows (with the called
    location, where the rules let a blow call one), Close, Open, entangle, trip, the charges (not when already
    within reach), then the contests."""
    legal = battle.legal_actions(unit)
    out: list[Line] = []
    near = False
    for a in legal.melee:
        if getattr(a, "target", None) != target or isinstance(a, fi.Charge):
            continue
        near = True
        if isinstance(a, fi.MeleeAttack) and called and (not a.maneuver or a.maneuver in fi.MANEUVER_BLOWS):
            a = replace(a, called=called)  # a maneuver stays that maneuver; only a blow is aimed
        out.append(_odds(battle, a))
    if not near:
        out += [_odds(battle, a) for a in charges(battle, unit, target)]
    for a in legal.contests:
        if getattr(a, "target", None) == target:
            out.append(Line(a, note=contest_note(view, a)))
    return out


def own_lines(battle: Any, unit: str) -> list[Line]:
    """The fight menu (F): the unit's own maneuvers the engine lists: active defence (standing, and with the first
    step it may take), breaking free, rising."""
    out: list[Line] = []
    stepped: set[str] = set()
    for a in battle.legal_actions(unit).melee:
        if isinstance(a, fi.Defend):
            if a.to is not None:
                if a.skill in stepped:
                    continue
                stepped.add(a.skill)
            out.append(Line(a, note="its result is the attackers' TN till its next action"))
        elif isinstance(a, fi.BreakFree | fi.Rise):
            out.append(_odds(battle, a))
    return out


def charge_for_drop(battle: Any, unit: str, target: str) -> Any | None:
    """The charge a drag dropped on `target` makes: with the weapon in hand if it may, else the first listed."""
    listed = charges(battle, unit, target)
    return listed[0] if listed else None


def charge_on(battle: Any, view: BattleView, req: Any, cell: tuple[int, int]) -> Any | None:
    """The charge a drag of the acting unit dropped on `cell` makes: at the enemy there, if it may charge it."""
    if req is None or req.kind != "act":
        return None
    enemy = next((u for u in view.units if u.cell == cell and not u.out_of_action and not u.ghost
                  and u.side != req.side), None)
    return None if enemy is None else charge_for_drop(battle, req.unit, enemy.name)


def menu_route(battle: Any, view: BattleView, menu: Any, mouse: tuple[int, int]) -> list[tuple[int, int]]:
    """The route of the attack menu's charge line under the pointer, to the enemy (none for other lines)."""
    for row, o in zip(menu.rows, menu.options, strict=False):
        if row.collidepoint(mouse) and isinstance(o.action, fi.Charge):
            at = o.action.at
            if at not in menu.routes:  # asked once per menu (a route search each frame would be slow on big maps)
                try:
                    menu.routes[at] = [*battle.preview_move(at)[0], view.unit(o.action.target).cell]
                except IllegalAction:
                    menu.routes[at] = []
            return list(menu.routes[at])
    return []


# ------------------------------------------------------------------ what the board and the card show
def melee_marks(u: UnitView) -> str:
    """Letters beside a standing miniature for its close fight: N entangled (net), T tripped (down), C closed
    inside an enemy's longer weapon, F an active defence standing."""
    m = u.melee
    if m is None or u.out_of_action:
        return ""
    return ("N" if m.entangled_by else "") + ("T" if m.down else "") + ("C" if m.inside else "") + \
        ("F" if m.defence is not None else "")


MELEE_MARKS = (("N", "entangled"), ("T", "tripped: down until it rises"), ("C", "closed inside a longer weapon"),
               ("F", "active defence standing"), ("red tick", "engaged: within 1 m of an enemy"))


def hand_lines(u: UnitView) -> list[str]:
    """The unit card's melee lines: the weapon in hand and the others carried, what holds it."""
    m = u.melee
    if m is None:
        return []
    names = {w.id: w.name for w in m.carried}
    others = [names[i] for i in names if i != m.held]
    out: list[str] = []
    if names or u.weapon is None:  # a gunner with bare hands only: nothing to say
        carries = f" · carries {', '.join(others)}" if others else ""
        out.append(f"in hand: {names.get(m.held, m.held.replace('_', ' '))}{carries}")
    held: list[str] = []
    if m.entangled_by:
        held.append(f"entangled by {m.entangled_by}")
    if m.down:
        held.append("down")
    if m.inside:
        held.append("closed on " + ", ".join(m.inside))
    if m.defence is not None:
        held.append(f"defence {m.defence}")
    if held:
        out.append(" · ".join(held))
    return out


def engaged_pairs(view: BattleView) -> list[tuple[str, str]]:
    """Enemies within 1 m of each other, both in action (engaged, R-7.1)."""
    units = [u for u in view.units if not u.out_of_action and not u.ghost and u.melee is not None]
    out = []
    for i, a in enumerate(units):
        for b in units[i + 1:]:
            if a.side != b.side and max(abs(a.cell[0] - b.cell[0]), abs(a.cell[1] - b.cell[1])) <= 1:
                out.append((a.name, b.name))
    return out


def draw_engaged(surf: pygame.Surface, cam: Any, view: BattleView, at: dict[str, tuple[float, float]]) -> None:
    """A red tick between engaged figures, and the melee letters beside each."""
    for a, b in engaged_pairs(view):
        pa = cam.centre(at.get(a, view.unit(a).cell))
        pb = cam.centre(at.get(b, view.unit(b).cell))
        mid = ((pa[0] + pb[0]) // 2, (pa[1] + pb[1]) // 2)
        r = max(3, cam.tile // 8)
        pygame.draw.line(surf, ENGAGED_C, (mid[0] - r, mid[1] - r), (mid[0] + r, mid[1] + r), 3)
        pygame.draw.line(surf, ENGAGED_C, (mid[0] - r, mid[1] + r), (mid[0] + r, mid[1] - r), 3)
