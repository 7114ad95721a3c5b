"""Playing a battle record (docs/RECORDS.md): its scenario rebuilt from the record alone, and its answers fed
to a fresh battle with every state hash checked (replay, resume at any answer, step forward)."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Mapping
from contextlib import suppress
from pathlib import Path

import yaml

from skirmish.battle import Battle, Controller, IllegalAction, consult
from skirmish.content.errors import ContentError, one_line, quote
from skirmish.content.scenario import Scenario, check_text
from skirmish.core.events import Event
from skirmish.record.model import ROLES, Record, SourceFile, tileset_name

DRIFT = "(the record was made by a different engine or was changed)"


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
    names["tileset"] = tileset_name(by_role["map"][1].text) if "map" in by_role else None
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
    deploy = tuple(side for side, who in rec.controllers.items() if who == "human")  # they placed their own
    battle = Battle(scenario, seed=rec.seed, controllers={}, on_event=on_event, hashes=True, deploy=deploy)
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
