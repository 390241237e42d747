"""Pure, I/O-free code shared by the server and the clients.

Nothing in this package touches the network, the disk, a clock or a global
random generator: a game is a pure function of (variant, options, seed, moves).
"""

# Before any other module of the package: which build (compiled or pure) this process runs.
from shared import build as build
