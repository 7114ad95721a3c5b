"""How Future Imperfect's events read in the log: the pieces the event classes (rules/fi/events.py, combat_events.py) share.

The JSON shapes of their nested parts (a hit, an armour layer, a scatter), and their text: modifiers with their
reasons, what was turned or rolled, a hit's armour and damage, and the lines of a check (draw, TN, modifiers)
shown when a log line is opened.
"""

from __future__ import annotations

from typing import Any, TypedDict

from skirmish.core.reads import CheckRead, DrawRecord, Mod
from skirmish.rules.fi.initiative import PHASE_NAMES


class Layer(TypedDict):
    """One armour layer a hit met (R-6.7): the PN against its AV, the ablation band read and the result."""

    armour: str
    pn: int
    av: int
    card: str  # the band read off the card (P, A or D)
    result: str  # after bumps and the toggle
    av_loss: int


class _HitKeys(TypedDict):
    location: str
    counted: bool  # a PRONE-marked box is no hit on a prone target
    level: str  # full | reduced | none
    damage: int
    wounds: int
    ct: int


# (Optional keys by a subclass with total=False: NotRequired is not seen in postponed annotations on 3.11.)
class Hit(_HitKeys, total=False):
    """One hit of a shot or blast (R-6.8): where, whether it counted, the damage and what it did; the cover
    it met, the armour layers and the damage row when there were any."""

    cover: str  # penetrated | stopped
    ablation: list[Layer]
    row: int


# Where a missed throw went: clock hour, multiplier × margin metres (capped at the throw: `wanted_m`
# before the cap), from the target or the thrower (a CF), stopped by a wall or not.
Scatter = TypedDict("Scatter", {"clock": int, "multiplier": int, "margin": int, "metres": float, "wanted_m": float,
                                "from": str, "stopped": bool})


def phase_label(phase: int) -> str:
    """An FI phase by its name: I-IV."""
    return PHASE_NAMES.get(phase, str(phase))


def mods_text(mods: list[Mod]) -> str:
    """Modifiers on one line: "+2 aimed ×1 (R-6.2); -1 range"."""
    return "; ".join(f"{m['value']:+d} {m['reason']}" for m in mods)


def draw_text(d: DrawRecord | CheckRead) -> str:
    """What was read: "card 12 +chain [30]", or the dice."""
    if "card" in d:
        chain = d.get("chained") or d.get("chain")
        extra = f" +chain {chain}" if chain else ""
        return f"card {d['card']}{extra}"
    if "dice" in d:
        rolls: list[Any] = list(d["dice"])
        if rolls and not isinstance(rolls[0], dict):  # one check's own dice (e.g. initiative)
            return f"dice {rolls} (d{d.get('sides', '?')})"
        return "dice " + " ".join(str(r.get("dice", r.get("effect"))) for r in rolls)
    return ""


def layer_text(a: Layer) -> str:
    """A layer in the log line: "vest PN 4 vs AV 3: P"."""
    return f"{a['armour']} PN {a['pn']} vs AV {a['av']}: {a['result']}"


def hits_text(hits: list[Hit]) -> str:
    """Every hit of an attack on one line, "|" between them."""
    parts = []
    for h in hits:
        bits = [h["location"]]
        if not h["counted"]:
            bits.append("not PRONE-marked: no hit")
        if h.get("cover"):
            bits.append(f"cover {h.get('cover')}")
        bits += [layer_text(a) for a in h.get("ablation", [])]
        if h["damage"]:
            bits.append(f"{h['damage']} dmg = {h['wounds']}W {h['ct']}CT")
        parts.append(" / ".join(bits))
    return " | ".join(parts)


def check_lines(draw: DrawRecord | CheckRead, read: int | None = None, tn: int | None = None,
                tn_modifiers: list[Mod] | None = None, modifiers: list[Mod] | None = None) -> list[str]:
    """The opened lines of a check: what was read (and the read), the TN with its modifiers, the modifiers."""
    out = []
    text = draw_text(draw)
    if text:
        out.append(f"read: {text}" + (f" -> {read}" if read is not None else ""))
    if tn is not None:
        out.append(f"TN {tn}")
        out += [f"   TN {m['value']:+d}  {m['reason']}" for m in tn_modifiers or []]
    out += [f"   {m['value']:+d}  {m['reason']}" for m in modifiers or []]
    return out


def hit_lines(hits: list[Hit]) -> list[str]:
    """The opened lines of the hits: location, level, cover, each layer, the damage."""
    out = []
    for h in hits:
        bits = [h["location"], h["level"]]
        if h.get("cover"):
            bits.append(f"cover {h.get('cover')}")
        bits += [f"{a['armour']} PN {a['pn']}/AV {a['av']} {a['result']}" for a in h.get("ablation", [])]
        bits.append(f"{h['damage']} dmg = {h['wounds']}W {h['ct']}CT")
        out.append("   hit: " + ", ".join(bits))
    return out
