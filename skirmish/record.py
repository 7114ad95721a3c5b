"""Battle records (ARCHITECTURE §5, docs/RECORDS.md): save a battle at any point, replay it, verify it, resume it.

A record holds the scenario text and every file it names (embedded, with their sha256), the ruleset, options and
seed, every answer given to the battle in order (refused ones too, with the AI's reasons) and a state hash after
every round. With the engine's determinism (C-5) that is the whole battle: replaying feeds the recorded answers
to a fresh `Battle` (no AI is asked), and each round's `Battle.state_hash()` must equal the recorded one, so a
changed record or a changed engine is caught at the first round that differs (C-6: one line, exit 2).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Mapping
from contextlib import suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import yaml

from skirmish.battle import Answer, Battle, Controller, IllegalAction, Request, consult
from skirmish.content.errors import MIB, ContentError, check_tree, one_line, quote, read_text
from skirmish.content.scenario import DECK_FILE_LIMIT, SCENARIO_FILE_LIMIT, AsciiMap, Scenario, check_text
from skirmish.content.tiled import MAP_FILE_LIMIT, MAPS_DIR, TILESET, TILESET_FILE_LIMIT
from skirmish.core.events import Event, check_fields
from skirmish.core.jsontypes import ShapeError
from skirmish.fileio import write_text
from skirmish.rules.actions import ActionParseError, parse_action

FORMAT = "skirmish-record"
VERSION = 1
RECORD_FILE_LIMIT = 64 * MIB  # like an event log: the AI traces are most of it
MAX_JSON_DEPTH = 16
MAX_JSON_NODES = 8_000_000  # a 100-round battle of 200 units with every trace stays below this
MAX_ACTION_TEXT = 1000
DRIFT = "(the record was made by a different engine or was changed)"

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


def _made_by() -> str:
    try:
        from importlib.metadata import version

        return f"skirmish {version('skirmish')}"
    except Exception:  # not installed (a source checkout on the path): informational only
        return "skirmish"


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
        source = _tileset_name(map_text)
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


def _tileset_name(map_text: str) -> str | None:
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


# ----------------------------------------------------------------------------------------------------------
# Making and writing a record.


def record_of(battle: Battle, sources: Sources, controllers: Mapping[str, str] | None = None) -> Record:
    """The record of `battle` as it stands now (finished or not): every answer given so far, the state hash
    of every finished round and of the present state."""
    if not battle.hashes:
        raise ValueError("a record needs the battle's round hashes: create it with Battle(..., hashes=True)")
    answers = tuple(battle.answers)
    for i, a in enumerate(answers):
        text = str(a.action)
        try:
            back = parse_action(text)
        except ActionParseError:
            back = None
        if back != a.action:  # a programming error: an action whose text form does not round-trip (STYLE 3)
            raise ValueError(f"answer {i}: {text!r} does not read back as the action given ({a.action!r})")
    spec = battle.scenario.spec
    counts = _round_ends(battle)
    rounds = tuple(Checkpoint(n + 1, counts[n], h) for n, h in enumerate(battle.round_hashes))
    labels = dict(controllers) if controllers is not None else {
        side: type(ctrl).__name__ for side, ctrl in battle.controllers.items()}
    return Record(
        label="", sources=sources, ruleset=spec.ruleset, options=spec.options.model_dump(), seed=battle.seed,
        controllers=labels, answers=answers, rounds=rounds,
        final=Checkpoint(0, len(answers), battle.state_hash()),
        result=battle.outcome.summary() if battle.outcome else None, made_by=_made_by(),
    )


def _round_ends(battle: Battle) -> list[int]:
    """How many answers had been given when each round ended: the answer that ends a round's last turn is the
    last answer of its round, so round n ends before the first answer of round n + 1 (or of none: the end)."""
    ends: list[int] = []
    for i, a in enumerate(battle.answers):
        while len(ends) < len(battle.round_hashes) and a.round > len(ends) + 1:
            ends.append(i)
    while len(ends) < len(battle.round_hashes):
        ends.append(len(battle.answers))
    return ends


def to_text(rec: Record) -> str:
    """The record as JSON text: one key a line, one answer a line (docs/RECORDS.md)."""

    def dump(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))

    def answer(a: Answer) -> dict[str, Any]:
        req = a.request
        out: dict[str, Any] = {"round": a.round, "phase": a.phase, "kind": req.kind, "unit": req.unit,
                               "side": req.side, "action": str(a.action)}
        if a.trace is not None:
            out["trace"] = a.trace
        if a.direct:
            out["direct"] = True
        return out

    files = []
    for f in rec.sources.files:
        entry: dict[str, Any] = {"role": f.role, "name": f.name}
        if f.map is not None:
            entry["map"] = f.map
        entry.update(sha256=f.sha256, text=f.text)
        files.append(entry)
    head: dict[str, Any] = {
        "format": FORMAT, "version": VERSION, "made_by": rec.made_by,
        "scenario": {"file": rec.sources.file, "sha256": rec.sources.sha256, "text": rec.sources.text},
        "ruleset": rec.ruleset, "options": rec.options, "seed": rec.seed, "controllers": rec.controllers,
        "result": rec.result,
        "final": {"answers": rec.final.answers, "state": rec.final.state},
    }
    lines = [f" {dump(k)}: {dump(v)}," for k, v in head.items()]
    lines.append(' "files": [' + ",".join("\n  " + dump(f) for f in files) + ("\n ]," if files else "],"))
    lines.append(' "rounds": [' + ",".join("\n  " + dump({"round": c.round, "answers": c.answers, "state": c.state})
                                          for c in rec.rounds) + ("\n ]," if rec.rounds else "],"))
    lines.append(' "answers": [' + ",".join("\n  " + dump(answer(a)) for a in rec.answers)
                 + ("\n ]" if rec.answers else "]"))
    return "{\n" + "\n".join(lines) + "\n}\n"


def save(battle: Battle, path: str | os.PathLike[str], sources: Sources | None = None,
         controllers: Mapping[str, str] | None = None) -> Record:
    """Write the record of `battle` as it stands (mid-round too) to `path`, whole or not at all (skirmish.fileio;
    OutputError names the path). `sources`: from `capture` when the battle was loaded (best: the files as they
    were played); by default the scenario file `battle.scenario.source` and its files are read now.
    `controllers`: who played each side, informational (default: the controllers' class names). Returns the
    record written."""
    if sources is None:
        sources = capture(battle.scenario, battle.scenario.source)
    rec = record_of(battle, sources, controllers)
    write_text(path, to_text(rec))
    return replace(rec, label=one_line(os.fspath(path)))


# ----------------------------------------------------------------------------------------------------------
# Reading a record: every value checked, errors naming the file and the key path (C-6).


class _Reader:
    """Typed access to a parsed record; each getter raises ContentError naming the key path."""

    def __init__(self, label: str) -> None:
        self.label = label

    def fail(self, where: str, message: str) -> ContentError:
        return ContentError(self.label, where, message)

    def obj(self, value: Any, where: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(where, f"expected an object with {', '.join(keys)}, got {quote(value)}")
        for k in keys:
            if k not in value:
                raise self.fail(f"{where}.{k}" if where else k, "required key is missing")
        for k in value:
            if k not in keys and k not in optional:
                raise self.fail(f"{where}.{k}" if where else k, "unknown key")
        return value

    def text(self, value: Any, where: str, limit: int | None = None, what: str = "text") -> str:
        if not isinstance(value, str) or (limit is not None and len(value) > limit):
            size = f" of at most {limit} characters" if limit is not None else ""
            raise self.fail(where, f"expected {what}{size}, got {quote(value)}")
        return value

    def integer(self, value: Any, where: str, lo: int, hi: int) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(where, f"expected an integer {lo}-{hi}, got {quote(value)}")
        return value

    def array(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, f"expected a list, got {quote(value)}")
        return value

    def sha(self, value: Any, where: str) -> str:
        text = self.text(value, where, 64, "a sha256 in hex")
        if len(text) != 64 or any(c not in "0123456789abcdef" for c in text):
            raise self.fail(where, f"expected a sha256 in hex (64 characters 0-9a-f), got {quote(text)}")
        return text


_TOP = ("format", "version", "scenario", "files", "ruleset", "options", "seed", "controllers", "answers", "rounds",
        "final", "result")


def parse(text: str, label: str) -> Record:
    """Read a record's JSON text; ContentError (one line naming `label` and the key path) if it is damaged."""
    r = _Reader(label)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise r.fail(f"line {exc.lineno}", f"not valid JSON: {exc.msg}") from None
    except RecursionError:
        raise r.fail("", f"not valid JSON: nested deeper than {MAX_JSON_DEPTH} levels") from None
    except ValueError:
        raise r.fail("", "not valid JSON: a number with too many digits") from None
    _check_tree(raw, label)
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        got = raw.get("format") if isinstance(raw, dict) else raw
        raise r.fail("format" if isinstance(raw, dict) else "", f"expected a {FORMAT} file, got {quote(got)}")
    doc = r.obj(raw, "", _TOP, ("made_by",))
    version = r.integer(doc["version"], "version", 1, 1_000_000)
    if version != VERSION:
        raise r.fail("version", f"this skirmish reads version {VERSION} records, got version {version}")
    sc = r.obj(doc["scenario"], "scenario", ("file", "sha256", "text"))
    scenario_text = r.text(sc["text"], "scenario.text", SCENARIO_FILE_LIMIT)
    files = []
    for i, f in enumerate(r.array(doc["files"], "files")):
        where = f"files[{i}]"
        f = r.obj(f, where, ("role", "name", "sha256", "text"), ("map",))
        role = f["role"]
        if role not in ROLES:
            raise r.fail(f"{where}.role", f"expected one of {', '.join(ROLES)}, got {quote(role)}")
        name = r.text(f["name"], f"{where}.name", 255, "a file name")
        source = SourceFile(role, name, r.text(f["text"], f"{where}.text", RECORD_FILE_LIMIT),
                            r.text(f["map"], f"{where}.map", 255, "a file name") if "map" in f else None)
        if source.sha256 != r.sha(f["sha256"], f"{where}.sha256"):
            raise r.fail(f"{where}.sha256", f"the embedded {role} {quote(name)} does not match its sha256 (the "
                         "record was changed)")
        files.append(source)
    sources = Sources(r.text(sc["file"], "scenario.file", 4096, "a file name"), scenario_text, tuple(files))
    if sources.sha256 != r.sha(sc["sha256"], "scenario.sha256"):
        raise r.fail("scenario.sha256", "the scenario text does not match its sha256 (the record was changed)")
    options = doc["options"]
    if not isinstance(options, dict):
        raise r.fail("options", f"expected an object of options, got {quote(options)}")
    controllers = doc["controllers"]
    if not isinstance(controllers, dict) or not all(isinstance(v, str) for v in controllers.values()):
        raise r.fail("controllers", f"expected an object of side: controller text, got {quote(controllers)}")
    answers = tuple(_answer(r, a, i) for i, a in enumerate(r.array(doc["answers"], "answers")))
    rounds = []
    for i, c in enumerate(r.array(doc["rounds"], "rounds")):
        where = f"rounds[{i}]"
        c = r.obj(c, where, ("round", "answers", "state"))
        rounds.append(Checkpoint(r.integer(c["round"], f"{where}.round", i + 1, i + 1),
                                 r.integer(c["answers"], f"{where}.answers", 1, len(answers)),
                                 r.sha(c["state"], f"{where}.state")))
    final = r.obj(doc["final"], "final", ("answers", "state"))
    result = doc["result"]
    if result is not None:
        result = r.text(result, "result", 200, "the result line")
    return Record(
        label=label, sources=sources, ruleset=r.text(doc["ruleset"], "ruleset", 16, "a ruleset name"),
        options=options, seed=r.integer(doc["seed"], "seed", 0, 2**63 - 1), controllers=dict(controllers),
        answers=answers, rounds=tuple(rounds),
        final=Checkpoint(0, r.integer(final["answers"], "final.answers", len(answers), len(answers)),
                         r.sha(final["state"], "final.state")),
        result=result, made_by=str(doc.get("made_by", "")),
    )


def _check_tree(raw: Any, label: str) -> None:
    """Bounds (nesting, values) before anything walks the record. Only the embedded files' text may hold line
    breaks and tabs; no other text may hold a control character, a line or paragraph separator or a bidi mark,
    so nothing a trace or an answer holds can break or forge a line of the replayed log."""
    texts = {k: raw[k] for k in ("scenario", "files") if k in raw} if isinstance(raw, dict) else {}
    check_tree(texts, label, max_depth=MAX_JSON_DEPTH, max_nodes=MAX_JSON_NODES)
    rest = {k: v for k, v in raw.items() if k not in texts} if isinstance(raw, dict) else raw
    check_tree(rest, label, max_depth=MAX_JSON_DEPTH, max_nodes=MAX_JSON_NODES, one_line_text=True,
               limits_doc="docs/RECORDS.md")


def _answer(r: _Reader, raw: Any, i: int) -> Answer:
    where = f"answers[{i}]"
    a = r.obj(raw, where, ("round", "phase", "kind", "unit", "side", "action"), ("trace", "direct"))
    phase = a["phase"]
    if phase is not None:
        phase = r.integer(phase, f"{where}.phase", 1, 4)
    kind = a["kind"]
    if kind not in ("declare", "act"):
        raise r.fail(f"{where}.kind", f"expected declare or act, got {quote(kind)}")
    text = r.text(a["action"], f"{where}.action", MAX_ACTION_TEXT, "an action")
    try:
        action = parse_action(text)
    except ActionParseError as exc:
        raise r.fail(f"{where}.action", str(exc)) from None
    trace = a.get("trace")
    if trace is not None and not isinstance(trace, dict):
        raise r.fail(f"{where}.trace", f"expected an object (the AI's reasons), got {quote(trace)}")
    if trace is not None:
        try:  # replayed, it becomes a `decision` event: it must have that event's fields and nothing else
            check_fields("decision", trace, f"{where}.trace")
        except ShapeError as exc:
            raise r.fail(exc.where, exc.message) from None
    direct = a.get("direct", False)
    if not isinstance(direct, bool):
        raise r.fail(f"{where}.direct", f"expected true or false, got {quote(direct)}")
    request = Request(kind, r.text(a["unit"], f"{where}.unit", 64, "a unit name"),
                      r.text(a["side"], f"{where}.side", 64, "a side name"))
    return Answer(request, action, trace, r.integer(a["round"], f"{where}.round", 1, 1_000_000), phase, direct)


def load(path: str | os.PathLike[str]) -> Record:
    """Read a record file with the loaders' bounds (a regular file of at most RECORD_FILE_LIMIT bytes, UTF-8,
    nesting and size checked); ContentError naming the file and the key path if it is damaged."""
    label = one_line(os.fspath(path))
    return parse(read_text(Path(path), label, RECORD_FILE_LIMIT), label)


# ----------------------------------------------------------------------------------------------------------
# Rebuilding the scenario from the record alone.


def scenario_of(rec: Record) -> Scenario:
    """The record's scenario, rebuilt from its embedded text and files only (never the user's files of that
    name), with the recorded options; ContentError naming the record and the key if they do not fit."""
    label = rec.label
    by_role: dict[str, tuple[int, SourceFile]] = {}
    for i, f in enumerate(rec.sources.files):
        if f.role in by_role:
            raise ContentError(label, f"files[{i}].role", f"a second {f.role} (also files[{by_role[f.role][0]}])")
        by_role[f.role] = (i, f)
    _check_names(rec, by_role)
    with tempfile.TemporaryDirectory(prefix="skirmish-record-") as tmp:
        base = _lay_out(Path(tmp), by_role, label)
        scenario, errors = check_text(rec.sources.text, f"{label}: scenario.text", base=base)
    if scenario is None:
        raise errors[0]
    spec = scenario.spec
    if spec.ruleset != rec.ruleset:
        raise ContentError(label, "ruleset", f"the record says {quote(rec.ruleset)}, its scenario {quote(spec.ruleset)}")
    if rec.options != spec.options.model_dump():
        try:
            scenario = scenario.with_options(**rec.options)
        except ContentError as exc:
            raise ContentError(label, exc.where, exc.message) from None
    return scenario


def _check_names(rec: Record, by_role: Mapping[str, tuple[int, SourceFile]]) -> None:
    """The files the scenario and its map name are the files the record holds, by name, before anything is
    loaded: so a record that names other files (an absolute path to one of the user's) never reads them."""
    try:
        raw = yaml.safe_load(rec.sources.text)
    except Exception:  # not YAML: check_text says why, reading nothing
        return
    raw = raw if isinstance(raw, dict) else {}
    deck = raw.get("deck")
    names = {"map": raw.get("map"), "deck": deck.get("cards") if isinstance(deck, dict) else None}
    names = {role: v if isinstance(v, str) else None for role, v in names.items()}
    names["tileset"] = _tileset_name(by_role["map"][1].text) if "map" in by_role else None
    for role in ROLES:
        held = by_role.get(role)
        if names[role] != (held[1].name if held else None):
            where = f"files[{held[0]}].name" if held else "files"
            whose = "the map" if role == "tileset" else "the scenario"
            raise ContentError(rec.label, where, f"{whose} names {role} {quote(names[role])}, the record holds "
                               f"{quote(held[1].name) if held else 'none'}")


def _lay_out(tmp: Path, by_role: Mapping[str, tuple[int, SourceFile]], label: str) -> Path:
    """Write the embedded files into the private folder `tmp` where the loader looks for them by the names
    written (the map and deck beside the scenario, the tileset beside the map); the scenario's folder.

    This stands in for a loader that reads named files from memory (docs/RECORDS.md, "Loading"): nothing but
    these copies is read, and the folder is removed as soon as the scenario is loaded."""
    ups = sum(Path(f.name).parts.count("..") for _, f in by_role.values())
    base = tmp.joinpath(*(["s"] * (ups + 1)))
    places: dict[str, Path] = {}
    for role in ROLES:
        if role not in by_role:
            continue
        i, f = by_role[role]
        folder = places["map"].parent if role == "tileset" and "map" in places else base
        target = Path(os.path.normpath(folder / f.name))
        if Path(f.name).is_absolute() or not target.is_relative_to(tmp) or target == tmp:
            raise ContentError(label, f"files[{i}].name", f"{quote(f.name)}: a file named by an absolute path or "
                               "outside the scenario's folder cannot be replayed from a record yet")
        places[role] = target
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "w", encoding="utf-8", newline="") as out:
                out.write(f.text)
        except (OSError, ValueError) as exc:
            raise ContentError(label, f"files[{i}].name", f"{quote(f.name)} cannot be laid out for loading "
                               f"({getattr(exc, 'strerror', None) or exc})") from None
    base.mkdir(parents=True, exist_ok=True)
    return base


