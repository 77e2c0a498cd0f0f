"""``{% load games %}``: the one describer (:mod:`games.describe`) in templates."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString

from .. import describe
from ..models import Deal

register = template.Library()


@register.filter
def game_html(game: Deal) -> SafeString:
    """``{{ game|game_html }}``: "Hearts without 2 hand schneider announced = 60", marked up."""
    return describe.game_html(game)
