"""The `skirmish` command (C-1, C-2, C-6): run, deck, check, bench, watch, play.

Bad input exits 2 with one line naming the file and key; nothing is half-written.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from skirmish.content.errors import ContentError
from skirmish.content.scenario import Scenario, builtin_scenarios, default_scenario_path, load_scenario

EXIT_BAD_INPUT = 2


class UserError(Exception):
    """A bad command-line value: printed with exit status 2 (C-6)."""


def _load(path: str | None) -> Scenario:
    return load_scenario(Path(path) if path else default_scenario_path())


def _controllers(scenario: Scenario, overrides: Sequence[str] = ()) -> dict[str, object]:
    """Each side's controller from the scenario; `overrides` are `SIDE=AI` values from `--ai`."""
    from skirmish.ai.controllers import make_ai, make_controller

    out: dict[str, object] = {s.name: make_controller(s.controller, s.orders, s.ai) for s in scenario.spec.sides}
    for item in overrides:
        side, sep, spec = item.partition("=")
        if not sep or side not in out:
            raise UserError(f"--ai {item!r}: expected SIDE=AI with SIDE one of {', '.join(out)}")
        try:
            out[side] = make_ai(spec)
        except ValueError as exc:
            raise UserError(f"--ai {item!r}: {exc}") from None
    return out


def cmd_run(args: argparse.Namespace) -> int:
    """Play one battle headless and print the explaining log and the summary line (C-1)."""
    from skirmish.battle import Battle
    from skirmish.log import describe

    scenario = _load(args.scenario)
    out = sys.stdout

    def show(event: object) -> None:
        from skirmish.rules.events import Event

        assert isinstance(event, Event)
        if args.json:
            out.write(event.to_line() + "\n")
        elif not args.quiet:
            out.write(describe(event) + "\n")

    controllers = _controllers(scenario, args.ai)
    with Battle(scenario, seed=args.seed, controllers=controllers,  # type: ignore[arg-type]
                on_event=show) as battle:
        outcome = battle.run()
        if args.events:
            battle.log.write(Path(args.events))
    if not args.json:
        out.write(outcome.summary() + "\n")
    return 0


