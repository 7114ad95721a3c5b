"""`skirmish bench` and `skirmish tournament`: battles per second, map queries, AI decision times, the replay
viewer's seeks and the board's frame time; AI against AI in mirrored pairs over parallel processes."""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path

from skirmish import rulesets
from skirmish.cli import display
from skirmish.cli.bench_ai import bench_ai, bench_scaling
from skirmish.cli.common import MAX_SEED, UserError, controllers_for, output_path, scenario_arg
from skirmish.content.scenario import Scenario, default_scenario_path

TOURNAMENT_PAIRS = 20  # default mirrored pairs per opponent, over all the scenarios
BENCH_REPLAY_SEED = 2  # depot_breach, utility against utility: a draw after all 25 rounds (294 answers)


def cmd_bench(args: argparse.Namespace) -> int:
    """Headless battles per second on a scenario, and reach/route timings on a 100×100 map; or (`--ai`,
    `--scaling`) one AI on every side against issue 12's targets (skirmish.cli.bench_ai); with `--no-bake`, sight
    is worked out as the battles ask for it, as on a map with no bake."""
    if args.no_bake:
        from skirmish.content.sight_bakes import bakes_off

        with bakes_off():
            return _bench(args)
    return _bench(args)


def _bench(args: argparse.Namespace) -> int:
    """`cmd_bench`, bakes found or not as the caller set."""
    import numpy as np

    from skirmish.battle import Battle
    from skirmish.nav import Navigator
    from skirmish.rules import geometry as geo
    from skirmish.rules.geometry import GridMap, Terrain

    if args.board:
        return bench_board(args.frames)
    if args.replay is not None:
        return bench_replay(args.replay, args.scenario, args.repeat)
    if args.scaling:
        return bench_scaling(args.ai or "utility", args.battles)
    if args.ai:
        return bench_ai(args.scenario, args.ai, args.battles)
    scenario = scenario_arg(args.scenario)
    if args.decisions:
        return bench_decisions(scenario, args.decisions, args.battles)
    times, cpu = [], []
    for i in range(args.battles):
        t, c = time.perf_counter(), time.process_time()
        with Battle(scenario, seed=i, controllers=controllers_for(scenario)) as b:  # type: ignore[arg-type]
            b.run()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    # CPU time beside wall time: on a shared machine the wall clock swings with load, the CPU time far less.
    print(f"battles: {args.battles} on '{scenario.name}': median {statistics.median(times) * 1000:.1f} ms wall, "
          f"{statistics.median(cpu) * 1000:.1f} ms CPU; {len(times) / sum(times):.2f} battles/s wall, "
          f"{len(cpu) / sum(cpu):.2f} battles/s CPU")
    rng = np.random.default_rng(1)
    layout = (rng.random((100, 100)) < 0.15).astype(np.int16)
    layout[0, 0] = layout[99, 99] = 0
    grid = GridMap("bench", 100, 100, (Terrain("floor"), Terrain("wall", 0, True, "high", 6)), layout)
    reach, route = [], []
    nav = Navigator(grid)
    for _ in range(args.repeat):
        t = time.perf_counter()
        geo.reach_field(grid, (50, 50), 16.0)
        reach.append(time.perf_counter() - t)
        t = time.perf_counter()
        nav.route((0, 0), (99, 99), keep=False)  # the search itself, not a kept route
        route.append(time.perf_counter() - t)
    print(f"reach field (run of 16 cells) on 100x100: median {statistics.median(reach) * 1000:.2f} ms")
    print(f"route corner to corner on 100x100: median {statistics.median(route) * 1000:.2f} ms")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    """Mirrored pairs of the AI under test against each opponent, over the scenarios."""
    from skirmish.ai import tournament
    from skirmish.ai.controllers import make_ai
    from skirmish.content.scenario import builtin_scenarios
    from skirmish.sim.backend import BackendError

    specs = [args.ai, *[v for v in args.vs.split(",") if v]]
    opponents = specs[1:]
    if not opponents:
        raise UserError("--vs: name at least one opponent")
    paths = [Path(s) for s in args.scenarios] or builtin_scenarios()
    rulesets_of = {scenario_arg(str(path)).spec.ruleset: path for path in paths}  # a bad file stops here, key named
    for ruleset, path in rulesets_of.items():  # each AI must be one the scenario's ruleset has
        for spec in specs:
            try:
                make_ai(spec, ruleset)
            except ValueError as exc:
                raise UserError(f"{path}: {exc}") from None
    if args.behaviour and args.backend != "local":
        raise UserError("--behaviour: plays on the local backend only (no --backend ray)")
    if args.behaviour:  # the AI's behaviour figures instead of the scores (skirmish/cli/behaviour.py)
        other = [str(p) for r, p in rulesets_of.items() if r != "fi"]
        if other:  # they count Future Imperfect's events (shots' odds, grenades, screens, DODGE)
            raise UserError(f"--behaviour: {', '.join(other)}: the behaviour figures are Future Imperfect's only "
                            "(issue 12); play the scores without --behaviour")
        from skirmish.cli.behaviour import cmd_behaviour

        return cmd_behaviour(args, paths, opponents)
    if args.address and args.backend != "ray":
        raise UserError("--address: only with --backend ray")
    csv_path = output_path(args.csv)
    pairs = args.pairs or max(1, math.ceil(TOURNAMENT_PAIRS / len(paths)))
    if args.seed + pairs - 1 > MAX_SEED:
        raise UserError(f"--seed {args.seed} with {pairs} pairs: the last seed would pass {MAX_SEED}")
    jobs = len(opponents) * len(paths) * pairs
    workers = max(1, min(args.workers or os.cpu_count() or 1, jobs))
    bar = tournament.progress_bar()
    open_line = False

    def progress(done: int, total: int) -> None:
        nonlocal open_line
        open_line = done < total
        bar(done, total)

    t0 = time.perf_counter()
    try:
        games = tournament.run(paths, args.ai, opponents, pairs, workers=workers, first_seed=args.seed,
                               progress=progress, backend=args.backend, address=args.address)
    except BackendError as exc:
        if open_line:
            sys.stderr.write("\n")
        raise UserError(str(exc)) from None
    except KeyboardInterrupt:
        if open_line:  # end the progress bar's line before the one-line notice
            sys.stderr.write("\n")
        raise
    print(f"{len(games)} games: {len(opponents)} opponent(s) x {len(paths)} scenario(s) x {pairs} mirrored "
          f"pair(s) (seeds {args.seed}..{args.seed + pairs - 1}, sides swapped), {2 * pairs} games per opponent "
          f"and scenario, in {time.perf_counter() - t0:.1f} s "
          f"{'as Ray tasks' if args.backend == 'ray' else f'with {workers} process(es)'}; "
          f"score: win 1, draw ½, loss 0")
    tournament.print_tables(games)
    tournament.print_marks(games)
    if csv_path is not None:
        tournament.write_csv(games, csv_path)
        print(f"\nCSV written to {args.csv}")
    return 0


