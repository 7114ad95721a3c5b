"""Story chips in play (R-8.5): every shipped Future Imperfect scenario with `chips: true`, cards and dice, the
utility AI against the baselines: the bin is conserved after every event, no hand goes negative, the AI never
names a chip it does not hold, the deck stays whole, wounds and CT stay in range, every chip event reads as
text and round-trips through JSON (C-3) — and chips really are spent."""

from __future__ import annotations

from pathlib import Path

from skirmish.ai.controllers import make_ai
from skirmish.battle import Battle
from skirmish.content.scenario import load_scenario
from skirmish.core.events import Event
from skirmish.ecs.components import Health, Profile
from skirmish.rules.fi.chips import BIN, COLOURS

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "scenarios").glob("*.yaml"))


def test_chips_soak_keeps_the_invariants() -> None:
    spent = {"check": 0, "wounds": 0}
    for i, path in enumerate(SCENARIOS * 2):
        mode = "cards" if i < len(SCENARIOS) else "dice"
        sc = load_scenario(path).with_options(chips=True, randomizer=mode)
        names = [s.name for s in sc.spec.sides]
        opponent = ("hold", "rush", "focus")[i % 3]
        ctrl = {n: make_ai("utility" if k == i % 2 else opponent) for k, n in enumerate(names)}
        bad: list[str] = []
        holder: dict[str, Battle] = {}

        def watch(e: Event, bad: list[str] = bad, holder: dict[str, Battle] = holder) -> None:
            b = holder.get("b")
            if b is None:
                return
            bank = b.sys.ctx.chips
            for c in COLOURS:
                if bank.bin.chips[c] + sum(h[c] for h in bank.hands.values()) != BIN[c]:
                    bad.append(f"{c} chips not conserved after {e.type}")
                if any(h[c] < 0 for h in bank.hands.values()):
                    bad.append(f"a hand holds fewer than no {c} chips")
            if b.sys.ctx.deck is not None and len(b.sys.ctx.deck) != 54:
                bad.append(f"deck holds {len(b.sys.ctx.deck)} cards")
            if e.type == "chip":
                if e.refused:
                    bad.append(f"the AI spent a chip it could not: {e.describe()}")
                spent["check" if e.use != "wounds" else "wounds"] += 1
                assert e.describe() and Event.from_json(e.to_json()) == e

        b = Battle(sc, seed=i + 1, controllers=ctrl, on_event=watch)  # type: ignore[arg-type]
        holder["b"] = b
        with b:
            b.run()
            assert not bad, (path.stem, mode, bad[:3])
            assert [e.type for e in b.log].count("chips_drawn") == len(names)
            for eid, _ in b.world.units():
                hp = b.world.get(eid, Health)
                assert 0 <= hp.wounds <= 6 and 0 <= hp.ct <= b.world.get(eid, Profile).ct_max
    assert spent["check"] > 0 and spent["wounds"] > 0, spent
