"""Which address a connection counts against: the limits' key for a client.

Per-address limits (connections at once, registrations per hour) are only
as good as the address they count. Two things make the peer's address the
wrong key:

- *IPv6.* A host is usually given a whole /64, so counting exact IPv6
  addresses lets one host open 2**64 "addresses". IPv6 peers are counted by
  their network of ``ipv6_prefix`` bits (64 by default); IPv4 peers (and
  IPv4-mapped IPv6 peers) by their exact address.
- *A reverse proxy.* Behind one, every peer is the proxy. When the peer is
  one of ``trusted_proxies``, the client is read from ``proxy_header``
  (``X-Forwarded-For``): the rightmost address in it that is not itself a
  trusted proxy, since every proxy appends what it saw and only the ones we
  trust cannot lie. A header from anyone else is ignored: a client could
  write any address there.

Pure: the peer and the headers in, the key out (docs/operating.md,
"Behind a reverse proxy").
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from dataclasses import dataclass

IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

#: the key of a peer whose address is unknown (a Unix socket): all such share one count
UNKNOWN = "?"


class AddressSettingError(ValueError):
    """A ``trusted_proxies`` entry or ``ipv6_prefix`` that cannot be used (the operator's)."""


def parse_networks(text: str) -> tuple[IPNetwork, ...]:
    """The networks of a comma-separated setting (``10.0.0.1, 192.168.0.0/16, ::1``)."""
    networks: list[IPNetwork] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            continue
        try:
            networks.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise AddressSettingError(
                f"{part!r} is not an address or a network (such as 10.0.0.1 or 10.0.0.0/8)"
            ) from None
    return tuple(networks)


def _address(text: str) -> IPAddress | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


@dataclass(frozen=True, slots=True)
class ClientAddresses:
    """How this server turns a peer (and its headers) into the key its limits count."""

    ipv6_prefix: int = 64
    trusted_proxies: tuple[IPNetwork, ...] = ()
    proxy_header: str = "X-Forwarded-For"

    def __post_init__(self) -> None:
        if not 1 <= self.ipv6_prefix <= 128:
            raise AddressSettingError(
                f"ipv6_prefix must be from 1 to 128 bits, not {self.ipv6_prefix}"
            )

    def _trusted(self, address: IPAddress) -> bool:
        return any(address in network for network in self.trusted_proxies)

    def client(self, peer: str | None, forwarded: Iterable[str] = ()) -> IPAddress | None:
        """The client's address: the peer, or what a trusted proxy says it forwarded."""
        address = _address(peer) if peer else None
        if address is None or not self._trusted(address):
            return address
        hops = [hop for value in forwarded for hop in value.split(",")]
        for hop in reversed(hops):
            said = _address(hop)
            if said is None:
                return address  # a hop we cannot read: count the last proxy we trust
            if not self._trusted(said):
                return said
            address = said
        return address

    def key(self, peer: str | None, forwarded: Iterable[str] = ()) -> str:
        """The key the per-address limits count this client under (at most 43 characters)."""
        address = self.client(peer, forwarded)
        if address is None:
            return UNKNOWN
        if isinstance(address, ipaddress.IPv6Address):
            network = ipaddress.IPv6Network((address, self.ipv6_prefix), strict=False)
            return str(network) if self.ipv6_prefix < 128 else str(address)
        return str(address)
