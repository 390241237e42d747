"""The tables: players, games and their actions; rooms and members; daily deals and attempts;
results held for review and what review found of each ranked result; operators' requests;
ratings and their history.

One metadata for all (:data:`server.storage.engine.metadata`), so that the
migrations and the autogenerate check see one schema. Times are integer
milliseconds since the Unix epoch (UTC): portable across databases, and
exactly what ``elapsed_ms`` is computed from. A game's position is never
stored: it is replayed from variant, options, deal (a seed, or a key) and
actions, the record of docs/notation.md.

The leaderboard is read through one index whose column order is the
ranking of docs/protocol.md: ``rank_group`` (0 won, 1 not), then ``rank_a`` and
``rank_b`` (time and moves for winners, minus the score and time for the
others), so a page is an index range scan and a player's rank is a count
over the same index.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from server.storage.engine import metadata


class Base(DeclarativeBase):
    metadata = metadata


class Player(Base):
    __tablename__ = "players"
    __table_args__ = (
        Index("ix_players_registered", "registered_ip", "created_ms"),
        Index("ix_players_name_skeleton", "name_skeleton", unique=True),
        #: the few banned players, read to count them out of a season board's true rank
        Index("ix_players_banned", "banned"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(24))
    #: the name folded to lower case: names are unique without regard to case
    name_key: Mapped[str] = mapped_column(String(24), unique=True)
    #: the name's confusable skeleton (shared.names): no two players' names look alike. None
    #: only for a name that already looked like an older player's when the column came
    #: (migration 0006): both keep their names, and the older one holds the skeleton
    name_skeleton: Mapped[str | None] = mapped_column(String(96), nullable=True)
    #: SHA-256 of the token, hex; the token itself is never stored
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    banned: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: registered as a bot account: shown as one, never ranked
    bot: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the address it registered from (registrations per address per hour are limited)
    registered_ip: Mapped[str | None] = mapped_column(String(64), nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    #: bumped by every change a running server must act on (ban, unban, rename, new token);
    #: the server reads the rows changed since it last looked, every second
    updated_ms: Mapped[int] = mapped_column(BigInteger, index=True)
    #: the player hides their profile from everyone else (``profile`` answers only its name)
    profile_hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Game(Base):
    __tablename__ = "games"
    __table_args__ = (Index("ix_games_player_started", "player_id", "started_ms"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    #: the deal: a numbered one (``seed``), or a keyed one (``deal_key`` and its
    #: ``commitment``, 64 lower-case hex digits each); exactly one of the two
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    deal_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    commitment: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: solo, daily (the ranked attempt), practice (on a daily's deal), race
    kind: Mapped[str] = mapped_column(String(16), default="solo", server_default="solo")
    #: the key may be shown (the player chose it, or the deal was revealed); ``reveal_ms``:
    #: the key shows from then on (a daily's deal: the end of its day), else None
    key_open: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: the key showed from the deal on (the player named it): its player could know the deal
    #: before playing, so a challenge made of the game is not ranked
    key_chosen: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    reveal_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: playing, won, stuck, resigned, timeout: as last stored, for queries (replay is the truth)
    state: Mapped[str] = mapped_column(String(16))
    score: Mapped[int] = mapped_column(Integer, default=0)
    ply: Mapped[int] = mapped_column(Integer, default=0)
    #: counted for lists and ranks (undos can also be counted from the actions)
    undos: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    hints: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    started_ms: Mapped[int] = mapped_column(BigInteger)
    ended_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    updated_ms: Mapped[int] = mapped_column(BigInteger)
    #: the game's clock: the time not counted in its elapsed time (an unranked game nobody
    #: had open, a stuck unranked game undone), and the moment it stops or stopped (stuck; an
    #: unranked game left by every connection), None while it runs (server/games/clock.py)
    paused_ms: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    stopped_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class GameAction(Base):
    """One action of a game: a move, ``deal``, ``auto`` or ``undo``, as the engine recorded it.

    (The table is ``moves``; the class is not notation's :class:`shared.notation.Move`.)
    """

    __tablename__ = "moves"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    #: the game's ply before this action: 0 for the first
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)
    action: Mapped[str] = mapped_column(String(16))
    #: when the server received the action (before its turn and any stuck search): the
    #: times result review reads
    played_ms: Mapped[int] = mapped_column(BigInteger)


class TransferCode(Base):
    """A short code that moves an account to another device, for minutes (``transfer_code``).

    The code itself is not kept: its SHA-256 finds the row. The account's token is kept
    sealed with a key made from the code (SHAKE-256 of the row's salt and the code): the row
    alone opens nothing. One row per player at most; a row is gone once used or replaced, and
    an expired one is never opened (and deleted by the next code made).
    """

    __tablename__ = "transfer_codes"

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), unique=True)
    salt: Mapped[str] = mapped_column(String(32))
    sealed: Mapped[str] = mapped_column(String(256))
    expires_ms: Mapped[int] = mapped_column(BigInteger, index=True)


class Setting(Base):
    """Server-wide values created once, such as the daily secret."""

    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class Room(Base):
    __tablename__ = "rooms"

    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    #: waiting, countdown, racing, over
    state: Mapped[str] = mapped_column(String(16))
    max_players: Mapped[int] = mapped_column(Integer)
    time_limit_s: Mapped[int] = mapped_column(Integer)
    #: the seed named at creation (every race deals it unless start_race names another)
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    #: hints allowed in the room's races
    hints: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: its races are rated (keyed server-drawn deals, human racers only)
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    #: what watchers see of the racers' boards during a race: live, delayed, hidden
    boards: Mapped[str] = mapped_column(String(16), default="live", server_default="live")
    #: its races deal winnable deals of this difficulty (easy, medium, hard); null: any deal
    difficulty: Mapped[str | None] = mapped_column(String(8), nullable=True)
    #: the current race: its number, its deal (a seed, or a key in hex), the moment its
    #: games start, racer id -> game id
    race: Mapped[int] = mapped_column(Integer, default=0)
    race_seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    race_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    race_start_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    racers: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    updated_ms: Mapped[int] = mapped_column(BigInteger)
    #: the fencing token of the last node that took the room's lease: a save carries its
    #: node's token and changes the row only while no later node has taken the room
    fence: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")


class RoomMember(Base):
    __tablename__ = "room_members"

    room_code: Mapped[str] = mapped_column(
        ForeignKey("rooms.code", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True, index=True)
    #: members are listed, and the host handed over, in the order they joined
    joined_ms: Mapped[int] = mapped_column(BigInteger)
    seq: Mapped[int] = mapped_column(Integer)
    #: racer or spectator, fixed until the member leaves
    role: Mapped[str] = mapped_column(String(16), default="racer", server_default="racer")
    #: whether the member has a connection to the server now (kept by the server as players
    #: come and go, all false at its start), for ``patience-club admin rooms``
    connected: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Daily(Base):
    """The deal of one variant on one UTC day, proven winnable before it was offered."""

    __tablename__ = "dailies"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    date: Mapped[str] = mapped_column(String(10), primary_key=True)
    #: the deal: a key (hex) derived from the server's secret; old rows hold a seed instead
    seed: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    deal_key: Mapped[str | None] = mapped_column(String(64), nullable=True)
    #: positions the solver searched to prove the deal winnable, for the record
    positions: Mapped[int] = mapped_column(Integer)
    computed_ms: Mapped[int] = mapped_column(BigInteger)


class DailyAttempt(Base):
    """A player's one ranked attempt at a daily deal."""

    __tablename__ = "daily_attempts"
    __table_args__ = (
        Index(
            "ix_daily_attempts_board",
            "variant",
            "date",
            "finished",
            "rank_group",
            "rank_a",
            "rank_b",
        ),
        Index("ix_daily_attempts_player", "player_id", "date"),
    )

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    date: Mapped[str] = mapped_column(String(10), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game_id: Mapped[str] = mapped_column(String(32))
    #: listed on the leaderboard: the game ended, or its day did
    finished: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    state: Mapped[str] = mapped_column(String(16))
    elapsed_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    moves: Mapped[int] = mapped_column(Integer, default=0)
    score: Mapped[int] = mapped_column(Integer, default=0)
    undos: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    #: cards home when it ended, what ranks an attempt that was not won
    foundation: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    rank_group: Mapped[int] = mapped_column(Integer, default=0)
    rank_a: Mapped[int] = mapped_column(BigInteger, default=0)
    rank_b: Mapped[int] = mapped_column(BigInteger, default=0)
    #: '' (not held), 'pending' (held for review), 'cleared', 'confirmed': listed unless
    #: pending or confirmed
    review: Mapped[str] = mapped_column(String(16), default="", server_default="")


class Review(Base):
    """A ranked result played faster than the review rule allows, held for an operator."""

    __tablename__ = "reviews"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    #: what the result is, for people: 'daily freecell 2026-12-01', 'race K7QF2M'
    what: Mapped[str] = mapped_column(String(64))
    actions: Mapped[int] = mapped_column(Integer)
    median_gap_ms: Mapped[int] = mapped_column(Integer)
    #: why it is held, for the operator: each limit crossed with its figure ("; " between)
    reasons: Mapped[str] = mapped_column(String(1000), default="", server_default="")
    #: pending, cleared, confirmed
    state: Mapped[str] = mapped_column(String(16), index=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    decided_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True, index=True)


class Assessment(Base):
    """What review found of a ranked result long enough to judge, held or not: the evidence
    ``patience-club admin efficient`` reads across a player's results."""

    __tablename__ = "assessments"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    #: what the result is, for people: 'daily freecell 2026-12-01', 'race K7QF2M'
    what: Mapped[str] = mapped_column(String(64))
    won: Mapped[bool] = mapped_column(Boolean)
    actions: Mapped[int] = mapped_column(Integer)
    undos: Mapped[int] = mapped_column(Integer)
    #: the solver's line for the deal, its moves; None when it was not asked (not a win
    #: without undo) or found none in its budget
    solver_moves: Mapped[int | None] = mapped_column(Integer, nullable=True)
    revisits: Mapped[int | None] = mapped_column(Integer, nullable=True)
    #: a win on a solver's line (the rule's ``efficient``), however slowly played
    efficient: Mapped[bool] = mapped_column(Boolean)
    median_ms: Mapped[int] = mapped_column(Integer)
    p10_ms: Mapped[int] = mapped_column(Integer)
    elapsed_ms: Mapped[int] = mapped_column(BigInteger)
    floor_ms: Mapped[int] = mapped_column(Integer)
    pauses: Mapped[int] = mapped_column(Integer)
    held: Mapped[bool] = mapped_column(Boolean)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class OperatorRequest(Base):
    """An operator's request for the running server (end a race, close a room, remove the
    bots), stored by ``patience-club admin`` and taken by the server within about a second.

    ``taken_ms`` is set once, by whoever takes it (the server, or the command itself when no
    server took it in time): a request is carried out at most once. ``outcome`` says what
    was done, or why not (``ok`` false).
    """

    __tablename__ = "operator_requests"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    #: end_race, close_room, remove_bots
    action: Mapped[str] = mapped_column(String(16))
    #: a room's code, the players named (ids, comma-separated), or null
    target: Mapped[str | None] = mapped_column(String(1000), nullable=True)
    requested_ms: Mapped[int] = mapped_column(BigInteger)
    #: server or command
    taken_by: Mapped[str | None] = mapped_column(String(16), nullable=True)
    taken_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    done_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    ok: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    outcome: Mapped[str | None] = mapped_column(String(1000), nullable=True)


class PlayerRating(Base):
    """A player's Glicko-2 rating on one variant (server/ratings/glicko2.py); a player who
    never finished a rated race on it has no row (and counts as a new player's 1500/350/0.06).

    The board reads the index on (variant, rating); ``games`` counts the rated races.
    """

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_board", "variant", "rating"),)

    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class RatingChange(Base):
    """One rated race's change of one racer's rating: before and after.

    Keyed by the racer's game in that race: a race is rated once, whichever node
    ends it and however often its end is run again (a restart, a node taking the
    room over): the rows of its games are there, or its rating is written with
    them in one transaction.
    """

    __tablename__ = "rating_history"
    __table_args__ = (Index("ix_rating_history_player", "player_id", "variant", "at_ms"),)

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    variant: Mapped[str] = mapped_column(String(32))
    #: the race, for people: 'K7QF2M/3' (room code / race number)
    race: Mapped[str] = mapped_column(String(32))
    rating_before: Mapped[float] = mapped_column(Float)
    deviation_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    deviation_after: Mapped[float] = mapped_column(Float)
    volatility_after: Mapped[float] = mapped_column(Float)
    at_ms: Mapped[int] = mapped_column(BigInteger)


class Match(Base):
    """A match of challenges between two players (server/challenges/): best of 1, 3 or 5,
    the running score of its ranked rounds, its winner once over."""

    __tablename__ = "matches"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    best_of: Mapped[int] = mapped_column(Integer)
    #: who sent its first challenge, and who answered it (None until someone has)
    first_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    second_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    first_wins: Mapped[int] = mapped_column(Integer, default=0)
    second_wins: Mapped[int] = mapped_column(Integer, default=0)
    draws: Mapped[int] = mapped_column(Integer, default=0)
    #: rounds done (ranked or not)
    rounds: Mapped[int] = mapped_column(Integer, default=0)
    #: playing, over
    state: Mapped[str] = mapped_column(String(16))
    winner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class Challenge(Base):
    """One round of a match: the challenger's game, sent to be played on the same deal by
    the opponent (whoever answers first; named for the rounds after the first).

    The challenger's result and the ghost (``ghost``: ``[elapsed_ms, moves, home]`` after
    each action, the clock's pauses taken out) are stored when it opens, the opponent's
    and the outcome when their game ends, in the transaction that scores the match.
    """

    __tablename__ = "challenges"
    __table_args__ = (
        Index("ix_challenges_challenger", "challenger_id", "created_ms"),
        Index("ix_challenges_opponent", "opponent_id", "created_ms"),
        #: one challenge per round: of two rematches asked at once, one is stored
        UniqueConstraint("match_id", "round"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    match_id: Mapped[str] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    #: setting (a rematch's challenger playing), open, playing, done
    state: Mapped[str] = mapped_column(String(16))
    challenger_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    challenger_game: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), index=True
    )
    opponent_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    opponent_game: Mapped[str | None] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), nullable=True, unique=True
    )
    ghost: Mapped[list[Any] | None] = mapped_column(JSON, nullable=True)
    #: each side's end as ChallengeSide's fields (state, elapsed_ms, moves, home, hints,
    #: undos) and whether review holds it
    challenger_result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    opponent_result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: challenger, opponent, draw; whether it counts in the match, and why not
    result: Mapped[str | None] = mapped_column(String(16), nullable=True)
    ranked: Mapped[bool | None] = mapped_column(Boolean, nullable=True)
    unranked: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    accepted_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    ended_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


class PooledDeal(Base):
    """A keyed deal the solver has won, waiting to be dealt to a player who asks for a
    winnable deal (server/deals/pool.py). Its key is as secret as any keyed deal's: it
    leaves this table when it is dealt (the row is deleted as the game is made, so no
    pooled deal is dealt twice) and shows only when its game reveals it."""

    __tablename__ = "pooled_deals"
    __table_args__ = (Index("ix_pooled_deals_pool", "variant", "options", "difficulty"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    variant: Mapped[str] = mapped_column(String(32))
    #: the variant's full options as canonical JSON (sorted keys): one pool per option set
    options: Mapped[str] = mapped_column(String(256))
    #: easy, medium or hard (server/deals/difficulty.py)
    difficulty: Mapped[str] = mapped_column(String(8))
    deal_key: Mapped[str] = mapped_column(String(64), unique=True)
    #: what the solver spent and found: positions searched, moves in its winning line
    positions: Mapped[int] = mapped_column(Integer)
    line: Mapped[int] = mapped_column(Integer)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class Arena(Base):
    """A timed tournament on one variant (server/arenas/): created by an operator (a command,
    or the schedule of the settings) or by a player (a private arena). Every node reads the
    arenas from here (``updated_ms`` says which changed), so that whichever node a player
    is connected to knows them."""

    __tablename__ = "arenas"
    __table_args__ = (
        Index("ix_arenas_ends_ms", "ends_ms"),
        Index("ix_arenas_updated_ms", "updated_ms"),
    )

    code: Mapped[str] = mapped_column(String(8), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(32))
    #: the variant's full options as canonical JSON
    options: Mapped[str] = mapped_column(String(256))
    starts_ms: Mapped[int] = mapped_column(BigInteger)
    ends_ms: Mapped[int] = mapped_column(BigInteger)
    #: the player who created a private arena; None: the operators
    host_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    #: the entry of the schedule that made it, None for the others
    schedule: Mapped[str | None] = mapped_column(String(64), nullable=True)
    cancelled_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    updated_ms: Mapped[int] = mapped_column(BigInteger)


class ArenaDeal(Base):
    """One deal of an arena's sequence, the same for every player: its key stays secret until
    the arena is over (its commitment is shown from the moment it is drawn)."""

    __tablename__ = "arena_deals"

    arena: Mapped[str] = mapped_column(
        ForeignKey("arenas.code", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    deal_key: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    #: the deal's par time (server/arenas/par.py) and the solver's line it was made from
    par_ms: Mapped[int] = mapped_column(BigInteger)
    line: Mapped[int] = mapped_column(Integer)


class ArenaPlayer(Base):
    """A player who joined an arena, with their totals as their finished deals give them (the
    sum of their ``arena_games`` points, written in the same transaction as each deal's)."""

    __tablename__ = "arena_players"
    __table_args__ = (Index("ix_arena_players_arena", "arena", "points"),)

    arena: Mapped[str] = mapped_column(
        ForeignKey("arenas.code", ondelete="CASCADE"), primary_key=True
    )
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    joined_ms: Mapped[int] = mapped_column(BigInteger)
    points: Mapped[int] = mapped_column(Integer, default=0)
    played: Mapped[int] = mapped_column(Integer, default=0)
    wins: Mapped[int] = mapped_column(Integer, default=0)
    #: the next win is doubled (two wins in a row)
    fire: Mapped[bool] = mapped_column(Boolean, default=False)


class ArenaGame(Base):
    """One deal a player was dealt in an arena: its game, its allowance, and once it ended, its
    result and points. One row per (arena, player, seq): no deal is dealt twice to a player,
    whichever node deals it."""

    __tablename__ = "arena_games"
    __table_args__ = (
        UniqueConstraint("arena", "player_id", "seq", name="uq_arena_games_arena"),
        Index("ix_arena_games_deadline_ms", "deadline_ms"),
    )

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    arena: Mapped[str] = mapped_column(ForeignKey("arenas.code", ondelete="CASCADE"))
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    seq: Mapped[int] = mapped_column(Integer)
    berserk: Mapped[bool] = mapped_column(Boolean, default=False)
    allowance_ms: Mapped[int] = mapped_column(BigInteger)
    #: when the deal is out of time: its start and allowance, or the arena's end if sooner
    deadline_ms: Mapped[int] = mapped_column(BigInteger)
    #: how it ended (None while it is played), its time, points, whether on a streak, and
    #: whether review held it (a held win scores nothing)
    state: Mapped[str | None] = mapped_column(String(16), nullable=True)
    time_ms: Mapped[int] = mapped_column(BigInteger, default=0)
    points: Mapped[int] = mapped_column(Integer, default=0)
    on_streak: Mapped[bool] = mapped_column(Boolean, default=False)
    held: Mapped[bool] = mapped_column(Boolean, default=False)


class SeasonDay(Base):
    """The season points one daily attempt earned (server/seasons/points.py), and its final
    place once its day has closed (None before): what the season boards were given for it,
    so that a change (the day's close adding place points) is applied as a difference."""

    __tablename__ = "season_days"
    __table_args__ = (Index("ix_season_days_player", "player_id", "date"),)

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    date: Mapped[str] = mapped_column(String(10), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    points: Mapped[int] = mapped_column(Integer)
    won: Mapped[bool] = mapped_column(Boolean)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)


class SeasonPoints(Base):
    """A player's points on one board: ``scope`` a variant, or ``*`` for every variant;
    ``period`` a week (``w2026-49``), a month (``m2026-12``) or ``all``. Kept as attempts
    finish and days close; the board reads the index on (scope, period, points)."""

    __tablename__ = "season_points"
    __table_args__ = (Index("ix_season_points_board", "scope", "period", "points", "player_id"),)

    scope: Mapped[str] = mapped_column(String(32), primary_key=True)
    period: Mapped[str] = mapped_column(String(16), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    points: Mapped[int] = mapped_column(Integer)
    dailies: Mapped[int] = mapped_column(Integer)
    wins: Mapped[int] = mapped_column(Integer)


class SeasonCount(Base):
    """How many players of a board hold each number of points: a true rank is one sum over
    the few point values above a player's, not a count over every player above."""

    __tablename__ = "season_counts"

    scope: Mapped[str] = mapped_column(String(32), primary_key=True)
    period: Mapped[str] = mapped_column(String(16), primary_key=True)
    points: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[int] = mapped_column(Integer)


class SeasonClosed(Base):
    """A daily whose places were given their points: written once, in the transaction that
    gives them, so that two nodes closing the same day cannot count it twice."""

    __tablename__ = "season_closed"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    date: Mapped[str] = mapped_column(String(10), primary_key=True)
    closed_ms: Mapped[int] = mapped_column(BigInteger)


class RatingCount(Base):
    """How many players of a variant hold a rating in each whole point (``floor``): a true
    rank on the rating board is a sum over these, plus the few in the player's own point."""

    __tablename__ = "rating_counts"

    variant: Mapped[str] = mapped_column(String(32), primary_key=True)
    floor: Mapped[int] = mapped_column(Integer, primary_key=True)
    players: Mapped[int] = mapped_column(Integer)
