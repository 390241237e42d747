"""The key per-address limits count: IPv6 by network, a trusted proxy's word only."""

from __future__ import annotations

import pytest

from server.net.addresses import AddressSettingError, ClientAddresses, parse_networks

PLAIN = ClientAddresses()
BEHIND_PROXY = ClientAddresses(trusted_proxies=parse_networks("10.0.0.1, 10.1.0.0/16"))


def test_ipv4_peers_count_by_their_exact_address() -> None:
    assert PLAIN.key("127.0.0.2") == "127.0.0.2"
    assert PLAIN.key("127.0.0.3") != PLAIN.key("127.0.0.2")


def test_ipv6_peers_of_one_slash_64_share_one_key() -> None:
    one = PLAIN.key("2001:db8:1:2::1")
    assert one == PLAIN.key("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64"
    assert PLAIN.key("2001:db8:1:3::1") != one


def test_the_ipv6_prefix_is_a_setting() -> None:
    by_48 = ClientAddresses(ipv6_prefix=48)
    assert by_48.key("2001:db8:1:2::1") == by_48.key("2001:db8:1:3::1") == "2001:db8:1::/48"
    assert ClientAddresses(ipv6_prefix=128).key("2001:db8::1") == "2001:db8::1"
    with pytest.raises(AddressSettingError, match="ipv6_prefix"):
        ClientAddresses(ipv6_prefix=0)


def test_an_ipv4_mapped_ipv6_peer_counts_as_its_ipv4_address() -> None:
    assert PLAIN.key("::ffff:192.0.2.7") == "192.0.2.7"


def test_a_forwarded_header_is_ignored_unless_the_peer_is_a_trusted_proxy() -> None:
    assert PLAIN.key("203.0.113.9", ["198.51.100.1"]) == "203.0.113.9"
    assert BEHIND_PROXY.key("203.0.113.9", ["198.51.100.1"]) == "203.0.113.9"


def test_behind_a_trusted_proxy_the_client_is_the_rightmost_untrusted_hop() -> None:
    # the client wrote a lie in front; our proxies appended what they saw
    assert BEHIND_PROXY.key("10.0.0.1", ["1.2.3.4, 198.51.100.1, 10.1.2.3"]) == "198.51.100.1"
    assert BEHIND_PROXY.key("10.0.0.1", ["198.51.100.1:5555"]) == "198.51.100.1"
    assert BEHIND_PROXY.key("10.0.0.1", ["2001:db8:5:6::9"]) == "2001:db8:5:6::/64"


def test_a_trusted_proxy_without_a_readable_header_counts_as_itself() -> None:
    assert BEHIND_PROXY.key("10.0.0.1") == "10.0.0.1"
    assert BEHIND_PROXY.key("10.0.0.1", ["unknown"]) == "10.0.0.1"


def test_an_unreadable_setting_says_which_entry() -> None:
    with pytest.raises(AddressSettingError, match=r"'10\.0\.0\.300'"):
        parse_networks("10.0.0.1, 10.0.0.300")
