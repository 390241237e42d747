"""Deal vectors: seed -> layout, pinned forever (docs/rules.md, Deals)."""

import pytest

from shared.cards import NAME, deck
from shared.deals import aisleriot_deal, check_seed, microsoft_deal
from shared.errors import InvalidOptions
from shared.rng import MT19937
from shared.variants.freecell import FreecellRules

FREECELL_VECTORS = {
    1: """\
t0: JD KD 2S 4C 3S 6D 6S
t1: 2D KC KS 5C TD 8S 9C
t2: 9H 9S 9D TS 4S 8D 2H
t3: JC 5S QD QH TH QS 6H
t4: 5D AD JS 4H 8H 6C
t5: 7H QC AS AC 2C 3D
t6: 7C KH AH 4D JH 8C
t7: 5H 3H 3C 7S 7D TC""",
    617: """\
t0: 7D TD TH KD 4C 4S JD
t1: AD 7S QC 5H QS TS KS
t2: 5C QD 3H 9S 9C 2H KC
t3: 3S AC 9D 3C 9H 5D 4H
t4: 5S 6D 6S 8S 7C JC
t5: 8C 8H 8D 7H 6H 6C
t6: 2D AS 3D 4D 2C JH
t7: AH KH TC JS 2S QH""",
    11982: """\
t0: AH 3D KD JC 6C JD KC
t1: AS 3H 6H 5D 2C 7D 8D
t2: 4H QS 5S 5C TH 8H 2S
t3: AC QC 4D 8C QH 9C 3S
t4: 2D 8S 9H 9D 6D 2H
t5: 6S 7H JH TD TC QD
t6: TS AD 9S KH 4S 4C
t7: JS KS 3C 7C 7S 5H""",
}


@pytest.mark.parametrize("seed", sorted(FREECELL_VECTORS))
def test_freecell_deal_is_microsoft_game(seed: int) -> None:
    rules = FreecellRules()
    assert rules.position_text(rules.deal(seed)) == FREECELL_VECTORS[seed]


def test_microsoft_deal_uses_every_card_once() -> None:
    for seed in (1, 2, 1_000_000, 2**31 - 1):
        assert sorted(microsoft_deal(seed)) == sorted(deck())


def test_aisleriot_deal_is_a_permutation_of_one_or_two_decks() -> None:
    assert sorted(aisleriot_deal(7)) == sorted(deck())
    assert sorted(aisleriot_deal(7, decks=2)) == sorted(deck() * 2)


def test_aisleriot_deal_follows_the_documented_shuffle() -> None:
    # Rebuild docs/rules.md's procedure step by step and compare: forward Fisher-Yates with
    # rand(n - i), then reversed so that the first card dealt is A[n-1].
    rng = MT19937(42)
    cards = deck()
    for i in range(52):
        j = i + rng.rand(52 - i)
        cards[i], cards[j] = cards[j], cards[i]
    assert aisleriot_deal(42) == cards[::-1]


# The first 13 cards Aisleriot's shuffle deals for seed 1 (one deck).
PINNED_AISLERIOT_1 = "9C QH 8D 3C 6S AC 4D KS TD AD 2S JS 3H"


def test_aisleriot_deal_vector_seed_1() -> None:
    first = " ".join(NAME[c] for c in aisleriot_deal(1)[:13])
    assert first == PINNED_AISLERIOT_1


@pytest.mark.parametrize("seed", [0, -1, 2**31, True, 1.5, "7", None])
def test_seeds_outside_the_range_are_refused(seed: object) -> None:
    with pytest.raises(InvalidOptions, match="seed"):
        check_seed(seed)
