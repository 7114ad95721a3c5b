"""The argument parser: every command and option with its help text, one-line errors (exit 2, C-6)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import NoReturn

from skirmish.cli.bake import cmd_bake
from skirmish.cli.battles import cmd_check, cmd_replay, cmd_run
from skirmish.cli.behaviour import BEHAVIOUR_BATTLES
from skirmish.cli.bench import BENCH_REPLAY_SEED, TOURNAMENT_PAIRS, cmd_bench, cmd_tournament
from skirmish.cli.board import cmd_board
from skirmish.cli.common import EXIT_BAD_INPUT, MAX_COUNT, MAX_SEED
from skirmish.cli.deck import cmd_deck
from skirmish.cli.edit import cmd_edit
from skirmish.cli.schema import cmd_schema
from skirmish.cli.sim import BALANCE_BATTLES, SIM_BATTLES, cmd_balance, cmd_sim


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


def _backend_options(p: argparse.ArgumentParser) -> None:
    """--backend and --address: where the battles run (skirmish.sim.backend, docs/SIM.md)."""
    p.add_argument("--backend", choices=("local", "ray"), default="local",
                   help="local processes, or Ray tasks (pip install 'skirmish[scale]') (default: local)")
    p.add_argument("--address", metavar="ADDR", help="with --backend ray: a Ray cluster's address (e.g. "
                   "ray://head:10001 or auto; default: a local Ray started for the run)")


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

    sc = sub.add_parser("schema", help="print the JSON Schema of the scenario format (for editors)")
    sc.add_argument("--ruleset", default=None, help="one ruleset's (fi, fw; default: any ruleset's)")
    sc.add_argument("--out", metavar="FILE", help="write it to FILE instead of printing it")
    sc.set_defaults(func=cmd_schema)

    bk = sub.add_parser("bake", help="bake the sight of scenarios' maps (every pair of cells' line of sight and cover "
                        "worked out ahead), so battles on them do not work it out; the default scenario's by default")
    bk.add_argument("files", nargs="*", metavar="FILE", help="scenario (.yaml) or map (.tmj) files (default: the "
                    "default scenario)")
    bk.add_argument("--out", metavar="DIR", help="write the bakes into DIR (default: the cache folder, "
                    "$SKIRMISH_CACHE_DIR or ~/.cache/skirmish, under sight/)")
    bk.add_argument("--list", action="store_true", help="say which maps are baked and where; bake nothing")
    bk.add_argument("--force", action="store_true", help="bake again maps already baked")
    bk.add_argument("--shipped", action="store_true", help="every shipped scenario's map, into the package "
                    "(skirmish/data/sight; for developers, after a shipped map changes)")
    bk.set_defaults(func=cmd_bake)

    b = sub.add_parser("bench", help="measure battles per second and map queries")
    b.add_argument("scenario", nargs="?", help="scenario YAML (default: the default scenario)")
    b.add_argument("--battles", type=COUNT, default=20, help="battles to play (default: 20)")
    b.add_argument("--repeat", type=COUNT, default=50, help="repetitions of each map query (default: 50)")
    b.add_argument("--board", action="store_true", help="measure the board's frame time instead (50 miniatures)")
    b.add_argument("--frames", type=COUNT, default=600, help="frames for --board (default: 600)")
    b.add_argument("--decisions", metavar="AI", help="measure an AI's decision time per unit (e.g. utility)")
    b.add_argument("--ai", metavar="AI", help="play every side with one AI (e.g. hold, utility): CPU per battle, "
                   "battles/s per core, decision median and p95, CPU per unit-action, beside issue 12's targets")
    b.add_argument("--scaling", action="store_true", help="cost per unit-action on the 4 v 4 default scenario and "
                   "the 24 v 24 battalion_sweep, and their ratio (with --ai, default utility; --battles each)")
    b.add_argument("--no-bake", action="store_true", help="work sight out as the battles ask for it, as on a map "
                   "with no bake (skirmish bake), instead of reading the map's baked sight")
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
    t.add_argument("--behaviour", action="store_true", help="print the AIs' behaviour figures instead (low-odds "
                   f"shots, grenades, screen changes, dodges, battle length; default {BEHAVIOUR_BATTLES} battles per "
                   "opponent shared out over the scenarios)")
    t.add_argument("--by-scenario", action="store_true", help="with --behaviour: also per AI and scenario")
    t.add_argument("--json", action="store_true", help="with --behaviour: print the figures as JSON")
    _backend_options(t)
    t.set_defaults(func=cmd_tournament)

    e = sub.add_parser("edit", help="the scenario editor: paint the map, place and edit units, sides and options, "
                       "save a Tiled map and a YAML scenario, test-play it (docs/EDITOR.md)")
    e.add_argument("scenario", nargs="?", help="scenario YAML to edit (default: a new scenario)")
    e.add_argument("--ruleset", help="the rules of a new scenario (fi or fw; default: fi)")
    e.add_argument("--frames", type=COUNT, default=None, help=argparse.SUPPRESS)  # smoke tests
    e.set_defaults(func=cmd_edit)

    s = sub.add_parser("sim", help="batch simulation: many battles of scenarios into a folder of battles.csv, "
                       "summary.json and plots")
    s.add_argument("scenarios", nargs="*", metavar="SCENARIO", help="scenario YAMLs (default: the default scenario)")
    s.add_argument("--battles", type=COUNT, default=SIM_BATTLES,
                   help=f"battles per scenario (default: {SIM_BATTLES})")
    s.add_argument("--ai", action="append", default=[], metavar="SIDE=AI",
                   help="play SIDE with this AI instead of the scenario's, in every scenario that has the side "
                        "(AI alone: every side); repeatable")
    s.add_argument("--seed", type=SEED, default=1, help="first seed; battle i plays seed + i (default: 1)")
    s.add_argument("--workers", type=_whole(0, 1024, "0: one per CPU"), default=0,
                   help="processes, or Ray CPUs for a local Ray (default: one per CPU)")
    s.add_argument("--out", default="sim-out", metavar="DIR", help="the folder for the results (default: sim-out)")
    _backend_options(s)
    s.set_defaults(func=cmd_sim)

    bl = sub.add_parser("balance", help="calibrate a scenario: one side against each AI level and personality, "
                        "and whether the sides are fair")
    bl.add_argument("scenario", nargs="?", help="scenario YAML (default: the default scenario)")
    bl.add_argument("--side", help="the side measured (default: the scenario's first)")
    bl.add_argument("--ai", default="utility", help="the side's AI, and every side's in the mirror (default: utility)")
    bl.add_argument("--vs", default="", help="comma-separated opponent AIs (default: utility:easy, utility:normal, "
                    "utility:hard, utility:aggressive, utility:cautious)")
    bl.add_argument("--target", type=float, default=0.5, help="the side's win rate wanted (default: 0.5)")
    bl.add_argument("--battles", type=COUNT, default=BALANCE_BATTLES,
                    help=f"battles per opponent and in the mirror (default: {BALANCE_BATTLES})")
    bl.add_argument("--seed", type=SEED, default=1, help="first seed (default: 1)")
    bl.add_argument("--workers", type=_whole(0, 1024, "0: one per CPU"), default=0,
                    help="processes, or Ray CPUs for a local Ray (default: one per CPU)")
    _backend_options(bl)
    bl.set_defaults(func=cmd_balance)

    helps = {"watch": "watch an AI-vs-AI battle on the board (the default command)",
             "play": "play a battle on the board against the AI (or --hotseat)",
             "menu": "the board's start menu: pick a scenario, options, sides and seed"}
    for name, text in helps.items():
        w = sub.add_parser(name, help=text)
        if name == "menu":
            w.add_argument("scenario", nargs="?", help="a scenario file to open in the menu, from anywhere "
                           "(kept under recent files), or a folder: its scenarios (and its subfolders') are listed "
                           "(kept in the settings)")
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
