"""FI defence steps under fog (docs/RULES-NOTES.md "Moving into an unseen enemy"): the cells offered for an active
defence's step (R-7.5) and an Escape raise's step (R-7.7) are those the defender's side knows free, so an unseen
enemy's cell is listed and accepted like any other (leaving it out told where it stood); the step into it stops
where the defender stands (`bumped`), and a defence that did not move its 1 m takes the −4 (R-7.5)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.battle import Battle
from skirmish.ecs.components import Status
from skirmish.rules.actions import parse_action
from skirmish.rules.fi.melee import NO_RETREAT_PENALTY
from tests.conftest import make_card
from tests.test_fi_holds import INIT, PLAIN, WRESTLER, _card, _of
from tests.test_fi_melee import _battle as melee_battle
from tests.test_fi_melee import _holds, _to_turn, _unit
from tests.test_fi_waiting import _battle


def hide(b: Battle, monkeypatch: pytest.MonkeyPatch, who: str, side: str) -> None:
    """`side` neither sees `who` nor knows its place until a move bumps into it (as if it had slipped there unseen
    while `side` looked away: adjacent figures always see each other, so the look is cut for the test)."""
    eid, look = b.world.entity(who), b.knowledge.update

    def blind(world: object, grid: object, round_no: int) -> None:
        look(world, grid, round_no)  # type: ignore[arg-type]
        if not _of(b, "bumped"):
            b.knowledge.seen[side] = b.knowledge.seen[side] - {who}
            b.world.get(eid, Status).known_to = b.world.peek(eid, Status).known_to - {side}

    monkeypatch.setattr(b.knowledge, "update", blind)
    blind(b.world, b.ctx.grid, b.ctx.round)


def test_a_defence_step_onto_an_unseen_enemy_is_listed_bumps_and_takes_the_minus_4(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cards = [make_card(1, upper={("IV", 3): 10, ("II", 2): 10}), make_card(2, upper={("III", 1): 11}),
             make_card(3, upper={("III", 2): 9}), *_holds(4)]
    b = melee_battle(tmp_path, [_unit("Foe", 3, 1, "IV-3", skills='{"fighting:brawling": 1}')],
                     [_unit("Me", 2, 1, "II-2"), _unit("Lurk", 4, 1, "II-2")], cards)
    hide(b, monkeypatch, "Lurk", "Blue")
    _to_turn(b, "Foe", {"Me": "slow", "Lurk": "slow"})
    steps = {a.to for a in b.legal_actions("Foe").melee if a.verb == "defend"}
    assert (4, 1) in steps and (2, 1) not in steps  # Lurk's cell offered (Blue cannot know), Me's not
    assert b.check(parse_action("defend Foe to=4,1")) is None
    b.submit(parse_action("defend Foe to=4,1"))
    (bump,) = _of(b, "bumped")
    assert (bump.actor, bump.at, bump.blocked, bump.target) == ("Foe", [3, 1], [4, 1], "Lurk")
    d = _of(b, "defend")[-1]
    assert d.to is None and b.view().unit("Foe").cell == (3, 1)  # it did not move its 1 m ...
    assert [m["value"] for m in d.modifiers] == [NO_RETREAT_PENALTY]  # ... so the −4
    assert "Blue" in b.world.peek(b.world.entity("Lurk"), Status).known_to
    b.close()


def _held(tmp_path: Path, read: int, order: str) -> Battle:
    """Me (at 1,1) holds Foe (at 2,1), Lurk (Me's side) at 3,1; Foe's Escape (III-1) reads `read` against 5."""
    return _battle(tmp_path, [INIT, _card(4, III_2=9), _card(5, III_1=read), INIT, INIT, INIT, INIT],
                   f"[{WRESTLER % ('Me', 1)}, {PLAIN % ('Lurk', 3)}]", "[%s]" % (WRESTLER % ("Foe", 2)),
                   ["declare Me normal", "declare Lurk normal", "melee Me Foe maneuver=hold"],
                   ["declare Foe normal", order], extra="options: {martial_arts: true}")


def test_an_escape_step_onto_an_unseen_enemy_is_listed_and_bumps(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    b = _held(tmp_path, 10, "melee Foe Me maneuver=escape to=3,1")
    hide(b, monkeypatch, "Lurk", "Beta")
    while not (b.pending is not None and b.pending.kind == "act" and b.pending.unit == "Foe"):
        b.step()
    assert b.view().unit("Foe").melee is not None  # held by Me now
    steps = {a.to for a in b.legal_actions("Foe").melee if getattr(a, "maneuver", "") == "escape"}
    assert (3, 1) in steps and (1, 1) not in steps
    assert b.check(parse_action("melee Foe Me maneuver=escape to=3,1")) is None  # not "not open"
    b.run()
    assert _of(b, "maneuver")[-1].success and "with a raise" in _of(b, "grip")[-1].reason
    (bump,) = _of(b, "bumped")
    assert (bump.actor, bump.at, bump.blocked, bump.target) == ("Foe", [2, 1], [3, 1], "Lurk")
    assert b.view().unit("Foe").cell == (2, 1) and b.view().unit("Lurk").cell == (3, 1)
    b.close()
