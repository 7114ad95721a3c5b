"""An AI decision's trace as the `decision` event carries it (R-10.2, issue 4), and how it reads.

The trace is the chosen option and the best runners-up, each with every consideration's input and curve
output, its score and the momentum bonus when it had one. The shapes are the JSON the log writes.
"""

from __future__ import annotations

from typing import TypedDict


class ConsiderationTrace(TypedDict):
    """One consideration of an option: its raw input in [0, 1] and the curve's output."""

    name: str
    input: float
    output: float


class _OptionKeys(TypedDict):
    option: str
    action: str
    score: float
    considerations: list[ConsiderationTrace]


# (Optional keys by a subclass with total=False: NotRequired is not seen in postponed annotations on 3.11.)
class OptionTrace(_OptionKeys, total=False):
    """One option weighed: the label, the action's text form, the score and its considerations, and the
    momentum bonus for repeating the last choice when it had it, and a blunt personality's misjudgement of it
    (a factor, `Personality.noise`) when it had one."""

    momentum: float
    noise: float


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


def reason_label(chosen: OptionTrace) -> str:
    """A decision in a few words, e.g. "Shoot Raider-3 prepared 0.71: hit 64%, kill 41%" (issue 4): the
    chosen option, its score and the two considerations that explain it best."""
    option = str(chosen["option"])
    inputs = {c["name"]: float(c["input"]) for c in chosen["considerations"]}
    keys = _REASON_KEYS.get(option.split(" ")[0], ())
    bits = [f"{short} {(1 - inputs[name]) if invert else inputs[name]:.0%}" for name, short, invert in keys
            if name in inputs][:2]
    if not bits and option.split(" ")[0] not in _REASON_KEYS:
        bits = [f"{name} {v:.0%}" for name, v in list(inputs.items())[:1]]
    text = f"{option[:1].upper()}{option[1:]} {float(chosen['score']):.2f}"
    return text + (": " + ", ".join(bits) if bits else "")


def decision_label(chosen: OptionTrace, intent: str | None = None) -> str:
    """The reason label with the side's intent in a word when the trace has one (issue 12):
    "Walk to 5,3 0.52: cover 60% · pressing" (the intent's whole line is in the log's details)."""
    label = reason_label(chosen)
    return f"{label} · {intent.split(':')[0]}" if intent else label


def runners_up_text(runners_up: list[OptionTrace]) -> str:
    """The runners-up with their scores, for the log line: "walk 14,3 0.52; wait 0.31"."""
    return "; ".join(f"{o['option']} {float(o['score']):.2f}" for o in runners_up)


def trace_lines(chosen: OptionTrace, runners_up: list[OptionTrace]) -> list[str]:
    """Every option weighed and each of its considerations, for the opened log line."""
    out = []
    for rank, o in enumerate([chosen, *runners_up]):
        out.append(f"{'chosen' if rank == 0 else 'runner-up'}: {o['option']} = {float(o['score']):.3f}"
                   + (f" (momentum x{o['momentum']})" if "momentum" in o else "")
                   + (f" (misjudged x{o['noise']})" if "noise" in o else ""))
        for c in o["considerations"]:
            out.append(f"   {c['name']}: {float(c['input']):.2f} -> {float(c['output']):.2f}")
    return out
