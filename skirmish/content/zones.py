"""Zones as cells, the zones of a Tiled map's object layers, and the cross-checks of zones, objectives, triggers
and deployment (every zone, side, unit and objective name they use; C-6 messages naming file and key).

A zone's cells: a `rect` [x0, y0, x1, y1] holds the cells from (x0, y0) to (x1, y1); a `polygon` (vertices in
cell-corner units) and a Tiled rectangle or polygon object (pixels, divided by the map's tile size) hold the
cells whose centres are inside. Cells off the map are dropped; a zone with no cell on the map is an error."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from skirmish.content.errors import ContentError, quote
from skirmish.content.limits import MAX_NAME
from skirmish.content.objectives import MAX_POLYGON, MAX_ZONES, Zone, parse_ai_order
from skirmish.content.tiled import MAP_FILE_LIMIT, read_json
from skirmish.rules.geometry import GridMap

Cell = tuple[int, int]
Cells = tuple[Cell, ...]  # in row order (y, then x): the order reinforcements and deployment fill them


def rect_cells(x0: int, y0: int, x1: int, y1: int, grid: GridMap) -> Cells:
    """The cells of an inclusive rectangle that are on the map, in row order."""
    return tuple((x, y) for y in range(max(0, y0), min(grid.height - 1, y1) + 1)
                 for x in range(max(0, x0), min(grid.width - 1, x1) + 1))


def polygon_cells(points: Sequence[tuple[float, float]], grid: GridMap) -> Cells:
    """The cells on the map whose centres are inside the polygon (even-odd rule), in row order."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    out = []
    for y in range(max(0, int(min(ys))), min(grid.height - 1, int(max(ys))) + 1):
        cy = y + 0.5
        for x in range(max(0, int(min(xs))), min(grid.width - 1, int(max(xs))) + 1):
            if _inside(x + 0.5, cy, points):
                out.append((x, y))
    return tuple(out)


def _inside(px: float, py: float, pts: Sequence[tuple[float, float]]) -> bool:
    inside = False
    j = len(pts) - 1
    for i in range(len(pts)):
        (xi, yi), (xj, yj) = pts[i], pts[j]
        if (yi > py) != (yj > py) and px < (xj - xi) * (py - yi) / (yj - yi) + xi:
            inside = not inside
        j = i
    return inside


def zone_cells(zone: Zone, grid: GridMap) -> Cells:
    """A scenario zone's cells on `grid`."""
    if zone.rect is not None:
        return rect_cells(*zone.rect, grid)
    assert zone.polygon is not None
    return polygon_cells([(float(x), float(y)) for x, y in zone.polygon], grid)


def tmj_zones(path: Path, label: str, grid: GridMap) -> dict[str, Cells]:
    """The zones of a Tiled map's object layers: every rectangle or polygon object with a `name` (pixels over
    the map's tilewidth/tileheight). Other objects (points, ellipses, text, unnamed) are left alone."""
    raw = read_json(path, label, MAP_FILE_LIMIT)
    if not isinstance(raw, dict):
        return {}
    tw, th = raw.get("tilewidth", 32), raw.get("tileheight", 32)
    if not all(type(v) in (int, float) and 0 < v <= 4096 for v in (tw, th)):
        raise ContentError(label, "tilewidth", f"expected tile sizes in pixels (1-4096), got {quote(tw)}, {quote(th)}")
    out: dict[str, Cells] = {}
    for li, layer in enumerate(raw.get("layers") or ()):
        if not isinstance(layer, dict) or layer.get("type") != "objectgroup":
            continue
        for oi, obj in enumerate(layer.get("objects") or ()):
            where = f"layers[{li}].objects[{oi}]"
            if not isinstance(obj, dict) or not obj.get("name") or obj.get("point") or obj.get("ellipse") \
                    or "text" in obj or "polyline" in obj:
                continue
            name = obj["name"]
            if not isinstance(name, str) or len(name) > MAX_NAME:
                raise ContentError(label, f"{where}.name", f"expected a zone name of 1-{MAX_NAME} characters, got "
                                   f"{quote(name)}")
            if name in out:
                raise ContentError(label, f"{where}.name", f"a second zone named {quote(name)}")
            if len(out) >= MAX_ZONES:
                raise ContentError(label, where, f"more than {MAX_ZONES} zones")
            out[name] = _object_cells(obj, label, where, float(tw), float(th), grid)
    return out


