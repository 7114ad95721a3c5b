"""Unintended targets in a battle (R-6.11): the candidates listed before a shot's draw, the rounds that missed
struck into them after it, their events, and the damage applied. The rules are in skirmish.rules.fi.unintended;
FiShooting.shoot calls these three hooks (option `unintended_targets`, on by default)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from skirmish.ecs.components import Health, Identity, Status
from skirmish.ecs.systems.fi.base import _Hits
from skirmish.rules import geometry as geo
from skirmish.rules.fi.ranged import HitResult, ShotOutcome, ShotSetup
from skirmish.rules.fi.ranged_events import UnintendedHitEvent  # noqa: F401  (registers the event type)
from skirmish.rules.fi.unintended import (
    bystander_setup,
    fired_at,
    missed_rounds,
    on_line,
    stray_box,
    stray_hit,
    struck,
)
from skirmish.rules.randomizer import Draw

if TYPE_CHECKING:
    from skirmish.ecs.systems.fi.shooting import FiShooting


@dataclass
class Stray:
    """One unintended hit: the figure struck, its place on the strip, the shot as it reached it, the hit."""

    eid: int
    index: int
    setup: ShotSetup
    hit: HitResult


def listed(sys: FiShooting, eid: int, tgt: int, setup: ShotSetup) -> list[int]:
    """The candidates of a shot from `eid` at `tgt`, nearest first, at most ten; none when the option is off."""
    if not sys.ctx.unintended_targets:
        return []
    w = sys.w
    people = [e for e, _ in w.units() if e != eid and e != tgt and not w.peek(e, Health).dead]
    # `candidates` over the figures' cells (`on_line`: no Figure made for each figure at every shot)
    chosen = on_line(sys.ctx.grid, w.cell(eid), w.cell(tgt), [w.cell(e) for e in people], setup.weapon)
    return [people[i] for i in chosen]


def strays(sys: FiShooting, eid: int, draw: Draw, setup: ShotSetup, out: ShotOutcome, cands: list[int],
           extra: int = 0) -> list[Stray]:
    """The rounds that missed, struck into the candidates (R-6.11), read from the shot's own draw; `extra`
    rounds (a split burst's left over) miss besides. Reads the card's strip only when a round missed and
    someone is listed (a dice draw rolls the card's fields then)."""
    missed = missed_rounds(fired_at(setup), out.hit, out.rounds_hit) + extra
    if not cands or not missed:
        return []
    card = draw.fields
    start = out.hits[0].box if out.hits else card.standard
    w = sys.w
    here = w.cell(eid)
    found = []
    for k, idx in enumerate(struck(card.unintended, len(cands), missed)):
        b = cands[idx]
        there = w.cell(b)
        dist = geo.distance_m(here, there, sys.ctx.grid.cell_m)
        s = bystander_setup(setup, dist, geo.sight(sys.ctx.grid, here, there), w.peek(b, Status).prone)
        found.append(Stray(b, idx, s, stray_hit(draw, s, sys._target_state(b), card, stray_box(start, k))))
    return found


def report(sys: FiShooting, eid: int, draw: Draw, found: list[Stray]) -> None:
    """An `unintended_hit` event for each stray round (before the draw is settled)."""
    for s in found:
        rules = ["R-6.11", "R-4.10"]
        if s.setup.cover != "none":
            rules.append("R-6.6")
        if s.hit.layers:
            rules.append("R-6.7")
        if s.setup.prone_rule:
            rules.append("R-6.5")
        rules.append("R-6.8")
        sys._event("unintended_hit", sys.name(eid), tuple(rules), target=sys.name(s.eid),
                   candidate=s.index + 1, friend=sys.w.peek(s.eid, Identity).side == sys.w.peek(eid, Identity).side,
                   card=draw.fields.number, distance_m=round(s.setup.distance_m, 2), cover=s.setup.cover,
                   location=s.hit.location, damage=s.hit.damage, wounds=s.hit.wounds, ct=s.hit.ct,
                   hits=[s.hit.to_json()])


def apply(sys: FiShooting, found: list[Stray]) -> None:
    """Apply each stray round's armour loss and damage (with its out-of-action and concussion events)."""
    for s in found:
        sys._apply_hits(s.eid, _Hits([s.hit]))
