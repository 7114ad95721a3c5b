"""Melee (R-7.1–R-7.6): the attack TN, Close, Strength in melee, non-lethal damage, active defence, entangling,
tripping and breaking free. Pure: the numbers known before the draw, and a melee attack put as a shot
(`ShotSetup` over a `Weapon` built from the hand-to-hand weapon), so the hit, the bump pool, the hit location,
armour and ablation and the damage are read by ranged combat's own pieces (`resolve_shot`), never copied.

Where the seed is silent the choices are in docs/RULES-NOTES.md ("Future Imperfect melee (issue 14)")."""

from __future__ import annotations

from dataclasses import dataclass, replace

from skirmish.rules import geometry as geo
from skirmish.rules.checks import COLUMN_NUMBER, Modifier
from skirmish.rules.equipment import Dice, MeleeWeapon, Speed, Weapon
from skirmish.rules.fi.damage import DEAD_AT, HEAD_WOUNDS_KILL
from skirmish.rules.fi.ranged import ShotSetup
from skirmish.rules.fi.shot_numbers import MAX_ROW, called_penalty

BASE_TN = 5  # Fair (5)
CHARGE_PENALTY = -2  # the attack of a charge
NO_RETREAT_PENALTY = -4  # an active defence without moving at least 1 m
DOWN_PENALTY = -2  # a tripped figure fighting from the ground (docs/RULES-NOTES.md)
DOWN_BONUS = 2  # striking a tripped figure on the ground (docs/RULES-NOTES.md)
DEFENCE_SKILLS = ("fighting", "dodge")

UNARMED = MeleeWeapon(id="fists", name="fists", skill="fighting:brawling", speed=Speed.NORMAL, damage=None,
                      reduced=None, pn={}, lethal="nonlethal")


@dataclass(frozen=True)
class Fighter:
    """What the melee rules need of one combatant: size, Strength and Dexterity (column, training), skills, the
    weapon in hand (UNARMED when empty-handed) and whether it is down (tripped)."""

    name: str
    size: int
    strength: tuple[str, int]
    dexterity: tuple[str, int]
    skills: dict[str, int]
    weapon: MeleeWeapon = UNARMED
    down: bool = False


def in_contact(grid: geo.GridMap, a: geo.Cell, b: geo.Cell) -> bool:
    """Whether figures in cells `a` and `b` are within 1 m for hand-to-hand (R-1.3): neighbouring cells (diagonals
    too) that see each other, so a diagonal pair across a closed wall corner is not (fw's contact rule, R-9.2;
    docs/RULES-NOTES.md "Contact across a wall corner")."""
    return geo.adjacent(a, b) and geo.sight(grid, a, b).visible


def fighting_level(f: Fighter) -> tuple[int, str]:
    """The Fighting level a combatant defends with: its skill for what it holds (unarmed: Brawling), else its best
    related Fighting specialisation at −2 (R-3.6), never below 0 (R-7.1). With the skill that gave it."""
    skill = f.weapon.skill
    if skill in f.skills:
        return f.skills[skill], skill
    related = [(lvl, s) for s, lvl in f.skills.items() if s.split(":")[0] == "fighting"]
    if related:
        lvl, s = max(related)
        return max(0, lvl - 2), s
    return 0, skill


def effective_defense(f: Fighter, other: Fighter) -> int:
    """The weapon's Defense plus the size by which the wielder is the bigger (R-7.1: the human with a sword has a
    relative DB of 0 against the unarmed Ursoid, size 7)."""
    return f.weapon.defense + max(0, f.size - other.size)


def longer(a: Fighter, b: Fighter) -> bool:
    """True if `a` holds the longer weapon (R-7.2)."""
    return a.weapon.length > b.weapon.length


def may_close(attacker: Fighter, defender: Fighter) -> str | None:
    """Why `attacker` may not Close on `defender` (None: it may): it needs the shorter weapon or empty hands
    (R-7.2)."""
    if attacker.weapon.length >= defender.weapon.length:
        return (f"R-7.2: Close needs a weapon shorter than {defender.name}'s {defender.weapon.name} (or empty "
                f"hands); {attacker.name} holds {attacker.weapon.name}")
    return None


