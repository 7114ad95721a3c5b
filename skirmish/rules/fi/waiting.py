"""Waiting (R-5.7): the triggers a combatant may hold its action for, as data, and the words the log uses.

A trigger is the `Wait` action's `trigger` text (`wait U [trigger]`):

    enemy_in_view     the first enemy to come into view (a move ends in sight, or steps into it)
    enemy_moves       an enemy the waiter sees takes a step
    enemy_in_range    an enemy in sight steps within the weapon's first range increment (no range penalty, R-6.1)
    enemy_enters:X,Y  an enemy steps into cell X,Y
    acts:NAME         NAME's turn comes up (an enemy: a Reflex contest decides who goes first, a tie is simultaneous;
                      a friend: the waiter goes right after it)
    preempt:NAME      pre-empting without a trigger: before NAME's turn, a Reflex contest with the waiter at -2; a
                      win goes first, anything else right after NAME's turn (seed 003: "If they win, they may go
                      first. Otherwise, they go after")
    later             delay without a stated circumstance: the waiter is offered a turn after each later turn of the
                      round (it may wait `later` again), and a held wait carries into the next round (FAST)

The first four are *move triggers*: a mover sets them off step by step and the waiter fires at it (a Reflex contest
first). The other three are *turn triggers*: the waiter takes a whole turn at its place in the order.
"""

from __future__ import annotations

from dataclasses import dataclass

from skirmish.rules.geometry import Cell

MOVE_TRIGGERS = ("enemy_in_view", "enemy_moves", "enemy_in_range")  # plain words a mover's step sets off
TURN_TRIGGERS = ("acts", "preempt")  # `word:NAME`
LATER = "later"
KINDS = (*MOVE_TRIGGERS, "enemy_enters", *TURN_TRIGGERS, LATER)
PREEMPT_MOD = -2  # pre-empting without a trigger, a Reflex contest at -2


class TriggerError(ValueError):
    """A trigger text the rules do not know; the message names R-5.7 and what is understood."""


@dataclass(frozen=True)
class Trigger:
    """A parsed trigger: its kind, a cell (`enemy_enters`) or a unit's name (`acts`, `preempt`)."""

    kind: str
    cell: Cell | None = None
    unit: str | None = None

    @property
    def on_move(self) -> bool:
        """A mover's step sets it off (the waiter fires at the mover)."""
        return self.kind in MOVE_TRIGGERS or self.kind == "enemy_enters"

    @property
    def on_turn(self) -> bool:
        """A turn's coming up sets it off (the waiter takes a whole turn)."""
        return self.kind in TURN_TRIGGERS

    def text(self) -> str:
        """The trigger's text form (parse(t.text()) == t)."""
        if self.cell is not None:
            return f"{self.kind}:{self.cell[0]},{self.cell[1]}"
        if self.unit is not None:
            return f"{self.kind}:{self.unit}"
        return self.kind

    def describe(self) -> str:
        """The trigger in words, for the log ("until Kyr-1 acts")."""
        if self.kind == "enemy_in_view":
            return "for an enemy to come into view"
        if self.kind == "enemy_moves":
            return "for an enemy in sight to move"
        if self.kind == "enemy_in_range":
            return "for an enemy within its weapon's range increment"
        if self.kind == "enemy_enters" and self.cell is not None:
            return f"for an enemy to enter {self.cell[0]},{self.cell[1]}"
        if self.kind == "acts":
            return f"for {self.unit} to act"
        if self.kind == "preempt":
            return f"to pre-empt {self.unit} (Reflex contest at {PREEMPT_MOD})"
        return "to act later, after any action it chooses"


def parse(text: str) -> Trigger:
    """The trigger a `wait` names; TriggerError naming R-5.7 and the triggers understood."""
    word, sep, rest = text.partition(":")
    if word in MOVE_TRIGGERS or word == LATER:
        if sep:
            raise TriggerError(f"R-5.7: trigger {word!r} takes no argument (got {text!r})")
        return Trigger(word)
    if word == "enemy_enters":
        try:
            x, y = (int(v) for v in rest.split(","))
        except ValueError:
            raise TriggerError(f"R-5.7: write the cell as enemy_enters:X,Y (got {text!r})") from None
        return Trigger(word, cell=(x, y))
    if word in TURN_TRIGGERS:
        if not rest:
            raise TriggerError(f"R-5.7: name the unit: {word}:NAME (got {text!r})")
        return Trigger(word, unit=rest)
    raise TriggerError(f"R-5.7: unknown trigger {text!r}; understood: enemy_in_view, enemy_moves, enemy_in_range, "
                       "enemy_enters:X,Y, acts:NAME, preempt:NAME, later")


def goes_first(waiter_total: int, other_total: int, waiter_impulse: int, other_impulse: int, *,
               preempt: bool) -> tuple[bool, bool]:
    """(waiter first, simultaneous) of a Reflex contest between a waiter and another (R-5.7, R-3.8): the higher result,
    then the higher impulse; a tie of both is simultaneous for a trigger, but a pre-emption must win outright."""
    if waiter_total != other_total:
        return waiter_total > other_total, False
    if waiter_impulse != other_impulse:
        return waiter_impulse > other_impulse, False
    return (False, False) if preempt else (True, True)


def in_range_increment(distance_m: float, range_inc_m: float) -> bool:
    """True when a target at `distance_m` takes no range penalty (R-6.1: below one full increment)."""
    return distance_m < range_inc_m
