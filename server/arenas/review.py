"""A held arena win decided by an operator: a cleared one is scored then, a confirmed one
stays out.

Settlement stores a win review holds as ``held``: it counts as not won (0
points, the streak broken). When an operator clears it (``patience-club
admin clear ID``, docs/fair-play.md), :func:`review_decided` runs in the
decision's own transaction: the deal counts as won, and the player's deals
are scored again in order by the arena's rule (a cleared win can put the
next wins on a streak), with their totals, so that the table's points stay
the sum of its games' points. The running server reads the decided reviews
every second (server/players/changes.py) and puts the player's new line in
the standings (:meth:`ArenaSettlement.refresh
<server.arenas.settlement.ArenaSettlement.refresh>`), on every node; an
arena already over has its final table changed the same way.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncSession

from server.arenas.scoring import DealPlayed, on_fire, score_deals
from server.storage.queries import arena_review as store
from shared.states import WON


async def review_decided(db: AsyncSession, *, game_id: str, cleared: bool) -> bool:
    """Score again the player of a decided arena deal, if it was a held win now cleared:
    whether anything changed. Call inside the decision's transaction."""
    row = await store.arena_game(db, game_id=game_id)
    if row is None or not row.held or not cleared:
        return False  # not an arena deal, not held, or confirmed: it stays out
    rows = await store.player_games(db, code=row.arena, player_id=row.player_id)
    pars = await store.pars(db, code=row.arena)
    finished = [r for r in rows if r.state is not None]
    for r in finished:
        if r.game_id == game_id:
            r.held = False
    played = [
        DealPlayed(won=r.state == WON and not r.held, time_ms=r.time_ms, par_ms=pars[r.seq],
                   berserk=r.berserk)
        for r in finished
    ]  # fmt: skip
    for r, scored in zip(finished, score_deals(played), strict=True):
        r.points, r.on_streak = scored.points, scored.on_streak
    await store.set_totals(
        db,
        code=row.arena,
        player_id=row.player_id,
        points=sum(r.points for r in finished),
        played=len(finished),
        wins=sum(1 for d in played if d.won),
        fire=on_fire(played),
    )
    return True
