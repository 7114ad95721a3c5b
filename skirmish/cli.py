"""The `skirmish` command (C-1, C-2, C-6): run, deck, check, bench, tournament, watch, play, menu.

Bad input (a file, a value, an output path) exits 2 with one line naming it; output files are checked before
any battle is played and written whole or not at all (skirmish.fileio); Ctrl-C prints one line and exits 130.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from skirmish.content.errors import ContentError
from skirmish.content.scenario import Scenario, builtin_scenarios, default_scenario_path, load_scenario
from skirmish.fileio import OutputError, check_output

if TYPE_CHECKING:
    from skirmish.record import Record
    from skirmish.ui.session import Session

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C
MAX_SEED = 2**63 - 1
MAX_COUNT = 1_000_000
TOURNAMENT_PAIRS = 20  # default mirrored pairs per opponent, over all the scenarios
DISPLAY_TIMEOUT = 5.0  # seconds the display check may take before the display counts as dead


class UserError(Exception):
    """A bad command-line value: printed with exit status 2 (C-6)."""


def _load(path: str | None) -> Scenario:
    return load_scenario(Path(path) if path else default_scenario_path())


def _ai_overrides(scenario: Scenario, overrides: Sequence[str] = ()) -> dict[str, str]:
    """{side: AI spec} from `SIDE=AI` values given to `--ai`, each side and AI checked."""
    from skirmish.ai.controllers import make_ai

    sides = [s.name for s in scenario.spec.sides]
    out: dict[str, str] = {}
    for item in overrides:
        side, sep, spec = item.partition("=")
        if not sep or side not in sides:
            raise UserError(f"--ai {item!r}: expected SIDE=AI with SIDE one of {', '.join(sides)}")
        try:
            make_ai(spec)
        except ValueError as exc:
            raise UserError(f"--ai {item!r}: {exc}") from None
        out[side] = spec
    return out


def _controllers(scenario: Scenario, overrides: Sequence[str] = ()) -> dict[str, object]:
    """Each side's controller from the scenario; `overrides` are `SIDE=AI` values from `--ai`."""
    from skirmish.ai.controllers import make_ai, make_controller

    ai = _ai_overrides(scenario, overrides)
    return {s.name: make_ai(ai[s.name]) if s.name in ai else make_controller(s.controller, s.orders, s.ai)
            for s in scenario.spec.sides}


def _output(path: str | None) -> Path | None:
    """An output file named on the command line, checked before any work is done (C-6)."""
    return check_output(path) if path else None


def _warn(scenario: Scenario) -> None:
    """The loader's warnings (e.g. a missing tileset replaced by the shipped one), one line each on stderr."""
    for note in scenario.notes:
        print(f"skirmish: warning: {note}", file=sys.stderr)


