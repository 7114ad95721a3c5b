"""R-7.7 advanced martial arts (option): disciplines as data, the customisation cost calculator and checker,
and a practitioner's maneuver pools (seed 000 "Advanced Martial Arts, Version 1").

The tables (maneuvers, elements with their marks, enhanced effects, the rules' numbers, disciplines) are
`skirmish/data/fi_martial_arts.yaml`, parsed here by `parse_martial_arts` (ArtsError naming the key) and loaded by
skirmish.content.armoury. A character's `Martial Arts:<discipline>` skill level is its number of levels; each level
is a `LevelChoice` (techniques, effect dice, extra dice, enhanced effects, a non-primary maneuver's level).
`price` itemises what each level costs, `check` lists what breaks the rules, `pools` gives the maneuver pools,
and `use_maneuver` is what a melee attack calls: maneuver -> dice pool and the effects used.
Stdlib only (core/rules layer)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

PLUS_DIE = "plus_die"  # the extra die (EE table note B), bought per level as `extras`
PLUS_DAMAGE, PLUS_DEFENSE, TARGET_FALLS = "plus_damage", "plus_defense", "target_falls"
MARKS = frozenset("Xx")
RANGES = ("close", "reach", "long", "grapple")
LOWERCASE = ("granted", "capacity")


class ArtsError(ValueError):
    """Bad martial arts data or choices: `where` is the key path, `message` what was expected."""

    def __init__(self, where: str, message: str) -> None:
        self.where, self.message = where, message
        super().__init__(f"{where}: {message}" if where else message)


@dataclass(frozen=True)
class Maneuver:
    id: str
    short: str
    name: str
    range: str
    damage: bool
    falls: bool = False
    prone: bool = False
    location: str | None = None


@dataclass(frozen=True)
class Element:
    id: str
    name: str
    marks: Mapping[str, str]  # maneuver -> "X", "Xx", "x", "xx" …


@dataclass(frozen=True)
class Effect:
    id: str
    name: str
    cost: int
    per_maneuver: int  # times over all levels (twice_on: 2)
    per_level: int = 0  # times per maneuver in one level (0: no limit but per_maneuver)
    twice_on: frozenset[str] = frozenset()
    only: frozenset[str] = frozenset()
    never: frozenset[str] = frozenset()
    exceeds_threshold: bool = False
    notes: str = ""

    def limit(self, maneuver: str) -> int:
        return max(2, self.per_maneuver) if maneuver in self.twice_on else self.per_maneuver


@dataclass(frozen=True)
class Technique:
    id: str
    name: str
    maneuver: str
    effects: tuple[str, ...]
    dice: int = 0  # the dice the level taking it must have in its maneuver
    basic: bool = False


@dataclass(frozen=True)
class Discipline:
    id: str
    name: str
    elements: tuple[str, ...]
    techniques: Mapping[str, Technique]
    description: str = ""


@dataclass(frozen=True)
class ArtsRules:
    points_per_level: int = 13
    points_per_extra_element: int = 7
    standard_elements: int = 2
    min_effect_dice: int = 6
    pool_threshold: int = 5
    effect_die_cost: int = 1
    external_cost: int = 1
    max_external: int = 1
    lowercase_marks: str = "granted"


@dataclass(frozen=True)
class MartialArts:
    """The martial arts tables."""

    rules: ArtsRules
    maneuvers: Mapping[str, Maneuver]
    elements: Mapping[str, Element]
    effects: Mapping[str, Effect]
    disciplines: Mapping[str, Discipline]

    def discipline(self, name: str) -> Discipline | None:
        """A discipline by id or name (case-insensitive), as a `Martial Arts:<discipline>` skill names it."""
        key = name.strip().lower()
        for d in self.disciplines.values():
            if key in (d.id.lower(), d.name.lower()):
                return d
        return None

    def _marks(self, d: Discipline, letter: str) -> dict[str, int]:
        out: Counter[str] = Counter()
        for e in d.elements:
            for m, marks in self.elements[e].marks.items():
                out[m] += marks.count(letter)
        return {m: out[m] for m in self.maneuvers if out[m]}

    def capacity(self, d: Discipline) -> dict[str, int]:
        """Effect dice a level may buy per maneuver: one per "X" of each element (and per "x" when
        `lowercase_marks` is capacity)."""
        cap = Counter(self._marks(d, "X"))
        if self.rules.lowercase_marks == "capacity":
            cap.update(self._marks(d, "x"))
        return dict(cap)

    def granted(self, d: Discipline) -> dict[str, int]:
        """Dice every level gives free per maneuver: one per "x" (when `lowercase_marks` is granted)."""
        return self._marks(d, "x") if self.rules.lowercase_marks == "granted" else {}

    def primary(self, d: Discipline) -> frozenset[str]:
        """The discipline's primary maneuvers: those any of its elements marks."""
        return frozenset(m for e in d.elements for m in self.elements[e].marks)

    def allowance(self, d: Discipline) -> int:
        """Customisation points per level: 13, plus 7 per element beyond the standard two."""
        extra = max(0, len(d.elements) - self.rules.standard_elements)
        return self.rules.points_per_level + self.rules.points_per_extra_element * extra

    def skill_cost(self, d: Discipline) -> int:
        """What one level of the discipline costs as a skill: 1, plus 1 per element beyond two."""
        return 1 + max(0, len(d.elements) - self.rules.standard_elements)


