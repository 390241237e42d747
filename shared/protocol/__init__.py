"""The wire protocol's messages (docs/protocol.md), sans I/O: bytes in, typed messages out.

One frozen dataclass per message, one module per area:

    codes      the error codes, and which are the client's own mistakes
    envelope   the bases (Message, Request, Reply, Part), field checks, limits,
               frames (unpack, encode) and the Registry class
    session    hello, welcome (PlayerInfo, ServerInfo, VariantInfo)
    views      what a player sees of a game: GameView, PileView, DealView, DailyInfo
    frames     the ``game`` frame written from the typed view; PackedPiles, a game's piles
               as last packed (its owner keeps one per game)
    games      start_game, move, undo, resign, get_game, hint, games; game, hint, games,
               ok, error (GameEntry)
    rooms      create_room, join_room, leave_room, start_race, watch; room,
               race_countdown, race_started, progress, race_over (RoomView, RoomPlayer)
    daily      daily, leaderboard (Standing)
    ratings    ratings (RatingEntry); PlayerRating, shown beside names
    challenges ChallengeView, ChallengeSide, MatchView; the states, results and limits
    challenge_requests  challenge_create, challenge_get, challenge_accept,
               challenge_ghost, challenge_rematch, challenges, match_start
    challenge_replies  challenge, challenge_game, ghost, match, challenges
    arenas     arenas, arena_create, arena_join, arena_leave, arena_play, arena_berserk,
               arena_table; arena, arena_game, arena_standings, arena_place, arena_over
               (ArenaInfo, ArenaDeal, ArenaEntry, ArenaResult)
    stats      stats (VariantStats)
    replays    replay: a finished game's actions and boards
    invitations  invitation: what a race's link is, asked before hello
    seasons    season (SeasonEntry): the week's, month's and all-time boards
    profiles   profile, profile_settings (ProfileRating, ProfileVariant, DailyPlace...)

:data:`REQUESTS` and :data:`REPLIES` are the two registries, built here once
from explicit lists and read-only: :func:`decode` turns a client's frame into
a request, :func:`decode_reply` a server's frame into a reply or push; both
check every field and raise :class:`~shared.errors.ProtocolError` with the
protocol's code. Nothing here touches a socket, a clock or a database, so the
server, the clients and the tests share it.
"""

from __future__ import annotations

from shared.protocol.arenas import *  # noqa: F403
from shared.protocol.arenas import (
    ArenaBerserk,
    ArenaCreate,
    ArenaGame,
    ArenaJoin,
    ArenaLeave,
    ArenaOver,
    ArenaPlace,
    ArenaPlay,
    ArenaReply,
    ArenasReply,
    ArenasRequest,
    ArenaStandings,
    ArenaTableReply,
    ArenaTableRequest,
)
from shared.protocol.challenge_replies import *  # noqa: F403
from shared.protocol.challenge_replies import (
    ChallengeGameReply,
    ChallengeReply,
    ChallengesReply,
    GhostReply,
    MatchReply,
)
from shared.protocol.challenge_requests import *  # noqa: F403
from shared.protocol.challenge_requests import (
    ChallengeAccept,
    ChallengeCreate,
    ChallengeGet,
    ChallengeGhost,
    ChallengeRematch,
    ChallengesRequest,
    MatchStart,
)
from shared.protocol.challenges import *  # noqa: F403
from shared.protocol.codes import *  # noqa: F403
from shared.protocol.daily import *  # noqa: F403
from shared.protocol.daily import DailyIntro, DailyRequest, LeaderboardReply, LeaderboardRequest
from shared.protocol.envelope import *  # noqa: F403
from shared.protocol.envelope import Registry, Reply, Request
from shared.protocol.games import *  # noqa: F403
from shared.protocol.games import (
    Error,
    GameReply,
    GamesReply,
    GamesRequest,
    GetGame,
    HintReply,
    HintRequest,
    LeaveGame,
    MoveRequest,
    Ok,
    Resign,
    StartGame,
    Undo,
)
from shared.protocol.hindsight import *  # noqa: F403
from shared.protocol.hindsight import CouldWinReply, CouldWinRequest
from shared.protocol.invitations import *  # noqa: F403
from shared.protocol.invitations import InvitationReply, InvitationRequest
from shared.protocol.profiles import *  # noqa: F403
from shared.protocol.profiles import ProfileReply, ProfileRequest, ProfileSettings
from shared.protocol.ratings import *  # noqa: F403
from shared.protocol.ratings import RatingsReply, RatingsRequest
from shared.protocol.replays import *  # noqa: F403
from shared.protocol.replays import ReplayReply, ReplayRequest
from shared.protocol.rooms import *  # noqa: F403
from shared.protocol.rooms import (
    CreateRoom,
    JoinRoom,
    LeaveRoom,
    Progress,
    RaceCountdown,
    RaceOver,
    RaceStarted,
    RoomReply,
    StartRace,
    Watch,
)
from shared.protocol.seasons import *  # noqa: F403
from shared.protocol.seasons import SeasonReply, SeasonRequest
from shared.protocol.session import *  # noqa: F403
from shared.protocol.session import Hello, TransferCodeReply, TransferCodeRequest, Welcome
from shared.protocol.stats import *  # noqa: F403
from shared.protocol.stats import StatsReply, StatsRequest
from shared.protocol.views import *  # noqa: F403

#: client to server, by type
REQUESTS: Registry[Request] = Registry(
    (
        Hello,
        StartGame,
        MoveRequest,
        Undo,
        Resign,
        GetGame,
        HintRequest,
        LeaveGame,
        CouldWinRequest,
        ReplayRequest,
        TransferCodeRequest,
        InvitationRequest,
        GamesRequest,
        CreateRoom,
        JoinRoom,
        LeaveRoom,
        StartRace,
        Watch,
        DailyRequest,
        LeaderboardRequest,
        StatsRequest,
        RatingsRequest,
        ChallengeCreate,
        ChallengeGet,
        ChallengeAccept,
        ChallengeGhost,
        ChallengeRematch,
        ChallengesRequest,
        MatchStart,
        ArenasRequest,
        ArenaCreate,
        ArenaJoin,
        ArenaLeave,
        ArenaPlay,
        ArenaBerserk,
        ArenaTableRequest,
        SeasonRequest,
        ProfileRequest,
        ProfileSettings,
    )
)

#: server to client (replies and pushes), by type
REPLIES: Registry[Reply] = Registry(
    (
        Welcome,
        GameReply,
        HintReply,
        CouldWinReply,
        ReplayReply,
        TransferCodeReply,
        InvitationReply,
        GamesReply,
        Ok,
        Error,
        RoomReply,
        RaceCountdown,
        RaceStarted,
        Progress,
        RaceOver,
        DailyIntro,
        LeaderboardReply,
        StatsReply,
        RatingsReply,
        ChallengeReply,
        ChallengeGameReply,
        GhostReply,
        ChallengesReply,
        MatchReply,
        ArenasReply,
        ArenaReply,
        ArenaGame,
        ArenaStandings,
        ArenaPlace,
        ArenaOver,
        ArenaTableReply,
        SeasonReply,
        ProfileReply,
    )
)


def decode(data: bytes | str) -> Request:
    """A client's frame as a request; raises :class:`~shared.errors.ProtocolError`."""
    return REQUESTS.decode(data)


def decode_reply(data: bytes | str) -> Reply:
    """A server's frame as a reply or push; raises :class:`~shared.errors.ProtocolError`."""
    return REPLIES.decode(data)