def cmd_run(args: argparse.Namespace) -> int:
    """Play one battle headless and print the explaining log and the summary line (C-1)."""
    from skirmish import record
    from skirmish.battle import Battle
    from skirmish.log import describe

    scenario = _load(args.scenario)
    _warn(scenario)
    events_path = _output(args.events)
    record_path = _output(args.record)
    sources = None
    if record_path is not None:
        source = Path(args.scenario) if args.scenario else default_scenario_path()
        sources = record.capture(scenario, source, file=args.scenario or source.name)
    out = sys.stdout

    def show(event: object) -> None:
        from skirmish.core.events import Event

        assert isinstance(event, Event)
        if args.json:
            out.write(event.to_line() + "\n")
        elif not args.quiet:
            out.write(describe(event) + "\n")

    controllers = _controllers(scenario, args.ai)
    with Battle(scenario, seed=args.seed, controllers=controllers,  # type: ignore[arg-type]
                on_event=show, hashes=record_path is not None) as battle:
        outcome = battle.run()
        if events_path is not None:
            battle.log.write(events_path)
        if record_path is not None:
            record.save(battle, record_path, sources, record.controller_labels(scenario, _ai_overrides(scenario, args.ai)))
    if not args.json:
        out.write(outcome.summary() + "\n")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    """Replay a battle record headless (no AI is asked): the same log as `skirmish run` and the summary line,
    after checking every round's state hash; a changed or drifted record exits 2 naming the first round
    that differs, and nothing of its log is printed. `--board`: the replay viewer, once the record is checked
    (headless as above without a display)."""
    from skirmish import record
    from skirmish.log import describe

    rec = record.load(args.file)
    scenario = record.scenario_of(rec)
    battle = record.resume(rec, scenario=scenario)  # the whole record checked, before any window opens (C-6)
    if args.board:
        problem = display_problem()
        if problem is None:
            battle.close()
            return replay_board(rec, scenario, args.frames)
        print(f"skirmish: no display ({problem}); replaying the record headless instead.", file=sys.stderr)
    with battle:
        out = sys.stdout
        if args.json:
            out.writelines(event.to_line() + "\n" for event in battle.log.events)
        elif not args.quiet:
            out.writelines(describe(event) + "\n" for event in battle.log.events)
        outcome = battle.outcome
    if outcome is None:
        print(f"skirmish replay: {rec.label}: saved in round {battle.ctx.round}, before the battle's end", file=sys.stderr)
    elif not args.json:
        out.write(outcome.summary() + "\n")
    return 0


def replay_board(rec: Record, scenario: Scenario, frames: int | None = None) -> int:
    """The replay viewer on the board for a record already checked."""
    from skirmish.ui.app import App
    from skirmish.ui.replay_session import ReplaySession

    app = App(replay=ReplaySession(rec, scenario, checked=True))
    return app.run(max_frames=frames)


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
    """Validate scenario, map (.tmj), tileset (.tsj) and stacked-deck (.json) files (C-6): every file, and
    every error in each, one line each on stderr; `ok:` lines for good files; exit 2 if any failed."""
    from skirmish.content.errors import one_line
    from skirmish.content.scenario import check_input

    paths = args.scenarios or [str(p) for p in builtin_scenarios()]
    failed = False
    for p in paths:
        result = check_input(p)
        for note in result.notes:
            print(f"skirmish: warning: {note}", file=sys.stderr)
        for err in result.errors:
            print(f"skirmish: {err.text}", file=sys.stderr)
        if result.summary is None:
            failed = True
        else:
            print(f"ok: {one_line(p)}: {result.summary}")
    return EXIT_BAD_INPUT if failed else 0


def cmd_bench(args: argparse.Namespace) -> int:
    """Headless battles per second on a scenario, and reach/route timings on a 100×100 map."""
    import numpy as np

    from skirmish.battle import Battle
    from skirmish.nav import Navigator
    from skirmish.rules import geometry as geo
    from skirmish.rules.geometry import GridMap, Terrain

    if args.board:
        return bench_board(args.frames)
    if args.replay is not None:
        return bench_replay(args.replay, args.scenario, args.repeat)
    scenario = _load(args.scenario)
    if args.decisions:
        return bench_decisions(scenario, args.decisions, args.battles)
    times, cpu = [], []
    for i in range(args.battles):
        t, c = time.perf_counter(), time.process_time()
        with Battle(scenario, seed=i, controllers=_controllers(scenario)) as b:  # type: ignore[arg-type]
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
    opponents = specs[1:]
    if not opponents:
        raise UserError("--vs: name at least one opponent")
    paths = [Path(s) for s in args.scenarios] or builtin_scenarios()
    for path in paths:
        _load(str(path))  # checked on load: a bad file stops here with its key named
    csv_path = _output(args.csv)
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
                               progress=progress)
    except KeyboardInterrupt:
        if open_line:  # end the progress bar's line before the one-line notice
            sys.stderr.write("\n")
        raise
    print(f"{len(games)} games: {len(opponents)} opponent(s) x {len(paths)} scenario(s) x {pairs} mirrored "
          f"pair(s) (seeds {args.seed}..{args.seed + pairs - 1}, sides swapped), {2 * pairs} games per opponent "
          f"and scenario, in {time.perf_counter() - t0:.1f} s with {workers} process(es); "
          f"score: win 1, draw ½, loss 0")
    tournament.print_tables(games)
    if csv_path is not None:
        tournament.write_csv(games, csv_path)
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
                view = b.observe(req.side)  # what the AI decides from (its side's view)
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


