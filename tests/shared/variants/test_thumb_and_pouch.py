"""Thumb and Pouch as docs/rules.md describes it, checked on hand-built positions, pinned deals."""

from __future__ import annotations

import random

import pytest

from shared.cards import NAME
from shared.deals import aisleriot_deal
from shared.errors import IllegalMove, InvalidOptions
from shared.game import PLAYING, STUCK, WON, Game
from shared.position import Position
from shared.stuck import no_progress_possible
from shared.variants.base import DEAL, InternalMove
from shared.variants.thumb_and_pouch import ThumbAndPouchRules

RULES = ThumbAndPouchRules()
EMPTY_TABLEAU = ("t3", "t4", "t5", "t6")
CARD_NAMES = {name for name in NAME if name}


def game_at(text: str) -> Game:
    return Game(RULES, 1, position=RULES.position_from_text(text))


def to_empties(src: str, count: int = 1) -> set[str]:
    group = f":{count}" if count > 1 else ""
    return {f"{src}{group}>{t}" for t in EMPTY_TABLEAU}


# -- layout, options, deal --------------------------------------------------------


def test_layout_and_identity() -> None:
    assert RULES.pile_ids == (
        "s",
        "w",
        "f0",
        "f1",
        "f2",
        "f3",
        "t0",
        "t1",
        "t2",
        "t3",
        "t4",
        "t5",
        "t6",
    )
    assert (RULES.id, RULES.name, RULES.max_score) == ("thumb_and_pouch", "Thumb and Pouch", 52)
    assert RULES.options == {}


def test_has_no_options() -> None:
    assert ThumbAndPouchRules({}).options == {}
    with pytest.raises(InvalidOptions, match="no option 'deal_three'"):
        ThumbAndPouchRules({"deal_three": True})


DEAL_VECTORS = {
    1: (
        "s: ?7S ?2H ?AH ?7C ?TH ?5H ?2C ?TS ?7D ?8S ?4S ?8C ?QC ?QD ?JD ?6H ?TC ?KC ?6D ?KH"
        " ?QS ?5C ?5D ?4C\n"
        "t0: 9C\n"
        "t1: ?QH KS\n"
        "t2: ?8D ?TD 9D\n"
        "t3: ?3C ?AD ?3D 7H\n"
        "t4: ?6S ?2S ?5S ?2D AS\n"
        "t5: ?AC ?JS ?JC ?6C ?8H KD\n"
        "t6: ?4D ?3H ?3S ?JH ?4H ?9H 9S"
    ),
    2: (
        "s: ?6S ?5S ?4C ?8H ?4S ?5C ?JC ?9S ?8D ?4D ?2S ?7C ?KS ?TH ?KD ?AC ?AD ?9H ?QC ?3H"
        " ?TS ?5D ?TC ?9C\n"
        "t0: QH\n"
        "t1: ?6C 7H\n"
        "t2: ?7S ?2H 4H\n"
        "t3: ?3C ?QS ?5H TD\n"
        "t4: ?AS ?7D ?KC ?AH 8C\n"
        "t5: ?3D ?6D ?3S ?JD ?2D KH\n"
        "t6: ?9D ?JS ?8S ?QD ?JH ?6H 2C"
    ),
    1000: (
        "s: ?8C ?TC ?JS ?3H ?9S ?KS ?9C ?QD ?8H ?2H ?QH ?AS ?JH ?3D ?4C ?9H ?TS ?AH ?4H ?KD"
        " ?5H ?5C ?2C ?8D\n"
        "t0: 7H\n"
        "t1: ?QS 5S\n"
        "t2: ?TD ?KC 3C\n"
        "t3: ?3S ?7S ?JD 6C\n"
        "t4: ?2S ?7D ?4D ?KH JC\n"
        "t5: ?QC ?4S ?6H ?6D ?2D 5D\n"
        "t6: ?9D ?8S ?7C ?AC ?AD ?TH 6S"
    ),
}


@pytest.mark.parametrize("seed", sorted(DEAL_VECTORS))
def test_deal_is_pinned(seed: int) -> None:
    assert RULES.position_text(RULES.deal(seed)) == DEAL_VECTORS[seed]


def test_deal_follows_the_rounds_of_rules_md() -> None:
    cards = aisleriot_deal(77)
    expected: dict[str, list[int]] = {f"t{k}": [] for k in range(7)}
    dealt = iter(cards)
    for r in range(7):
        for k in range(r, 7):
            expected[f"t{k}"].append(next(dealt))
    pos = RULES.deal(77)
    for k in range(7):
        t = RULES.pile(f"t{k}")
        assert pos.piles[t] == expected[f"t{k}"]
        assert pos.down[t] == k  # t_k: k face-down cards under one face-up card
    stock = pos.piles[RULES.stock]
    assert len(stock) == 24 and pos.down[RULES.stock] == 24
    assert stock[-1] == cards[28]  # the next card to be dealt is on top
    assert stock[::-1] == cards[28:]
    assert pos.piles[RULES.waste] == [] and pos.redeals_used == 0


