"""Hypothesis strategies for every message and part of ``shared.protocol``, all valid."""

from __future__ import annotations

import datetime

from hypothesis import strategies as st

from shared import protocol as p
from shared.cards import RANKS, SUITS
from shared.notation import AUTO, DEAL, UNDO, Move

INT64 = st.integers(min_value=p.INT64_MIN, max_value=p.INT64_MAX)
COUNTS = st.integers(min_value=0, max_value=p.INT64_MAX)
IDS = st.none() | INT64
PLAYER_IDS = st.integers(min_value=1, max_value=p.INT64_MAX)
PLIES = st.integers(min_value=0, max_value=p.MAX_PLY)
SEEDS = st.integers(min_value=1, max_value=p.MAX_SEED)
GAME_IDS = st.text(min_size=1, max_size=p.MAX_ID_LENGTH)
NAMES = st.from_regex(p.NAME_RE, fullmatch=True)
CARDS = st.sampled_from([rank + suit for rank in RANKS for suit in SUITS])
PILES = st.sampled_from(
    ["s", "w", *(f"f{i}" for i in range(8)), *(f"t{i}" for i in range(10))]
    + [f"r{i}" for i in range(4)]
)
CODES = st.text(alphabet=p.CODE_ALPHABET, min_size=p.CODE_LENGTH, max_size=p.CODE_LENGTH)
DATES = st.dates(datetime.date(2000, 1, 1), datetime.date(2999, 12, 31)).map(str)
STATES = st.sampled_from(p.GAME_STATES)
OPTIONS = st.dictionaries(
    st.text(min_size=1, max_size=p.MAX_OPTION_NAME), st.booleans() | INT64, max_size=p.MAX_OPTIONS
)
MOVES = st.builds(
    Move, src=PILES, count=st.integers(min_value=1, max_value=104), dst=PILES | st.just("f")
)
ACTIONS = MOVES | st.sampled_from([DEAL, AUTO, UNDO])
LEGAL = st.lists(ACTIONS.map(str), max_size=40)

PILE_MAPS = st.fixed_dictionaries(
    {
        "id": PILES,
        "down": st.integers(min_value=0, max_value=104),
        "up": st.lists(CARDS, max_size=13),
    }
)


HEX64 = st.binary(min_size=32, max_size=32).map(bytes.hex)
DEAL_MAPS = (
    st.fixed_dictionaries({"seed": SEEDS})
    | st.fixed_dictionaries({"commitment": HEX64})
    | st.fixed_dictionaries({"commitment": HEX64, "key": HEX64})
)

VIEW_MAPS = st.fixed_dictionaries(
    {
        "variant": GAME_IDS,
        "deal": DEAL_MAPS,
        "options": OPTIONS,
        "ply": PLIES,
        "moves": PLIES,
        "undos": PLIES,
        "hints": PLIES,
        "score": COUNTS,
        "max_score": COUNTS,
        "state": STATES,
        "redeals_left": st.none() | COUNTS,
        "piles": st.lists(PILE_MAPS, max_size=20),
        "legal": LEGAL,
        "id": GAME_IDS,
        "elapsed_ms": COUNTS,
    }
)
GAME_VIEWS = VIEW_MAPS.map(p.GameView.from_map)