def cmd_deck(args: argparse.Namespace) -> int:
    """Print a built-in deck as C-2 JSON, or its statistics beside the model."""
    from skirmish.rules.deck import builtin, deck_stats

    cards = builtin(args.name)
    if args.stats:
        rows = deck_stats(cards)
        if args.json:
            print(json.dumps(rows, indent=1))
            return 0
        print(f"deck {args.name}: per column/row deck mean beside the model mean (R-4.2, R-4.3)")
        print(f"{'grid':6}{'col':>4}{'row':>4}{'deck':>9}{'model':>9}{'diff%':>8}{'CF':>4}")
        for r in rows:
            diff = 100 * (r["deck"] - r["model"]) / r["model"]
            print(f"{r['grid']:6}{r['column']:>4}{r['row']:>4}{r['deck']:9.3f}{r['model']:9.3f}{diff:8.2f}{r['cf']:4}")
        return 0
    if args.json:
        print(json.dumps([c.to_json() for c in cards], indent=None))
        return 0
    for c in cards:
        print(f"#{c.number:2} impulse {c.impulse:2} step {c.step:2} frag {c.fragment} {c.poker:12} "
              f"toggle {'YES' if c.toggle else 'no '} std {c.standard_location:9} clock {c.clock:2}"
              f"{' ' + c.special.upper() if c.special else ''}")
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """Validate scenario files (C-6)."""
    paths = args.scenarios or [str(p) for p in builtin_scenarios()]
    for p in paths:
        sc = load_scenario(Path(p))
        units = sum(len(s.units) for s in sc.spec.sides)
        print(f"ok: {p}: '{sc.name}', map {sc.grid.name} {sc.grid.width}x{sc.grid.height}, "
              f"{len(sc.spec.sides)} sides, {units} units")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Headless battles per second on a scenario, and reach/route timings on a 100×100 map."""
    import numpy as np

    from skirmish.battle import Battle
    from skirmish.nav import Navigator
    from skirmish.rules import geometry as geo
    from skirmish.rules.geometry import GridMap, Terrain

    if args.board:
        return bench_board(args.frames)
    scenario = _load(args.scenario)
    if args.decisions:
        return bench_decisions(scenario, args.decisions, args.battles)
    times = []
    for i in range(args.battles):
        t = time.perf_counter()
        with Battle(scenario, seed=i, controllers=_controllers(scenario)) as b:  # type: ignore[arg-type]
            b.run()
        times.append(time.perf_counter() - t)
    print(f"battles: {args.battles} on '{scenario.name}': median {statistics.median(times) * 1000:.1f} ms, "
          f"{len(times) / sum(times):.2f} battles/s")
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
        nav.route((0, 0), (99, 99))
        route.append(time.perf_counter() - t)
    print(f"reach field (run of 16 cells) on 100x100: median {statistics.median(reach) * 1000:.2f} ms")
    print(f"route corner to corner on 100x100: median {statistics.median(route) * 1000:.2f} ms")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    """Mirrored pairs of the AI under test against each opponent, over the scenarios."""
    from skirmish.ai import tournament
    from skirmish.ai.controllers import make_ai
    from skirmish.content.scenario import builtin_scenarios

    specs = [args.ai, *[v for v in args.vs.split(",") if v]]
    for spec in specs:
        try:
            make_ai(spec)
        except ValueError as exc:
            raise UserError(str(exc)) from None
    if args.pairs < 1:
        raise UserError("--pairs: at least 1")
    paths = [Path(s) for s in args.scenarios] or builtin_scenarios()
    for path in paths:
        _load(str(path))  # checked on load: a bad file stops here with its key named
    workers = args.workers or os.cpu_count() or 1
    t0 = time.perf_counter()
    games = tournament.run(paths, args.ai, specs[1:], args.pairs, workers=workers, first_seed=args.seed,
                           progress=tournament.progress_bar())
    print(f"{len(games)} games ({args.pairs} mirrored pairs per opponent) on {len(paths)} scenario(s) in "
          f"{time.perf_counter() - t0:.1f} s with {workers} process(es); score: win 1, draw ½, loss 0")
    tournament.print_tables(games)
    if args.csv:
        tournament.write_csv(games, Path(args.csv))
        print(f"\nCSV written to {args.csv}")
    return 0


def bench_decisions(scenario: Scenario, ai: str, battles: int) -> int:
    """Decision time per unit of an AI playing every side (median and 95th percentile)."""
    from skirmish.ai.controllers import make_ai
    from skirmish.battle import Battle, consult

    times: dict[str, list[float]] = {"declare": [], "act": []}
    for i in range(battles):
        ctrl = {s.name: make_ai(ai) for s in scenario.spec.sides}
        with Battle(scenario, seed=i, controllers=ctrl) as b:
            while b.pending is not None:
                req = b.pending
                view = b.view()
                t = time.perf_counter()
                action, trace = consult(ctrl[req.side], view, req)
                times[req.kind].append(time.perf_counter() - t)
                b.answer(req, action, trace)
    for kind, ts in times.items():
        ts.sort()
        p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
        print(f"{ai} {kind} decisions: {len(ts)} over {battles} battles: median {statistics.median(ts) * 1000:.2f} ms,"
              f" p95 {p95 * 1000:.2f} ms, max {ts[-1] * 1000:.1f} ms")
    return 0


def bench_board(frames: int) -> int:
    """Frame time of the board with 50 miniatures on the 40x30 depot map, watching an AI battle."""
    if not has_display():
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    from skirmish.ui.bench import board_frame_times

    draw, whole = board_frame_times(frames)
    for label, xs in (("draw", draw), ("whole frame (draw + AI + animation)", whole)):
        xs = sorted(xs)
        p95 = xs[int(0.95 * (len(xs) - 1))]
        print(f"board {label}: median {statistics.median(xs):.2f} ms, p95 {p95:.2f} ms over {len(xs)} frames")
    return 0


def has_display() -> bool:
    """True if a window can be opened."""
    if os.environ.get("SDL_VIDEODRIVER") in ("dummy", "offscreen"):
        return False
    if sys.platform.startswith("linux"):
        return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return True


def _controls(args: argparse.Namespace, scenario: Scenario) -> dict[str, str]:
    """Who plays each side: watch = all AI; play = the chosen side (default the first) human, or all (hot-seat)."""
    sides = [s.name for s in scenario.spec.sides]
    if args.command != "play":
        return {s: "ai" for s in sides}
    if args.hotseat:
        return {s: "human" for s in sides}
    side = args.side or sides[0]
    if side not in sides:
        raise ContentError(scenario.source, "sides", f"no side named {side!r} (sides: {', '.join(sides)})")
    return {s: ("human" if s == side else "ai") for s in sides}


def cmd_board(args: argparse.Namespace) -> int:
    """The board: watch (all AI), play (you against the AI, or hot-seat), or the start menu."""
    scenario = None if args.command == "menu" else _load(args.scenario)
    if not has_display():
        print("skirmish: no display found; playing the battle headless instead.", file=sys.stderr)
        run_args = argparse.Namespace(scenario=args.scenario, seed=args.seed, events=None, json=False, quiet=False,
                                      ai=[])
        return cmd_run(run_args)
    from skirmish.ui.app import App

    controls = _controls(args, scenario) if scenario is not None else None
    app = App(scenario=scenario, seed=args.seed, controls=controls)
    return app.run(max_frames=args.frames)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    p = argparse.ArgumentParser(prog="skirmish", description="Squad-level sci-fi skirmish simulator.")
    sub = p.add_subparsers(dest="command")

    r = sub.add_parser("run", help="play one battle headless and print the log (C-1)")
    r.add_argument("scenario", nargs="?", help="scenario YAML (default: the default scenario)")
    r.add_argument("--seed", type=int, default=None, help="seed (default: the scenario's)")
    r.add_argument("--events", metavar="FILE", help="also write the events as JSON lines")
    r.add_argument("--json", action="store_true", help="print events as JSON lines instead of text")
    r.add_argument("--quiet", action="store_true", help="print only the summary line")
    r.add_argument("--ai", action="append", default=[], metavar="SIDE=AI",
                   help="play SIDE with this AI instead of the scenario's (e.g. Blue=utility:hard); repeatable")
    r.set_defaults(func=cmd_run)

    d = sub.add_parser("deck", help="print a built-in action deck (C-2)")
    d.add_argument("--name", choices=("A", "B"), default="A")
    d.add_argument("--json", action="store_true", help="the 54 cards as JSON")
    d.add_argument("--stats", action="store_true", help="deck means beside the model means")
    d.set_defaults(func=cmd_deck)

    c = sub.add_parser("check", help="validate scenario files (all shipped ones by default)")
    c.add_argument("scenarios", nargs="*")
    c.set_defaults(func=cmd_check)

    b = sub.add_parser("bench", help="measure battles per second and map queries")
    b.add_argument("scenario", nargs="?")
    b.add_argument("--battles", type=int, default=20)
    b.add_argument("--repeat", type=int, default=50)
    b.add_argument("--board", action="store_true", help="measure the board's frame time instead (50 miniatures)")
    b.add_argument("--frames", type=int, default=600, help="frames for --board")
    b.add_argument("--decisions", metavar="AI", help="measure an AI's decision time per unit (e.g. utility)")
    b.set_defaults(func=cmd_bench)

    t = sub.add_parser("tournament", help="AI vs AI: mirrored pairs in parallel, win rates with Wilson intervals")
    t.add_argument("scenarios", nargs="*", help="scenario YAMLs (default: every shipped scenario)")
    t.add_argument("--ai", default="utility", help="the AI under test (default: utility; e.g. utility:hard)")
    t.add_argument("--vs", default="random,rush,hold,focus,spread",
                   help="comma-separated opponents (default: every scripted baseline)")
    t.add_argument("--pairs", type=int, default=20, help="mirrored pairs per opponent (default: 20)")
    t.add_argument("--workers", type=int, default=0, help="processes (default: one per CPU)")
    t.add_argument("--seed", type=int, default=1, help="first seed (default: 1)")
    t.add_argument("--csv", metavar="FILE", help="also write the tables as CSV")
    t.set_defaults(func=cmd_tournament)

    helps = {"watch": "watch an AI-vs-AI battle on the board (the default command)",
             "play": "play a battle on the board against the AI (or --hotseat)",
             "menu": "the board's start menu: pick a scenario, options, sides and seed"}
    for name, text in helps.items():
        w = sub.add_parser(name, help=text)
        if name != "menu":
            w.add_argument("scenario", nargs="?", help="scenario YAML (default: the default scenario)")
            w.add_argument("--seed", type=int, default=None)
        if name == "play":
            w.add_argument("--side", help="the side you play (default: the first)")
            w.add_argument("--hotseat", action="store_true", help="people play every side")
        w.add_argument("--frames", type=int, default=None, help=argparse.SUPPRESS)  # smoke tests
        w.set_defaults(func=cmd_board, scenario=None, seed=None)
    return p


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: exit 0 on success, 2 on bad input (C-6)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        args = parser.parse_args(["watch"])
    try:
        code = args.func(args)
    except ContentError as exc:
        print(f"skirmish: {exc.text}", file=sys.stderr)
        code = EXIT_BAD_INPUT
    except UserError as exc:
        print(f"skirmish {args.command}: {exc}", file=sys.stderr)
        code = EXIT_BAD_INPUT
    except BrokenPipeError:
        code = 0
    sys.exit(code)


if __name__ == "__main__":
    main()
