"""Freecell as docs/rules.md states it: layout, pick-up, drops, move limit, autoplay, scoring."""

import random

import pytest

from shared.cards import is_build_step, parse_card
from shared.errors import IllegalMove
from shared.game import Game
from shared.position import Position
from shared.variants.base import DEAL, InternalMove
from shared.variants.freecell import FreecellRules, is_safe, move_limit

RULES = FreecellRules()
MANUAL = FreecellRules({"autoplay": False})

# A 12-card build in t0 (KS .. 2H, top 2H) beside targets that take its top 4, 5, 6, 10 or 11 cards.
LONG_BUILD = "t0: KS QH JS TH 9S 8H 7S 6H 5S 4H 3S 2H"


def pos(text: str, rules: FreecellRules = RULES) -> Position:
    return rules.position_from_text(text)


def names(rules: FreecellRules, position: Position) -> list[str]:
    return [rules.move_name(m) for m in rules.legal(position)]


def test_layout_and_deal_sizes() -> None:
    assert RULES.pile_ids == (
        "r0", "r1", "r2", "r3", "f0", "f1", "f2", "f3",
        "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7",
    )  # fmt: skip
    position = RULES.deal(1)
    assert [len(position.piles[t]) for t in RULES.tableau] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert not any(position.down)
    view = Game(RULES, 1).view()
    assert view["redeals_left"] == 0 and view["score"] == 0 and view["max_score"] == 52


def test_move_limit_table_from_the_rules() -> None:
    assert move_limit(4, 0) == 5
    assert move_limit(4, 1) == 10
    assert move_limit(4, 0) == 5  # 4 cells, 1 empty pile, moving into that empty pile
    assert move_limit(0, 2) == 4


def test_limit_with_four_cells_and_no_empty_pile_is_five() -> None:
    # t1 top 7C takes 6H (a 5-card group), t2 top 8D takes 7S (a 6-card group).
    position = pos(f"{LONG_BUILD}\nt1: 7C\nt2: 8D\nt3: 2C\nt4: 3C\nt5: 4C\nt6: 5C\nt7: 6C")
    moves = names(RULES, position)
    assert "t0:5>t1" in moves
    assert "t0:6>t2" not in moves
    reason = RULES.why_illegal(position, (8, 6, 10))
    assert reason is not None and "limit is 5" in reason


def test_limit_with_four_cells_and_one_empty_pile() -> None:
    # t1 top QD takes JS (10 cards), t2 top KC takes QH (11 cards); t7 is empty.
    position = pos(f"{LONG_BUILD}\nt1: QD\nt2: KC\nt3: 2C\nt4: 3C\nt5: 4C\nt6: 5C")
    moves = names(RULES, position)
    assert "t0:10>t1" in moves
    assert "t0:11>t2" not in moves
    assert "limit is 10" in (RULES.why_illegal(position, (8, 11, 10)) or "")
    # Into the empty pile the limit halves to 5.
    assert "t0:5>t7" in moves and "t0:6>t7" not in moves
    assert "limit is 5" in (RULES.why_illegal(position, (8, 6, 15)) or "")


def test_limit_with_no_free_cell_and_two_empty_piles() -> None:
    cells = "r0: KD\nr1: KH\nr2: QC\nr3: QS\n"
    # t1 top 6D takes 5S (4 cards), t2 top 7C takes 6H (5 cards); t6 and t7 are empty.
    position = pos(cells + f"{LONG_BUILD}\nt1: 6D\nt2: 7C\nt3: 2C\nt4: 3C\nt5: 4C")
    moves = names(RULES, position)
    assert "t0:4>t1" in moves
    assert "t0:5>t2" not in moves
    assert "limit is 4" in (RULES.why_illegal(position, (8, 5, 10)) or "")


