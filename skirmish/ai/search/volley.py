"""The rest of a turn's fire after one shot, as the timing rules let it run (R-5.3, R-5.5, R-6.2, R-6.3).

`shots_this_turn` counts a shot as often as the declaration allows the same mode again; but the modes of a turn
need not be the same. After a move at SLOW a prepared attack is the turn's last (move, prepared: one slower than
the weapon, R-5.4), while a snap leaves room for two prepared attacks after it, the weapon now readied at the
target (R-6.2: no "not readied" penalty). So the search tier weighs a shot by the longest turn of attacks at the
same target that can follow it (`Weights.mixed`): each further attack prepared where that still fits, else a
snap, as the rounds loaded (R-6.3) and the tacpack's power (R-6.13) allow; of equally long turns, the one with
more prepared attacks. The shots are taken as independent (at least one hit, one kill; harm added up).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from skirmish.ai.estimate import ShotEstimate, estimate_shot, replaced
from skirmish.ecs.view import BattleView, UnitView
from skirmish.rulesets.fi import Part, add_part, fits

MODES = ("prepared", "snap")
MOST = 5  # attacks a turn holds after its first (R-5.5: three actions, each up to two shots of the rate of fire, R-6.3)


@lru_cache(maxsize=4096)
def _follow_up(speed: int, weapon: str, rof: int, declared: str | None, parts: tuple[Part, ...], first: str,
               most: int) -> tuple[str, ...]:
    """The modes of the attacks that can follow a `first`-mode attack in this turn (kept: frozen inputs only)."""
    start = add_part(list(parts), Part("attack", speed, first, weapon=weapon, rof=rof))
    if not fits(declared, start):
        return ()
    # A sequence can follow when the turn fits after each of its attacks: every such sequence, grown attack by attack
    # from the ones that fit (each turn checked once, not once per longer sequence that starts with it).
    attack = {mode: Part("attack", speed, mode, weapon=weapon, rof=rof) for mode in MODES}
    ok: set[tuple[str, ...]] = set()
    level: list[tuple[tuple[str, ...], list[Part]]] = [((), start)]
    for _ in range(min(MOST, most)):
        level = [((*seq, mode), turn) for seq, before in level for mode in MODES
                 for turn in (add_part(before, attack[mode]),) if fits(declared, turn)]
        if not level:
            break
        ok.update(seq for seq, _ in level)
    # The longest, and of those the first with the most prepared attacks in the order of `product`.
    for n in range(min(MOST, most), 0, -1):
        for seq in _ORDER[n]:
            if seq in ok:
                return seq
    return ()


# Each length's sequences of modes in the order they are preferred: more prepared attacks first, else `product`'s.
_ORDER = {n: sorted(product(MODES, repeat=n), key=lambda s: -s.count("prepared")) for n in range(1, MOST + 1)}


def follow_up(me: UnitView, first: str, burst: int) -> tuple[str, ...]:
    """The modes of the attacks this turn still allows after a `first`-mode shot of `burst` (none when the unit
    has no weapon): as many as the rounds loaded and the tacpack's power allow."""
    w = me.weapon
    if w is None:
        return ()
    rounds = me.rounds // max(1, burst) - 1
    if w.energy:
        rounds = min(rounds, me.power_left // max(1, w.shot_power(burst)) - 1)
    if rounds <= 0:
        return ()
    return _follow_up(int(w.speed), w.id, max(1, w.rof), me.declared, tuple(me.turn_parts), first, rounds)


def combined(ests: list[ShotEstimate]) -> ShotEstimate:
    """Several attacks at one target in a turn, taken as independent: the chance of at least one hit, damage and
    kill, and the harm added up (TN and modifier: the first attack's)."""
    miss = dmg = live = 1.0
    for e in ests:
        miss, dmg, live = miss * (1 - e.hit), dmg * (1 - e.damage), live * (1 - e.kill)
    first = ests[0]
    return ShotEstimate(hit=1 - miss, damage=1 - dmg, wounds=sum(e.wounds for e in ests), ct=sum(e.ct for e in ests),
                        kill=1 - live, tn=first.tn, modifier=first.modifier)


def turn_of_fire(view: BattleView, me: UnitView, target: UnitView, first: ShotEstimate, mode: str, burst: int,
                 moved: str) -> ShotEstimate:
    """A shot (`first`, its estimate) and the attacks at the same target the turn allows after it
    (`follow_up`), the weapon then readied at the target (R-6.2)."""
    rest = follow_up(me, mode, burst)
    if not rest:
        return first
    ready = replaced(me, ready_target=target.name)
    ests = [first]
    cache: dict[str, ShotEstimate] = {}
    for m in rest:
        if m not in cache:
            cache[m] = estimate_shot(view, ready, target, mode=m, burst=burst, moved=moved)
        ests.append(cache[m])
    return combined(ests)
