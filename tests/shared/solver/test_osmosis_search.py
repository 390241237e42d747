"""Osmosis' own search agrees with the engine: its foundation rule and its runs of deals
are the engine's, its won lines replay to a win, and its verdicts match the generic
search wherever that one decides."""

import random

import pytest

from shared.games import rules_for
from shared.position import Position
from shared.solver import UNWINNABLE, WON, Budget, engine_search, osmosis_search
from shared.variants.base import DEAL, Rules
from tests.shared.solver.lines import won_deals

OPTIONS = [{}, {"deal_three": True}]


def random_positions(rules: Rules, seed: int, steps: int) -> list[Position]:
    """Positions of a random game: foundation moves taken half the time, deals otherwise."""
    rng = random.Random(seed)
    pos = rules.deal(seed)
    seen = [pos.copy()]
    for _ in range(steps):
        moves = rules.legal(pos)
        if not moves:
            break
        plays = [m for m in moves if m != DEAL]
        move = rng.choice(plays) if plays and rng.random() < 0.5 else moves[-1]
        rules.apply(pos, move)
        seen.append(pos.copy())
    return seen


@pytest.mark.parametrize("options", OPTIONS)
def test_the_foundation_rule_is_the_engines(options: dict[str, bool]) -> None:
    rules = rules_for("osmosis", options)
    checked = 0
    for seed in range(1, 15):
        for pos in random_positions(rules, seed, 150):
            deal = osmosis_search.Deal(rules, pos)
            home, order, talon, on_waste, _ = deal.start(pos)
            assert talon[:on_waste] == tuple(pos.piles[9])
            mine = set()
            for r in range(4):
                card = deal.reserve_top(home, r)
                assert card == (pos.piles[r][-1] if pos.piles[r] else -1)
                if card >= 0 and deal.target(home, order, card) >= 0:
                    mine.add((r, 1, deal.target(home, order, card)))
            if on_waste and deal.target(home, order, talon[on_waste - 1]) >= 0:
                mine.add((9, 1, deal.target(home, order, talon[on_waste - 1])))
            assert mine == {m for m in rules.legal(pos) if m != DEAL}
            checked += 1
    assert checked > 500


@pytest.mark.parametrize("options", OPTIONS)
def test_each_card_deals_surface_is_where_the_engines_deals_put_it(
    options: dict[str, bool],
) -> None:
    rules = rules_for("osmosis", options)
    for seed in range(1, 8):
        for pos in random_positions(rules, seed, 60)[::7]:
            deal = osmosis_search.Deal(rules, pos)
            state = deal.start(pos)
            talon = state[2]
            reached = deal.surfacing(state)
            assert reached, "every deal can bring some card up"
            for index, deals, redeals in reached:
                dealt = pos.copy()
                for _ in range(deals):
                    assert rules.can_use_stock(dealt)
                    rules.apply(dealt, DEAL)
                assert dealt.piles[9][-1] == talon[index]
                assert tuple(dealt.piles[9]) == talon[: index + 1]
                if rules.max_redeals is not None:
                    assert dealt.redeals_used == redeals


@pytest.mark.parametrize("options", OPTIONS)
def test_won_lines_replay_to_a_win_through_the_engine(options: dict[str, bool]) -> None:
    assert won_deals(rules_for("osmosis", options), range(1, 31), 50_000) >= 5


@pytest.mark.parametrize(
    ("options", "seeds"), [({}, range(1, 41)), ({"deal_three": True}, [7, 11, 13, 22, 27, 35, 40])]
)
def test_verdicts_agree_with_the_generic_search_where_it_decides(
    options: dict[str, bool], seeds: range | list[int]
) -> None:
    """The generic search expands every engine position: its `unwinnable` is a plain
    exhaustion, so the pruned search must not find a win there, and the other way round."""
    rules = rules_for("osmosis", options)
    decided = 0
    for seed in seeds:
        pos = rules.deal(seed)
        generic, _, _ = engine_search.solve(rules, pos.copy(), Budget(positions=60_000).limits())
        if generic not in (WON, UNWINNABLE):
            continue
        mine, _, _ = osmosis_search.solve(rules, pos.copy(), Budget(positions=200_000).limits())
        assert mine == generic, seed
        decided += 1
    assert decided >= len(seeds) // 2


def test_a_card_above_the_one_it_needs_is_a_dead_deal() -> None:
    """The base suit is clubs (base 7C); 7D must start f1 before 8D can go home, and
    lies under it in r0: dead, and the generic search agrees by exhaustion."""
    rules = rules_for("osmosis")
    text = """
        r0: 7D 8D
        f0: 7C 8C 9C TC JC QC KC AC 2C 3C 4C 5C 6C
        f1:
        s: 7H 7S
    """
    pos = rules.position_from_text(text)
    deal = osmosis_search.Deal(rules, pos)
    assert deal.dead(deal.start(pos))
    assert osmosis_search.solve(rules, pos.copy(), Budget(positions=1000).limits())[0] == UNWINNABLE
    assert engine_search.solve(rules, pos.copy(), Budget(positions=1000).limits())[0] == UNWINNABLE
    # 7D on top instead: it starts f1, then 8D may follow (8C is on f0).
    pos = rules.position_from_text(text.replace("7D 8D", "8D 7D"))
    deal = osmosis_search.Deal(rules, pos)
    assert not deal.dead(deal.start(pos))
