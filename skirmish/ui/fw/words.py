"""The words of Future*World's board: the help box's key lines, what its marks mean and its abbreviations (the
battle screen's H overlay, through `FwCommands.help` and `FwCommands.sections`)."""

from __future__ import annotations

HELP = [
    "Declaring (Future*World): 1-9 first action (shoot burst melee throw launch aid react program none) · "
    "Shift+1-7 a second, different one at half DEX (Shift+9 clears it) · hover an enemy: the odds there · "
    "click: the target (an "
    "enemy: also where DCCM is beamed) · W or the weapon row: the weapon · K screen type · - + on the tacpack "
    "row: screen, CM, DCCM, sensors, jump (never above G) · D then an enemy: where DCCM is beamed · P fold the "
    "panel (a small window) · the odds, a grenade's blast and who it may catch show before Enter declares · throw: "
    "a click on a free cell aims the grenade there (R-9.10)",
    "Grav car (R-9.12): C drive (the driver: the car and car G rows split its generator, -5 -1 +1 +5; the rest "
    "flies it, in metres) · B mount (click the car to board) · L dismount · Shift for the second action · F or the "
    "mount row: a rider fires its car's mount (the hauler's support gun, the battlecar's main gun, racks; the mounted "
    "chance, the car's weapon points pay an energy shot, R-9.5, R-9.8)",
    "Movement segment: drag your miniature (reach shaded; a driver who drives drags the car with its riders) · "
    "E stay put",
]
LEGEND = [
    "A disc in its side's colour is a figure; the bar under it: HP of CON (green whole, amber hurt, red below half)",
    "Under the bar: fallen (crawls until it rises, R-9.7) · unconscious (0 HP or less) · dead (-CON)",
    "Tracker: DEX order; DEX/half when a second action is declared (R-9.3) · ? an enemy's declaration, hidden",
    "Yellow dashes: your declared attack's target · orange disc: a grenade's blast where aimed, the dotted ring "
    "where a miss may land (1D10 m), a % over each figure it may catch",
    "Yellow frame with a name: a grav car, (n) riders aboard 10 m up; their tokens share its cell",
    "Cyan dots: the reach of your combat sensors (15 m a point) · cyan dashes: the DCCM beam (R-9.9)",
    "Fog of war: darkened cells are out of your side's sight; a faint token marked ?3 is an enemy last seen in round 3",
]
GLOSSARY = [
    "DEX  the order of resolution, highest first (R-9.2) · HP = CON · Luck = POW x 5%",
    "G  the tacpack generator's points a round: screen + shots + EW + jump, never above G (R-9.8)",
    "CM  countermeasures: -10% a point to seekers and sensors · DCCM  cancels a target's CM point (R-9.9)",
    "impale  a hit on chance/5 or less: the damage rolled twice (R-9.4) · major wound: half the HP in one hit",
]