def test_pick_up_only_a_valid_build_from_the_top() -> None:
    position = pos("t0: 9S 8H 8C\nt1: 9D\nt2: 9H")
    # 8H 8C is not a build, so only 8C moves (onto either red nine).
    moves = names(RULES, position)
    assert "t0>t1" in moves and "t0>t2" in moves
    assert not any(m.startswith("t0:2") for m in moves)
    reason = RULES.why_illegal(position, (8, 2, 9))
    assert reason is not None and "not a build" in reason


def test_drop_on_tableau_needs_other_colour_one_rank_lower() -> None:
    position = pos("t0: 7H\nt1: 8D\nt2: 8C\nt3: 9S\nt4: 2C\nt5: 3C\nt6: 4C\nt7: 5C")
    moves = names(RULES, position)
    assert "t0>t2" in moves
    assert "t0>t1" not in moves and "t0>t3" not in moves
    assert "other colour" in (RULES.why_illegal(position, (8, 1, 9)) or "")


def test_empty_pile_takes_any_card_or_group_each_listed() -> None:
    position = pos("t0: 9S 8H\nt1: 2C")
    moves = names(RULES, position)
    for empty in ("t2", "t3", "t4", "t5", "t6", "t7"):
        assert f"t0>{empty}" in moves and f"t0:2>{empty}" in moves
    # A whole pile onto an empty pile changes nothing of value but is legal and listed.
    assert "t1>t2" in moves


def test_free_cells_hold_one_card() -> None:
    position = pos("r0: 5D\nt0: 9S 8H\nt1: 6C")
    moves = names(RULES, position)
    assert "t0>r1" in moves and "t0>r0" not in moves
    assert "r0>r1" in moves  # a free cell's card may go to another empty cell
    assert "r0>t1" in moves  # 5D on 6C
    assert "not empty" in (RULES.why_illegal(position, (8, 1, 0)) or "")
    assert "one card" in (RULES.why_illegal(position, (8, 2, 1)) or "")


def test_foundations_take_aces_then_the_same_suit_up() -> None:
    position = pos("f0: AH\nt0: 2H\nt1: 2S\nt2: AC")
    moves = names(RULES, position)
    assert "t0>f0" in moves
    assert "t1>f0" not in moves
    assert [m for m in moves if m.startswith("t2>f")] == ["t2>f1", "t2>f2", "t2>f3"]
    assert "same suit" in (RULES.why_illegal(position, (9, 1, 4)) or "")
    assert "only an ace" in (RULES.why_illegal(position, (8, 1, 5)) or "")


def test_foundation_cards_are_out_of_play() -> None:
    position = pos("f0: AH 2H\nt0: 3S")
    assert not [m for m in names(RULES, position) if m.startswith("f")]
    assert "out of play" in (RULES.why_illegal(position, (4, 1, 8)) or "")


def test_no_stock() -> None:
    position = RULES.deal(1)
    assert DEAL not in RULES.legal(position)
    assert "no stock" in (RULES.why_illegal(position, DEAL) or "")
    with pytest.raises(IllegalMove, match="no stock"):
        Game(RULES, 1).play("deal")


@pytest.mark.parametrize(
    ("card", "highest", "safe"),
    [
        ("3H", [1, 0, 2, 1], True),  # red 3: <= min(2 + 1, 3 + 0)
        ("4H", [1, 0, 3, 1], False),  # red 4 needs both black threes... here only aces
        ("3C", [2, 1, 1, 1], True),  # black 3: <= min(2 + 1, 3 + 1)
        ("4C", [3, 1, 1, 3], False),  # black 4 with red aces only: 4 > 2 + 1
        ("2D", [0, 1, 0, 0], True),  # a two is always safe
        ("AS", [0, 0, 0, 0], True),
    ],
)
def test_safe_autoplay_rule(card: str, highest: list[int], safe: bool) -> None:
    assert is_safe(parse_card(card), highest) is safe


