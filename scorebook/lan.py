"""Where the phones at the table find this computer: its address on the local network.

:func:`lan_address` asks the operating system which address it would send from to
reach the wider network (a UDP socket's ``connect`` only picks a route: it sends
nothing), and falls back to the addresses the host name resolves to.  Loopback and
link-local addresses never count: no phone can open them.
"""

from __future__ import annotations

import ipaddress
import socket

#: A documentation address (TEST-NET-3, RFC 5737): ``connect`` on a UDP socket picks
#: the route towards it without sending a packet, so nothing ever reaches it.
_ROUTE_PROBE = ("203.0.113.1", 9)

#: The hosts that mean "every interface" to a server.
ALL_INTERFACES = frozenset({"0.0.0.0", "::", "[::]", ""})


def usable(address: str) -> bool:
    """True for an IPv4 address another device on the network could open."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return (ip.version == 4 and not ip.is_loopback and not ip.is_link_local
            and not ip.is_unspecified and not ip.is_multicast)


def _routed_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            address = str(probe.getsockname()[0])
    except OSError:  # no network at all
        return None
    return address if usable(address) else None


def _resolved_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in infos if usable(str(info[4][0]))]


def lan_address() -> str | None:
    """This computer's address on the local network, or None if it has none."""
    routed = _routed_address()
    if routed:
        return routed
    found = _resolved_addresses()
    # A home network's address first (what a phone on the same Wi-Fi has).
    found.sort(key=lambda a: not ipaddress.ip_address(a).is_private)
    return found[0] if found else None


def is_loopback_host(host: str) -> bool:
    """True if ``host`` (a name or address, without the port) names this computer only."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def site_url(scheme: str, host: str, port: int) -> str:
    """``http://192.168.1.23:5000``: the port left out where it is the scheme's own."""
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" if port == default else f"{scheme}://{host}:{port}"
