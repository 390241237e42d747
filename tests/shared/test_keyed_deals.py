"""Keyed deals: the SHA-256 shuffle, commitments and keys, pinned (docs/rules.md, "Keyed deals")."""

from __future__ import annotations

import hashlib
import pickle

import pytest

from shared.cards import NAME, deck
from shared.deals import (
    KeyedDeal,
    NumberedDeal,
    aisleriot_deal,
    commitment,
    deal_of,
    key_text,
    keyed_order,
    parse_key,
)
from shared.errors import InvalidOptions
from shared.games import new_game, rules_for
from shared.rng import Sha256Stream
from shared.variants import STANDARD

ZERO = bytes(32)
COUNTING = bytes(range(32))  # 00 01 02 .. 1f


def test_the_vectors_of_rules_md() -> None:
    freecell = new_game("freecell", key=ZERO)
    assert " ".join(NAME[c] for c in freecell.position.piles[freecell.rules.index["t0"]]) == (
        "TS 8D 8H KH 9H 9D 6H"
    )
    assert commitment("freecell", ZERO).startswith("48281e31e52d7658")
    gypsy = new_game("gypsy", key=COUNTING)
    assert gypsy.rules.position_text(gypsy.position).splitlines()[1] == "t0: ?TH ?AS 3D"
    assert commitment("gypsy", COUNTING).startswith("142eba26df0471a2")


#: every variant's layout of the key 00 01 .. 1f, pinned so that it never changes by accident
PINNED = {
    "osmosis": """\
r0: ?KH ?8C ?4D JH
r1: ?3S ?7C ?4H 3D
r2: ?AD ?QS ?6H TC
r3: ?7D ?5S ?9H 7H
f0: QC
s: ?8H ?3H ?6C ?KS ?2S ?3C ?2H ?4C ?TD ?5C ?9C ?2C ?JC ?QD ?5D ?AC ?QH ?8D ?TH ?6S ?TS ?JS \
?KD ?9D ?5H ?JD ?7S ?9S ?AH ?2D ?4S ?6D ?AS ?KC ?8S""",
    "thumb_and_pouch": """\
s: ?8H ?3H ?6C ?KS ?2S ?3C ?2H ?4C ?TD ?5C ?9C ?2C ?JC ?QD ?5D ?AC ?QH ?8D ?TH ?6S ?TS ?JS \
?KD ?9D
t0: KH
t1: ?3S 5S
t2: ?AD ?4D 3D
t3: ?7D ?4H ?TC KC
t4: ?8C ?6H ?7H ?AS 2D
t5: ?7C ?9H ?QC ?6D ?AH 7S
t6: ?QS ?JH ?8S ?4S ?9S ?JD 5H""",
    "gypsy": """\
s: ?8H ?3H ?8C ?TS ?8D ?7C ?QC ?9D ?6D ?2C ?5H ?TC ?3C ?QS ?8H ?QC ?AD ?3S ?7S ?5C ?KD ?8C \
?QH ?8S ?4H ?AD ?6C ?JC ?JD ?JH ?AC ?4C ?2D ?AH ?AH ?KS ?4C ?7D ?2H ?AC ?6S ?5D ?6H ?2C ?6H \
?JH ?KC ?5C ?KH ?7S ?KH ?QS ?8D ?9S ?6S ?7H ?TD ?3H ?3C ?7D ?QD ?TS ?9H ?8S ?6D ?9C ?KD ?KS \
?5D ?3D ?JS ?3S ?4D ?2H ?9C ?4S ?JS ?7C ?9H ?QD
t0: ?TH ?AS 3D
t1: ?4D ?TC 5H
t2: ?9D ?AS 4H
t3: ?2S ?5S 2D
t4: ?TD ?QH 5S
t5: ?JC ?9S 6C
t6: ?KC ?2S TH
t7: ?JD ?7H 4S""",
    "freecell": """\
t0: KH 4D QC 9S 6S 2C KS
t1: 3S 4H 8S 7S TH 9C 6C
t2: AD 6H KC JD 8D 5C 3H
t3: 7D 9H AS 5H QH TD 8H
t4: 8C JH 6D 9D AC 4C
t5: 7C 3D 4S KD 5D 2H
t6: QS TC 2D JS QD 3C
t7: 5S 7H AH TS JC 2S""",
    "westhaven": """\
s: ?8H ?3H ?6C ?KS ?2S ?3C ?2H ?4C ?TD ?5C ?9C ?2C ?JC ?QD ?5D ?AC ?QH ?8D ?TH ?6S ?TS ?JS
t0: ?KH ?6H 6D
t1: ?3S ?9H 4S
t2: ?AD ?JH 2D
t3: ?7D ?3D AH
t4: ?8C ?TC 9S
t5: ?7C ?7H 7S
t6: ?QS ?QC JD
t7: ?5S ?8S 5H
t8: ?4D ?KC 9D
t9: ?4H ?AS KD""",
}
#: the commitments of that key, per variant
PINNED_COMMITMENTS = {
    "osmosis": "251db88d47bd3a07198c1a068e4cd74317effb3434e30e675e6eef9f8fd5a0f8",
    "thumb_and_pouch": "d676e7429284c895df659c1444b4bdc2171b103b75b3770dcba0176f8b3b8014",
    "gypsy": "142eba26df0471a2b1348496e73e48dcac88c70d98da7aa6da6aa4a615bf7b5f",
    "freecell": "4f7642822fa4e6c9c1089a73e22fa95a3f6817516704eee08f593efc8ea88f62",
    "westhaven": "577e7448478fddf8481f2226b0816db3b19a3806eee3ed9777dceab305025cbb",
}


