"""Story chip events (R-8.5, C-3), registered when this module is imported (skirmish.rules.fi.events imports
it): the chips each side draws from the bin at the start, and every chip spent on a check or on damage."""

from __future__ import annotations

from dataclasses import dataclass

from skirmish.core.events import Event, register


def _hand(hand: dict[str, int]) -> str:
    return ", ".join(f"{n} {c}" for c, n in hand.items() if n) or "none"


@register("chips_drawn")
@dataclass(frozen=True, slots=True, kw_only=True)
class ChipsDrawnEvent(Event):
    """A side's story chips at the start (R-8.5): those it carried over (`held`), those drawn from the bin in
    order, the hand it plays with and what the bin holds after."""

    side: str
    held: dict[str, int]
    drawn: list[str]
    hand: dict[str, int]
    bin: dict[str, int]

    def describe(self) -> str:
        drawn = ", ".join(self.drawn) or "nothing"
        return (f"{self.where()} {self.side} draws {drawn} from the bin: holds {_hand(self.hand)} "
                f"(bin {_hand(self.bin)}){self.rules_text()}")


@register("chip")
@dataclass(frozen=True, slots=True, kw_only=True)
class ChipEvent(Event):
    """A story chip spent (R-8.5) by `side` for `actor`: on a check (`use` up, down, redraw or add: the raw read
    `before` and `after`, the cards it drew), or on damage (`use` wounds: wounds and CT negated). `refused` says
    why a scripted chip order could not be carried out (nothing spent)."""

    side: str
    colour: str
    use: str
    before: int | None = None
    after: int | None = None
    cards: list[int] | None = None
    wounds_negated: int | None = None
    ct_negated: int | None = None
    refused: str | None = None
    hand: dict[str, int] | None = None

    def describe(self) -> str:
        who = f"{self.where()} {self.actor or ''}"
        if self.refused:
            return f"{who}: {self.side} cannot spend a {self.colour} chip ({self.refused}){self.rules_text()}"
        if self.use == "wounds":
            what = f"negates {self.wounds_negated} wound(s)" + (f" and {self.ct_negated} CT" if self.ct_negated else "")
        else:
            how = {"up": "the entry above", "down": "the entry below", "redraw": "another card, keeping the better",
                   "add": "another card's chained value added"}[self.use]
            cards = f", card(s) {', '.join(map(str, self.cards))}" if self.cards else ""
            what = f"takes {how}: {self.before} -> {self.after}{cards}"
        left = f" ({self.side} holds {_hand(self.hand)})" if self.hand is not None else ""
        return f"{who} spends a {self.colour.upper()} chip: {what}{left}{self.rules_text()}"


@register("chip_policy")
@dataclass(frozen=True, slots=True, kw_only=True)
class ChipPolicyEvent(Event):
    """A person's side chose how it spends its story chips from now on (R-8.5): `spend` or `keep`."""

    side: str
    policy: str

    def describe(self) -> str:
        how = "spends its chips as the AI would" if self.policy == "spend" else "keeps its chips"
        return f"{self.where()} {self.side} {how} from now on{self.rules_text()}"
