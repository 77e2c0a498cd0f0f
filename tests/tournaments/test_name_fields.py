"""Every name or title a person types goes through one check (core.name_checks):
a tournament's name and venue, its categories, a league, its season, groups, teams and
hosts, and a name given at a table link's dispute. On every way in (the director's forms,
the admin, the player list, the tournament file, the league's host command) a control
character, a right-to-left override or a name of invisible characters only is refused
with a message naming the field and the rule, and nothing is stored."""

from __future__ import annotations

import io
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from leagues.models import Group, Host, League, LeagueTeam
from referees.models import Dispute
from tests import factories
from tests.transfer.test_exports import finished_tournament
from tests.transfer.test_tournament_file import edit, empty_the_database, export, tournament_row
from tournaments.imports import import_players
from tournaments.models import Category, Player, Registration, Tournament
from transfer.tournament_file import TransferError, import_tournament

pytestmark = pytest.mark.django_db

HOSTILE = {
    "bell": "Anna\x07Bell",
    "newline": "Anna\nZeile",
    "override": "Anna \u202eReversed",
    "zero-width only": "\u200b\u200b",
    "line separator": "Anna\u2028Zeile",
}
RULE = re.compile(r"Not a name: (contains a control character|has no visible character)")
VALID = ["Müller-Lüdenscheidt", "José Ñúñez", "O'Neill", "Skat Open 2026", "Zoë's Cup", "Łódź"]

#: Every field that holds a name or title a person types, by model.
NAME_FIELDS = [
    (Tournament, "name"),
    (Tournament, "venue"),
    (Category, "name"),
    (League, "name"),
    (League, "season"),
    (Group, "name"),
    (LeagueTeam, "name"),
    (Host, "name"),
    (Dispute, "raised_by"),
]


def refused_on_field(error: ValidationError, field: str) -> bool:
    return any(RULE.search(message) for message in error.message_dict.get(field, []))


@pytest.mark.parametrize(("model", "field"), NAME_FIELDS, ids=lambda v: getattr(v, "__name__", v))
@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_model_refuses_it_naming_the_field(model, field, text):
    others = [f.name for f in model._meta.get_fields() if f.name != field]
    with pytest.raises(ValidationError) as refused:
        model(**{field: text}).full_clean(exclude=others, validate_unique=False, validate_constraints=False)
    assert refused_on_field(refused.value, field)


@pytest.mark.parametrize(("model", "field"), NAME_FIELDS, ids=lambda v: getattr(v, "__name__", v))
@pytest.mark.parametrize("text", VALID)
def test_the_model_takes_a_real_name(model, field, text):
    others = [f.name for f in model._meta.get_fields() if f.name != field]
    max_length = model._meta.get_field(field).max_length
    model(**{field: text[:max_length]}).full_clean(exclude=others, validate_unique=False, validate_constraints=False)


TOURNAMENT = {
    "name": "Club Open",
    "date": "2026-11-23",
    "venue": "Vereinsheim",
    "series_count": "2",
    "rounds_per_series": "12",
    "entry_fee": "0",
    "list_fee": "0",
    "prize_pool_percent": "100",
    "list_fee_refund_percent": "100",
    "table_money_from": "table",
}


def field_error(page: str, field: str) -> str:
    """The error list shown in the field's own box (under its label) on the tournament form."""
    box = re.search(rf'<div class="field"><label for="id_{field}">.*?</div>', page, re.S)
    assert box, field
    return box.group(0)


@pytest.mark.parametrize("field", ["name", "venue"])
@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_new_tournament_form_refuses_it(client, field, text):
    director = factories.user("d", superuser=True)
    client.force_login(director)
    response = client.post(reverse("director:create"), TOURNAMENT | {field: text})
    assert response.status_code == 200
    assert RULE.search(field_error(response.content.decode(), field))
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("field", ["name", "venue"])
@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_rules_page_refuses_it(client, field, text):
    director = factories.user("d")
    t = factories.tournament(directors=[director], name="Club Open", venue="Vereinsheim")
    client.force_login(director)
    management = {"fees-TOTAL_FORMS": 0, "fees-INITIAL_FORMS": 0}
    response = client.post(reverse("director:edit", args=[t.pk]), TOURNAMENT | management | {field: text})
    assert response.status_code == 200
    assert RULE.search(field_error(response.content.decode(), field))
    t.refresh_from_db()
    assert (t.name, t.venue) == ("Club Open", "Vereinsheim")


