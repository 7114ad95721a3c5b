"""R-7.7 martial arts tables and choices read from data (skirmish.rules.fi.arts holds the types and rules):
`parse_martial_arts` builds the tables from `fi_martial_arts.yaml`'s parsed YAML, `parse_levels` a character's
per-level choices from a scenario. Both raise ArtsError naming the key path. Stdlib only."""

from __future__ import annotations

from typing import Any

from skirmish.rules.fi.arts import (
    LOWERCASE,
    MARKS,
    PLUS_DIE,
    RANGES,
    ArtsError,
    ArtsRules,
    Discipline,
    Effect,
    Element,
    LevelChoice,
    Maneuver,
    MartialArts,
    Technique,
)

SECTIONS = ("rules", "maneuvers", "elements", "effects", "disciplines")


def parse_martial_arts(raw: Any) -> MartialArts:
    """The martial arts tables from parsed YAML; ArtsError naming the key (`disciplines.kung_fu.elements`)."""
    if not isinstance(raw, dict):
        raise ArtsError("", f"expected a mapping with {', '.join(SECTIONS)}")
    for section in SECTIONS:
        if not isinstance(raw.get(section), dict) or not raw[section]:
            raise ArtsError(section, "expected a mapping of id -> entry")
    for section in SECTIONS[1:]:
        _ids(raw[section], section)
    rules = _rules(raw["rules"])
    maneuvers = {m: _maneuver(m, _row(row, f"maneuvers.{m}")) for m, row in raw["maneuvers"].items()}
    elements = {e: _element(e, _row(row, f"elements.{e}"), maneuvers) for e, row in raw["elements"].items()}
    effects = {e: _effect(e, _row(row, f"effects.{e}"), maneuvers) for e, row in raw["effects"].items()}
    if PLUS_DIE not in effects:
        raise ArtsError("effects", f"missing {_q(PLUS_DIE)} (+1 Die, the extra die)")
    disciplines = {d: _discipline(d, _row(row, f"disciplines.{d}"), maneuvers, elements, effects)
                   for d, row in raw["disciplines"].items()}
    return MartialArts(rules, maneuvers, elements, effects, disciplines)


