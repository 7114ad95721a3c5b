"""What a battle record holds (docs/RECORDS.md): the scenario as played with every file it names, the
answers and the state hashes; and capturing the scenario's files as the loader found them."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from skirmish.battle import Answer
from skirmish.content.errors import ContentError, quote, read_text
from skirmish.content.limits import DECK_FILE_LIMIT, SCENARIO_FILE_LIMIT
from skirmish.content.scenario import Scenario
from skirmish.content.schema import AsciiMap
from skirmish.content.tiled import MAP_FILE_LIMIT, MAPS_DIR, TILESET, TILESET_FILE_LIMIT

Role = Literal["map", "tileset", "deck"]
ROLES: tuple[Role, ...] = ("map", "tileset", "deck")


def sha256_text(text: str) -> str:
    """The sha256 of a text's UTF-8 bytes, as records give it."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ----------------------------------------------------------------------------------------------------------
# What a record holds.


@dataclass(frozen=True)
class SourceFile:
    """A file the scenario names (its map, the map's tileset, its stacked deck), embedded: `name` as written
    in the scenario (a tileset: as written in the map, `map` naming that map)."""

    role: Role
    name: str
    text: str
    map: str | None = None

    @property
    def sha256(self) -> str:
        """The sha256 of the embedded text."""
        return sha256_text(self.text)


@dataclass(frozen=True)
class Sources:
    """The scenario as played: its text, the file name it was read from (informational) and its files."""

    file: str
    text: str
    files: tuple[SourceFile, ...] = ()

    @property
    def sha256(self) -> str:
        """The sha256 of the scenario text."""
        return sha256_text(self.text)


@dataclass(frozen=True)
class Checkpoint:
    """A state hash: after round `round` (or when the record was saved, `round` 0), after `answers` answers."""

    round: int
    answers: int
    state: str


@dataclass(frozen=True)
class Record:
    """A whole battle record (docs/RECORDS.md). `label` names it in messages (the file name)."""

    label: str
    sources: Sources
    ruleset: str
    options: dict[str, Any]
    seed: int
    controllers: dict[str, str]
    answers: tuple[Answer, ...]  # as Battle.answers holds them
    rounds: tuple[Checkpoint, ...]
    final: Checkpoint
    result: str | None
    made_by: str = ""


# ----------------------------------------------------------------------------------------------------------
# Capturing the scenario's files as the loader found them.


def _resolve(name: str, base: Path, default_dir: Path) -> Path | None:
    """The file a scenario names, found as the loader finds it: beside the scenario, else in `default_dir`."""
    p = Path(name)
    candidates = [p] if p.is_absolute() else [base / p, default_dir / p]
    for cand in candidates:
        try:
            if cand.exists():
                return cand
        except (OSError, ValueError):
            continue
    return None


def capture(scenario: Scenario, path: str | os.PathLike[str], file: str | None = None) -> Sources:
    """Read the text of the scenario file `path` (already loaded as `scenario`) and of every file it names,
    where the loader found them: the Tiled map (beside the scenario, else among the shipped maps), the map's
    tileset (beside the map, else the shipped one the loader used instead) and the stacked deck. `file` is
    the name kept in the record (default: `path` as given). ContentError if a file cannot be read."""
    path = Path(path)
    label = os.fspath(path)
    text = read_text(path, label, SCENARIO_FILE_LIMIT)
    base = path.parent
    files: list[SourceFile] = []
    spec = scenario.spec
    if not isinstance(spec.map, AsciiMap):
        found = _resolve(spec.map, base, MAPS_DIR)
        if found is None:
            raise ContentError(label, "map", f"map file {quote(spec.map)} is no longer there to record")
        map_text = read_text(found, spec.map, MAP_FILE_LIMIT)
        files.append(SourceFile("map", spec.map, map_text))
        source = tileset_name(map_text)
        if source is not None:
            tileset = found.parent / source
            if not _resolve(source, found.parent, found.parent):
                tileset = MAPS_DIR / TILESET  # the loader used the shipped tileset instead (with a warning)
            files.append(SourceFile("tileset", source, read_text(tileset, source, TILESET_FILE_LIMIT), map=spec.map))
    if spec.deck is not None:
        found = _resolve(spec.deck.cards, base, base)
        if found is None:
            raise ContentError(label, "deck.cards", f"deck file {quote(spec.deck.cards)} is no longer there to record")
        files.append(SourceFile("deck", spec.deck.cards, read_text(found, spec.deck.cards, DECK_FILE_LIMIT)))
    return Sources(file if file is not None else label, text, tuple(files))


def tileset_name(map_text: str) -> str | None:
    """The tileset a Tiled map names (its first), as the loader reads it; None if it names none."""
    try:
        raw = json.loads(map_text)
    except (ValueError, RecursionError):
        return None  # the map was loaded a moment ago; a map changed since shows as a replay that differs
    sets = raw.get("tilesets") if isinstance(raw, dict) else None
    first = sets[0] if isinstance(sets, list) and sets else None
    source = first.get("source") if isinstance(first, dict) else None
    return source if isinstance(source, str) and source else None


def controller_labels(scenario: Scenario, overrides: Mapping[str, str] | None = None) -> dict[str, str]:
    """Who controls each side, for the record (informational): `ai:<spec>`, `scripted`, `idle`; `overrides`
    are AI specs given on the command line (`--ai SIDE=AI`)."""
    out = {}
    for side in scenario.spec.sides:
        if overrides and side.name in overrides:
            out[side.name] = f"ai:{overrides[side.name]}"
        else:
            out[side.name] = f"ai:{side.ai}" if side.controller == "ai" else side.controller
    return out
