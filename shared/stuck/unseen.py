"""The stuck proof over what the player sees: the unseen cards as wildcards.

A game's state is shown to its player, so "stuck" must be a function of what
the player sees (docs/fair-play.md): were it decided on the real face-down
cards, comparing the state shown with what the engine says for other
arrangements of the unseen cards would tell the player about them. So a
position with unseen cards is proven stuck on its *blind* position
(:func:`shared.player_view.blind`: each unseen card replaced by
:data:`~shared.player_view.UNSEEN`), in a relaxation of the game in which a
face-down card, when a move turns it face up, may be any of the cards still
unseen at that point of the line, each tried in turn.

Every real line of play is a line of the relaxation (the card a real move
turns is one of those tried), so when no line of the relaxation sends a card
home, none does in any arrangement: "stuck" here is stuck for every board the
player might be looking at, the real one included. The converse fails, which
is the price: the relaxation may find progress through a card that is not
really there, and a move that turns several unseen cards at once (Gypsy's
deal, Osmosis' deal of three) is counted as progress without a search, since
trying every combination would never fit the budget. Such a position is
"playing" until the player has turned the cards, and shown so whatever they
are.

The search is :func:`shared.stuck.generic.progress_possible` with that one
change in how a position's children are made; it counts positions against the
same budget, so the verdict is a pure function of the view.
"""

from __future__ import annotations

from heapq import heappop, heappush
from typing import Final

from shared.cards import deck
from shared.player_view import UNSEEN
from shared.position import Position
from shared.stuck.generic import Wanted, buried, homeward_first, moved
from shared.variants.base import InternalMove, Rules
from shared.variants.keys import COMPILED_KEY, CompiledKey, key_function

#: the cards of one deck
DECK: Final = frozenset(deck())
#: the same in order of card code
ONE_DECK: Final = tuple(sorted(DECK))


def _turned(pos: Position, src: int, deal_piles: tuple[int, ...]) -> list[tuple[int, int]]:
    """(pile, index) of every face-up place of ``pos`` that holds an unseen card, just
    after a move from ``src`` (a deal when negative): a move turns at most the card it
    uncovers, a deal may turn any card of the piles it changes (``deal_piles``, in order:
    the position before it showed none face up, see blind_children)."""
    if src >= 0:
        pile = pos.piles[src]
        top = len(pile) - 1
        return [(src, top)] if top >= pos.down[src] and pile and pile[top] == UNSEEN else []
    found = []
    piles = pos.piles
    down = pos.down
    for i in deal_piles:
        pile = piles[i]
        for j in range(down[i], len(pile)):
            if pile[j] == UNSEEN:
                found.append((i, j))
    return found


def _may_turn(pos: Position, move: InternalMove) -> bool:
    """``move`` is a deal, or uncovers a face-down card (told before it is played)."""
    src, count, _ = move
    down = pos.down[src] if src >= 0 else 1
    return src < 0 or (down > 0 and len(pos.piles[src]) - count <= down)


def _candidates(rules: Rules, pos: Position) -> list[int]:
    """The cards an unseen place of ``pos`` may hold: the deck(s) less the cards in sight,
    in order of card code."""
    # Copies left per card code, in a list (not a set or a Counter): the compiled build
    # runs these loops as plain C. Of one deck, which cards are in sight, as True and
    # False, which the compiled build puts in a list with no int object made per card.
    decks = rules.decks
    if decks == 1:
        seen = [False] * 64
        for pile in pos.piles:
            for card in pile:
                seen[card] = True
        return [card for card in ONE_DECK if not seen[card]]
    left = [0] * 64
    for card in ONE_DECK:
        left[card] = decks
    for pile in pos.piles:
        for card in pile:
            # (UNSEEN is code 0, no card: its count is never read)
            left[card] = left[card] - 1
    return [card for card in ONE_DECK if left[card] > 0]


def _guessed(pos: Position, i: int, j: int, card: int) -> Position:
    """A copy of ``pos`` with ``card`` at place ``j`` of pile ``i``: a new list for that
    pile and the face-down counts, the others shared (see generic.moved)."""
    piles = pos.piles[:]
    pile = piles[i] = piles[i][:]
    pile[j] = card
    return Position(piles, pos.down[:], pos.redeals_used)


