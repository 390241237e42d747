"""The random generators whose exact outputs the deals depend on.

Our own implementations, never Python's ``random``: the deal of a seed must be
the same on every machine forever, and equal to the deal Aisleriot or
Microsoft FreeCell gives for that number; a keyed deal's stream is SHA-256
(docs/rules.md, "Keyed deals"), which anyone can recompute from the key.
"""

from __future__ import annotations

from hashlib import sha256

_N = 624
_M = 397
_MASK = 0xFFFFFFFF


class MT19937:
    """Mersenne Twister, seeded with the reference ``init_genrand`` (as GLib's GRand)."""

    __slots__ = ("_index", "_mt")

    def __init__(self, seed: int) -> None:
        mt = [0] * _N
        mt[0] = seed & _MASK
        for i in range(1, _N):
            prev = mt[i - 1]
            mt[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & _MASK
        self._mt = mt
        self._index = _N

    def _twist(self) -> None:
        mt = self._mt
        # The reference loop, split at the wrap-around points so that no index is taken mod N.
        for i in range(_N - _M):
            y = (mt[i] & 0x80000000) | (mt[i + 1] & 0x7FFFFFFF)
            mt[i] = mt[i + _M] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        for i in range(_N - _M, _N - 1):
            y = (mt[i] & 0x80000000) | (mt[i + 1] & 0x7FFFFFFF)
            mt[i] = mt[i + _M - _N] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        y = (mt[_N - 1] & 0x80000000) | (mt[0] & 0x7FFFFFFF)
        mt[_N - 1] = mt[_M - 1] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self._index = 0

    def genrand_int32(self) -> int:
        """The next 32-bit output (``genrand_int32`` of the reference code)."""
        if self._index >= _N:
            self._twist()
        y = self._mt[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y & _MASK

    def rand(self, n: int) -> int:
        """A uniform integer in [0, n), rejection-sampled as GLib's ``g_rand_int_range(0, n)``."""
        if n <= 0:
            raise ValueError(f"rand() needs a positive bound, not {n!r}")
        limit = _MASK - ((1 << 32) % n)
        while True:
            value = self.genrand_int32()
            if value <= limit:
                return value % n


class MicrosoftRand:
    """The C runtime ``rand()`` that numbers Microsoft FreeCell's deals."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & 0x7FFFFFFF

    def rand(self) -> int:
        self._state = (self._state * 214013 + 2531011) & 0x7FFFFFFF
        return self._state >> 16


_U64 = 1 << 64


class Sha256Stream:
    """The random stream of a key (docs/rules.md, "Keyed deals"): blocks
    SHA-256(key || c as 8 bytes big-endian) for c = 0, 1, 2, ..., read as
    successive 8-byte big-endian unsigned integers.

    Deals use it with their 32-byte key; anything else that must draw the same
    numbers everywhere from a secret or a seed (the hint's samples) may too.
    """

    __slots__ = ("_block", "_counter", "_key", "_offset")

    def __init__(self, key: bytes) -> None:
        self._key = bytes(key)
        self._counter = 0
        self._block = b""
        self._offset = 0

    def next_u64(self) -> int:
        """The next unsigned 64-bit integer of the stream."""
        if self._offset == len(self._block):
            self._block = sha256(self._key + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
            self._offset = 0
        offset = self._offset
        self._offset = offset + 8
        return int.from_bytes(self._block[offset : offset + 8], "big")

    def below(self, n: int) -> int:
        """A uniform integer in [0, n): draws below 2**64 - (2**64 mod n) only, taken mod n."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, not {n!r}")
        limit = _U64 - _U64 % n
        while True:
            value = self.next_u64()
            if value < limit:
                return value % n
