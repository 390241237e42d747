"""Several server nodes on one database, joined by Redis: node names, room leases, fan-out.

The database holds everything that matters (games, moves, rooms, players);
Redis carries only what is lost without harm: which node is alive
(:mod:`~server.cluster.nodes`), which node owns a room's clock
(:mod:`~server.cluster.leases`), and messages between nodes
(:mod:`~server.cluster.link`): room pushes for the members connected
elsewhere, requests on a room forwarded to its owner
(:mod:`~server.cluster.calls`), who is connected where
(:mod:`~server.cluster.roster`). :class:`~server.cluster.node.Cluster` puts
them together for the app; without a ``redis`` setting it is one node alone
and every question it answers is local. The design is told whole in
docs/architecture.md, "Several nodes".
"""
