"""The lookup by start number and surname (/me/find/<tournament>/), read as a spec.

- The right start number and surname (any case, umlauts spelled either way, with or
  without the first name) show his table and seat now, what the seat board shows: never
  his private link (start number and surname are public: the standings list both).
- "No such start number" and "wrong surname" get the very same answer, and each counts as
  a miss of the client's address (an IPv6 address by its /128, with a higher ceiling for its
  /64); a form with a field missing or not a number names the field and counts nothing.
- After PLAYER_LOOKUP_FAILURE_LIMIT misses within the window the address is refused (429),
  the right answer too; a refusal counts nothing; other addresses go on.
- The form tells nobody which tournaments exist: an unknown one answers like any other
  (every lookup a miss), and the tournament is named (a practice one marked) only once its
  standings are published, or to its director.
"""

from __future__ import annotations

import pytest

from players.lookup import surname_matches
from players.models import LookupFailure
from tests import factories
from tournaments.models import Registration, Seat, Series, Table
from tournaments.player_links import player_path

pytestmark = pytest.mark.django_db


@pytest.fixture
def anna():
    t = factories.tournament()
    reg = Registration.objects.create(tournament=t, player=factories.player("Anna Müller"), start_number=17)
    Registration.objects.create(tournament=t, player=factories.player("Bernd Schulz"), start_number=18)
    return reg


def _url(reg) -> str:
    return f"/me/find/{reg.tournament_id}/"


def test_the_form_is_open_to_everybody(client, anna):
    page = client.get(_url(anna)).content.decode()
    assert "Start number" in page and "Surname" in page


@pytest.mark.parametrize("typed", ["Müller", "mueller", "MULLER", "Anna Müller"])
def test_the_right_start_number_and_surname_show_his_seat_never_his_private_link(client, anna, typed):
    series = Series.objects.create(tournament=anna.tournament, number=1)
    table = Table.objects.create(series=series, number=4, size=4)
    Seat.objects.create(table=table, series=series, number=3, player=anna.player)
    response = client.post(_url(anna), {"start_number": "17", "surname": typed})
    page = response.content.decode()
    assert response.status_code == 200 and "Table 4" in page and "Seat 3" in page and "Anna Müller" in page
    assert player_path(anna) not in page and player_path(anna).split("/")[2] not in page
    assert "QR code on your start card" in page
    assert LookupFailure.objects.count() == 0  # a match counts nothing


def test_a_wrong_surname_and_an_unknown_number_read_the_same_and_both_count(client, anna):
    wrong_name = client.post(_url(anna), {"start_number": "17", "surname": "Schulz"})
    no_number = client.post(_url(anna), {"start_number": "99", "surname": "Müller"})
    assert wrong_name.status_code == no_number.status_code == 200
    assert wrong_name.context["form"].errors == no_number.context["form"].errors
    assert "No player of this tournament has this start number and this surname" in wrong_name.content.decode()
    assert LookupFailure.objects.count() == 2


def test_a_field_missing_or_not_a_number_is_named_and_counts_nothing(client, anna):
    page = client.post(_url(anna), {"start_number": "x", "surname": ""}).content.decode()
    assert "Start number: enter digits only." in page and "Surname: enter your surname" in page
    assert LookupFailure.objects.count() == 0


def test_too_many_misses_lock_the_address_but_not_another(client, anna, settings):
    settings.PLAYER_LOOKUP_FAILURE_LIMIT = 3
    for number in (1, 2, 3):
        client.post(_url(anna), {"start_number": str(number), "surname": "Müller"})
    refused = client.post(_url(anna), {"start_number": "17", "surname": "Müller"})
    assert refused.status_code == 429 and "Too many lookups" in refused.content.decode()
    assert LookupFailure.objects.count() == 3  # the refusal counted nothing
    elsewhere = client.post(_url(anna), {"start_number": "17", "surname": "Müller"}, REMOTE_ADDR="10.0.0.9")
    assert elsewhere.status_code == 200 and "No series is drawn yet" in elsewhere.content.decode()


def test_misses_older_than_the_window_no_longer_count(client, anna, settings):
    settings.PLAYER_LOOKUP_FAILURE_LIMIT = 1
    settings.PLAYER_LOOKUP_WINDOW = 0
    client.post(_url(anna), {"start_number": "1", "surname": "Müller"})
    assert client.post(_url(anna), {"start_number": "17", "surname": "Müller"}).status_code == 200
    assert LookupFailure.objects.count() == 0  # the expired miss pruned by the next lookup