BENCH_REPLAY_SEED = 2  # depot_breach, utility against utility: a draw after all 20 rounds


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
        scenario = _load(scenario_path)
        source = Path(scenario_path) if scenario_path else default_scenario_path()
        with Battle(scenario, seed=BENCH_REPLAY_SEED, hashes=True,
                    controllers={s.name: make_ai("utility") for s in scenario.spec.sides}) as battle:
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
    if not has_display():
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    from skirmish.ui.bench import board_frame_times

    draw, whole = board_frame_times(frames)
    for label, xs in (("draw", draw), ("whole frame (draw + AI + animation)", whole)):
        xs = sorted(xs)
        p95 = xs[int(0.95 * (len(xs) - 1))]
        print(f"board {label}: median {statistics.median(xs):.2f} ms, p95 {p95:.2f} ms over {len(xs)} frames")
    return 0


_DISPLAY_PROBE = "import pygame; pygame.display.init(); print(pygame.display.get_driver())"


def display_problem(timeout: float = DISPLAY_TIMEOUT) -> str | None:
    """None if a window can be opened, else why not, in a few words.

    On X11/Wayland systems a set DISPLAY proves nothing (SDL falls back to its invisible offscreen driver when
    no server answers, and a remote display may never answer), so SDL is asked in a subprocess that may take
    at most `timeout` seconds: a failure, a timeout or the driver 'offscreen'/'dummy' means no display."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        return f"SDL_VIDEODRIVER={driver}"
    if sys.platform in ("win32", "darwin"):
        return None
    names = [n for n in ("WAYLAND_DISPLAY", "DISPLAY") if os.environ.get(n)]
    if not names:
        return "neither DISPLAY nor WAYLAND_DISPLAY is set"
    where = " or ".join(f"{n}={os.environ[n]}" for n in names)
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    try:
        p = subprocess.run([sys.executable, "-c", _DISPLAY_PROBE], capture_output=True, text=True, env=env,
                           stdin=subprocess.DEVNULL, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return f"{where} did not answer within {timeout:g} s"
    except OSError as exc:
        return f"the display check could not start ({exc.strerror})"
    lines = p.stdout.strip().splitlines()
    got = lines[-1].strip() if lines else ""
    if p.returncode != 0 or not got:
        return f"{where} cannot be opened"
    if got in ("offscreen", "dummy"):
        return f"nothing answers at {where}"
    return None


def has_display() -> bool:
    """True if a window can be opened (see display_problem)."""
    return display_problem() is None


def _controls(args: argparse.Namespace, scenario: Scenario) -> dict[str, str]:
    """Who plays each side: watch = all AI; play = the chosen side (default the first) human, or all (hot-seat)."""
    sides = [s.name for s in scenario.spec.sides]
    if args.command != "play":
        return {s: "ai" for s in sides}
    if args.hotseat:
        return {s: "human" for s in sides}
    side = args.side or sides[0]
    if side not in sides:
        raise UserError(f"--side {side!r}: no side of that name in '{scenario.name}' (sides: {', '.join(sides)})")
    return {s: ("human" if s == side else "ai") for s in sides}


def cmd_board(args: argparse.Namespace) -> int:
    """The board: watch (all AI), play (you against the AI, or hot-seat), or the start menu."""
    if getattr(args, "load", None):
        return board_load(args)
    scenario = _load(args.scenario)  # a bad file exits 2 before any window opens (C-6), the menu's too
    _warn(scenario)
    overrides = getattr(args, "ai", [])
    ai = _ai_overrides(scenario, overrides)
    controls = _controls(args, scenario)
    people = [side for side in ai if controls[side] == "human"]
    if people:
        raise UserError(f"--ai {people[0]}=...: {people[0]} is played by a person here"
                        + (" (--hotseat)" if args.hotseat else " (choose another side with --side)"))
    problem = display_problem()
    if problem is not None:
        print(f"skirmish: no display ({problem}); playing the battle headless instead.", file=sys.stderr)
        return play_headless(scenario, args.seed, overrides, name=getattr(args, "scenario", None))
    from skirmish.ui.app import App

    if args.command == "menu":
        app = App()
        if args.scenario:
            app.open_menu(args.scenario)  # preselected and kept under the menu's recent files
    else:
        app = App(scenario=scenario, seed=args.seed, controls=controls, ai=ai)
    return app.run(max_frames=args.frames)


def board_load(args: argparse.Namespace) -> int:
    """`play --load FILE` / `watch --load FILE`: continue a saved battle on the board. The record is read,
    replayed and checked before any window opens (a bad or drifted one exits 2, one line); without a display
    the battle is finished headless, AI on every side, with the fallback's summary."""
    from skirmish import record
    from skirmish.ui.session import Session

    if args.scenario or args.seed is not None:
        raise UserError("--load continues a saved battle: give no SCENARIO or --seed with it")
    rec = record.load(args.load)
    scenario = record.scenario_of(rec)
    _warn(scenario)
    overrides = getattr(args, "ai", [])
    ai = _ai_overrides(scenario, overrides)
    sides = [s.name for s in scenario.spec.sides]
    controls: dict[str, str] | None = {s: "ai" for s in sides}
    if args.command == "play" and (args.hotseat or args.side):
        controls = _controls(args, scenario)
    elif args.command == "play":  # who played each side in the record, else the first side
        controls = None if any(rec.controllers.get(s) == "human" for s in sides) else _controls(args, scenario)
    problem = display_problem()
    if problem is not None:
        print(f"skirmish: no display ({problem}); finishing the loaded battle headless instead.", file=sys.stderr)
        controls = {s: "ai" for s in sides}
    session = Session.from_record(rec, controls, ai=ai, scenario=scenario)
    people = [side for side in ai if session.controls[side] == "human"]
    if people:
        session.close()
        raise UserError(f"--ai {people[0]}=...: {people[0]} is played by a person here")
    if problem is not None:
        return _finish_headless(session, rec.label)
    from skirmish.ui.app import App

    app = App(session=session)
    return app.run(max_frames=args.frames)