@dataclass(frozen=True)
class LevelChoice:
    """What a practitioner takes at one level."""

    techniques: tuple[str, ...] = ()
    dice: Mapping[str, int] = field(default_factory=dict)  # effect dice bought per maneuver
    extras: Mapping[str, int] = field(default_factory=dict)  # +1 Die per maneuver
    effects: tuple[tuple[str, str], ...] = ()  # (maneuver, effect) bought outside any technique
    external: Mapping[str, int] = field(default_factory=dict)  # levels in a non-primary maneuver
    basic: bool = False  # the discipline's basic maneuvers (written `basic`)


@dataclass(frozen=True)
class Item:
    """One purchase: what, in which maneuver, its points, and the maneuver's pool after it (dice only)."""

    maneuver: str
    what: str
    points: int
    pool: int | None = None


@dataclass(frozen=True)
class LevelCost:
    level: int
    items: tuple[Item, ...]
    allowance: int
    effect_dice: int  # granted + bought effect dice (the minimum counts these)

    @property
    def total(self) -> int:
        return sum(i.points for i in self.items)


@dataclass(frozen=True)
class Pool:
    """A maneuver's dice and its enhanced effects (ids, repeated when taken twice) at some level."""

    maneuver: str
    dice: int
    effects: tuple[str, ...] = ()


@dataclass(frozen=True)
class ManeuverUse:
    """What a melee attack or defence with a maneuver rolls and adds (R-7.7): the pool's dice (all of them
    always) and one set of its enhanced effects."""

    maneuver: str
    dice: int
    effects: tuple[str, ...]
    damage_bonus: int
    defense_bonus: int
    target_falls: bool
    choke: bool
    disable: bool


# ------------------------------------------------------------------------------------------------------------
# Choices -> costs, problems, pools.


def expand(arts: MartialArts, d: Discipline, lv: LevelChoice) -> LevelChoice:
    """A `basic` level as what it stands for: every basic technique, and the effect dice they list beyond the
    dice the level is granted."""
    if not lv.basic:
        return lv
    basic = [t for t in d.techniques.values() if t.basic]
    need: Counter[str] = Counter()
    for t in basic:
        need[t.maneuver] += t.dice
    granted = arts.granted(d)
    dice = {m: need[m] - granted.get(m, 0) for m in arts.maneuvers if need[m] > granted.get(m, 0)}
    return LevelChoice(tuple(t.id for t in basic), dice, lv.extras, lv.effects, lv.external)


def _effects(d: Discipline, lv: LevelChoice) -> list[tuple[str, str, str]]:
    """(maneuver, effect, bought as) of a level's techniques and its own effects."""
    out = [(d.techniques[t].maneuver, e, d.techniques[t].name) for t in lv.techniques for e in d.techniques[t].effects]
    return out + [(m, e, e) for m, e in lv.effects]


