"""The forms of the players page and the door: register, quick-add a walk-in, correct a
player, the tournament's categories. They check; tournaments.services writes."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from core.name_checks import validate_name

from . import hooks, services
from .models import Category, Club, Player, Registration, Tournament


def _clean_text(value: str) -> str:
    return " ".join((value or "").split())


class CategoryChoice(forms.ModelChoiceField):
    def __init__(self, tournament: Tournament, **kwargs) -> None:
        super().__init__(
            queryset=Category.objects.filter(tournament=tournament),
            required=False,
            label=_("category"),
            empty_label="—",
            **kwargs,
        )


class PlayerFieldsForm(forms.Form):
    """Name, club and membership number, checked alike wherever a player is entered."""

    name = forms.CharField(label=_("name"), max_length=120, validators=[validate_name])
    club = forms.CharField(label=_("club"), max_length=120, required=False, validators=[validate_name])
    membership_number = forms.CharField(label=_("membership number"), max_length=32, required=False)
    #: Ticked after the warning that a player of this name and club is registered.
    namesake_ok = forms.BooleanField(label=_("register anyway (another person of the same name)"), required=False)

    def __init__(
        self, *args, tournament: Tournament, registration: Registration | None = None, user=None, **kwargs
    ) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.registration = registration
        #: Who fills it in: another tournament's player is named only to a director who sees him.
        self.user = user
        if not (self.is_bound and self.data.get(self.add_prefix("namesake_ok"))):
            self.fields["namesake_ok"].widget = forms.HiddenInput()

    def clean_name(self) -> str:
        name = _clean_text(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Enter the player's name."))
        return name

    def clean_club(self) -> str:
        return _clean_text(self.cleaned_data.get("club", ""))

    def clean_membership_number(self) -> str:
        return (self.cleaned_data.get("membership_number") or "").strip()

    def _own_player(self) -> int | None:
        return self.registration.player_id if self.registration else None

    def clean(self) -> dict:
        data = super().clean()
        name, number = data.get("name"), data.get("membership_number")
        if not name:
            return data
        if number:
            player = Player.objects.filter(membership_number=number).first()
            if player is not None and player.pk != self._own_player():
                if self.registration is not None or player.name.casefold() != name.casefold():
                    if Player.objects.known_to(self.user).filter(pk=player.pk).exists():
                        message = _("Membership number %(number)s belongs to %(name)s.")
                    else:  # a player of tournaments this director cannot see: not his name
                        message = _(
                            "Membership number %(number)s belongs to another player; check the number and the name."
                        )
                    self.add_error("membership_number", message % {"number": number, "name": player.name})
                elif Registration.objects.filter(tournament=self.tournament, player=player).exists():
                    self.add_error("membership_number", _("%(name)s is already registered.") % {"name": player.name})
            return data
        club = Club.objects.filter(name=data.get("club")).first() if data.get("club") else None
        found = services.namesakes(self.tournament, name, club.pk if club else None, self._own_player())
        if found and not data.get("namesake_ok"):
            # Warn as the import does; a tick registers the second person anyway.
            self.fields["namesake_ok"].widget = forms.CheckboxInput()
            self.add_error(
                "name",
                _(
                    "%(name)s of this club is already registered. Give a membership number to tell them apart, "
                    "or tick “register anyway” if this is another person."
                )
                % {"name": found[0]},
            )
        return data


class RegistrationForm(PlayerFieldsForm):
    """Register a player on the players page: an existing one by membership number, or a new one."""

    nationality = forms.CharField(label=_("nationality"), max_length=3, required=False)
    team = forms.CharField(label=_("team"), max_length=120, required=False, validators=[validate_name])
    first_series = forms.IntegerField(label=_("plays from series"), min_value=1, initial=1)

    field_order = ["name", "club", "membership_number", "nationality", "team", "category", "first_series"]

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, tournament=tournament, **kwargs)
        self.fields["category"] = CategoryChoice(tournament)
        self.order_fields(self.field_order)
        self.fields["first_series"].max_value = tournament.series_count
        self.fields["first_series"].widget.attrs["max"] = tournament.series_count
        # A late entry plays from the first series not yet drawn (3.1.2): offer that one.
        last_drawn = max(tournament.series.values_list("number", flat=True), default=0)
        self.fields["first_series"].initial = min(last_drawn + 1, tournament.series_count)
        if not tournament.categories.exists():
            del self.fields["category"]

    def clean_team(self) -> str:
        team = _clean_text(self.cleaned_data.get("team", ""))
        number = (self.data.get(self.add_prefix("membership_number")) or "").strip()
        player = Player.objects.filter(membership_number=number).first() if number else None
        if team and (why := hooks.team_refused(self.tournament, player, team)):
            raise forms.ValidationError(why)
        return team

    def clean_first_series(self) -> int:
        first = self.cleaned_data["first_series"]
        if first > self.tournament.series_count:
            raise forms.ValidationError(
                ngettext(
                    "This tournament has %(count)s series.",
                    "This tournament has %(count)s series.",
                    self.tournament.series_count,
                )
                % {"count": self.tournament.series_count}
            )
        drawn = self.tournament.series.filter(number__gte=first).order_by("number").first()
        if drawn is not None:
            raise forms.ValidationError(
                _("Series %(number)s is already drawn; a late entry plays from the next series (3.1.2).")
                % {"number": drawn.number}
            )
        return first

    def entry(self, **extra) -> services.Entry:
        data = self.cleaned_data
        return services.Entry(
            name=data["name"],
            club=data["club"],
            membership_number=data["membership_number"],
            nationality=data.get("nationality", ""),
            team=_clean_text(data.get("team", "")),
            category=data.get("category"),
            first_series=data.get("first_series", 1),
            namesake_ok=data.get("namesake_ok", False),
            **extra,
        )


class QuickAddForm(PlayerFieldsForm):
    """A walk-in at the door, in one line: name, club, optional membership number and the
    tournament's category (when it has any: the best woman's prize needs it). He is
    present at once and plays from the next series not yet drawn."""

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, tournament=tournament, **kwargs)
        if tournament.categories.exists():
            self.fields["category"] = CategoryChoice(tournament)
            self.order_fields(["name", "club", "membership_number", "category"])

    def clean(self) -> dict:
        data = super().clean()
        drawn = self.tournament.series.count()
        if drawn >= self.tournament.series_count:
            raise forms.ValidationError(
                ngettext(
                    "The %(count)s series is drawn; nobody can enter any more (3.1.2).",
                    "All %(count)s series are drawn; nobody can enter any more (3.1.2).",
                    drawn,
                )
                % {"count": drawn}
            )
        return data

    def entry(self) -> services.Entry:
        data = self.cleaned_data
        return services.Entry(
            name=data["name"],
            club=data["club"],
            membership_number=data["membership_number"],
            first_series=self.tournament.series.count() + 1,
            present=True,
            namesake_ok=data.get("namesake_ok", False),
            category=data.get("category"),
        )


class PlayerEditForm(PlayerFieldsForm):
    """Correct a registered player: name, club, membership number, team, category."""

    team = forms.CharField(label=_("team"), max_length=120, required=False, validators=[validate_name])

    def __init__(self, *args, registration: Registration, **kwargs) -> None:
        player = registration.player
        initial = {
            "name": player.name,
            "club": player.club.name if player.club_id else "",
            "membership_number": player.membership_number,
            "team": registration.team.name if registration.team_id else "",
            "category": registration.category_id,
        }
        super().__init__(
            *args, tournament=registration.tournament, registration=registration, initial=initial, **kwargs
        )
        self.fields["category"] = CategoryChoice(registration.tournament)

    def clean_team(self) -> str:
        team = _clean_text(self.cleaned_data.get("team", ""))
        before = self.registration.team.name if self.registration.team_id else ""
        if team != before and (why := hooks.team_refused(self.tournament, self.registration.player, team)):
            raise forms.ValidationError(why)
        return team

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        after = {key: data.get(key, "") for key in ("name", "club", "membership_number")}
        if after != services.person_fields(self.registration.player):
            places = services.elsewhere(self.registration.player, self.user)
            if places:
                raise forms.ValidationError(shared_message(self.registration.player.name, places))
        return data

    def save(self) -> None:
        data = self.cleaned_data
        services.edit_player(
            self.registration,
            name=data["name"],
            club=data["club"],
            membership_number=data["membership_number"],
            team=_clean_text(data.get("team", "")),
            category=data.get("category"),
            namesake_ok=data.get("namesake_ok", False),
            user=self.user,
        )


#: Places named in a refusal; the rest are counted.
SHOWN_PLACES = 3


def shared_message(name: str, places: list[str]) -> str:
    """Why a director may not change a person's name, club or number: where else he plays."""
    shown = ", ".join(places[:SHOWN_PLACES])
    more = len(places) - SHOWN_PLACES
    if more > 0:
        shown += " " + ngettext("and %(n)s more", "and %(n)s more", more) % {"n": more}
    return _(
        "%(name)s also plays in %(places)s, which you do not run: his name, club and membership number show "
        "there too, so only an office administrator changes them. Team and category you change here."
    ) % {"name": name, "places": shown}


class CategoryForm(forms.ModelForm):
    """A category, by name only (women) or with an age rule in ages at the start of the
    tournament's calendar year (juniors: younger than 21; seniors: aged at least 60)."""

    class Meta:
        model = Category
        fields = ["name", "age_under", "age_from"]
        widgets = {
            "age_under": forms.NumberInput(attrs={"inputmode": "numeric", "min": 1, "max": 120, "size": 4}),
            "age_from": forms.NumberInput(attrs={"inputmode": "numeric", "min": 0, "max": 120, "size": 4}),
        }

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, instance=Category(tournament=tournament), **kwargs)

    def clean_name(self) -> str:
        # As typed: spaces are tidied below, after a line break or a control character
        # is refused (the model checks the tidied name again).
        validate_name(self.cleaned_data["name"])
        name = _clean_text(self.cleaned_data["name"])
        if not name:
            raise forms.ValidationError(_("Enter the category's name."))
        if Category.objects.filter(tournament=self.instance.tournament, name__iexact=name).exists():
            raise forms.ValidationError(_("This tournament has this category already."))
        return name