# ----------------------------------------------------------------------------------------------------------
# Replaying: the recorded answers fed to a fresh battle, every state hash checked.


def resume(rec: Record, controllers: Mapping[str, Controller] | None = None, *, answers: int | None = None,
           on_event: Callable[[Event], None] | None = None, catch_up: bool = False,
           scenario: Scenario | None = None) -> Battle:
    """Rebuild the battle by replaying the record's answers (the first `answers` of them, default all),
    checking every round's state hash, and return it ready to continue with `controllers`.

    No AI is asked: answers come from the record. A controller that remembers between decisions (the
    utility AI's momentum within a round, a script's queue of orders) starts fresh, which is exact at a
    round's start for the AIs; `catch_up=True` asks each given controller every recorded request of its
    side again (its answers discarded), so it continues exactly as in an uninterrupted battle from any point
    (at the cost of the AI's thinking time). `scenario`: `scenario_of(rec)` made once, for a viewer that resumes
    the same record often (stepping back). ContentError naming the record and the first round that differs."""
    scenario = scenario or scenario_of(rec)
    upto = len(rec.answers) if answers is None else max(0, min(answers, len(rec.answers)))
    battle = Battle(scenario, seed=rec.seed, controllers={}, on_event=on_event, hashes=True)
    try:
        _replay(battle, rec, upto, controllers if catch_up else None)
    except BaseException:
        battle.close()
        raise
    battle.controllers = dict(controllers or {})
    return battle


