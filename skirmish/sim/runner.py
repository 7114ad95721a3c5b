"""A batch from files to files: load the scenarios (a bad one reported and skipped), play their battles on a
backend, and write battles.csv, summary.json and the plots into a folder, all of them or none."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Mapping, Sequence
from contextlib import ExitStack, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from skirmish.fileio import OutputError, atomic_path, check_output
from skirmish.sim import plots, stats
from skirmish.sim.backend import map_jobs
from skirmish.sim.batch import OWN, BattleRow, plan, play_battle, write_rows

EVERY_SIDE = "*"  # `--ai AI` without a side: every side of every scenario


@dataclass(frozen=True)
class Entry:
    """A scenario that loaded: its file (absolute, for the workers), its label (`stable_name`), each side's AI
    override ("" for the scenario's own) and its map for the heat map."""

    path: str
    label: str
    sides: tuple[str, ...]
    overrides: tuple[str, ...]
    info: stats.MapInfo


def parse_ais(values: Sequence[str]) -> dict[str, str]:
    """{side: AI} from `--ai SIDE=AI` values (`AI` alone: every side); ValueError naming a malformed one."""
    out: dict[str, str] = {}
    for item in values:
        side, sep, spec = item.partition("=")
        if not sep:
            side, spec = EVERY_SIDE, item
        if not side.strip() or not spec.strip():
            raise ValueError(f"--ai {item!r}: expected SIDE=AI (or AI for every side)")
        out[side.strip()] = spec.strip()
    return out


def stable_name(path: Path) -> str:
    """The name battles.csv and summary.json give a scenario file, the same from whatever folder the run starts
    (docs/SIM.md): its path under the repo's scenarios/ (`training/first_steps.yaml`), else its file name and the
    first 8 hex digits of the SHA-256 of its bytes (`drill.yaml#1a2b3c4d`)."""
    from skirmish.content.scenario import SCENARIOS_DIR

    real = path.resolve()
    try:
        return real.relative_to(SCENARIOS_DIR.resolve()).as_posix()
    except ValueError:
        return f"{real.name}#{hashlib.sha256(real.read_bytes()).hexdigest()[:8]}"


def load(files: Sequence[str], ais: Mapping[str, str]) -> tuple[list[Entry], list[str]]:
    """The scenarios that load, each with its sides' AIs checked against its ruleset, and one message per
    file that does not (naming the file and key, or the `--ai` its ruleset has not)."""
    from skirmish.ai.controllers import make_ai
    from skirmish.content.errors import ContentError
    from skirmish.content.scenario import load_scenario

    entries: list[Entry] = []
    failed: list[str] = []
    seen: set[Path] = set()
    for name in files:
        if Path(name).resolve() in seen:  # named twice: played once
            continue
        seen.add(Path(name).resolve())
        try:
            sc = load_scenario(Path(name))
        except ContentError as exc:
            failed.append(exc.text)
            continue
        except OSError as exc:
            failed.append(f"{name}: {exc.strerror or exc}")
            continue
        sides = [s.name for s in sc.spec.sides]
        overrides = tuple(ais.get(s, ais.get(EVERY_SIDE, OWN)) for s in sides)
        try:
            for spec in {o for o in overrides if o}:
                make_ai(spec, sc.spec.ruleset)
        except ValueError as exc:
            failed.append(f"{name}: --ai: {exc}")
            continue
        grid = sc.grid
        walls = tuple((int(x), int(y)) for y, x in zip(*(grid.move_cost == 0).nonzero(), strict=True))
        info = stats.MapInfo(grid.name, grid.width, grid.height, walls)
        try:
            label = stable_name(Path(name))
        except OSError as exc:
            failed.append(f"{name}: {exc.strerror or exc}")
            continue
        if any(e.label == label for e in entries):  # the same text under the same name elsewhere: played once
            continue
        entries.append(Entry(str(Path(name).resolve()), label, tuple(sides), overrides, info))
    return entries, failed


def unknown_sides(entries: Sequence[Entry], ais: Mapping[str, str]) -> list[str]:
    """The sides named by `--ai` that no loaded scenario has."""
    known = {s for e in entries for s in e.sides}
    return [s for s in ais if s != EVERY_SIDE and s not in known]


def run(entries: Sequence[Entry], battles: int, first_seed: int = 1, *, workers: int = 1, backend: str = "local",
        address: str | None = None, progress: Callable[[int, int], None] | None = None) -> list[BattleRow]:
    """Every scenario's battles, seeds `first_seed` .. `first_seed + battles - 1`, in that order."""
    jobs = plan([(e.path, e.label) for e in entries], {e.path: e.overrides for e in entries}, battles, first_seed)
    return map_jobs(play_battle, jobs, workers, progress, backend=backend, address=address)


def check_folder(folder: str, names: Sequence[str] = ()) -> Path:
    """An output folder, checked before any battle: an existing folder where files can be made, none of `names`
    (default: FILES) a folder in it, or a new one whose parent exists (made when the results are written).
    OutputError naming it otherwise."""
    p = Path(folder)
    if not folder:
        raise OutputError("--out: an empty folder name")
    if p.exists() and not p.is_dir():
        raise OutputError(f"{folder}: is a file; expected a folder")
    if p.is_dir():
        for name in names or FILES:
            check_output(p / name)
    else:
        parent = p.parent
        if not parent.is_dir():
            raise OutputError(f"{folder}: folder {os.fspath(parent) or '.'} does not exist")
        check_output(p)  # a file can be made there, so the folder can be
    return p


FILES = ("battles.csv", "summary.json", "win_rates.png", "lengths.png", "casualties.png")
HEAT_MAP_PREFIX = "fallen-"  # with .png: the heat maps, the only other files sim writes (and clears) in --out


def outputs(entries: Sequence[Entry]) -> list[str]:
    """The files a batch of these scenarios writes: FILES and a heat map per scenario."""
    return [*FILES, *plots.heat_map_names([e.label for e in entries])]


def write(folder: Path, rows: Sequence[BattleRow], entries: Sequence[Entry]) -> list[Path]:
    """battles.csv, summary.json, the three plots and a heat map per scenario into `folder` (made if new): each
    drawn to a temporary file beside its target and all renamed into place at the end, or none if anything
    fails. Returns the files written."""
    summary = stats.summarise(rows, {e.label: e.info for e in entries})
    made = not folder.exists()
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{folder}: cannot make the folder: {exc.strerror or exc}") from None
    targets = [folder / name for name in outputs(entries)]
    try:
        _write(targets, summary, rows, entries)
    except BaseException:
        if made:  # a folder made here for the results goes with them
            with suppress(OSError):
                folder.rmdir()
        raise
    for old in folder.glob(f"{HEAT_MAP_PREFIX}*.png"):  # an earlier result's heat maps, sim's own: gone with it
        if old not in targets and old.is_file():
            with suppress(OSError):
                old.unlink()
    return targets


def _write(targets: Sequence[Path], summary: Mapping[str, Any], rows: Sequence[BattleRow],
           entries: Sequence[Entry]) -> None:
    for target in targets:  # none is a folder, before any is replaced
        check_output(target)
    with ExitStack() as stack:
        tmp = [stack.enter_context(atomic_path(t)) for t in targets]
        with open(tmp[0], "w", encoding="utf-8", newline="") as f:
            write_rows(rows, f)
        tmp[1].write_text(stats.to_json(summary), encoding="utf-8")
        plots.win_rates(summary, tmp[2])
        plots.lengths(summary, tmp[3])
        plots.casualties(summary, tmp[4])
        for i, (entry, scen) in enumerate(zip(entries, summary["scenarios"], strict=True)):
            plots.fallen(scen, entry.info, tmp[5 + i])
