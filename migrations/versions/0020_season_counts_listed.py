"""season counts: players per points count only listed players, a ban moves them out

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-05 05:00:00

``season_counts`` counted every player with points, banned or not, and a
true rank subtracted the banned players above: a key read per player ever
banned, in every request. From here it counts the players a board lists:
``season_points`` rows of banned players are left out, and a trigger on
``players`` moves a player's rows out of the counts when ``banned`` turns
true and back when it turns false, whatever changes it (the ban command,
SQL by hand), in the same transaction; the server's own changes of points
leave a banned player's rows out of the counts (server/storage/queries/
seasons.py). The counts are rebuilt here from the points.

Downgrade drops the trigger and rebuilds the counts of every player.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: the player's rows of every board, as one signed change each (in key order: the order the
#: server changes count rows in, so that a ban and a change of points lock them alike)
_MOVES = (
    "INSERT INTO season_counts (scope, period, points, players) "
    "SELECT scope, period, points, CASE WHEN NEW.banned THEN -1 ELSE 1 END "
    "FROM season_points WHERE player_id = NEW.id ORDER BY scope, period, points "
    "ON CONFLICT (scope, period, points) DO UPDATE SET players = season_counts.players "
    "+ excluded.players"
)

_PG_FUNCTION = f"""
CREATE FUNCTION season_counts_ban() RETURNS trigger AS $$
BEGIN
    IF NEW.banned IS DISTINCT FROM OLD.banned THEN
        {_MOVES};
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql
"""
_PG_TRIGGER = (
    "CREATE TRIGGER tr_players_ban_season_counts AFTER UPDATE OF banned ON players "
    "FOR EACH ROW EXECUTE FUNCTION season_counts_ban()"
)
# (SQLite: an INSERT ... SELECT with an upsert needs a WHERE clause to parse: it has one)
_SQLITE_TRIGGER = f"""
CREATE TRIGGER tr_players_ban_season_counts AFTER UPDATE OF banned ON players
FOR EACH ROW WHEN NEW.banned != OLD.banned
BEGIN
    {_MOVES};
END
"""


def _rebuild(listed_only: bool) -> None:
    op.execute("DELETE FROM season_counts")
    op.execute(
        "INSERT INTO season_counts (scope, period, points, players) "
        "SELECT s.scope, s.period, s.points, count(*) FROM season_points s "
        "JOIN players p ON p.id = s.player_id "
        + ("WHERE p.banned = false " if listed_only else "")
        + "GROUP BY s.scope, s.period, s.points"
    )


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_PG_FUNCTION)
        op.execute(_PG_TRIGGER)
    else:
        op.execute(_SQLITE_TRIGGER)
    _rebuild(listed_only=True)


def downgrade() -> None:
    op.execute(
        "DROP TRIGGER tr_players_ban_season_counts"
        + (" ON players" if op.get_bind().dialect.name == "postgresql" else "")
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION season_counts_ban()")
    _rebuild(listed_only=False)
