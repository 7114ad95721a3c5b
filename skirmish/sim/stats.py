"""summary.json of a batch: per scenario, each side's win rate with its Wilson 95% interval, the draw rate,
the distributions of battle length and of casualties per side, the reasons battles ended, and where units
fell (a count per map cell, for the heat map). Plain data, rounded, so the same battles give the same file."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from skirmish.ai.tournament import wilson
from skirmish.sim.batch import BattleRow

DIGITS = 4
Cell2 = tuple[int, int]


@dataclass(frozen=True)
class MapInfo:
    """What the heat map needs of a scenario's map: its size and which cells are walls (impassable)."""

    name: str
    width: int
    height: int
    walls: tuple[Cell2, ...]


def _rate(count: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(count, n)
    return {"count": count, "rate": round(count / n, DIGITS) if n else 0.0,
            "wilson95": [round(lo, DIGITS), round(hi, DIGITS)]}


def distribution(values: Sequence[int]) -> dict[str, Any]:
    """Mean, median, spread, 10th and 90th percentiles and a histogram {value: battles} of whole numbers."""
    if not values:
        return {"mean": 0.0, "median": 0.0, "stdev": 0.0, "min": 0, "max": 0, "p10": 0.0, "p90": 0.0,
                "histogram": {}}
    xs = np.asarray(values, dtype=float)
    return {"mean": round(float(xs.mean()), DIGITS), "median": round(float(statistics.median(values)), DIGITS),
            "stdev": round(float(xs.std()), DIGITS), "min": int(xs.min()), "max": int(xs.max()),
            "p10": round(float(np.percentile(xs, 10)), DIGITS), "p90": round(float(np.percentile(xs, 90)), DIGITS),
            "histogram": {str(k): v for k, v in sorted(Counter(values).items())}}


def fallen_grid(rows: Sequence[BattleRow], info: MapInfo) -> list[list[int]]:
    """Units out of action at the end of the battles, counted per cell: rows of the map, top first."""
    grid = np.zeros((info.height, info.width), dtype=np.int64)
    for r in rows:
        for x, y in r.fallen:
            if 0 <= x < info.width and 0 <= y < info.height:
                grid[y, x] += 1
    return grid.tolist()


def objective_rates(rows: Sequence[BattleRow]) -> dict[str, Any]:
    """Per objective (`side:objective`, in the CSV's order): how often it was done (rate, Wilson 95%), failed
    and left open."""
    states: dict[str, Counter[str]] = {}
    for r in rows:
        for item in filter(None, r.objectives.split(";")):
            key, _, state = item.rpartition("=")
            states.setdefault(key, Counter())[state] += 1
    n = len(rows)
    return {key: {"done": _rate(c["done"], n), "failed": c["failed"], "open": c["open"]} for key, c in states.items()}


def scenario_summary(rows: Sequence[BattleRow], info: MapInfo) -> dict[str, Any]:
    """The figures of one scenario's battles (all with the same sides)."""
    n = len(rows)
    sides = rows[0].sides if rows else ()
    wins = Counter(r.winner for r in rows)
    out: dict[str, Any] = {
        "scenario": rows[0].scenario if rows else "", "file": rows[0].file if rows else "", "battles": n,
        "seeds": [min(r.seed for r in rows), max(r.seed for r in rows)] if rows else [],
        "sides": list(sides), "ais": dict(zip(sides, rows[0].ais, strict=True)) if rows else {},
        "wins": {s: _rate(wins.get(s, 0), n) for s in sides},
        "draws": _rate(wins.get(None, 0), n),
        "rounds": distribution([r.rounds for r in rows]),
        "casualties": {s: distribution([r.casualties[i] for r in rows]) for i, s in enumerate(sides)},
        "reasons": dict(sorted(Counter(r.reason for r in rows).items())),
        "objectives": objective_rates(rows),
        "fallen": {"map": info.name, "width": info.width, "height": info.height, "cells": fallen_grid(rows, info)},
    }
    chipped = [r for r in rows if r.bounty is not None]
    if chipped:  # only a scenario with story chips has the key (summary.json unchanged without)
        out["bounty"] = {s: distribution([r.bounty[i] for r in chipped if r.bounty]) for i, s in enumerate(sides)}
    return out


def summarise(rows: Sequence[BattleRow], maps: Mapping[str, MapInfo]) -> dict[str, Any]:
    """summary.json's data: one entry per scenario file, in the order they were named."""
    by: dict[str, list[BattleRow]] = {}
    for r in rows:
        by.setdefault(r.file, []).append(r)
    return {"battles": len(rows), "scenarios": [scenario_summary(rs, maps[f]) for f, rs in by.items()]}


def to_json(summary: Mapping[str, Any]) -> str:
    """The summary as JSON text: objects indented, keys in their order, a list of numbers or text on one line
    (the heat map's cells a map row a line)."""
    return _dump(summary, 0) + "\n"


def _dump(value: Any, depth: int) -> str:
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        items = [f"{inner}{json.dumps(str(k))}: {_dump(v, depth + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    if isinstance(value, list | tuple):
        if all(not isinstance(v, Mapping | list | tuple) for v in value):
            return json.dumps(list(value))
        return "[\n" + ",\n".join(inner + _dump(v, depth + 1) for v in value) + f"\n{pad}]"
    return json.dumps(value)