@pytest.mark.parametrize("variant", sorted(PINNED))
def test_every_variant_lays_out_a_key_as_pinned(variant: str) -> None:
    assert set(PINNED) == set(STANDARD.ids)
    game = new_game(variant, key=COUNTING)
    assert game.rules.position_text(game.position) == PINNED[variant]
    assert game.deal == KeyedDeal(variant, COUNTING)
    assert game.deal.commitment == commitment(variant, COUNTING) == PINNED_COMMITMENTS[variant]
    # Options change the rules, never the deal.
    for options in ({"deal_three": True}, {"autoplay": False}):
        if set(options) <= set(game.rules.option_defaults):
            other = new_game(variant, key=COUNTING, options=options)
            assert other.position == game.position


def test_the_shuffle_follows_rules_md_step_by_step() -> None:
    # Built again from the text of docs/rules.md: blocks SHA-256(key || c), u as 8-byte big-endian
    # integers, below(n) by rejection, Fisher-Yates from the last card down.
    key = bytes(range(100, 132))
    words = []
    for c in range(40):
        block = hashlib.sha256(key + c.to_bytes(8, "big")).digest()
        words += [int.from_bytes(block[i : i + 8], "big") for i in range(0, 32, 8)]
    stream = iter(words)

    def below(n: int) -> int:
        limit = 2**64 - (2**64 % n)
        while (u := next(stream)) >= limit:
            pass
        return u % n

    for decks in (1, 2):
        cards = deck() * decks
        for i in range(len(cards) - 1, 0, -1):
            j = below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        assert keyed_order(key, decks) == cards
        stream = iter(words)


def test_the_stream_rejects_the_draws_above_the_limit() -> None:
    # With n = 2**63 + 1 the limit is 2**63 + 1: every draw at or above it is thrown away.
    n = 2**63 + 1
    key = b"\x07" * 32
    raw = Sha256Stream(key)
    draws = [raw.next_u64() for _ in range(64)]
    kept = [u % n for u in draws if u < n]
    stream = Sha256Stream(key)
    assert [stream.below(n) for _ in range(len(kept))] == kept
    assert len(kept) < len(draws)  # (some were rejected: the test saw the rejection happen)
    with pytest.raises(ValueError):
        stream.below(0)


def test_a_commitment_is_the_hash_of_its_text() -> None:
    key = bytes(range(32))
    text = "patience-club/deal/v1|gypsy|" + key.hex()
    assert commitment("gypsy", key) == hashlib.sha256(text.encode()).hexdigest()
    assert commitment("freecell", key) != commitment("gypsy", key)


def test_keys_are_read_in_either_case_and_written_in_lower_case() -> None:
    text = "00A1ff" + "0" * 58
    key = parse_key(text)
    assert len(key) == 32 and key_text(key) == text.lower() and parse_key(text.lower()) == key


@pytest.mark.parametrize("text", ["", "0" * 63, "0" * 65, "g" * 64, " " + "0" * 63, 7, None])
def test_a_key_that_is_not_64_hex_digits_is_refused_without_being_shown(text: object) -> None:
    with pytest.raises(InvalidOptions, match="deal key") as refused:
        parse_key(text)
    if isinstance(text, str) and text.strip():
        assert text not in str(refused.value)


def test_new_game_takes_exactly_one_of_seed_and_key() -> None:
    assert new_game("freecell", seed=617).deal == NumberedDeal(617)
    assert new_game("freecell", key=ZERO).deal == KeyedDeal("freecell", ZERO)
    for wrong in ({}, {"seed": 617, "key": ZERO}, {"key": b"short"}, {"key": ZERO.hex()}):
        with pytest.raises(InvalidOptions):
            new_game("freecell", **wrong)  # type: ignore[arg-type]
    with pytest.raises(InvalidOptions, match="seed"):
        deal_of("freecell", seed=0)


def test_a_keyed_deal_shows_its_key_only_when_asked() -> None:
    deal = KeyedDeal("westhaven", COUNTING)
    assert deal.view() == {"commitment": PINNED_COMMITMENTS["westhaven"]}
    assert deal.view(reveal_key=True) == {
        "commitment": PINNED_COMMITMENTS["westhaven"],
        "key": COUNTING.hex(),
    }
    assert deal.record_fields() == {"commitment": PINNED_COMMITMENTS["westhaven"]}
    assert deal.record_fields(reveal_key=True) == {"key": COUNTING.hex()}
    game = new_game("westhaven", key=COUNTING)
    for shown in (repr(deal), str(deal), repr(game), str(game.view()), str(game.record())):
        assert COUNTING.hex() not in shown and str(COUNTING) not in shown
    assert game.view(reveal_key=True)["deal"]["key"] == COUNTING.hex()
    assert game.record(reveal_key=True)["key"] == COUNTING.hex()
    assert pickle.loads(pickle.dumps(deal)) == deal  # (it travels to worker processes)
    assert NumberedDeal(5).view() == NumberedDeal(5).record_fields() == {"seed": 5}


def test_a_keyed_deal_of_another_variant_deals_nothing() -> None:
    from shared.game import Game

    with pytest.raises(InvalidOptions, match="gypsy"):
        Game(rules_for("freecell"), KeyedDeal("gypsy", ZERO))


def test_numbered_deals_lay_out_the_order_of_their_seed() -> None:
    # One layout per variant, whichever kind of deal produced the order.
    for cls in STANDARD:
        rules = cls()
        order = rules.numbered_order(5)
        assert rules.deal(5) == rules.deal(NumberedDeal(5)) == rules.lay_out(order)
        assert rules.deal(KeyedDeal(cls.id, ZERO)) == rules.lay_out(keyed_order(ZERO, cls.decks))
    assert rules_for("gypsy").numbered_order(9) == aisleriot_deal(9, decks=2)
