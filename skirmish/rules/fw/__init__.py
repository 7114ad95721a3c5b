"""Future*World's pure rules (RULES.md §9): percentile checks, attack multipliers, damage through armour and
force screens, wounds, encumbrance and the equipment tables' value types; one attack rolled (attack.py) and its
exact odds (odds.py); melee, missiles and grenades, electronic warfare between figures, grav cars and sight in
the vertical. Stdlib only; every random draw comes from the battle's one random source, passed in (R-10.1)."""
