"""A category's own ranking (e.g. women, seniors, juniors: a tournament's own list,
tournaments.models.Category): the ranked list filtered to the category's players, the
places numbered again within it. The standings page, the ranking list and the league
export use it with ``?category=<id>``."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.params import number_param
from tournaments.models import Category, Registration, Tournament


class CategoryError(ValueError):
    """``?category=`` names no category of the tournament; the message says which exist."""


def chosen_category(
    tournament: Tournament, value: str | None, categories: list[Category] | None = None
) -> Category | None:
    """The category ``?category=`` names (None for none or empty); raises :class:`CategoryError`.

    ``categories``: the tournament's, when the caller has them already (no query then)."""
    if not value:
        return None
    if categories is None:
        categories = list(tournament.categories.all())
    number = number_param(value)
    for category in categories:
        if category.pk == number:
            return category
    names = ", ".join(f"{c.pk} ({c.name})" for c in categories) or _("none yet")
    raise CategoryError(
        _("category: %(value)s is not a category of this tournament (its categories: %(names)s).")
        % {"value": value, "names": names}
    )


def within_category(ranked: list, category: Category | None) -> list:
    """The entries of ``ranked`` whose player is in ``category``, placed 1, 2, 3... in the
    same order (one query); all of ``ranked`` for no category."""
    if category is None:
        return ranked
    members = set(Registration.objects.filter(category=category).values_list("player_id", flat=True))
    kept = [entry for entry in ranked if entry.item.player_id in members]
    return [entry._replace(place=place) for place, entry in enumerate(kept, start=1)]


def category_winners(tournament: Tournament, ranked: list) -> list[tuple[Category, object]]:
    """Each category of the tournament (by name) with the first of ``ranked`` in it, placed
    1; a category nobody of ``ranked`` is in is left out. Two queries however many
    categories there are (the categories, and who is in which)."""
    members: dict[int, set[int]] = {}
    for category_id, player_id in Registration.objects.filter(category__tournament=tournament).values_list(
        "category_id", "player_id"
    ):
        members.setdefault(category_id, set()).add(player_id)
    winners = []
    for category in tournament.categories.order_by("name"):
        inside = members.get(category.pk, set())
        first = next((entry for entry in ranked if entry.item.player_id in inside), None)
        if first is not None:
            winners.append((category, first._replace(place=1)))
    return winners
