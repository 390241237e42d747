"""The protocol 2 revision migrates a database of the first version: existing rows keep their
numbered deals and get what the new columns stand for; the server plays on them."""

from __future__ import annotations

import json

from server.app import App
from server.config import Config
from server.storage.engine import create_engine
from server.storage.migrate import downgrade, upgrade
from shared.games import new_game
from tests.server.conftest import FakeClock, open_client
from tests.server.databases import run_sql

OLD_TOKEN = "an old player's token, 24 bytes of it here"


def fill_version_1(url: str) -> None:
    """Rows as the first version stored them: a player, three games, a daily, a room."""
    from server.storage.queries.players import hash_token

    game = new_game("freecell", seed=617)
    first = game.legal_moves()[0]
    run_sql(
        url,
        "INSERT INTO players (id, name, name_key, token_hash, banned, created_ms) "
        "VALUES (1, 'Old', 'old', :token, false, 1700000000000)",
        {"token": hash_token(OLD_TOKEN)},
    )
    for gid, seed in (("solo1", 617), ("daily1", 9), ("race1", 33)):
        run_sql(
            url,
            "INSERT INTO games (id, player_id, variant, options, seed, state, score, ply, "
            "started_ms, ended_ms, updated_ms) VALUES (:id, 1, 'freecell', :options, :seed, "
            "'playing', 0, 0, 1700000000000, NULL, 1700000000000)",
            {"id": gid, "options": json.dumps(game.options), "seed": seed},
        )
    for ply, action, played in ((0, first, 1700000001000), (1, "undo", 1700000002000),
                                (2, first, 1700000003000)):  # fmt: skip
        run_sql(
            url,
            "INSERT INTO moves (game_id, ply, action, played_ms) "
            "VALUES ('solo1', :ply, :action, :played)",
            {"ply": ply, "action": action, "played": played},
        )
    run_sql(url, "UPDATE games SET ply = 3 WHERE id = 'solo1'")
    run_sql(
        url,
        "INSERT INTO dailies (variant, date, seed, positions, computed_ms) "
        "VALUES ('freecell', '2023-11-14', 9, 120, 1700000000000)",
    )
    run_sql(
        url,
        "INSERT INTO daily_attempts (variant, date, player_id, game_id, finished, state, "
        "elapsed_ms, moves, score, rank_group, rank_a, rank_b) VALUES ('freecell', "
        "'2023-11-14', 1, 'daily1', false, 'playing', 0, 0, 0, 0, 0, 0)",
    )
    run_sql(
        url,
        "INSERT INTO rooms (code, variant, options, host_id, state, max_players, "
        "time_limit_s, seed, race, race_seed, race_start_ms, racers, created_ms, updated_ms) "
        "VALUES ('K7QF2M', 'freecell', '{}', 1, 'over', 8, 1800, 33, 1, 33, 1700000000000, "
        ":racers, 1700000000000, 1700000000000)",
        {"racers": json.dumps({"1": "race1"})},
    )
    run_sql(
        url,
        "INSERT INTO room_members (room_code, player_id, joined_ms, seq) "
        "VALUES ('K7QF2M', 1, 1700000000000, 0)",
    )


async def test_existing_rows_keep_their_deals_and_get_their_kinds_and_counts(
    empty_db_url: str,
) -> None:
    url = empty_db_url
    engine = create_engine(url)
    try:
        await upgrade(engine, "0002")
        fill_version_1(url)
        await upgrade(engine)
    finally:
        await engine.dispose()
    games = run_sql(
        url,
        "SELECT id, seed, deal_key, commitment, kind, undos, hints, key_open FROM games "
        "ORDER BY id",
    )
    (player,) = run_sql(url, "SELECT bot, registered_ip, updated_ms FROM players")
    (daily,) = run_sql(url, "SELECT seed, deal_key FROM dailies")
    (attempt,) = run_sql(url, "SELECT undos, review FROM daily_attempts")
    (room,) = run_sql(url, "SELECT hints, race_key FROM rooms")
    (role,) = run_sql(url, "SELECT role FROM room_members")
    # (SQLite answers booleans as 0 and 1, equal to False and True)
    assert games == [
        ("daily1", 9, None, None, "daily", 0, 0, False),
        ("race1", 33, None, None, "race", 0, 0, False),
        ("solo1", 617, None, None, "solo", 1, 0, False),
    ]
    assert player == (False, None, 1700000000000)
    assert (daily, attempt, room, role) == ((9, None), (0, ""), (False, None), ("racer",))

    # The server plays on: the old game replays from its seed, with its undo counted.
    app = App(
        Config(port=0, metrics_port=0, db=url, daily_ahead=False, stuck_workers=0),
        clock=FakeClock(),
    )
    await app.start()
    try:
        client = await open_client(app)
        welcome = await client.request("hello", protocol=2, client="t/1", token=OLD_TOKEN)
        assert welcome["player"] == {"id": 1, "name": "Old", "bot": False}
        view = (await client.request("get_game", game="solo1"))["game"]
        assert (view["deal"], view["ply"], view["undos"]) == ({"seed": 617}, 3, 1)
        listed = {g["id"]: g["kind"] for g in (await client.request("games"))["games"]}
        assert listed == {"solo1": "solo", "daily1": "daily", "race1": "race"}
        room = (await client.request("join_room", code="K7QF2M"))["room"]
        assert (room["seed"], room["players"][0]["role"]) == (33, "racer")
        await client.ws.close()
    finally:
        await app.stop()

    # And back: a database holding only numbered deals goes down to the first version.
    engine = create_engine(url)
    try:
        await downgrade(engine, "0002")
    finally:
        await engine.dispose()
    assert run_sql(url, "SELECT count(*) FROM games") == [(3,)]


