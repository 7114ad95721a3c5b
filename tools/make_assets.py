"""Draw assets/terrain.png (the tileset image Tiled shows) and assets/icon.png with the board's own art.

Run: python tools/make_assets.py   (the board draws the same art at run time at any zoom)
"""

from __future__ import annotations

import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame

from skirmish.content.tiled import MAPS_DIR, TILESET, load_tileset
from skirmish.ui.art import draw_icon, tileset_image

ASSETS = Path(__file__).resolve().parents[1] / "assets"


def main() -> None:
    """Write the images."""
    pygame.display.init()
    ASSETS.mkdir(exist_ok=True)
    terrains, _ = load_tileset(MAPS_DIR / TILESET)
    pygame.image.save(tileset_image(terrains, 32), str(ASSETS / "terrain.png"))
    pygame.image.save(draw_icon(64), str(ASSETS / "icon.png"))
    print(f"wrote {ASSETS / 'terrain.png'} and {ASSETS / 'icon.png'}")


if __name__ == "__main__":
    main()
