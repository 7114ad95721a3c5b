"""The battle's end (R-10.1), the facade's part that decides it (skirmish.battle): after each turn and each round's
bookkeeping the round loop asks `_ended`; a battle ends when at most one side has anyone standing, at the round
limit (a draw), or when a row or hook decides it (`finish`), and its `result` event is written. Who stands is
counted again only after a Health hand-out (World.watch)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from skirmish.battle.answers import Outcome
from skirmish.core.events import Event, ResultEvent
from skirmish.ecs.components import Health
from skirmish.ecs.world import World

if TYPE_CHECKING:
    from skirmish.content.scenario import Scenario
    from skirmish.objectives import Play

_HEALTH = frozenset({Health})  # what `_tally` reads


class Ending:
    """Battle's end check and result (a part of `skirmish.battle.Battle`, which sets what is declared here)."""

    sides: tuple[str, ...]
    world: World
    ctx: Any
    seed: int
    scenario: Scenario
    play: Play | None
    outcome: Outcome | None
    # _tally, kept: (the stamp, standing, casualties, whether more than one side has anyone standing)
    _tallied: tuple[tuple[int, int], dict[str, int], dict[str, int], bool] | None
    _emit: Callable[[Event], None]

    def finish(self, winner: str | None, reason: str) -> None:
        """End the battle now with `winner` (None: a draw) and the reason the result event gives: for rows and
        hooks that decide a battle (objectives, triggers). The round loop stops at its next end check: after
        the turn in progress, or at the end of the round. A battle already over is left as it is."""
        if self.outcome is not None:
            return
        if winner is not None and winner not in self.sides:
            raise ValueError(f"no side {winner!r} (sides: {', '.join(self.sides)})")
        self._result(winner, reason)

    def _ended(self, round_end: bool) -> bool:
        """Asked by the round loop after each turn (round_end False) and after each round's bookkeeping."""
        if self.outcome is not None:  # a row or hook has decided it (finish)
            return True
        if self.play is not None:
            return self.play.ended(round_end and self.scenario.spec.victory.max_rounds <= self.ctx.round)
        return self._check_end(round_over=round_end and self.scenario.spec.victory.max_rounds <= self.ctx.round)

    def _check_end(self, round_over: bool = False) -> bool:
        """End the battle when at most one side has anyone standing, or at the round limit (a draw).

        A side with nobody left can neither win nor draw: once every other side is down, the side still
        standing wins, with `victory.eliminate` or without it (without it, taking enemies out is not a way
        to win while more than one side stands; objectives come with their issue). The reason says what
        really happened."""
        if not round_over and self._tallied is not None and self._tallied[3] and self._tallied[0] == self._stamp():
            return False  # nobody has been handed a Health since more than one side was found standing
        standing = self._tally()[0]
        alive = [s for s, n in standing.items() if n > 0]
        fallen = [s for s in self.sides if s not in alive]
        winner: str | None = None
        if len(alive) <= 1:
            winner = alive[0] if alive else None
            reason = f"nobody left standing: {', '.join(fallen)}" if alive else "nobody left standing on any side"
        elif round_over:
            reason = "round limit"
        else:
            return False
        self._result(winner, reason)
        return True

    def _tally(self) -> tuple[dict[str, int], dict[str, int]]:
        """(standing, casualties) per side, counted again only after a Health hand-out (World.watch)."""
        stamp = self._stamp()
        if self._tallied is None or self._tallied[0] != stamp:
            standing, casualties = self._count()
            self._tallied = (stamp, standing, casualties, sum(1 for n in standing.values() if n > 0) > 1)
        return dict(self._tallied[1]), dict(self._tallied[2])

    def _stamp(self) -> tuple[int, int]:
        """The Health hand-outs so far and the units counted (World.watch): the same stamp, the same tally."""
        health = self.world.watch(_HEALTH)
        return sum(health.values()), len(health)

    def _count(self) -> tuple[dict[str, int], dict[str, int]]:
        standing: dict[str, int] = {s: 0 for s in self.sides}
        casualties: dict[str, int] = {s: 0 for s in self.sides}
        for eid, ident in self.world.units():
            if self.world.peek(eid, Health).out_of_action:
                casualties[ident.side] += 1
            else:
                standing[ident.side] += 1
        return standing, casualties

    def _result(self, winner: str | None, reason: str) -> None:
        """The outcome, and its result event (R-10.1)."""
        casualties = self._tally()[1] if self.play is None else self.play.casualties()
        chips = getattr(self.ctx, "chips", None)  # the unspent chips convert to bounty points at the end
        bounty = chips.bounty() if chips is not None else None
        self.outcome = Outcome(winner, self.ctx.round, self.seed, casualties, bounty)
        extra = {} if self.play is None else self.play.result_fields()
        if bounty is not None:
            extra["bounty"] = bounty
        self._emit(ResultEvent(round=self.ctx.round, phase=None, actor=None, rules=("R-10.1",),
                               winner=winner, rounds=self.ctx.round, casualties=casualties, reason=reason, **extra))
