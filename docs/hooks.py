"""MkDocs hooks (mkdocs.yml ``hooks:``): the built pages ask the office for nothing it lacks.

- The theme fetches ``sitemap.xml`` beside every ``<link rel="alternate" hreflang>`` in a
  page's head (to map a page to its other language). The language switch in the header
  already links each page's own translation (mkdocs-static-i18n), so those head links
  are left out, and with them the fetches of sitemaps that do not exist.
- The sitemap lists nothing: without a ``site_url`` (the office is reached by whatever
  address the hall's network gives it) the i18n plugin's entries are no URLs, and a hall
  has no search engine to tell.
"""

from __future__ import annotations

import re
from pathlib import Path

ALTERNATE_IN_HEAD = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
EMPTY_SITEMAP = (
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n'
)


def on_post_page(output: str, **kwargs) -> str:
    head, _, body = output.partition("</head>")
    return ALTERNATE_IN_HEAD.sub("", head) + "</head>" + body if body else output


def on_post_build(config, **kwargs) -> None:
    site = Path(config["site_dir"])
    (site / "sitemap.xml").write_text(EMPTY_SITEMAP)
    (site / "sitemap.xml.gz").unlink(missing_ok=True)
