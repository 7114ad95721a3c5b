"""`skirmish bench --ai AI` and `--scaling`: battles with one AI on every side, measured in CPU time
(time.process_time) beside wall time, with the targets of issue 12 item 6 printed next to the figures.

- per battle: median CPU and wall, battles per second per core (1 / median CPU);
- per decision (each call of the AI, from the battles played): median and p95, CPU;
- per unit-action: CPU per accepted action and per decision (whole battles over their counts);
- the split of a battle: its AI calls added up (the side views they read are made in them) and the rest (the
  rules, events, the sides' knowledge), medians over the battles;
- `--scaling`: the same on the 4 v 4 default scenario and the 24 v 24 one, and the ratio 24 v 24 / 4 v 4 of
  the cost per accepted action.

Medians and ratios only: on a shared machine the wall clock swings with load, the CPU time far less.

The bench's own clock reads are not the battle's: a read of the CPU clock (time.process_time) is a system call,
about 0.5 us of CPU (1.5-2 us of wall time) on the VMs the project is measured on, and the bench takes two per
decision to time the AI's call (about 0.4 ms, 1.5-2%, of a `hold` battle). Their cost is measured once per `play`
(`clock_cost`) and taken out of each battle's CPU time (decisions x 2 reads); the report says how much that was."""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from skirmish.cli.common import UserError, scenario_arg
from skirmish.content.scenario import SCENARIOS_DIR, Scenario, default_scenario_path
from skirmish.core.batch_gc import batch_gc

SCALING_LARGE = "bench/battalion_sweep.yaml"  # 24 v 24, for benches only (not among the scenarios tests loop
# over: its battles cost seconds each); the small one is the default (4 v 4)

# Issue 12 item 6, CPU time on the default scenario (ms, or a ratio for the scaling).
TARGET_UTILITY_BATTLE_MS = 100.0
TARGET_HOLD_BATTLE_MS = 20.0
TARGET_UTILITY_P95_MS = 5.0
TARGET_SCALING = 1.5


@dataclass
class AIBench:
    """What battles with one AI on every side cost: per battle, per decision and per accepted action."""

    scenario: str
    ai: str
    units: int  # units per side, the largest side's
    battle_cpu: list[float] = field(default_factory=list)
    battle_wall: list[float] = field(default_factory=list)
    decision_cpu: list[float] = field(default_factory=list)
    actions: int = 0  # accepted actions (the battle's history, fallbacks after a refusal included)
    clock_s: float = 0.0  # CPU seconds one read of the CPU clock costs (`clock_cost`), taken out of battle_cpu
    clock_cpu: list[float] = field(default_factory=list)  # per battle, what its clock reads cost (taken out)
    ai_cpu: list[float] = field(default_factory=list)  # per battle, its AI calls' CPU added up (views made in them)
    sight: str = ""  # where the map's sight came from (`sight_source`)

    @property
    def decisions(self) -> int:
        return len(self.decision_cpu)

    @property
    def median_battle_ms(self) -> float:
        return statistics.median(self.battle_cpu) * 1000

    @property
    def battles_per_s(self) -> float:
        """Per core: one over the median CPU time of a battle."""
        return 1000 / self.median_battle_ms if self.median_battle_ms > 0 else float("inf")

    def decision_ms(self, q: float) -> float:
        """The q-quantile (0.5 median, 0.95 p95) of the CPU time per AI call, in ms."""
        ts = sorted(self.decision_cpu)
        return ts[min(len(ts) - 1, int(q * len(ts)))] * 1000 if ts else 0.0

    @property
    def split_ms(self) -> tuple[float, float]:
        """(AI, the rest) per battle in ms, medians: the AI's calls added up (the views they read are made in them,
        `skirmish.battle.lazy`), and the battle less those (the rules, events, side views' updates)."""
        if not self.ai_cpu:
            return 0.0, 0.0
        rest = [b - a for b, a in zip(self.battle_cpu, self.ai_cpu, strict=True)]
        return statistics.median(self.ai_cpu) * 1000, statistics.median(rest) * 1000

    @property
    def per_action_ms(self) -> float:
        """CPU per accepted action over all the battles (whole battles: rules, views and AI)."""
        return sum(self.battle_cpu) * 1000 / max(1, self.actions)

    @property
    def per_decision_ms(self) -> float:
        """CPU per AI call over all the battles (whole battles divided by the decisions asked)."""
        return sum(self.battle_cpu) * 1000 / max(1, self.decisions)


