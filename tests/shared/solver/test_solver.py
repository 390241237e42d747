"""The solver's verdicts hold through the engine: won lines replay to a win, unwinnable
positions are dead, hints are legal, budgets in positions are deterministic."""

import random

import pytest

from shared.cards import RANK, SUIT, deck
from shared.game import Game
from shared.games import new_game, rules_for
from shared.position import Position
from shared.solver import (
    UNKNOWN,
    UNWINNABLE,
    WON,
    Budget,
    find_winnable_seed,
    hint_all_seeing,
    solve,
    solve_position,
    solve_rules,
)
from shared.variants.base import Rules
from tests.shared.positions import OSMOSIS_DEAD
from tests.shared.solver.lines import replays_to_a_win

VARIANTS = ["osmosis", "thumb_and_pouch", "gypsy", "freecell", "westhaven"]


def full_foundations(rules: Rules) -> list[list[int]]:
    """Each foundation's finished pile, as the variant builds it."""
    cards = deck()
    if rules.id == "osmosis":
        # every foundation starts at the base rank (7 here) and takes its suit round
        return [[s * 16 + (r - 1 + 6) % 13 + 1 for r in range(1, 14)] for s in range(4)]
    suits = len(rules.foundations)
    return [[c for c in cards if SUIT[c] == f % 4] for f in range(suits)]


def near_won(rules: Rules, seed: int) -> Position:
    """Finished foundations less a few top cards, dealt face up onto the tableau (or an
    Osmosis reserve) in a seeded order: always winnable, and the solver must find how."""
    rng = random.Random(seed)
    piles: list[list[int]] = [[] for _ in rules.pile_ids]
    loose: list[int] = []
    for f, pile in zip(rules.foundations, full_foundations(rules), strict=True):
        take = rng.randint(0, 4) if rules.id != "osmosis" or f == rules.foundations[-1] else 0
        piles[f] = pile[: len(pile) - take]
        loose += pile[len(pile) - take :]
    if rules.id == "osmosis":
        piles[rules.reserves[0]] = loose  # f3 takes them in any order: f2 is complete
    else:
        rng.shuffle(loose)
        places = rules.tableau[:3]
        for i, card in enumerate(loose):
            piles[places[i % 3]].append(card)
    return Position(piles, [0] * len(piles))


@pytest.mark.parametrize("variant", VARIANTS)
def test_won_lines_from_hand_built_positions_replay_to_a_win(variant: str) -> None:
    rules = rules_for(variant)
    for seed in range(1, 6):
        position = near_won(rules, seed)
        result = solve_rules(rules, position, Budget(positions=20_000))
        assert result.verdict == WON, rules.position_text(position)
        assert replays_to_a_win(rules, position, result.line)


@pytest.mark.parametrize(
    ("variant", "options", "seeds"),
    [
        ("freecell", {}, range(1, 4)),
        ("freecell", {"autoplay": False}, range(1, 3)),
        ("osmosis", {}, range(1, 11)),
        ("westhaven", {}, range(1, 3)),
    ],
)
def test_won_lines_from_real_deals_replay_to_a_win(
    variant: str, options: dict[str, bool], seeds: range
) -> None:
    won = 0
    for seed in seeds:
        result = solve(variant, seed, options, Budget(positions=30_000))
        if result.verdict == WON:
            won += 1
            game = new_game(variant, seed=seed, options=options)
            for action in result.line:
                game.play(action)
            assert game.state == "won"
    assert won >= 1


def test_solve_position_continues_a_game_in_progress() -> None:
    game = new_game("freecell", seed=5)
    for action in solve("freecell", 5, {}, Budget(positions=30_000)).line[:10]:
        game.play(action)
    result = solve_position(game, Budget(positions=30_000))
    assert result.verdict == WON
    for action in result.line:
        game.play(action)
    assert game.state == "won"


def test_a_won_game_needs_no_line() -> None:
    rules = rules_for("freecell")
    position = Position([[]] * 4 + full_foundations(rules) + [[]] * 8, [0] * 16)
    result = solve_position(Game(rules, 1, position=position))
    assert result.verdict == WON and result.line == ()