def bench_decisions(scenario: Scenario, ai: str, battles: int) -> int:
    """Decision time per unit of an AI playing every side (median and 95th percentile)."""
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle, consult

    try:
        make_ai(ai, scenario.spec.ruleset)
    except ValueError as exc:
        raise UserError(f"--decisions: {exc}") from None
    times: dict[str, list[float]] = {kind: [] for kind in rulesets.get(scenario.spec.ruleset).request_kinds}
    for i in range(battles):
        ctrl = {s.name: make_ai(ai, scenario.spec.ruleset) for s in scenario.spec.sides}
        with Battle(scenario, seed=i, controllers=ctrl) as b:
            while b.pending is not None:
                req = b.pending
                view = b.observe(req.side)  # what the AI decides from (its side's view)
                t = time.perf_counter()
                action, trace = consult(ctrl[req.side], view, req)
                times[req.kind].append(time.perf_counter() - t)
                b.answer(req, action, trace)
    for kind, ts in times.items():
        if not ts:
            continue
        ts.sort()
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        print(f"{ai} {kind} decisions: {len(ts)} over {battles} battles: median {statistics.median(ts) * 1000:.2f} ms,"
              f" p95 {p95 * 1000:.2f} ms, max {ts[-1] * 1000:.1f} ms")
    return 0


def bench_replay(path: str, scenario_path: str | None, repeat: int) -> int:
    """How long the replay viewer takes to step back (a re-run from the seed), to jump and to step forward, on
    a record (`path`; "" records a utility-against-utility battle of the scenario first)."""
    from skirmish import record
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle
    from skirmish.ui.replay_session import seek_times

    if path:
        rec = record.load(path)
    else:
        scenario = scenario_arg(scenario_path)
        source = Path(scenario_path) if scenario_path else default_scenario_path()
        with Battle(scenario, seed=BENCH_REPLAY_SEED, hashes=True,
                    controllers={s.name: make_ai("utility", scenario.spec.ruleset) for s in scenario.spec.sides}) as battle:
            battle.run()
            rec = record.record_of(battle, record.capture(scenario, source))
    t = seek_times(rec, repeat)
    print(f"replay of {rec.label or 'a utility-vs-utility battle, seed ' + str(rec.seed)}: {t.answers} answers, "
          f"{t.rounds} rounds; medians of {repeat}, CPU / wall:")
    print(f"  step back one action from the end (a re-run from the seed): {t.back_cpu:.1f} / {t.back_wall:.1f} ms")
    print(f"  jump from the end to the start of the last round: {t.round_cpu:.1f} / {t.round_wall:.1f} ms")
    print(f"  jump from the end to the start: {t.start_cpu:.1f} / {t.start_wall:.1f} ms")
    print(f"  step forward one action: {t.forward_cpu:.2f} / {t.forward_wall:.2f} ms")
    return 0


def bench_board(frames: int) -> int:
    """Frame time of the board with 50 miniatures on the 40x30 depot map, watching an AI battle."""
    if not display.has_display():
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    from skirmish.ui.bench import board_frame_times

    draw, whole = board_frame_times(frames)
    for label, xs in (("draw", draw), ("whole frame (draw + AI + animation)", whole)):
        xs = sorted(xs)
        p95 = xs[int(0.95 * (len(xs) - 1))]
        print(f"board {label}: median {statistics.median(xs):.2f} ms, p95 {p95:.2f} ms over {len(xs)} frames")
    return 0
