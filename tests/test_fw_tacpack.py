"""Future*World's tacpack budget, electronic warfare, missiles and the order of resolution (R-9.2, R-9.3,
R-9.8-R-9.10), as pure rules (issue 13, items 2, 5 and 6: the rules layer)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from skirmish.rules.fw import damage, order, tacpack
from skirmish.rules.fw.tacpack import Allocation, Tacpack

JOHN = Tacpack(generator=12, effectors=5, sensors=5)


def test_john_steels_whole_round_of_programming() -> None:
    """Seed 004: 2 effector points on CM, 2 sensor points on sensors, and the other 3 of each as DCCM at the
    missile's target: legal only as a whole round of programming."""
    a = Allocation(cm=2, sensors=2, dccm=3, dccm_target="Sauriki leader")
    assert tacpack.refusal(JOHN, a, whole_round_programming=True) is None
    assert tacpack.refusal(JOHN, a) == ("R-9.9: one EW program a round with another action, or the whole round to "
                                        "program all three")
    assert tacpack.refusal(JOHN, Allocation(cm=2, screen_type="kinetic", screen=6, shots=4)) is None


@pytest.mark.parametrize(("alloc", "rule"), [
    (Allocation(screen_type="kinetic", screen=8, shots=5), "R-9.8: 13 points allocated, the generator gives 12"),
    (Allocation(cm=6), "R-9.9: CM and DCCM need 6 effector points"),
    (Allocation(dccm=2), "R-9.9: DCCM is beamed at one target"),
    (Allocation(screen_type="psychic", screen=2), "R-9.8: a screen is one of kinetic, diffusion, magnetic"),
    (Allocation(shots=-1), "R-9.8: an allocation is made of whole points"),
    (Allocation(cm=1, sensors=1, shots=2), "R-9.9: a round spent programming all three EW functions leaves no"),
    (Allocation(cm=1, jump=1), "R-9.9: a round spent programming all three EW functions leaves no"),
])
def test_refused_allocations_name_the_rule(alloc: Allocation, rule: str) -> None:
    why = tacpack.refusal(JOHN, alloc, whole_round_programming=True)
    assert why is not None and why.startswith(rule)


@given(st.integers(0, 12), st.integers(0, 12), st.integers(0, 5), st.integers(0, 12))
def test_an_accepted_split_never_exceeds_the_generator(screen: int, shots: int, cm: int, jump: int) -> None:
    a = Allocation(screen_type="magnetic", screen=screen, shots=shots, cm=cm, jump=jump)
    ok = tacpack.refusal(JOHN, a) is None
    assert ok == (screen + shots + cm + jump <= 12)


@given(st.integers(0, 10), st.integers(0, 10))
def test_seeker_acquisition(cm: int, dccm: int) -> None:
    """R-9.10: 100% - 10% x max(0, CM - DCCM)."""
    assert tacpack.seeker_acquisition(cm, dccm) == 100 - 10 * max(0, cm - dccm)
    assert tacpack.seeker_acquisition(cm, dccm) >= tacpack.seeker_acquisition(cm + 1, dccm)


def test_combat_sensors() -> None:
    assert tacpack.sensor_range_m(5) == 75  # the seed's 1-ENC unit: 75 m
    assert tacpack.registers(50, 70, 5, target_cm=5) is True  # 50% to register through 5 CM
    assert tacpack.registers(51, 70, 5, target_cm=5) is False
    assert tacpack.registers(1, 80, 5, target_cm=0) is False  # out of range
    assert tacpack.registers(95, 10, 5, target_cm=3, dccm_against=3) is True
    assert tacpack.registers(96, 10, 5, target_cm=0) is False  # 96-00 fails every percentile check
    assert tacpack.module_enc(5) == 1


def test_dex_order_with_second_actions() -> None:
    """Seed 004: a DEX 16 character switches his screen at 16 and fires at 8; equal DEX is simultaneous."""
    groups = order.resolution_order([
        ("John", 16, ("screen", "fire")), ("Sauriki", 8, ("fire",)), ("Quertzl", 13, ("fire", "move")),
    ])
    assert [[(s.unit, s.action) for s in g] for g in groups] == [
        [("John", "screen")], [("Quertzl", "fire")], [("John", "fire"), ("Sauriki", "fire")], [("Quertzl", "move")],
    ]
    assert [g[0].dex for g in groups] == [16, 13, 8, 7]  # 13 halved rounds up to 7
    with pytest.raises(ValueError, match="never takes the same action twice"):
        order.resolution_order([("John", 16, ("fire", "fire"))])


def test_photon_grenade_blinds_unless_luck() -> None:
    results = [damage.photon_blinding(random.Random(s), 50) for s in range(200)]
    assert all((roll <= 50) == (rounds == 0) for roll, rounds in results)
    assert {r for _, r in results if r} == {1, 2, 3, 4, 5, 6}
