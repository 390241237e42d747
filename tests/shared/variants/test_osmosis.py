"""Osmosis as docs/rules.md describes it, checked through notation strings."""

from __future__ import annotations

import random

import pytest

from shared.cards import NAME
from shared.deals import aisleriot_deal
from shared.errors import IllegalMove, InvalidOptions
from shared.game import Game
from shared.position import Position
from shared.stuck import no_progress_possible
from shared.variants.base import DEAL, InternalMove
from shared.variants.osmosis import OsmosisRules

RULES = OsmosisRules()
THREE = OsmosisRules({"deal_three": True})


def game(text: str, rules: OsmosisRules = RULES) -> Game:
    return Game(rules, 1, position=rules.position_from_text(text))


def text(g: Game) -> str:
    return g.rules.position_text(g.position)


# -- layout and deal -----------------------------------------------------------------


def test_layout_and_metadata() -> None:
    assert RULES.id == "osmosis"
    assert RULES.name == "Osmosis"
    assert RULES.pile_ids == ("r0", "r1", "r2", "r3", "f0", "f1", "f2", "f3", "s", "w")
    assert RULES.option_defaults == {"deal_three": False}
    assert RULES.max_score == 52
    assert RULES.card_count == 52
    assert (RULES.deal_count, RULES.max_redeals) == (1, 2)
    assert (THREE.deal_count, THREE.max_redeals) == (3, None)


DEALS = {
    1: "r0: ?9C ?6S ?TD 3H\nr1: ?QH ?AC ?AD 9D\nr2: ?8D ?4D ?2S 3D\nr3: ?3C ?KS ?JS 5S\n"
    "f0: JC\ns: ?7S ?2H ?AH ?7C ?TH ?5H ?2C ?TS ?7D ?8S ?4S ?8C ?QC ?QD ?JD ?6H ?TC ?KC ?6D "
    "?KH ?QS ?5C ?5D ?4C ?9S ?9H ?KD ?4H ?8H ?AS ?JH ?6C ?2D ?7H ?3S",
    2: "r0: ?QH ?AS ?2H JS\nr1: ?6C ?3D ?QS 4H\nr2: ?7S ?9D ?7D 5H\nr3: ?3C ?7H ?6D KC\n"
    "f0: 3S\ns: ?6S ?5S ?4C ?8H ?4S ?5C ?JC ?9S ?8D ?4D ?2S ?7C ?KS ?TH ?KD ?AC ?AD ?9H ?QC "
    "?3H ?TS ?5D ?TC ?9C ?2C ?6H ?KH ?JH ?2D ?8C ?QD ?JD ?AH ?TD ?8S",
    1000: "r0: ?7H ?2S ?KC 8S\nr1: ?QS ?QC ?7S 3C\nr2: ?TD ?9D ?7D JD\nr3: ?3S ?5S ?4S 4D\n"
    "f0: 6H\ns: ?8C ?TC ?JS ?3H ?9S ?KS ?9C ?QD ?8H ?2H ?QH ?AS ?JH ?3D ?4C ?9H ?TS ?AH ?4H "
    "?KD ?5H ?5C ?2C ?8D ?6S ?TH ?5D ?AD ?2D ?JC ?AC ?6D ?KH ?6C ?7C",
}


@pytest.mark.parametrize("seed", sorted(DEALS))
def test_deal_vectors(seed: int) -> None:
    assert RULES.position_text(RULES.deal(seed)) == DEALS[seed]
    # The option changes the stock's use, never the deal.
    assert THREE.position_text(THREE.deal(seed)) == DEALS[seed]


def test_deal_follows_the_procedure() -> None:
    cards = [NAME[c] for c in aisleriot_deal(7)]
    pos = RULES.deal(7)
    for r in range(4):
        # Rounds one to three face down, round four face up: cards r, r+4, r+8, r+12.
        assert [NAME[c] for c in pos.piles[r]] == cards[r:16:4]
        assert pos.down[r] == 3
    assert [NAME[c] for c in pos.piles[4]] == [cards[16]]
    stock = pos.piles[8]
    assert len(stock) == 35 and pos.down[8] == 35
    # The next card to be dealt is the stock's top, the last element.
    assert [NAME[c] for c in reversed(stock)] == cards[17:]
    assert pos.piles[9] == [] and pos.redeals_used == 0
    assert sorted(c for pile in pos.piles for c in pile) == sorted(aisleriot_deal(7))


