"""The states of a game, named once for the engine, the protocol and the server.

The engine reaches four of them (playing, won, stuck, resigned); a race game
whose time limit passed is ended by the server as ``timeout``, which the
engine never reaches but the protocol shows like the others. A stuck game is
not over: an undo takes it back to playing (docs/rules.md, "Stuck").
"""

from __future__ import annotations

PLAYING = "playing"
WON = "won"
STUCK = "stuck"
RESIGNED = "resigned"
#: the state the server gives a race game past the race's time limit (the engine knows none)
TIMEOUT = "timeout"

#: every state a GameView may show
GAME_STATES = (PLAYING, WON, STUCK, RESIGNED, TIMEOUT)
#: states after which a game takes no action at all
ENDED = frozenset({WON, RESIGNED, TIMEOUT})
