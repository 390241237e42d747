"""rating counts: players per whole point count only listed players, a ban moves them out

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-05 08:00:00

``rating_counts`` counted every rated player, banned or not, and the rating
board's true rank subtracted the banned players above the asker: a key read
per player ever banned, in every request (100 ms a request at 100,000
players with one in a hundred banned, on PostgreSQL). From here it counts
the players the board lists: a banned player's ratings are left out, and a
trigger on ``players`` moves a player's ratings out of the counts when
``banned`` turns true and back when it turns false, whatever changes it (the
ban command, SQL by hand), in the same transaction; the server's own rating
changes leave a banned player out of the counts (server/storage/queries/
ratings.py). The counts are rebuilt here from the ratings.

Downgrade drops the trigger and rebuilds the counts of every rated player.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: a rating's whole point, as the server counts it (math.floor): SQLite has no floor()
_PG_FLOOR = "CAST(floor(rating) AS INTEGER)"
_SQLITE_FLOOR = "(CAST(rating AS INTEGER) - (rating < CAST(rating AS INTEGER)))"


def _moves(floor: str) -> str:
    """The player's ratings, one signed change of its point each (in key order: the order the
    server changes count rows in, so that a ban and a rating change lock them alike)."""
    return (
        "INSERT INTO rating_counts (variant, floor, players) "
        f"SELECT variant, {floor}, CASE WHEN NEW.banned THEN -1 ELSE 1 END "
        f"FROM ratings WHERE player_id = NEW.id ORDER BY variant, {floor} "
        "ON CONFLICT (variant, floor) DO UPDATE SET players = rating_counts.players "
        "+ excluded.players"
    )


_PG_FUNCTION = f"""
CREATE FUNCTION rating_counts_ban() RETURNS trigger AS $$
BEGIN
    IF NEW.banned IS DISTINCT FROM OLD.banned THEN
        {_moves(_PG_FLOOR)};
    END IF;
    RETURN NEW;
END
$$ LANGUAGE plpgsql
"""
_PG_TRIGGER = (
    "CREATE TRIGGER tr_players_ban_rating_counts AFTER UPDATE OF banned ON players "
    "FOR EACH ROW EXECUTE FUNCTION rating_counts_ban()"
)
# (SQLite: an INSERT ... SELECT with an upsert needs a WHERE clause to parse: it has one)
_SQLITE_TRIGGER = f"""
CREATE TRIGGER tr_players_ban_rating_counts AFTER UPDATE OF banned ON players
FOR EACH ROW WHEN NEW.banned != OLD.banned
BEGIN
    {_moves(_SQLITE_FLOOR)};
END
"""


def _rebuild(listed_only: bool) -> None:
    floor = _PG_FLOOR if op.get_bind().dialect.name == "postgresql" else _SQLITE_FLOOR
    op.execute("DELETE FROM rating_counts")
    op.execute(
        f"INSERT INTO rating_counts (variant, floor, players) SELECT variant, {floor}, count(*) "
        "FROM ratings JOIN players p ON p.id = ratings.player_id "
        + ("WHERE p.banned = false " if listed_only else "")
        + f"GROUP BY variant, {floor}"
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
        "DROP TRIGGER tr_players_ban_rating_counts"
        + (" ON players" if op.get_bind().dialect.name == "postgresql" else "")
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION rating_counts_ban()")
    _rebuild(listed_only=False)
