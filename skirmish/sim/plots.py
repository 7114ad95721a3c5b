"""The PNG plots of a batch, drawn with matplotlib's Agg canvas (no display, no pyplot state): win rates
with their Wilson intervals, battle lengths, casualties per side, and per scenario a heat map of where units
fell drawn over the map's walls. Each function draws from summary.json's data and saves to the path given."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from skirmish.sim.stats import MapInfo

DPI = 100
COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b")
DRAW = "#7f7f7f"


def _figure(width: float, height: float) -> Any:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def _save(fig: Any, path: Path) -> None:
    fig.savefig(path, format="png", dpi=DPI, metadata={"Software": None})


def _grid(fig: Any, count: int) -> list[Any]:
    """Axes for `count` panels, up to three a row."""
    cols = min(3, max(1, count))
    rows = math.ceil(count / cols)
    axes = fig.subplots(rows, cols, squeeze=False)
    flat = [a for row in axes for a in row]
    for ax in flat[count:]:
        ax.set_visible(False)
    return flat[:count]


def _whole_numbers(ax: Any) -> None:
    """Ticks at whole numbers of battles."""
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def _size(count: int) -> tuple[float, float]:
    cols = min(3, max(1, count))
    return 4.2 * cols, 3.2 * math.ceil(count / cols)


def win_rates(summary: Mapping[str, Any], path: Path) -> None:
    """Each side's win rate and the draw rate per scenario, as bars with Wilson 95% error bars."""
    scen = summary["scenarios"]
    fig = _figure(max(6.0, 2.2 * len(scen) + 2), 4.5)
    ax = fig.add_subplot()
    width = 0.8 / max(1, max(len(s["sides"]) + 1 for s in scen))
    for i, s in enumerate(scen):
        bars = [(side, s["wins"][side], COLOURS[j % len(COLOURS)]) for j, side in enumerate(s["sides"])]
        bars.append(("draw", s["draws"], DRAW))
        start = i - width * (len(bars) - 1) / 2
        for j, (label, fig_, colour) in enumerate(bars):
            rate, (lo, hi) = fig_["rate"], fig_["wilson95"]
            x = start + j * width
            ax.bar(x, rate, width * 0.9, color=colour, yerr=[[rate - lo], [hi - rate]], capsize=3)
            ax.text(x, min(1.02, hi + 0.02), label, ha="center", va="bottom", fontsize=7, rotation=90)
    ax.set_xticks(range(len(scen)), [s["scenario"] for s in scen])
    ax.set_ylim(0, 1.25)
    ax.set_ylabel("share of battles (Wilson 95% interval)")
    ax.set_title(f"win rates over {summary['battles']} battles")
    ax.axhline(0.5, color="black", linewidth=0.6, linestyle=":")
    _save(fig, path)


def lengths(summary: Mapping[str, Any], path: Path) -> None:
    """A histogram of battle length in rounds per scenario, with its mean."""
    scen = summary["scenarios"]
    fig = _figure(*_size(len(scen)))
    for ax, s in zip(_grid(fig, len(scen)), scen, strict=True):
        hist = s["rounds"]["histogram"]
        ax.bar([int(k) for k in hist], list(hist.values()), 0.9, color=COLOURS[0])
        ax.axvline(s["rounds"]["mean"], color="black", linestyle="--", linewidth=1,
                   label=f"mean {s['rounds']['mean']:.1f}")
        ax.set_xlabel("rounds")
        ax.set_ylabel("battles")
        _whole_numbers(ax)
        ax.set_title(s["scenario"])
        ax.legend(fontsize=8)
    _save(fig, path)


def casualties(summary: Mapping[str, Any], path: Path) -> None:
    """Per scenario, how many units each side lost: battles per casualty count, a bar per side."""
    scen = summary["scenarios"]
    fig = _figure(*_size(len(scen)))
    for ax, s in zip(_grid(fig, len(scen)), scen, strict=True):
        sides: Sequence[str] = s["sides"]
        top = max([int(k) for side in sides for k in s["casualties"][side]["histogram"]] or [0])
        width = 0.8 / max(1, len(sides))
        for j, side in enumerate(sides):
            dist = s["casualties"][side]
            counts = [dist["histogram"].get(str(k), 0) for k in range(top + 1)]
            xs = np.arange(top + 1) - 0.4 + width * (j + 0.5)
            ax.bar(xs, counts, width * 0.9, color=COLOURS[j % len(COLOURS)], label=f"{side} (mean {dist['mean']:.1f})")
        ax.set_xticks(range(top + 1))
        ax.set_xlabel("casualties")
        ax.set_ylabel("battles")
        _whole_numbers(ax)
        ax.set_title(s["scenario"])
        ax.legend(fontsize=8)
    _save(fig, path)


def fallen(scenario: Mapping[str, Any], info: MapInfo, path: Path) -> None:
    """Where units fell on the scenario's map: a count per cell over the walls (grey)."""
    from matplotlib.colors import ListedColormap

    counts = np.asarray(scenario["fallen"]["cells"], dtype=float).reshape(info.height, info.width)
    walls = np.zeros((info.height, info.width))
    for x, y in info.walls:
        walls[y, x] = 1
    aspect = info.height / max(1, info.width)
    fig = _figure(8.0, max(3.0, 8.0 * aspect * 0.9 + 0.8))
    ax = fig.add_subplot()
    ax.imshow(walls, cmap=ListedColormap(["#f4f1ea", "#555555"]), vmin=0, vmax=1, interpolation="nearest")
    shown = np.ma.masked_where(counts == 0, counts)
    image = ax.imshow(shown, cmap="inferno_r", vmin=0, vmax=max(1.0, float(counts.max())), interpolation="nearest",
                      alpha=0.9)
    fig.colorbar(image, ax=ax, label="units fallen", shrink=0.8)
    ax.set_title(f"{scenario['scenario']}: where units fell in {scenario['battles']} battles ({int(counts.sum())} units)")
    ax.set_xticks([])
    ax.set_yticks([])
    _save(fig, path)


def slug(text: str) -> str:
    """A file-name part from a scenario's file name."""
    return re.sub(r"[^A-Za-z0-9_-]+", "_", Path(text).stem).strip("_") or "scenario"


def heat_map_names(files: Sequence[str]) -> list[str]:
    """The heat map's file name of each scenario file: `fallen-<stem>.png`, numbered when stems repeat (never a
    name already given: `a.yaml`, `b/a.yaml`, `a-2.yaml` give `fallen-a.png`, `fallen-a-2.png`, `fallen-a-2-2.png`)."""
    taken: set[str] = set()
    out = []
    for f in files:
        name, k = slug(f), 1
        while name in taken:
            k += 1
            name = f"{slug(f)}-{k}"
        taken.add(name)
        out.append(f"fallen-{name}.png")
    return out