def play(scenario: Scenario, ai: str, battles: int) -> AIBench:
    """Play `battles` battles (seeds 0..battles-1) with `ai` on every side, timing each battle and each call."""
    from skirmish.ai.controllers import make_ai

    try:
        make_ai(ai, scenario.spec.ruleset)
    except ValueError as exc:
        raise UserError(f"--ai: {exc}") from None
    out = AIBench(scenario.name, ai, max(len(s.units) for s in scenario.spec.sides))
    _import_lazy_modules(ai)
    out.clock_s = clock_cost()
    with batch_gc():  # what the process holds before the battles is never scanned again; fewer young collections
        for seed in range(battles):
            _play_one(scenario, ai, seed, out)
    out.sight = sight_source(scenario)
    return out


def sight_source(scenario: Scenario) -> str:
    """Where the battles' sight came from: a bake (its file), or worked out as they asked for it (and why)."""
    from skirmish.content import sight_bakes

    where = sight_bakes.found_for(scenario.grid)
    if where is not None:
        return f"baked ({where})"
    why = "bakes turned off" if not sight_bakes.enabled() else "no bake of the map: `skirmish bake` makes one"
    bad = sight_bakes.passed_over(scenario.grid)
    return f"worked out as the battles asked for it ({why})" + "".join(f"; passed over {b}" for b in bad)


def clock_cost(blocks: int = 21, reads: int = 200) -> float:
    """CPU seconds one `time.process_time()` read costs: the median over `blocks` blocks of back-to-back reads
    (the loop's own step, a few tens of ns, counts with it)."""
    read = time.process_time
    per = []
    for _ in range(blocks):
        t = read()
        for _ in range(reads):
            read()
        per.append((read() - t) / (reads + 1))
    return statistics.median(per)


def _import_lazy_modules(ai: str) -> None:
    """Import what an AI imports on first use (the utility AI's material pick reads the search tier's model),
    so the first battle does not time an import."""
    if ai.partition(":")[0] in ("utility", "search"):
        import skirmish.ai.search.model  # noqa: F401


def _play_one(scenario: Scenario, ai: str, seed: int, out: AIBench) -> None:
    """One battle of `play`, timed into `out`."""
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle, consult

    ctrl = {s.name: make_ai(ai, scenario.spec.ruleset) for s in scenario.spec.sides}
    calls = len(out.decision_cpu)
    t, c = time.perf_counter(), time.process_time()
    with Battle(scenario, seed=seed, controllers=ctrl) as b:
        while b.pending is not None:  # Battle.step, with the AI's call timed apart
            req = b.pending
            view = b.observe(req.side)  # made as the AI reads it (skirmish.battle.lazy): timed with its call
            d = time.process_time()
            action, trace = consult(ctrl[req.side], view, req)
            out.decision_cpu.append(time.process_time() - d)
            del view  # not held while the battle goes on (else it is made before the battle changes)
            b.answer(req, action, trace)
        out.actions += len(b.history)
    del b  # the battle is freed here (Battle.close), and its freeing is timed with it
    clock = 2 * (len(out.decision_cpu) - calls) * out.clock_s  # the bench's reads round each AI call
    out.battle_cpu.append(time.process_time() - c - clock)
    out.ai_cpu.append(sum(out.decision_cpu[calls:]))
    out.clock_cpu.append(clock)
    out.battle_wall.append(time.perf_counter() - t)


def _target(measured: float, target: float, unit: str) -> str:
    mark = "met" if measured <= target else "not met"
    return f"target <= {target:g}{unit}: {mark}"


