"""Scenario and map loading and checking (C-6). Importing the package lets maps find their baked sight
(`sight_bakes`: a map's sight table then reads every pair's answer from a shipped or cached bake)."""

from skirmish.content import sight_bakes as _sight_bakes  # noqa: F401  (adds its finder to map_state.SIGHT_FINDERS)
