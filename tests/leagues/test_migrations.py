"""leagues/0002: league, group, team and host names unique in any case. Twins a race let
in before get " (2)" and keep their rows; afterwards the database refuses a twin in
another case (PostgreSQL and SQLite alike)."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.migrations.executor import MigrationExecutor

from leagues.models import Group, Host, League, LeagueTeam

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("latest_schema_after")]

BEFORE = [("leagues", "0001_initial")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def test_twins_in_another_case_are_renamed_and_kept_then_refused():
    apps = _migrate(BEFORE)
    OldLeague, OldGroup = apps.get_model("leagues", "League"), apps.get_model("leagues", "Group")
    OldTeam, OldHost = apps.get_model("leagues", "LeagueTeam"), apps.get_model("leagues", "Host")
    first = OldLeague.objects.create(name="Verbandsliga", season="2026")
    OldLeague.objects.create(name="VERBANDSLIGA", season="2026")
    OldLeague.objects.create(name="Verbandsliga", season="2027")  # another season: no twin
    group = OldGroup.objects.create(league=first, name="Staffel 1")
    OldGroup.objects.create(league=first, name="staffel 1")
    OldGroup.objects.create(league=first, name="Staffel 1 (2)")  # the name a twin would get
    OldTeam.objects.create(group=group, name="SC Herz Dame")
    OldTeam.objects.create(group=group, name="sc herz dame")
    OldTeam.objects.create(group=group, name="SC HERZ DAME")
    long_name = "K" * 120
    OldHost.objects.create(league=first, name=long_name, token_digest="a" * 64)
    OldHost.objects.create(league=first, name=long_name.lower(), token_digest="b" * 64)

    _migrate(_latest())

    assert sorted(League.objects.values_list("name", "season")) == [
        ("VERBANDSLIGA (2)", "2026"),
        ("Verbandsliga", "2026"),
        ("Verbandsliga", "2027"),
    ]
    assert sorted(Group.objects.values_list("name", flat=True)) == ["Staffel 1", "Staffel 1 (2)", "staffel 1 (3)"]
    assert sorted(LeagueTeam.objects.values_list("name", flat=True)) == [
        "SC HERZ DAME (3)",
        "SC Herz Dame",
        "sc herz dame (2)",
    ]
    hosts = sorted(Host.objects.values_list("name", flat=True))
    assert hosts == [long_name, "k" * 116 + " (2)"] and all(len(name) <= 120 for name in hosts)

    league = League.objects.get(name="Verbandsliga", season="2026")
    for make in (
        lambda: League.objects.create(name="verbandsLIGA", season="2026"),
        lambda: Group.objects.create(league=league, name="STAFFEL 1"),
        lambda: LeagueTeam.objects.create(group=league.groups.get(name="Staffel 1"), name="sc HERZ dame"),
        lambda: Host.objects.create(league=league, name=long_name.lower(), token_digest="c" * 64),
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            make()


def test_a_match_day_checked_before_the_deadline_was_stored_gets_the_one_its_period_gives():
    """leagues/0004: the check's deadline is stored from then on; a match day checked before
    keeps the deadline the league's period gave at the migration. A tournament a host
    published without a match day leaves the front page."""
    import datetime

    from django.utils import timezone

    apps = _migrate([("leagues", "0003_names_a_person_can_read")])
    OldLeague, OldGroup = apps.get_model("leagues", "League"), apps.get_model("leagues", "Group")
    OldMatchDay = apps.get_model("leagues", "MatchDay")
    league = OldLeague.objects.create(name="Landesliga", season="2026", binding_days=10)
    group = OldGroup.objects.create(league=league, name="Nord")
    checked = timezone.now() - datetime.timedelta(days=3)
    OldMatchDay.objects.create(group=group, number=1, date=datetime.date(2026, 9, 5), checked_at=checked)
    OldMatchDay.objects.create(group=group, number=2, date=datetime.date(2026, 9, 12))
    OldHost, OldPublication = apps.get_model("leagues", "Host"), apps.get_model("leagues", "Publication")
    # The tournaments app stays at its latest migration (only the leagues went back): its model
    # as it is now, not the state leagues/0003 knew (which lacks later columns such as practice).
    from tournaments.models import Tournament as NowTournament

    stray = NowTournament.objects.create(name="Landesliga · Nord · 1", date=datetime.date(2026, 9, 5))
    host = OldHost.objects.create(league=league, name="SC Pik As", token_digest="d" * 64)
    OldPublication.objects.create(host=host, digest="e" * 64, tournament_id=stray.pk)

    _migrate(_latest())

    from leagues.models import MatchDay

    first, second = MatchDay.objects.order_by("number")
    assert first.binding_due == checked + datetime.timedelta(days=10) and second.binding_due is None
    from tournaments.models import Tournament

    assert Tournament.objects.get(pk=stray.pk).archived  # stored stand-alone: off the front page
