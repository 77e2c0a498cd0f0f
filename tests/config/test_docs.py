"""The docs: a short README, the help pages the office serves at /help/, and a built site
that needs no internet (the hall has none)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from config.help import inline_script_hashes, locate

ROOT = Path(settings.BASE_DIR)
INLINE = "__md_scope=1"


def fake_site(root: Path) -> Path:
    """A tiny built site: the English and German index, a page, a stylesheet and a script."""
    pages = {
        "index.html": f"<html><head><script>{INLINE}</script></head><body>Help index</body></html>",
        "de/index.html": "<html><body>Hilfe Startseite</body></html>",
        "directors/evening/index.html": "<html><body>A real evening</body></html>",
        "assets/main.css": "body { color: black; }",
        "assets/bundle.js": "console.log(1);",
        "img/screens/shot.png": "\x89PNG",
    }
    for name, text in pages.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.fixture
def site(tmp_path, settings) -> Path:
    settings.DOCS_ROOT = fake_site(tmp_path / "site")
    (tmp_path / "secret.txt").write_text("not for the hall")
    return settings.DOCS_ROOT


def test_the_readme_stays_short():
    assert (ROOT / "README.md").stat().st_size < 8 * 1024


def test_help_answers_the_index(client, site):
    response = client.get(reverse("help", kwargs={"path": ""}))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
    assert b"Help index" in response.content
    # The page's own inline script runs, nothing else inline: its hash joins the policy.
    policy = response["Content-Security-Policy"]
    assert "script-src 'self' 'sha256-" in policy and "'unsafe-inline'" not in policy
    assert inline_script_hashes(response.content)[0] in policy


def test_a_page_is_its_folder_index_and_needs_its_slash(client, site):
    assert b"A real evening" in client.get("/help/directors/evening/").content
    response = client.get("/help/directors/evening")
    assert response.status_code == 301 and response["Location"] == "/help/directors/evening/"


def test_the_german_pages_have_their_own_prefix(client, site):
    response = client.get("/help/de/")
    assert response.status_code == 200 and "Hilfe Startseite" in response.content.decode()


@pytest.mark.parametrize(
    ("path", "content_type"),
    [("assets/main.css", "text/css"), ("assets/bundle.js", "text/javascript"), ("img/screens/shot.png", "image/png")],
)
def test_files_have_their_content_types(client, site, path, content_type):
    response = client.get(f"/help/{path}")
    assert response.status_code == 200 and response["Content-Type"].startswith(content_type)


@pytest.mark.parametrize("path", ["../secret.txt", "%2e%2e/secret.txt", "assets/../../secret.txt", "nothing/here/"])
def test_nothing_outside_the_site_and_nothing_missing(client, site, path):
    response = client.get(f"/help/{path}")
    assert response.status_code == 404 and b"not for the hall" not in response.content


def test_locate_stays_inside_the_root(tmp_path):
    root = fake_site(tmp_path / "site")
    (tmp_path / "secret.txt").write_text("x")
    (root / "out").symlink_to(tmp_path)
    assert locate(root, "") == root / "index.html"
    assert locate(root, "../secret.txt") is None
    assert locate(root, "out/secret.txt") is None
    assert locate(root, "/etc/passwd") is None
    assert locate(root, "index.html\x00.png") is None


def test_help_only_reads(client, site):
    assert client.post("/help/").status_code == 405


def test_without_a_built_site_the_office_404_says_how_to_build_it(client, settings, tmp_path):
    settings.DOCS_ROOT = tmp_path / "not-built"
    for path, language, words in [
        ("/help/", "en", ["Page not found", "make docs"]),
        ("/help/de/", "de", ["make docs", "Hilfeseiten sind noch nicht gebaut"]),
    ]:
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
        page = response.content.decode()
        assert response.status_code == 404 and all(word in page for word in words), page
        assert 'class="topbar"' in page  # the office's own page, not a bare 404


@pytest.mark.django_db
def test_the_top_bar_links_the_help_in_the_reader_s_language(client):
    from django.core.management import call_command

    call_command("compiletranslations")
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r'<header class="topbar">.*<a class="help" href="/help/">Help</a>', english, re.S)
    german = client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<a class="help" href="/help/de/">Hilfe</a>' in german


#: An asset fetched from another host: a script, stylesheet, image, font or frame.
EXTERNAL_ASSET = re.compile(
    r"""<(?:script|img|iframe|source|audio|video|embed)\b[^>]*\b(?:src|srcset)\s*=\s*["']?\s*(?:https?:)?//"""
    r"""|<link\b[^>]*\bhref\s*=\s*["']?\s*(?:https?:)?//"""
    r"""|url\(\s*["']?\s*(?:https?:)?//|@import\s+(?:url\()?\s*["']?\s*(?:https?:)?//""",
    re.I,
)


def external_assets(root: Path) -> list[str]:
    found = []
    for path in sorted(root.rglob("*")):
        if path.suffix in {".html", ".css", ".xml", ".svg"}:
            found += [f"{path.relative_to(root)}: {m.group(0)}" for m in EXTERNAL_ASSET.finditer(path.read_text())]
    return found


def test_the_check_finds_an_external_asset(tmp_path):
    (tmp_path / "a.html").write_text('<link rel="stylesheet" href="https://fonts.googleapis.com/css">')
    (tmp_path / "b.css").write_text("@font-face { src: url(//cdn.example/x.woff2) }")
    (tmp_path / "c.html").write_text('<a href="https://example.org/">a link is no asset</a><img src="img/x.png">')
    assert len(external_assets(tmp_path)) == 2


def test_the_built_site_fetches_nothing_from_another_host(tmp_path):
    """Built from mkdocs.yml (not strict here: the screenshots may not be taken yet)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(ROOT / "mkdocs.yml"), "-d", str(tmp_path)]
    subprocess.run(command, check=True, env=env, cwd=ROOT, capture_output=True)
    assert (tmp_path / "index.html").is_file() and (tmp_path / "de" / "index.html").is_file()
    assert (tmp_path / "search" / "search_index.json").is_file()  # the search runs in the browser
    assert external_assets(tmp_path) == []
    html = (tmp_path / "de" / "directors" / "getting-started" / "index.html").read_text()
    assert "fonts.googleapis" not in html and "Spielliste" in html
