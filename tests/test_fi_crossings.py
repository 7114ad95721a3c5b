"""Where this session's Future Imperfect features meet (issue 14): card hands (R-5.8) with melee (R-7, R-5.4), card
hands with the mind (R-8.4), melee with the mind, the mind with story chips (R-8.5). Each helper tested its own
feature alone; these battles put two together."""

from __future__ import annotations

from pathlib import Path

from skirmish.ai.controllers import ScriptedController
from skirmish.battle import Battle
from skirmish.content.scenario import parse_scenario
from skirmish.ecs.fi_mind import Mind
from skirmish.rules.actions import Declare, EndTurn, parse_action
from skirmish.rules.deck import Card
from tests.conftest import make_card, write_deck

T = "{strength: III-2, dexterity: III-2, reflexes: %s, vigor: III-2, acuity: II-2}"


def _unit(name: str, x: int, y: int, reflexes: str = "IV-3", extra: str = "") -> str:
    return f"{{name: {name}, at: [{x}, {y}], traits: {T % reflexes}{extra}}}"


def _battle(tmp_path: Path, me: str, foe: str, options: str = "initiative: cards", seed: int = 3,
            cards: list[Card] | None = None) -> Battle:
    deck = ""
    if cards is not None:  # a stacked deck, in draw order
        write_deck(tmp_path / "deck.json", cards)
        deck = "deck: {cards: deck.json, shuffle: false}\n"
    text = (f"name: t\nseed: {seed}\noptions: {{{options}}}\n{deck}map: {{ascii: ['........', '........', '........']}}\n"
            f"sides:\n  - name: Blue\n    controller: scripted\n    units: [{me}]\n"
            f"  - name: Red\n    controller: scripted\n    units: [{foe}]\n")
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    return Battle(sc, controllers={s.name: ScriptedController([]) for s in sc.spec.sides})  # type: ignore[arg-type]


def _next_turn(b: Battle, unit: str, others: str = "end") -> None:
    """Answer hands/declarations NORMAL and end other units' turns until `unit` is asked to act."""
    for _ in range(400):
        p = b.pending
        assert p is not None, "the battle ended"
        if p.kind == "declare":
            b.submit(Declare(p.unit, "normal"))
        elif p.unit == unit:
            return
        else:
            b.submit(EndTurn(p.unit))
    raise AssertionError(f"{unit} never acted")


KNIFE = ", skills: {fighting:knives: 2}, melee: [combat_knife]"
BRAWLER = ", skills: {fighting:brawling: 2}"


def test_one_blow_per_action_card_even_with_a_fast_knife(tmp_path: Path) -> None:
    """R-5.8: one card is one action: a move and one complex action. A FAST knife's blows fit a NORMAL
    turn twice (R-5.3), but a card carries one blow; the next blow waits for the next card."""
    b = _battle(tmp_path, _unit("Me", 2, 1, extra=KNIFE), _unit("Foe", 3, 1, extra=BRAWLER), seed=1)
    _next_turn(b, "Me")
    assert b.check(parse_action("melee Me Foe")) is None
    b.submit(parse_action("melee Me Foe"))
    assert b.pending is not None and b.pending.unit == "Me"
    assert b.view().unit("Me").melee.held == "combat_knife"  # (seed 1: the knife holds; two FAST blows fit NORMAL)
    refusal = b.check(parse_action("melee Me Foe"))
    assert refusal is not None and "R-5.8" in refusal.rule + refusal.reason
    assert not [a for a in b.legal_actions("Me").melee if a.verb == "melee"]
    blows = [e for e in b.log if e.type == "melee"]
    assert len(blows) == 1
    b.close()


def test_an_active_defence_ends_when_the_defenders_next_card_comes_up(tmp_path: Path) -> None:
    """R-7.5: the defence stands until the unit's next action; under card hands that is its next card (R-5.8),
    not the end of the battle."""
    b = _battle(tmp_path, _unit("Me", 2, 1, extra=KNIFE), _unit("Foe", 3, 1, extra=BRAWLER))
    foe = b.sys.w.entity("Foe")
    _next_turn(b, "Foe")
    b.submit(parse_action("defend Foe fighting"))
    assert b.sys.melee_state(foe).defence is not None
    _next_turn(b, "Foe")  # its next card
    assert b.sys.melee_state(foe).defence is None
    b.close()


