"""Build the shipped Tiled maps (maps/*.tmj) from the hand-drawn ASCII sources in tools/maps_src/.

Run: python tools/make_maps.py   (after tools/make_tileset.py)
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from skirmish.content.scenario import DEFAULT_SCENARIO, SCENARIOS_DIR
from skirmish.content.tiled import EMBEDDED_DIR, MAPS_DIR, TILESET, from_ascii, to_tmj

SRC = Path(__file__).resolve().parent / "maps_src"
NAMES = {"depot_yard": "Depot yard", "crossroads": "Crossroads"}


def main() -> None:
    """Convert every ASCII source to .tmj."""
    for src in sorted(SRC.glob("*.txt")):
        rows = [r for r in src.read_text(encoding="utf-8").splitlines() if r]
        grid = from_ascii(rows, str(src), "rows", name=NAMES.get(src.stem, src.stem))
        out = MAPS_DIR / f"{src.stem}.tmj"
        out.write_text(json.dumps(to_tmj(grid), separators=(",", ":")) + "\n", encoding="utf-8")
        print(f"wrote {out} ({grid.width}x{grid.height})")
    embed()


def embed() -> None:
    """Copy the default scenario, its map and the tileset into the package (skirmish/data/default/)."""
    EMBEDDED_DIR.mkdir(parents=True, exist_ok=True)
    scenario = SCENARIOS_DIR / DEFAULT_SCENARIO
    map_name = next(line.split(":", 1)[1].strip() for line in scenario.read_text(encoding="utf-8").splitlines()
                    if line.startswith("map:"))
    for src in (scenario, MAPS_DIR / map_name, MAPS_DIR / TILESET):
        shutil.copyfile(src, EMBEDDED_DIR / src.name)
        print(f"embedded {src.name}")


if __name__ == "__main__":
    main()
