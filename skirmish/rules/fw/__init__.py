"""Future*World's pure rules (RULES.md §9): percentile checks, attack multipliers, damage through armour and
force screens, wounds, encumbrance and the equipment tables' value types. Stdlib only; every random draw
comes from the battle's one random source, passed in (R-10.1)."""