def test_annoyed_is_minus_four_on_one_card_not_the_rest_of_the_round(tmp_path: Path) -> None:
    """R-8.4: annoyed is −4 to the next action taken; under card hands the next card's, not every card left in the
    round (the phase table gives one turn a round, so its end-of-round clearing was enough there)."""
    b = _battle(tmp_path, _unit("Me", 2, 1, extra=KNIFE), _unit("Foe", 6, 1, extra=BRAWLER))
    me = b.sys.w.entity("Me")
    b.sys.w.get(me, Mind).annoyed = True
    _next_turn(b, "Me")
    first = b.ctx.round
    assert b.sys.mind_mods(me)  # this card is the annoyed action
    b.submit(EndTurn("Me"))
    _next_turn(b, "Me")
    assert b.ctx.round == first, "Me keeps two cards: its second comes up in the same round"
    assert b.sys.mind_mods(me) == ()
    b.close()


def test_a_blow_reads_the_minds_annoyed_and_focused(tmp_path: Path) -> None:
    """R-8.4 and R-5.4 in melee: an annoyed attacker's blow is at −4 as its shots are, and a defender focused on a
    contest is struck at TN −2 as it is shot at (the phase table; the first card puts Foe in phase I, Me in IV)."""
    cards = [make_card(1, upper={("IV", 3): 10, ("II", 2): 2}), *(make_card(n) for n in range(2, 30))]
    b = _battle(tmp_path, _unit("Me", 2, 1, "II-2", extra=KNIFE), _unit("Foe", 3, 1, extra=BRAWLER), options="",
                cards=cards)
    me = b.sys.w.entity("Me")
    _next_turn(b, "Foe")
    b.submit(parse_action("contest Foe Me kind=taunt mode=focused"))
    assert "focused" in b.view().unit("Foe").mind
    b.sys.w.get(me, Mind).annoyed = True
    _next_turn(b, "Me")
    assert b.ctx.round == 1 and "focused" in b.view().unit("Foe").mind
    b.submit(parse_action("melee Me Foe"))
    blow = [e for e in b.log if e.type == "melee"][-1]
    assert any("annoyed" in m["reason"] and m["value"] == -4 for m in blow.modifiers)
    assert any("focused" in m["reason"] and m["value"] == -2 for m in blow.tn_modifiers)
    b.close()


def test_a_broken_unit_earns_its_foe_a_chip_when_chips_are_played(tmp_path: Path) -> None:
    """R-8.4 broken with R-8.5 on: the fearsome unit's side draws a story chip from the bin (a `chip_draw`, drawn,
    then its `chips_drawn`), the bin conserved; without the option the chip is only recorded as owed."""
    from tests.test_fi_mind import bravery, events, of, scenario, unit

    crew = ("Crew", ["declare A normal", "end A"], [unit("A", 3, 1, "skills: {bravery: 2}")])
    bugs = ("Bugs", ["declare Bug normal", "end Bug"], [unit("Bug", 9, 1, "fearsome: {kind: fear, tn: 7}")])
    cards = [bravery(10, 4)]  # 4 against 7: no success, broken
    evs = events(scenario(tmp_path, cards, crew, bugs, rounds=1, options="randomizer: cards, chips: true"))
    (fear,) = of(evs, "fear")
    assert fear["effect"] == "broken"
    (owed,) = of(evs, "chip_draw")
    assert owed["side"] == "Bugs" and owed["drawn"] is True
    start = {e["side"]: e for e in of(evs, "chips_drawn") if e["round"] == 1 and e["actor"] is None}
    earned = [e for e in of(evs, "chips_drawn") if e["actor"] == "Bug"]
    assert len(earned) == 1 and earned[0]["side"] == "Bugs" and len(earned[0]["drawn"]) == 1
    colour = earned[0]["drawn"][0]
    before = start["Bugs"]["hand"]
    assert earned[0]["hand"] == {**before, colour: before[colour] + 1}
    assert sum(earned[0]["bin"].values()) == sum(start["Bugs"]["bin"].values()) - 1
    plain = events(scenario(tmp_path, cards, crew, bugs, rounds=1))
    assert [e["drawn"] for e in of(plain, "chip_draw")] == [False] and not of(plain, "chips_drawn")