def test_deal_score_and_first_deal_turns_the_next_stock_card() -> None:
    g = Game(RULES, 1)
    assert g.score == 1
    assert g.view()["redeals_left"] == 2
    assert g.play("deal") == "deal"
    assert "w: 3S" in text(g)


# -- what moves, and from where -------------------------------------------------------

POS = """
r0: ?2C ?3C 9S
r1: ?4C 2S
r2: ?6C KH
r3: ?7C 5H
f0: 5S
s: 8C
w: 9D 5D
"""


def test_only_reserve_and_waste_tops_go_to_foundations() -> None:
    g = game(POS)
    assert g.legal_moves() == ["r0>f0", "r1>f0", "r3>f1", "w>f1", "deal"]


def test_f0_takes_the_base_suit_in_any_order() -> None:
    g = game(POS)
    g.play("r0>f0")
    g.play("r1>f0")
    assert "f0: 5S 9S 2S" in text(g)
    assert RULES.why_illegal(g.position, (2, 1, 4)) == (
        "KH cannot go on f0: f0 takes only spades, the base suit"
    )


def test_exposed_reserve_card_turns_face_up() -> None:
    g = game(POS)
    g.play("r0>f0")
    assert text(g).startswith("r0: ?2C 3C\n")
    g.play("undo")
    assert text(g).startswith("r0: ?2C ?3C 9S\n")


def test_empty_follower_takes_a_base_rank_card_only_after_the_one_before() -> None:
    pos = RULES.position_from_text(POS)
    assert RULES.why_illegal(pos, (2, 1, 5)) == (
        "KH cannot start f1: an empty foundation takes only a card of the base rank, 5"
    )
    assert RULES.why_illegal(pos, (3, 1, 6)) == "5H cannot start f2: f1 is not started yet"
    g = game(POS)
    g.play("r3>f1")
    # f1 is started, so the first empty foundation, f2, now takes a five.
    assert g.legal_moves() == ["r0>f0", "r1>f0", "w>f2", "deal"]
    g.play("w>f")
    assert "f2: 5D" in text(g)


def test_started_follower_takes_its_suit_in_ranks_present_before_it() -> None:
    g = game("r0: 9H\nr1: 3H\nr2: 9D\nr3: 2D\nf0: 5S 9S 2S\nf1: 5H\nf2: 5D\ns: 8C")
    assert g.legal_moves() == ["r0>f1", "deal"]
    pos = g.position
    assert RULES.why_illegal(pos, (3, 1, 6)) == "2D cannot go on f2: no 2 on f1 yet"
    assert RULES.why_illegal(pos, (1, 1, 5)) == "3H cannot go on f1: no 3 on f0 yet"
    assert RULES.why_illegal(pos, (2, 1, 5)) == "9D cannot go on f1: f1 takes only hearts"
    # f2 follows f1, not f0: a nine reaches f2 only once 9H is on f1.
    assert RULES.why_illegal(pos, (2, 1, 6)) == "9D cannot go on f2: no 9 on f1 yet"
    g.play("r0>f1")
    assert g.legal_moves() == ["r2>f2", "deal"]
    g.play("r2>f")
    assert "f1: 5H 9H\nf2: 5D 9D" in text(g)


def test_nothing_is_placed_on_reserves_waste_or_stock_and_foundations_stay() -> None:
    pos = RULES.position_from_text(POS)
    reasons = {
        (0, 1, 1): "nothing is ever placed on a reserve such as r1",
        (0, 1, 9): "only deal puts cards on the waste",
        (9, 1, 8): "nothing is ever placed on the stock",
        (4, 1, 5): "cards on the foundations never move in osmosis",
        (8, 1, 4): "the stock's cards are turned with deal, not moved",
        (0, 2, 4): "r0 has only 1 face-up cards",
        (9, 2, 5): "one card at a time goes to a foundation",
        (5, 1, 4): "cards on the foundations never move in osmosis",
        (6, 1, 4): "cards on the foundations never move in osmosis",
        (0, 1, 0): "r0 cannot move onto itself",
    }
    for move, reason in reasons.items():
        assert RULES.why_illegal(pos, move) == reason
        assert move not in RULES.legal(pos)


# -- stock, deals, redeals, options ------------------------------------------------------