def test_autoplay_sends_safe_cards_as_part_of_the_move_and_undo_reverts_both() -> None:
    text = "f0: AH\nt0: 2H 9C\nt1: TD\nt2: 5S 4D"
    game = Game(RULES, 1, position=pos(text))
    before = game.view(reveal=True)
    game.play("t0>t1")  # exposes 2H, which autoplay sends to f0
    assert game.rules.position_text(game.position).splitlines()[0] == "f0: AH 2H"
    assert game.actions == ["t0>t1"]
    assert game.score == 2
    game.undo()
    after = game.view(reveal=True)
    assert after["piles"] == before["piles"] and after["score"] == before["score"]


def test_autoplay_leaves_unsafe_cards() -> None:
    # 3H is not safe while no black two is up: it stays on the tableau.
    game = Game(RULES, 1, position=pos("f0: AH 2H\nf1: AC\nt0: 3H 9C\nt1: TD"))
    game.play("t0>t1")
    assert "t0: 3H" in game.rules.position_text(game.position)
    assert "t0>f0" in game.legal_moves()


def test_autoplay_off_moves_nothing_by_itself() -> None:
    game = Game(MANUAL, 1, position=pos("f0: AH\nt0: 2H 9C\nt1: TD", MANUAL))
    game.play("t0>t1")
    assert "t0: 2H" in game.rules.position_text(game.position)
    assert game.options == {"autoplay": False}


def test_double_click_shorthand_records_the_foundation() -> None:
    game = Game(MANUAL, 1, position=pos("f0: AH\nt0: AS\nt1: 2H\nt2: 3S 2S", MANUAL))
    assert game.play("t1>f") == "t1>f0"
    assert game.play("t0>f") == "t0>f1"  # the first foundation in pile order that takes it
    assert game.actions == ["t1>f0", "t0>f1"]
    with pytest.raises(IllegalMove, match="is empty"):
        game.play("t0>f")


def test_auto_action_plays_every_foundation_card_and_is_one_action() -> None:
    game = Game(MANUAL, 1, position=pos("r0: AH\nt0: 3H 2H\nt1: AS\nt2: KC", MANUAL))
    game.play("auto")
    assert game.actions == ["auto"]
    assert game.rules.position_text(game.position).splitlines()[:2] == ["f0: AH 2H 3H", "f1: AS"]
    game.undo()
    assert game.rules.position_text(game.position).startswith("r0: AH")
    with pytest.raises(IllegalMove, match="auto would move nothing"):
        # Not stuck (AD is one card down, a free cell is empty), but nothing can go up now.
        Game(MANUAL, 1, position=pos("t0: AD 5C\nt1: KC", MANUAL)).play("auto")


def test_score_counts_foundation_cards_and_won_when_all_are_there() -> None:
    foundations = "\n".join(
        f"f{i}: " + " ".join(f"{r}{s}" for r in "A23456789TJQK") for i, s in enumerate("CDH")
    )
    text = foundations + "\nf3: " + " ".join(f"{r}S" for r in "A23456789TJQ") + "\nt0: KS"
    game = Game(MANUAL, 1, position=pos(text, MANUAL))
    assert game.score == 51 and game.state == "playing"
    game.play("t0>f3")
    assert game.score == 52 and game.state == "won" and game.legal_moves() == []
    with pytest.raises(IllegalMove, match="over"):
        game.undo()


def test_no_legal_move_is_stuck_and_only_undo_is_taken() -> None:
    # One empty cell; filling it leaves only red tops and cells that fit nowhere: no legal move.
    text = "r0: KD\nr1: KH\nr2: QC\nt0: 2S 4H 5D\nt1: 4S 7D\nt2: 6S 9D\nt3: 8S JD\n"
    text += "t4: TS 3D\nt5: QS 6H\nt6: 3C 9H\nt7: 5C JH"
    game = Game(RULES, 1, position=pos(text))
    assert game.state == "playing"
    game.play("t0>r3")
    assert game.state == "stuck" and game.legal_moves() == []
    with pytest.raises(IllegalMove, match="stuck"):
        game.play("t1>r3")
    game.undo()
    assert game.state == "playing"