def test_the_form_does_not_tell_which_tournaments_exist(client, anna):
    unknown = client.post("/me/find/999999/", {"start_number": "17", "surname": "Müller"})
    assert unknown.status_code == 200 and "No player of this tournament" in unknown.content.decode()
    assert client.get("/me/find/999999/").status_code == 200
    assert anna.tournament.name not in client.get(_url(anna)).content.decode()
    type(anna.tournament).objects.filter(pk=anna.tournament_id).update(standings_public=True)
    assert anna.tournament.name in client.get(_url(anna)).content.decode()


def test_surnames_of_every_form():
    assert surname_matches("Müller, Anna", "mueller")
    assert surname_matches("Hans von Bülow", "von Bülow") and surname_matches("Hans von Bülow", "Bulow")
    assert not surname_matches("Anna Müller", "Anna")
    assert not surname_matches("Anna Müller", "  ")


def test_one_ipv6_phone_locks_its_address_not_the_halls_64_which_has_a_higher_ceiling(client, anna, settings):
    """A hall on IPv6 shares one /64: one phone's misses lock that phone's address, the
    phone beside it goes on; a phone rotating through its /64 is held by the /64's ceiling.
    IPv4 is counted per address (an IPv4-mapped IPv6 address as its IPv4 address)."""
    settings.PLAYER_LOOKUP_FAILURE_LIMIT = 3
    settings.PLAYER_LOOKUP_FAILURE_LIMIT_PER_NETWORK = 5
    miss = {"start_number": "1", "surname": "Müller"}
    right = {"start_number": "17", "surname": "Müller"}
    for _ in range(3):
        client.post(_url(anna), miss, REMOTE_ADDR="2001:db8:7:1::a")
    assert client.post(_url(anna), right, REMOTE_ADDR="2001:db8:7:1::a").status_code == 429
    assert client.post(_url(anna), right, REMOTE_ADDR="2001:db8:7:1::b").status_code == 200  # beside it
    for rotated in ("2001:db8:7:1::c", "2001:db8:7:1:ffff:ffff:ffff:ffff"):
        client.post(_url(anna), miss, REMOTE_ADDR=rotated)
    assert client.post(_url(anna), right, REMOTE_ADDR="2001:db8:7:1:1234::99").status_code == 429  # five
    assert client.post(_url(anna), right, REMOTE_ADDR="2001:db8:7:2::a").status_code == 200
    for _ in range(3):
        client.post(_url(anna), miss, REMOTE_ADDR="127.0.0.5")
    assert client.post(_url(anna), right, REMOTE_ADDR="127.0.0.5").status_code == 429
    assert client.post(_url(anna), right, REMOTE_ADDR="::ffff:127.0.0.5").status_code == 429
    assert client.post(_url(anna), right, REMOTE_ADDR="127.0.0.6").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_burst_of_lookups_gets_no_more_checks_than_the_limit(settings, monkeypatch):
    """Counted before the check: 30 lookups at once against a limit of 5 get at most 5 checks."""
    from django.test import Client

    from players import views
    from tests.threads import in_parallel

    settings.PLAYER_LOOKUP_FAILURE_LIMIT = 5
    t = factories.tournament()
    checked = []
    real = views.find

    def counting(*args):
        checked.append(args)
        return real(*args)

    monkeypatch.setattr(views, "find", counting)
    answers = in_parallel(
        lambda i: Client().post(f"/me/find/{t.pk}/", {"start_number": str(i + 1), "surname": "X"}).status_code, 30
    )
    assert answers.count(200) == len(checked) <= 5 and answers.count(429) == 30 - len(checked)
    assert LookupFailure.objects.count() == len(checked)


def test_an_unpublished_practice_tournament_looks_like_any_other_number(client, anna):
    """No practice banner before publication: it would tell that the number is a tournament,
    and a rehearsal. Published, or to its director, the lookup names it and says practice."""
    banner = "A rehearsal: nothing here is a real result"
    type(anna.tournament).objects.filter(pk=anna.tournament_id).update(practice=True)
    page = client.get(_url(anna)).content.decode()
    assert banner not in page and anna.tournament.name not in page
    director = factories.user("practice-director")
    anna.tournament.directors.add(director)
    client.force_login(director)
    assert banner in client.get(_url(anna)).content.decode()
    client.logout()
    type(anna.tournament).objects.filter(pk=anna.tournament_id).update(standings_public=True)
    page = client.get(_url(anna)).content.decode()
    assert banner in page and anna.tournament.name in page
