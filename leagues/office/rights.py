"""Who may run which league, as the office's administrator grants it on the rights page
(no Django admin needed): a league's managers (Staffelleiter: they set it up, direct its
match days, check and bind them) and the right to set up new leagues (the permission
*Can add league*). Every grant and withdrawal is recorded (:class:`RightChange`: who,
when, which league, by whom), also a co-manager named on a league's own managers page
(:func:`record_manager_change` fills :data:`leagues.setup.manager_changed`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import Permission
from django.db import transaction
from django.db.models import Prefetch

from leagues import setup
from leagues.models import League
from skat.rules import RuleError, gettext_noop

from .models import RightChange

#: The right "may set up new leagues" in the forms (a league's right is its id).
NEW_LEAGUES = "new"
#: The history the page shows, newest first.
HISTORY = 50


def office_admin(user) -> bool:
    """The office's administrator: a superuser (he holds every right himself)."""
    return bool(user.is_authenticated and user.is_active and user.is_superuser)


def _add_league() -> Permission:
    return Permission.objects.get(content_type__app_label="leagues", codename="add_league")


def _record(user, *, action: str, right: str, by, league: League | None = None) -> RightChange:
    return RightChange.objects.create(
        action=action,
        right=right,
        user=user,
        username=user.get_username(),
        league=league,
        league_name=str(league) if league else "",
        by=by,
        by_name=by.get_username() if by is not None else "",
    )


def record_manager_change(league: League, user, *, by, granted: bool) -> None:
    """Fills leagues.setup.manager_changed: the league's managers page's changes on the record too."""
    action = RightChange.Action.GRANTED if granted else RightChange.Action.REVOKED
    _record(user, action=action, right=RightChange.Right.MANAGER, by=by, league=league)


def grant(user: AbstractBaseUser, right: str, *, by) -> bool:
    """Give ``user`` the right (a league's id, or :data:`NEW_LEAGUES`); answers whether it
    is new. A league manager directs the league's match days too (leagues.setup.add_manager)."""
    if right == NEW_LEAGUES:
        with transaction.atomic():
            permission = _add_league()
            if user.user_permissions.filter(pk=permission.pk).exists():
                return False
            user.user_permissions.add(permission)
            _record(user, action=RightChange.Action.GRANTED, right=RightChange.Right.NEW_LEAGUES, by=by)
        return True
    league = _league(right)
    if league.managers.filter(pk=user.pk).exists():
        return False
    setup.add_manager(league, user, by=by)
    return True


def revoke(user: AbstractBaseUser, right: str, *, by) -> None:
    """Take the right from ``user``; a league keeps its last manager (leagues.setup.remove_manager)."""
    if right == NEW_LEAGUES:
        with transaction.atomic():
            permission = _add_league()
            if not user.user_permissions.filter(pk=permission.pk).exists():
                raise RuleError(
                    "right",
                    gettext_noop("{name} may not set up new leagues anyway"),
                    "league",
                    name=user.get_username(),
                )
            user.user_permissions.remove(permission)
            _record(user, action=RightChange.Action.REVOKED, right=RightChange.Right.NEW_LEAGUES, by=by)
        return
    league = _league(right)
    if not league.managers.filter(pk=user.pk).exists():
        raise RuleError(
            "right", gettext_noop("{name} does not manage {league}"), "league", name=user.get_username(), league=league
        )
    setup.remove_manager(league, user, by=by)


def _league(right: str) -> League:
    # isascii: "²".isdigit() is True, but int("²") raises (a 500 on the revoke form).
    number = str(right)
    league = League.objects.filter(pk=int(number)).first() if number.isascii() and number.isdigit() else None
    if league is None:
        raise RuleError("right", gettext_noop("there is no league {right}"), "league", right=right)
    return league


@dataclass
class Holder:
    """One account and its league rights, as the page lists it."""

    user: AbstractBaseUser
    new_leagues: bool
    leagues: list[League] = field(default_factory=list)


def holders() -> list[Holder]:
    """Every active account with its rights, by user name (four queries, whatever the numbers)."""
    users = get_user_model().objects.filter(is_active=True).order_by("username")
    permission = _add_league()
    may_add = set(permission.user_set.values_list("pk", flat=True))
    leagues = Prefetch("managed_leagues", queryset=League.objects.order_by("-season", "name"))
    return [
        Holder(user, user.is_superuser or user.pk in may_add, list(user.managed_leagues.all()))
        for user in users.prefetch_related(leagues)
    ]


def history():
    return RightChange.objects.all()[:HISTORY]
