"""The league manager removes a host's publication: its results no longer count (5.5.3:
the Staffelleiter checks the lists), recorded with who, when and why.

The match day gets an empty tournament again (the host publishes a corrected file, or the
manager enters the match day on the server); the removed tournament is archived (off the
front page, kept as evidence) and the publication stays, marked removed with the reason,
so a resend of the same file is refused naming it. A binding match day keeps its result.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from skat.rules import RuleError, gettext_noop
from tournaments.models import Tournament

from .lineups import empty_tournament
from .models import LeagueEvent, MatchDay, Publication


def remove(publication: Publication, *, user, reason: str) -> Publication:
    """Remove the publication's results from its match day, audited with the reason."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise RuleError("reason", gettext_noop("say why the publication is removed"), "league")
    with transaction.atomic():
        publication = Publication.objects.select_for_update().select_related("host").get(pk=publication.pk)
        if publication.rejected_at is not None:
            raise RuleError("publication", gettext_noop("the publication is removed already"), "league")
        if publication.match_day_id is None:
            raise RuleError("publication", gettext_noop("the publication counts for no match day"), "league")
        match_day = (
            MatchDay.objects.select_for_update(of=("self",))
            .select_related("group__league", "host")
            .get(pk=publication.match_day_id)
        )
        if match_day.binding:
            raise RuleError(
                "publication",
                gettext_noop("match day {number} is binding: its results can no longer be removed"),
                "league",
                number=match_day.number,
            )
        old = match_day.tournament
        if old is not None and old.pk == publication.tournament_id:
            match_day.tournament = empty_tournament(
                match_day.group,
                number=match_day.number,
                date=match_day.date,
                host=match_day.host,
                teams=list(match_day.teams.all()),
            )
            match_day.checked_at = match_day.binding_due = match_day.checked_by = None
            match_day.save(update_fields=["tournament", "checked_at", "binding_due", "checked_by"])
            match_day.substitutions.all().delete()
            # Kept as the evidence of what was removed, off the front page (its corrections stay).
            Tournament.objects.filter(pk=old.pk).update(archived=True)
        publication.rejected_at = timezone.now()
        publication.rejected_by = user
        publication.rejection = reason[:500]
        publication.save(update_fields=["rejected_at", "rejected_by", "rejection"])
        note = f"{publication.host.name}, {publication.received_at:%Y-%m-%d %H:%M}: {reason}"
        LeagueEvent.objects.create(match_day=match_day, kind=LeagueEvent.Kind.REJECTED, user=user, note=note[:500])
    return publication
