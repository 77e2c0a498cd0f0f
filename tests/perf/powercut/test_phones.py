"""The run's phones count a deal as acknowledged only when the office's whole answer confirms it.

A small table link on loopback stands in for the office: it serves the form of the next
deal, confirms each POST (or, told so, answers without confirming) and has no form once
the sheet is full.
"""

from __future__ import annotations

import asyncio
import random

from perf.client import LOOPBACK, run_loop
from perf.powercut.phones import Table, Tally, enter_until, phone

FORM = (
    '<form><input type="hidden" name="number" value="{n}">'
    '<input type="hidden" name="client_id" value="12345678-1234-1234-1234-123456789abc">'
    '<input type="hidden" name="csrfmiddlewaretoken" value="token"></form>'
)


class TableLink:
    """Deals ``first``..``last`` to enter; ``confirm`` False answers a POST without "Deal N entered"."""

    def __init__(self, first: int, last: int, *, confirm: bool = True) -> None:
        self.next, self.last, self.confirm = first, last, confirm
        self.posts: list[bytes] = []

    def page(self, entered: int | None) -> bytes:
        said = f"<p>Deal {entered} entered: +24.</p>" if entered is not None and self.confirm else ""
        form = FORM.format(n=self.next) if self.next <= self.last else "<p>The sheet is full.</p>"
        return (said + form).encode()

    async def answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(
            (int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")), 0
        )
        body = await reader.readexactly(length) if length else b""
        entered = None
        if head.startswith(b"POST"):
            self.posts.append(body)
            entered, self.next = self.next, self.next + 1
        page = self.page(entered)
        writer.write(
            b"HTTP/1.1 200 OK\r\nSet-Cookie: csrftoken=abc; Path=/\r\n"
            + f"Content-Length: {len(page)}\r\nConnection: close\r\n\r\n".encode()
            + page
        )
        await writer.drain()
        writer.close()


async def served(link: TableLink, run):
    server = await asyncio.start_server(link.answer, LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    async with server:
        return await run(port)


def test_each_confirmed_deal_is_acknowledged_until_the_sheet_is_full():
    link, tally = TableLink(25, 27), Tally()
    table = Table(7, "/s/token/", 4)
    run_loop(served(link, lambda port: phone(port, table, tally, random.Random(1), think=0)))
    assert tally.acknowledged == {(7, 25), (7, 26), (7, 27)}
    assert tally.finished == {7} and tally.errors == []
    assert all(b"number=" in post and b"csrfmiddlewaretoken=token" in post for post in link.posts)


def test_an_answer_that_does_not_confirm_the_deal_is_no_acknowledgement():
    link, tally = TableLink(25, 27, confirm=False), Tally()
    table = Table(7, "/s/token/", 3)
    run_loop(served(link, lambda port: phone(port, table, tally, random.Random(1), think=0)))
    assert tally.acknowledged == set()
    assert tally.errors == ["table 7: deal 25 answered 200 without confirming it"]


def test_the_cut_comes_amid_the_phones_and_ends_them():
    link, tally, cuts = TableLink(1, 10_000), Tally(), []
    tables = [Table(7, "/s/token/", 4)]

    async def run(port):
        await enter_until(
            port, tables, tally, lambda: cuts.append(len(tally.acknowledged)), seconds=0.5, seed=1, think=0.01
        )

    run_loop(served(link, run))
    assert len(cuts) == 1 and cuts[0] > 0  # deals were entered before the cut
    assert tally.finished == set()  # the sheet was not full: the phone was put away
