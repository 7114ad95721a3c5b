"""Reach fields kept between an AI's decisions: skirmish.rules.reach (the rules' legality keeps them too)."""

from __future__ import annotations

from skirmish.rules.reach import Field, ReachCache, ring, walk_field

__all__ = ["Field", "ReachCache", "ring", "walk_field"]
