"""Westhaven as docs/rules.md states it: layout, deal, pick-up, drops, stock, score, auto, stuck."""

import random

import pytest

from shared.cards import NAME, parse_card
from shared.deals import aisleriot_deal
from shared.errors import IllegalMove, InvalidOptions
from shared.game import Game
from shared.position import Position
from shared.stuck import no_progress_possible
from shared.variants.base import DEAL
from shared.variants.westhaven import WesthavenRules

RULES = WesthavenRules()

# Every card of a suit from the ace up to ``top`` on one foundation, written out.
SUITS = "CDHS"


def run(suit: str, top: int) -> str:
    return " ".join("A23456789TJQK"[r] + suit for r in range(top))


def pos(text: str) -> Position:
    return RULES.position_from_text(text)


def names(position: Position) -> list[str]:
    return [RULES.move_name(m) for m in RULES.legal(position)]


def move(text: str) -> tuple[int, int, int]:
    src, _, rest = text.partition(">")
    count = 1
    if ":" in src:
        src, count_text = src.split(":")
        count = int(count_text)
    return (RULES.index[src], count, RULES.index[rest])


# -- layout and deal -------------------------------------------------------------


def test_layout_and_identity() -> None:
    assert RULES.pile_ids == (
        "s", "w", "f0", "f1", "f2", "f3",
        "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9",
    )  # fmt: skip
    assert (RULES.id, RULES.name, RULES.max_score) == ("westhaven", "Westhaven", 52)
    assert RULES.option_defaults == {}
    assert RULES.deal_count == 1 and RULES.max_redeals == 0


def test_westhaven_has_no_options() -> None:
    with pytest.raises(InvalidOptions, match="westhaven has no option 'deal_three'"):
        WesthavenRules({"deal_three": True})


DEAL_1 = """\
s: ?7S ?2H ?AH ?7C ?TH ?5H ?2C ?TS ?7D ?8S ?4S ?8C ?QC ?QD ?JD ?6H ?TC ?KC ?6D ?KH ?QS ?5C
t0: ?9C ?2S 6C
t1: ?QH ?JS JH
t2: ?8D ?3H AS
t3: ?3C ?9D 8H
t4: ?6S ?3D 4H
t5: ?AC ?5S KD
t6: ?4D ?JC 9H
t7: ?KS ?3S 9S
t8: ?TD ?7H 4C
t9: ?AD ?2D 5D"""

DEAL_2 = """\
s: ?6S ?5S ?4C ?8H ?4S ?5C ?JC ?9S ?8D ?4D ?2S ?7C ?KS ?TH ?KD ?AC ?AD ?9H ?QC ?3H ?TS ?5D
t0: ?QH ?7D JD
t1: ?6C ?6D QD
t2: ?7S ?JS 8C
t3: ?3C ?4H 2D
t4: ?AS ?5H JH
t5: ?3D ?KC KH
t6: ?9D ?3S 6H
t7: ?7H ?8S 2C
t8: ?2H ?TD 9C
t9: ?QS ?AH TC"""

DEAL_1000 = """\
s: ?8C ?TC ?JS ?3H ?9S ?KS ?9C ?QD ?8H ?2H ?QH ?AS ?JH ?3D ?4C ?9H ?TS ?AH ?4H ?KD ?5H ?5C
t0: ?7H ?7D 6D
t1: ?QS ?4S AC
t2: ?TD ?8S JC
t3: ?3S ?3C 2D
t4: ?2S ?JD AD
t5: ?QC ?4D 5D
t6: ?9D ?6H TH
t7: ?5S ?7C 6S
t8: ?KC ?6C 8D
t9: ?7S ?KH 2C"""


@pytest.mark.parametrize(("seed", "text"), [(1, DEAL_1), (2, DEAL_2), (1000, DEAL_1000)])
def test_deal_vectors_never_change(seed: int, text: str) -> None:
    assert RULES.position_text(RULES.deal(seed)) == text