def test_osmosis_card_under_the_card_it_waits_for_is_unwinnable() -> None:
    rules = rules_for("osmosis")
    result = solve_rules(rules, rules.position_from_text(OSMOSIS_DEAD))
    assert result.verdict == UNWINNABLE
    assert result.positions == 1


def test_osmosis_winnable_twin_of_the_dead_position_is_won() -> None:
    rules = rules_for("osmosis")
    position = rules.position_from_text(OSMOSIS_DEAD.replace("?KD KH", "?KH KD"))
    result = solve_rules(rules, position)
    assert result.verdict == WON and result.line == ("r0>f1", "r0>f2")
    assert replays_to_a_win(rules, position, result.line)


def test_freecell_board_with_no_move_left_is_unwinnable() -> None:
    rules = rules_for("freecell")
    home = "\n".join(f"f{i}: " + " ".join(r + s for r in "A2345678") for i, s in enumerate("CDHS"))
    text = (
        home
        + """
    r0: KC
    r1: KD
    r2: KH
    r3: KS
    t0: 9C QC
    t1: 9D QD
    t2: 9H QH
    t3: 9S QS
    t4: JC TC
    t5: JD TD
    t6: JH TH
    t7: JS TS
    """
    )
    position = rules.position_from_text(text)
    assert rules.legal(position) == []
    assert solve_rules(rules, position).verdict == UNWINNABLE


def test_positions_budget_is_deterministic_and_bounded() -> None:
    first = solve("thumb_and_pouch", 1, {}, Budget(positions=400))
    again = solve("thumb_and_pouch", 1, {}, Budget(positions=400))
    assert first == again
    assert first.verdict in (UNKNOWN, WON, UNWINNABLE)
    assert first.positions <= 400
    assert first.seconds is None


def test_time_budget_uses_the_injected_clock() -> None:
    ticks = iter(range(0, 10**9, 1000))  # every look at the clock is 1000 "seconds" later
    result = solve("gypsy", 1, {}, Budget(positions=None, seconds=1, clock=lambda: next(ticks)))
    assert result.verdict == UNKNOWN
    assert result.seconds is not None and result.seconds >= 1000


def test_a_time_budget_without_a_clock_is_refused() -> None:
    with pytest.raises(ValueError, match="clock"):
        Budget(seconds=1.0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_all_seeing_hints_are_legal_moves(variant: str) -> None:
    rng = random.Random(11)
    for seed in (1, 2):
        game = new_game(variant, seed=seed)
        for _ in range(12):
            legal = game.legal_moves()
            advice = hint_all_seeing(game, Budget(positions=300))
            if not legal:
                assert advice is None
                break
            assert advice in legal
            game.play(rng.choice(legal))


def test_the_all_seeing_hint_on_a_won_line_is_its_first_move() -> None:
    game = new_game("freecell", seed=3)
    line = solve_position(game, Budget(positions=30_000)).line
    assert hint_all_seeing(game, Budget(positions=30_000)) == line[0]


def test_find_winnable_seed_returns_the_first_proven_winnable_candidate() -> None:
    seed, result = find_winnable_seed("osmosis", {}, range(1, 50), Budget(positions=20_000))
    assert result.verdict == WON
    for earlier in range(1, seed):
        assert solve("osmosis", earlier, {}, Budget(positions=20_000)).verdict != WON
    game = new_game("osmosis", seed=seed)
    for action in result.line:
        game.play(action)
    assert game.state == "won"


def test_find_winnable_seed_says_when_the_candidates_run_out() -> None:
    with pytest.raises(LookupError):
        find_winnable_seed("freecell", {}, [], Budget(positions=10))


def test_ranks_of_the_hand_built_foundations_are_complete() -> None:
    for variant in VARIANTS:
        rules = rules_for(variant)
        piles = full_foundations(rules)
        assert all(sorted(RANK[c] for c in pile) == list(range(1, 14)) for pile in piles)