@pytest.mark.parametrize("text", VALID)
def test_the_new_tournament_form_takes_a_real_name_and_venue(client, text):
    client.force_login(factories.user("d", superuser=True))
    response = client.post(reverse("director:create"), TOURNAMENT | {"name": text, "venue": f"Saal {text}"})
    assert response.status_code == 302
    assert Tournament.objects.get().venue == f"Saal {text}"


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_category_form_refuses_it(client, text):
    director = factories.user("d")
    t = factories.tournament(directors=[director])
    client.force_login(director)
    response = client.post(reverse("director:category_add", args=[t.pk]), {"name": text})
    assert response.status_code == 422
    assert RULE.search(response.content.decode())
    assert not Category.objects.exists()


def test_the_category_form_takes_a_real_name(client):
    director = factories.user("d")
    t = factories.tournament(directors=[director])
    client.force_login(director)
    client.post(reverse("director:category_add", args=[t.pk]), {"name": "Senioren Ü60"})
    assert list(Category.objects.values_list("name", flat=True)) == ["Senioren Ü60"]


def _inlines(*prefixes: str) -> dict:
    data = {}
    for prefix in prefixes:
        data |= {f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0}
    return data


TOURNAMENT_INLINES = ("lost_game_fees", "passed_out_fees", "table_money", "prizes", "registrations")


@pytest.mark.parametrize("field", ["name", "venue"])
@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_admin_refuses_it_for_a_tournament(client, field, text):
    client.force_login(factories.user(superuser=True))
    data = TOURNAMENT | {"lot_seed": 7} | _inlines(*TOURNAMENT_INLINES) | {field: text}
    response = client.post(reverse("admin:tournaments_tournament_add"), data)
    assert response.status_code == 200 and RULE.search(response.content.decode())
    assert not Tournament.objects.exists()


def test_the_admin_still_takes_a_real_tournament(client):
    client.force_login(factories.user(superuser=True))
    data = TOURNAMENT | {"lot_seed": 7, "name": "Müller-Lüdenscheidt Cup"} | _inlines(*TOURNAMENT_INLINES)
    assert client.post(reverse("admin:tournaments_tournament_add"), data).status_code == 302
    assert Tournament.objects.get().name == "Müller-Lüdenscheidt Cup"


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_admin_refuses_it_for_the_league_s_names(client, text):
    client.force_login(factories.user(superuser=True))
    league, group, _teams = factories.league_group(teams=1, roster=1, name="Bezirksliga")
    league_data = {
        "name": "Kreisliga",
        "season": "2027",
        "tie": "split",
        "tie_break": "lot",
        "series_per_matchday": 3,
        "rounds_per_series": 12,
        "binding_days": 14,
        "lot_seed": 1,
    }
    for url, data, field in (
        (reverse("admin:leagues_league_add"), league_data | {"name": text}, "name"),
        (reverse("admin:leagues_league_add"), league_data | {"season": text}, "season"),
        (reverse("admin:leagues_group_add"), {"league": league.pk, "name": text}, "name"),
        (reverse("admin:leagues_leagueteam_add"), {"group": group.pk, "name": text} | _inlines("roster"), "name"),
        (reverse("admin:leagues_host_add"), {"league": league.pk, "name": text, "active": "on"}, "name"),
    ):
        response = client.post(url, data)
        assert response.status_code == 200 and RULE.search(response.content.decode()), (url, field)
    assert list(League.objects.values_list("name", flat=True)) == ["Bezirksliga"]
    assert Group.objects.count() == 1 and LeagueTeam.objects.count() == 1 and not Host.objects.exists()


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_player_list_refuses_it_as_a_category(text):
    t = factories.tournament()
    upload = "Name;Kategorie\nAnna Bell;Damen\n" + f'Bernd Bell;"{text}"\n'
    result = import_players(t, io.BytesIO(upload.encode()), "club.csv")
    assert len(result.errors) == 1
    row, message = result.errors[0]
    assert row == 3 and re.fullmatch(r"Kategorie: (contains a control character.*|has no visible character)", message)
    assert not Registration.objects.exists() and not Category.objects.exists() and not Player.objects.exists()


@pytest.mark.parametrize("field", ["Name", "Venue"])
@pytest.mark.parametrize("text", [HOSTILE["newline"], HOSTILE["override"], HOSTILE["zero-width only"]])
def test_the_tournament_file_refuses_it(tmp_path, field, text):
    t = finished_tournament(players=7, series=1)
    path = tmp_path / "t.xlsx"
    export(t, path)
    edit(path, "Tournament", tournament_row(path, field), 2, text)
    empty_the_database()
    with pytest.raises(TransferError, match=rf"Tournament, {field}: (contains a control|has no visible)"):
        import_tournament(path)
    assert not Tournament.objects.exists() and not Player.objects.exists()


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_the_host_command_refuses_it(text):
    league, _group, _teams = factories.league_group(teams=1, roster=1)
    with pytest.raises(CommandError, match=r"name: (contains a control|has no visible)"):
        call_command("league_host", league.pk, text, stdout=io.StringIO())
    assert not Host.objects.exists()