def target_for_battle(ai: str, default: bool) -> float | None:
    """Issue 12's per-battle target for this AI, on the default scenario only."""
    if not default:
        return None
    return {"hold": TARGET_HOLD_BATTLE_MS, "utility": TARGET_UTILITY_BATTLE_MS}.get(ai)


def report(r: AIBench, default: bool) -> None:
    """Print one AIBench: battles, decisions, per action; with the issue's targets where they apply."""
    n = len(r.battle_cpu)
    target = target_for_battle(r.ai, default)
    print(f"{r.ai} on every side, {n} battle(s) of '{r.scenario}' ({r.units} v {r.units}), CPU / wall:")
    line = (f"  battle: median {r.median_battle_ms:.1f} ms CPU / {statistics.median(r.battle_wall) * 1000:.1f} ms "
            f"wall; {r.battles_per_s:.2f} battles/s per core")
    print(line + (f"  [{_target(r.median_battle_ms, target, ' ms')}]" if target is not None else ""))
    if r.clock_cpu:
        print(f"  (the bench's own CPU clock reads, {r.clock_s * 1e6:.2f} us each, taken out: "
              f"{statistics.median(r.clock_cpu) * 1000:.2f} ms a battle)")
    p95 = r.decision_ms(0.95)
    line = (f"  decision (one AI call): {r.decisions} calls, median {r.decision_ms(0.5):.2f} ms, p95 {p95:.2f} ms, "
            f"max {r.decision_ms(1.0):.1f} ms CPU")
    print(line + (f"  [p95 {_target(p95, TARGET_UTILITY_P95_MS, ' ms')}]" if default and r.ai == "utility" else ""))
    if r.ai_cpu:
        ai_ms, rest_ms = r.split_ms
        print(f"  split (medians a battle): the AI's calls {ai_ms:.1f} ms CPU (the views they read made in them), "
              f"the rules and the rest {rest_ms:.1f} ms")
    print(f"  per unit-action: {r.per_action_ms:.3f} ms CPU per accepted action ({r.actions}), "
          f"{r.per_decision_ms:.3f} ms CPU per decision")
    if r.sight:
        print(f"  sight: {r.sight}")


def is_default(scenario_path: str | None) -> bool:
    """True when the bench runs on the default scenario (where issue 12's targets are set)."""
    if scenario_path is None:
        return True
    from pathlib import Path

    try:
        return Path(scenario_path).resolve() == default_scenario_path().resolve()
    except OSError:
        return False


def bench_ai(scenario_path: str | None, ai: str, battles: int) -> int:
    """`skirmish bench [SCENARIO] --ai AI`."""
    report(play(scenario_arg(scenario_path), ai, battles), is_default(scenario_path))
    return 0


def bench_scaling(ai: str, battles: int) -> int:
    """`skirmish bench --scaling`: cost per unit-action on the 4 v 4 default scenario and the 24 v 24 one."""
    large_path = SCENARIOS_DIR / SCALING_LARGE
    if not large_path.exists():
        raise UserError(f"--scaling needs the shipped 24 v 24 scenario {large_path} (a source checkout)")
    small = play(scenario_arg(None), ai, battles)
    large = play(scenario_arg(str(large_path)), ai, battles)
    report(small, default=True)
    report(large, default=False)
    action = large.per_action_ms / small.per_action_ms if small.per_action_ms > 0 else float("inf")
    decision = large.per_decision_ms / small.per_decision_ms if small.per_decision_ms > 0 else float("inf")
    battle = large.median_battle_ms / small.median_battle_ms if small.median_battle_ms > 0 else float("inf")
    print(f"scaling {small.units} v {small.units} -> {large.units} v {large.units} ({ai}): per accepted action "
          f"x{action:.2f}  [{_target(action, TARGET_SCALING, 'x')}]; per decision x{decision:.2f}; "
          f"per battle x{battle:.2f}")
    return 0
