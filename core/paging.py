"""Long lists in pages: a 3,000-player tournament's lists are read a page at a time.

Every list page (players, the door, a series' tables, statistics, the referees' board)
shows at most a page of rows and a pager (templates/includes/_pager.html) that keeps the
page's other parameters (search, filter). A page costs one count and one slice of the
query, whatever the size of the field; a page number out of range shows the last page,
one that is no number the first (never an error).
"""

from __future__ import annotations

from django.core.paginator import Page, Paginator
from django.http import HttpRequest

#: Rows per page: a phone's screenful or two, well under the page-size budget.
PAGE_SIZE = 50


def page_of(request: HttpRequest, items, per_page: int = PAGE_SIZE) -> Page:
    """The page of ``items`` (a queryset or a list) that ``?page=`` asks for."""
    return Paginator(items, per_page).get_page(request.GET.get("page"))
