"""The hall fetches a package only from the league servers its operator allowed
(SKAT_LEAGUE_SERVERS, leagues.packages.fetching.refusal), read as a spec.

- None named (the default): https addresses on the internet only, never one in the hall's
  network or on the laptop; the refusal names the field (url) and the setting, on the
  import page (under the field), in import_matchday (exit 1) and in fetching.fetch; the
  address given gets no request at all.
- An entry admits its scheme, host and port (the scheme's usual one unless given) and, when
  it has a path, only paths under it; a bare host admits both schemes on their usual ports.
- A redirect is not followed, also not to another server: nothing reaches it.
Loopback addresses only.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from leagues.packages import fetching
from leagues.packages.schema import PackageError
from tests import factories

from .helpers import hall_director

pytestmark = pytest.mark.django_db


@pytest.fixture
def recorder():
    """Loopback servers that record each request's path; ``start(host, redirect_to)``."""
    servers = []

    def start(host: str = "127.0.0.1", redirect_to: str = ""):
        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                self.server.seen.append(self.path)
                if redirect_to:
                    self.send_response(302)
                    self.send_header("Location", redirect_to)
                    self.end_headers()
                    return
                body = b'{"error": "token: recorded"}'
                self.send_response(401)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        server = ThreadingHTTPServer((host, 0), Handler)
        server.seen = []
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server, f"http://{host}:{server.server_port}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(
    "entry, url, admitted",
    [
        ("http://127.0.0.1:8123", "http://127.0.0.1:8123/league/api/package/", True),
        ("http://127.0.0.1:8123/", "http://127.0.0.1:8123/league/api/package/", True),
        ("http://127.0.0.1:8123", "http://127.0.0.1:8124/league/api/package/", False),
        ("http://127.0.0.1:8123", "https://127.0.0.1:8123/league/api/package/", False),
        ("http://127.0.0.1:8123", "http://127.0.0.2:8123/league/api/package/", False),
        ("http://127.0.0.1", "http://127.0.0.1:8123/league/api/package/", False),
        ("http://127.0.0.1", "http://127.0.0.1/league/api/package/", True),
        ("http://127.0.0.1:8123/verband", "http://127.0.0.1:8123/verband/league/api/package/", True),
        ("http://127.0.0.1:8123/verband", "http://127.0.0.1:8123/verbandsliga/league/api/package/", False),
        ("http://127.0.0.1:8123/verband", "http://127.0.0.1:8123/league/api/package/", False),
        ("127.0.0.1", "https://127.0.0.1/league/api/package/", True),
        ("127.0.0.1", "http://127.0.0.1:8123/league/api/package/", False),
        ("127.0.0.1:8123", "http://127.0.0.1:8123/league/api/package/", True),
        ("http://127.0.0.1:8123", "http://127.0.0.1:8123@127.0.0.2:8123/league/api/package/", False),
        ("http://localhost:8123", "http://LOCALHOST:8123/league/api/package/", True),
    ],
)
def test_which_addresses_an_entry_admits(settings, entry, url, admitted):
    settings.SKAT_LEAGUE_SERVERS = [entry]
    assert (fetching.refusal(url) is None) == admitted


@pytest.mark.parametrize(
    ("url", "refused"),
    [
        ("http://liga.example.org/league/api/package/", "only from https:// addresses"),
        ("https://127.0.0.1/league/api/package/", "127.0.0.1 is in this network or on this computer"),
        ("https://localhost:8443/", "localhost is in this network or on this computer"),
        ("https://192.168.1.20/", "192.168.1.20 is in this network"),
        ("https://10.0.0.5/", "10.0.0.5 is in this network"),
        ("https://169.254.10.1/", "169.254.10.1 is in this network"),
        ("https://[::1]/", "::1 is in this network"),
        ("https://[fd00::5]/", "fd00::5 is in this network"),
        ("https://[::ffff:192.168.1.20]/", "is in this network"),
        ("https://8.8.8.8/league/api/package/", None),
        ("https://[2606:4700:4700::1111]/league/api/package/", None),
    ],
)
def test_with_none_named_only_https_addresses_on_the_internet(settings, url, refused):
    """The default: a league server on the internet works without a setting; the router,
    the hall's devices and the laptop itself get no request and no token. (Only literal
    addresses and localhost here: no name is looked up in the network.)"""
    settings.SKAT_LEAGUE_SERVERS = []
    answer = fetching.refusal(url)
    assert answer is None if refused is None else refused in answer
    assert answer is None or (answer.startswith("url: ") and "SKAT_LEAGUE_SERVERS" in answer)


