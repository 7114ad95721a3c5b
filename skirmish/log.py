"""The append-only event log: JSON lines in and out, and a readable line per event (R-10.2, C-3)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from skirmish.content.errors import MIB, ContentError, one_line, read_text
from skirmish.rules.events import Event

LOG_FILE_LIMIT = 64 * MIB  # an event log of a long battle with every AI trace is a few MiB


PHASE_NAMES = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}  # how a step's phase number is written


class EventLog:
    """Events in order of happening."""

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self.events: list[Event] = list(events)

    def append(self, event: Event) -> None:
        """Add an event."""
        self.events.append(event)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)

    def __getitem__(self, i: int) -> Event:
        return self.events[i]

    def jsonl(self) -> str:
        """All events as JSON lines (C-3), byte-stable for a seed (C-5)."""
        return "".join(e.to_line() + "\n" for e in self.events)

    def write(self, path: Path) -> None:
        """Write JSON lines whole or not at all (C-6): see skirmish.fileio; OutputError (an OSError) names
        the path if it cannot be written."""
        from skirmish.fileio import write_text

        write_text(path, self.jsonl())

    @staticmethod
    def read(path: Path) -> EventLog:
        """Read a JSON-lines log with the loaders' bounds (a regular file of at most LOG_FILE_LIMIT bytes);
        ContentError (C-6) names the file and the line."""
        label = str(path)
        events = []
        for n, line in enumerate(read_text(path, label, LOG_FILE_LIMIT).splitlines(), 1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
                if not isinstance(raw, dict):
                    raise ValueError("expected a JSON object")
                events.append(Event.from_json(raw))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError, RecursionError) as exc:
                raise ContentError(label, f"line {n}", f"not an event ({one_line(str(exc))[:80]})") from None
        return EventLog(events)


def _mods(mods: list[dict[str, Any]]) -> str:
    return "; ".join(f"{m['value']:+d} {m['reason']}" for m in mods)


def _draw(d: dict[str, Any]) -> str:
    if "card" in d:
        chain = d.get("chained") or d.get("chain")
        extra = f" +chain {chain}" if chain else ""
        return f"card {d['card']}{extra}"
    if "dice" in d:
        rolls = d["dice"]
        if rolls and not isinstance(rolls[0], dict):  # one check's own dice (e.g. initiative)
            return f"dice {rolls} (d{d.get('sides', '?')})"
        return "dice " + " ".join(str(r.get("dice", r.get("effect"))) for r in rolls)
    return ""


def describe(e: Event) -> str:
    """One readable line that explains the event (the rolls, the TN, the modifiers, the rules)."""
    d = e.data
    where = f"R{e.round}" + (f" {PHASE_NAMES[e.phase]}" if e.phase else "")
    who = e.actor or ""
    rules = f"  [{', '.join(e.rules)}]" if e.rules else ""
    t = e.type
    if t == "battle_start":
        if d["randomizer"] != "cards":
            draws = str(d["randomizer"])
        else:
            draws = "cards (stacked deck)" if d["deck"] == "stacked" else f"cards (deck {d['deck']})"
        return f"== {d['scenario']} | seed {d['seed']} | {draws} | map {d['map']} | sides {', '.join(d['sides'])}"
    if t == "round":
        return f"-- round {e.round} --"
    if t == "declare":
        return f"{where} {who} declares {d['speed'].upper()}{' (still waiting)' if d['carried_wait'] else ''}"
    if t == "initiative":
        mods = f" ({_mods(d['modifiers'])})" if d["modifiers"] else ""
        read = "CF" if d["cf"] else str(d["result"])
        got = f"phase {PHASE_NAMES[d['phase']]}" if d["phase"] else "HESITATES"
        return (f"{where} {who}: Reflex {d['column']}-{d['row']} on {_draw(d)} reads {read}{mods} vs "
                f"{d['bar'].upper()} bar {d['tns']} -> {got}{rules}")
    if t == "turn":
        return f"{where} {who} acts (declared {d['declared'].upper()})"
    if t == "move":
        gait = "runs" if d["running"] else "walks"
        end = d["path"][-1]
        return f"{where} {who} {gait} {d['metres']:.1f} m to {end[0]},{end[1]}{rules}"
    if t == "attack":
        head = (f"{where} {who} {'(trigger) ' if d['trigger'] else ''}fires {d['weapon']} {d['mode']}"
                f"{' burst ' + str(d['burst']) if d['burst'] else ''} at {d['target']} ({d['distance_m']:.1f} m)")
        tnm = _mods(d["tn_modifiers"])
        read = "CF" if d["cf"] else f"{d['read']}{' halved' if d['halved'] else ''}"
        mods = f" {_mods(d['modifiers'])}" if d["modifiers"] else ""
        line = (f"{head}: TN {d['tn']} ({tnm}); {d['column']}-{d['row']} on {_draw(d)} reads {read}{mods}"
                f" = {d['result']} -> {'HIT' if d['hit'] else 'miss'}")
        if d["hit"]:
            line += f", {d['rounds_hit']} round(s), bumps {d['bumps']} pool {d['bump_pool']}"
            if d["spent"]:
                line += f" spent {','.join(d['spent'])}"
            parts = []
            for h in d["hits"]:
                bits = [h["location"]]
                if not h["counted"]:
                    bits.append("not PRONE-marked: no hit")
                if h.get("cover"):
                    bits.append(f"cover {h['cover']}")
                for a in h.get("ablation", []):
                    bits.append(f"{a['armour']} PN {a['pn']} vs AV {a['av']}: {a['result']}")
                if h["damage"]:
                    bits.append(f"{h['damage']} dmg = {h['wounds']}W {h['ct']}CT")
                parts.append(" / ".join(bits))
            line += "; " + " | ".join(parts)
        if d["breakdown"]:
            line += "; BREAKDOWN"
        if "power" in d:
            line += f"; tacpack -{d['power']} ({d['power_left']} left)"
        return line + rules
    if t == "throw":
        read = "CF" if d["cf"] else f"{d['read']}{' halved' if d['halved'] else ''}"
        mods = f" {_mods(d['modifiers'])}" if d["modifiers"] else ""
        line = (f"{where} {who} throws a {d['item'].replace('_', ' ')} at {d['at'][0]},{d['at'][1]} "
                f"({d['distance_m']:.1f} m): TN {d['tn']} ({_mods(d['tn_modifiers'])}); {d['column']}-{d['row']} "
                f"on {_draw(d)} reads {read}{mods} = {d['result']} -> ")
        sc = d["scatter"]
        if sc is None:
            line += "on target"
        else:
            base = "from the thrower (CF)" if sc["from"] == "thrower" else f"missed by {sc['margin']}"
            capped = f", capped from {sc['wanted_m']:g} m" if sc["wanted_m"] > sc["metres"] + 1e-9 else ""
            wall = ", stopped by a wall" if sc["stopped"] else ""
            line += (f"scatters {base}: {sc['clock']} o'clock, x{sc['multiplier']} = {sc['metres']:g} m{capped}{wall}"
                     f"; lands at {d['landed'][0]},{d['landed'][1]}")
        caught = ", ".join(d["caught"]) or "no one"
        return line + f"; the burst ({d['radius_m']:g} m) reaches {caught}{rules}"
    if t == "blast":
        bits = [f"{d['distance_m']:.1f} m, {'full' if d['zone'] == 'full' else 'outer ring'} {d['column']} column"]
        if d["cover"] != "none":
            bits.append(f"cover {d['cover']}")
        for a in d.get("ablation", []):
            bits.append(f"{a['armour']} PN {a['pn']} vs AV {a['av']}: {a['result']}")
        bits.append(f"{d['damage']} dmg = {d['wounds']}W {d['ct']}CT" if d["damage"] else "no damage")
        return f"{where} blast hits {d['target']} ({d['location']}) on {_draw(d)}: {'; '.join(bits)}{rules}"
    if t == "concussion":
        return (f"{where} {who} concussion save {d['column']}-{d['row']} on {_draw(d)}: {d['result']} vs "
                f"{d['tn']} -> {'holds' if d['success'] else 'STUNNED'}{rules}")
    if t == "out_of_action":
        was = f", was {d['was']}" if d.get("was") else ""
        return f"{where} {who} is {d['state'].upper()} ({d['wounds']} wounds, CT {d['ct']}{was}){rules}"
    if t == "trigger":
        first = ("simultaneous" if d.get("simultaneous") else f"{who} fires first" if d["waiter_first"]
                 else f"{d['target']} first: it ends its move before {who} acts")
        return (f"{where} {who} sees {d['target']}: Reflex contest {d['waiter_result']} vs "
                f"{d['mover_result']} -> {first}{rules}")
    if t == "trigger_lost":
        return f"{where} {who} holds fire: {d['reason']}{rules}"
    if t == "reload":
        if d.get("cleared"):
            return f"{where} {who} clears the breakdown{rules}"
        return f"{where} {who} reloads ({d['stage']}/{d['of']}){' - loaded' if d['done'] else ''}{rules}"
    if t == "aim":
        return f"{where} {who} aims at {d['target']} (aim {d['aim']}){rules}"
    if t == "wait":
        return f"{where} {who} waits: {d['trigger']}{rules}"
    if t == "tacpack":
        return f"{where} {who} tacpack: {d['screen']} screen {d['points']}/{d['generator']}{rules}"
    if t == "stunned":
        return f"{where} {who} is stunned and loses this action{rules}"
    if t == "refused":
        return f"{where} {who} REFUSED '{d['action']}': {d['reason']}"
    if t == "result":
        return f"== winner: {d['winner'] or 'draw'} after {d['rounds']} rounds ({d['reason']}); casualties {d['casualties']}"
    if t == "end_turn":
        return f"{where} {who} ends turn"
    if t == "decision":
        others = "; ".join(f"{o['option']} {float(o['score']):.2f}" for o in d.get("runners_up", []))
        return f"{where} {who} decides: {reason_label(d)}" + (f" (over {others})" if others else "") + rules
    return f"{where} {t} {who} {json.dumps(d)}"


# The considerations a reason label quotes, by the option's first word: (name, short, shown as 1 - input).
_REASON_KEYS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    "shoot": (("hit chance", "hit", False), ("kill chance", "kill", False)),
    "walk": (("cover from enemies that see it", "cover", False), ("hit chance", "hit", False)),
    "run": (("cover from enemies that see it", "cover", False), ("hit chance", "hit", False)),
    "throw": (("burst covers the cell", "on target", False), ("friends clear", "friends clear", False)),
    "aim": (("aimed shot's harm", "harm", False), ("hit chance", "hit", False)),
    "reload": (("magazine spent", "spent", False), ("safe to do it", "safe", False)),
    "wait": (("enemy close enough to appear", "enemy near", False), ("cover from enemies that see it", "cover",
                                                                     False)),
    "declare": (("threat here", "threat", False), ("has a shot", "shot", False),
                ("distance to close", "to close", False)),
}


def reason_label(trace: dict[str, Any]) -> str:
    """A decision in a few words, e.g. "Shoot Raider-3 prepared 0.71: hit 64%, kill 41%" (issue 4): the
    chosen option, its score and the two considerations that explain it best."""
    chosen = trace["chosen"]
    option = str(chosen["option"])
    inputs = {c["name"]: float(c["input"]) for c in chosen.get("considerations", [])}
    keys = _REASON_KEYS.get(option.split(" ")[0], ())
    bits = [f"{short} {(1 - inputs[name]) if invert else inputs[name]:.0%}" for name, short, invert in keys
            if name in inputs][:2]
    if not bits and option.split(" ")[0] not in _REASON_KEYS:
        bits = [f"{name} {v:.0%}" for name, v in list(inputs.items())[:1]]
    text = f"{option[:1].upper()}{option[1:]} {float(chosen['score']):.2f}"
    return text + (": " + ", ".join(bits) if bits else "")


def headline(e: Event) -> str:
    """A short line for the board's log panel (the full explanation is `describe` and `details`)."""
    d = e.data
    who = e.actor or ""
    t = e.type
    if t == "attack":
        res = "HIT" if d["hit"] else "miss"
        dmg = f" {sum(h['wounds'] for h in d['hits'])}W {sum(h['ct'] for h in d['hits'])}CT" if d["hit"] else ""
        burst = f" ×{d['burst']}" if d["burst"] else ""
        return f"{who} → {d['target']}{burst}: {d['result']} vs TN {d['tn']} {res}{dmg}"
    if t == "throw":
        where_to = "on target" if d["hit"] else f"scatters to {d['landed'][0]},{d['landed'][1]}"
        return f"{who} throws {d['item'].split('_')[0]}: {d['result']} vs TN {d['tn']} {where_to}"
    if t == "blast":
        return f"blast → {d['target']}: {d['wounds']}W {d['ct']}CT ({d['zone']})"
    if t == "initiative":
        got = f"phase {PHASE_NAMES[d['phase']]}" if d["phase"] else "hesitates"
        return f"{who}: initiative {'CF' if d['cf'] else d['result']} → {got}"
    if t == "decision":
        return f"{who} thinks: {reason_label(d)}"
    line = describe(e)
    return line.split("  [")[0]