RATINGS = st.builds(
    p.PlayerRating,
    rating=st.integers(min_value=-10_000, max_value=10_000),
    provisional=st.booleans(),
    change=st.none() | st.integers(min_value=-10_000, max_value=10_000),
)
STANDINGS = st.builds(
    p.Standing,
    rank=st.none() | PLAYER_IDS,
    player=PLAYER_IDS,
    name=NAMES,
    state=STATES,
    elapsed_ms=COUNTS,
    moves=PLIES,
    score=COUNTS,
    undos=PLIES,
    foundation=COUNTS,
    review=st.none() | st.sampled_from(p.REVIEWS),
    rating=st.none() | RATINGS,
)
PLAYERS = st.builds(p.PlayerInfo, id=PLAYER_IDS, name=NAMES, bot=st.booleans())
DEALS = DEAL_MAPS.map(p.DealView.from_map)
TIMES = st.datetimes(
    datetime.datetime(2000, 1, 1), datetime.datetime(2999, 1, 1), timezones=st.just(datetime.UTC)
).map(lambda t: t.isoformat(timespec="milliseconds").replace("+00:00", "Z"))
GAME_ENTRIES = st.builds(
    p.GameEntry,
    id=GAME_IDS,
    variant=GAME_IDS,
    options=OPTIONS,
    deal=DEALS,
    kind=st.sampled_from(p.GAME_KINDS),
    state=STATES,
    ply=PLIES,
    score=COUNTS,
    elapsed_ms=COUNTS,
    started_at=TIMES,
)
LAYOUTS = st.builds(
    p.VariantLayout,
    rows=st.lists(st.lists(PILES | st.just("")).map(tuple), max_size=4).map(tuple),
    fan=st.dictionaries(PILES, st.sampled_from(p.FANS)),
)
VARIANTS = st.builds(
    p.VariantInfo,
    id=GAME_IDS,
    name=st.text(min_size=1, max_size=40),
    options=OPTIONS,
    max_score=COUNTS,
    layout=st.none() | LAYOUTS,
    pile_names=st.none() | st.dictionaries(PILES, st.text(min_size=1, max_size=40)),
    race_default=st.booleans(),
)
SERVERS = st.builds(
    p.ServerInfo,
    name=st.text(min_size=1, max_size=40),
    version=st.text(min_size=1, max_size=10),
    variants=st.lists(VARIANTS, max_size=5).map(tuple),
    motd=st.none() | st.text(min_size=1, max_size=80),
)
ROOM_PLAYERS = st.builds(
    p.RoomPlayer,
    id=PLAYER_IDS,
    name=NAMES,
    connected=st.booleans(),
    game=st.none() | GAME_IDS,
    role=st.sampled_from(p.ROLES),
    bot=st.booleans(),
    rating=st.none() | RATINGS.map(lambda r: p.PlayerRating(r.rating, r.provisional)),
)
ROOMS = st.builds(
    p.RoomView,
    code=CODES,
    variant=GAME_IDS,
    options=OPTIONS,
    host=PLAYER_IDS,
    players=st.lists(ROOM_PLAYERS, max_size=8).map(tuple),
    state=st.sampled_from(p.ROOM_STATES),
    max_players=st.integers(min_value=1, max_value=p.MAX_PLAYERS),
    time_limit_s=st.integers(min_value=1, max_value=p.INT64_MAX),
    race=COUNTS,
    hints=st.booleans(),
    seed=st.none() | SEEDS,
    rated=st.booleans(),
    boards=st.sampled_from(p.BOARD_RULES),
)
VARIANT_STATS = st.builds(
    p.VariantStats,
    variant=GAME_IDS,
    played=COUNTS,
    won=COUNTS,
    best_ms=st.none() | COUNTS,
    fewest_moves=st.none() | PLIES,
)

# -- messages, by area -----------------------------------------------------------------