def test_none_named_a_loopback_server_gets_nothing(settings, recorder):
    settings.SKAT_LEAGUE_SERVERS = []
    server, base = recorder()
    with pytest.raises(PackageError, match=r"^url: without SKAT_LEAGUE_SERVERS set, the office fetches only from"):
        fetching.fetch(f"{base}/league/api/package/", "token")
    assert server.seen == []


def test_another_address_is_refused_before_any_request(settings, recorder):
    server, base = recorder()
    settings.SKAT_LEAGUE_SERVERS = ["https://liga.example.org"]
    with pytest.raises(PackageError) as refused:
        fetching.fetch(f"{base}/league/api/package/", "token")
    assert str(refused.value) == (
        f"url: 127.0.0.1:{server.server_port} is none of the league servers this office fetches from "
        "(setting SKAT_LEAGUE_SERVERS: https://liga.example.org); give one of them, or import the package's file"
    )
    assert server.seen == []
    settings.SKAT_LEAGUE_SERVERS = ["https://liga.example.org", base]
    with pytest.raises(PackageError, match=r"refused \(401\): token: recorded"):
        fetching.fetch(f"{base}/league/api/package/", "token")
    assert server.seen == ["/league/api/package/"]


def test_a_redirect_to_another_server_is_not_followed(settings, recorder):
    other, other_base = recorder("127.0.0.2")
    server, base = recorder("127.0.0.1", redirect_to=f"{other_base}/league/api/package/")
    settings.SKAT_LEAGUE_SERVERS = [base]
    with pytest.raises(PackageError, match=r"^url: the address redirects elsewhere \(302\), and a redirect is not"):
        fetching.fetch(f"{base}/league/api/package/", "token")
    assert server.seen == ["/league/api/package/"] and other.seen == []


def test_the_import_page_names_the_field_and_the_rule(client, settings, recorder):
    settings.SKAT_LEAGUE_SERVERS = ["https://liga.example.org"]
    server, base = recorder()
    client.force_login(hall_director())
    answer = client.post(reverse("packages:import"), {"url": f"{base}/league/api/package/", "token": "t"})
    assert answer.status_code == 422
    errors = answer.context["form"].errors
    assert list(errors) == ["url"] and "SKAT_LEAGUE_SERVERS" in errors["url"][0]
    assert "none of the league servers this office fetches from" in answer.content.decode()
    assert server.seen == []


def test_the_command_refuses_with_exit_1(settings, recorder):
    settings.SKAT_LEAGUE_SERVERS = []
    server, base = recorder()
    factories.user("halle")
    with pytest.raises(CommandError, match=r"^refused: url: .*SKAT_LEAGUE_SERVERS") as refused:
        call_command("import_matchday", f"{base}/league/api/package/", "--user", "halle", "--token", "t")
    assert refused.value.returncode == 1 and server.seen == []


def test_the_refusal_speaks_german(settings, client):
    settings.SKAT_LEAGUE_SERVERS = []
    client.force_login(hall_director())
    answer = client.post(
        reverse("packages:import"),
        {"url": "http://127.0.0.1:9/league/api/package/", "token": "t"},
        headers={"Accept-Language": "de"},
    )
    assert (
        "ohne die Einstellung SKAT_LEAGUE_SERVERS holt das Büro nur von https://-Adressen" in answer.content.decode()
    )