def _finish_headless(session: Session, label: str) -> int:
    """Play a loaded battle to its end with its AIs and print the fallback's summary and result line."""
    from skirmish.summary import summarize, unit_sides

    try:
        outcome = session.battle.run()
        events = list(session.battle.log.events)
    finally:
        session.close()
    sides = unit_sides((s.name, [u.name for u in s.units]) for s in session.scenario.spec.sides)
    for line in summarize(events, sides).lines():
        print(line)
    print(f"the whole explaining log of the saved part: {shlex.join(['skirmish', 'replay', label])}")
    print(outcome.summary())
    return 0


def play_headless(scenario: Scenario, seed: int | None, overrides: Sequence[str] = (), name: str | None = None) -> int:
    """The board's fallback without a display: play the battle, AI on every side, and print a short summary
    (who won, casualties, the telling moments), where to read the whole log, and the C-1 result line."""
    from skirmish.battle import Battle
    from skirmish.summary import summarize, unit_sides

    controllers = _controllers(scenario, overrides)
    with Battle(scenario, seed=seed, controllers=controllers) as battle:  # type: ignore[arg-type]
        outcome = battle.run()
        events = list(battle.log.events)
    sides = unit_sides((s.name, [u.name for u in s.units]) for s in scenario.spec.sides)
    for line in summarize(events, sides).lines():
        print(line)
    command = ["skirmish", "run", *([name] if name else []), "--seed", str(outcome.seed)]
    for item in overrides:
        command += ["--ai", item]
    print(f"the whole explaining log: {shlex.join(command)}")
    print(outcome.summary())
    return 0


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors (exit 2), as for every other bad input (C-6)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message} (see {self.prog} --help)\n")