def test_deal_follows_the_procedure_of_the_rules() -> None:
    cards = aisleriot_deal(4242)
    position = RULES.deal(4242)
    # Cards 1-10 and 11-20 face down to t0..t9, 21-30 face up to t0..t9.
    for k, t in enumerate(RULES.tableau):
        assert position.piles[t] == [cards[k], cards[10 + k], cards[20 + k]]
        assert position.down[t] == 2
    # 22 cards stay in the stock, the next card to be dealt (card 31) on top.
    stock = position.piles[RULES.stock]
    assert len(stock) == 22 and stock[-1] == cards[30] and stock[0] == cards[51]
    assert stock == cards[:29:-1]
    assert position.down[RULES.stock] == 22
    assert position.piles[RULES.waste] == []
    assert all(position.piles[f] == [] for f in RULES.foundations)


def test_first_deal_turns_card_31_onto_the_waste() -> None:
    game = Game(RULES, 1)
    assert "deal" in game.legal_moves()
    game.play("deal")
    view = game.view()
    assert view["piles"][1] == {"id": "w", "down": 0, "up": ["5C"]}
    assert view["piles"][0]["down"] == 21
    assert view["redeals_left"] == 0 and view["score"] == 0 and view["max_score"] == 52


# -- what may be picked up ----------------------------------------------------------

# t0 holds a face-up run of three on a face-down king; t1..t3 take its top 1, 2 or 3 cards.
# AH waits in the stock, so the game is not stuck.
RUN = (
    "s: AH\nt0: ?KS 9H 8C 7H\nt1: 8S\nt2: 9D\nt3: TC\nt4: 2C\nt5: 3C\nt6: 4C\nt7: 5C\n"
    "t8: 6C\nt9: KC"
)


def test_a_column_gives_its_top_card_or_its_whole_face_up_part_only() -> None:
    moves = names(pos(RUN))
    assert "t0>t1" in moves  # 7H on 8S: the top card alone
    assert "t0:3>t3" in moves  # 9H 8C 7H on TC: the whole face-up part
    assert "t0:2>t2" not in moves  # 8C 7H would fit on 9D, but it is part of a run
    assert RULES.why_illegal(pos(RUN), move("t0:2>t2")) == (
        "from t0 only the top card or the whole face-up part (3 cards) can move, "
        "never part of a run"
    )
    assert RULES.why_illegal(pos(RUN), move("t0:4>t3")) == "t0 has only 3 face-up cards"


def test_moving_the_face_up_part_turns_the_card_under_it() -> None:
    game = Game(RULES, 1, position=pos(RUN))
    assert game.play("t0:3>t3") == "t0:3>t3"
    text = RULES.position_text(game.position)
    assert "t0: KS\n" in text and "t3: TC 9H 8C 7H" in text


def test_a_column_all_face_up_moves_whole_onto_an_empty_column() -> None:
    position = pos("t0: 9H 8C 7H\nt1: 5D\nt2: 5S\nt3: 2C\nt4: 3C\nt5: 4C\nt6: 5C\nt7: 6C\nt8: 6S")
    moves = names(position)
    assert "t0:3>t9" in moves and "t0>t9" in moves
    assert "t0:2>t9" not in moves
    # Every other top card may go to the empty column too, each listed.
    assert {f"t{i}>t9" for i in range(9)} <= set(moves)


def test_only_the_top_card_of_the_waste_moves() -> None:
    position = pos("w: 7S 7H\nt0: 8S\nt1: 8C\nt2: 2C")
    moves = names(position)
    assert "w>t0" in moves and "w>t1" in moves and "w>t3" in moves
    assert RULES.why_illegal(position, move("w:2>t3")) == "only the top card of the waste can move"


def test_nothing_goes_onto_the_stock_or_the_waste() -> None:
    position = pos("s: 4D\nw: 7S\nt0: 6H")
    assert RULES.why_illegal(position, move("t0>w")) == "nothing can be put on w"
    assert RULES.why_illegal(position, move("t0>s")) == "nothing can be put on s"
    assert RULES.why_illegal(position, move("s>t1")) == "cards leave the stock only by deal"


