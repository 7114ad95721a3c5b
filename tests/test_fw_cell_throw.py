"""A grenade thrown at a cell (R-9.10; issue 13): `intent Bo throw at=6,3` names the cell (kept as the throw's target
`6,3`), refused off the map or beyond the grenade's range and a walk; at its DEX within 15 m and in sight, else idle;
resolved with fixed dice (the scatter from the cell), its event and log line, and `Battle.odds` for a cell."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from skirmish.core.errors import IllegalAction
from skirmish.rules.actions import ActionParseError, parse_action
from skirmish.rules.fw import missiles
from skirmish.rulesets.fw import FwIntent
from tests.test_fw_actions import PAIR, _intent_req, thrower
from tests.test_fw_battle import battle, fw_text, of

WIDE = ["#" * 30, "#" + "," * 28 + "#", "#" + "," * 28 + "#", "#" + "," * 28 + "#", "#" * 30]
WALLED = ["##########", "#,,,,#,,,#", "#,,,,#,,,#", "#,,,,#,,,#", "##########"]


def test_the_codec_reads_a_cell_as_the_throws_target() -> None:
    import skirmish.rulesets.fw  # noqa: F401  (registers intent)
    a = parse_action("intent Bo throw at=6,3 weapon=fragmentation_grenade")
    assert isinstance(a, FwIntent) and a.target == "6,3" and a.at is None
    assert str(a) == "intent Bo act=throw target=6,3 weapon=fragmentation_grenade" and parse_action(str(a)) == a
    assert FwIntent("Bo", "shoot", "Cid", then="throw", at=(6, 3)).then_target == "6,3"
    with pytest.raises(ActionParseError, match=r"R-9\.10"):
        parse_action("intent Bo shoot target=Cid at=6,3")
    with pytest.raises(ActionParseError, match="not both"):
        FwIntent("Bo", "throw", "Cid", at=(6, 3))


def test_a_grenade_at_a_cell_between_two_figures_catches_both(tmp_path: Path) -> None:
    # Bo (2,2) throws at 6,3 (its centre 13,7 m): d100 30 <= 45 hits; 4D6 = 12 once: Cid at 2.8 m (nylar 9: 3
    # through), Dan at 2 m (12); Bo 8.2 m off is not caught.
    b = battle(tmp_path, fw_text(thrower("fragmentation_grenade"), PAIR, ["intent Bo throw at=6,3"]), [30, 3, 3, 3, 3])
    b.run()
    (t,) = of(b, "fw_throw")
    assert (t.target, t.at, t.hit, t.chance, t.lands, t.rolled) == (None, [6, 3], True, 45, [13.0, 7.0], 12)
    assert [(c["figure"], c["metres"], c["through"]) for c in t.caught] == [("Cid", 2.83, 3), ("Dan", 2.0, 12)]
    assert [(w.actor, w.through) for w in of(b, "fw_wound")] == [("Cid", 3), ("Dan", 12)]
    assert "Bo throws a fragmentation grenade at cell 6,3: 45% = 45%, d100 30 HIT, lands at 13,7" in t.describe()
    as_json = t.to_json()
    assert "target" not in as_json and as_json["at"] == [6, 3]
    (decl,) = [e for e in of(b, "fw_declare") if e.actor == "Bo"]
    assert decl.acts[0]["target"] == "6,3"


def test_a_missed_grenade_at_a_cell_scatters_from_the_cell(tmp_path: Path) -> None:
    b = battle(tmp_path, fw_text(thrower("fragmentation_grenade"), PAIR, ["intent Bo throw at=6,3"]),
               [80, 3, 4, 1, 1, 1, 1])  # a miss: 3 o'clock, 4 m from the cell
    b.run()
    (t,) = of(b, "fw_throw")
    x, y = missiles.scatter((5.0, 5.0), (13.0, 7.0), 3, 4)
    assert (t.hit, t.clock, t.scatter_m, t.lands) == (False, 3, 4, [round(x, 2), round(y, 2)])


def test_cell_throws_refused_and_idle_say_why(tmp_path: Path) -> None:
    b = battle(tmp_path, fw_text(thrower("fragmentation_grenade"), PAIR, rows=WIDE))
    req = _intent_req("Bo")
    off = b.sys.refusal(req, FwIntent("Bo", "throw", at=(40, 2)))
    assert off is not None and "R-9.10: cell 40,2 is off the map" in str(off)
    neg = b.sys.refusal(req, parse_action("intent Bo throw at=-1,4"))  # the order as a scenario gives it
    assert neg is not None and "R-9.10: cell -1,4 is off the map" in str(neg)
    far = b.sys.refusal(req, FwIntent("Bo", "throw", at=(27, 2)))
    assert far is not None and "R-9.10: cell 27,2 is 50 m away, beyond the fragmentation grenade's 15 m" in str(far)
    assert b.sys.refusal(req, FwIntent("Bo", "throw", at=(14, 2))) is None  # 24 m: within a walk and a throw
    shot = b.sys.refusal(req, FwIntent("Bo", "shoot", "6,3"))
    assert shot is not None and "R-9.4: shoot at whom?" in str(shot)  # only a throw takes a cell
    # Declared 24 m off, the thrower stays put: idle at its DEX, beyond 15 m.
    b = battle(tmp_path, fw_text(thrower("fragmentation_grenade"), PAIR, ["intent Bo throw at=14,2", "end Bo"],
                                 rows=WIDE), [30])
    b.run()
    (idle,) = [e for e in of(b, "fw_idle") if e.actor == "Bo"]
    assert idle.rules == ("R-9.10",) and "cell 14,2 is 24 m away, beyond" in idle.reason and not of(b, "fw_throw")
    # Behind a wall: out of sight, idle.
    b = battle(tmp_path, fw_text(thrower("fragmentation_grenade"), PAIR.replace("[7, 2]", "[7, 1]"),
                                 ["intent Bo throw at=6,2", "end Bo"], rows=WALLED), [30])
    b.run()
    (idle,) = [e for e in of(b, "fw_idle") if e.actor == "Bo"]
    assert idle.reason == "cell 6,2 is not in sight" and not of(b, "fw_throw")


def test_the_odds_of_a_cell_throw(tmp_path: Path) -> None:
    b = battle(tmp_path, fw_text(thrower("fragmentation_grenade"), PAIR))
    p = b.odds(FwIntent("Bo", "throw", at=(6, 3)))
    caught = sum(1 for c in range(1, 13) for m in range(1, 11)
                 if missiles.within(missiles.scatter((5.0, 5.0), (13.0, 7.0), c, m), (13.0, 7.0), 6.0))
    assert p.chance == 45 and p.odds.hit == Fraction(45, 100) + Fraction(55, 100) * Fraction(caught, 120)
    assert p.text.startswith("hit 45.0%, a figure on 6,3 caught ")
    with pytest.raises(IllegalAction, match="off the map"):
        b.odds(FwIntent("Bo", "throw", at=(40, 2)))