# -- picking up and dropping ------------------------------------------------------

SMALL = """
s: 8D
w: 5C 2H
f0: AH
t0: ?KC 9H 4S 2D
t1: TC
t2: 3C
"""


def test_every_legal_move_of_a_small_position() -> None:
    expected = (
        {"w>f0", "w>t2"}
        | to_empties("w")
        | {"f0>f1", "f0>f2", "f0>f3", "f0>t0"}
        | to_empties("f0")
        | {"t0:3>t1", "t0>t2"}
        | to_empties("t0", 3)
        | to_empties("t0", 2)
        | to_empties("t0")
        | to_empties("t1")
        | to_empties("t2")
        | {"deal"}
    )
    moves = game_at(SMALL).legal_moves()
    assert len(moves) == len(set(moves))
    assert set(moves) == expected


def test_any_face_up_card_moves_with_all_cards_above_it_without_a_build() -> None:
    game = game_at(SMALL)
    game.play("t0:3>t1")  # 9H 4S 2D is no build, yet moves as one group
    assert RULES.position_text(game.position).splitlines()[3:5] == ["t0: KC", "t1: TC 9H 4S 2D"]


def test_face_down_cards_cannot_be_picked_up() -> None:
    game = game_at(SMALL)
    with pytest.raises(IllegalMove, match="t0 has only 3 face-up cards"):
        game.play("t0:4>t3")


def test_waste_and_foundation_give_only_their_top_card() -> None:
    game = game_at(SMALL)
    with pytest.raises(IllegalMove, match="only the top card of w can move"):
        game.play("w:2>t3")
    with pytest.raises(IllegalMove, match="cards leave the stock only by 'deal'"):
        game.play("s>t3")
    with pytest.raises(IllegalMove, match="nothing is ever placed on the waste"):
        game.play("t1>w")


@pytest.mark.parametrize(
    ("under", "card", "reason"),
    [
        ("8H", "7D", None),  # colour does not matter
        ("8C", "7S", None),
        ("8D", "7D", "7D cannot go on 8D: needs a different suit"),
        ("9S", "7D", "7D cannot go on 9S: needs one rank lower"),
        ("6S", "7D", "7D cannot go on 6S: needs one rank lower"),
    ],
)
def test_tableau_takes_one_rank_lower_of_a_different_suit(
    under: str, card: str, reason: str | None
) -> None:
    fillers = "t2: KC\nt3: KD\nt4: KH\nt5: KS\nt6: QH"
    pos = RULES.position_from_text(f"t0: {under}\nt1: {card}\n{fillers}")
    move = (RULES.pile("t1"), 1, RULES.pile("t0"))
    assert RULES.why_illegal(pos, move) == reason
    assert (move in RULES.legal(pos)) == (reason is None)


def test_an_empty_tableau_pile_takes_any_card_or_group_and_each_is_listed() -> None:
    game = game_at("t0: ?2C QD 5S\nt1: AD KH")
    moves = game.legal_moves()
    for t in ("t2", "t3", "t4", "t5", "t6"):
        assert {f"t0:2>{t}", f"t0>{t}", f"t1>{t}"} <= set(moves)
    game.play("t0:2>t4")
    assert "t0: 2C" in RULES.position_text(game.position)  # the exposed card turns face up


def test_foundations_follow_the_common_rule() -> None:
    game = game_at("f0: AH\nt0: 2S\nt1: 3H\nt2: AC 2H\nt3: QD KD")
    moves = set(game.legal_moves())
    assert "t2>f0" in moves and "t0>f0" not in moves and "t1>f0" not in moves
    assert RULES.why_illegal(game.position, (RULES.pile("t0"), 1, RULES.pile("f0"))) == (
        "2S cannot go on AH in f0: needs the same suit, one rank higher"
    )
    assert RULES.why_illegal(game.position, (RULES.pile("t3"), 1, RULES.pile("f1"))) == (
        "KD cannot start f1: an empty foundation takes only an ace"
    )
    assert RULES.why_illegal(game.position, (RULES.pile("t2"), 2, RULES.pile("f1"))) == (
        "one card at a time goes to a foundation"
    )


