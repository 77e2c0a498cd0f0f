"""``{% load scoring %}``: the one describer (:mod:`scoring.describe`) in templates."""

from __future__ import annotations

from django import template
from django.utils.formats import localize
from django.utils.safestring import SafeString

from .. import describe
from ..models import ScoresheetLine

register = template.Library()


@register.filter
def game_html(game: ScoresheetLine) -> SafeString:
    """``{{ game|game_html }}``: "Hearts without 2 hand schneider announced = 60", marked up."""
    return describe.game_html(game)


@register.filter
def game_short_html(game: ScoresheetLine) -> SafeString:
    """``{{ game|game_short_html }}``: the game abbreviated for a phone ("♠ wo3 H = 40"),
    each abbreviation titled with its words; the numbers localized as the page writes them."""
    return describe.game_short_html(game, localize)
