"""R-7.7 Escape's other raise (seed 000 "Escape": "If a raise is achieved, the practitioner may also either stand up
or move up to 1 meter"; issue 14 item 3): `melee U H maneuver=escape to=X,Y` spends a raise on a step to an
adjacent open cell; without a raise the grip still ends and it stays; a step anywhere else, or on another maneuver,
is refused naming R-7.7. Stacked decks and scripted orders through whole battles (option `martial_arts`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from skirmish.battle import Battle
from skirmish.rules.actions import parse_action
from tests.test_fi_holds import INIT, WRESTLER, _card, _of, _run
from tests.test_fi_waiting import _battle


def _escape(tmp_path: Path, read: int, order: str = "melee Foe Me maneuver=escape to=3,1") -> Battle:
    """Me (at 1,1) holds Foe (at 2,1): Hold III-2 reads 9 against 7; Foe's Escape (III-1) reads `read` against 5."""
    return _run(tmp_path, [INIT, _card(4, III_2=9), _card(5, III_1=read), INIT, INIT],
                ["melee Me Foe maneuver=hold"], [order])


def test_a_raise_steps_the_escaper_away(tmp_path: Path) -> None:
    b = _escape(tmp_path, 10)  # 10 against 5: one raise
    [_, escape] = _of(b, "maneuver")
    assert (escape.maneuver, escape.success, escape.result, escape.tn) == ("escape", True, 10, 5)
    assert "Foe escaped with a raise" in _of(b, "grip")[-1].reason
    moves = [e for e in _of(b, "move") if e.actor == "Foe"]
    assert len(moves) == 1 and b.view().unit("Foe").cell == (3, 1)
    assert b.view().unit("Me").melee is not None and not b.view().unit("Foe").prone
    b.close()


def test_without_a_raise_the_grip_ends_and_the_escaper_stays(tmp_path: Path) -> None:
    b = _escape(tmp_path, 8)
    assert _of(b, "maneuver")[-1].success and _of(b, "grip")[-1].reason == "Foe escaped"
    assert not [e for e in _of(b, "move") if e.actor == "Foe"] and b.view().unit("Foe").cell == (2, 1)
    b.close()


@pytest.mark.parametrize("order, says", [
    ("melee Foe Me maneuver=escape to=4,1", "adjacent cell"),
    ("melee Foe Me maneuver=escape to=1,1", "not open"),
    ("melee Foe Me to=3,1", "only an Escape takes a step"),
])
def test_a_step_elsewhere_is_refused_naming_r_7_7(tmp_path: Path, order: str, says: str) -> None:
    b = _battle(tmp_path, [INIT, _card(4, III_2=9), INIT, INIT], "[%s]" % (WRESTLER % ("Me", 1)),
                "[%s]" % (WRESTLER % ("Foe", 2)), ["declare Me normal", "melee Me Foe maneuver=hold"],
                ["declare Foe normal"], extra="options: {martial_arts: true}")
    while not (b.pending is not None and b.pending.kind == "act" and b.pending.unit == "Foe"):
        b.step()
    assert b.view().unit("Foe").melee is not None  # held by Me now
    refusal = b.check(parse_action(order))
    assert refusal is not None and refusal.rule == "R-7.7" and says in refusal.reason, refusal
    assert b.check(parse_action("melee Foe Me maneuver=escape to=3,1")) is None
    assert parse_action(str(parse_action("melee Foe Me maneuver=escape to=3,1"))).to == (3, 1)
    b.close()


def test_the_legal_list_offers_each_open_step(tmp_path: Path) -> None:
    b = _battle(tmp_path, [INIT, _card(4, III_2=9), INIT, INIT], "[%s]" % (WRESTLER % ("Me", 1)),
                "[%s]" % (WRESTLER % ("Foe", 2)), ["declare Me normal", "melee Me Foe maneuver=hold"],
                ["declare Foe normal"], extra="options: {martial_arts: true}")
    while not (b.pending is not None and b.pending.kind == "act" and b.pending.unit == "Foe"):
        b.step()
    steps = {a.to for a in b.legal_actions("Foe").melee if getattr(a, "maneuver", "") == "escape"}
    assert steps == {None, (1, 0), (2, 0), (3, 0), (3, 1), (1, 2), (2, 2), (3, 2)}  # every neighbour but Me's 1,1
    b.close()


def test_the_boards_fight_menu_names_the_step() -> None:
    from skirmish.ui.fi_melee import describe

    assert describe(parse_action("melee Foe Me maneuver=escape to=3,1")) == "escape, on a raise step to 3,1"
    assert describe(parse_action("melee Foe Me maneuver=strike_low effects=target_falls")) == \
        "strike low (target falls)"


def test_a_step_round_a_wall_corner_is_refused_not_walked_the_long_way(tmp_path: Path) -> None:
    """A diagonal step that cuts a wall's corner is no step at all (R-5.6): it was accepted and walked round the
    corner, two cells (4 m) for the seed's "up to 1 m"."""
    rows = ("......", "...#..", "......")  # a wall at 3,1: Foe at 2,1 may not step to 3,2 (nor 3,0)
    b = _battle(tmp_path, [INIT, _card(4, III_2=9), INIT, INIT], "[%s]" % (WRESTLER % ("Me", 1)),
                "[%s]" % (WRESTLER % ("Foe", 2)), ["declare Me normal", "melee Me Foe maneuver=hold"],
                ["declare Foe normal"], rows=rows, extra="options: {martial_arts: true}")
    while not (b.pending is not None and b.pending.kind == "act" and b.pending.unit == "Foe"):
        b.step()
    steps = {a.to for a in b.legal_actions("Foe").melee if getattr(a, "maneuver", "") == "escape"}
    assert steps == {None, (1, 0), (2, 0), (1, 2), (2, 2)}
    refusal = b.check(parse_action("melee Foe Me maneuver=escape to=3,2"))
    assert refusal is not None and refusal.rule == "R-7.7" and "not open" in refusal.reason, refusal
    b.close()


@pytest.mark.parametrize("to, says", [("4,1", "adjacent cell"), ("1,1", "not open"), ("5,1", "adjacent cell")])
def test_a_scripted_step_elsewhere_is_refused_as_it_is_applied(tmp_path: Path, to: str, says: str) -> None:
    """The step is checked when the order is carried out, not only when asked (`Battle.check`): a scripted escape to
    a far cell walked 8 m there, and one to the holder's cell walked into it (two figures in one cell)."""
    b = _escape(tmp_path, 10, f"melee Foe Me maneuver=escape to={to}")
    [refused] = [e for e in _of(b, "refused") if e.actor == "Foe"]
    assert refused.reason.startswith("R-7.7") and says in refused.reason, refused.reason
    assert not [e for e in _of(b, "move") if e.actor == "Foe"] and b.view().unit("Foe").cell == (2, 1)
    assert b.view().unit("Me").cell == (1, 1)
    b.close()