def test_one_card_per_deal_and_two_redeals_keeping_the_order() -> None:
    pos = RULES.position_from_text("r0: 3H\nf0: 5S\ns: 7D 2D 3D")
    for redeals in range(3):
        turned = []
        for _ in range(3):
            assert DEAL in RULES.legal(pos)
            RULES.apply(pos, DEAL)
            turned.append(NAME[pos.piles[9][-1]])
        # The card first turned is turned first again on every pass.
        assert turned == ["3D", "2D", "7D"]
        assert pos.redeals_used == redeals
        assert RULES.redeals_left(pos) == 2 - redeals
        if redeals < 2:
            RULES.apply(pos, DEAL)
            assert RULES.position_text(pos) == (
                f"r0: 3H\nf0: 5S\ns: ?7D ?2D ?3D\nredeals_used: {redeals + 1}"
            )
    assert DEAL not in RULES.legal(pos)
    assert RULES.why_illegal(pos, DEAL) == "the stock is empty and no redeal is left"


def test_redeals_left_in_the_view() -> None:
    g = game("r0: 3H\nf0: 5S\ns: 6S 2D")
    g.play("deal")
    g.play("deal")
    assert g.view()["redeals_left"] == 2
    g.play("deal")
    assert g.view()["redeals_left"] == 1
    assert text(g) == "r0: 3H\nf0: 5S\ns: ?6S ?2D\nredeals_used: 1"


def test_deal_three_turns_three_then_what_is_left_and_redeals_forever() -> None:
    g = game("r0: 3H\nf0: 5S\ns: 6S 2D 3D 4D 7D", THREE)
    g.play("deal")
    assert text(g).endswith("s: ?6S ?2D\nw: 7D 4D 3D")
    g.play("deal")
    assert text(g).endswith("w: 7D 4D 3D 2D 6S")
    for _ in range(10):
        g.play("deal")
        assert text(g).endswith("s: ?6S ?2D ?3D ?4D ?7D")
        assert g.view()["redeals_left"] is None
        g.play("deal")
        g.play("deal")
    g.play("w>f0")
    assert "f0: 5S 6S" in text(g)


def test_options_are_checked() -> None:
    with pytest.raises(InvalidOptions):
        OsmosisRules({"deal_three": 1})
    with pytest.raises(InvalidOptions):
        OsmosisRules({"draw": 3})
    assert OsmosisRules({"deal_three": True}).options == {"deal_three": True}


# -- score, undo, auto, won, stuck ----------------------------------------------------------


def test_score_counts_foundation_cards_from_the_base_card() -> None:
    g = game("r0: ?9D 9H\nr1: 5D\nf0: 5S 9S 2S\nf1: 5H\ns: 8C")
    assert g.score == 4
    g.play("r0>f1")
    g.play("r1>f2")
    g.play("r0>f2")
    assert g.score == 7
    assert g.view()["score"] == 7
    assert RULES.score(RULES.deal(5)) == 1


def test_undo_restores_the_view() -> None:
    g = Game(RULES, 2)
    before = g.view(reveal=True)
    g.play("r0>f0")
    g.play("deal")
    g.play("undo")
    g.play("undo")
    after = g.view(reveal=True)
    assert after["ply"] == 4 and after["moves"] == 4
    for key in ("piles", "score", "redeals_left", "legal", "state"):
        assert after[key] == before[key]


def test_auto_plays_until_nothing_goes_and_undoes_as_one() -> None:
    g = game("r0: ?9H 9S\nr1: 5H\nr2: 3H\nf0: 5S\ns: 8C")
    assert g.play("auto") == "auto"
    assert text(g) == "r2: 3H\nf0: 5S 9S\nf1: 5H 9H\ns: ?8C"
    assert g.actions == ["auto"]
    g.play("undo")
    assert text(g) == "r0: ?9H 9S\nr1: 5H\nr2: 3H\nf0: 5S\ns: ?8C"


def test_auto_that_moves_nothing_is_refused() -> None:
    g = game("r0: 3H\nf0: 5S\ns: 6S 2D")
    with pytest.raises(IllegalMove, match="auto would move nothing"):
        g.play("auto")


def test_double_click_records_the_foundation_chosen() -> None:
    g = game(POS)
    assert g.play("r3>f") == "r3>f1"
    assert g.play("w>f") == "w>f2"
    with pytest.raises(IllegalMove, match="no foundation takes KH"):
        g.play("r2>f")


