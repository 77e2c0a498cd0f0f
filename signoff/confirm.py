"""Confirming a table's sheet: every player with a PIN, or the scorekeeper's "signed on paper".

When the table's last deal is entered the sheet awaits confirmation (also when the
director finished the series early). Each player confirms the sheet *as it stands*: the
confirmation stores the sheet's fingerprint (every game's number, version and void mark),
so a correction of the last deal after someone confirmed needs that player again. When
every seat has confirmed the current sheet, or the sheet is marked signed on paper, a
:class:`SignOff` locks it: the table link can no longer change it (5.5.3), only a
referee's correction can.

Wrong PINs are throttled per seat: :data:`PIN_ATTEMPTS` wrong PINs for one seat within
:data:`PIN_LOCK` lock that seat's PIN entry until the oldest of them is that old. A lock
belongs to the seat whose PIN was guessed: a lock on seat 1 never refuses seat 2's right
PIN. There is no table-wide cap on purpose: one would let a holder of the table link
lock every player out with a handful of requests, while the per-seat cap already bounds
the guesses at any one signature to :data:`PIN_ATTEMPTS` per :data:`PIN_LOCK` (each a 1
in 10,000 chance). A link holder who guesses at every seat locks every seat, one by one;
the table still has its way to confirm: the page names each locked seat and whom to call,
and the director or a referee lifts a seat's lock (:func:`lift_pin_lock`, the referees'
table page) or marks the sheet signed on paper. A refusal while locked is not counted,
so it never prolongs the lock.

While the table's second list differs from the sheet (scoring.lists), the players cannot
confirm: the scorekeepers bring their lists in line, or a referee decides that the sheet
stands as it is (:func:`accept_sheet`; DOMAIN: the seat-1 list counts unless the players
or a referee agree otherwise).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.lists import differing_deals, number_ranges
from scoring.models import ControlEntry, Game
from tournaments.models import Series, Table

from .models import ListsAccepted, PinFailure, SeatConfirmation, SignOff
from .pins import pin_matches

PIN_ATTEMPTS = 5
PIN_LOCK = timedelta(minutes=10)


class SignOffRefused(Exception):
    """A confirmation that cannot be taken; the message says why, in the reader's language."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


@dataclass(slots=True)
class SignOffState:
    """Where a table's sheet stands: what the table page and the tiles show."""

    entered: int
    deals: int
    series_finished: bool
    signoff: SignOff | None
    confirmed_seats: frozenset[int] = field(default_factory=frozenset)
    #: Seats whose PIN entry is locked, and until when.
    locked_seats: dict[int, datetime] = field(default_factory=dict)
    #: Deals where the second list differs from the sheet and no referee has decided.
    lists_differ: tuple[int, ...] = ()
    #: The sheet's deals a second list kept at the table does not hold (a partial list),
    #: and no referee has decided that the sheet stands without them.
    list_missing: tuple[int, ...] = ()

    @property
    def complete(self) -> bool:
        return self.entered >= self.deals

    @property
    def confirmable(self) -> bool:
        """The last deal is entered, or the series was finished with games on the sheet."""
        return confirmable(entered=self.entered, deals=self.deals, series_finished=self.series_finished)

    @property
    def confirmed(self) -> bool:
        return self.signoff is not None

    @property
    def awaiting(self) -> bool:
        return self.confirmable and not self.confirmed

    @property
    def blocked(self) -> bool:
        """The lists differ, or the second list is not complete: nobody confirms until
        they agree or a referee decides."""
        return self.awaiting and bool(self.lists_differ or self.list_missing)


def confirmable(*, entered: int, deals: int, series_finished: bool) -> bool:
    """5.5.3: a sheet is confirmed once its last deal is entered, or once the director
    finished the series with games on it. Until it is confirmed, it awaits confirmation.

    The one statement of this rule: the table link, the dashboard's tiles and the
    referees' board all ask here.
    """
    return entered >= deals or (series_finished and entered > 0)