def blind_children(rules: Rules, pos: Position, target: int) -> list[Position] | None:
    """The positions one legal move leads to, foundation moves first, with each card a
    move turns face up tried as every candidate in turn; None when progress is found on
    the way: a child has more than ``target`` cards home, or a turned card could go home
    at once, or a move turns more than one unseen card (taken as progress, unsearched)."""
    foundations = rules.foundations
    accepts = rules.foundation_accepts
    deal_piles = rules.deal_piles
    result: list[Position] = []
    # A move changes where cards lie, never which: every child has the candidates of pos.
    candidates: list[int] | None = None
    for move in homeward_first(rules, rules.legal(pos)):
        child = moved(pos, move, deal_piles)
        rules.apply(child, move)
        turned = _turned(child, move[0], deal_piles) if _may_turn(pos, move) else []
        if not turned:
            rules.after_move(child)
            result.append(child)
            continue
        if len(turned) > 1:
            return None
        i, j = turned[0]
        on_top = j == len(child.piles[i]) - 1
        if candidates is None:
            candidates = _candidates(rules, pos)
        for card in candidates:
            guess = _guessed(child, i, j, card)
            rules.after_move(guess)
            if rules.foundation_count(guess) > target:
                return None
            # The common case, without a search: the turned card is one a foundation takes.
            if (
                on_top
                and any(accepts(guess, card, f) for f in foundations)
                and rules.can_progress_now(guess, rules.legal(guess))
            ):
                return None
            result.append(guess)
    return result


#: foundation states a :class:`HomeCards` remembers before it starts again
HOME_CARDS_SIZE: Final = 1_000


class HomeCards:
    """Which cards of the deck some foundation takes now, remembered per foundation state
    (what a foundation takes depends on the foundations alone), for one game's
    :func:`turn_proof`: the foundations change far less often than the rest."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        #: by the foundations' cards: a tuple of tuples, or the bytes of a key made in C
        #: where it was built (see generic.Wanted)
        self.cache: dict[object, frozenset[int]] = {}
        self.compiled: CompiledKey | None = COMPILED_KEY
        self.fixed: list[int] = list(rules.foundations)
        self.groups: list[list[int]] = []

    def __call__(self, pos: Position) -> frozenset[int]:
        return self.of(pos)

    def of(self, pos: Position) -> frozenset[int]:
        """The cards some foundation of ``pos`` takes (a method the compiled build calls
        directly, where calling the object is a call through Python)."""
        rules = self.rules
        piles = pos.piles
        foundations = rules.foundations
        compiled = self.compiled
        state: object
        if compiled is not None:
            state = compiled(piles, pos.down, 0, self.fixed, self.groups)
        else:
            state = tuple([tuple(piles[f]) for f in foundations])
        found = self.cache.get(state)
        if found is None:
            # (loops, not nested generators: the compiled build runs them as C)
            taken: list[int] = []
            for card in ONE_DECK:
                for f in foundations:
                    if rules.foundation_accepts(pos, card, f):
                        taken.append(card)
                        break
            found = frozenset(taken)
            if len(self.cache) >= HOME_CARDS_SIZE:
                self.cache.clear()
            self.cache[state] = found
        return found


def turn_proof(
    rules: Rules, pos: Position, legal: list[InternalMove], home: HomeCards | None = None
) -> bool:
    """On a blind position with its ``legal`` moves: some move turns an unseen card and
    the relaxation may make it one a foundation takes at once (or turns several: see the
    module docstring). The stuck check's cheap first try where cards are unseen: the
    search would find the same progress at its first position. ``home``: the game's
    :class:`HomeCards` (a fresh one without)."""
    if home is None:
        home = HomeCards(rules)
    target = rules.foundation_count(pos)
    deal_piles = rules.deal_piles
    # A move changes where cards lie, never which: every child has the candidates of pos.
    candidates: list[int] | None = None
    for move in legal:
        if not _may_turn(pos, move):
            continue
        child = moved(pos, move, deal_piles)
        rules.apply(child, move)
        turned = _turned(child, move[0], deal_piles)
        if len(turned) > 1:
            return True
        if not turned or turned[0][1] != len(child.piles[turned[0][0]]) - 1:
            continue
        i, j = turned[0]
        if candidates is None:
            candidates = _candidates(rules, pos)
        homes = home.of(child)
        for card in candidates:  # (in order of card code)
            if card not in homes:
                continue
            guess = _guessed(child, i, j, card)
            rules.after_move(guess)
            if rules.foundation_count(guess) > target or rules.can_progress_now(
                guess, rules.legal(guess)
            ):
                return True
    return False


def progress_possible_unseen(rules: Rules, start: Position, budget: int) -> bool | None:
    """On a blind position: True when some line of the relaxation (see the module
    docstring) raises the foundation count, False when none can (every position of the
    relaxation seen), None when ``budget`` positions were not enough."""
    key = key_function(rules)
    wanted = Wanted(rules)
    target = rules.foundation_count(start)
    seen = {key.of(start)}
    heap: list[tuple[int, int, Position]] = [(0, 0, start)]
    counter = 0
    while heap:
        _, _, pos = heappop(heap)
        children = blind_children(rules, pos, target)
        if children is None:
            return True
        for child in children:
            if rules.foundation_count(child) > target:
                return True
            child_key = key.of(child)
            if child_key in seen:
                continue
            if len(seen) >= budget:
                return None
            seen.add(child_key)
            counter += 1
            heappush(heap, (buried(rules, child, wanted.of(child)), counter, child))
    return False
