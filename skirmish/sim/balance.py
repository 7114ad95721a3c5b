"""Calibration of a scenario (issue 15 item 4): one side, played by an AI, against every other side played by
each utility AI level and personality in turn (easy, normal, hard, aggressive, cautious); which opponent gives
the target win rate; and whether the scenario is fair by side: the mirror, every side with the same AI.

A battle scores 1 for the side's win, 0 for a loss, and a draw 1/k with k sides (½ with two), so the mirror's
fair share is 1/k. `balance()` returns the figures (the CLI prints them; the editor shows them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from skirmish.ai.tournament import wilson
from skirmish.sim.backend import map_jobs
from skirmish.sim.batch import BattleRow, play_battle

OPPONENTS = ("utility:easy", "utility:normal", "utility:hard", "utility:aggressive", "utility:cautious")
MIRROR = "mirror"


@dataclass(frozen=True)
class Row:
    """The side's record against one opponent (or, `side` set, one side's record in the mirror)."""

    opponent: str  # the opponents' AI, or MIRROR
    side: str  # whose record it is
    battles: int
    wins: int
    draws: int
    losses: int
    score: float  # (wins + draws / sides) / battles
    lo: float  # Wilson 95% interval of the score
    hi: float

    @property
    def interval(self) -> str:
        """The interval as text."""
        return f"[{self.lo:.1%}, {self.hi:.1%}]"


@dataclass(frozen=True)
class Balance:
    """A scenario's calibration: the side's rows, the opponent nearest the target, and the mirror."""

    scenario: str
    side: str
    ai: str
    target: float
    battles: int  # per opponent (and in the mirror)
    first_seed: int
    rows: tuple[Row, ...]  # one per opponent, in OPPONENTS' order
    mirror: tuple[Row, ...]  # one per side: each side's record when all play `ai`
    fair_share: float  # 1 / sides

    @property
    def best(self) -> Row:
        """The opponent whose score is nearest the target (the easier one of equals)."""
        return min(self.rows, key=lambda r: abs(r.score - self.target))

    @property
    def on_target(self) -> bool:
        """The target lies in the best opponent's interval."""
        return self.best.lo <= self.target <= self.best.hi

    @property
    def fair(self) -> bool:
        """Every side's mirror interval holds its fair share."""
        return all(r.lo <= self.fair_share <= r.hi for r in self.mirror)


def _row(opponent: str, side: str, rows: Sequence[BattleRow], sides: int) -> Row:
    wins = sum(r.winner == side for r in rows)
    draws = sum(r.winner is None for r in rows)
    n = len(rows)
    score = wins + draws / sides
    lo, hi = wilson(score, n)
    return Row(opponent, side, n, wins, draws, n - wins - draws, score / n if n else 0.0, lo, hi)


def opponents_for(ruleset: str, names: Sequence[str] = OPPONENTS) -> list[str]:
    """The opponents the scenario's ruleset has an AI for."""
    from skirmish.ai.controllers import make_ai

    out = []
    for name in names:
        try:
            make_ai(name, ruleset)
        except ValueError:
            continue
        out.append(name)
    return out


def balance(path: str | Path, side: str | None = None, *, ai: str = "utility", target: float = 0.5,
            battles: int = 20, first_seed: int = 1, opponents: Sequence[str] = OPPONENTS, workers: int = 1,
            backend: str = "local", address: str | None = None,
            progress: Callable[[int, int], None] | None = None) -> Balance:
    """Play `side` (default: the scenario's first) with `ai` against each opponent AI on every other side, and
    every side with `ai` (the mirror), `battles` each with seeds `first_seed` onwards. ContentError for a bad
    scenario; ValueError naming a side it has not, an AI its ruleset has not, or no opponent it has."""
    from skirmish.ai.controllers import make_ai
    from skirmish.content.scenario import load_scenario

    sc = load_scenario(Path(path))
    sides = [s.name for s in sc.spec.sides]
    side = side or sides[0]
    if side not in sides:
        raise ValueError(f"--side {side!r}: the scenario's sides are {', '.join(sides)}")
    make_ai(ai, sc.spec.ruleset)  # ValueError naming it
    against = opponents_for(sc.spec.ruleset, opponents)
    if not against:
        raise ValueError(f"no opponent AI for the {sc.spec.ruleset} ruleset among {', '.join(opponents)}")
    file = str(Path(path).resolve())
    seeds = range(first_seed, first_seed + battles)
    setups = [tuple(ai if s == side else opp for s in sides) for opp in against] + [tuple(ai for _ in sides)]
    jobs = [(file, str(path), seed, setup) for setup in setups for seed in seeds]
    played = map_jobs(play_battle, jobs, workers, progress, backend=backend, address=address)
    groups = [played[i * battles:(i + 1) * battles] for i in range(len(setups))]
    rows = tuple(_row(opp, side, g, len(sides)) for opp, g in zip(against, groups, strict=False))
    mirror = tuple(_row(MIRROR, s, groups[-1], len(sides)) for s in sides)
    return Balance(sc.spec.name, side, ai, target, battles, first_seed, rows, mirror, 1 / len(sides))


def report(b: Balance) -> list[str]:
    """The calibration as text lines: the table, the opponent for the target, the mirror and its verdict."""
    head = ["opponents' AI", "battles", "W-D-L", f"{b.side} score", "Wilson 95%"]
    body = [[r.opponent, str(r.battles), f"{r.wins}-{r.draws}-{r.losses}", f"{r.score:.1%}", r.interval]
            for r in b.rows]
    lines = [f"{b.scenario}: {b.side} played by {b.ai} against each opponent AI on the other side(s), "
             f"{b.battles} battles each (seeds {b.first_seed}..{b.first_seed + b.battles - 1}); "
             "a win scores 1, a draw 1/sides"]
    lines += _table(head, body)
    best = b.best
    where = "inside" if b.on_target else "outside"
    lines.append(f"nearest the target {b.target:.0%}: {best.opponent} ({best.score:.1%} {best.interval}; the target "
                 f"is {where} its interval)")
    lines.append(f"mirror: every side played by {b.ai}")
    lines += _table(["side", "battles", "W-D-L", "score", "Wilson 95%"],
                    [[r.side, str(r.battles), f"{r.wins}-{r.draws}-{r.losses}", f"{r.score:.1%}", r.interval]
                     for r in b.mirror])
    verdict = "fair" if b.fair else "NOT fair"
    lines.append(f"fair by side: {verdict} (each side's interval {'holds' if b.fair else 'must hold'} its fair "
                 f"share {b.fair_share:.0%})")
    return lines


def _table(head: list[str], body: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [head, *body]) for i in range(len(head))]
    return ["  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in [head, *body]]
