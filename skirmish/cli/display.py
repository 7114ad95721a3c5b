"""Whether the board can open a window here, asked of SDL in a subprocess that may take a bounded time."""

from __future__ import annotations

import os
import subprocess
import sys

DISPLAY_TIMEOUT = 5.0  # seconds the display check may take before the display counts as dead
_DISPLAY_PROBE = "import pygame; pygame.display.init(); print(pygame.display.get_driver())"


def display_problem(timeout: float = DISPLAY_TIMEOUT) -> str | None:
    """None if a window can be opened, else why not, in a few words.

    On X11/Wayland systems a set DISPLAY proves nothing (SDL falls back to its invisible offscreen driver when
    no server answers, and a remote display may never answer), so SDL is asked in a subprocess that may take
    at most `timeout` seconds: a failure, a timeout or the driver 'offscreen'/'dummy' means no display."""
    driver = os.environ.get("SDL_VIDEODRIVER", "")
    if driver in ("dummy", "offscreen"):
        return f"SDL_VIDEODRIVER={driver}"
    if sys.platform in ("win32", "darwin"):
        return None
    names = [n for n in ("WAYLAND_DISPLAY", "DISPLAY") if os.environ.get(n)]
    if not names:
        return "neither DISPLAY nor WAYLAND_DISPLAY is set"
    where = " or ".join(f"{n}={os.environ[n]}" for n in names)
    env = {**os.environ, "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    try:
        p = subprocess.run([sys.executable, "-c", _DISPLAY_PROBE], capture_output=True, text=True, env=env,
                           stdin=subprocess.DEVNULL, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return f"{where} did not answer within {timeout:g} s"
    except OSError as exc:
        return f"the display check could not start ({exc.strerror})"
    lines = p.stdout.strip().splitlines()
    got = lines[-1].strip() if lines else ""
    if p.returncode != 0 or not got:
        return f"{where} cannot be opened"
    if got in ("offscreen", "dummy"):
        return f"nothing answers at {where}"
    return None


def has_display() -> bool:
    """True if a window can be opened (see display_problem)."""
    return display_problem() is None
