"""A minimal HTTP/1.1 client over asyncio for the load test: loopback only, no dependency.

One connection per request, as a phone on Wi-Fi. It talks to loopback addresses
(:data:`LOOPBACK`, :data:`HALL`) and nowhere else: a load test never leaves the machine.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import urllib.parse
from dataclasses import dataclass

#: The address the table profile serves on and sends to (127.0.0.0/8).
LOOPBACK = "127.0.0.1"
#: The hall profile's address: another loopback address, standing for the hall's other devices.
HALL = "127.0.0.2"


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes


async def request(
    port: int,
    method: str,
    path: str,
    *,
    form: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    timeout: float = 15.0,
    host: str = LOOPBACK,
    content: bytes | None = None,
) -> Response:
    """Send one request to ``host`` (a loopback address) at ``port`` and read the whole answer (Connection: close).

    ``form``: URL-encoded fields; ``content``: raw bytes as the body (a file).
    """
    if not ipaddress.ip_address(host).is_loopback:
        raise ValueError(f"the load test sends to loopback addresses only, not {host}")
    body = urllib.parse.urlencode(form).encode() if form is not None else content or b""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}:{port}", "Connection: close"]
    for name, value in (headers or {}).items():
        lines.append(f"{name}: {value}")
    if form is not None:
        lines += ["Content-Type: application/x-www-form-urlencoded", f"Content-Length: {len(body)}"]
    elif content is not None:  # a file as the body (the hosts' publication)
        lines += ["Content-Type: application/octet-stream", f"Content-Length: {len(body)}"]
    raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + body

    async def exchange() -> bytes:
        reader, writer = await asyncio.open_connection(host, port)
        try:
            writer.write(raw)
            await writer.drain()
            return await reader.read()
        finally:
            writer.close()

    return Response(*parse(await asyncio.wait_for(exchange(), timeout)))


def parse(data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Status, headers (lower-case names; repeated ones joined) and body of a raw answer."""
    head, _, content = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("latin-1").split("\r\n")
    parsed: dict[str, str] = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        key = name.strip().lower()
        parsed[key] = f"{parsed[key]}, {value.strip()}" if key in parsed else value.strip()
    return int(status_line.split()[1]), parsed, content


async def abandon(port: int, path: str, form: dict[str, str], headers: dict[str, str], after: float) -> None:
    """Send a POST and stop waiting after ``after`` seconds: the phone's timeout, the server goes on."""
    with contextlib.suppress(TimeoutError, OSError):
        await request(port, "POST", path, form=form, headers=headers, timeout=after)