# -- where cards may be dropped -----------------------------------------------------

DROPS = "w: 7D\nt0: 8D\nt1: 9C\nt2: 8C\nt3: 8H\nt4: KS\nt5: KD\nt6: KH\nt7: QC\nt8: QS\nt9: QH"


def test_onto_a_column_other_colour_one_rank_lower() -> None:
    position = pos(DROPS)
    assert [m for m in names(position) if m.startswith("w")] == ["w>t2"]
    assert RULES.why_illegal(position, move("w>t0")) == "7D cannot go on 8D: needs the other colour"
    assert RULES.why_illegal(position, move("w>t3")) == "7D cannot go on 8H: needs the other colour"
    assert RULES.why_illegal(position, move("w>t1")) == "7D cannot go on 9C: needs one rank lower"


def test_an_empty_column_takes_any_card_or_group() -> None:
    position = pos("w: 2H\nt0: ?3S KD QC JH\nt1: 5S")
    moves = names(position)
    empties = [f"t{i}" for i in range(2, 10)]
    assert all(f"w>{t}" in moves for t in empties)
    assert all(f"t0:3>{t}" in moves for t in empties)
    assert all(f"t1>{t}" in moves for t in empties)


def test_a_group_drops_by_its_bottom_card() -> None:
    position = pos("t0: ?AD 6C 5H\nt1: 7H\nt2: 7S\nt3: 6D")
    moves = names(position)
    assert "t0:2>t1" in moves  # 6C on 7H
    assert "t0:2>t2" not in moves
    assert RULES.why_illegal(position, move("t0:2>t2")) == (
        "6C cannot go on 7S: needs the other colour"
    )


def test_foundations_an_ace_on_each_empty_one_then_same_suit_up() -> None:
    position = pos(f"f1: {run('C', 1)}\nw: AH\nt0: 2C\nt1: 2D\nt2: 3C")
    moves = names(position)
    assert [m for m in moves if m.startswith("w>f")] == ["w>f0", "w>f2", "w>f3"]
    assert "t0>f1" in moves
    assert "t1>f1" not in moves and "t2>f1" not in moves
    assert RULES.why_illegal(position, move("t1>f1")) == (
        "2D cannot go on AC in f1: needs the same suit, one rank higher"
    )
    assert RULES.why_illegal(position, move("t0>f0")) == (
        "2C cannot start f0: an empty foundation takes only an ace"
    )


def test_one_card_at_a_time_to_a_foundation_and_foundation_cards_stay() -> None:
    position = pos("f0: AC\nf1: AD\nt0: 3D 2C\nt1: 3H")
    assert RULES.why_illegal(position, move("t0:2>f0")) == (
        "one card at a time goes to a foundation"
    )
    assert "t0>f0" in names(position)
    assert not any(m.startswith("f") for m in names(position))
    assert RULES.why_illegal(position, move("f1>t2")) == (
        "cards on the foundations are out of play in westhaven"
    )


# -- stock, redeals, scoring -----------------------------------------------------------


def test_stock_deals_one_card_and_is_never_redealt() -> None:
    game = Game(RULES, 1, position=pos("s: AS 2H\nt0: 3H"))
    game.play("deal")
    assert RULES.position_text(game.position) == "s: ?AS\nw: 2H\nt0: 3H"
    game.play("deal")
    assert RULES.position_text(game.position) == "w: 2H AS\nt0: 3H"
    assert "deal" not in game.legal_moves()
    assert game.view()["redeals_left"] == 0
    assert RULES.why_illegal(game.position, DEAL) == (
        "the stock is empty and westhaven deals it only once"
    )
    with pytest.raises(IllegalMove, match="deals it only once"):
        game.play("deal")


def test_score_is_one_per_foundation_card() -> None:
    # 3 clubs + 2 diamonds + 1 heart = 6; then 4C arrives: 7.
    text = f"f0: {run('C', 3)}\nf1: {run('D', 2)}\nf2: AH\nt0: 4C\nt1: KS"
    game = Game(RULES, 1, position=pos(text))
    assert game.score == 6
    game.play("t0>f0")
    assert game.score == 7 and game.view()["score"] == 7


