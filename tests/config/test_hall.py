"""config.hall: the hall address from the interfaces (fed fake lists here: nothing is
read from this machine's network, nothing is sent) and the secret key file."""

from __future__ import annotations

import stat
import subprocess
from pathlib import Path

import ifaddr
import pytest

from config import hall
from tests import durable


@pytest.fixture(autouse=True)
def _no_key_replaced_yet(monkeypatch):
    """The key files replaced, noted for serve to say, are this test's only."""
    monkeypatch.setattr(hall, "replaced", [])


def test_a_private_lan_address_is_preferred_to_any_other():
    found = [("lo", "127.0.0.1"), ("eth0", "203.0.113.7"), ("wlan0", "192.168.178.23")]
    assert hall.choose(found) == hall.HallAddress("192.168.178.23", "wlan0")


@pytest.mark.parametrize(
    "ignored",
    [
        ("lo", "127.0.0.1"),
        ("lo0", "127.0.0.1"),
        ("docker0", "172.17.0.1"),
        ("br-5f2a", "172.18.0.1"),
        ("veth12ab", "10.0.0.5"),
        ("virbr0", "192.168.122.1"),
        ("tun0", "10.8.0.2"),
        ("wg0", "10.66.0.3"),
        ("tailscale0", "100.101.102.103"),
        ("eth1", "169.254.10.20"),  # link-local: no DHCP answered
        ("eth2", "not an address"),
    ],
)
def test_loopback_containers_tunnels_and_link_local_are_never_the_hall(ignored):
    assert hall.choose([ignored, ("wlp2s0", "10.1.2.3")]) == hall.HallAddress("10.1.2.3", "wlp2s0")
    assert hall.choose([ignored]).loopback


def test_of_several_lan_addresses_the_first_interface_wins():
    found = [("enp3s0", "10.0.0.4"), ("wlan0", "192.168.1.5")]
    assert hall.choose(found).host == "10.0.0.4"


def test_a_public_address_serves_when_there_is_no_lan():
    assert hall.choose([("lo", "127.0.0.1"), ("eth0", "192.0.2.2")]) == hall.HallAddress("192.0.2.2", "eth0")


def test_without_a_network_it_falls_back_to_loopback():
    fallback = hall.choose([("lo", "127.0.0.1"), ("docker0", "172.17.0.1")])
    assert fallback == hall.HallAddress("127.0.0.1", "lo") and fallback.loopback
    assert hall.choose([]).loopback


def adapter(name: str, *ips: tuple[str | tuple, str], description: str = "") -> ifaddr.Adapter:
    """An adapter as ifaddr reports it: on Windows ``nice_name`` is the description
    and each address carries the name the user sees ("Wi-Fi", "vEthernet (WSL)")."""
    return ifaddr.Adapter(name, description or name, [ifaddr.IP(ip, 24, shown or name) for ip, shown in ips])


@pytest.mark.parametrize(
    ("name", "shown", "description"),
    [
        ("{1A2B}", "vEthernet (WSL)", "Hyper-V Virtual Ethernet Adapter"),
        ("{3C4D}", "vEthernet (Default Switch)", "Hyper-V Virtual Ethernet Adapter #2"),
        ("{5E6F}", "Ethernet 2", "VirtualBox Host-Only Ethernet Adapter"),
        ("{7A8B}", "VMware Network Adapter VMnet8", "VMware Virtual Ethernet Adapter for VMnet8"),
        ("{9C0D}", "Ethernet 3", "TAP-Windows Adapter V9"),
        ("{1E2F}", "Loopback Pseudo-Interface 1", "Software Loopback Interface 1"),
    ],
)
def test_windows_virtual_adapters_are_never_the_hall(name, shown, description):
    virtual = adapter(name, ("172.24.160.1", shown), description=description)
    wifi = adapter("{AAAA}", ("192.168.178.40", "Wi-Fi"), description="Intel(R) Wi-Fi 6 AX201 160MHz")
    assert hall.choose(hall.interfaces([virtual, wifi])) == hall.HallAddress("192.168.178.40", "Wi-Fi")
    assert hall.choose(hall.interfaces([virtual])).loopback


def test_a_windows_local_area_connection_is_a_real_adapter():
    """ "Local Area Connection" starts with "Lo" but is the cable, not loopback."""
    cable = adapter("{BBBB}", ("10.0.0.7", "Local Area Connection"), description="Realtek PCIe GbE Family Controller")
    assert hall.choose(hall.interfaces([cable])) == hall.HallAddress("10.0.0.7", "Local Area Connection")


def test_interfaces_read_ipv4_addresses_of_every_adapter_in_order():
    adapters = [
        adapter("lo", ("127.0.0.1", ""), (("::1", 0, 0), "")),
        adapter("en0", (("fe80::1c2b", 0, 4), ""), ("192.168.0.42", "")),
        adapter("bridge100", ("192.168.64.1", "")),
    ]
    found = hall.interfaces(adapters)
    assert found == [("lo", "127.0.0.1", ""), ("en0", "192.168.0.42", ""), ("bridge100", "192.168.64.1", "")]
    assert hall.choose(found).host == "192.168.0.42"


def test_detect_reads_the_adapters_from_ifaddr(monkeypatch):
    monkeypatch.setattr(hall.ifaddr, "get_adapters", lambda: [adapter("en0", ("10.9.8.7", ""))])
    assert hall.detect() == hall.HallAddress("10.9.8.7", "en0")