def fingerprint(table: Table) -> str:
    """The sheet as it stands now: any entry, correction or void changes it."""
    rows = Game.objects.filter(table=table).order_by("number").values_list("pk", "number", "version", "voided")
    text = ";".join(f"{pk}:{number}:{version}:{int(voided)}" for pk, number, version, voided in rows)
    return hashlib.sha256(text.encode()).hexdigest()


def signoff_of(table: Table) -> SignOff | None:
    """The table's sign-off, None while its sheet is not confirmed (5.5.3)."""
    return SignOff.objects.filter(table=table).first()


def is_signed(table: Table) -> bool:
    """Whether the sheet is confirmed and so locked against the table link (5.5.3)."""
    return SignOff.objects.filter(table=table).exists()


#: ``state(signoff=...)`` not given: read it.
UNREAD = object()


def state(
    table: Table, *, entered: int | None = None, now: datetime | None = None, signoff: object = UNREAD
) -> SignOffState:
    """The table's sign-off state (a few small queries; the table page shows one table).

    ``signoff``: the table's SignOff (or None) when the caller read it already, e.g. under
    the table's lock while saving a deal (scoring.entry): not read a second time."""
    if entered is None:
        entered = Game.objects.filter(table=table).count()
    if signoff is UNREAD:
        signoff = SignOff.objects.filter(table=table).first()
    result = SignOffState(
        entered=entered,
        deals=table.deals,
        series_finished=table.series.status == Series.Status.FINISHED,
        signoff=signoff,
    )
    if signoff is None and result.confirmable:
        current = fingerprint(table)
        result.confirmed_seats = frozenset(
            SeatConfirmation.objects.filter(table=table, fingerprint=current).values_list("seat_number", flat=True)
        )
        result.locked_seats = locked_seats(table, now or timezone.now())
        result.lists_differ, result.list_missing = undecided(table, current)
    return result


def locked_seats(table: Table, now: datetime) -> dict[int, datetime]:
    """{seat: when its PIN entry opens again} for the seats locked now (one query)."""
    return locked_seats_of(PinFailure.objects.filter(table=table), now).get(table.pk, {})


def locked_seats_of(failures, now: datetime) -> dict[int, dict[int, datetime]]:
    """{table id: {seat: when its PIN entry opens again}} for the seats locked now among
    ``failures`` (a PinFailure queryset: one table's, or a series' for the dashboard), one query."""
    times: dict[tuple[int, int], list[datetime]] = {}
    for table_id, seat, at in failures.filter(at__gt=now - PIN_LOCK, seat_number__isnull=False).values_list(
        "table_id", "seat_number", "at"
    ):
        times.setdefault((table_id, seat), []).append(at)
    locked: dict[int, dict[int, datetime]] = {}
    for (table_id, seat), seen in times.items():
        if len(seen) >= PIN_ATTEMPTS:
            # The lock lasts until the oldest of the last PIN_ATTEMPTS failures is PIN_LOCK old.
            locked.setdefault(table_id, {})[seat] = sorted(seen)[-PIN_ATTEMPTS] + PIN_LOCK
    return locked


def lift_pin_lock(table: Table, seat_number: int) -> int:
    """The director or a referee lifts a seat's PIN lock: its recent failures are
    forgotten. The number of failures removed (0: the seat was not locked)."""
    with transaction.atomic():
        _lock_table(table)
        deleted, _rows = PinFailure.objects.filter(table=table, seat_number=seat_number).delete()
    return deleted


def missing_deals(table: Table) -> list[int]:
    """The sheet's deals a second list kept at this table does not hold: none when no
    second list is kept (it has no entry). A list holding 6 of 48 deals agrees with the
    sheet on nothing else; the sheet is not confirmed over it unnoticed (5.5.3)."""
    held = set(ControlEntry.objects.filter(table=table).values_list("number", flat=True))
    if not held:
        return []
    return sorted(set(Game.objects.filter(table=table).values_list("number", flat=True)) - held)


def _deal_versions(table: Table, numbers) -> dict[str, list]:
    """{deal number: [pk, version, voided]} of the sheet's deals ``numbers``: what a
    referee's decision on them holds for (one query)."""
    rows = Game.objects.filter(table=table, number__in=list(numbers)).values_list("number", "pk", "version", "voided")
    return {str(number): [pk, version, bool(voided)] for number, pk, version, voided in rows}


