"""``patience-club verify VARIANT COMMITMENT KEY``: was this keyed deal fixed before play began?

A server shows a keyed deal's commitment from the start of a game and its
key once the deal is revealed (docs/rules.md, "Keyed deals"). Anyone can then
check, with no server, that the key is the one committed to, and see the
deal it makes: every pile bottom to top, the cards dealt face down in
brackets. Exit status 0 when the key matches, 1 when it does not, 2 for
arguments that cannot be read.
"""

from __future__ import annotations

import argparse
from typing import Any

from shared.deals import commitment, parse_key
from shared.errors import InvalidOptions
from shared.games import new_game
from shared.variants import STANDARD


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="check a revealed deal key against its commitment and print the deal",
        description="Check that KEY is the key of the keyed deal COMMITMENT of VARIANT "
        "(both 64 hex digits, as game views show them), and print the deal it makes.",
    )
    parser.add_argument("variant", choices=sorted(STANDARD.ids), help="variant id")
    parser.add_argument("commitment", help="the commitment the game showed from its start")
    parser.add_argument("key", help="the key the game showed once revealed")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="K=V",
        help="a variant option of the game, e.g. deal_three=true (repeatable)",
    )


def deal_lines(variant: str, key: bytes, options: dict[str, bool | int]) -> list[str]:
    """The deal of ``key``, pile by pile in layout order: ``t0: [TH AS] 3D``."""
    view = new_game(variant, key=key, options=options).view(reveal=True)
    lines = []
    for pile in view["piles"]:
        down = f"[{' '.join(pile['down'])}]" if pile["down"] else ""
        cards = " ".join(part for part in (down, " ".join(pile["up"])) if part)
        lines.append(f"{pile['id']:>3}: {cards}".rstrip())
    return lines


def run(args: argparse.Namespace) -> int:
    from server.commands.solve import parse_option

    try:
        key = parse_key(args.key.strip())
        committed = parse_key(args.commitment.strip(), what="a commitment").hex()
        options = dict(parse_option(text) for text in args.option)
        lines = deal_lines(args.variant, key, options)
    except (InvalidOptions, argparse.ArgumentTypeError) as exc:
        print(f"patience-club verify: {exc}")
        return 2
    made = commitment(args.variant, key)
    if made != committed:
        print(f"NO MATCH: this key's {args.variant} commitment is {made}, not {committed}")
        return 1
    print(f"OK: the key matches the {args.variant} commitment {committed}")
    print("the deal, each pile bottom to top, face-down cards in [brackets]:")
    for line in lines:
        print(f"  {line}")
    return 0