SESSION = [
    st.builds(
        p.Hello,
        protocol=INT64,
        client=st.text(min_size=1, max_size=64),
        name=st.text(max_size=30),
        bot=st.booleans(),
        id=IDS,
    ),
    st.builds(
        p.Hello,
        protocol=INT64,
        client=st.text(min_size=1, max_size=64),
        token=st.text(min_size=1, max_size=256),
        id=IDS,
    ),
    st.builds(
        p.Welcome,
        protocol=COUNTS,
        server=SERVERS,
        player=PLAYERS,
        token=st.none() | st.text(min_size=1, max_size=256),
        re=IDS,
    ),
]
GAMES = [
    st.builds(p.StartGame, variant=GAME_IDS, seed=st.none() | SEEDS, options=OPTIONS, id=IDS),
    st.builds(p.StartGame, variant=GAME_IDS, key=HEX64, options=OPTIONS, id=IDS),
    st.builds(
        p.GamesRequest,
        state=st.none() | STATES,
        limit=st.integers(min_value=1, max_value=p.MAX_GAMES),
        id=IDS,
    ),
    st.builds(p.GamesReply, games=st.lists(GAME_ENTRIES, max_size=5).map(tuple), re=IDS),
    st.builds(p.MoveRequest, game=GAME_IDS, ply=PLIES, move=ACTIONS, id=IDS),
    *(st.builds(cls, game=GAME_IDS, ply=PLIES, id=IDS) for cls in (p.Undo, p.Resign)),
    *(st.builds(cls, game=GAME_IDS, id=IDS) for cls in (p.GetGame, p.HintRequest)),
    st.builds(
        p.GameReply,
        game=GAME_VIEWS,
        daily=st.none() | st.builds(p.DailyInfo, date=DATES),
        code=st.none() | CODES,
        player=st.none() | PLAYER_IDS,
        re=IDS,
    ),
    st.builds(p.HintReply, move=st.none() | ACTIONS, re=IDS),
    st.builds(p.Ok, re=IDS),
    st.builds(
        p.Error,
        code=st.text(min_size=1, max_size=64),
        message=st.text(min_size=1, max_size=200),
        game=st.none() | GAME_VIEWS,
        re=IDS,
    ),
]
ROOMS_MESSAGES = [
    st.builds(
        p.CreateRoom,
        variant=GAME_IDS,
        options=OPTIONS,
        seed=st.none() | SEEDS,
        max_players=st.integers(min_value=1, max_value=p.MAX_PLAYERS),
        time_limit_s=st.none() | st.integers(min_value=60, max_value=86_400),
        hints=st.booleans(),
        rated=st.booleans(),
        boards=st.sampled_from(p.BOARD_RULES),
        id=IDS,
    ),
    st.builds(p.JoinRoom, code=CODES, role=st.sampled_from(p.ROLES), id=IDS),
    st.builds(p.LeaveRoom, code=CODES, id=IDS),
    st.builds(p.StartRace, code=CODES, seed=st.none() | SEEDS, id=IDS),
    st.builds(p.Watch, code=CODES, player=PLAYER_IDS, id=IDS),
    st.builds(p.RoomReply, room=ROOMS, re=IDS),
    st.builds(p.RaceCountdown, code=CODES, start_in_ms=COUNTS, re=IDS),
    st.builds(p.RaceStarted, code=CODES, game=st.none() | GAME_VIEWS, re=IDS),
    st.builds(
        p.Progress,
        code=CODES,
        player=PLAYER_IDS,
        ply=PLIES,
        foundation=COUNTS,
        score=COUNTS,
        state=STATES,
        re=IDS,
    ),
    st.builds(p.RaceOver, code=CODES, standings=st.lists(STANDINGS, max_size=8).map(tuple), re=IDS),
]
DAILY = [
    st.builds(
        p.DailyRequest, variant=GAME_IDS, practice=st.booleans(), date=st.none() | DATES, id=IDS
    ),
    st.builds(
        p.LeaderboardRequest,
        variant=GAME_IDS,
        date=st.none() | DATES,
        limit=st.integers(min_value=1, max_value=p.MAX_LEADERBOARD),
        id=IDS,
    ),
    st.builds(
        p.LeaderboardReply,
        variant=GAME_IDS,
        date=DATES,
        entries=st.lists(STANDINGS, max_size=10).map(tuple),
        me=st.none() | STANDINGS,
        re=IDS,
    ),
]
STATS = [
    st.builds(p.StatsRequest, player=st.none() | PLAYER_IDS, id=IDS),
    st.builds(
        p.StatsReply,
        player=PLAYERS,
        variants=st.lists(VARIANT_STATS, max_size=5).map(tuple),
        dailies_won=COUNTS,
        daily_streak=COUNTS,
        re=IDS,
    ),
]
RATING_ENTRIES = st.builds(
    p.RatingEntry,
    rank=PLAYER_IDS,
    player=PLAYER_IDS,
    name=NAMES,
    rating=RATINGS.map(lambda r: p.PlayerRating(r.rating, r.provisional)),
    games=COUNTS,
)
RATINGS_MESSAGES = [
    st.builds(
        p.RatingsRequest,
        variant=GAME_IDS,
        limit=st.integers(min_value=1, max_value=p.MAX_RATINGS),
        id=IDS,
    ),
    st.builds(
        p.RatingsReply,
        variant=GAME_IDS,
        entries=st.lists(RATING_ENTRIES, max_size=10).map(tuple),
        me=st.none() | RATING_ENTRIES,
        re=IDS,
    ),
]
CHALLENGE_IDS = st.text(min_size=1, max_size=p.MAX_CHALLENGE_ID)
HEX = st.text(alphabet="0123456789abcdef", min_size=64, max_size=64)
CHALLENGE_SIDES = st.builds(
    p.ChallengeSide,
    player=PLAYER_IDS,
    name=NAMES,
    game=GAME_IDS,
    state=STATES,
    elapsed_ms=COUNTS,
    moves=PLIES,
    home=st.integers(min_value=0, max_value=104),
    hints=COUNTS,
    undos=COUNTS,
)
MATCHES = st.builds(
    p.MatchView,
    id=CHALLENGE_IDS,
    best_of=st.sampled_from(p.BEST_OF),
    first=PLAYER_IDS,
    first_name=NAMES,
    second=st.none() | PLAYER_IDS,
    second_name=st.none() | NAMES,
    first_wins=COUNTS,
    second_wins=COUNTS,
    draws=COUNTS,
    rounds=COUNTS,
    state=st.sampled_from(p.MATCH_STATES),
    winner=st.none() | PLAYER_IDS,
)
CHALLENGES = st.builds(
    p.ChallengeView,
    id=CHALLENGE_IDS,
    kind=st.sampled_from(p.GAME_KINDS),
    variant=GAME_IDS,
    options=OPTIONS,
    commitment=HEX,
    round=st.integers(min_value=1, max_value=p.MAX_PLY),
    state=st.sampled_from(p.CHALLENGE_STATES),
    challenger=PLAYER_IDS,
    challenger_name=NAMES,
    match=MATCHES,
    opponent=st.none() | PLAYER_IDS,
    opponent_name=st.none() | NAMES,
    game=st.none() | GAME_IDS,
    result=st.none() | st.sampled_from(p.RESULTS),
    ranked=st.none() | st.booleans(),
    unranked=st.none() | st.sampled_from(p.UNRANKED_REASONS),
    challenger_result=st.none() | CHALLENGE_SIDES,
    opponent_result=st.none() | CHALLENGE_SIDES,
)
CHALLENGES_MESSAGES = [
    st.builds(p.ChallengeCreate, game=GAME_IDS, best_of=st.sampled_from(p.BEST_OF), id=IDS),
    *(
        st.builds(cls, challenge=CHALLENGE_IDS, id=IDS)
        for cls in (p.ChallengeGet, p.ChallengeAccept, p.ChallengeGhost, p.ChallengeRematch)
    ),
    st.builds(
        p.ChallengesRequest, limit=st.integers(min_value=1, max_value=p.MAX_CHALLENGES), id=IDS
    ),
    st.builds(p.ChallengeReply, challenge=CHALLENGES, re=IDS),
    st.builds(p.ChallengeGameReply, challenge=CHALLENGES, game=GAME_VIEWS, re=IDS),
    st.builds(
        p.GhostReply,
        challenge=CHALLENGE_IDS,
        elapsed_ms=COUNTS,
        moves=PLIES,
        home=st.integers(min_value=0, max_value=104),
        state=STATES,
        re=IDS,
    ),
    st.builds(p.ChallengesReply, challenges=st.lists(CHALLENGES, max_size=3).map(tuple), re=IDS),
    st.builds(p.MatchStart, room=CODES, best_of=st.sampled_from([3, 5]), id=IDS),
    st.builds(p.MatchReply, room=CODES, match=MATCHES, re=IDS),
]

