"""League points as the tables print them: "25:2", halves as ½."""

from django import template

from skat.league import points_text, score_line

from ..hall_files import who
from ..results import as_of as table_date

register = template.Library()


@register.filter
def league_points(place) -> str:
    return score_line(place.result.won, place.result.lost)


@register.filter
def score(result) -> str:
    return score_line(result.won, result.lost)


@register.filter
def series_numbers(count: int) -> range:
    return range(1, count + 1)


@register.filter
def series_cells(result) -> list[tuple]:
    return [(p, points_text(w)) for p, w in zip(result.series_points, result.series_won, strict=True)]


@register.filter
def half(points) -> str:
    """League points as a table prints them: 8 or 7½."""
    return points_text(points)


@register.filter
def as_of(seasons) -> object:
    """The tables' "Stand": the latest match day counted, or today."""
    return table_date(seasons)


@register.filter
def person(user) -> str:
    """Who did a step, as the history and the corrections show it (hall_files.who)."""
    return who(user)
