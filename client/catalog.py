"""The variants a server deals, as its latest ``welcome`` listed them.

Everything the client shows about a variant (its name, its options, how its
board is drawn, which one a race starts on) comes from the server's
VariantInfo, never from a table of the client's own keyed by variant id: a
server that deals a game this client has never heard of is played alike.
The screens and the app read it through :class:`Catalog`, made over the
connection's welcome, so a reconnection to a newer server is seen at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from shared.protocol import ServerInfo, VariantInfo


class Catalog:
    """The server's variants, read from ``server()`` each time (None before a welcome)."""

    def __init__(self, server: Callable[[], ServerInfo | None]) -> None:
        self._server = server

    @property
    def server(self) -> ServerInfo | None:
        return self._server()

    @property
    def ids(self) -> list[str]:
        """The variants' ids, in the order the server lists them (the order players see)."""
        server = self._server()
        return [] if server is None else [v.id for v in server.variants]

    def info(self, variant: str) -> VariantInfo | None:
        """The server's VariantInfo of ``variant`` (None when it lists none)."""
        server = self._server()
        return None if server is None else server.variant(variant)

    def name(self, variant: str) -> str:
        """The variant's name as the server's VariantInfo gives it, else its id."""
        info = self.info(variant)
        return variant if info is None else info.name

    def options(self, variant: str) -> Mapping[str, bool | int]:
        """The variant's options and their defaults, as the server's VariantInfo lists them."""
        info = self.info(variant)
        return {} if info is None else info.options

    def race_default(self) -> str | None:
        """The variant a race starts on unless the player picks another: the one the server
        marks ``race_default``, else its first (None when it lists none)."""
        server = self._server()
        if server is None or not server.variants:
            return None
        marked = [v.id for v in server.variants if v.race_default]
        return marked[0] if marked else server.variants[0].id


__all__ = ["Catalog"]