def _object_cells(obj: dict[str, Any], label: str, where: str, tw: float, th: float, grid: GridMap) -> Cells:
    nums = [obj.get(k, 0) for k in ("x", "y", "width", "height")]
    if not all(type(v) in (int, float) and abs(v) < 1e7 for v in nums):
        raise ContentError(label, where, "expected x, y, width and height in pixels")
    x, y, w, h = (float(v) for v in nums)
    poly = obj.get("polygon")
    if poly is None:
        pts = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    else:
        ok = isinstance(poly, list) and 3 <= len(poly) <= MAX_POLYGON and all(
            isinstance(p, dict) and all(type(p.get(k)) in (int, float) and abs(p[k]) < 1e7 for k in "xy")
            for p in poly)
        if not ok:
            raise ContentError(label, f"{where}.polygon", f"expected 3-{MAX_POLYGON} points {{x, y}}")
        pts = [(x + float(p["x"]), y + float(p["y"])) for p in poly]
    turn = obj.get("rotation", 0)
    if type(turn) not in (int, float) or not math.isfinite(turn):
        raise ContentError(label, f"{where}.rotation", f"expected degrees, got {quote(turn)}")
    if turn:  # Tiled turns an object clockwise about its (x, y)
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        pts = [(x + (px - x) * c - (py - y) * s, y + (px - x) * s + (py - y) * c) for px, py in pts]
    cells = polygon_cells([(px / tw, py / th) for px, py in pts], grid)
    if not cells:
        raise ContentError(label, where, f"zone {quote(obj['name'])} holds no cell of the map")
    return cells


def scenario_zones(spec: Any, grid: GridMap, map_zones: dict[str, Cells], bad: Callable[[str, str], None]) -> \
        dict[str, Cells]:
    """Every zone of a scenario as cells: the map's, then the file's (a name in both is an error)."""
    zones = dict(map_zones)
    for name, zone in spec.zones.items():
        if name in map_zones:
            bad(f"zones.{name}" if name.isidentifier() else "zones", f"zone {quote(name)} is also an object of the "
                "map's object layer; rename one")
            continue
        cells = zone_cells(zone, grid)
        if not cells:
            bad(f"zones.{name}" if name.isidentifier() else "zones", f"zone {quote(name)} holds no cell of the map "
                f"({grid.width}x{grid.height})")
        zones[name] = cells
    return zones


def objective_names(spec: Any) -> list[tuple[str, str, str]]:
    """(side, objective name, key path) of every objective, names defaulted: SIDE:KIND (SIDE:KIND2 … when a
    side has more than one of a kind)."""
    out = []
    for si, side in enumerate(spec.sides):
        count: dict[str, int] = {}
        for oi, obj in enumerate(side.objectives):
            count[obj.kind] = count.get(obj.kind, 0) + 1
            n = count[obj.kind]
            name = obj.name or (f"{side.name}:{obj.kind}" + (str(n) if n > 1 else ""))
            out.append((side.name, name, f"sides[{si}].objectives[{oi}]"))
    return out


