"""Letting a person in on a staff page by user name: an existing active account, or a new
one made right there with its password.

The referees' assign page, the tournament's directors page and the league's managers
page share this form, so a helper at the desk gets in the same way everywhere and the
same refusals read the same. Each page subclasses it, says who already holds the role
(:meth:`AccountForm.already`) and what the role gives (:meth:`AccountForm.save_with`).
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class AccountForm(forms.Form):
    """A user name, and a password only when the office makes the account here."""

    username = forms.CharField(label=_("User name"), max_length=150)
    password = forms.CharField(
        label=_("Password for a new account"),
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    #: Whom the password is for: the page's role ("Only for a referee without an account yet ...").
    password_help = ""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["password"].help_text = self.password_help
        #: The existing account named (None: a new one is made on save).
        self.user: AbstractBaseUser | None = None

    def already(self, user: AbstractBaseUser) -> str | None:
        """Why ``user`` cannot be given the page's role: he holds it already (None: he may)."""
        return None

    def clean_username(self) -> str:
        """The name as the account stores it: Django keeps user names in Unicode's NFKC
        form (a ligature is its letters, a full-width letter the plain one), so it is
        checked and looked up in that form; one a few characters long could otherwise grow
        past the column's 150 on saving."""
        user_model = get_user_model()
        name = user_model.normalize_username(self.cleaned_data["username"].strip())
        limit = user_model._meta.get_field(user_model.USERNAME_FIELD).max_length
        if len(name) > limit:
            raise forms.ValidationError(
                _("A user name has at most %(limit)s characters (this one, as stored, has %(length)s).")
                % {"limit": limit, "length": len(name)}
            )
        user_model.username_validator(name)  # letters, digits and @.+-_ only: refused here, named
        return name

    def clean(self) -> dict:
        data = super().clean()
        name = data.get("username")
        if not name:
            return data
        user_model = get_user_model()
        self.user = user_model.objects.filter(username=name).first()
        if self.user is not None:
            self._check_existing(self.user, name, data.get("password"))
            return data
        twin = user_model.objects.filter(username__iexact=name).values_list("username", flat=True).first()
        if twin is not None:
            # Told apart only by upper and lower case, a new account is mistaken for the
            # existing one in every list (and shares its login throttle, which folds case).
            self.add_error(
                "username",
                _(
                    "There is an account %(existing)s already: name it, "
                    "or choose a name that differs by more than case."
                )
                % {"existing": twin},
            )
            return data
        password = data.get("password")
        if not password:
            if "password" not in self.errors:  # not "give one" under "no NUL byte allowed"
                self.add_error(
                    "password",
                    _("There is no user %(name)s yet: give a password and the office creates the account.")
                    % {"name": name},
                )
            return data
        try:
            password_validation.validate_password(password, user_model(username=name))
        except forms.ValidationError as error:
            self.add_error("password", error)
        return data

    def _check_existing(self, user: AbstractBaseUser, name: str, password: str | None) -> None:
        if not user.is_active:
            self.add_error("username", _("The account %(name)s is disabled.") % {"name": name})
        elif (reason := self.already(user)) is not None:
            self.add_error("username", reason)
        elif password:
            # A password typed for an existing account would be silently ignored: say so.
            self.add_error(
                "password", _("%(name)s has an account already; leave the password empty.") % {"name": name}
            )

    def save_with(self, give: Callable[[AbstractBaseUser], object]) -> tuple[AbstractBaseUser, bool] | None:
        """Make the account when needed and ``give`` it the role, in one transaction;
        answers (user, created), or None when a twin request (a double tap, a second
        director) made the account or gave the role between the checks and this save:
        nothing of this one is kept and the form says so under the user name."""
        created = self.user is None
        try:
            with transaction.atomic():
                if created:
                    self.user = get_user_model().objects.create_user(
                        username=self.cleaned_data["username"], password=self.cleaned_data["password"]
                    )
                give(self.user)
        except IntegrityError:
            if created:
                self.user = None  # rolled back
            self.add_error(
                "username",
                gettext("%(name)s was just made or assigned from another request; see the list above.")
                % {"name": self.cleaned_data["username"]},
            )
            return None
        return self.user, created