def test_a_system_that_will_not_list_its_interfaces_gives_loopback(monkeypatch):
    def refuse():
        raise OSError(1, "Operation not permitted")

    monkeypatch.setattr(hall.ifaddr, "get_adapters", refuse)
    assert hall.interfaces() == [] and hall.detect().loopback


def test_this_machines_interfaces_are_read_without_error():
    """Read from the system (no packet): whatever they are, each is a name and an IPv4 address."""
    for name, address, _description in hall.interfaces():
        assert name and address.count(".") == 3


def test_no_linux_only_call_or_ifconfig_is_left():
    source = Path(hall.__file__).read_text()
    assert "fcntl" not in source and "ifconfig" not in source and "subprocess" not in source


def test_the_office_url_and_its_host():
    assert hall.office_url("192.168.1.20", 8000) == "http://192.168.1.20:8000"
    assert hall.office_url("fd00::5", 80) == "http://[fd00::5]:80"
    assert hall.url_host("http://[fd00::5]:80") == "[fd00::5]"
    assert hall.url_host("http://192.168.1.20:8000") == "192.168.1.20"
    assert hall.url_host("") == ""


def test_the_key_file_is_beside_the_sqlite_database(tmp_path):
    sqlite = {"ENGINE": "django.db.backends.sqlite3", "NAME": str(tmp_path / "db.sqlite3")}
    assert hall.key_file_beside(sqlite, tmp_path / "code") == tmp_path / "db.sqlite3.secret-key"
    postgres = {"ENGINE": "django.db.backends.postgresql", "NAME": "skat"}
    assert hall.key_file_beside(postgres, tmp_path) == tmp_path / "office.secret-key"


def test_the_secret_key_is_generated_once_private_and_then_reused(tmp_path):
    path = tmp_path / "data" / "db.sqlite3.secret-key"
    assert hall.read_secret_key(path) == ""
    key = hall.ensure_secret_key(path)
    assert len(key) >= 50 and path.read_text() == key + "\n"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert hall.ensure_secret_key(path) == key == hall.read_secret_key(path)
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # no temporary file left


def test_a_key_file_readable_by_others_is_made_private_and_an_empty_one_refilled(tmp_path):
    path = tmp_path / "office.secret-key"
    path.write_text("the-kept-key\n")
    path.chmod(0o644)
    assert hall.ensure_secret_key(path) == "the-kept-key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    path.write_text("")
    assert len(hall.ensure_secret_key(path)) >= 50


def test_the_key_is_written_durably_and_private_from_its_first_byte(tmp_path, monkeypatch):
    flushed = durable.watch(monkeypatch)
    path = tmp_path / "db.sqlite3.secret-key"
    key = hall.ensure_secret_key(path)
    assert path in flushed and tmp_path in flushed  # the file, then its folder's new name
    assert path.read_text() == key + "\n" and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert hall.replaced == []  # a first key replaces nothing


@pytest.mark.parametrize(
    "damaged",
    [b"", b"\n", b"\0" * 68, b"\xff\xfe half a key", b"a key\x07with a bell"],
    ids=["empty", "blank", "zeros", "not-text", "control"],
)
def test_an_empty_or_damaged_key_file_gets_a_new_key_and_is_noted(tmp_path, monkeypatch, damaged):
    path = tmp_path / "db.sqlite3.secret-key"
    path.write_bytes(damaged)
    assert hall.read_secret_key(path) == ""
    key = hall.ensure_secret_key(path)
    assert len(key) >= 50 and key.isprintable() and hall.read_secret_key(path) == key
    assert hall.replaced == [path]
    line = hall.replaced_key_message(path)
    assert str(path) in line and "PINs" in line and "backup" in line and "\n" not in line
    hall.ensure_secret_key(path)
    assert hall.replaced == [path]  # the kept new key is no second replacement


def test_before_the_lock_a_damaged_key_file_is_left_for_serve_to_replace(tmp_path):
    """The settings of a second office, refused by the lock a moment later, never replace the serving office's key."""
    path = tmp_path / "db.sqlite3.secret-key"
    path.write_bytes(b"\0" * 68)
    key = hall.ensure_secret_key(path, replace=False)
    assert len(key) >= 50 and path.read_bytes() == b"\0" * 68 and hall.replaced == []
    assert hall.ensure_secret_key(path, replace=False) != key  # this process's own, never stored
    missing = tmp_path / "first.secret-key"
    assert hall.ensure_secret_key(missing, replace=False) == hall.read_secret_key(missing)  # the first start's key


def test_the_key_file_stays_out_of_git():
    root = hall.Path(__file__).resolve().parents[2]
    ignored = subprocess.run(["git", "check-ignore", "-q", "db.sqlite3.secret-key"], cwd=root, check=False)
    assert ignored.returncode == 0


def test_the_port_is_a_port_number_or_the_start_says_so_in_one_line():
    from django.core.exceptions import ImproperlyConfigured

    assert hall.port_from({}) == 8000 and hall.port_from({"PORT": " "}) == 8000
    assert hall.port_from({"PORT": "8123"}) == 8123
    for value in ("abc", "²", "0", "65536", "-1", "80@example.org", "9" * 5000):
        with pytest.raises(ImproperlyConfigured, match=r"^PORT must be a port number from 1 to 65535, not '"):
            hall.port_from({"PORT": value})
