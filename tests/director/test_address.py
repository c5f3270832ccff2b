"""The address phones reach: candidates found without sending anything, best first."""

from __future__ import annotations

import pytest

from director.core.address import (
    base_url,
    best_address,
    candidate_addresses,
    is_valid_address,
    order_candidates,
    port_of,
)


def test_home_network_addresses_come_first_and_loopback_last() -> None:
    found = candidate_addresses(
        route=lambda probe: {"10.255.255.254": None, "192.168.255.254": "192.168.1.20"}.get(probe),
        host=lambda: ["127.0.1.1", "10.8.0.3", "192.168.1.20", "169.254.9.9"],
    )
    assert found == ["192.168.1.20", "10.8.0.3", "169.254.9.9", "127.0.0.1"]
    assert best_address(found) == "192.168.1.20"


def test_a_machine_with_no_network_still_has_an_address() -> None:
    assert candidate_addresses(route=lambda _probe: None, host=lambda: []) == ["127.0.0.1"]


def test_the_real_machine_lists_loopback_last() -> None:
    found = candidate_addresses()
    assert found[-1] == "127.0.0.1" and len(found) == len(set(found))


def test_order_ignores_junk_and_duplicates() -> None:
    assert order_candidates(["x", "::1", "192.168.0.2", "192.168.0.2"]) == ["192.168.0.2", "127.0.0.1"]


@pytest.mark.parametrize(
    ("address", "port", "scheme", "url"),
    [
        ("192.168.1.20", 5000, "http", "http://192.168.1.20:5000"),
        ("192.168.1.20", 80, "http", "http://192.168.1.20"),
        ("poker.lan", 443, "https", "https://poker.lan"),
        ("fe80::1", 8000, "http", "http://[fe80::1]:8000"),
        ("10.0.0.2", None, "http", "http://10.0.0.2"),
    ],
)
def test_base_url(address: str, port: int | None, scheme: str, url: str) -> None:
    assert base_url(address, port, scheme) == url


@pytest.mark.parametrize(
    ("host", "port"), [("localhost:5000", 5000), ("example.lan", 80), ("[::1]:8000", 8000), ("x:notaport", 80)]
)
def test_port_of_the_host_header(host: str, port: int) -> None:
    assert port_of(host) == port


@pytest.mark.parametrize(
    ("text", "ok"),
    [("192.168.1.20", True), ("poker.lan", True), ("fe80::1", True), ("http://x/", False), ("", False),
     ("a b", False), ("-bad.lan", False), ("x" * 64 + ".lan", False)],
)
def test_only_plain_addresses_are_accepted(text: str, ok: bool) -> None:
    assert is_valid_address(text) is ok