def attack_tn(attacker: Fighter, defender: Fighter, *, closed: str | None = None, defence: int | None = None,
              dodge: int = 0, base: int = BASE_TN) -> tuple[int, list[Modifier]]:
    """The TN of a melee attack (and of Close, Open, entangle and trip attempts) and its reasons (R-7.1, R-7.2,
    R-7.5). `closed`: who is inside whose guard — "attacker" when the attacker has closed on the defender's longer
    weapon, "defender" when the defender has closed on the attacker's. `defence`: the defender's active defence
    result standing (R-7.5: the TN is the greater). `dodge`: the defender's Dodge level when it declared DODGE
    (R-5.4: attackers' TN + its Dodge level)."""
    level, skill = fighting_level(defender)
    tn_value = base + level
    mods = [Modifier(level, f"{defender.name}'s {skill} {level} with {defender.weapon.name} (R-7.1)")]
    d_def, a_def = effective_defense(defender, attacker), effective_defense(attacker, defender)
    if closed == "attacker":
        pass  # the defender's longer weapon is inside the attacker's reach: its Defense is no help
    elif d_def > a_def:
        tn_value += 1
        mods.append(Modifier(1, f"{defender.name}'s Defense {d_def} beats {a_def} (R-7.1)"))
    if closed == "defender" and attacker.weapon.defense:
        tn_value += attacker.weapon.defense
        mods.append(Modifier(attacker.weapon.defense, f"{defender.name} is inside the {attacker.weapon.name}: its "
                             f"Defense {attacker.weapon.defense} is a penalty (R-7.2)"))
    if dodge:
        tn_value += dodge
        mods.append(Modifier(dodge, f"{defender.name} is dodging (Dodge {dodge}, R-5.4)"))
    if defence is not None and defence > tn_value:
        mods.append(Modifier(defence - tn_value, f"{defender.name}'s active defence {defence} (R-7.5)"))
        tn_value = defence
    return tn_value, mods


def result_modifiers(attacker: Fighter, defender: Fighter, *, charge: bool = False,
                     called: str | None = None) -> list[Modifier]:
    """Modifiers to a melee attack's result: a charge's −2 (R-5.4), a called shot (R-6.1 as the seed says),
    fighting from the ground or striking a figure on it (docs/RULES-NOTES.md)."""
    mods = []
    if charge:
        mods.append(Modifier(CHARGE_PENALTY, "charge: the attack during the move (R-5.4)"))
    if called:
        mods.append(called_penalty(called))
    if attacker.down:
        mods.append(Modifier(DOWN_PENALTY, f"{attacker.name} fights from the ground (R-7.6)"))
    if defender.down:
        mods.append(Modifier(DOWN_BONUS, f"{defender.name} is on the ground (R-7.6)"))
    return mods


@dataclass(frozen=True)
class StrikeNumbers:
    """The damage a hit reads before the card: effect-grid address, reduced damage, PN per armour type, and why
    (R-7.3)."""

    damage: Dice
    reduced: Dice
    pn: dict[str, int]
    notes: tuple[str, ...]


def _col(column: str) -> int:
    return COLUMN_NUMBER[column]


def unarmed_pn(strength_column: str) -> dict[str, int]:
    """R-7.3: unarmed (and Strength-driven) PN is the Strength column against flexible and energy armour, 1 against
    rigid."""
    n = _col(strength_column)
    return {"default": n, "flexible": n, "energy": n, "rigid": 1}


