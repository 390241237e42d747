"""Confusable skeletons of names (shared.names): look-alikes share one, other names do not."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from shared.names import CONFUSABLES, look_alike, skeleton

NAMES = st.text(alphabet=string.ascii_letters + string.digits + "_-", min_size=1, max_size=24)


def test_the_look_alikes_of_the_attack_share_a_skeleton() -> None:
    assert skeleton("Alice") == skeleton("AIice") == "alice"  # a capital i for the l
    assert skeleton("Bob") == skeleton("B0b") == "bob"  # a zero for the o
    assert look_alike("Sam", "Sarn")  # rn for m
    assert look_alike("bill", "biII") and look_alike("l33t", "133t")
    # Cyrillic and Greek letters that look Latin (the name rule refuses them today)
    assert look_alike("\u0410lice", "Alice")  # Cyrillic capital A
    assert look_alike("B\u03bfb", "Bob")  # Greek small omicron


def test_names_that_only_sound_or_nearly_look_alike_do_not() -> None:
    for a, b in [("alice", "aiice"), ("Alice", "Alicia"), ("bob", "bobby"), ("vv", "w")]:
        assert not look_alike(a, b), (a, b)


@given(NAMES)
def test_a_skeleton_is_case_folded_and_names_alike_but_for_case_are_refused_anyway(
    name: str,
) -> None:
    assert skeleton(name) == skeleton(name).casefold()
    # (names equal without regard to case clash on name_key; the skeleton need not match:
    # "M" is no look-alike of "rn", while "m" is)
    assert look_alike(name, name)


@given(NAMES, st.data())
def test_writing_a_letter_as_its_look_alike_keeps_the_skeleton(
    name: str, data: st.DataObject
) -> None:
    ascii_pairs = [(k, v) for k, v in CONFUSABLES.items() if k.isascii() and k.isalnum()]
    source, target = data.draw(st.sampled_from(ascii_pairs))
    assert look_alike(name.replace(target, source), name.replace(source, target))