SEASON_ENTRIES = st.builds(
    p.SeasonEntry,
    rank=PLAYER_IDS,
    player=PLAYER_IDS,
    name=NAMES,
    points=COUNTS,
    dailies=COUNTS,
    wins=COUNTS,
    rating=st.none() | RATINGS.map(lambda r: p.PlayerRating(r.rating, r.provisional)),
)
SEASONS_MESSAGES = [
    st.builds(
        p.SeasonRequest,
        period=st.sampled_from(p.PERIODS),
        variant=st.none() | GAME_IDS,
        date=st.none() | DATES,
        limit=st.integers(min_value=1, max_value=p.MAX_SEASON),
        id=IDS,
    ),
    st.builds(
        p.SeasonReply,
        period=st.sampled_from(p.PERIODS),
        variant=st.none() | GAME_IDS,
        date=DATES,
        first=st.none() | DATES,
        last=st.none() | DATES,
        entries=st.lists(SEASON_ENTRIES, max_size=5).map(tuple),
        me=st.none() | SEASON_ENTRIES,
        re=IDS,
    ),
]
PROFILES_MESSAGES = [
    st.builds(p.ProfileRequest, name=NAMES, id=IDS),
    st.builds(p.ProfileSettings, hidden=st.booleans(), id=IDS),
    st.builds(
        p.ProfileReply,
        player=PLAYERS,
        hidden=st.booleans(),
        mine=st.booleans(),
        ratings=st.lists(
            st.builds(
                p.ProfileRating,
                variant=GAME_IDS,
                rating=RATINGS.map(lambda r: p.PlayerRating(r.rating, r.provisional)),
                games=COUNTS,
                history=st.lists(
                    st.builds(
                        p.RatingPoint,
                        at_ms=COUNTS,
                        rating=st.integers(0, 3000),
                        deviation=st.integers(0, 350),
                    ),
                    max_size=4,
                ).map(tuple),
            ),
            max_size=3,
        ).map(tuple),
        variants=st.lists(
            st.builds(
                p.ProfileVariant,
                variant=GAME_IDS,
                played=COUNTS,
                won=COUNTS,
                best_ms=st.none() | COUNTS,
                median_ms=st.none() | COUNTS,
                streak=COUNTS,
                best_streak=COUNTS,
            ),
            max_size=3,
        ).map(tuple),
        streak=COUNTS,
        best_streak=COUNTS,
        dailies=st.lists(
            st.builds(
                p.DailyPlace,
                variant=GAME_IDS,
                date=DATES,
                state=STATES,
                place=st.none() | PLAYER_IDS,
                points=COUNTS,
            ),
            max_size=3,
        ).map(tuple),
        arenas=st.lists(
            st.builds(
                p.ProfileArena,
                arena=GAME_IDS,
                name=st.text(min_size=1, max_size=20),
                variant=GAME_IDS,
                place=PLAYER_IDS,
                points=COUNTS,
                ended_ms=COUNTS,
            ),
            max_size=2,
        ).map(tuple),
        recent=st.lists(
            st.builds(
                p.RecentGame,
                id=GAME_IDS,
                variant=GAME_IDS,
                kind=GAME_IDS,
                state=STATES,
                ended_ms=COUNTS,
                elapsed_ms=COUNTS,
                moves=PLIES,
            ),
            max_size=3,
        ).map(tuple),
        re=IDS,
    ),
]
