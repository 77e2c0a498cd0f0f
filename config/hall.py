"""The hall: the address phones use, and the secret key kept beside the database.

The address is read from the laptop's own network interfaces, never found by sending
anything: ifaddr (MIT, pure Python over ``getifaddrs`` on Linux and macOS and
``GetAdaptersAddresses`` on Windows) lists each interface's addresses. Of those, the
hall's is a private LAN address (RFC 1918) of a real interface; loopback, link-local and
the bridges and tunnels of containers, virtual machines, WSL and VPNs (``docker0``,
``vEthernet (WSL)``, "VirtualBox Host-Only", "VMware Network Adapter") are never the
hall's. With no network at all the office falls back to loopback and says so: phones
cannot reach it.

The secret key is generated once, on the first start, into a file beside the SQLite
database (mode 0600, ignored by git) and read by every later start and every worker.
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple
from urllib.parse import urlsplit

import ifaddr

from core.addresses import is_loopback
from core.files import write_atomic

LOOPBACK = "127.0.0.1"
#: Interface name prefixes (Linux, BSD, macOS; case as the system spells them) that are
#: never the hall's network: loopback, containers, virtual machines' bridges, VPN
#: tunnels, Linux's traffic-shaping and dummy devices.
VIRTUAL = (
    "lo",
    "docker",
    "br-",
    "veth",
    "virbr",
    "vmnet",
    "vboxnet",
    "lxc",
    "lxd",
    "cni",
    "flannel",
    "podman",
    "tun",
    "tap",
    "wg",
    "tailscale",
    "zt",
    "utun",
    "ifb",
    "dummy",
)
#: Words in an adapter's name or description (Windows: "vEthernet (WSL)",
#: "Hyper-V Virtual Ethernet Adapter", "VirtualBox Host-Only Ethernet Adapter",
#: "VMware Virtual Ethernet Adapter for VMnet8", "TAP-Windows Adapter V9"), any case.
VIRTUAL_WORDS = (
    "vethernet",
    "hyper-v",
    "wsl",
    "virtualbox",
    "vmware",
    "docker",
    "loopback",
    "tap-windows",
    "wireguard",
    "tailscale",
    "zerotier",
    "openvpn",
    "npcap",
)
#: The private LAN ranges (RFC 1918) a hall's Wi-Fi router hands out.
LAN = tuple(ipaddress.ip_network(n) for n in ("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12"))


class Interface(NamedTuple):
    """One IPv4 address of one interface: its name (Windows: the name the user sees,
    "Wi-Fi", "vEthernet (WSL)"), the address, and the adapter's description if any."""

    name: str
    address: str
    description: str = ""


def is_virtual(name: str, description: str = "") -> bool:
    """The interface belongs to a container, a virtual machine, WSL, a VPN or loopback."""
    words = f"{name} {description}".lower()
    return name.startswith(VIRTUAL) or any(word in words for word in VIRTUAL_WORDS)


@dataclass(frozen=True, slots=True)
class HallAddress:
    host: str
    interface: str

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)


def url_host(url: str) -> str:
    """The host of ``url`` as ALLOWED_HOSTS spells it (an IPv6 address in brackets)."""
    host = urlsplit(url).hostname or "" if url else ""
    return f"[{host}]" if ":" in host else host


def interfaces(adapters: Iterable[ifaddr.Adapter] | None = None) -> list[Interface]:
    """Every IPv4 address of every interface, in the system's order (ifaddr; on Windows
    the user's name for the adapter, e.g. "Wi-Fi", with its description beside)."""
    if adapters is None:
        try:
            adapters = ifaddr.get_adapters()
        except OSError:  # the system would not list its interfaces: no hall address to find
            return []
    found = []
    for adapter in adapters:
        for ip in adapter.ips:
            if ip.is_IPv4:  # IPv6 is a (address, flowinfo, scope) tuple: phones get IPv4
                description = adapter.nice_name if adapter.nice_name != ip.nice_name else ""
                found.append(Interface(ip.nice_name or adapter.name, str(ip.ip), description))
    return found


def choose(found: Iterable[Sequence[str]]) -> HallAddress:
    """The address phones reach the office at: a private LAN address first, then any
    other address of a real interface, in the interfaces' order; loopback when none.

    ``found``: (name, address) or (name, address, description) as ``interfaces()`` lists them.
    """
    candidates = []
    for position, (name, address, *description) in enumerate(found):
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            continue
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
            continue
        if is_virtual(name, *description):
            continue
        lan = any(ip in network for network in LAN)
        candidates.append((0 if lan else 1, position, name, address))
    if not candidates:
        return HallAddress(LOOPBACK, "lo")
    _rank, _position, name, address = min(candidates)
    return HallAddress(address, name)


def detect() -> HallAddress:
    return choose(interfaces())


def office_url(host: str, port: int) -> str:
    """``http://host:port``: a hall network has no certificates, so plain HTTP."""
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def key_file_beside(database: dict, base_dir: Path) -> Path:
    """Where the generated secret key is kept: beside the SQLite file, or in the project."""
    name = str(database.get("NAME") or "")
    if database.get("ENGINE", "").endswith("sqlite3") and name and name != ":memory:":
        path = Path(name)
        return path.with_name(path.name + ".secret-key")
    return base_dir / "office.secret-key"


def read_secret_key(path: Path) -> str:
    """The key in ``path``; "" when there is none, or when the file is empty or damaged
    (not text, or control characters such as the zeros a power cut can leave)."""
    try:
        data = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        return ""
    try:
        key = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        return ""
    return key if key.isprintable() else ""


#: The key files this process found empty or damaged and filled with a new key: ``serve``
#: says so in one line (printed PINs and player links changed), never silently.
replaced: list[Path] = []


def ensure_secret_key(path: Path, *, replace: bool = True) -> str:
    """The key in ``path``, generated and written there (mode 0600, durably:
    core.files.write_atomic) the first time.

    A key readable by others is made private again. An empty or damaged file gets a new
    key, and ``path`` is noted in :data:`replaced`; with ``replace`` False (the settings,
    before ``serve`` holds the data folder's lock) it is left as it is and a key for this
    process only is returned: a second office, refused by the lock, never replaces the
    key of the one that serves.
    """
    key = read_secret_key(path)
    if key:
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
        return key
    if path.exists():
        if not replace:
            return secrets.token_urlsafe(50)
        if path not in replaced:
            replaced.append(path)
    key = secrets.token_urlsafe(50)
    write_atomic(path, key + "\n", private=True)
    return key


def replaced_key_message(path: Path) -> str:
    """The one line ``serve`` says when the key file was empty or damaged and a new key was made."""
    from django.utils.translation import gettext as _

    return _(
        "The secret key file %(path)s was empty or damaged: a new key was made, so the printed PINs and "
        "player links have changed (print them again). Restoring a backup brings the old key back."
    ) % {"path": path}


def port_from(environ: dict[str, str] | Mapping[str, str]) -> int:
    """The port the office serves on: ``PORT``, a whole number from 1 to 65535 (8000 unset).

    Read when the settings load, before any command: a port that is none ("abc", "²")
    stops the start in one line naming the variable, not with int()'s traceback."""
    from django.core.exceptions import ImproperlyConfigured

    value = (environ.get("PORT") or "").strip() or "8000"
    if not (value.isascii() and value.isdigit() and len(value) <= 5 and 1 <= int(value) <= 65535):
        raise ImproperlyConfigured(f"PORT must be a port number from 1 to 65535, not {value[:20]!r}.")
    return int(value)
