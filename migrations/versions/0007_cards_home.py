"""cards home: a daily attempt that was not won ranks by its cards home alone

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04 23:10:00

``daily_attempts.foundation`` holds the cards on the foundations when the
attempt ended. The leaderboard's sort key of an attempt that was not won
becomes ``(1, -foundation, 0)``: equal cards home share a place, and the time
no longer orders them (it rewarded resigning sooner).

Existing rows are filled: in every game but Gypsy the score is the cards
home; a Gypsy attempt that was not won is replayed from its stored actions
(its score also counts built pairs). The downgrade puts back the former key,
``(1, -score, elapsed_ms)``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

from shared.errors import InvalidRecord
from shared.games import replay

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_ATTEMPTS = sa.table(
    "daily_attempts",
    sa.column("variant", sa.String()),
    sa.column("date", sa.String()),
    sa.column("player_id", sa.Integer()),
    sa.column("game_id", sa.String()),
    sa.column("finished", sa.Boolean()),
    sa.column("state", sa.String()),
    sa.column("elapsed_ms", sa.BigInteger()),
    sa.column("score", sa.Integer()),
    sa.column("foundation", sa.Integer()),
    sa.column("rank_group", sa.Integer()),
    sa.column("rank_a", sa.BigInteger()),
    sa.column("rank_b", sa.BigInteger()),
)
_GAMES = sa.table(
    "games",
    sa.column("id", sa.String()),
    sa.column("variant", sa.String()),
    sa.column("options", sa.JSON()),
    sa.column("seed", sa.BigInteger()),
    sa.column("deal_key", sa.String()),
    sa.column("state", sa.String()),
)
_MOVES = sa.table(
    "moves", sa.column("game_id", sa.String()), sa.column("ply", sa.Integer()),
    sa.column("action", sa.String()),
)  # fmt: skip


def _cards_home(conn: sa.Connection, game_id: str, score: int) -> int:
    """A Gypsy game's cards home, replayed from its stored actions (its score if it cannot)."""
    game = conn.execute(sa.select(_GAMES).where(_GAMES.c.id == game_id)).first()
    if game is None:
        return 0
    actions = conn.execute(
        sa.select(_MOVES.c.action).where(_MOVES.c.game_id == game_id).order_by(_MOVES.c.ply)
    ).scalars()
    deal: dict[str, Any] = {"seed": game.seed} if game.deal_key is None else {"key": game.deal_key}
    record = {
        "variant": game.variant,
        "options": game.options,
        **deal,
        "actions": list(actions),
        "resigned": game.state == "resigned",
    }
    try:
        return replay(record).foundation_cards
    except (InvalidRecord, ValueError):
        return min(score // 5, 104)  # 5 a card home, before any bonus


def upgrade() -> None:
    with op.batch_alter_table("daily_attempts", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("foundation", sa.Integer(), server_default="0", nullable=False)
        )
    conn = op.get_bind()
    a = _ATTEMPTS.c
    rows = conn.execute(
        sa.select(a.variant, a.date, a.player_id, a.game_id, a.state, a.score).where(
            a.finished.is_(True)
        )
    ).all()
    for variant, date, player_id, game_id, state, score in rows:
        home = score
        if variant == "gypsy" and state != "won":
            home = _cards_home(conn, game_id, score)
        elif variant == "gypsy":
            home = 104
        values: dict[str, Any] = {"foundation": home}
        if state != "won":
            values |= {"rank_a": -home, "rank_b": 0}
        conn.execute(
            _ATTEMPTS.update()
            .where(a.variant == variant, a.date == date, a.player_id == player_id)
            .values(**values)
        )


def downgrade() -> None:
    a = _ATTEMPTS.c
    op.get_bind().execute(
        _ATTEMPTS.update()
        .where(a.finished.is_(True), a.state != "won")
        .values(rank_a=-a.score, rank_b=a.elapsed_ms)
    )
    with op.batch_alter_table("daily_attempts", schema=None) as batch_op:
        batch_op.drop_column("foundation")
