"""The hall: the address phones use, and the secret key kept beside the database.

The address is read from the laptop's own network interfaces, never found by sending
anything: the kernel lists each interface's IPv4 address (``SIOCGIFADDR``), or, where
that call does not exist (macOS), ``ifconfig`` prints them. Of those, the hall's is a
private LAN address (RFC 1918) of a real interface; loopback, link-local and the
bridges and tunnels of containers, virtual machines and VPNs are never the hall's. With
no network at all the office falls back to loopback and says so: phones cannot reach it.

The secret key is generated once, on the first start, into a file beside the SQLite
database (mode 0600, ignored by git) and read by every later start and every worker.
"""

from __future__ import annotations

import ipaddress
import os
import re
import secrets
import shutil
import socket
import struct
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from core.addresses import is_loopback

LOOPBACK = "127.0.0.1"
#: ioctl number of "the interface's IPv4 address" on Linux.
SIOCGIFADDR = 0x8915
#: Interface name prefixes that are never the hall's network: loopback, containers,
#: virtual machines' bridges, VPN tunnels, Linux's traffic-shaping and dummy devices.
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
#: The private LAN ranges (RFC 1918) a hall's Wi-Fi router hands out.
LAN = tuple(ipaddress.ip_network(n) for n in ("192.168.0.0/16", "10.0.0.0/8", "172.16.0.0/12"))


@dataclass(frozen=True, slots=True)
class HallAddress:
    host: str
    interface: str

    @property
    def loopback(self) -> bool:
        return is_loopback(self.host)


def host_of(url: str) -> str:
    """The host of ``url`` as ALLOWED_HOSTS spells it (an IPv6 address in brackets)."""
    host = urlsplit(url).hostname or "" if url else ""
    return f"[{host}]" if ":" in host else host


def _ioctl_interfaces() -> list[tuple[str, str]]:
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return []
    found = []
    try:
        names = [name for _index, name in socket.if_nameindex()]
    except OSError:
        return []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as handle:  # a handle for the ioctl; nothing is sent
        for name in names:
            try:
                answer = fcntl.ioctl(handle.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:
                continue  # no IPv4 address, or not Linux
            found.append((name, socket.inet_ntoa(answer[20:24])))
    return found


def parse_ifconfig(text: str) -> list[tuple[str, str]]:
    """(interface, IPv4 address) pairs of ``ifconfig``'s output (BSD and macOS style)."""
    found, name = [], ""
    for line in text.splitlines():
        header = re.match(r"^([^\s:]+):? ", line)
        if header:
            name = header.group(1)
        address = re.match(r"^\s+inet (?:addr:)?(\d+\.\d+\.\d+\.\d+)", line)
        if address and name:
            found.append((name, address.group(1)))
    return found


def interfaces() -> list[tuple[str, str]]:
    """(interface, IPv4 address) of every interface that has one, in the system's order."""
    found = _ioctl_interfaces()
    ifconfig = shutil.which("ifconfig")
    if not found and ifconfig:
        output = subprocess.run([ifconfig], capture_output=True, text=True, timeout=5, check=False).stdout
        found = parse_ifconfig(output)
    return found


def choose(found: Iterable[tuple[str, str]]) -> HallAddress:
    """The address phones reach the office at: a private LAN address first, then any
    other address of a real interface, in the interfaces' order; loopback when none."""
    candidates = []
    for position, (name, address) in enumerate(found):
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            continue
        if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast or name.startswith(VIRTUAL):
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
    try:
        return path.read_text(encoding="utf-8").strip()
    except (FileNotFoundError, NotADirectoryError):
        return ""


def ensure_secret_key(path: Path) -> str:
    """The key in ``path``, generated and written there (mode 0600) the first time.

    A key readable by others is made private again; an empty file gets a new key.
    """
    key = read_secret_key(path)
    if key:
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
        return key
    key = secrets.token_urlsafe(50)
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(key + "\n")
    os.replace(temporary, path)
    return key
