"""Action classes, action speeds and combining (R-5.3–R-5.6)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from skirmish.core.frozen import quick_init
from skirmish.rules.equipment import Speed

AttackMode = Literal["snap", "prepared", "aimed"]
ATTACK_MODES: tuple[str, ...] = ("snap", "prepared", "aimed")
MAX_ACTIONS = 3  # at most three actions plus one free


class TimingError(ValueError):
    """A turn whose actions the declared speed does not allow; the message names the rule."""


def assault_speed(weapon_speed: Speed, mode: str) -> int:
    """Speed rank of an attack alone (assault, R-5.4): prepared at weapon speed, aimed one slower,
    snap one faster (never faster than FAST); SLOW weapons fire prepared only."""
    if weapon_speed == Speed.SLOW and mode != "prepared":
        raise TimingError("R-5.4: a SLOW weapon can only make prepared attacks")
    if mode == "prepared":
        return int(weapon_speed)
    if mode == "aimed":
        return weapon_speed.slower()
    return int(weapon_speed.faster())


def engage_speed(weapon_speed: Speed, mode: str) -> int:
    """Speed rank of move + attack (engage, R-5.4): prepared or aimed one slower, snap at weapon speed."""
    if weapon_speed == Speed.SLOW:
        raise TimingError("R-5.4: SLOW weapons cannot be used while moving (engage)")
    if mode == "snap":
        return int(weapon_speed)
    return weapon_speed.slower()


def combined_speed(parts: list[int]) -> int:
    """Speed rank of a turn's actions (R-5.5): one alone keeps its speed; several take one slower
    than the slowest; a SLOW action combines with nothing; at most three actions."""
    if not parts:
        return int(Speed.FAST)
    if len(parts) > MAX_ACTIONS:
        raise TimingError(f"R-5.5: at most {MAX_ACTIONS} actions can be combined (plus one free)")
    if len(parts) == 1:
        return parts[0]
    if max(parts) >= int(Speed.SLOW):
        raise TimingError("R-5.5: a SLOW action combines with nothing")
    return max(parts) + 1


@quick_init  # made several times a decision (core/frozen.py)
@dataclass(frozen=True)
class Part:
    """One action of a turn for timing purposes."""

    kind: Literal["move", "attack", "aim", "reload", "free", "ready", "charge", "skill"]  # ready: a NORMAL-or-slower
    # action of its own speed (a bulky melee weapon readied, breaking free, rising, R-7); charge;
    # skill: an auxiliary action
    speed: int = 1  # rank for move/aim/reload; for attacks the weapon speed
    mode: str = "prepared"  # attacks only
    running: bool = False  # moves only
    weapon: str = ""  # attacks only: the weapon fired
    rof: int = 1  # attacks only: the weapon's rate of fire, shots per action
    shots: int = 1  # attacks only: shots this action has fired


def add_part(parts: list[Part], part: Part) -> list[Part]:
    """The turn's parts after one more: a shot right after another of the same weapon and mode is part of
    the same attack action while the weapon's rate of fire allows (R-6.3), so it costs no extra time; a part
    of several shots (a double tap: 2, R-6.12) joins only if all of them fit."""
    last = parts[-1] if parts else None
    if (part.kind == "attack" and last is not None and last.kind == "attack" and part.weapon
            and last.weapon == part.weapon and last.mode == part.mode and last.shots + part.shots <= last.rof):
        return [*parts[:-1], replace(last, shots=last.shots + part.shots)]
    return [*parts, part]


def turn_speed(parts: list[Part]) -> int:
    """Speed rank of a whole turn: one move and one attack pair up as an engage (R-5.4, R-5.5)."""
    free = [p for p in parts if p.kind == "free"]
    if len(free) > 1:
        # A further free action counts as FAST.
        parts = [p for p in parts if p.kind != "free"] + [Part("aim", int(Speed.FAST))] * (len(free) - 1)
    else:
        parts = [p for p in parts if p.kind != "free"]
    charges = [p for p in parts if p.kind == "charge"]
    if charges:  # a charge moves and attacks at once, at the attack's speed, and combines with nothing
        if len(parts) > 1:
            raise TimingError("R-5.4: a charge combines with nothing")
        if charges[0].speed >= int(Speed.SLOW):
            raise TimingError("R-5.4: no SLOW attacks in a charge")
        return charges[0].speed
    moves = [p for p in parts if p.kind == "move"]
    attacks = [p for p in parts if p.kind == "attack"]
    ranks: list[int] = []
    paired = False
    if moves and attacks:
        ranks.append(engage_speed(Speed(attacks[0].speed), attacks[0].mode))
        paired = True
    rest_moves = moves[1:] if paired else moves
    rest_attacks = attacks[1:] if paired else attacks
    ranks += [int(Speed.FAST) if m.running else int(Speed.NORMAL) for m in rest_moves]
    ranks += [assault_speed(Speed(a.speed), a.mode) for a in rest_attacks]
    ranks += [p.speed for p in parts if p.kind in ("aim", "reload", "ready", "skill")]
    return combined_speed(ranks)


TURNS_KEPT = 4096  # `check_turn`'s answers kept (a few dozen turns come up in a battle) before they start again
_turns: dict[tuple[Speed, tuple[Part, ...]], str | None] = {}


def check_turn(declared: Speed, parts: list[Part]) -> None:
    """Refuse a turn slower than the declared speed (R-5.3) or beyond SLOW (R-5.5), or one that attacks
    beside an auxiliary action (R-5.4: an auxiliary action makes no attacks).

    The answer (None, or the refusal's text) reads only the declaration and the parts (frozen values), so it is
    kept by them: the legal lists and the systems ask the same few turns over and over."""
    key = (declared, tuple(parts))
    if key in _turns:
        refusal = _turns[key]
    else:
        try:
            _check_turn(declared, parts)
            refusal = None
        except TimingError as exc:
            refusal = str(exc)
        if len(_turns) >= TURNS_KEPT:
            _turns.clear()
        _turns[key] = refusal
    if refusal is not None:
        raise TimingError(refusal)


def _check_turn(declared: Speed, parts: list[Part]) -> None:
    """`check_turn`, worked out."""
    if any(p.kind == "skill" for p in parts) and any(p.kind == "attack" for p in parts):
        raise TimingError("R-5.4: an auxiliary action (a psychological contest) makes no attacks in the same turn")
    rank = turn_speed(parts)
    if rank > int(Speed.SLOW):
        raise TimingError("R-5.5: these actions together would be slower than SLOW")
    if rank > int(declared):
        raise TimingError(
            f"R-5.3: these actions together are {Speed(rank).label.upper()}, "
            f"slower than the declared {declared.label.upper()}"
        )


def declared_speed(declared: str | None) -> Speed:
    """The speed a declaration holds a turn to: DODGE resolves as NORMAL (R-5.2); none yet counts as NORMAL."""
    return Speed.NORMAL if declared in (None, "dodge") else Speed.parse(declared)


def fits(declared: str | None, parts: list[Part]) -> bool:
    """True if the parts make a turn the declaration allows (R-5.3, R-5.5)."""
    try:
        check_turn(declared_speed(declared), parts)
    except TimingError:
        return False
    return True


def walk_m(dex_sides: int) -> float:
    """Walking allowance per action in metres: the Dexterity die's sides (R-5.6)."""
    return float(dex_sides)


def run_m(dex_sides: int) -> float:
    """Running allowance: twice the walk (R-5.6)."""
    return 2.0 * dex_sides
