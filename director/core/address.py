"""The address that phones on the home network can reach: what goes into the QR codes.

``localhost`` is no use on a seat card, so the app looks for the laptop's address on
the home network. Nothing is sent anywhere: ``connect`` on a UDP socket only asks the
operating system which interface it *would* use, and no packet leaves the machine.
A laptop with several networks (Wi-Fi and a cable, a VPN) has several candidates; the
director picks one on the dashboard, and that choice is kept as a setting.
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

# Addresses in the private ranges: only used to ask the routing table which interface
# faces the home network. ``connect`` on a UDP socket sends nothing.
_PROBES = ("10.255.255.254", "192.168.255.254", "172.31.255.254")


def _route_address(probe: str) -> str | None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect((probe, 9))
            address: str = sock.getsockname()[0]
        except OSError:
            return None
    return address


def _host_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos]


def rank(address: str) -> int:
    """Lower is better: home-network (private) addresses first, loopback last.

    >>> sorted(["127.0.0.1", "8.8.4.4", "192.168.1.20", "169.254.3.4"], key=rank)
    ['192.168.1.20', '8.8.4.4', '169.254.3.4', '127.0.0.1']
    """
    ip = ipaddress.ip_address(address)
    if ip.is_loopback:
        return 3
    if ip.is_link_local:
        return 2
    if ip.is_private:
        return 0
    return 1


def order_candidates(found: Iterable[str]) -> list[str]:
    """Unique IPv4 addresses, best first; loopback is kept (last) so the list is never empty.

    >>> order_candidates(["127.0.1.1", "192.168.1.20", "10.0.0.7", "192.168.1.20", "junk"])
    ['192.168.1.20', '10.0.0.7', '127.0.0.1']
    """
    seen: list[str] = []
    for address in found:
        try:
            ip = ipaddress.IPv4Address(address)
        except ValueError:
            continue
        text = "127.0.0.1" if ip.is_loopback else str(ip)
        if text not in seen:
            seen.append(text)
    if "127.0.0.1" not in seen:
        seen.append("127.0.0.1")
    return sorted(seen, key=rank)  # sorted() is stable: discovery order breaks ties


def candidate_addresses(
    route: Callable[[str], str | None] = _route_address,
    host: Callable[[], list[str]] = _host_addresses,
) -> list[str]:
    """This machine's IPv4 addresses that a phone might reach, best first."""
    found = [address for address in map(route, _PROBES) if address]
    found.extend(host())
    return order_candidates(found)


def best_address(candidates: list[str] | None = None) -> str:
    """The address to use when the director has chosen none: the first candidate."""
    return (candidates if candidates is not None else candidate_addresses())[0]


def base_url(address: str, port: int | None, scheme: str = "http") -> str:
    """The start of every link in a QR code.

    >>> base_url("192.168.1.20", 5000)
    'http://192.168.1.20:5000'
    >>> base_url("192.168.1.20", 80)
    'http://192.168.1.20'
    >>> base_url("fe80::1", 8080)
    'http://[fe80::1]:8080'
    """
    host = f"[{address}]" if ":" in address else address
    default = {"http": 80, "https": 443}.get(scheme)
    if port is None or port == default:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def port_of(host_header: str, scheme: str = "http") -> int:
    """The port in a ``Host`` header (``localhost:5000`` → 5000), or the scheme's default.

    >>> port_of("localhost:5000"), port_of("example.lan"), port_of("[::1]:8000")
    (5000, 80, 8000)
    """
    parts = urlsplit(f"{scheme}://{host_header}")
    try:
        port = parts.port
    except ValueError:
        port = None
    return port if port is not None else (443 if scheme == "https" else 80)


def is_valid_address(address: str) -> bool:
    """A director's typed address must be a plain IP address or host name, no scheme or path.

    >>> is_valid_address("192.168.1.20"), is_valid_address("poker.lan"), is_valid_address("http://x/")
    (True, True, False)
    """
    try:
        ipaddress.ip_address(address)
        return True
    except ValueError:
        pass
    labels = address.split(".")
    return 0 < len(address) <= 253 and all(
        0 < len(label) <= 63 and label.replace("-", "").isalnum() and not label.startswith("-")
        for label in labels
    )
