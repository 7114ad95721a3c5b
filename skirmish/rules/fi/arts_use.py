"""R-7.7 advanced martial arts in melee: the pure part of using a maneuver (skirmish.rules.fi.arts has the tables,
pools and `use_maneuver`). Which maneuvers the engine binds and how (a blow, a check, a defence), the effects
named in an order (`effects=damage,defense`), the range each maneuver needs, and what +1 Damage and a Block do to
a blow's hits. Stdlib only (core/rules layer); the choices are in docs/RULES-NOTES.md ("martial arts in melee")."""

from __future__ import annotations

from collections.abc import Sequence

from skirmish.rules.fi.arts import PLUS_DAMAGE, PLUS_DEFENSE, TARGET_FALLS, Maneuver
from skirmish.rules.fi.damage import split_damage

# What an order may call an effect: the data's ids and short words.
EFFECT_WORDS = {"damage": PLUS_DAMAGE, "defense": PLUS_DEFENSE, "defence": PLUS_DEFENSE, "falls": TARGET_FALLS,
                PLUS_DAMAGE: PLUS_DAMAGE, PLUS_DEFENSE: PLUS_DEFENSE, TARGET_FALLS: TARGET_FALLS,
                "choke": "choke", "disable": "disable"}
BLOWS = frozenset({"strike_short", "strike_medium", "strike_long", "strike_low", "throw"})  # rolled as a blow
CHECKS = frozenset({"takedown", "disarm"})  # a roll at the blow's TN, no damage
DEFENCES = frozenset({"block"})  # `defend UNIT block`: an active defence on the Block pool
GRIPS = frozenset({"hold", "lift", "lock", "escape"})  # checks that make or break a grip (arts_holds.py)
BOUND = BLOWS | CHECKS | GRIPS
FALL_TN = 5  # seed: "a Vigor test versus a TN based on the height of the fall (5 under most circumstances)"
D6_COLUMN = "II"  # a bust on the fall test: d6 wind (column II is the d6)
LOCATION_CALLED = {"legs": "left_leg"}  # Strike, low "always hits the legs" (docs/RULES-NOTES.md)


def parse_effects(text: str) -> tuple[str, ...]:
    """The effects an order names (`damage,defense`, ids or short words; empty: none), sorted as `use_maneuver`
    takes them. ValueError naming the unknown word."""
    out = []
    for word in (w.strip().lower() for w in text.split(",") if w.strip()):
        if word not in EFFECT_WORDS:
            raise ValueError(f"R-7.7: unknown effect {word!r}; effects are damage, defense, falls, choke, disable")
        out.append(EFFECT_WORDS[word])
    return tuple(sorted(out))


def unbound(m: Maneuver) -> str | None:
    """Why the engine cannot make this maneuver as an attack (None: it can)."""
    if m.id in DEFENCES:
        return f"R-7.7: {m.name} is a defence: `defend UNIT block`"
    if m.id not in BOUND:
        return f"R-7.7: {m.name} is not bound to the melee engine"
    return None


def range_refusal(m: Maneuver, *, closed_in: bool, weapon_defense: int, weapon_name: str,
                  grappling: bool) -> str | None:
    """Why the maneuver's range forbids it now (None: it may), seed "Maneuver Descriptions": close (after a Close or
    within 1 m: always, engaged), reach (about 1 m: not after a Close), long (beyond 1 m, armed with a weapon of
    Defense >= 1: not after a Close), grapple (engaged in grappling: after a Close, or the target is down)."""
    if m.range == "reach" and closed_in:
        return f"R-7.7: {m.name} needs about 1 m; not after a Close"
    if m.range == "long":
        if weapon_defense < 1:
            return f"R-7.7: {m.name} only with a weapon of Defense >= 1; the {weapon_name} has {weapon_defense}"
        if closed_in:
            return f"R-7.7: {m.name} strikes from beyond 1 m; not after a Close"
    if m.range == "grapple" and not grappling:
        return f"R-7.7: {m.name} needs the two engaged in grappling (a Close first, or the target down)"
    return None


def add_damage(hits: Sequence[object], bonus: int, size: int, stun: bool) -> int:
    """+1 Damage (R-7.7): added to the first damaging hit's effect before the wounds are read ("if the extra damage
    does not make a wound it is wind", which the split gives). The bonus added (0 if nothing hit)."""
    for h in hits:
        if getattr(h, "level", "none") != "none" and bonus:
            h.damage += bonus  # type: ignore[attr-defined]
            h.wounds, h.ct = split_damage(h.damage, size, stun)  # type: ignore[attr-defined]
            return bonus
    return 0


def block_hits(hits: Sequence[object], mode: str, size: int, stun: bool) -> None:
    """A Block standing (R-7.7): every hit's damage halved (round down), or cancelled when blocking with a weapon."""
    for h in hits:
        dmg = getattr(h, "damage", 0)
        if dmg:
            h.damage = 0 if mode == "cancel" else dmg // 2  # type: ignore[attr-defined]
            h.wounds, h.ct = split_damage(h.damage, size, stun)  # type: ignore[attr-defined]


def fall_wind(read_cf: bool, total: int, d6: int) -> int:
    """Target falls: the Vigor test against FALL_TN; a failure is 1 wind, a bust d6 (at least 2)."""
    if read_cf:
        return max(2, d6)
    return 0 if total >= FALL_TN else 1


DISARM_TAKES = 2  # seed "Disarm": a raise allows an opposed Strength roll to take the item, two raises take it
RAISE = 5  # one raise per full 5 over the TN


def raises(total: int, tn: int) -> int:
    """The raises of a successful check (R-3.3: one per full 5 over the TN; 0 short of one)."""
    return max(0, (total - tn) // RAISE)