def details(e: Event) -> list[str]:
    """The lines shown when a log line is opened: the draw, the TN, each modifier with its reason, the rules."""
    d = e.data
    out = [describe(e).split("  [")[0]]
    draw = _draw(d)
    if draw:
        out.append(f"read: {draw}" + (f" -> {d['read']}" if "read" in d else ""))
    if "tn" in d:
        out.append(f"TN {d['tn']}")
        for m in d.get("tn_modifiers", []):
            out.append(f"   TN {m['value']:+d}  {m['reason']}")
    for m in d.get("modifiers", []):
        out.append(f"   {m['value']:+d}  {m['reason']}")
    for h in d.get("hits", []):
        bits = [h["location"], h["level"]]
        if h.get("cover"):
            bits.append(f"cover {h['cover']}")
        for a in h.get("ablation", []):
            bits.append(f"{a['armour']} PN {a['pn']}/AV {a['av']} {a['result']}")
        bits.append(f"{h['damage']} dmg = {h['wounds']}W {h['ct']}CT")
        out.append("   hit: " + ", ".join(bits))
    sc = d.get("scatter") if e.type == "throw" else None
    if sc:
        out.append(f"   scatter: clock {sc['clock']}, thrown multiplier {sc['multiplier']} x margin {sc['margin']}"
                   f" = {sc['wanted_m']:g} m, capped at the throw -> {sc['metres']:g} m from the {sc['from']}")
    if e.type == "decision":
        for rank, o in enumerate([d["chosen"], *d.get("runners_up", [])]):
            out.append(f"{'chosen' if rank == 0 else 'runner-up'}: {o['option']} = {float(o['score']):.3f}"
                       + (f" (momentum x{o['momentum']})" if "momentum" in o else ""))
            for c in o.get("considerations", []):
                out.append(f"   {c['name']}: {float(c['input']):.2f} -> {float(c['output']):.2f}")
    if e.rules:
        out.append("rules: " + ", ".join(e.rules))
    return out