def replay(rec: Record, on_event: Callable[[Event], None] | None = None) -> Battle:
    """Replay the whole record and check it all: every round's hash, the state when saved and the result line.
    Returns the battle (its log holds the events); ContentError at the first thing that differs."""
    return resume(rec, on_event=on_event)


def advance(battle: Battle, rec: Record, upto: int) -> None:
    """Feed `battle` (made by `resume` from `rec`) the record's next answers until it has had the first `upto`,
    checked as `resume` checks them (a viewer stepping forward: the events reach `battle.on_event`). Nothing
    happens if it has had them already; ContentError at the first thing that differs."""
    _replay(battle, rec, max(len(battle.answers), min(upto, len(rec.answers))), None)


def _drift(rec: Record, where: str, message: str) -> ContentError:
    return ContentError(rec.label, where, f"{message} {DRIFT}")


def _replay(battle: Battle, rec: Record, upto: int, catch_up: Mapping[str, Controller] | None) -> None:
    """Give `battle` the record's answers from the next it has not had up to `upto`, checking each round."""
    checked = len(battle.round_hashes)  # those were checked when their rounds ended
    for i in range(len(battle.answers), upto):
        a = rec.answers[i]
        req, want = battle.pending, a.request
        if req is None:
            raise _drift(rec, f"answers[{i}]", f"round {a.round}: the battle is over, the record answers on")
        if (req.kind, req.unit, req.side) != (want.kind, want.unit, want.side) or \
                (battle.ctx.round, battle.ctx.phase) != (a.round, a.phase):
            raise _drift(rec, f"answers[{i}]", f"round {a.round} differs: the battle asks {req.unit} ({req.side}) to "
                         f"{req.kind} in round {battle.ctx.round}, the record answers {want.unit} ({want.side})")
        if catch_up is not None and not a.direct and want.side in catch_up:
            consult(catch_up[want.side], battle.observe(want.side), req)  # only to bring its memory up to date
        try:
            if a.direct:
                with suppress(IllegalAction):  # a person's refused action: the refusal is logged, the request stays
                    battle.submit(a.action)
            else:
                battle.answer(req, a.action, a.trace)
        except IllegalAction as exc:
            raise _drift(rec, f"answers[{i}]", f"round {a.round}: the battle refused {str(a.action)!r} and its fallback "
                         f"({one_line(str(exc))[:80]})") from None
        except Exception as exc:  # a forged answer the rules cannot even read: bad input, not a crash (C-6)
            raise ContentError(rec.label, f"answers[{i}].action", f"the battle cannot take {quote(str(a.action))} "
                               f"({type(exc).__name__}: {one_line(str(exc))[:80]})") from None
        checked = _check_rounds(battle, rec, checked, i + 1)
    if upto < len(rec.answers):
        return
    if checked < len(rec.rounds):
        raise _drift(rec, f"rounds[{checked}]", f"the record has a hash for round {checked + 1}, which the replay "
                     "never finished")
    if battle.state_hash() != rec.final.state:
        raise _drift(rec, "final.state", "the state when the record was saved differs")
    got = battle.outcome.summary() if battle.outcome else None
    if got != rec.result:
        raise _drift(rec, "result", f"the replay ends {quote(got)}, the record says {quote(rec.result)}")


def _check_rounds(battle: Battle, rec: Record, checked: int, answered: int) -> int:
    """Check the round hashes the battle made since `checked`; the new count."""
    while checked < len(battle.round_hashes):
        if checked >= len(rec.rounds):
            raise _drift(rec, "rounds", f"the replay finished round {checked + 1}, which the record has no hash for")
        want = rec.rounds[checked]
        if battle.round_hashes[checked] != want.state:
            raise _drift(rec, f"rounds[{checked}]", "state hash differs")
        if want.answers != answered:
            raise _drift(rec, f"rounds[{checked}].answers", f"round {checked + 1} ended after {answered} answers in "
                         f"the replay, after {want.answers} in the record")
        checked += 1
    return checked
