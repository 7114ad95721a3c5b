"""Write maps/terrain.tsj: the shared terrain tileset whose tile properties carry the rules (R-6.6).

Run: python tools/make_tileset.py   (the image assets/terrain.png is drawn by tools/make_assets.py)
"""

from __future__ import annotations

import json
from pathlib import Path

# name, glyph, move_cost (0 = impassable), blocks_sight, cover, cover_av (R-6.6 obstacle table)
TILES = [
    ("floor", ".", 1, False, "none", 0),
    ("ground", ",", 1, False, "none", 0),
    ("rubble", ":", 2, False, "none", 0),
    ("wall", "#", 0, True, "high", 6),          # bricks
    ("steel_wall", "S", 0, True, "high", 7),    # steel walls
    ("container", "C", 0, True, "high", 4),     # cargo container: metal like a vehicle door
    ("crate", "x", 0, False, "low", 3),         # hardwood crates
    ("low_wall", "=", 0, False, "low", 6),      # waist-high brick wall
    ("barricade", "b", 0, False, "low", 4),     # metal barricade
    ("door", "D", 1, False, "none", 0),         # open doorway
    ("fence", "f", 3, False, "low", 2),         # thin wooden fence, climbable
    ("water", "~", 3, False, "none", 0),
]


def main() -> None:
    """Write the tileset next to the maps."""
    tiles = []
    for i, (name, glyph, cost, sight, cover, av) in enumerate(TILES):
        tiles.append({
            "id": i, "type": name,
            "properties": [
                {"name": "glyph", "type": "string", "value": glyph},
                {"name": "move_cost", "type": "int", "value": cost},
                {"name": "blocks_sight", "type": "bool", "value": sight},
                {"name": "cover", "type": "string", "value": cover},
                {"name": "cover_av", "type": "int", "value": av},
            ],
        })
    doc = {
        "type": "tileset", "version": "1.10", "tiledversion": "1.10.2", "name": "terrain",
        "tilewidth": 32, "tileheight": 32, "tilecount": len(TILES), "columns": len(TILES),
        "margin": 0, "spacing": 0, "image": "../assets/terrain.png",
        "imagewidth": 32 * len(TILES), "imageheight": 32, "tiles": tiles,
    }
    out = Path(__file__).resolve().parents[1] / "maps" / "terrain.tsj"
    out.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
