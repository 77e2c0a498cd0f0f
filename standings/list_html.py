"""The standings table's HTML, written directly: the same markup django-tables2's template
makes of a :class:`standings.tables.StandingsTable`, at a fraction of its cost.

django-tables2 renders each cell through its template machinery (an accessor, a
signature inspected per cell, a template node per attribute): about 1.5 ms a row, so a
page of 50 rows took 65-160 ms, the most of what a change of the results cost a public
standings page. The headings (a dozen) still come from the table itself (its columns,
their attributes and sort links); each row's cells are the row's values, escaped and
localized as the template does. tests/standings/test_list_html.py holds the two equal.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.http import HttpRequest
from django.utils.formats import localize
from django.utils.html import conditional_escape, escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django_tables2.utils import AttributeDict

from .tables import StandingsTable, _row_class


def table_html(table: StandingsTable, request: HttpRequest) -> SafeString:
    """The table as django-tables2's ``django_tables2/table.html`` renders it (no pagination:
    the page cuts the rows itself)."""
    columns = list(table.columns)
    parts = [
        format_html(
            '<div class="table-container">\n<table {}>\n<thead {}>\n<tr>\n',
            table.attrs.as_html(),
            AttributeDict(table.attrs.get("thead", {})).as_html(),
        )
    ]
    params = dict(request.GET)
    for column in columns:
        header = conditional_escape(column.header)
        if column.orderable:
            href = escape(
                "?" + urlencode(params | {table.prefixed_order_by_field: column.order_by_alias.next}, doseq=True)
            )
            header = format_html('<a href="{}">{}</a>', mark_safe(href), header)
        parts.append(format_html("<th {}>{}</th>\n", column.attrs["th"].as_html(), header))
    parts.append(format_html("</tr>\n</thead>\n<tbody {}>\n", AttributeDict(table.attrs.get("tbody", {})).as_html()))
    cells = [
        (column.name, column.attrs["td"].as_html(), conditional_escape(column.default), _render_of(table, column.name))
        for column in columns
    ]
    plain_numbers = not settings.USE_THOUSAND_SEPARATOR  # then localize() writes an integer as str() does
    rendered: dict[tuple[str, object], str] = {}  # the words of the sheets column, once per value
    for counter, row in enumerate(table.paginated_rows):
        record = row.record
        kind = _row_class(record)
        even = "odd" if counter % 2 else "even"
        parts.append(format_html('<tr class="{}">\n', f"{kind} {even}" if kind else even))
        for name, attrs, default, render in cells:
            value = record.get(name)
            if value is None or value == "":
                content = default
            elif render is not None:
                if type(value) is int:
                    content = rendered.get((name, value))
                    if content is None:
                        content = rendered[name, value] = conditional_escape(render(value))
                else:
                    content = conditional_escape(render(value))
            elif type(value) is int and plain_numbers:
                content = str(value)
            else:
                content = conditional_escape(localize(value))
            if name == "name" and record.get("url"):
                content = format_html('<a href="{}">{}</a>', record["url"], content)
            parts.append(f"<td {attrs}>{content}</td>\n")
        parts.append("</tr>\n")
    parts.append("</tbody>\n</table>\n</div>\n")
    return mark_safe("".join(parts))


def _render_of(table: StandingsTable, name: str):
    return getattr(table, f"render_{name}", None)
