"""Deals: numbered (a seed) or keyed (a secret 32-byte key), and their deal orders.

A deal order is the list of a deal's cards, the first dealt first; every
variant lays an order out the same way whichever kind of deal produced it
(docs/rules.md, "Deals" and "Keyed deals"). A seed's order is Microsoft's
(Freecell) or Aisleriot's (the others), so that seed N is the game those
programs number N; a key's order is the SHA-256 shuffle of :func:`keyed_order`,
the same for every variant.

A keyed deal's key stays on the server until the deal is revealed; its
commitment, shown from the start, proves afterwards that the deal was fixed
before play began. Nothing here prints a key unless asked: a
:class:`KeyedDeal`'s repr and every error message leave it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from hashlib import sha256
from typing import Any

from shared.cards import deck
from shared.errors import InvalidOptions
from shared.rng import MT19937, MicrosoftRand, Sha256Stream

MIN_SEED = 1
MAX_SEED = 2**31 - 1
#: bytes in a key; its text is twice as many hex digits
KEY_BYTES = 32
#: what a commitment hashes before the variant and the key (docs/rules.md, "Keyed deals")
COMMITMENT_PREFIX = "patience-club/deal/v1"

_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def check_seed(seed: object) -> int:
    """Seeds are integers from 1 to 2**31 - 1 (docs/rules.md, Deals)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not MIN_SEED <= seed <= MAX_SEED:
        raise InvalidOptions(f"seed {seed!r} is not an integer from {MIN_SEED} to {MAX_SEED}")
    return seed


def check_key(key: object) -> bytes:
    """A key is 32 bytes. The message never shows the value: it may be someone's secret."""
    if not isinstance(key, bytes) or len(key) != KEY_BYTES:
        what = f"{len(key)} bytes" if isinstance(key, bytes) else type(key).__name__
        raise InvalidOptions(f"a deal key is {KEY_BYTES} bytes, not {what}")
    return key


def parse_key(text: object, what: str = "a deal key") -> bytes:
    """The key written as 64 hex digits, either case (docs/protocol.md, ``start_game``); a
    commitment is written alike (``what`` names it in the message)."""
    if not isinstance(text, str):
        raise InvalidOptions(f"{what} is written as a string, not {type(text).__name__}")
    if len(text) != 2 * KEY_BYTES or not _HEX_DIGITS.issuperset(text):
        raise InvalidOptions(
            f"{what} is {2 * KEY_BYTES} hex digits (got {len(text)} characters"
            f"{'' if _HEX_DIGITS.issuperset(text) else ', not all hex digits'})"
        )
    return bytes.fromhex(text)


def key_text(key: bytes) -> str:
    """The key as it is written everywhere: 64 lower-case hex digits."""
    return check_key(key).hex()


def commitment(variant: str, key: bytes) -> str:
    """SHA-256 of ``patience-club/deal/v1|VARIANT|KEYHEX``, in lower-case hex."""
    text = f"{COMMITMENT_PREFIX}|{variant}|{key_text(key)}"
    return sha256(text.encode("utf-8")).hexdigest()


# -- deal orders ---------------------------------------------------------------------------


def microsoft_deal(seed: int) -> list[int]:
    """Microsoft FreeCell game ``seed``: the 52 cards in dealing order (card k to t(k mod 8))."""
    rng = MicrosoftRand(seed)
    # Microsoft's deck is indexed rank * 4 + suit, suits in the order C, D, H, S.
    cards = [suit * 16 + rank for rank in range(1, 14) for suit in range(4)]
    dealt: list[int] = []
    while cards:
        j = rng.rand() % len(cards)
        dealt.append(cards[j])
        cards[j] = cards[-1]
        cards.pop()
    return dealt


def aisleriot_deal(seed: int, decks: int = 1) -> list[int]:
    """Aisleriot's shuffle of ``decks`` unshuffled decks: the cards in dealing order."""
    rng = MT19937(seed)
    cards = deck() * decks
    n = len(cards)
    for i in range(n):
        j = i + rng.rand(n - i)
        cards[i], cards[j] = cards[j], cards[i]
    cards.reverse()
    return cards


def keyed_order(key: bytes, decks: int = 1) -> list[int]:
    """The deal order of ``key`` for ``decks`` unshuffled decks: Fisher-Yates from the last
    card down, on the key's SHA-256 stream; the shuffled list is the order itself."""
    stream = Sha256Stream(check_key(key))
    cards = deck() * decks
    for i in range(len(cards) - 1, 0, -1):
        j = stream.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


# -- the deal of a game --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class NumberedDeal:
    """Seed ``seed``: public, the same cards for anyone who asks for that number."""

    seed: int

    def __post_init__(self) -> None:
        check_seed(self.seed)

    def view(self, reveal_key: bool = False) -> dict[str, Any]:
        """GameView's ``deal`` (docs/protocol.md): ``{"seed": n}``."""
        return {"seed": self.seed}

    def record_fields(self, reveal_key: bool = False) -> dict[str, Any]:
        """The deal's field in a game record: ``seed``."""
        return {"seed": self.seed}


@dataclass(frozen=True, slots=True)
class KeyedDeal:
    """The keyed deal of ``key`` for ``variant``, with its commitment (made here, once).

    The repr shows the start of the commitment, never the key.
    """

    variant: str
    key: bytes = field(repr=False)
    commitment: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "commitment", commitment(self.variant, check_key(self.key)))

    @property
    def key_text(self) -> str:
        """The key in 64 lower-case hex digits: only for a deal being revealed."""
        return self.key.hex()

    def view(self, reveal_key: bool = False) -> dict[str, Any]:
        """GameView's ``deal``: ``{"commitment": c}``, with ``"key"`` when ``reveal_key``
        (the engine never decides when a deal is revealed: the server does)."""
        if reveal_key:
            return {"commitment": self.commitment, "key": self.key.hex()}
        return {"commitment": self.commitment}

    def record_fields(self, reveal_key: bool = False) -> dict[str, Any]:
        """The deal's field in a game record: ``commitment``, or ``key`` when ``reveal_key``."""
        return {"key": self.key.hex()} if reveal_key else {"commitment": self.commitment}

    def __repr__(self) -> str:
        return f"KeyedDeal({self.variant!r}, commitment={self.commitment[:16]}...)"


#: what a game was dealt from; both kinds say how a view and a record show them, and only
#: a keyed deal has a secret, shown only when the caller asks (``reveal_key``)
Deal = NumberedDeal | KeyedDeal


def deal_of(variant: str, *, seed: int | None = None, key: bytes | None = None) -> Deal:
    """The deal of ``variant`` that ``seed`` or ``key`` (exactly one of them) names."""
    if (seed is None) == (key is None):
        raise InvalidOptions("a deal is a seed or a key: give exactly one of them")
    if key is not None:
        return KeyedDeal(variant, check_key(key))
    return NumberedDeal(check_seed(seed))
