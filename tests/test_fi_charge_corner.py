"""A charge's listed end cells follow the contact rule the check applies (rules/fi/melee.in_contact: a diagonal across
a closed wall corner is not within 1 m, R-1.3, R-5.4): the legal list and Battle.check agree, and a closed-corner
cell does not take every charge at that enemy off the list."""

from __future__ import annotations

from pathlib import Path

from skirmish.rulesets.fi import Charge
from tests.conftest import battle_at

T = "traits: {strength: III-2, dexterity: III-3, reflexes: III-2, vigor: III-2, acuity: II-2}"
ROWS = ["......", "...#..", "..#...", "......"]  # Them at 3,2: 2,1 is across the closed corner of 3,1 and 2,2


def test_charges_are_listed_from_the_cells_in_contact_and_each_listed_one_is_accepted(tmp_path: Path) -> None:
    with battle_at(tmp_path, ROWS, f"[{{name: Me, at: [0, 0], {T}}}]", f"[{{name: Them, at: [3, 2], {T}}}]") as b:
        assert b.check(Charge("Me", "Them", at=(2, 1))) is not None  # across the corner: refused
        assert b.check(Charge("Me", "Them", at=(4, 1))) is None
        listed = {a.at for a in b.legal_actions("Me").melee if isinstance(a, Charge) and a.target == "Them"}
        assert (4, 1) in listed and (2, 1) not in listed
        for cell in listed:
            assert b.check(Charge("Me", "Them", at=cell)) is None, cell
