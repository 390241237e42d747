"""Types of the optional compiled module (shared/variants/_keys.c)."""

def key(
    piles: list[list[int]], down: list[int], redeals: int, fixed: list[int], groups: list[list[int]]
) -> bytes: ...