def test_foundation_cards_stay_in_play() -> None:
    game = game_at("f0: AC 2C 3C\nf1: AD\nt0: 4H\nt1: 2D QS")
    moves = set(game.legal_moves())
    assert {"f0>t0", "f1>f2", "f1>f3"} <= moves  # back to the tableau, an ace to another foundation
    assert "f0>f1" not in moves
    assert game.score == 4
    game.play("f0>t0")
    assert game.score == 3  # the score falls when a card leaves
    game.play("f1>f3")
    assert RULES.position_text(game.position) == "f0: AC 2C\nf3: AD\nt0: 4H 3C\nt1: 2D QS"
    assert game.score == 3


# -- stock and redeals ------------------------------------------------------------


def pile_line(game: Game, pile_id: str) -> str:
    """The line of ``position_text`` for one pile, ``"ID:"`` when it is empty."""
    for line in RULES.position_text(game.position).splitlines():
        if line.startswith(f"{pile_id}:"):
            return line
    return f"{pile_id}:"


def test_deal_turns_one_card_and_two_redeals_keep_the_order() -> None:
    game = game_at("s: ?AH ?3S ?9D ?QC\nt0: KH\nt1: KS\nt2: KC\nt3: KD\nt4: QH\nt5: QS\nt6: JH")
    for stock, waste in (("?AH ?3S ?9D", "QC"), ("?AH ?3S", "QC 9D"), ("?AH", "QC 9D 3S")):
        game.play("deal")
        assert (pile_line(game, "s"), pile_line(game, "w")) == (f"s: {stock}", f"w: {waste}")
    game.play("deal")
    assert (pile_line(game, "s"), pile_line(game, "w")) == ("s:", "w: QC 9D 3S AH")
    for used in (1, 2):
        assert game.view()["redeals_left"] == 3 - used
        game.play("deal")  # the waste turns back, no card is turned: QC will come first again
        assert (pile_line(game, "s"), pile_line(game, "w")) == ("s: ?AH ?3S ?9D ?QC", "w:")
        assert pile_line(game, "redeals_used") == f"redeals_used: {used}"
        for _ in range(4):
            game.play("deal")
        assert pile_line(game, "w") == "w: QC 9D 3S AH"
    assert game.view()["redeals_left"] == 0
    assert RULES.why_illegal(game.position, DEAL) == "the stock is empty and no redeal is left"
    assert "deal" not in game.legal_moves()


def test_deal_needs_a_stock_or_a_waste() -> None:
    pos = RULES.position_from_text("t0: KH")
    assert DEAL not in RULES.legal(pos)
    assert RULES.why_illegal(pos, DEAL) == "the stock and the waste are empty"


# -- score, undo, auto, the end ---------------------------------------------------


def test_score_counts_foundation_cards() -> None:
    pos = RULES.position_from_text("f0: AS 2S 3S 4S\nf1: AD 2D\nf2: AH\nt0: 5S\nt1: 2H\nw: 3D")
    assert RULES.score(pos) == 7
    game = Game(RULES, 1, position=pos)
    game.play("t0>f0")
    game.play("w>f")
    assert game.score == 9 and game.view()["score"] == 9


def test_undo_restores_the_view() -> None:
    game = Game(RULES, 1)
    before = game.view()
    game.play("t4>f0")
    game.play("deal")
    assert game.view()["score"] == 1
    game.undo()
    game.undo()
    after = game.view()
    assert after["moves"] == 4
    for key in ("piles", "score", "state", "redeals_left", "legal"):
        assert after[key] == before[key]


def test_undo_restores_a_redeal() -> None:
    game = game_at("w: AD 4C 9S\nt0: KH")
    game.play("deal")
    assert game.view()["redeals_left"] == 1
    game.undo()
    assert game.view()["redeals_left"] == 2
    assert RULES.position_text(game.position) == "w: AD 4C 9S\nt0: KH"


def test_auto_plays_every_card_it_can_in_pile_order() -> None:
    game = game_at("w: 3S 2S\nf1: AH\nt0: KD AS\nt1: 2H\nt2: QC")
    assert "auto" not in game.legal_moves()
    assert game.play("auto") == "auto"
    # waste first: 2S cannot go yet; t0's AS to f0, then the scan restarts: 2S, 3S, 2H
    assert RULES.position_text(game.position) == "f0: AS 2S 3S\nf1: AH 2H\nt0: KD\nt2: QC"
    game.undo()
    assert RULES.position_text(game.position) == "w: 3S 2S\nf1: AH\nt0: KD AS\nt1: 2H\nt2: QC"
    with pytest.raises(IllegalMove, match="auto would move nothing"):
        game_at("t0: AD KD\nt1: QC").play("auto")


def test_double_click_shorthand_records_the_first_foundation() -> None:
    game = game_at("f0: AH\nt0: AC\nt1: 2H")
    assert game.play("t0>f") == "t0>f1"
    assert game.play("t1>f") == "t1>f0"
    with pytest.raises(IllegalMove, match="no foundation takes"):
        game_at("f0: AH\nt0: 3H\nt1: 2H KS").play("t0>f")


