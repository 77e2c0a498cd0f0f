"""League points as the tables print them: "25:2", halves as ½."""

from django import template

from skat.league import points_text, score_line

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