def test_undo_restores_the_view_completely() -> None:
    game = Game(RULES, 1)
    before = game.view()
    game.play("deal")
    game.play(game.legal_moves()[0])
    game.play("undo")
    game.play("undo")
    after = game.view()
    assert after.pop("ply") == 4 and after.pop("moves") == 4 and after.pop("undos") == 2
    assert before.pop("ply") == 0 and before.pop("moves") == 0 and before.pop("undos") == 0
    assert after == before


def test_auto_plays_every_card_it_can_and_undoes_as_one() -> None:
    text = f"f0: {run('C', 2)}\nw: 4C 2D\nt0: ?KD AD\nt1: 3C\nt2: 9S"
    game = Game(RULES, 1, position=pos(text))
    before = RULES.position_text(game.position)
    assert "auto" not in game.legal_moves()
    assert game.play("auto") == "auto"
    # AD (t0) to f1, 2D (waste) on it, 3C (t1) and then 4C (waste) onto the clubs.
    assert RULES.position_text(game.position) == (f"f0: {run('C', 4)}\nf1: AD 2D\nt0: KD\nt2: 9S")
    game.play("undo")
    assert RULES.position_text(game.position) == before


def test_auto_refused_when_it_would_move_nothing() -> None:
    game = Game(RULES, 1, position=pos("t0: 3C\nt1: 4H\ns: AC 9D"))
    assert game.state == "playing"
    with pytest.raises(IllegalMove, match="auto would move nothing"):
        game.play("auto")


def test_double_click_shorthand_records_the_foundation_it_chose() -> None:
    game = Game(RULES, 1, position=pos("f0: AS\nt0: 2C\nt1: AH\nt2: 2S\nt3: AC 3D"))
    assert game.play("t1>f") == "t1>f1"
    assert game.play("t2>f") == "t2>f0"
    with pytest.raises(IllegalMove, match="no foundation takes 2C"):
        game.play("t0>f")
    assert game.actions == ["t1>f1", "t2>f0"]


def test_the_last_card_home_wins() -> None:
    text = "\n".join(f"f{i}: {run(s, 13)}" for i, s in enumerate("CDH"))
    game = Game(RULES, 1, position=pos(f"{text}\nf3: {run('S', 12)}\nt4: KS"))
    assert game.state == "playing" and "t4>f3" in game.legal_moves()
    game.play("t4>f3")
    assert game.state == "won" and game.score == 52 and game.legal_moves() == []


# -- stuck -------------------------------------------------------------------------

# Clubs and the queen and king of hearts are left. QH and 2C, the two cards the foundations
# want, lie under KH, which only an empty column would take; every column is in use. The one
# legal move, QC onto KH, exposes 3C only and leaves no move at all.
DEAD = (
    f"f0: AC\nf1: {run('D', 13)}\nf2: {run('S', 13)}\nf3: {run('H', 11)}\n"
    "t0: ?2C ?QH KH\nt1: 3C QC\nt2: 4C 5C\nt3: 6C\nt4: 7C\nt5: 8C\nt6: 9C\nt7: TC\n"
    "t8: JC\nt9: KC"
)


def test_dead_position_is_stuck_and_takes_only_undo() -> None:
    position = pos(DEAD)
    assert names(position) == ["t1>t0"]
    assert not RULES.quick_progress(position)
    assert no_progress_possible(RULES, position)
    game = Game(RULES, 1, position=position)
    assert game.state == "stuck" and game.legal_moves() == []
    with pytest.raises(IllegalMove, match="stuck"):
        game.play("t1>t0")