def won_minus_one() -> str:
    suits = {"f0": "S", "f1": "H", "f2": "D", "f3": "C"}
    lines = []
    for fid, suit in suits.items():
        ranks = "5A2346789TJQK" if suit != "C" else "5A2346789TJQ"
        lines.append(f"{fid}: " + " ".join(r + suit for r in ranks))
    return "r0: KC\n" + "\n".join(lines)


def test_won_when_every_card_is_home() -> None:
    g = game(won_minus_one())
    assert g.score == 51
    g.play("r0>f3")
    assert g.state == "won"
    assert g.score == 52
    assert g.legal_moves() == []


def test_stuck_when_no_wanted_card_can_surface() -> None:
    # KS is wanted but buried under 3H; the stock and waste hold no spade or five,
    # and the passes are used up: deal is legal, yet nothing can reach a foundation.
    g = game("r0: ?KS 3H\nf0: 5S\ns: 2D\nw: 4D\nredeals_used: 2")
    assert RULES.legal(g.position) == [DEAL]
    assert g.state == "stuck"
    assert g.legal_moves() == []
    with pytest.raises(IllegalMove, match="stuck"):
        g.play("deal")


def test_a_wanted_waste_card_with_a_redeal_left_is_not_stuck() -> None:
    g = game("r0: ?KS 3H\nf0: 5S\ns: 2D\nw: 6S 4D\nredeals_used: 1")
    assert g.state == "playing"
    assert RULES.quick_progress(g.position)


def test_deal_three_stuck_when_the_wanted_card_never_surfaces() -> None:
    # Dealing order 4D 3D 2D 6S 7D, three at a time: only 2D and 7D reach the top.
    dead = game("r0: 3H\nf0: 5S\ns: 7D 6S 2D 3D 4D", THREE)
    assert no_progress_possible(THREE, dead.position)
    # Order 4D 3D 6S 2D 7D: 6S surfaces with the first deal.
    live = game("r0: 3H\nf0: 5S\ns: 7D 2D 6S 3D 4D", THREE)
    assert not no_progress_possible(THREE, live.position)
    # The player sees neither stock's order, so both games show the same state: "stuck"
    # would tell which order the stock is in (docs/fair-play.md).
    assert dead.state == live.state == "playing"
    assert THREE.quick_progress(live.position)
    live.play("deal")
    assert live.legal_moves() == ["w>f0", "deal"]


# -- agreement of legal() and why_illegal(), and of quick_progress with search ----------------


def playout_positions(rules: OsmosisRules, seeds: range, rng: random.Random) -> list[Position]:
    positions = []
    for seed in seeds:
        g = Game(rules, seed)
        while True:
            moves = g.legal_moves()
            positions.append(g.position.copy())
            if not moves:
                break
            g.play(rng.choice(moves))
    return positions


def candidates(pos: Position) -> list[InternalMove]:
    moves = [DEAL]
    n = len(pos.piles)
    for src in range(n):
        for dst in range(n):
            for count in range(1, len(pos.piles[src]) + 1):
                moves.append((src, count, dst))
    return moves


@pytest.mark.parametrize("rules", [RULES, THREE], ids=["one", "three"])
def test_why_illegal_agrees_with_legal(rules: OsmosisRules) -> None:
    rng = random.Random(20261129)
    positions = playout_positions(rules, range(1, 5), rng)
    assert len(positions) > 200
    for pos in positions:
        legal = rules.legal(pos)
        assert len(legal) == len(set(legal))
        for move in candidates(pos):
            reason = rules.why_illegal(pos, move)
            assert (reason is None) == (move in legal), (rules.position_text(pos), move, reason)


@pytest.mark.parametrize("rules", [RULES, THREE], ids=["one", "three"])
def test_quick_progress_is_exactly_the_search(rules: OsmosisRules) -> None:
    rng = random.Random(7)
    verdicts = []
    for pos in playout_positions(rules, range(10, 14), rng):
        legal = rules.legal(pos)
        proven = rules.can_progress_now(pos, legal) or rules.quick_progress(pos)
        assert proven == (not no_progress_possible(rules, pos, budget=10**6))
        verdicts.append(proven)
    # Every playout ends stuck (or won), so both answers were checked.
    assert True in verdicts and False in verdicts