def test_the_last_card_wins() -> None:
    suits = {"f0": "C", "f1": "D", "f2": "H", "f3": "S"}
    ranks = "A23456789TJQK"
    lines = [f"{f}: " + " ".join(r + s for r in ranks) for f, s in suits.items()]
    lines[3] = lines[3].removesuffix(" KS")
    game = game_at("\n".join([*lines, "t0: KS"]))
    assert game.state == PLAYING
    game.play("t0>f3")
    assert game.state == WON and game.score == 52 and game.legal_moves() == []


# -- stuck ------------------------------------------------------------------------

DEAD = "f0: AH\nt0: ?2H 9C\nt1: 5D\nt2: 5S\nt3: 5C\nt4: 5H\nt5: 9D\nt6: 9S"


def test_a_dead_position_is_stuck_and_only_undo_remains() -> None:
    pos = RULES.position_from_text(DEAD)
    # Only the ace can still move (to another foundation), which never adds a card.
    assert {RULES.move_name(m) for m in RULES.legal(pos)} == {"f0>f1", "f0>f2", "f0>f3"}
    assert not RULES.quick_progress(pos)
    assert no_progress_possible(RULES, pos)
    game = Game(RULES, 1, position=pos)
    assert game.state == STUCK and game.legal_moves() == []
    with pytest.raises(IllegalMove, match="stuck"):
        game.play("f0>f1")


def test_a_stuck_game_plays_again_after_undo() -> None:
    fillers = "t0: KC\nt1: KD\nt2: KH\nt3: KS\nt4: 7C\nt5: 7D\nt6: 7H"
    game = game_at(f"s: ?9H\nw: AS\n{fillers}\nredeals_used: 2")
    assert game.state == PLAYING
    game.play("deal")  # 9H buries AS for good: nothing takes 9H and no redeal is left
    assert game.state == STUCK and game.legal_moves() == []
    game.undo()
    assert game.state == PLAYING and "w>f0" in game.legal_moves()


def test_an_ace_buried_in_the_waste_without_a_redeal_is_stuck() -> None:
    text = "w: AS 5D\nt0: KC\nt1: KD\nt2: KH\nt3: KS\nt4: 7C\nt5: 7D\nt6: 7H\nredeals_used: 2"
    assert Game(RULES, 1, position=RULES.position_from_text(text)).state == STUCK
    with_redeal = RULES.position_from_text(text.replace("redeals_used: 2", "redeals_used: 1"))
    assert RULES.quick_progress(with_redeal)
    assert Game(RULES, 1, position=with_redeal).state == PLAYING
    onto_six = RULES.position_from_text(text.replace("7H", "6S"))  # 5D can go on 6S
    assert RULES.quick_progress(onto_six)


def test_progress_through_the_stock_is_found_without_the_generic_search() -> None:
    # 2H is wanted but lies under 9C; 9C needs a ten, which only the stock holds.
    text = "s: ?TD\nf0: AH\nt0: ?2H 9C\nt1: JS\nt2: 5S\nt3: 5C\nt4: 5H\nt5: 9D\nt6: 9S"
    pos = RULES.position_from_text(text)
    assert not RULES.can_progress_now(pos, RULES.legal(pos))
    assert RULES.quick_progress(pos)  # deal TD, TD onto JS, 9C onto TD, 2H turns up
    game = Game(RULES, 1, position=pos)
    for move in ("deal", "w>t1", "t0>t1", "t0>f0"):
        game.play(move)
    assert game.score == 2


# -- why_illegal agrees with legal ------------------------------------------------


def candidates(pos: Position) -> list[InternalMove]:
    n = len(RULES.pile_ids)
    moves: list[InternalMove] = [DEAL]
    for src in range(n):
        for count in range(1, max(1, len(pos.piles[src])) + 1):
            moves.extend((src, count, dst) for dst in range(n))
    return moves


def test_why_illegal_agrees_with_legal_on_random_playouts() -> None:
    rng = random.Random(2026)
    checked = 0
    for seed in (1, 2, 3, 1000, 31337, 2**31 - 1):
        pos = RULES.deal(seed)
        for _ in range(60):
            legal = RULES.legal(pos)
            assert len(legal) == len(set(legal))
            legal_set = set(legal)
            for move in candidates(pos):
                reason = RULES.why_illegal(pos, move)
                assert (reason is None) == (move in legal_set), (
                    RULES.position_text(pos),
                    move,
                    reason,
                )
                if reason is not None:
                    first = reason.split()[0]
                    assert first[0].islower() or first in CARD_NAMES, reason
            checked += 1
            if not legal:
                break
            RULES.apply(pos, rng.choice(legal))
    assert checked >= 300