def check_zone_refs(spec: Any, zones: dict[str, Cells], grid: GridMap | None,
                    bad: Callable[[str, str], None]) -> None:
    """Every name that zones, objectives, triggers and deployment use: zones known, sides and units known,
    objective names unique, a protected or killed unit on the right side, reinforcements' names new."""
    sides = {s.name: s for s in spec.sides}
    units = {u.name: s.name for s in spec.sides for u in s.units}

    def zone(name: str | None, where: str) -> None:
        if name is not None and name not in zones:
            known = ", ".join(sorted(map(quote, zones))) or "none"
            bad(where, f"unknown zone {quote(name)}; zones: {known}")

    def side_ref(name: str | None, where: str) -> None:
        if name is not None and name not in sides:
            bad(where, f"unknown side {quote(name)}; sides: {', '.join(map(quote, sides))}")

    reinforced: dict[str, str] = {}
    for ti, trig in enumerate(spec.triggers):
        for ei, eff in enumerate(trig.then):
            if eff.reinforce is not None:
                for ui, u in enumerate(eff.reinforce.units):
                    at = f"triggers[{ti}].then[{ei}].reinforce.units[{ui}].name"
                    if u.name in units or u.name in reinforced:
                        bad(at, f"duplicate unit name {quote(u.name)}")
                    reinforced[u.name] = eff.reinforce.side
    every = {**reinforced, **units}

    def unit_ref(name: str | None, where: str) -> None:
        if name is not None and name not in every:
            bad(where, f"unknown unit {quote(name)}")

    seen: dict[str, str] = {}
    for _side, name, where in objective_names(spec):
        if name in seen:
            bad(f"{where}.name", f"duplicate objective name {quote(name)} (also {seen[name]})")
        seen.setdefault(name, where)
    taken = {(u.at[0], u.at[1]) for s in spec.sides if not s.deployment for u in s.units}  # as `deployed` fills
    for si, side in enumerate(spec.sides):
        zone(side.deployment, f"sides[{si}].deployment")
        if side.deployment in zones and grid is not None:
            room = sum(1 for c in zones[side.deployment] if grid.passable(c) and c not in taken)
            taken.update(deploy(zones[side.deployment], [(u.at[0], u.at[1]) for u in side.units], taken, grid))
            if room < len(side.units):
                bad(f"sides[{si}].deployment", f"zone {quote(side.deployment)} has {room} cells to stand on for "
                    f"{len(side.units)} units")
        for oi, obj in enumerate(side.objectives):
            where = f"sides[{si}].objectives[{oi}]"
            zone(obj.zone, f"{where}.zone")
            unit_ref(obj.unit, f"{where}.unit")
            owner = every.get(obj.unit or "")
            if obj.kind == "kill" and owner == side.name:
                bad(f"{where}.unit", f"{quote(obj.unit)} is on side {quote(side.name)}: kill an enemy")
            if obj.kind in ("protect", "reach", "extract") and owner is not None and owner != side.name:
                bad(f"{where}.unit", f"{quote(obj.unit)} is not on side {quote(side.name)}")
    for ti, trig in enumerate(spec.triggers):
        w, at = trig.when, f"triggers[{ti}].when"
        zone(w.enters, f"{at}.enters")
        zone(w.leaves, f"{at}.leaves")
        side_ref(w.side, f"{at}.side")
        unit_ref(w.falls, f"{at}.falls")
        if w.casualties is not None:
            side_ref(w.casualties.side, f"{at}.casualties.side")
        if w.objective is not None and w.objective not in seen:
            bad(f"{at}.objective", f"unknown objective {quote(w.objective)}; objectives: "
                f"{', '.join(map(quote, seen)) or 'none'}")
        for ei, eff in enumerate(trig.then):
            e = f"triggers[{ti}].then[{ei}]"
            if eff.reinforce is not None:
                side_ref(eff.reinforce.side, f"{e}.reinforce.side")
                zone(eff.reinforce.zone, f"{e}.reinforce.zone")
                if eff.reinforce.zone in zones and grid is not None:
                    free = [c for c in zones[eff.reinforce.zone] if grid.passable(c)]
                    if len(free) < len(eff.reinforce.units):
                        bad(f"{e}.reinforce.zone", f"zone {quote(eff.reinforce.zone)} has {len(free)} cells to "
                            f"stand on for {len(eff.reinforce.units)} units")
            if eff.ai is not None:
                side_ref(eff.ai.side, f"{e}.ai.side")
                for oi, text in enumerate(eff.ai.orders or ()):
                    verb, target = parse_ai_order(text)
                    if verb in ("hold", "reach"):
                        zone(target, f"{e}.ai.orders[{oi}]")
                    elif target is not None:
                        unit_ref(target, f"{e}.ai.orders[{oi}]")
            if eff.door is not None:
                zone(eff.door.zone, f"{e}.door.zone")
            if eff.end is not None and eff.end.winner != "draw":
                side_ref(eff.end.winner, f"{e}.end.winner")


def deploy(cells: Cells, wanted: Sequence[Cell], taken: set[Cell], grid: GridMap) -> list[Cell]:
    """Where units deploy in a zone, in order (an AI side's rule): a unit keeps its wanted cell if it is in the
    zone, passable and free, else the free cell of the zone nearest to it (ties in row order). None left: the
    unit keeps its cell (check_zone_refs made sure there is room)."""
    zone = set(cells)
    out: list[Cell] = []
    used = set(taken)
    for at in wanted:
        if at in zone and at not in used and grid.passable(at):
            out.append(at)
            used.add(at)
            continue
        free = [c for c in cells if c not in used and grid.passable(c)]
        pick = min(free, key=lambda c: ((c[0] - at[0]) ** 2 + (c[1] - at[1]) ** 2, c[1], c[0])) if free else at
        out.append(pick)
        used.add(pick)
    return out
