"""Is a position stuck: can no sequence of legal moves put another card on the foundations?

docs/rules.md asks never to say so falsely, and to say so at least when no legal
move exists and when a bounded exhaustive search finds no progress. The
search is that bounded search, the variant's stuck proof
(``Rules.stuck_search``): the generic one on engine positions
(:mod:`shared.stuck.generic`) unless the variant has its own, as Freecell
does (:mod:`shared.variants.freecell.search`). Either looks best-first
towards the cards the foundations want (so that progress, when it exists, is
found in a handful of positions), over canonical keys (so that swapping two
free cells or columns is not a new position), stopping at the first line that
adds a card. It says "stuck" only when it has seen every reachable position
within the budget. The budget counts positions, never time, so the answer is
a pure function of the position: the same on every machine, and replays are
exact.

"Stuck" holds exactly when no reachable position (up to the budget) can send
a card home and there are no more than the budget of them; so any legal line
that sends a card home proves "not stuck" as surely as the search, whatever
order found it. The variant's ``cheap_proof`` looks for such lines without a
search.

A :class:`StuckProver` runs the searches and remembers what they found: the
verdicts per position, and whatever the variants' searches keep between
searches (Freecell's moves between boards). Its owner decides how much it
remembers and how long it lives: the server makes one per process and hands
it to the games it makes; a game made without one gets a small one of its
own. A remembered verdict is the one the search would give again, since the
search is deterministic.

A game's state is shown to its player, so the verdict a game asks for is about
what the player sees: a :class:`StuckQuestion` holds the view, never a
face-down card the player has not seen. Where every card is in sight (Freecell
always) the variant's search runs on the board itself; elsewhere the search
runs on the blind position, each unseen card a wildcard
(:mod:`shared.stuck.unseen`), and says "stuck" only when no arrangement of the
unseen cards could send another card home. The solver and the tools ask
:meth:`StuckProver.no_progress_possible`, which sees every card.

A search can take tens of milliseconds, too long for a server's event loop.
So the search can be asked for as data: a :class:`StuckQuestion` (what
:meth:`shared.game.Game.stuck_question` hands out when the state needs one)
is small, frozen and picklable; :meth:`StuckProver.answer` answers it in a
worker process (the module-level :func:`answer` does so with a prover of its
own, for a ``ProcessPoolExecutor``), and the game takes the verdict back with
:meth:`shared.game.Game.answer_stuck`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from shared.player_view import UNSEEN, PlayerView, remembered_pile
from shared.position import Position
from shared.stuck.generic import GenericProgress
from shared.stuck.unseen import progress_possible_unseen
from shared.variants import STANDARD, Variants
from shared.variants.base import OptionValue, ProgressSearch, ProgressSearchFactory, Proof, Rules

__all__ = [
    "MEMO_SIZE",
    "SMALL_MEMO_SIZE",
    "STUCK_SEARCH_BUDGET",
    "Proof",
    "StuckProver",
    "StuckQuestion",
    "answer",
    "no_progress_possible",
    "question_for",
]

#: positions a stuck check may visit before answering "not proven stuck"
STUCK_SEARCH_BUDGET = 2000

#: verdicts a server's prover remembers; the memo is emptied when it reaches this size
MEMO_SIZE = 20_000
#: boards whose moves a server's prover remembers (Freecell: about 1 kB each)
BOARDS = 20_000
#: the same for the prover a game makes for itself when it is given none
SMALL_MEMO_SIZE = 1_000
SMALL_BOARDS = 4_000


@dataclass(frozen=True, slots=True)
class StuckQuestion:
    """The bounded search one position still needs, as plain data: what its player sees.

    Everything an answer needs travels in it (variant, options, the view of the
    position, the budget), so it pickles into a worker process and back, and two
    questions about positions that look the same to the player compare equal:
    that is how a game checks that an answer is about its current position, and
    why look-alike positions get one verdict. It has no field for a card the player
    has not seen: ``up`` holds each pile's face-up cards (``bytes`` of card codes,
    bottom to top), ``down`` counts its face-down cards, and ``remembered`` holds
    the face-down cards the player has seen all of (a stock turned over from the
    waste; see :class:`shared.player_view.PlayerView`), else is empty.
    """

    variant: str
    options: tuple[tuple[str, OptionValue], ...]
    up: tuple[bytes, ...]
    down: tuple[int, ...]
    remembered: tuple[bytes, ...]
    redeals_used: int
    budget: int = STUCK_SEARCH_BUDGET

    @classmethod
    def of(cls, view: PlayerView, budget: int = STUCK_SEARCH_BUDGET) -> StuckQuestion:
        """The question "is the game ``view`` shows stuck?"."""
        return cls(
            view.variant,
            view.options,
            tuple(bytes(p.up) for p in view.piles),
            tuple(p.down for p in view.piles),
            tuple(bytes(p.remembered) for p in view.piles),
            view.redeals_used,
            budget,
        )

    def position(self) -> Position:
        """A fresh blind position (:func:`shared.player_view.blind`): the face-up
        and remembered cards, and :data:`~shared.player_view.UNSEEN` for each other
        face-down card."""
        piles = [
            [*known, *up] if known else [UNSEEN] * down + [*up]
            for up, down, known in zip(self.up, self.down, self.remembered, strict=True)
        ]
        return Position(piles, list(self.down), self.redeals_used)

    @property
    def sees_all(self) -> bool:
        """No card lies face down unseen: the blind position is the board itself."""
        return all(
            not down or len(known) == down
            for down, known in zip(self.down, self.remembered, strict=True)
        )


def question_for(rules: Rules, pos: Position, budget: int = STUCK_SEARCH_BUDGET) -> StuckQuestion:
    """The question "is ``pos`` stuck under ``rules``?" as data, as its player sees it."""
    # (StuckQuestion.of(PlayerView.seen(rules, pos), budget), written directly: the view's
    # multiset of unseen cards, which the question does not hold, costs more than the rest)
    known = remembered_pile(rules, pos)
    piles = pos.piles
    down = pos.down
    return StuckQuestion(
        rules.id,
        tuple(sorted(rules.options.items())),
        tuple([bytes(pile[d:]) if d else bytes(pile) for pile, d in zip(piles, down, strict=True)]),
        tuple(down),
        tuple([bytes(pile) if i == known else b"" for i, pile in enumerate(piles)]),
        pos.redeals_used,
        budget,
    )


class StuckProver:
    """Runs the variants' stuck proofs and remembers what they found.

    ``memo_size`` bounds the verdicts remembered, ``boards`` what each
    variant's search keeps between searches; ``native`` lets the searches use
    their compiled helpers where the install built them (the same answers,
    faster). ``variants`` is where :meth:`answer` finds the rules a question
    names. Sizes change the work, never a verdict.
    """

    def __init__(
        self,
        variants: Variants = STANDARD,
        *,
        memo_size: int = MEMO_SIZE,
        boards: int = BOARDS,
        native: bool = True,
    ) -> None:
        self.variants = variants
        self.memo_size = memo_size
        self.boards = boards
        self.native = native
        self._memo: dict[StuckQuestion, bool] = {}
        self._searches: dict[ProgressSearchFactory, ProgressSearch] = {}
        #: rules objects by (variant, options), so that answering many questions builds few
        self._rules: dict[tuple[str, tuple[tuple[str, OptionValue], ...]], Rules] = {}

    @classmethod
    def small(cls, variants: Variants = STANDARD) -> StuckProver:
        """A prover for one game or one tool: it remembers little."""
        return cls(variants, memo_size=SMALL_MEMO_SIZE, boards=SMALL_BOARDS)

    def search_for(self, rules: Rules) -> ProgressSearch:
        """The variant's stuck proof, one per search class and prover."""
        factory = rules.stuck_search or GenericProgress
        search = self._searches.get(factory)
        if search is None:
            search = self._searches[factory] = factory(boards=self.boards, native=self.native)
        return search

    def cheap_proof(self, rules: Rules, pos: Position, hint: Proof | None = None) -> Proof | None:
        """A proof, found without a search, that a card can still go home; None: not found.

        ``hint`` is a proof found at an earlier position of the same game, which
        the variant may try again. A proof is only ever a legal line of moves
        that puts a card home, so it can only agree with the search: a position
        with one is never stuck.
        """
        return self.search_for(rules).cheap_proof(rules, pos, hint)

    @property
    def memo(self) -> Mapping[StuckQuestion, bool]:
        """The verdicts remembered (read only)."""
        return MappingProxyType(self._memo)

    def remembered(self, question: StuckQuestion) -> bool | None:
        """The verdict this prover already knows for ``question``, or None."""
        return self._memo.get(question)

    def remember(self, question: StuckQuestion, verdict: bool) -> None:
        """Keep ``verdict`` (True: stuck) as the answer to ``question``."""
        memo = self._memo
        if len(memo) >= self.memo_size:
            memo.clear()
        memo[question] = verdict

    def solve(
        self, question: StuckQuestion, rules: Rules | None = None
    ) -> tuple[bool, Proof | None]:
        """The verdict (True: stuck), with the proof of progress the search found when it
        found one (for :meth:`cheap_proof` to try at the next position of the game).
        ``rules``: the question's own rules object, when the caller has it."""
        known = self._memo.get(question)
        if known is not None:
            return known, None
        if rules is None:
            rules = self._rules_of(question)
        position = question.position()
        if question.sees_all:
            # (Freecell always: nothing face down, the variant's own search on the board)
            found, proof = self.search_for(rules).search(rules, position, question.budget)
        else:
            found, proof = progress_possible_unseen(rules, position, question.budget), None
        stuck = found is False
        self.remember(question, stuck)
        return stuck, proof

    def answer(self, question: StuckQuestion) -> bool:
        """True when no line from the question's position adds a foundation card (stuck)."""
        return self.solve(question)[0]

    def no_progress_possible(
        self, rules: Rules, pos: Position, budget: int = STUCK_SEARCH_BUDGET
    ) -> bool:
        """True only when every position reachable from ``pos`` keeps the foundation count
        at or below today's (so the game is lost); False when progress exists or the
        budget ran out first.

        This one sees every card, face down or not (the solver's and the tools' question,
        never a game's state: a game asks :meth:`answer` about what its player sees), and
        remembers nothing between calls but what the variant's search keeps."""
        found, _ = self.search_for(rules).search(rules, pos.copy(), budget)
        return found is False

    def _rules_of(self, question: StuckQuestion) -> Rules:
        cache_key = (question.variant, question.options)
        rules = self._rules.get(cache_key)
        if rules is None:
            if len(self._rules) >= self.memo_size:
                self._rules.clear()
            rules = self.variants.rules(question.variant, dict(question.options))
            self._rules[cache_key] = rules
        return rules


def answer(question: StuckQuestion, variants: Variants = STANDARD) -> bool:
    """:meth:`StuckProver.answer` with a prover of its own: pure, module-level, so that a
    ``ProcessPoolExecutor`` can run it; the answer depends on the question alone. (A
    worker that answers many questions keeps one prover instead: it remembers.)"""
    return StuckProver.small(variants).answer(question)


def no_progress_possible(rules: Rules, pos: Position, budget: int = STUCK_SEARCH_BUDGET) -> bool:
    """:meth:`StuckProver.no_progress_possible` with a prover of its own (pure)."""
    return StuckProver.small(STANDARD).no_progress_possible(rules, pos, budget)
