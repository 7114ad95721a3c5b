"""R-7.7 grapple maneuvers (seed 000 "Maneuver Descriptions", "Choke", "Disable"): Hold, Lift, Lock and Escape, the
choke and the disabling contest, as numbers and small functions. Stdlib only (rules layer); the engine is
skirmish/ecs/systems/fi/holds.py and the choices are in docs/RULES-NOTES.md ("Grapples").

- A *grip* is what a successful Hold (two limbs), Lift (held off the ground) or Lock (one limb) leaves: the holder
  grips the target until the target escapes or breaks free, either is out of action, or the holder moves away.
- Hold and Lift: the holder's next Throw or Takedown at the gripped target is at +3 (seed: "at +3 (if standing)").
- Choke (Hold only): both are prone; the target loses `CHOKE_WIND` (d6, read on the card's effect grid) wind when
  the hold is made and each time the holder keeps choking (the seed's suffocation rules are not in the seeds: wind
  until unconscious, R-8.1's CT 0).
- Disable (Lock only): both are prone; Strength against Strength, the defender's halved (untrained) — +1 to the
  attacker for each further try while the lock persists; a raise (5 over) disables the limb: a serious wound
  (`DISABLE_WOUNDS` wounds with `DISABLE_WIND` wind); the defender winning clears the attacker's bonus, with a raise
  it breaks the lock.
- Escape: a check at the TN of an attack at the holder; success ends the grip; a raise also stands the escaper up
  (or, out of a Lift, it does not fall); out of a Lift without a raise it falls.
"""

from __future__ import annotations

from dataclasses import dataclass

GRIPS = ("hold", "lift", "lock")  # maneuvers that leave a grip
ESCAPE = "escape"
HOLDS = frozenset({*GRIPS, ESCAPE})
GRIP_EFFECTS = {"hold": "choke", "lock": "disable"}  # the effect each grip may carry (the data's `only`)
THROW_BONUS = 3  # seed, Hold: "On next action, may use a throw or takedown maneuver at +3 (if standing)"
FOLLOW_UPS = frozenset({"throw", "takedown"})
RAISE = 5  # one bump per full 5 over
CHOKE_WIND = ("II", 1)  # d6 of wind: the effect grid's column II, row 1
DISABLE_WOUNDS = 1  # "a serious wound (including the associated wind)"
DISABLE_WIND = 3  # R-7.4's 3 CT a wound's worth of wind


@dataclass(frozen=True)
class DisableOutcome:
    """One round of the disabling contest (seed "Disable")."""

    attacker: int  # the attacker's Strength result with its bonus
    defender: int  # the defender's result (halved, or −2 on its own try)
    winner: str  # "attacker" or "defender"
    raise_: bool  # the winner won by RAISE or more
    disabled: bool  # the limb is disabled (the attacker's raise)
    broken: bool  # the lock is broken (the defender's raise)
    bonus_after: int  # the attacker's bonus for its next try


def disable_round(attacker: int, defender: int, bonus: int) -> DisableOutcome:
    """Read one exchange: the attacker's total (bonus included) against the defender's; ties go to the defender
    (the attacker "must succeed"). The attacker's bonus grows by 1 after a win short of a raise, and is cleared when
    the defender wins."""
    if attacker > defender:
        raised = attacker - defender >= RAISE
        return DisableOutcome(attacker, defender, "attacker", raised, raised, False, 0 if raised else bonus + 1)
    raised = defender - attacker >= RAISE
    return DisableOutcome(attacker, defender, "defender", raised, False, raised, 0)


def escape_result(total: int, tn: int, cf: bool) -> tuple[bool, bool]:
    """(escaped, with a raise) of an Escape check at `tn`."""
    if cf or total < tn:
        return False, False
    return True, total >= tn + RAISE


def grip_refusal(maneuver: str, effects: tuple[str, ...], *, actor: str, gripping: str | None, grip: str | None,
                 target: str,
                 target_gripped_by: str | None, actor_gripped_by: str | None, target_down: bool) -> str | None:
    """Why a grip maneuver is refused now (None: allowed): an Escape needs a grip on the actor by the target; a Hold,
    Lift or Lock needs a target no one else grips, an actor not itself gripped, and (Lift) a target on its feet; the
    same maneuver again on the target it grips only continues its choke or disable (so it must carry it)."""
    if maneuver == ESCAPE:
        if actor_gripped_by != target:
            return f"R-7.7: Escape breaks a hold, lift or lock; {target} holds no grip on you"
        return None
    if actor_gripped_by is not None:
        return f"R-7.7: held by {actor_gripped_by}: escape (or break free) first"
    if gripping is not None and gripping != target:
        return f"R-7.7: you hold {gripping}; let go (move away) before gripping {target}"
    if target_gripped_by is not None and target_gripped_by != actor:
        return f"R-7.7: {target} is already held by {target_gripped_by}"
    if gripping == target and grip == maneuver and GRIP_EFFECTS.get(maneuver) not in effects:
        return f"R-7.7: you already {maneuver} {target}; again only to keep up its {GRIP_EFFECTS.get(maneuver, 'grip')}"
    if maneuver == "lift" and target_down:
        return f"R-7.7: {target} is on the ground; Lift takes a standing opponent"
    return None