def test_no_charge_is_listed_or_taken_at_an_enemy_the_side_cannot_place(tmp_path: Path) -> None:
    """Fog of war (R-6.1) with charges (R-5.4): Foe slips behind the wall unseen (Blue still places it at 5,1); the
    listed charges must not follow it to 6,2 (that would tell Blue's AI where it is) and a charge there is refused.
    Known where it stands, it can be charged (the listing is not simply empty)."""
    rows = ("...#....", "...#....", "...#....", "...#....", "........")
    cards = [make_card(1, upper={("IV", 3): 10, ("II", 2): 2}), *(make_card(n) for n in range(2, 30))]

    def battle() -> Battle:
        text = (f"name: t\nseed: 3\ndeck: {{cards: deck.json, shuffle: false}}\nmap: {{ascii: {list(rows)!r}}}\n"
                f"sides:\n  - name: Blue\n    controller: scripted\n    units: [{_unit('Me', 1, 1, 'II-2', KNIFE)}]\n"
                f"  - name: Red\n    controller: scripted\n    units: [{_unit('Foe', 5, 1, extra=BRAWLER)}]\n")
        write_deck(tmp_path / "deck.json", cards)
        sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
        return Battle(sc, controllers={s.name: ScriptedController([]) for s in sc.spec.sides})  # type: ignore[arg-type]

    b = battle()
    _next_turn(b, "Foe")
    b.submit(EndTurn("Foe"))
    _next_turn(b, "Me")
    assert [a for a in b.legal_actions("Me").melee if a.verb == "charge"]  # Foe stands where Blue knows it is
    b.close()
    b = battle()
    _next_turn(b, "Foe")
    b.submit(parse_action("move Foe 6,2"))
    _next_turn(b, "Me")
    ghost = b.knowledge.observe(b.view(), "Blue").unit("Foe")
    assert ghost.ghost and ghost.cell == (5, 1)
    assert not [a for a in b.legal_actions("Me").melee if a.verb == "charge"]
    refusal = b.check(parse_action("charge Me Foe at=5,3"))
    assert refusal is not None and refusal.rule == "R-6.1"
    b.close()


def test_an_enemy_out_of_sight_shows_no_live_melee_or_state_of_mind(tmp_path: Path) -> None:
    """Fog of war (R-6.1) with melee and the mind: an enemy Blue does not see is a ghost at its last known cell;
    its state of mind and melee state now (annoyed, an active defence) must not show in Blue's view, while what it
    causes (fearsome, from the roster) and its own side's view stay as they are."""
    from skirmish.ecs.fi_melee_components import MeleeState

    rows = ("...#....", "...#....", "...#....")
    text = (f"name: t\nseed: 3\nmap: {{ascii: {list(rows)!r}}}\nsides:\n  - name: Blue\n    controller: scripted\n"
            f"    units: [{_unit('Me', 1, 1)}]\n  - name: Red\n    controller: scripted\n"
            f"    units: [{_unit('Foe', 5, 1, extra=', fearsome: fear')}]\n")
    sc = parse_scenario(text, str(tmp_path / "t.yaml"), base=tmp_path)
    b = Battle(sc, controllers={s.name: ScriptedController([]) for s in sc.spec.sides})  # type: ignore[arg-type]
    foe = b.sys.w.entity("Foe")
    b.sys.w.get(foe, Mind).annoyed = True
    b.sys.w.get(foe, MeleeState).defence = 9
    b.knowledge.update(b.world, b.sys.ctx.grid, b.ctx.round)
    seen_by_blue = b.knowledge.observe(b.view(), "Blue").unit("Foe")
    assert seen_by_blue.ghost
    assert "annoyed" not in seen_by_blue.mind and "fearsome" in seen_by_blue.mind
    assert seen_by_blue.melee is None or seen_by_blue.melee.defence is None
    own = b.knowledge.observe(b.view(), "Red").unit("Foe")
    assert "annoyed" in own.mind and own.melee.defence == 9
    b.close()


