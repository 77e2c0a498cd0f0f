"""Template tags: the tournaments a user referees (for the front page)."""

from django import template

from referees.models import RefereeAssignment

register = template.Library()


@register.simple_tag
def refereed_tournaments(user):
    """Tournaments ``user`` is assigned to as referee, newest first."""
    return list(RefereeAssignment.objects.tournaments_of(user).order_by("-date", "name"))