def test_every_candidate_move_agrees_with_the_plain_rules() -> None:
    """why_illegal() is None exactly for the moves legal() lists, on random playouts."""
    rng = random.Random(2026)
    checked = 0
    for seed in range(1, 13):
        for rules in (RULES, MANUAL):
            game = Game(rules, seed)
            for _ in range(60):
                position = game.position
                legal = set(rules.legal(position))
                n = len(rules.pile_ids)
                for src in range(n):
                    for count in range(1, len(position.piles[src]) + 1):
                        for dst in range(n):
                            move = (src, count, dst)
                            assert (rules.why_illegal(position, move) is None) == (move in legal), (
                                rules.position_text(position),
                                rules.move_name(move),
                            )
                            checked += 1
                moves = game.legal_moves()
                if not moves:
                    break
                game.play(rng.choice(moves))
    assert checked > 10_000


def test_quick_progress_never_contradicts_an_exhaustive_search() -> None:
    """Whenever the cheap proof says "progress", a wide search never proves the position stuck."""
    from shared.stuck import no_progress_possible

    rng = random.Random(11)
    claimed = proven_stuck = 0
    for seed in range(1, 25):
        game = Game(RULES, seed)
        while game.legal_moves():
            position = game.position
            if RULES.quick_progress(position):
                claimed += 1
                assert not no_progress_possible(RULES, position, 20_000)
            game.play(rng.choice(game.legal_moves()))
        proven_stuck += game.state == "stuck"
    assert claimed > 100 and proven_stuck > 0


def test_quick_progress_digs_through_column_tops() -> None:
    # AH lies under 9S and 8D; no free cell or column is empty, but 9S fits on TD and 8D on 9C.
    cells = "r0: KD\nr1: KH\nr2: QC\nr3: QS\n"
    text = cells + "t0: AH 9S 8D\nt1: TD\nt2: 9C\nt3: 2C\nt4: 3C\nt5: 4C\nt6: 5C\nt7: 6C"
    assert RULES.quick_progress(pos(text))
    # Without a place for 9S, the cheap proof gives up (it never claims what it cannot show).
    assert not RULES.quick_progress(pos(text.replace("t1: TD", "t1: TC")))


def test_autoplay_told_the_move_matches_the_full_scan() -> None:
    """after_move(pos, move) on a settled position looks only at what the move changed;
    on random playouts it leaves exactly the position the full scan leaves."""
    rng = random.Random(31)
    compared = autoplayed = 0
    for seed in range(1, 31):
        position = RULES.deal(seed)
        RULES.after_move(position)  # settled from here on
        for _ in range(150):
            moves = RULES.legal(position)
            if not moves:
                break
            move = rng.choice(moves)
            told = position.copy()
            RULES.apply(told, move)
            full = told.copy()
            made = RULES.after_move(told, move)
            assert made == RULES.after_move(full)
            assert told == full, RULES.position_text(position)
            compared += 1
            autoplayed += made > 0
            position = told
    assert compared > 1000 and autoplayed > 50


def plain_moves(rules: FreecellRules, position: Position) -> list[InternalMove]:
    """Every move the plain rules (why_illegal) allow, in canonical order: by source
    pile, then destination pile, then count."""
    n = len(rules.pile_ids)
    return [
        (src, count, dst)
        for src in range(n)
        for dst in range(n)
        for count in range(1, len(position.piles[src]) + 1)
        if rules.why_illegal(position, (src, count, dst)) is None
    ]


