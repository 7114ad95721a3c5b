"""One battle of a batch as a row (`play_battle`, run in a worker), the batch's jobs (`plan`), and
`battles.csv` (`write_csv`): one row per battle, no timings, so the same scenarios and seeds give the same
bytes on any backend and any number of workers."""

from __future__ import annotations

import csv
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from skirmish.battle import Battle
    from skirmish.content.scenario import Scenario

Cell = tuple[int, int]
OWN = ""  # a side played by the scenario's own controller (its AI, script or idle)
CSV_HEADER = ["scenario", "file", "seed", "ais", "winner", "reason", "rounds", "casualties", "objectives"]


@dataclass(frozen=True)
class BattleRow:
    """How one battle ended: what battles.csv holds, and where units fell (for the heat map)."""

    scenario: str  # its name
    file: str  # the scenario file as named on the command line
    seed: int
    sides: tuple[str, ...]
    ais: tuple[str, ...]  # each side's AI (or "scripted", "idle"), in the sides' order
    winner: str | None  # None: a draw
    reason: str  # the result event's
    rounds: int
    casualties: tuple[int, ...]  # per side, in the sides' order
    objectives: str
    fallen: tuple[Cell, ...] = ()  # the cells of the units out of action at the end
    bounty: tuple[int, ...] | None = None  # per side, a battle with story chips; None without

    def cells(self, bounty: bool = False) -> list[str]:
        """The CSV cells (CSV_HEADER, and the `bounty` column when `bounty`): per-side values as `side=value`
        joined by `;` (an empty bounty cell for a battle without chips)."""
        out = [self.scenario, self.file, str(self.seed), _pairs(self.sides, self.ais), self.winner or "draw",
               self.reason, str(self.rounds), _pairs(self.sides, self.casualties), self.objectives]
        if bounty:
            out.append("" if self.bounty is None else _pairs(self.sides, self.bounty))
        return out


def _pairs(sides: Sequence[str], values: Sequence[object]) -> str:
    return ";".join(f"{s}={v}" for s, v in zip(sides, values, strict=True))


def ai_label(scenario: Scenario, side: str, override: str = OWN) -> str:
    """What plays a side: the `--ai` given, else the scenario's (its AI, or "scripted" / "idle")."""
    if override:
        return override
    spec = next(s for s in scenario.spec.sides if s.name == side)
    return spec.ai if spec.controller == "ai" else spec.controller


def objective_states(battle: Battle, reason: str) -> str:
    """The `objectives` column: each side's objectives and their state at the end, `side:objective=state`
    joined by `;` (state done, failed or open). A scenario with objectives (docs/FILES.md) gives them as the
    battle settled them (skirmish.objectives, `battle.play`); one without has one objective a side, its victory
    condition: `eliminate` (done by the side left standing) or, for a scenario not won by elimination, `hold`
    (done by every side standing at the round limit). The one place to re-wire if the states' shape changes."""
    play = getattr(battle, "play", None)
    if play is not None and play.objectives:  # names default to SIDE:KIND; a name given is prefixed with its side
        return ";".join(f"{_named(o.side, o.name)}={o.state}" for o in play.objectives)
    winner = battle.outcome.winner if battle.outcome else None
    casualties = battle.outcome.casualties if battle.outcome else {}
    units = dict.fromkeys(battle.sides, 0)
    for u in battle.view().units:
        units[u.side] = units.get(u.side, 0) + 1
    out = []
    for side in battle.sides:
        if battle.scenario.spec.victory.eliminate:
            done = winner == side and reason.startswith("nobody left standing")
            out.append(f"{side}:eliminate={'done' if done else 'failed'}")
        else:
            done = units[side] - casualties.get(side, 0) > 0 and reason == "round limit"
            out.append(f"{side}:hold={'done' if done else 'failed'}")
    return ";".join(out)


def _named(side: str, name: str) -> str:
    """An objective as `side:name` (once), with no `;` (the column's separator)."""
    name = name.replace(";", ",")
    return name if name.startswith(f"{side}:") else f"{side}:{name}"


@lru_cache(maxsize=16)
def _scenario(path: str) -> Scenario:
    """A scenario file, loaded once per worker process (battles never change it)."""
    from skirmish.content.scenario import load_scenario

    return load_scenario(Path(path))


def play_battle(path: str, label: str, seed: int, overrides: tuple[str, ...]) -> BattleRow:
    """Play one battle of the scenario at `path` (named `label` in the CSV) with `seed`; `overrides` holds each
    side's AI in the sides' order ("" for the scenario's own controller). Run in a worker: plain arguments."""
    from skirmish.ai.controllers import make_ai, make_controller
    from skirmish.battle import Battle
    from skirmish.core.events import ResultEvent

    sc = _scenario(path)
    rules = sc.spec.ruleset
    sides = tuple(s.name for s in sc.spec.sides)
    ctrl = {s.name: make_ai(ai, rules) if ai else make_controller(s.controller, s.orders, s.ai, rules)
            for s, ai in zip(sc.spec.sides, overrides, strict=True)}
    with Battle(sc, seed=seed, controllers=ctrl) as b:
        out = b.run()
        result = next(e for e in reversed(b.log.events) if isinstance(e, ResultEvent))
        fallen = tuple(sorted(u.cell for u in b.view().units if u.out_of_action))
        objectives = objective_states(b, result.reason)
    return BattleRow(sc.spec.name, label, seed, sides, tuple(ai_label(sc, s, o) for s, o in zip(sides, overrides,
                     strict=True)), out.winner, result.reason, out.rounds, tuple(out.casualties.get(s, 0) for s in sides),
                     objectives, fallen, None if out.bounty is None else tuple(out.bounty.get(s, 0) for s in sides))


def plan(paths: Sequence[tuple[str, str]], overrides: Mapping[str, tuple[str, ...]], battles: int,
         first_seed: int) -> list[tuple[str, str, int, tuple[str, ...]]]:
    """The jobs for `play_battle`: each scenario (absolute path, label) with seeds `first_seed` ..
    `first_seed + battles - 1`, in that order (the CSV's)."""
    return [(path, label, first_seed + i, overrides[path]) for path, label in paths for i in range(battles)]


def write_rows(rows: Sequence[BattleRow], out: TextIO) -> None:
    """battles.csv's text: the header and one row per battle, in the jobs' order; a `bounty` column last only when
    a battle had story chips (R-8.5), so a batch without chips writes the same bytes as before."""
    bounty = any(r.bounty is not None for r in rows)
    w = csv.writer(out, lineterminator="\n")
    w.writerow([*CSV_HEADER, "bounty"] if bounty else CSV_HEADER)
    for r in rows:
        w.writerow(r.cells(bounty))


def read_rows(path: Path) -> list[dict[str, Any]]:
    """battles.csv as dicts (per-side columns as {side: value}), for tests and tools."""
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        for key in ("ais", "casualties", "bounty"):
            if key in r:
                r[key] = dict(item.split("=", 1) for item in r[key].split(";") if item)
    return rows