def price(arts: MartialArts, d: Discipline, levels: Sequence[LevelChoice]) -> list[LevelCost]:
    """Each level's purchases in order (granted dice, effect dice, external levels, extra dice, enhanced
    effects, each group in maneuver order) with their points: a die that takes its maneuver's pool above
    `pool_threshold` costs double (seed: Kung Fu's +1 Die in Strike, medium costs 2, then 4 going 5 -> 6)."""
    r, pool, out = arts.rules, Counter[str](), []
    granted = arts.granted(d)
    for n, raw in enumerate(levels, 1):
        lv, items = expand(arts, d, raw), []
        effect_dice = 0
        for m in arts.maneuvers:
            if granted.get(m):
                pool[m] += granted[m]
                effect_dice += granted[m]
                items.append(Item(m, "granted dice", 0, pool[m]))
        for what, bought, cost in (("effect die", lv.dice, r.effect_die_cost), ("external level", lv.external,
                                   r.external_cost), (arts.effects[PLUS_DIE].name, lv.extras,
                                   arts.effects[PLUS_DIE].cost)):
            for m in arts.maneuvers:
                for _ in range(bought.get(m, 0)):
                    pool[m] += 1
                    effect_dice += what != arts.effects[PLUS_DIE].name
                    items.append(Item(m, what, cost * (2 if pool[m] > r.pool_threshold else 1), pool[m]))
        for m, e, src in _effects(d, lv):
            items.append(Item(m, arts.effects[e].name if src == e else f"{src} ({arts.effects[e].name})",
                              arts.effects[e].cost))
        out.append(LevelCost(n, tuple(items), arts.allowance(d), effect_dice))
    return out


def check(arts: MartialArts, d: Discipline, levels: Sequence[LevelChoice]) -> list[tuple[str, str]]:
    """Every way the choices break the customisation rules: (key path below the level list such as `[1].dice.block`
    for level 2's, message)."""
    bad: list[tuple[str, str]] = []
    cap, primary, granted, taken = arts.capacity(d), arts.primary(d), arts.granted(d), Counter[str]()
    used: Counter[tuple[str, str]] = Counter()
    external: set[str] = set()
    level_used: Counter[tuple[int, str, str]] = Counter()
    for cost, raw in zip(price(arts, d, levels), levels, strict=True):
        lv, at, n = expand(arts, d, raw), f"[{cost.level - 1}]", cost.level
        if raw.basic and cost.level != 1:
            bad.append((at, f"level {n}: the basic maneuvers are level 1's"))
        if cost.total > cost.allowance:
            bad.append((at, f"level {n} costs {cost.total} points, above the {cost.allowance} a level of {d.name} gives (R-7.7)"))
        if cost.effect_dice < arts.rules.min_effect_dice:
            bad.append((at, f"level {n} places {cost.effect_dice} effect dice (granted ones included); a level needs at least "
                        f"{arts.rules.min_effect_dice} (R-7.7)"))
        for m, k in lv.dice.items():
            if m not in primary:
                bad.append((f"{at}.dice.{m}", f"{arts.maneuvers[m].name} is not a primary maneuver of {d.name}; "
                            "buy it as an external level"))
            elif k > cap.get(m, 0):
                bad.append((f"{at}.dice.{m}", f"at most {cap.get(m, 0)} effect dice per level in "
                            f"{arts.maneuvers[m].name} for {d.name}, got {k}; more are extra dice (+1 Die)"))
        for m, k in lv.external.items():
            external.add(m)
            if m in primary:
                bad.append((f"{at}.external.{m}", f"{arts.maneuvers[m].name} is a primary maneuver of {d.name}"))
            elif k > 1:
                bad.append((f"{at}.external.{m}", f"one level per level in an external maneuver, got {k}"))
        plus = arts.effects[PLUS_DIE]
        for m, k in lv.extras.items():
            taken[m] += k
            if plus.per_level and k > plus.per_level:
                bad.append((f"{at}.extras.{m}", f"+1 Die at most {plus.per_level} per level per maneuver, got {k}"))
            if taken[m] > plus.limit(m):
                bad.append((f"{at}.extras.{m}", f"+1 Die at most {plus.limit(m)} times in {arts.maneuvers[m].name}"))
        for t in lv.techniques:
            tech = d.techniques[t]
            used[("technique", t)] += 1
            if used[("technique", t)] > 1:
                bad.append((f"{at}.techniques", f"{tech.name} may be taken only once"))
            m = tech.maneuver
            have = granted.get(m, 0) + lv.dice.get(m, 0) + lv.external.get(m, 0) + lv.extras.get(m, 0)
            if have < tech.dice:
                bad.append((f"{at}.techniques", f"{tech.name} needs {tech.dice} dice in "
                            f"{arts.maneuvers[tech.maneuver].name} at this level, got {have}"))
        if lv.effects and d.techniques:
            bad.append((f"{at}.effects", f"{d.name} takes enhanced effects through its techniques "
                        f"({', '.join(d.techniques)})"))
        for m, e, _src in _effects(d, lv):
            eff = arts.effects[e]
            used[(m, e)] += 1
            level_used[(n, m, e)] += 1
            if eff.only and m not in eff.only:
                bad.append((f"{at}.effects", f"{eff.name} only goes on {_names(arts, eff.only)}"))
            elif m in eff.never:
                bad.append((f"{at}.effects", f"{eff.name} never goes on {arts.maneuvers[m].name}"))
            elif eff.per_level and level_used[(n, m, e)] > eff.per_level:
                bad.append((f"{at}.effects", f"{eff.name} at most {eff.per_level} per level on {arts.maneuvers[m].name}"))
            elif used[(m, e)] > eff.limit(m):
                bad.append((f"{at}.effects", f"{eff.name} at most {eff.limit(m)} times on {arts.maneuvers[m].name}"))
    if len(external) > arts.rules.max_external:
        bad.append(("", f"at most {arts.rules.max_external} external maneuver(s), got "
                    f"{_names(arts, frozenset(external))}"))
    return bad