async def test_the_clock_columns_come_and_go(empty_db_url: str) -> None:
    """``0011``: games keep their clocks (no pause, not stopped); down again drops them."""
    url = empty_db_url
    engine = create_engine(url)
    try:
        await upgrade(engine, "0010")
        run_sql(
            url,
            "INSERT INTO players (id, name, name_key, token_hash, banned, created_ms, bot, "
            "updated_ms) VALUES (1, 'Old', 'old', 'x', false, 1, false, 1)",
        )
        run_sql(
            url,
            "INSERT INTO games (id, player_id, variant, options, seed, kind, key_open, state, "
            "score, ply, undos, hints, started_ms, ended_ms, updated_ms) VALUES ('g1', 1, "
            "'freecell', '{}', 617, 'solo', false, 'won', 52, 90, 0, 0, 1000, 61000, 61000)",
        )
        await upgrade(engine)
        assert run_sql(url, "SELECT paused_ms, stopped_ms FROM games") == [(0, None)]
        await downgrade(engine, "0010")
        assert run_sql(url, "SELECT id, ended_ms - started_ms FROM games") == [("g1", 60000)]
        await upgrade(engine)
    finally:
        await engine.dispose()


async def test_the_challenges_tables_and_the_chosen_key_come_and_go(empty_db_url: str) -> None:
    """``0014``: games stored before it count as not chosen; down again drops the challenges
    with their tables and the column, the games staying."""
    url = empty_db_url
    engine = create_engine(url)
    try:
        await upgrade(engine, "0013")
        run_sql(
            url,
            "INSERT INTO players (id, name, name_key, token_hash, banned, created_ms, bot, "
            "updated_ms) VALUES (1, 'Old', 'old', 'x', false, 1, false, 1)",
        )
        run_sql(
            url,
            "INSERT INTO games (id, player_id, variant, options, deal_key, commitment, kind, "
            "key_open, state, score, ply, undos, hints, started_ms, ended_ms, updated_ms) "
            "VALUES ('g1', 1, 'freecell', '{}', :key, :key, 'solo', true, 'resigned', 0, 0, 0, "
            "0, 1000, 2000, 2000)",
            {"key": "ab" * 32},
        )
        await upgrade(engine, "0014")
        assert run_sql(url, "SELECT key_chosen FROM games") == [(False,)]
        run_sql(
            url,
            "INSERT INTO matches (id, best_of, first_id, first_wins, second_wins, draws, "
            "rounds, state, created_ms, updated_ms) VALUES ('m1', 1, 1, 0, 0, 0, 0, 'playing', "
            "1, 1)",
        )
        run_sql(
            url,
            "INSERT INTO challenges (id, match_id, round, state, challenger_id, "
            "challenger_game, created_ms) VALUES ('c1', 'm1', 1, 'open', 1, 'g1', 1)",
        )
        await downgrade(engine, "0013")
        assert run_sql(url, "SELECT id FROM games") == [("g1",)]
        await upgrade(engine)
    finally:
        await engine.dispose()


