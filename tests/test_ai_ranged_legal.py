"""The rest of ranged combat as a question (issue 14): the battle lists double taps (R-6.12), bursts split between
two targets (R-6.3), the volumes covering fire may be laid with (R-6.12) and launches (R-6.10), and answers for a
cell (`cell_ok`); what it lists is what `Battle.check` accepts, and what it leaves out is refused."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from skirmish.rules.actions import CoverFire, Launch, Shoot
from tests.conftest import battle_at

TRAITS = "{strength: III-2, dexterity: III-2, reflexes: III-3, vigor: III-2, acuity: III-2}"
ROWS = ["..........", "...#......", "..........", ".........."]
FOES = (f"[{{name: A, at: [8, 0], traits: {TRAITS}}}, {{name: B, at: [8, 2], traits: {TRAITS}}}, "
        f"{{name: C, at: [9, 3], traits: {TRAITS}}}]")


def _me(tmp_path: Path, weapon: str, skill: str, declare: str = "normal"):  # type: ignore[no-untyped-def]
    return battle_at(tmp_path, ROWS, f"[{{name: Me, at: [0, 1], weapons: [{weapon}], skills: {{'{skill}': 2}}, "
                     f"traits: {TRAITS}}}]", FOES, declare=declare)


def test_split_bursts_are_listed_for_every_ordered_pair_and_accepted(tmp_path: Path) -> None:
    b = _me(tmp_path, "needle_smg", "shooting:smg")
    legal = b.legal_actions("Me")
    splits = [a for a in legal.ranged if a.also]
    assert splits and not [a for a in legal.ranged if a.double_tap]  # an SMG is not double tapped
    assert {(a.target, a.also[0]) for a in splits} == {(x, y) for x in "ABC" for y in "ABC" if x != y}
    assert {a.mode for a in splits} <= {"snap", "prepared"} and {a.burst for a in splits} == {3, 5, 10}
    for a in splits:
        assert legal.allows(a) and b.check(a) is None, a
    assert not legal.allows(Shoot("Me", "A", mode="aimed", burst=5, also=("B",)))
    assert b.check(Shoot("Me", "A", mode="aimed", burst=5, also=("B",))) is not None
    b.close()


def test_double_taps_are_listed_with_a_pistol(tmp_path: Path) -> None:
    b = _me(tmp_path, "slug_pistol", "shooting:pistol")
    legal = b.legal_actions("Me")
    taps = [a for a in legal.ranged if a.double_tap]
    singles = [s for s in legal.shots if not s.burst]
    assert len(taps) == len(singles) and {replace(a, double_tap=False) for a in taps} == set(singles)
    for a in taps:
        assert legal.allows(a) and b.check(a) is None, a
    assert not legal.allows(Shoot("Me", "A", mode="snap", burst=3, double_tap=True))
    b.close()


def test_a_double_tap_is_not_listed_with_one_round_left(tmp_path: Path) -> None:
    b = _me(tmp_path, "{weapon: slug_pistol, ammo: 1}", "shooting:pistol")
    legal = b.legal_actions("Me")
    assert legal.shots and not legal.ranged
    assert b.check(replace(legal.shots[0], double_tap=True)) is not None
    b.close()


def test_cover_cells_answer_as_the_check_does(tmp_path: Path) -> None:
    b = _me(tmp_path, "needle_smg", "shooting:smg")
    legal = b.legal_actions("Me")
    assert legal.covers == (0, 3, 5, 10) and not legal.launches
    for burst in legal.covers:
        for x in range(-1, 11):
            for y in range(-1, 5):
                a = CoverFire("Me", (x, y), burst=burst)
                assert legal.allows(a) == (b.check(a) is None), a
    assert any(not legal.allows(CoverFire("Me", (x, 1))) for x in range(4, 10))  # behind the wall at 3,1
    b.close()


def test_cover_is_not_listed_without_the_rounds(tmp_path: Path) -> None:
    b = _me(tmp_path, "{weapon: needle_smg, ammo: 4}", "shooting:smg")
    legal = b.legal_actions("Me")
    assert legal.covers == (0, 3)
    assert b.check(CoverFire("Me", (8, 2), burst=5)) is not None and not legal.allows(CoverFire("Me", (8, 2), burst=5))
    b.close()


def test_launch_cells_answer_as_the_check_does(tmp_path: Path) -> None:
    b = _me(tmp_path, "grenade_launcher", "shooting:launcher")
    legal = b.legal_actions("Me")
    assert legal.launches and not legal.shots and not legal.covers
    for x in range(-1, 11):
        for y in range(-1, 5):
            a = Launch("Me", (x, y))
            assert legal.allows(a) == (b.check(a) is None), a
    b.close()