def test_legal_lists_the_plain_rules_moves_in_canonical_order() -> None:
    """legal() is exactly the moves why_illegal() allows, source by source in pile order
    and per source by destination in pile order, then by count: the order seeded
    playouts and recorded games rely on. Positions with empty columns included."""
    rng = random.Random(7)
    with_empty_column = 0
    for seed in range(1, 21):
        for rules in (RULES, MANUAL):
            position = rules.deal(seed)
            for _ in range(150):
                plain = plain_moves(rules, position)
                assert rules.legal(position) == plain, rules.position_text(position)
                with_empty_column += any(not position.piles[t] for t in rules.tableau)
                if not plain:
                    break
                move = rng.choice(plain)
                rules.apply(position, move)
                rules.after_move(position)
    assert with_empty_column >= 20


def _random_position(rng: random.Random, full_cells: int, empty_columns: int) -> Position:
    """A Freecell position unlike those of playouts from a deal: foundations started at
    random, ``full_cells`` free cells and all but ``empty_columns`` columns holding cards,
    long builds on top of the columns."""
    piles: list[list[int]] = [[] for _ in RULES.pile_ids]
    pool: list[int] = []
    for suit, f in enumerate(rng.sample(RULES.foundations, 4)):
        home = rng.choice((0, 0, 0, 1, 2, 5, 9))
        piles[f] = [suit * 16 + rank for rank in range(1, home + 1)]
        pool += [suit * 16 + rank for rank in range(home + 1, 14)]
    rng.shuffle(pool)
    for cell in rng.sample(RULES.reserves, full_cells):
        piles[cell].append(pool.pop())
    columns = rng.sample(RULES.tableau, 8 - empty_columns)
    # Some columns end in a build as long as the pool allows: alternate colours, one down.
    builds: dict[int, list[int]] = {}
    for t in columns:
        if rng.random() < 0.4:
            build = [pool.pop()]
            while True:
                fits = [c for c in pool if is_build_step(build[-1], c)]
                if not fits:
                    break
                build.append(fits[0])
                pool.remove(fits[0])
            builds[t] = build
    for card in pool:
        piles[rng.choice(columns)].append(card)
    for t, build in builds.items():
        piles[t] += build
    return Position(piles, [0] * len(piles))


def test_legal_matches_the_plain_rules_on_random_positions() -> None:
    """legal()'s three ways (no room at all, a free cell but no empty column, an empty
    column) list exactly the plain rules' moves in canonical order, on positions unlike
    those of playouts: many empty columns and cells, long builds."""
    rng = random.Random(2027)
    grouped = 0
    for k in range(150):
        way = k % 3
        if way == 0:  # no room: single cards only
            position = _random_position(rng, 4, 0)
        elif way == 1:  # a free cell, no empty column
            position = _random_position(rng, rng.randrange(4), 0)
        else:  # empty columns
            position = _random_position(rng, rng.randrange(5), rng.randint(1, 7))
        plain = plain_moves(RULES, position)
        assert RULES.legal(position) == plain, RULES.position_text(position)
        grouped += any(count > 1 for _, count, _ in plain)
    assert grouped >= 50


def test_can_progress_now_noted_by_legal_matches_the_moves() -> None:
    """can_progress_now() on the list legal() just returned (the answer legal() noted)
    agrees with a look at the moves themselves, in each of legal()'s three ways; on
    another list, or an older one, it looks at the moves."""
    rng = random.Random(2028)
    seen = {True: 0, False: 0}
    older: list[tuple[list[tuple[int, int, int]], bool]] = []
    for k in range(150):
        way = k % 3
        cells = 4 if way == 0 else rng.randrange(4 if way == 1 else 5)
        position = _random_position(rng, cells, 0 if way < 2 else rng.randint(1, 7))
        moves = RULES.legal(position)
        homeward = any(4 <= dst < 8 for _, _, dst in moves)
        assert RULES.can_progress_now(position, moves) is homeward
        assert RULES.can_progress_now(position, list(moves)) is homeward
        seen[homeward] += 1
        older.append((moves, homeward))
    for moves, homeward in older:
        assert RULES.can_progress_now(RULES.deal(1), moves) is homeward
    assert min(seen.values()) >= 20