def _q(value: Any) -> str:
    """A value from the file, short, for a message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _ids(table: dict[Any, Any], at: str) -> None:
    for key in table:
        if not isinstance(key, str) or not key.strip():
            raise ArtsError(at, f"expected text ids, got {_q(key)}")


def _known(key: Any, table: Any) -> bool:
    """`key` is a text naming an entry of `table` (a list or mapping from the file is never looked up)."""
    return isinstance(key, str) and key in table


def _row(row: Any, at: str) -> tuple[dict[str, Any], str]:
    if not isinstance(row, dict):
        raise ArtsError(at, "expected a mapping")
    return row, at


def _int(row: dict[str, Any], key: str, at: str, lo: int, hi: int, default: int | None = None) -> int:
    v = row.get(key, default)
    if v is None:
        raise ArtsError(f"{at}.{key}" if at else key, "missing")
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise ArtsError(f"{at}.{key}" if at else key, f"expected a whole number {lo}-{hi}, got {_q(v)}")
    return v


def _str(row: dict[str, Any], key: str, at: str, default: str | None = None) -> str:
    v = row.get(key, default)
    if not isinstance(v, str) or not v.strip():
        raise ArtsError(f"{at}.{key}", f"expected a text, got {_q(v)}")
    return v


def _bool(row: dict[str, Any], key: str, at: str) -> bool:
    v = row.get(key, False)
    if not isinstance(v, bool):
        raise ArtsError(f"{at}.{key}", f"expected true or false, got {_q(v)}")
    return v


def _rules(row: dict[str, Any]) -> ArtsRules:
    at = "rules"
    known = set(ArtsRules.__dataclass_fields__)
    for key in row:
        if key not in known:
            raise ArtsError(f"{at}.{key}", f"unknown rule; expected one of {', '.join(sorted(known))}")
    low = row.get("lowercase_marks", "granted")
    if low not in LOWERCASE:
        raise ArtsError(f"{at}.lowercase_marks", f"expected one of {', '.join(LOWERCASE)}, got {_q(low)}")
    nums = {k: _int(row, k, at, 0 if k != "points_per_level" else 1, 100, getattr(ArtsRules, k))
            for k in known if k != "lowercase_marks"}
    return ArtsRules(lowercase_marks=low, **nums)


def _maneuver(mid: str, row_at: tuple[dict[str, Any], str]) -> Maneuver:
    row, at = row_at
    rng = row.get("range")
    if rng not in RANGES:
        raise ArtsError(f"{at}.range", f"expected one of {', '.join(RANGES)}, got {_q(rng)}")
    loc = row.get("location")
    if loc is not None and not isinstance(loc, str):
        raise ArtsError(f"{at}.location", f"expected a hit location, got {_q(loc)}")
    return Maneuver(mid, _str(row, "short", at), _str(row, "name", at, mid), rng, _bool(row, "damage", at),
                    _bool(row, "falls", at), _bool(row, "prone", at), loc)


def _element(eid: str, row_at: tuple[dict[str, Any], str], maneuvers: dict[str, Maneuver]) -> Element:
    row, at = row_at
    marks = row.get("marks")
    if not isinstance(marks, dict):
        raise ArtsError(f"{at}.marks", "expected a mapping of maneuver -> marks like 'X', 'Xx' or 'x'")
    for m, v in marks.items():
        if not _known(m, maneuvers):
            raise ArtsError(f"{at}.marks.{m}", f"unknown maneuver; expected one of {', '.join(maneuvers)}")
        if not isinstance(v, str) or not v or set(v) - MARKS or len(v) > 4:
            raise ArtsError(f"{at}.marks.{m}", f"expected marks like 'X', 'Xx', 'x' or 'xx', got {_q(v)}")
    return Element(eid, _str(row, "name", at, eid), dict(marks))


def _maneuver_set(row: dict[str, Any], key: str, at: str, maneuvers: dict[str, Maneuver]) -> frozenset[str]:
    v = row.get(key, [])
    if not isinstance(v, list) or any(not _known(m, maneuvers) for m in v):
        raise ArtsError(f"{at}.{key}", f"expected a list of maneuvers ({', '.join(maneuvers)}), got {_q(v)}")
    return frozenset(v)


def _effect(eid: str, row_at: tuple[dict[str, Any], str], maneuvers: dict[str, Maneuver]) -> Effect:
    row, at = row_at
    only, never = (_maneuver_set(row, k, at, maneuvers) for k in ("only", "never"))
    if only & never:
        raise ArtsError(f"{at}.never", "a maneuver is both in `only` and in `never`")
    notes = row.get("notes", "")
    if not isinstance(notes, str):
        raise ArtsError(f"{at}.notes", f"expected a text, got {_q(notes)}")
    return Effect(eid, _str(row, "name", at, eid), _int(row, "cost", at, 0, 50), _int(row, "per_maneuver", at, 1, 10),
                  _int(row, "per_level", at, 0, 10, 0), _maneuver_set(row, "twice_on", at, maneuvers), only, never,
                  _bool(row, "exceeds_threshold", at), notes)


def _discipline(did: str, row_at: tuple[dict[str, Any], str], maneuvers: dict[str, Maneuver],
                elements: dict[str, Element], effects: dict[str, Effect]) -> Discipline:
    row, at = row_at
    els = row.get("elements")
    if not isinstance(els, list) or len(els) < 2 or any(not _known(e, elements) for e in els):
        raise ArtsError(f"{at}.elements", f"expected a list of two or more elements ({', '.join(elements)}), "
                        f"got {_q(els)}")
    techs = row.get("techniques", {})
    if not isinstance(techs, dict):
        raise ArtsError(f"{at}.techniques", "expected a mapping of id -> technique")
    _ids(techs, f"{at}.techniques")
    out = {}
    for tid, t in techs.items():
        trow, tat = _row(t, f"{at}.techniques.{tid}")
        m: Any = trow.get("maneuver")
        if not _known(m, maneuvers):
            raise ArtsError(f"{tat}.maneuver", f"expected one of {', '.join(maneuvers)}, got {_q(m)}")
        effs = trow.get("effects", [])
        if not isinstance(effs, list) or any(not _known(e, effects) or e == PLUS_DIE for e in effs):
            raise ArtsError(f"{tat}.effects", f"expected a list of enhanced effects "
                            f"({', '.join(e for e in effects if e != PLUS_DIE)}), got {_q(effs)}")
        for e in effs:
            eff = effects[e]
            if (eff.only and m not in eff.only) or m in eff.never:
                raise ArtsError(f"{tat}.effects", f"{eff.name} cannot go on {maneuvers[m].name}")
        out[tid] = Technique(tid, _str(trow, "name", tat, tid), m, tuple(effs), _int(trow, "dice", tat, 0, 10, 0),
                             _bool(trow, "basic", tat))
    desc = row.get("description", "")
    if not isinstance(desc, str):
        raise ArtsError(f"{at}.description", f"expected a text, got {_q(desc)}")
    return Discipline(did, _str(row, "name", at, did), tuple(els), out, desc.strip())


def parse_levels(arts: MartialArts, d: Discipline, raw: Any) -> list[LevelChoice]:
    """A character's per-level choices from a scenario (`martial_arts: {<discipline>: [level, …]}`): each level
    `basic` or a mapping of techniques (list), dice / extras / external (maneuver -> count), effects (list of
    `maneuver: effect` mappings). ArtsError with the key path below the list (`[1].dice.hold`: level 2's)."""
    if not isinstance(raw, list) or not raw:
        raise ArtsError("", "expected a list with one entry per level")
    out = []
    for n, lv in enumerate(raw, 1):
        at = f"[{n - 1}]"
        if lv == "basic":
            if not any(t.basic for t in d.techniques.values()):
                raise ArtsError(at, f"{d.name} has no basic maneuvers")
            out.append(LevelChoice(basic=True))
            continue
        if not isinstance(lv, dict):
            raise ArtsError(at, "expected `basic` or a mapping of techniques, dice, extras, effects, external")
        for key in lv:
            if key not in ("techniques", "dice", "extras", "effects", "external"):
                raise ArtsError(f"{at}.{key}", "unknown key; expected techniques, dice, extras, effects, external")
        techs = lv.get("techniques", [])
        if not isinstance(techs, list) or any(not _known(t, d.techniques) for t in techs):
            raise ArtsError(f"{at}.techniques", f"expected a list of {d.name}'s techniques "
                            f"({', '.join(d.techniques) or 'it has none'})")
        counts = [_counts(arts, lv.get(k, {}), f"{at}.{k}") for k in ("dice", "extras", "external")]
        effects = lv.get("effects", [])
        pairs = []
        if not isinstance(effects, list):
            raise ArtsError(f"{at}.effects", "expected a list of `maneuver: effect` mappings")
        for i, item in enumerate(effects, 1):
            if not (isinstance(item, dict) and len(item) == 1):
                raise ArtsError(f"{at}.effects.{i}", "expected one `maneuver: effect` mapping")
            (m, e), = item.items()
            if not _known(m, arts.maneuvers):
                raise ArtsError(f"{at}.effects.{i}", f"unknown maneuver {_q(m)}; expected one of {', '.join(arts.maneuvers)}")
            if not _known(e, arts.effects) or e == PLUS_DIE:
                raise ArtsError(f"{at}.effects.{i}", f"unknown enhanced effect {_q(e)}; expected one of "
                                f"{', '.join(x for x in arts.effects if x != PLUS_DIE)} (+1 Die is `extras`)")
            pairs.append((m, e))
        out.append(LevelChoice(tuple(techs), counts[0], counts[1], tuple(pairs), counts[2]))
    return out


def _counts(arts: MartialArts, raw: Any, at: str) -> dict[str, int]:
    if not isinstance(raw, dict):
        raise ArtsError(at, "expected a mapping of maneuver -> count")
    for m, k in raw.items():
        if not _known(m, arts.maneuvers):
            raise ArtsError(f"{at}.{m}", f"unknown maneuver; expected one of {', '.join(arts.maneuvers)}")
        if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= 10:
            raise ArtsError(f"{at}.{m}", f"expected a whole number 0-10, got {_q(k)}")
    return {m: k for m, k in raw.items() if k}


SKILL_PREFIXES = ("martial arts:", "martial_arts:")


def skill_discipline(skill: str) -> str | None:
    """The discipline a `Martial Arts:<discipline>` skill names (R-2.2), or None for another skill."""
    low = skill.lower()
    for p in SKILL_PREFIXES:
        if low.startswith(p):
            return skill[len(p):].strip()
    return None