@pytest.mark.parametrize("entries", [["https://"], ["/league/api/package/"], ["https://:8123", "http://[::1"]])
def test_a_setting_without_any_usable_entry_admits_nothing(settings, recorder, entries):
    """Set, the setting was meant to restrict: entries that name no host admit no address,
    not every https address on the internet as the setting unset would."""
    settings.SKAT_LEAGUE_SERVERS = entries
    server, base = recorder()
    for url in ("https://8.8.8.8/league/api/package/", f"{base}/league/api/package/", "https://liga.example.org/"):
        assert fetching.refusal(url) == (
            f"url: the setting SKAT_LEAGUE_SERVERS names no league server (no http(s) host in: {', '.join(entries)}), "
            "so the office fetches from none; have it corrected (e.g. https://liga.example.org), "
            "or import the package's file"
        )
    with pytest.raises(PackageError, match=r"^url: the setting SKAT_LEAGUE_SERVERS names no league server"):
        fetching.fetch(f"{base}/league/api/package/", "token")
    assert server.seen == []


def test_without_any_usable_entry_the_import_page_refuses_in_german(settings, client):
    settings.SKAT_LEAGUE_SERVERS = ["https://"]
    client.force_login(hall_director())
    answer = client.post(
        reverse("packages:import"),
        {"url": "https://8.8.8.8/league/api/package/", "token": "t"},
        headers={"Accept-Language": "de"},
    )
    assert answer.status_code == 422
    assert list(answer.context["form"].errors) == ["url"]
    assert "die Einstellung SKAT_LEAGUE_SERVERS nennt keinen Ligaserver (kein http(s)-Host in: https://)" in (
        answer.content.decode()
    )


def test_blank_entries_are_no_setting(settings):
    settings.SKAT_LEAGUE_SERVERS = [" "]
    assert fetching.refusal("https://8.8.8.8/league/api/package/") is None


@pytest.mark.parametrize(
    ("entries", "warned"),
    [
        ([], None),
        (["https://liga.example.org", "127.0.0.1:8123"], None),
        (
            ["https://", "/verband"],
            "SKAT_LEAGUE_SERVERS: https://, /verband: no league server's http(s) host (so the office",
        ),
        (
            ["https://liga.example.org", "http://[::1"],
            "SKAT_LEAGUE_SERVERS: http://[::1: no league server's http(s) host (left",
        ),
    ],
)
def test_the_system_check_names_the_entries_without_a_host(settings, entries, warned):
    from django.core.checks import Warning as CheckWarning
    from django.core.checks import run_checks

    settings.SKAT_LEAGUE_SERVERS = entries
    found = [message for message in run_checks() if message.id == "packages.W001"]
    if warned is None:
        assert found == []
        return
    (message,) = found
    assert isinstance(message, CheckWarning)
    assert message.msg.startswith(warned)


@pytest.mark.parametrize("entry", ["htps://liga.example.org", "ftp://liga.example.org", "liga.example.org://x"])
def test_an_entry_of_another_scheme_admits_nothing_and_is_named(settings, entry):
    """A typing error in the scheme (htps://) names a host but admits no address (only
    http and https are fetched from): it is an entry without a league server like one
    without a host, refused as such and warned of by the system check."""
    from django.core.checks import run_checks

    settings.SKAT_LEAGUE_SERVERS = [entry]
    assert fetching.refusal("https://liga.example.org/league/api/package/").startswith(
        f"url: the setting SKAT_LEAGUE_SERVERS names no league server (no http(s) host in: {entry}), "
    )
    (warned,) = [message.msg for message in run_checks() if message.id == "packages.W001"]
    assert warned.startswith(f"SKAT_LEAGUE_SERVERS: {entry}: no league server's http(s) host (so the office")
    settings.SKAT_LEAGUE_SERVERS = ["https://liga.example.org", entry]
    assert fetching.refusal("https://liga.example.org/league/api/package/") is None
    (warned,) = [message.msg for message in run_checks() if message.id == "packages.W001"]
    assert warned.startswith(f"SKAT_LEAGUE_SERVERS: {entry}: no league server's http(s) host (left out")
