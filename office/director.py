"""The director's account on the first start: never a fixed password on a network.

The first start (``manage.py serve``, ``manage.py demo``) creates the login
``director`` with a password the director types (at a terminal) or, without one, a
generated password printed once. A director still on the fixed password ``skat`` of
earlier versions gets a new one the same way.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

DIRECTOR = "director"
#: The fixed password earlier versions gave every office: replaced at the next start.
FORMER_PASSWORD = "skat"
#: Letters and digits nobody mistakes for another when reading them off a terminal.
ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"


@dataclass(frozen=True, slots=True)
class DirectorLogin:
    user: AbstractBaseUser
    #: A generated password, to print once; empty when the director chose one or kept his.
    password: str = ""
    #: "created", "replaced" (was the former fixed password) or "kept".
    state: str = "kept"


def generated_password() -> str:
    """Three groups of four (about 59 random bits), e.g. ``k7pm-2rxa-qe9t``."""
    return "-".join("".join(secrets.choice(ALPHABET) for _ in range(4)) for _ in range(3))


def ensure_director(ask: Callable[[AbstractBaseUser], str] | None = None, password: str = "") -> DirectorLogin:
    """The director's login, created on the first start.

    ``password``: the one to give a new login; else ``ask(user)`` returns the one the
    director chose (empty: generate one); else a generated password. An office whose
    superuser exists already (someone created his own) creates nobody.
    """
    users = get_user_model()
    user = users.objects.filter(username=DIRECTOR).first()
    if user is None:
        existing = users.objects.filter(is_superuser=True).order_by("pk").first()
        if existing is not None:
            return DirectorLogin(existing)
        user, state = users(username=DIRECTOR, is_staff=True, is_superuser=True), "created"
    elif user.check_password(FORMER_PASSWORD):
        state = "replaced"
    else:
        return DirectorLogin(user)
    chosen = password or (ask(user) if ask else "")
    generated = "" if chosen else generated_password()
    user.set_password(chosen or generated)
    user.save()
    return DirectorLogin(user, generated, state)


def password_message(login: DirectorLogin) -> str:
    """What became of the director's password, to print: a generated one is said once."""
    names = {"name": login.user.get_username(), "password": login.password}
    if login.state == "kept":
        # The generated password was printed once, on the first start: say how to set a new one.
        return "\n".join(
            (
                _("Director login: %(name)s (password unchanged)") % names,
                _("Forgotten? skat-office changepassword %(name)s sets a new one (in a checkout: manage.py).") % names,
            )
        )
    if not login.password:
        return _("Director login %(name)s: the password is the one you chose.") % names
    if login.state == "replaced":
        return (
            _("Director login %(name)s had the former fixed password; new one: %(password)s (shown only now)") % names
        )
    return _("Director login created: %(name)s / %(password)s (shown only now: write it down)") % names
