"""The rest of the round as the side sees it, played out exactly over kill chances (issue 12 item 5, the seventh
session's look-ahead past one exchange).

Once initiative is flipped the view shows every unit's phase and declared speed (R-5.1, R-5.2), so the turns
still to come this round are known in order: later phases, and later within this one (Reflex column, training,
the side listed first). The planner walks those turns as an expectimax over who is still standing: each of our
units, at its turn, fires its declared turn's volley (three prepared attacks when SLOW, R-5.5) at the enemy
that is best for the side from there on (a max node: friends share the work, no overkill, the enemy about to
act first); each enemy fires its volley at the one of us it is likeliest to put down (its smallest burst: its
ammunition is hidden), weighted by how surely it is where the view shows it (`model.presence`). A volley's
outcome is a chance node: the target is put out of action (R-8.1) or not, by the rules' own odds
(`ai.estimate`). The value is the expected difference of units put out of action by the round's end, enemies
less ours. A candidate enters as the acting unit's own kills (`kills`) and where it then stands (`after`).

It reads only the view (no world, no random source), so a battle stays deterministic for its seed (R-10.1).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from skirmish.ai.estimate import estimate_shot
from skirmish.ai.search.order import _order
from skirmish.ecs.view import BattleView, UnitView

MAX_TURNS = 12  # turns walked at most (the states double with each turn that can put a unit down)
VOLLEY = {"slow": 3, "normal": 1, "fast": 1}  # prepared attacks a declared turn allows; DODGE none


def _volley(kill: float, n: int) -> float:
    """The chance that `n` such attacks put the target down (taken as independent)."""
    return 1 - (1 - kill) ** n if n > 1 else kill


def _smallest(u: UnitView) -> int:
    w = u.weapon
    return min(w.bursts) if w is not None and w.bursts else 0


@dataclass
class Plan:
    """The turns still to come this round after the acting unit (`turns`: indices into `units`, in order) and
    each one's volley kill chance at each opponent (`kill[i][j]`); `ours[i]`: unit i is on our side."""

    me: UnitView
    units: list[UnitView]
    ours: list[bool]
    turns: list[int]
    kill: dict[tuple[int, int], float]
    weight: list[float]

    @staticmethod
    def of(view: BattleView, me: UnitView, present: dict[str, float]) -> Plan | None:
        """The plan for `me`'s decision, or None before initiative is flipped or when there is nothing to walk."""
        now = view.phase
        if now is None:
            return None
        try:
            mine = _order(me)
        except KeyError:  # not an FI unit: no turn order to read
            return None
        friends = [f for f in view.friends(me) if not f.out_of_action]
        enemies = [e for e in view.enemies(me) if not e.out_of_action and present.get(e.name, 0.0) > 0]
        units = [me, *friends, *enemies]
        ours = [True] * (1 + len(friends)) + [False] * len(enemies)
        weight = [1.0] * (1 + len(friends)) + [present[e.name] for e in enemies]
        # Within a phase: Reflex column, training, the side listed first, then the entity, which the view's order
        # of units follows: a friend equal to us on all the rest acts after us if it comes later there.
        seat = {u.name: n for n, u in enumerate(view.units)}
        mine = (*mine, seat.get(me.name, 0))
        later: list[tuple[tuple[int, tuple[int, ...]], int]] = []
        for i, u in enumerate(units[1:], start=1):
            if u.hesitating or u.phase is None or u.weapon is None or u.ghost:
                continue
            try:
                k = (*_order(u), seat.get(u.name, 0))
            except KeyError:
                continue
            if u.phase > now or (u.phase == now and k > mine):
                later.append(((u.phase, k), i))
        turns = [i for _, i in sorted(later)][:MAX_TURNS]
        if not turns:
            return None
        kill: dict[tuple[int, int], float] = {}
        for i in turns:
            u, n = units[i], VOLLEY.get(units[i].declared or "slow", 0)
            if n == 0:
                continue
            for j, t in enumerate(units):
                if j == 0 or ours[j] == ours[i]:
                    continue  # the acting unit's own odds are the candidate's (`value`)
                est = estimate_shot(view, u, t, mode="prepared", burst=_smallest(u))
                if est.kill > 0:
                    kill[(i, j)] = _volley(est.kill, n)
        return Plan(me, units, ours, turns, kill, weight)

    def value(self, view: BattleView, after: UnitView, kills: dict[str, float]) -> float:
        """The expected units put out of action by the round's end after the candidate's own turn, enemies less
        ours, when the acting unit stands as `after` and its action puts down each enemy named in `kills` with
        that chance (those kills themselves not counted: they are the exchange's attack)."""
        on_me: dict[int, float] = {}
        for i in self.turns:
            if self.ours[i]:
                continue
            u, n = self.units[i], VOLLEY.get(self.units[i].declared or "slow", 0)
            est = estimate_shot(view, u, after, mode="prepared", burst=_smallest(u)) if n else None
            if est is not None and est.kill > 0:
                on_me[i] = _volley(est.kill, n)
        index = {u.name: j for j, u in enumerate(self.units)}
        full = (1 << len(self.units)) - 1

        def chance(i: int, j: int) -> float:
            p = on_me.get(i, 0.0) if j == 0 else self.kill.get((i, j), 0.0)
            return p * self.weight[i]

        walk = walker(self.turns, self.ours, chance)
        # The candidate's own kills (independent chances, the likeliest three walked; a throw may take several),
        # not counted themselves: the exchange's attack counts them; the plan adds what follows from them.
        outcomes = [(1.0, full, 0.0)]
        for name, k in sorted(kills.items(), key=lambda kv: -kv[1])[:3]:
            j = index.get(name)
            if j is None or k <= 0:
                continue
            outcomes = [o for prob, alive, gain in outcomes
                        for o in ((prob * k, alive & ~(1 << j), gain), (prob * (1 - k), alive, gain))]
        return sum(prob * (gain + walk(0, alive)) for prob, alive, gain in outcomes)


def walker(turns: list[int], ours: list[bool], chance: Callable[[int, int], float]) -> Callable[[int, int], float]:
    """`walk(step, alive)`: the expected units put out of action from turn `step` on, enemies less ours, with
    `alive` the bit set of units still standing: each unit at its turn, if standing, fires its volley (`chance(i,
    j)`: the chance it puts unit j down); ours at the target best for the side from there on (or holding fire),
    an enemy at the one of us it is likeliest to put down. Kept per state (a memo of the walk)."""
    memo: dict[tuple[int, int], float] = {}
    n = len(ours)

    def walk(step: int, alive: int) -> float:
        if step == len(turns):
            return 0.0
        key = (step, alive)
        got = memo.get(key)
        if got is not None:
            return got
        i = turns[step]
        rest = walk(step + 1, alive)
        best = rest
        if alive >> i & 1:
            targets = [j for j in range(n) if alive >> j & 1 and ours[j] != ours[i]]
            if ours[i]:  # our unit: the target best for the side from here on (or holding fire)
                for j in targets:
                    p = chance(i, j)
                    if p > 0:
                        best = max(best, p * (1 + walk(step + 1, alive & ~(1 << j))) + (1 - p) * rest)
            else:  # an enemy: the one of us it is likeliest to put down
                j = max(targets, key=lambda j: chance(i, j), default=-1)
                p = chance(i, j) if j >= 0 else 0.0
                if p > 0:
                    best = p * (-1 + walk(step + 1, alive & ~(1 << j))) + (1 - p) * rest
        memo[key] = best
        return best

    return walk
