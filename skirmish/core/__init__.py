"""Ruleset-agnostic pieces every layer may use (ARCHITECTURE §5): errors and refusals, and later actions,
events, the round table and side views."""