async def test_the_season_boards_revision_scores_every_past_daily(empty_db_url: str) -> None:
    """Revision 0019 scores the dailies of all time (a year back here, which the close of past
    days never reached), closes the past days whose attempts all ended, leaves a day with an
    open attempt to the server's close, and goes down and up again."""
    url, engine = empty_db_url, create_engine(empty_db_url)
    try:
        await upgrade(engine, "0016")
        for pid in (1, 2, 3):
            run_sql(
                url,
                "INSERT INTO players (id, name, name_key, token_hash, banned, bot, created_ms, "
                "updated_ms) VALUES (:id, :name, :name, :token, :banned, false, 1, 1)",
                {"id": pid, "name": f"p{pid}", "token": f"{pid:064x}", "banned": pid == 3},
            )
        for date, pid, state, finished, group in (
            ("2025-11-03", 1, "won", True, 0),  # a year ago: 10 + 4 + 5 for the first place
            ("2025-11-03", 2, "resigned", True, 1),  # 10 + 3 for the second
            ("2025-11-03", 3, "won", True, 0),  # banned: nothing, and no place
            ("2025-11-04", 1, "resigned", True, 1),  # a day with an open attempt: 10, no place
            ("2025-11-04", 2, "playing", False, 0),
        ):
            run_sql(
                url,
                "INSERT INTO daily_attempts (variant, date, player_id, game_id, finished, "
                "state, elapsed_ms, moves, score, rank_group, rank_a, rank_b) VALUES "
                "('freecell', :date, :pid, :game, :finished, :state, 0, 0, 0, :group, 0, 0)",
                {"date": date, "pid": pid, "game": f"g{date}{pid}", "finished": finished,
                 "state": state, "group": group},
            )  # fmt: skip
        await upgrade(engine)
        points = "SELECT player_id, points, dailies, wins FROM season_points WHERE scope = "
        assert run_sql(url, points + "'*' AND period = 'all' ORDER BY player_id") == [
            (1, 29, 2, 1),
            (2, 13, 1, 0),
        ]
        assert run_sql(url, points + "'freecell' AND period = 'w2025-45' ORDER BY 1") == [
            (1, 29, 2, 1),
            (2, 13, 1, 0),
        ]
        counts = "SELECT points, players FROM season_counts WHERE period = 'm2025-11' AND scope"
        assert run_sql(url, counts + " = 'freecell' ORDER BY points") == [(13, 1), (29, 1)]
        assert run_sql(url, "SELECT variant, date FROM season_closed") == [
            ("freecell", "2025-11-03")
        ]
        await downgrade(engine, "0016")
        assert run_sql(url, "SELECT count(*) FROM season_points") == [(12,)]
        await upgrade(engine)
        assert run_sql(url, "SELECT count(*) FROM season_counts WHERE scope = '*'") == [(6,)]
    finally:
        await engine.dispose()


async def test_the_rating_counts_leave_the_banned_out_and_a_ban_moves_them(
    empty_db_url: str,
) -> None:
    """``0021``: the counts per whole point are rebuilt of the listed players' ratings, and a
    ban (or an unban) however made moves the player's ratings out of them (and back); down
    again counts every rated player and a ban moves nothing."""
    url = empty_db_url
    engine = create_engine(url)
    counts = "SELECT variant, floor, players FROM rating_counts WHERE players != 0 ORDER BY 1, 2"
    try:
        await upgrade(engine, "0020")
        for pid, banned in ((1, False), (2, True), (3, False)):
            run_sql(
                url,
                "INSERT INTO players (id, name, name_key, token_hash, banned, created_ms, bot, "
                "updated_ms) VALUES (:p, :n, :n, :n, :b, 1, false, 1)",
                {"p": pid, "n": f"p{pid}", "b": banned},
            )
        for pid, variant, rating in ((1, "gypsy", 1500.5), (2, "gypsy", 1500.2),
                                     (3, "gypsy", 1601.0), (3, "freecell", 1400.9)):  # fmt: skip
            run_sql(
                url,
                "INSERT INTO ratings (player_id, variant, rating, deviation, volatility, games, "
                "updated_ms) VALUES (:p, :v, :r, 60, 0.06, 1, 1)",
                {"p": pid, "v": variant, "r": rating},
            )
        run_sql(  # as the server before counted them: every rated player
            url,
            "INSERT INTO rating_counts (variant, floor, players) VALUES ('gypsy', 1500, 2), "
            "('gypsy', 1601, 1), ('freecell', 1400, 1)",
        )
        await upgrade(engine)
        listed = [("freecell", 1400, 1), ("gypsy", 1500, 1), ("gypsy", 1601, 1)]
        assert run_sql(url, counts) == listed
        run_sql(url, "UPDATE players SET banned = true WHERE id = 3")
        assert run_sql(url, counts) == [("gypsy", 1500, 1)]
        run_sql(url, "UPDATE players SET banned = false WHERE id IN (2, 3)")
        everyone = [("freecell", 1400, 1), ("gypsy", 1500, 2), ("gypsy", 1601, 1)]
        assert run_sql(url, counts) == everyone
        run_sql(url, "UPDATE players SET banned = true WHERE id = 2")
        await downgrade(engine, "0020")
        assert run_sql(url, counts) == everyone
        run_sql(url, "UPDATE players SET banned = false WHERE id = 2")
        assert run_sql(url, counts) == everyone
        await upgrade(engine)
    finally:
        await engine.dispose()
