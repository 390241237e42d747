"""The Origin rule: the server's own pages, configured origins, and clients that are no browser."""

from __future__ import annotations

from server.net.origins import OriginPolicy, parse_origins

OWN = OriginPolicy()
PROXIED = OriginPolicy(parse_origins("https://play.example.org, https://Cards.example.org/"))


def test_a_client_without_origin_is_no_browser_and_is_welcome() -> None:
    assert OWN.allows(None, "127.0.0.1:8765")


def test_the_servers_own_pages_are_welcome() -> None:
    assert OWN.allows("http://127.0.0.1:8765", "127.0.0.1:8765")
    assert OWN.allows("http://LOCALHOST:8765", "localhost:8765")
    assert OWN.allows("https://play.example.org", "play.example.org")
    assert OWN.allows("http://[::1]:8765", "[::1]:8765")


def test_another_sites_page_is_refused() -> None:
    assert not OWN.allows("https://evil.example.com", "127.0.0.1:8765")
    assert not OWN.allows("http://127.0.0.1:9999", "127.0.0.1:8765")
    assert not OWN.allows("null", "127.0.0.1:8765")
    assert not OWN.allows("file://", "127.0.0.1:8765")


def test_configured_origins_are_welcome_behind_a_proxy_that_rewrites_host() -> None:
    assert PROXIED.allows("https://play.example.org", "127.0.0.1:8765")
    assert PROXIED.allows("https://cards.example.org", "127.0.0.1:8765")
    assert not PROXIED.allows("http://play.example.org", "127.0.0.1:8765")  # not the scheme given