def test_a_move_into_the_dead_position_is_stuck_until_undone() -> None:
    # KC waits on the waste and t9 is empty: KH could go there and free QH.
    lively = pos(DEAD.replace("t9: KC", "w: KC"))
    game = Game(RULES, 1, position=lively)
    assert game.state == "playing" and "t0>t9" in game.legal_moves()
    game.play("w>t9")
    assert game.state == "stuck" and game.legal_moves() == []
    game.play("undo")
    assert game.state == "playing" and "w>t9" in game.legal_moves()


def test_quick_progress_finds_a_wanted_card_under_movable_cards() -> None:
    # 2C, wanted on f0, lies under 8D and 9S; 9S (and then 8D) has a place to go: t2 and t3.
    position = pos(
        "f0: AC\nt0: ?KH 2C 9S 8D\nt1: TH\nt2: 9C\nt3: 4S\nt4: 4H\nt5: 5C\nt6: 6S\n"
        "t7: 7S\nt8: 3D\nt9: KS"
    )
    assert not any(m.endswith(">f1") for m in names(position))
    assert RULES.quick_progress(position)
    # A wanted card in the stock will be dealt to the waste top.
    assert RULES.quick_progress(pos("f0: AC\ns: 2C 5H\nt0: KS"))
    # Nothing can uncover QH: no proof (the game is really lost).
    assert not RULES.quick_progress(pos(DEAD))


def test_quick_progress_deals_a_card_to_make_room() -> None:
    # 2C is wanted under 2H, which needs a black 3; 3S is in the stock and fits on 4D (t1).
    columns = "t0: ?2C 2H\nt1: 4D\nt2: KS\nt3: KH\nt4: KD\nt5: KC\nt6: ?6C QS\nt7: ?6D QH\n"
    columns += "t8: ?6H JC\nt9: ?6S JD\nf0: AC"
    assert RULES.quick_progress(pos(f"s: 3S 5S\n{columns}"))
    game = Game(RULES, 1, position=pos(f"s: 3S 5S\n{columns}"))
    for action in ("deal", "deal", "w>t1", "t0>t1", "t0>f0"):
        game.play(action)
    # The waste top serves as well (the stock may then be empty).
    assert RULES.quick_progress(pos(f"w: 5S 3S\n{columns}"))
    assert not RULES.quick_progress(pos(f"w: 3S 5S\n{columns}"))
    # With no black 3 to be had, there is no such proof.
    assert not RULES.quick_progress(pos(f"s: 5S\n{columns}"))


# -- legal() and why_illegal() agree ------------------------------------------------


def random_positions(count: int, seed: int) -> list[Position]:
    """Positions of random play, driven through the rules directly (no stuck check)."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = RULES.deal(rng.randint(1, 2**31 - 1))
        for _ in range(rng.randint(0, 400)):
            moves = RULES.legal(position)
            if not moves:
                break
            RULES.apply(position, rng.choice(moves))
        found.append(position)
    return found


def test_why_illegal_agrees_with_legal_on_every_candidate() -> None:
    piles = range(len(RULES.pile_ids))
    for position in random_positions(300, seed=7):
        legal = RULES.legal(position)
        assert len(legal) == len(set(legal))
        legal_set = set(legal)
        assert (RULES.why_illegal(position, DEAL) is None) == (DEAL in legal_set)
        for src in piles:
            for count in range(1, len(position.piles[src]) + 1):
                for dst in piles:
                    m = (src, count, dst)
                    reason = RULES.why_illegal(position, m)
                    assert (reason is None) == (m in legal_set), (
                        RULES.position_text(position),
                        RULES.move_name(m),
                        reason,
                    )


def test_quick_progress_is_never_wrong_on_random_positions() -> None:
    checked = 0
    for position in random_positions(80, seed=11):
        if RULES.quick_progress(position):
            # A proof of progress: the exhaustive search must not find the position stuck.
            assert not no_progress_possible(RULES, position, budget=300)
            checked += 1
    assert checked > 20


def test_cards_are_conserved_by_random_play() -> None:
    for position in random_positions(40, seed=3):
        cards = sorted(c for pile in position.piles for c in pile)
        assert cards == sorted(parse_card(n) for n in NAME if n)