def undecided(table: Table, current: str | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the deals where the lists differ, the deals the second list misses), unless a
    referee accepted the sheet over all of them: then both are empty.

    A decision holds for the deals it decided as long as each stands as it stood then
    (its pk, version and void mark): a correction of another deal, say the last one,
    leaves it standing. A decision kept before these were recorded holds for the whole
    sheet as it stood (``current``: its fingerprint)."""
    differing = differing_deals([table.pk]).get(table.pk, [])
    missing = missing_deals(table)
    if not differing and not missing:
        return (), ()
    open_deals = set(differing) | set(missing)
    decisions = list(ListsAccepted.objects.filter(table=table).values_list("deals", "deal_versions", "fingerprint"))
    if decisions:
        now = _deal_versions(table, {n for deals, _versions, _print in decisions for n in deals})
        for deals, versions, printed in decisions:
            if not open_deals <= set(deals):
                continue
            if versions:
                if all(now.get(str(number)) == versions.get(str(number)) for number in deals):
                    return (), ()
            elif printed == (current or fingerprint(table)):
                return (), ()
    return tuple(differing), tuple(missing)


def accept_sheet(table: Table, *, by: str, reason: str) -> ListsAccepted:
    """A referee decides that the sheet stands as it is although the second list differs
    or holds only some of its deals (the second list dropped): the players may then
    confirm it (DOMAIN: the seat-1 list counts)."""
    reason = (reason or "").strip()
    if not reason:
        raise SignOffRefused(_("Why: say why the sheet stands as it is (4.5.10)."))
    with transaction.atomic():
        _lock_table(table)
        if is_signed(table):
            raise SignOffRefused(_("5.5.3: this sheet is already confirmed; only a referee can change it now."))
        differing = differing_deals([table.pk]).get(table.pk, []) + missing_deals(table)
        if not differing:
            raise SignOffRefused(_("The second list does not differ from the sheet: there is nothing to decide."))
        return ListsAccepted.objects.create(
            table=table,
            fingerprint=fingerprint(table),
            deals=sorted(differing),
            deal_versions=_deal_versions(table, differing),
            accepted_by=by[:150],
            reason=reason,
        )


def _lock_table(table: Table) -> None:
    # Serialise sign-offs per table (PostgreSQL row lock; SQLite's IMMEDIATE transactions).
    Table.objects.lock(table.pk)


def _check_confirmable(table: Table, current: SignOffState) -> None:
    if current.confirmed:
        raise SignOffRefused(_("5.5.3: this sheet is already confirmed; only a referee can change it now."))
    if not current.confirmable:
        raise SignOffRefused(
            _("The sheet can be confirmed once its last deal is entered (%(entered)s of %(deals)s).")
            % {"entered": current.entered, "deals": current.deals}
        )
    if current.lists_differ:
        raise SignOffRefused(lists_differ_text(current.lists_differ))
    if current.list_missing:
        raise SignOffRefused(list_missing_text(current.list_missing, current.entered))


def lists_differ_text(deals) -> str:
    """Why nobody can confirm yet: the second list differs (DOMAIN: two lists per table)."""
    return ngettext(
        "5.5.3: the second list differs from the sheet at deal %(deals)s. The scorekeepers bring "
        "their lists in line, or a referee decides, before the sheet is confirmed.",
        "5.5.3: the second list differs from the sheet at deals %(deals)s. The scorekeepers bring "
        "their lists in line, or a referee decides, before the sheet is confirmed.",
        len(deals),
    ) % {"deals": ", ".join(map(str, deals))}


def list_missing_text(missing, entered: int) -> str:
    """Why nobody can confirm yet: the second list holds only some of the sheet's deals."""
    held = entered - len(missing)
    return ngettext(
        "5.5.3: the second list holds %(held)s of the sheet's %(entered)s deals; deals %(missing)s are "
        "missing. Its scorekeeper enters them, or a referee decides that the sheet stands without them, "
        "before the sheet is confirmed.",
        "5.5.3: the second list holds %(held)s of the sheet's %(entered)s deals; deals %(missing)s are "
        "missing. Its scorekeeper enters them, or a referee decides that the sheet stands without them, "
        "before the sheet is confirmed.",
        held,
    ) % {"held": held, "entered": entered, "missing": number_ranges(missing)}


