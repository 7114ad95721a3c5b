"""Future*World movement under load (R-9.2, R-9.11): the 24 m move, encumbrance against STR, jump packs."""

from __future__ import annotations

from fractions import Fraction

MOVE_M = 24  # a non-engaged figure moves up to 24 m in the movement segment
ACTION_MOVE_M = 6  # a move of up to 6 m is an action, combined with another at half DEX
ENC_MOVE_M = 2  # metres lost per point of ENC above STR
ENC_RUN_M = 6  # metres lost per excess point when running at top speed
ENC_SKILL = 5  # % off Climb, Jump and Move Quietly per excess point
ENC_SKILLS = ("climb", "jump", "move_quietly")
JUMP_PER_ENERGY_M = 20  # a jump pack's leap per energy point
JUMP_PER_EXCESS_ENC_M = 40  # leap lost per excess ENC point


def excess_enc(enc: Fraction | float, strength: int) -> int:
    """Whole points of ENC carried above STR (R-9.11). Fractions of a point (a clip is 1/4) count only once
    they make up a whole point above STR, as a table player rounds a load down."""
    return max(0, int(Fraction(enc).limit_denominator(1000) - strength))


def move_m(enc: Fraction | float, strength: int, *, base_m: int = MOVE_M) -> int:
    """Metres a figure may move this round, walking (R-9.11), never below 0."""
    return max(0, base_m - ENC_MOVE_M * excess_enc(enc, strength))


def run_loss_m(enc: Fraction | float, strength: int) -> int:
    """Metres a figure running at top speed loses to its load (R-9.11)."""
    return ENC_RUN_M * excess_enc(enc, strength)


def skill_penalty(enc: Fraction | float, strength: int) -> int:
    """Percentage points off Climb, Jump and Move Quietly (R-9.11)."""
    return ENC_SKILL * excess_enc(enc, strength)


def jump_m(energy: int, enc: Fraction | float, strength: int) -> int:
    """A jump pack's leap (R-9.11): 20 m per energy point, 40 m less per excess ENC point, never below 0.
    The seed's example: 2 excess points and 5 energy leap 100 - 80 = 20 m."""
    return max(0, JUMP_PER_ENERGY_M * energy - JUMP_PER_EXCESS_ENC_M * excess_enc(enc, strength))


def carried_body_enc(siz: int) -> int:
    """A carried figure weighs its SIZ in ENC (R-9.11)."""
    return siz