def _names(arts: MartialArts, ms: frozenset[str]) -> str:
    return ", ".join(arts.maneuvers[m].name for m in arts.maneuvers if m in ms)


def pools(arts: MartialArts, d: Discipline, levels: Sequence[LevelChoice]) -> dict[str, Pool]:
    """The maneuver pools after `levels` (a practitioner at level len(levels)), in maneuver order: every
    maneuver with dice or effects (seed: Kayla Argent's two levels of SM Fighting)."""
    dice, effects = Counter[str](), {m: list[str]() for m in arts.maneuvers}
    granted = arts.granted(d)
    for raw in levels:
        lv = expand(arts, d, raw)
        for m in arts.maneuvers:
            dice[m] += granted.get(m, 0) + lv.dice.get(m, 0) + lv.external.get(m, 0) + lv.extras.get(m, 0)
        for m, e, _src in _effects(d, lv):
            effects[m].append(e)
    return {m: Pool(m, dice[m], tuple(sorted(effects[m], key=list(arts.effects).index)))
            for m in arts.maneuvers if dice[m] or effects[m]}


def effect_sets(pool: Pool) -> list[tuple[str, ...]]:
    """The sets of enhanced effects one use of the maneuver may apply: none, or any one of them ("only one set
    of elements can be used at one time, but all dice are always used"); with +1 Damage twice (Chop and
    Roundhouse on Strike, medium) also +1 Damage with any other of its effects (+2 Damage, or +1 Damage and
    +1 Defense)."""
    out: list[tuple[str, ...]] = [()]
    for e in pool.effects:
        if (e,) not in out:
            out.append((e,))
    if pool.effects.count(PLUS_DAMAGE) >= 2:
        rest = list(pool.effects)
        rest.remove(PLUS_DAMAGE)
        for e in rest:
            pair = tuple(sorted((PLUS_DAMAGE, e)))
            if pair not in out:
                out.append(pair)
    return out


def use_maneuver(arts: MartialArts, pools_: Mapping[str, Pool], maneuver: str,
                 effects: Sequence[str] = ()) -> ManeuverUse:
    """What a melee attack (or block, escape …) with `maneuver` rolls: every die of its pool, and `effects`,
    one of `effect_sets` (ValueError naming the maneuver otherwise). A maneuver without dice is not the
    practitioner's: ValueError too (it rolls Fighting instead)."""
    if maneuver not in arts.maneuvers:
        raise ValueError(f"unknown maneuver {maneuver!r}")
    pool = pools_.get(maneuver)
    if pool is None or pool.dice <= 0:
        raise ValueError(f"no dice in {arts.maneuvers[maneuver].name}")
    chosen = tuple(sorted(effects))
    if chosen not in effect_sets(pool):
        offered = "; ".join(", ".join(s) or "none" for s in effect_sets(pool))
        raise ValueError(f"{arts.maneuvers[maneuver].name} may use one of: {offered}; not {', '.join(chosen)}")
    falls = TARGET_FALLS in chosen or arts.maneuvers[maneuver].falls
    return ManeuverUse(maneuver, pool.dice, chosen, chosen.count(PLUS_DAMAGE), chosen.count(PLUS_DEFENSE), falls,
                       "choke" in chosen, "disable" in chosen)


def grapple_defense(level: int, pools_: Mapping[str, Pool]) -> int:
    """Seed, Escape: its dice are added to the Martial Arts level for the opponent's TN to attack with lift,
    hold, lock, throw and takedown."""
    escape = pools_.get("escape")
    return level + (escape.dice if escape else 0)


GRAPPLE_ATTACKS = frozenset({"lift", "hold", "lock", "throw", "takedown"})
