"""Playing battles for the behaviour figures (skirmish.ai.behaviour): mirrored pairs as the tournament plays
them (same scenario and seed, sides swapped, in worker processes), each battle stepped as `Battle.run` steps
it (so its events are the same), noting at every declaration request whether the unit is wounded and exposed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from skirmish.ai.behaviour import RANGED, Figures, Setup, aggregate, behaviour
from skirmish.ai.tournament import map_pairs, schedule


@dataclass(frozen=True)
class Played:
    """One battle's figures: the scenario, seed, the AI of each side and each side's figures."""

    scenario: str
    seed: int
    ais: dict[str, str]
    figures: dict[str, Figures]


def play_battle(scenario_path: str, seed: int, ais: dict[str, str]) -> Played:
    """One battle with the AI of each side (`ais`: side -> AI spec), and its figures."""
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle, consult
    from skirmish.content.scenario import load_scenario

    sc = load_scenario(Path(scenario_path))
    ctrl = {side: make_ai(spec, sc.spec.ruleset) for side, spec in ais.items()}
    with Battle(sc, seed=seed, controllers=ctrl) as b:
        units = b.view().units
        setup_sides = {u.name: u.side for u in units}
        grenades = {u.name: sum(n for _, n in u.throwables) for u in units}
        screens = {u.name: (u.screen_type if u.tacpack_generator > 0 else None) for u in units}
        exposed: set[tuple[int, str]] = set()
        while b.pending is not None:
            req = b.pending
            if req.kind == "declare":
                unit = next(u for u in b.view().units if u.name == req.unit)
                seen = any(req.unit in names for s, names in b.knowledge.seen.items() if s != req.side)
                if unit.wounds > 0 and seen:
                    exposed.add((b.ctx.round, req.unit))
            action, trace = consult(ctrl[req.side], b.observe(req.side), req)  # as Battle.step does
            b.answer(req, action, trace)
        events = list(b.log.events)
    setup = Setup(setup_sides, grenades, screens, frozenset(exposed))
    return Played(sc.spec.name, seed, dict(ais), behaviour(events, setup))


def play_pair(scenario_path: str, seed: int, ai: str, opponent: str) -> list[Played]:
    """Both battles of a mirrored pair (run in a worker process)."""
    from skirmish.content.scenario import load_scenario

    sides = [s.name for s in load_scenario(Path(scenario_path)).spec.sides]
    return [play_battle(scenario_path, seed, {sides[k]: ai, sides[1 - k]: opponent}) for k in (0, 1)]


def run(scenarios: Sequence[Path], ai: str, opponents: Sequence[str], pairs: int, *, workers: int = 1,
        first_seed: int = 1, progress: Callable[[int, int], None] | None = None) -> list[Played]:
    """Play the tournament's schedule (skirmish.ai.tournament.schedule) in `workers` processes; the battles
    come back in schedule order whatever the workers' timing."""
    jobs = [(path, seed, ai, opp) for path, seed, opp in schedule(scenarios, opponents, pairs, first_seed)]
    return [p for pair in map_pairs(play_pair, jobs, workers, progress) for p in pair]


def per_ai(played: Sequence[Played], by_scenario: bool = False) -> dict[str, Figures]:
    """Figures per AI (keys "AI" or, by scenario, "AI | scenario")."""
    groups: dict[str, list[Played]] = {}
    for p in played:
        groups.setdefault(p.scenario if by_scenario else "", []).append(p)
    out: dict[str, Figures] = {}
    for scenario, ps in sorted(groups.items()):
        for name, f in aggregate([(p.ais, p.figures) for p in ps]).items():
            out[f"{name} | {scenario}" if scenario else name] = f
    return out


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{x:.1%}"


def _num(x: float | None, digits: int = 2) -> str:
    return "n/a" if x is None else f"{x:.{digits}f}"


HEADER = ["AI", "battles", "shots", "low-odds shots", "grenades thrown/carried", "screen changes/unit-round",
          "wounded exposed: DODGE", "rounds", "draws", "ends"]


def rows(figures: dict[str, Figures]) -> list[list[str]]:
    """Table cells per AI."""
    out = []
    for name, f in figures.items():
        s = f.summary()
        low = "n/a" if s["low_odds_share"] is None else f"{f.low_odds}/{f.estimated} ({_pct(s['low_odds_share'])})"
        grenades = f"{f.thrown}/{f.carried} ({_num(s['grenades_per_carried'])})"
        screens = f"{f.screen_changes}/{f.tacpack_rounds} ({_num(s['screen_changes_per_unit_round'])})"
        dodge = f"{f.dodges}/{f.wounded_exposed} ({_pct(s['dodge_share'])})"
        ends = ", ".join(f"{r} {n}" for r, n in s["end_reasons"].items())
        out.append([name, str(f.battles), str(f.shots), low, grenades, screens, dodge, _num(s["mean_rounds"], 1),
                    f"{f.draws} ({_pct(s['draw_rate'])})", ends])
    return out


RANGED_HEADER = ["AI", "battles", "covers", "covering shots", "pinned shots", "splits", "double taps", "launches",
                 "friends hit"]


def ranged_rows(figures: dict[str, Figures]) -> list[list[str]]:
    """The rest of ranged combat (issue 14): each count and, in brackets, per 100 battles."""
    out = []
    for name, f in figures.items():
        cells = [f"{getattr(f, k)} ({100 * getattr(f, k) / max(1, f.battles):.1f})" for k in RANGED]
        out.append([name, str(f.battles), *cells])
    return out


def print_table(figures: dict[str, Figures], out: TextIO | None = None) -> None:
    """The figures as aligned text (stdout by default), then the ranged figures (per 100 battles)."""
    out = out or sys.stdout
    for header, body in ((HEADER, rows(figures)), (RANGED_HEADER, ranged_rows(figures))):
        if header is RANGED_HEADER:
            out.write("\nthe rest of ranged combat (issue 14): count (per 100 battles)\n")
        widths = [max(len(r[i]) for r in [header, *body]) for i in range(len(header))]
        for r in [header, *body]:
            out.write("  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() + "\n")


def to_json(figures: dict[str, Figures], by_scenario: dict[str, Figures] | None = None) -> str:
    """The figures as one JSON object: per AI, and per AI and scenario when given."""
    doc: dict[str, Any] = {"ai": {k: f.summary() for k, f in figures.items()}}
    if by_scenario is not None:
        doc["ai_scenario"] = {k: f.summary() for k, f in by_scenario.items()}
    return json.dumps(doc, indent=2, sort_keys=False)