def test_a_card_carries_one_action_a_contest_or_rising_is_one(tmp_path: Path) -> None:
    """R-5.8 with R-8.4 and R-7.6: under card hands a psychological contest (an auxiliary action, R-5.4: no attack
    beside it) or rising from a trip is the card's action; the same card fires no shot and strikes no blow."""
    from skirmish.ecs.fi_melee_components import MeleeState

    gun = ', skills: {"shooting:pistol": 2, taunt: 2, "fighting:knives": 2}, weapons: [blast_pistol], melee: [combat_knife]'
    b = _battle(tmp_path, _unit("Me", 1, 1, extra=gun), _unit("Foe", 6, 1, extra=BRAWLER))
    _next_turn(b, "Me")
    b.submit(parse_action("contest Me Foe kind=taunt mode=cautious"))
    assert b.pending is not None and b.pending.unit == "Me"
    assert b.check(parse_action("shoot Me Foe")) is not None
    assert not b.legal_actions("Me").shots
    b.close()
    b = _battle(tmp_path, _unit("Me", 2, 1, extra=gun), _unit("Foe", 3, 1, extra=BRAWLER))
    b.sys.w.get(b.sys.w.entity("Me"), MeleeState).down = True  # tripped before the battle's first card
    _next_turn(b, "Me")
    b.submit(parse_action("rise Me"))
    assert b.pending is not None and b.pending.unit == "Me"
    assert b.check(parse_action("melee Me Foe")) is not None
    b.close()


def test_a_bulky_weapon_strikes_on_a_card(tmp_path: Path) -> None:
    """R-7.1 under R-5.8: the two-handed axe (NORMAL, bulky: readied each blow) strikes on one action card, as a
    NORMAL weapon takes one card (docs/RULES-NOTES.md, card hands); the phase table's NORMAL declaration, which
    would make ready + blow a SLOW turn, is not the card game's timing."""
    axe = ', skills: {"fighting:axes": 2}, melee: [two_handed_axe]'
    b = _battle(tmp_path, _unit("Me", 2, 1, extra=axe), _unit("Foe", 3, 1, extra=BRAWLER))
    _next_turn(b, "Me")
    assert b.check(parse_action("melee Me Foe")) is None
    assert [a for a in b.legal_actions("Me").melee if a.verb == "melee"]
    b.submit(parse_action("melee Me Foe"))
    assert [e for e in b.log if e.type == "melee"][-1].weapon == "two_handed_axe"
    b.close()


def test_a_charge_combines_with_nothing_on_a_card_either(tmp_path: Path) -> None:
    """R-5.4 under R-5.8: a charge is a move and an attack at once and combines with nothing; a card that has fired
    does not charge as well (the phase table refuses it; the card game must too)."""
    gun = ', skills: {"shooting:pistol": 2, "fighting:knives": 2}, weapons: [blast_pistol], melee: [combat_knife]'
    foe = _unit("Foe", 6, 1, extra=BRAWLER + ", armour: [flak_vest]")
    for options in ("initiative: cards", ""):
        b = _battle(tmp_path, _unit("Me", 0, 1, extra=gun), foe, options=options)
        _next_turn(b, "Me")
        assert b.check(parse_action("charge Me Foe at=5,1")) is None
        b.submit(parse_action("shoot Me Foe mode=snap"))
        if b.pending is not None and b.pending.unit == "Me" and not b.view().unit("Foe").out_of_action:
            refusal = b.check(parse_action("charge Me Foe at=5,1"))
            assert refusal is not None and refusal.rule == "R-5.4", options
            assert not [a for a in b.legal_actions("Me").melee if a.verb == "charge"]
        b.close()


def test_a_chip_saves_a_wound_from_a_melee_blow(tmp_path: Path) -> None:
    """R-8.5 with R-7: saving your skin covers every attack's damage, a blow's too (the blow goes through the shots'
    injury path): the seed's knife 2(4) for 1 wound 3 CT on the Pirate, whose white chip negates the wound."""
    import json
    import shutil

    from tests.conftest import cli

    src = Path(__file__).resolve().parent / "data" / "melee"
    shutil.copy(src / "knife.json", tmp_path / "knife.json")
    text = (src / "knife.yaml").read_text(encoding="utf-8")
    text = text.replace("seed: 1\n", "seed: 1\noptions: {chips: true}\n")
    text = text.replace("  - name: Pirates\n    controller: scripted\n",
                        "  - name: Pirates\n    controller: scripted\n    chips: {white: 1}\n    chip_draws: 0\n"
                        "    chip_orders: [\"Pirate wounds white\"]\n")
    path = tmp_path / "knife.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = cli("run", str(path), "--json")
    assert code == 0, err
    evs = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    (blow,) = [e for e in evs if e["type"] == "melee"]
    assert blow["wounds"] == 1 and blow["ct"] == 3
    (chip,) = [e for e in evs if e["type"] == "chip"]
    assert (chip["actor"], chip["colour"], chip["use"], chip["wounds_negated"]) == ("Pirate", "white", "wounds", 1)
