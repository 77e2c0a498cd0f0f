"""The rehearsal's phones: each keeps one list of one table through its link, as a player's phone does.

A phone opens the table link (GET), reads the CSRF token and the next deal's number from
the page, and posts each deal as htmx does; it corrects its last deal on the link's
correction page, raises a dispute on the link's dispute page and confirms the sheet with
a player's PIN (5.5.3). Every answer's status is counted: a 5xx is the office's fault.

Two ways to the office: :class:`InProcess` (Django's test client, through this process's
whole middleware stack: what ``manage.py rehearse`` and the dashboard's button use) and
:class:`OverHttp` (``--url``: the running office, over HTTP).
"""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections import Counter
from dataclasses import dataclass, field

from django.conf import settings
from django.test import Client
from django.urls import reverse

CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
NEXT_DEAL = re.compile(rb'name="number" value="(\d+)"')
VERSION = re.compile(rb'name="version" value="(\d+)"')


@dataclass
class Answer:
    status: int
    body: bytes


@dataclass
class Tally:
    """What the phones sent and how the office answered: by status, and every 5xx by path."""

    statuses: Counter = field(default_factory=Counter)
    server_errors: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    deals: int = 0
    second_list: int = 0
    corrections: int = 0
    disputes: int = 0
    confirmations: int = 0

    def count(self, method: str, path: str, answer: Answer, expected: tuple[int, ...]) -> bool:
        """File the answer; True when it is one of ``expected``."""
        self.statuses[answer.status] += 1
        if answer.status >= 500:
            self.server_errors.append(f"{method} {path}: {answer.status}")
        elif answer.status not in expected and len(self.refused) < 50:
            self.refused.append(f"{method} {path}: {answer.status} {answer.body[:160]!r}")
        return answer.status in expected

    @property
    def requests(self) -> int:
        return sum(self.statuses.values())


def _host() -> str:
    """A host name the office allows (Django's test client would say "testserver")."""
    return next((h for h in settings.ALLOWED_HOSTS if h not in ("*", "") and not h.startswith(".")), "localhost")


class InProcess:
    """Requests through this process's own Django (the whole middleware stack, CSRF checked).

    Behind HTTPS (``SECURE``) they come as HTTPS requests with their page as the Referer,
    as a phone's do: else the office would redirect them to HTTPS, or refuse the CSRF check.
    """

    def __init__(self) -> None:
        self.host = _host()
        self.secure = bool(getattr(settings, "SECURE", False))
        self.client = Client(enforce_csrf_checks=True, raise_request_exception=False, HTTP_HOST=self.host)

    def get(self, path: str) -> Answer:
        response = self.client.get(path, secure=self.secure)
        return Answer(response.status_code, response.content)

    def post(self, path: str, data: dict[str, str], htmx: bool = False) -> Answer:
        page = f"{'https' if self.secure else 'http'}://{self.host}{path}"
        headers = {"Referer": page} | ({"HX-Request": "true", "HX-Current-URL": page} if htmx else {})
        response = self.client.post(path, data, headers=headers, secure=self.secure)
        return Answer(response.status_code, response.content)


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # a phone reads the 302 itself
        return None


class OverHttp:
    """Requests to the running office at ``base`` (e.g. http://127.0.0.1:8000), one cookie jar per phone."""

    def __init__(self, base: str, timeout: float = 30.0) -> None:
        self.base = base.rstrip("/")
        self.timeout = timeout
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirects)

    def _send(self, request: urllib.request.Request) -> Answer:
        try:
            with self.opener.open(request, timeout=self.timeout) as response:
                return Answer(response.status, response.read())
        except urllib.error.HTTPError as error:
            return Answer(error.code, error.read())

    def get(self, path: str) -> Answer:
        return self._send(urllib.request.Request(self.base + path))

    def post(self, path: str, data: dict[str, str], htmx: bool = False) -> Answer:
        headers = {"Referer": self.base + path, "Content-Type": "application/x-www-form-urlencoded"}
        if htmx:
            headers |= {"HX-Request": "true", "HX-Current-URL": self.base + path}
        body = urllib.parse.urlencode(data).encode()
        return self._send(urllib.request.Request(self.base + path, data=body, headers=headers, method="POST"))


class Phone:
    """One list (the sheet's link, or the second list's) of one table, kept deal by deal."""

    def __init__(self, transport, token: str, tally: Tally, *, control: bool = False) -> None:
        self.transport = transport
        self.path = reverse("table:sheet", args=[token])
        self.tally = tally
        self.control = control
        self.csrf = ""
        #: The deal the link's form asks for next; None: the list is complete (or closed).
        self.next_deal: int | None = None

    def _read(self, body: bytes) -> None:
        csrf, number = CSRF.search(body), NEXT_DEAL.search(body)
        if csrf:
            self.csrf = csrf.group(1).decode()
        self.next_deal = int(number.group(1)) if number else None

    def open(self) -> bool:
        answer = self.transport.get(self.path)
        if not self.tally.count("GET", self.path, answer, (200,)):
            return False
        self._read(answer.body)
        return True

    def enter(self, fields: dict[str, str]) -> bool:
        """Post one deal (``fields``: the form's, with its number) as htmx does; the answer is the next form."""
        data = fields | {"client_id": str(uuid.uuid4()), "csrfmiddlewaretoken": self.csrf}
        answer = self.transport.post(self.path, data, htmx=True)
        if not self.tally.count("POST", self.path, answer, (200,)):
            self.next_deal = None
            return False
        self._read(answer.body)
        if self.control:
            self.tally.second_list += 1
        else:
            self.tally.deals += 1
        return True

    def correct_last(self, fields: dict[str, str]) -> bool:
        """Correct the list's last deal (5.5.3) on the link's correction page: the deal ``fields`` says instead."""
        path = self.path + "correct/"
        page = self.transport.get(path)
        version = VERSION.search(page.body)
        if not self.tally.count("GET", path, page, (200,)) or version is None:
            return False
        data = fields | {"version": version.group(1).decode(), "csrfmiddlewaretoken": self.csrf}
        done = self.tally.count("POST", path, self.transport.post(path, data), (302,))
        self.tally.corrections += done
        return done

    def dispute(self, deal: int | None, description: str, name: str) -> bool:
        """4.5.10: the table calls a referee about ``deal`` (None: the whole sheet)."""
        path = self.path + "dispute/"
        page = self.transport.get(path)
        if not self.tally.count("GET", path, page, (200,)):
            return False
        data = {"deal": "" if deal is None else str(deal), "description": description, "name": name}
        done = self.tally.count(
            "POST", path, self.transport.post(path, data | {"csrfmiddlewaretoken": self.csrf}), (302,)
        )
        self.tally.disputes += done
        return done

    def confirm(self, seat: int, pin: str) -> bool:
        """One player confirms the sheet with the PIN from his slip (5.5.3)."""
        path = self.path + "confirm/"
        answer = self.transport.post(path, {"seat": str(seat), "pin": pin, "csrfmiddlewaretoken": self.csrf})
        done = self.tally.count("POST", path, answer, (302,))
        self.tally.confirmations += done
        return done
