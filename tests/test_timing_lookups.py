"""Timing lookups kept for speed (initiative, turn timing) equal the rules worked out."""

from __future__ import annotations


def test_speed_lookups_and_kept_phase_options_equal_the_rules() -> None:
    """`Speed`'s label, parse and faster are looked up; `phase_options` keeps its answers: all equal to the
    rule worked out (R-5.1, R-5.2), and each call hands out a new list."""
    from skirmish.rules.equipment import Speed
    from skirmish.rules.fi import initiative as ini

    for s in Speed:
        assert s.label == s.name.lower() and Speed.parse(s.label) is s and Speed.parse(s.name) is s
        assert s.faster() is Speed(max(0, int(s) - 1))
    for speed in Speed:
        for result in range(-3, 20):
            want = [p for p, t in zip(ini.PHASES, ini.INITIATIVE_BAR[speed], strict=True) if result >= t]
            got = ini.phase_options(result, False, speed)
            assert got == want and ini.phase_options(result, False, speed) is not got
            assert ini.phase_options(result, True, speed) == []
