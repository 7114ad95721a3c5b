"""A grenade aimed at a free cell on Future*World's panel (R-9.10), under SDL's dummy driver with posted events and
the screenshot checked: with throw chosen, a click on a free cell aims there; the blast is drawn round the cell
with everyone it may catch at the battle's chance, and the throw is declared and resolved at the cell."""

from __future__ import annotations

from pathlib import Path

import pygame
import pytest

from skirmish.rulesets.fw import FwIntent
from skirmish.rulesets.fw_preview import catches, percent
from skirmish.ui.fw.marks import BLAST_EDGE
from tests.test_board_fw_actions import CHARS, _events, _play, _until
from tests.ui_helpers import cell_px, click, frames, near, press

pytestmark = pytest.mark.usefixtures("isolated_config")


def test_a_click_on_a_free_cell_aims_the_grenade_there(tmp_path: Path) -> None:
    ash = (f"{{name: Ash, at: [2, 3], characteristics: {CHARS}, skills: {{throw: 50, rifle: 50}}, armour: [chitin],"
           " weapons: [heavy_rifle, fragmentation_grenade], tacpack: {generator: 6, screen: kinetic, screen_points: 4}}")
    app, screen, panel = _play(tmp_path, ash)  # Rook at 8,3 and Moss at 10,3 (Red)
    press(pygame.K_4, "4")  # throw
    frames(app, 1)
    click(cell_px(screen, (9, 3)))  # the free cell between them
    frames(app, 3)
    d = panel.current()
    assert d is not None and (d.act, d.target, panel.refused) == ("throw", "9,3", None)
    p = screen.session.battle.odds(FwIntent("Ash", "throw", at=(9, 3)))
    pv = panel.preview(d)
    assert pv.blast is not None and pv.blast.aim == (9, 3) and pv.blast.radius_m == 6
    caught = {name: chance for name, _, chance in pv.blast.caught}
    view = screen.session.view()
    want = catches(p.chance, (2, 3), (9, 3), [(u.name, u.cell) for u in view.units], 6, 2.0)
    assert caught == {n: percent(q) for n, q in want} and caught["Rook"] == caught["Moss"]  # 2 m either side
    (line,) = panel.odds_lines(d)
    assert line.startswith("throw 9,3 (a cell; fragmentation grenade") and "14 m of 15 m" in line
    assert f"Rook {caught['Rook']}" in line and f"Moss {caught['Moss']}" in line
    shot = pygame.image.load(str(app.screenshot(tmp_path / "cell.png")))
    x, y = cell_px(screen, (9, 3))
    r = round(6 / 2 * screen.board.cam.tile)
    edge = [shot.get_at((x + dx, y))[:3] for dx in range(r - 2, r + 2)]
    assert any(near(px, BLAST_EDGE, 60) for px in edge), edge  # the radius round the cell
    press(pygame.K_RETURN)
    frames(app, 2)
    assert FwIntent("Ash", "throw", at=(9, 3), screen="kinetic", points=4) in screen.session.battle.history
    _until(app, screen, lambda: _events(screen, "fw_throw"))
    (throw,) = _events(screen, "fw_throw")
    assert (throw.target, throw.at) == (None, [9, 3]) and "at cell 9,3" in throw.describe()
    app.close()
