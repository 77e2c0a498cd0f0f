"""The help pages: the built MkDocs site (``make docs``) served by the office itself.

``/help/`` is the English site, ``/help/de/`` the German one; ``/help/<page>/`` answers
the page's ``index.html``. The site is a folder the settings name (``DOCS_ROOT``, by
default ``docs/site``); nothing outside it is ever read (no ``..``, no symlink out).
Without a built site every help address answers the office's 404 page with the line
that says how to build it.

Material's pages carry a few small inline scripts (its storage helpers, the palette,
the tabs): each page is sent with the office's Content-Security-Policy plus the SHA-256
of exactly those scripts, so nothing else inline runs, and with ``data:`` images, which
the theme's stylesheet uses for its icons.
"""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

from django.conf import settings
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.views.decorators.http import require_safe

#: Content types of what an MkDocs build writes (the system's table may lack some).
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".xml": "application/xml",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".ico": "image/x-icon",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
    ".gz": "application/gzip",
}
INLINE_SCRIPT = re.compile(rb"<script(?P<attrs>[^>]*)>(?P<body>.*?)</script>", re.S)


def docs_root() -> Path:
    return Path(settings.DOCS_ROOT)


def locate(root: Path, path: str) -> Path | None:
    """The file ``path`` names inside ``root`` (a folder: its index.html), or None."""
    if "\x00" in path or "\\" in path:
        return None
    base = root.resolve()
    target = (base / path).resolve()
    if target != base and base not in target.parents:
        return None
    if target.is_dir():
        target = target / "index.html"
    return target if target.is_file() else None


def inline_script_hashes(html: bytes) -> list[str]:
    """The CSP source of every inline script that runs (not JSON data, not a src= script)."""
    hashes = []
    for match in INLINE_SCRIPT.finditer(html):
        attrs = match["attrs"].lower()
        if b"src=" in attrs or b"application/json" in attrs:
            continue
        digest = base64.b64encode(hashlib.sha256(match["body"]).digest()).decode()
        hashes.append(f"'sha256-{digest}'")
    return hashes


def page_policy(html: bytes) -> str:
    """The office's policy, letting run exactly this page's inline scripts and data: icons."""
    directives = []
    for directive in settings.CONTENT_SECURITY_POLICY.split("; "):
        name = directive.split(" ", 1)[0]
        if name == "script-src":
            directive = " ".join([directive, *dict.fromkeys(inline_script_hashes(html))])
        elif name == "img-src":
            directive += " data:"
        directives.append(directive)
    return "; ".join(directives)


@require_safe
def help_page(request: HttpRequest, path: str = "") -> HttpResponse:
    root = docs_root()
    if not (root / "index.html").is_file():
        return render(request, "config/help_not_built.html", status=404)
    found = locate(root, path)
    if found is None:
        raise Http404("no such help page")
    if found.name == "index.html" and path and not path.endswith(("/", "index.html")):
        # A page's relative links need the trailing slash.
        return HttpResponsePermanentRedirect(request.path + "/")
    content_type = CONTENT_TYPES.get(found.suffix.lower(), "application/octet-stream")
    if found.suffix.lower() == ".html":
        html = found.read_bytes()
        response = HttpResponse(html, content_type=content_type)
        response["Content-Security-Policy"] = page_policy(html)
        return response
    return FileResponse(found.open("rb"), content_type=content_type)
