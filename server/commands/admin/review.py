"""Results held for review: ``held [--all] [--why]``, ``clear ID``, ``confirm ID``; and the
players whose wins keep to a solver's line: ``efficient [--min-wins N] [--share F]``.

A ranked result played faster or straighter than the review rule allows
(docs/fair-play.md) is held: left out of leaderboards, marked ``"review":
"pending"`` in race standings. ``held`` lists the pending ones, one line each
starting with the id to decide them by (``--why``: and the reasons, each on a
line of its own below); ``clear`` lists a result again, ``confirm`` keeps it
out. ``--all`` lists decided results too, with their state. ``efficient``
flags the players most of whose ranked wins were on a solver's line, however
slowly each was played, with those wins as the evidence. ``timings GAME
--client web`` prints a stored game as timings (server/review/timings.py):
how people's games are kept as the fixtures review is checked against.
"""

from __future__ import annotations

import argparse
from types import MappingProxyType

from sqlalchemy.ext.asyncio import AsyncSession

from server.arenas import review as arena_review
from server.commands.admin.common import Action, AdminError
from server.review.timings import CLIENTS, BadTimings, from_rows
from server.seasons import days
from server.storage.queries import assessments, games, players
from server.storage.queries import reviews as store
from shared.game import WON


def _every(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--all", action="store_true", help="decided results too")
    parser.add_argument("--why", action="store_true", help="each result's reasons below it")


def _share(text: str) -> float:
    value = float(text)
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a share above 0 and at most 1")
    return value


def _flag_limits(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--min-wins", type=int, default=5, help="judged ranked wins a player needs (default 5)"
    )
    parser.add_argument(
        "--share",
        type=_share,
        default=0.8,
        help="of them on a solver's line, at least this share (default 0.8)",
    )


def _review_id(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("id", type=int, help="the id 'held' lists first")


async def held(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    """``ID NAME WHAT GAME_ID MEDIAN`` per result (and its state with ``--all``)."""
    lines = []
    for review, name in await store.listed(db, every=args.all):
        line = f"{review.id}  {name}  {review.what}  {review.game_id}  {review.median_gap_ms} ms"
        lines.append(f"{line}  {review.state}" if args.all else line)
        if args.why:
            reasons = review.reasons.split("; ") if review.reasons else ["(no reasons stored)"]
            lines.extend(f"    {reason}" for reason in reasons)
    return lines or ["no results held for review"]


async def efficient(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    """``NAME (#ID): E of W ranked wins on a solver's line``, then each such win: what, game,
    moves against the solver's, median gap, time, pauses, and whether it was held."""
    flagged = await assessments.efficient_players(db, min_wins=args.min_wins, share=args.share)
    lines = []
    for player in flagged:
        lines.append(
            f"{player.name} (#{player.player_id}): {player.efficient} of {player.wins} "
            "ranked wins on a solver's line"
        )
        for win in player.evidence:
            held = "held" if win.held else "not held"
            lines.append(
                f"    {win.what}  {win.game_id}  {win.actions} moves, the solver's "
                f"{win.solver_moves}, no undo  median gap {win.median_ms} ms  "
                f"{win.elapsed_ms / 1000:.1f} s  {win.pauses} pauses  {held}"
            )
    return lines or ["no player's wins are consistently on a solver's line"]


def _game_and_client(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="the game's id")
    parser.add_argument(
        "--client", choices=CLIENTS, required=True, help="the client it was played in"
    )
    parser.add_argument("--note", default="", help="who played it, when, on what")


async def timings(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    """The stored game as one line of timings JSON, its key included: keep it to oneself
    until the deal is revealed."""
    stored = await games.load(db, game_id=args.game)
    if stored is None:
        raise AdminError(f"no game {args.game!r}")
    row, _ = stored
    received = await store.received_actions(db, game_id=args.game)
    record = games.replay_record(row, [a for a, _ in received], resigned=False)
    try:
        kept = from_rows(
            record, received, row.started_ms, client=args.client, note=args.note,
            won=row.state == WON,
        )  # fmt: skip
    except BadTimings as exc:
        raise AdminError(f"game {args.game} cannot be kept as timings: {exc}") from None
    return [kept.to_json().rstrip("\n")]


async def clear(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    return await _decide(db, args.id, store.CLEARED)


async def confirm(db: AsyncSession, args: argparse.Namespace) -> list[str]:
    return await _decide(db, args.id, store.CONFIRMED)


async def _decide(db: AsyncSession, review_id: int, state: str) -> list[str]:
    review = await store.decide(db, review_id=review_id, state=state, now_ms=players.now_ms())
    if review is None:
        raise AdminError(f"no held result {review_id} (see 'patience-club admin held --all')")
    await db.flush()
    # the season boards and an arena's table, scored in the same commit as the decision
    await days.review_decided(db, game_id=review.game_id)
    await arena_review.review_decided(db, game_id=review.game_id, cleared=state == store.CLEARED)
    await db.commit()
    after = "listed again" if state == store.CLEARED else "kept out of the rankings"
    return [f"result {review.id} ({review.what}, game {review.game_id}) {state}: {after}"]


ACTIONS = MappingProxyType({
    "held": Action("list the results held for review (ID NAME WHAT GAME MEDIAN)", _every, held),
    "efficient": Action(
        "players whose ranked wins are mostly on a solver's line, with the evidence",
        _flag_limits,
        efficient,
    ),
    "timings": Action(
        "print a stored game as timings JSON, to keep as review's fixture",
        _game_and_client,
        timings,
    ),
    "clear": Action("clear a held result: it is listed again", _review_id, clear),
    "confirm": Action("confirm a held result: it stays out of the rankings", _review_id, confirm),
})  # fmt: skip