def confirm_seat(table: Table, seat_number: int, pin: str, *, now: datetime | None = None) -> SignOffState:
    """Confirm the current sheet for one seat with its PIN; sign off when every seat has.

    Raises :class:`SignOffRefused` for a wrong PIN (recorded: it counts towards the lock),
    while PIN entry is locked, or when the sheet cannot be confirmed now.
    """
    now = now or timezone.now()
    seats = dict(table.seats.values_list("number", "player__name"))
    wrong = False
    with transaction.atomic():
        _lock_table(table)
        current = state(table, now=now)
        _check_confirmable(table, current)
        if seat_number not in seats:
            raise SignOffRefused(_("Seat %(seat)s is not at this table; choose your name.") % {"seat": seat_number})
        if seat_number in current.locked_seats:
            raise SignOffRefused(locked_text(seat_number, seats[seat_number], current.locked_seats[seat_number]))
        if not pin_matches(table, seat_number, pin):
            # Counted before the table's lock is released, so a burst of guesses queued
            # behind it sees every earlier one: no more than PIN_ATTEMPTS ever get checked.
            PinFailure.objects.create(table=table, seat_number=seat_number)
            wrong = True
        else:
            sheet = fingerprint(table)
            SeatConfirmation.objects.get_or_create(table=table, seat_number=seat_number, fingerprint=sheet)
            confirmed = set(
                SeatConfirmation.objects.filter(table=table, fingerprint=sheet).values_list("seat_number", flat=True)
            )
            if confirmed >= set(seats):
                SignOff.objects.create(table=table, fingerprint=sheet, confirmed_by=_("every player's PIN"))
    if wrong:
        # Refused only now, after the transaction committed the failure.
        locked_until = locked_seats(table, now).get(seat_number)
        if locked_until is not None:
            raise SignOffRefused(locked_text(seat_number, seats[seat_number], locked_until, wrong=True))
        raise SignOffRefused(
            _("Wrong PIN for %(name)s: check the PIN on your PIN slip and type it again.")
            % {"name": seats[seat_number]}
        )
    return state(table, now=now)


def mark_on_paper(table: Table, *, by: str) -> SignOff:
    """The players signed the printed sheet: confirm it as it stands. Only the director or
    a referee marks it (referees' table page): it locks everyone's PIN confirmation."""
    try:
        with transaction.atomic():
            _lock_table(table)
            _check_confirmable(table, state(table))
            return SignOff.objects.create(table=table, fingerprint=fingerprint(table), on_paper=True, confirmed_by=by)
    except IntegrityError:  # a second device marked it at the same moment
        raise SignOffRefused(_("5.5.3: this sheet is already confirmed; only a referee can change it now.")) from None


def locked_text(seat: int, name: str, until: datetime, *, wrong: bool = False) -> str:
    """Why a seat cannot confirm now, and whom to call (5.5.3): the seat, its player, until
    when, and that the director or a referee lifts the lock."""
    values = {"seat": seat, "name": name, "time": time_format(timezone.localtime(until), "H:i")}
    if wrong:
        return (
            _(
                "Wrong PIN. Seat %(seat)s (%(name)s): too many wrong PINs, PIN entry is locked until %(time)s. "
                "Call the director or a referee: they lift the lock."
            )
            % values
        )
    return (
        _(
            "Seat %(seat)s (%(name)s): too many wrong PINs, PIN entry is locked until %(time)s. "
            "Call the director or a referee: they lift the lock."
        )
        % values
    )


def every_seat_locked_text() -> str:
    """No player still to confirm can type his PIN: the table calls for help (5.5.3)."""
    return _(
        "5.5.3: PIN entry is locked for every player still to confirm. Call the director or a referee: "
        "on the referees' table page they lift a seat's lock, or mark the sheet signed on paper once "
        "the players have signed the printed sheet."
    )