def _whole(lo: int, hi: int, what: str = "") -> Callable[[str], int]:
    """An argparse type: a whole number from `lo` to `hi`."""
    expected = f"a whole number from {lo} to {hi}" + (f" ({what})" if what else "")

    def parse(text: str) -> int:
        try:
            value = int(text.strip(), 10)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"expected {expected}, got {text}")
        return value

    return parse


SEED = _whole(0, MAX_SEED)
COUNT = _whole(1, MAX_COUNT)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser. Every option has a help text; contract ids stay out of it (they are for the docs)."""
    p = _Parser(prog="skirmish", description="Squad-level sci-fi skirmish simulator.")
    sub = p.add_subparsers(dest="command", title="commands", metavar="COMMAND",
                           help="one of these (default: watch)")
    ai_help = "play SIDE with this AI instead of the scenario's (e.g. Blue=utility:hard); repeatable"

    r = sub.add_parser("run", help="play one battle headless and print the explaining log and the result line")
    r.add_argument("scenario", nargs="?", help="scenario YAML (default: the default scenario)")
    r.add_argument("--seed", type=SEED, default=None, help="seed, 0 or more (default: the scenario's)")
    r.add_argument("--events", metavar="FILE", help="also write the events as JSON lines")
    r.add_argument("--json", action="store_true", help="print events as JSON lines instead of text")
    r.add_argument("--quiet", action="store_true", help="print only the result line")
    r.add_argument("--ai", action="append", default=[], metavar="SIDE=AI", help=ai_help)
    r.add_argument("--record", metavar="FILE", help="also write a battle record (replay it with skirmish replay)")
    r.set_defaults(func=cmd_run)

    rp = sub.add_parser("replay", help="replay a battle record headless, checking it, and print the log and result line")
    rp.add_argument("file", help="a record written by skirmish run --record")
    rp.add_argument("--json", action="store_true", help="print events as JSON lines instead of text")
    rp.add_argument("--quiet", action="store_true", help="print only the result line")
    rp.add_argument("--board", action="store_true", help="watch it on the board with a timeline: jump to any round "
                    "or action, step back and forward, play at any speed (without a display: replayed headless)")
    rp.add_argument("--frames", type=COUNT, default=None, help=argparse.SUPPRESS)  # smoke tests
    rp.set_defaults(func=cmd_replay)

    d = sub.add_parser("deck", help="print a built-in action deck (a table, or JSON with --json)")
    d.add_argument("--name", choices=("A", "B"), default="A", help="which deck (default: A)")
    d.add_argument("--json", action="store_true", help="the 54 cards as JSON")
    d.add_argument("--stats", action="store_true", help="deck means beside the model means")
    d.set_defaults(func=cmd_deck)

    c = sub.add_parser("check", help="validate scenario, map (.tmj), tileset (.tsj) and stacked-deck (.json) "
                       "files (all shipped scenarios by default)")
    c.add_argument("scenarios", nargs="*", metavar="FILE", help="scenario (.yaml), map (.tmj), tileset (.tsj) or "
                   "stacked-deck (.json) files (default: every shipped scenario)")
    c.set_defaults(func=cmd_check)

    b = sub.add_parser("bench", help="measure battles per second and map queries")
    b.add_argument("scenario", nargs="?", help="scenario YAML (default: the default scenario)")
    b.add_argument("--battles", type=COUNT, default=20, help="battles to play (default: 20)")
    b.add_argument("--repeat", type=COUNT, default=50, help="repetitions of each map query (default: 50)")
    b.add_argument("--board", action="store_true", help="measure the board's frame time instead (50 miniatures)")
    b.add_argument("--frames", type=COUNT, default=600, help="frames for --board (default: 600)")
    b.add_argument("--decisions", metavar="AI", help="measure an AI's decision time per unit (e.g. utility)")
    b.add_argument("--replay", nargs="?", const="", metavar="RECORD", help="measure the replay viewer's step back, "
                   "jumps and step forward on a record (default: a utility-vs-utility battle of the scenario, "
                   f"seed {BENCH_REPLAY_SEED}); --repeat times each")
    b.set_defaults(func=cmd_bench)

    t = sub.add_parser("tournament", help="AI vs AI: mirrored pairs in parallel, win rates with Wilson intervals")
    t.add_argument("scenarios", nargs="*", help="scenario YAMLs (default: every shipped scenario)")
    t.add_argument("--ai", default="utility", help="the AI under test (default: utility; e.g. utility:hard)")
    t.add_argument("--vs", default="random,rush,hold,focus,spread",
                   help="comma-separated opponents (default: every scripted baseline)")
    t.add_argument("--pairs", type=COUNT, default=None,
                   help=f"mirrored pairs per opponent on each scenario (default: {TOURNAMENT_PAIRS} per opponent "
                        "shared out over the scenarios, at least 1 each)")
    t.add_argument("--workers", type=_whole(0, 1024, "0: one per CPU"), default=0,
                   help="processes (default: one per CPU)")
    t.add_argument("--seed", type=SEED, default=1, help="first seed; pair i plays seed + i (default: 1)")
    t.add_argument("--csv", metavar="FILE", help="also write the tables as CSV")
    t.set_defaults(func=cmd_tournament)

    helps = {"watch": "watch an AI-vs-AI battle on the board (the default command)",
             "play": "play a battle on the board against the AI (or --hotseat)",
             "menu": "the board's start menu: pick a scenario, options, sides and seed"}
    for name, text in helps.items():
        w = sub.add_parser(name, help=text)
        if name == "menu":
            w.add_argument("scenario", nargs="?", help="a scenario file to open in the menu, from anywhere "
                           "(kept under recent files)")
        else:
            w.add_argument("scenario", nargs="?", help="scenario YAML (default: the default scenario)")
            w.add_argument("--seed", type=SEED, default=None, help="seed, 0 or more (default: the scenario's)")
            w.add_argument("--ai", action="append", default=[], metavar="SIDE=AI", help=ai_help)
            w.add_argument("--load", metavar="FILE", help="continue a saved battle (a record: Ctrl+S on the board, "
                           "or skirmish run --record)")
        if name == "play":
            w.add_argument("--side", help="the side you play (default: the first)")
            w.add_argument("--hotseat", action="store_true", help="people play every side")
        w.add_argument("--frames", type=COUNT, default=None, help=argparse.SUPPRESS)  # smoke tests
        w.set_defaults(func=cmd_board, scenario=None, seed=None)
    return p


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point: exit 0 on success, 2 on bad input or an output file that cannot be written (C-6),
    130 on Ctrl-C (one line, worker processes stopped, no partial output file)."""
    command = "skirmish"
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            args = parser.parse_args(["watch"])
        command = f"skirmish {args.command}"
        code = args.func(args)
    except KeyboardInterrupt:
        print("skirmish: interrupted", file=sys.stderr)
        code = EXIT_INTERRUPTED
    except ContentError as exc:
        print(f"skirmish: {exc.text}", file=sys.stderr)
        code = EXIT_BAD_INPUT
    except UserError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        code = EXIT_BAD_INPUT
    except BrokenPipeError:
        code = 0
    except OutputError as exc:
        print(f"{command}: {exc}", file=sys.stderr)
        code = EXIT_BAD_INPUT
    except OSError as exc:  # anything else the system refused (a file, a process): one line, never a traceback
        where = f": {exc.filename}" if exc.filename else ""
        print(f"{command}{where}: {exc.strerror or exc}", file=sys.stderr)
        code = EXIT_BAD_INPUT
    sys.exit(code)


if __name__ == "__main__":
    main()