def strike_numbers(attacker: Fighter, level: int, *, strength_ok: bool = True) -> StrikeNumbers:
    """What a hit by `attacker` reads (R-7.3): a Strength-driven weapon reads the Strength column at the Fighting
    level (+ its damage rows); another its own column(row), one row down when Strength column + training reaches
    the weapon's column + row, and PN + 1 when the Strength column reaches the weapon's PN. `strength_ok` False:
    the wielder adds no Strength (its longer weapon has been closed on, R-7.2)."""
    weapon = attacker.weapon
    s_col, s_training = attacker.strength
    notes: list[str] = []
    if weapon.damage is None:
        row = min(MAX_ROW, max(1, level) + weapon.damage_rows)
        damage = Dice(row, s_col)
        reduced = Dice(max(1, row // 2), s_col)
        notes.append(f"Strength {s_col} column at row {row} (R-7.3)")
        return StrikeNumbers(damage, reduced, unarmed_pn(s_col), tuple(notes))
    damage, reduced, pn = weapon.damage, weapon.reduced or weapon.damage, dict(weapon.pn)
    if weapon.strength and strength_ok:
        if _col(s_col) + s_training >= _col(damage.column) + damage.row and damage.row < MAX_ROW:
            damage = Dice(damage.row + 1, damage.column)
            notes.append(f"Strength {s_col}-{s_training} reaches {weapon.damage}: one row down to {damage} (R-7.3)")
        if _col(s_col) >= weapon.pn_against("default"):
            pn = {k: v + 1 for k, v in pn.items()}
            notes.append(f"Strength column {_col(s_col)} >= PN {weapon.pn_against('default')}: PN + 1 (R-7.3)")
    elif weapon.strength:
        notes.append(f"no Strength: the {weapon.name} has been closed on (R-7.2)")
    return StrikeNumbers(damage, reduced, pn, tuple(notes))


def lethal_choice(weapon: MeleeWeapon, asked: str | None) -> bool:
    """Whether the blow deals lethal damage (R-7.4): brawling and stun weapons never do; heavier improvised weapons
    choose before the draw (`asked` "yes"/"no", lethal when not said); other weapons always do. ValueError when the
    weapon has no choice to make."""
    if asked not in (None, "", "yes", "no"):
        raise ValueError(f"R-7.4: lethal is yes or no, not {asked!r}")
    if weapon.lethal == "choose":
        return asked != "no"
    if asked and (asked == "yes") != (weapon.lethal == "lethal"):
        raise ValueError(f"R-7.4: the {weapon.name} is {weapon.lethal}; only heavier improvised weapons choose")
    return weapon.lethal == "lethal"


def as_shot(attacker: Fighter, level: int, column: str, halve: bool, tn_value: int, tn_mods: list[Modifier],
            result_mods: list[Modifier], *, lethal: bool, strength_ok: bool = True, called: str | None = None,
            spends: tuple[str, ...] | None = None) -> tuple[ShotSetup, StrikeNumbers]:
    """A melee attack as a shot for `resolve_shot` (the same check, bump pool, location, armour, ablation and
    damage, R-6.4–R-6.8 as R-7.3 says: "penetration is figured exactly the same"): no cover, no range."""
    numbers = strike_numbers(attacker, level, strength_ok=strength_ok)
    w = attacker.weapon
    weapon = Weapon(
        id=w.id, name=w.name, skill=w.skill, speed=w.speed, range_inc_m=1.0, max_range_m=2.0, damage=numbers.damage,
        reduced=numbers.reduced, pn=numbers.pn, aim_bonus=0, aim_penalty=0, rof=1, bursts=(), magazine=1,
        reload_actions=1, reliability=w.reliability, weapon_class=w.weapon_class if lethal else "stun",
        bulky=w.bulky,
    )
    setup = ShotSetup(weapon=weapon, column=column, row=level, halve=halve, tn=tn_value, tn_mods=tuple(tn_mods),
                      result_mods=tuple(result_mods), distance_m=1.0, called=called, spends=spends)
    return setup, numbers


def nonlethal_wounds(wounds_now: int, hit_wounds: int, location: str) -> int:
    """Wounds a non-lethal hit may give (R-7.4: "never kills outright"): at most to one short of death, and never
    the two head wounds from one hit that kill (R-8.1)."""
    room = max(0, DEAD_AT - 1 - wounds_now)
    allowed = min(hit_wounds, room)
    if location == "head":
        allowed = min(allowed, HEAD_WOUNDS_KILL - 1)
    return allowed


def defence_tn(normal_tn: int, defence: int | None) -> int:
    """R-7.5: the attacker's TN against an active defence is the greater of the normal TN and the defence's result."""
    return normal_tn if defence is None else max(normal_tn, defence)


def defence_modifiers(retreated: bool) -> list[Modifier]:
    """R-7.5: an active defence must move at least 1 m, or take −4."""
    return [] if retreated else [Modifier(NO_RETREAT_PENALTY, "active defence without moving 1 m (R-7.5)")]


def breaks_free_by_strength(total: int, cf: bool, weapon: MeleeWeapon) -> bool:
    """R-7.6: a Strength check reaching the weapon's TN breaks the entanglement (a fragile weapon breaks)."""
    return not cf and total >= weapon.entangle


def with_weapon(f: Fighter, weapon: MeleeWeapon) -> Fighter:
    """The same fighter holding another weapon."""
    return replace(f, weapon=weapon)
