"""Saving games from the table: exactly once, in deal order, never silently overwritten.

Two phones, a double tap or a resend after a dropped connection all carry the
``client_id`` made when the form was shown: the same id returns the game already
saved instead of making a second one. A different entry for a deal that already has
a game is refused with the rule, and a correction whose version is stale is refused
so the later writer is told rather than overwriting. The second list kept at the table
(:class:`scoring.models.ControlEntry`, through its own link) is saved by the same
functions under the same rules: the form's model says which list it is.
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.db import IntegrityError, connections, transaction
from django.db.models import Count, IntegerField, Max, OuterRef, Q, Subquery, Sum, Value

from skat.rules import RuleError, gettext_noop
from tournaments.models import Series, Table

from . import hooks, lists, services, sheet_versions
from .compiled import Compiled
from .forms import GameForm
from .models import ConflictingEntry, ControlEntry, Game, ResultsMark, ScoresheetLine


class DealTaken(RuleError):
    """The deal was entered meanwhile under another client id: another phone (or an
    older form on this one) has it. The table link answers with the sheet as it is and
    a fresh form, not with a refusal to correct."""


#: SQLite lets one writer in at a time; a writer that finds the database locked sleeps
#: in growing steps (up to 100 ms) before it looks again, so under a hall's load the lock
#: stood free while the writers slept, and an entry waited for that (a sampling profile
#: at three times the hall: a fifth of an entry's time in BEGIN). The threads of one
#: serving process take turns here instead, each woken the moment the one before is
#: done: at most one writer per process waits on SQLite's lock.
_ONE_WRITER = threading.Lock()


@contextmanager
def _writer() -> Iterator[None]:
    """This process's turn to write on SQLite (:data:`_ONE_WRITER`); on PostgreSQL writers
    of different tables go in at once (each table's row lock, Table.objects.lock).

    Not taken inside a transaction (the office grid saves its rows in one, scoring.grid):
    that transaction holds SQLite's write lock already (IMMEDIATE), and waiting here for
    a thread that holds this lock while it waits for SQLite's would stall both, the
    other until SQLite's busy timeout fails its entry ("database is locked")."""
    connection = connections["default"]
    if connection.vendor != "sqlite" or connection.in_atomic_block:
        yield
        return
    with _ONE_WRITER:
        yield


@dataclass(frozen=True, slots=True)
class Saved:
    """A deal saved (``created``) or found saved already. ``version_before``/``version_after``:
    the list's version (:func:`scoring.sheet_versions.read`) just before and just after this deal's insert, under
    the table's lock (None for a deal found saved): the table link answers lean only to a
    page at ``version_before`` (tablelink.answers), and its next form carries ``version_after``."""

    game: Game
    created: bool
    version_before: str | None = None
    version_after: str | None = None


def next_deal(table: Table, model: type[ScoresheetLine] = Game) -> int:
    """The deal the table enters next on its sheet, or on its second list (``model``
    ControlEntry) (3.2.1: deals are played in turn)."""
    return (model.objects.filter(table=table).aggregate(m=Max("number"))["m"] or 0) + 1


@dataclass(frozen=True, slots=True)
class _Current:
    """The table as it is under its lock, read in one query: what an entry is checked against."""

    token: str | None  # None: the table is gone
    control_token: str | None
    signed: bool
    last: int  # the list's last deal number (0: none yet)
    existing: int | None  # the pk of this client id's entry on the list, if saved already
    version: tuple = (None,)  # sheet_versions' values: the mark, or (count, sum of versions, largest id)


def _current_query(model: type[ScoresheetLine], with_client_id: bool) -> Callable:
    """The query of :func:`_current` for ``model``, a table's pk and (``with_client_id``) a client id."""

    def build(pk: int, client_id: uuid.UUID | None = None):
        entries = model.objects.filter(table=OuterRef("pk")).order_by()
        existing = (
            Subquery(entries.filter(client_id=client_id).values("pk")[:1])
            if with_client_id
            else Value(None, output_field=IntegerField())
        )
        per_table = entries.values("table")
        if model is Game:  # sheet_versions: the table's results mark
            mark = ResultsMark.objects.filter(tournament_id=OuterRef("series__tournament_id"), scope=OuterRef("pk"))
            version = {"mark": Subquery(mark.values("version")[:1])}
        else:  # the second list's: its entries' count, sum of versions, largest id
            version = {
                "count": Subquery(per_table.annotate(n=Count("pk")).values("n")[:1]),
                "total": Subquery(per_table.annotate(s=Sum("version")).values("s")[:1]),
                "top": Subquery(per_table.annotate(t=Max("pk")).values("t")[:1]),
            }
        return (
            Table.objects.filter(pk=pk)
            .order_by()
            .annotate(
                last=Subquery(per_table.annotate(m=Max("number")).values("m")[:1]),
                existing=existing,
                signed=hooks.sheet_signed(),
                **version,
            )
            .values_list("token", "control_token", "signed", "last", "existing", *version)
        )

    return build


def _prepared(model: type[ScoresheetLine]) -> Callable:
    client_id_field = model._meta.get_field("client_id")

    def prepare(pk: int, client_id: uuid.UUID | None = None, *, connection) -> list:
        values = [int(pk)]
        if client_id is not None:
            values.append(client_id_field.get_db_prep_value(client_id, connection))
        return values

    return prepare


#: The table as it is under its lock, per list and whether a client id is asked: compiled
#: once (scoring.compiled), since every deal of every table asks it under the lock.
_CURRENT = {
    (model, with_id): Compiled(
        _current_query(model, with_id),
        (-7, uuid.UUID(int=7)) if with_id else (-7,),
        _prepared(model),
        variant=lambda: hooks.sheet_signed.filled_by,
    )
    for model in (Game, ControlEntry)
    for with_id in (False, True)
}


def _current(table: Table, model: type[ScoresheetLine] = Game, client_id: uuid.UUID | None = None) -> _Current:
    """The table's links, whether its sheet is signed, the list's last deal and (``client_id``)
    the entry already saved under that id: one query, not one each, since every deal a phone
    enters asks all of them under the table's lock (writers wait for each other there)."""
    query = _CURRENT.get((model, client_id is not None))
    if query is None:  # another list's model: built as it comes
        rows = list(_current_query(model, client_id is not None)(table.pk, client_id)[:1])
    elif client_id is None:
        rows = query.rows(table.pk)
    else:
        rows = query.rows(table.pk, client_id)
    if not rows:
        return _Current(None, None, False, 0, None)
    token, control_token, signed, last, found, *version = rows[0]
    return _Current(token, control_token, bool(signed), last or 0, found, tuple(version))


def _check_open(table: Table, current: _Current | None = None) -> None:
    series = table.series
    if series.status == Series.Status.FINISHED:
        raise RuleError(
            "number",
            gettext_noop("series {series} is finished; a referee corrects it now"),
            "5.5.3",
            series=series.number,
        )
    # Read under the table's lock: its links as they are now, and the sheet's sign-off.
    current = current or _current(table)
    if (current.token, current.control_token) != (table.token, table.control_token):
        # The director changed the table's seats after the draw (draw.seating) or
        # replaced its link while this deal was on its way: it belongs to no sheet now.
        raise RuleError(
            "number",
            gettext_noop("this table was changed meanwhile (new players or a new link); scan its new table card"),
            "3.1.2",
        )
    # The sheet's sign-off (signoff.confirm): a confirmed sheet is locked against the table link.
    if current.signed:
        raise RuleError(
            "number",
            gettext_noop("the players confirmed this sheet; only a referee can change it now"),
            "5.5.3",
        )


def add_game(form: GameForm, *, entered_by: str) -> Saved:
    """Save the new game of a valid ``form`` once; raise RuleError when the deal is taken.

    The form's model is :class:`Game` for the sheet, :class:`ControlEntry` for the
    second list: each list has its own deal order and its own client ids.
    """
    game: ScoresheetLine = form.instance
    model = type(game)
    table = form.table
    client_id = form.cleaned_data.get("client_id") or uuid.uuid4()
    try:
        with _writer(), transaction.atomic():
            # Serialise entries per table (PostgreSQL row lock; SQLite's IMMEDIATE
            # transactions already serialise every writer).
            Table.objects.lock(table.pk)
            # A resend, a double tap, or a twin that waited for the lock: the game saved
            # under this client id is the answer, not "deal already entered". Looked up
            # only under the lock, where no twin can be half-way.
            current = _current(table, model, client_id)
            if current.existing is not None:
                return Saved(model.objects.get(pk=current.existing), created=False)
            _check_open(table, current)
            expected = current.last + 1
            if game.number < expected:
                raise DealTaken(
                    "number",
                    gettext_noop("deal {deal} is already entered; correct the last deal instead"),
                    "5.5.3",
                    deal=game.number,
                )
            if game.number > expected:
                raise RuleError(
                    "number",
                    gettext_noop("deal {expected} comes before deal {deal}"),
                    "3.2.1",
                    expected=expected,
                    deal=game.number,
                )
            game.client_id = client_id
            game.entered_by = entered_by[:80]
            services.save_deal(game, locked=True)  # valued by the engine here, under the lock
            if table.series.status == Series.Status.DRAWN:  # the series' first deal starts it
                Series.objects.filter(pk=table.series_id, status=Series.Status.DRAWN).update(
                    status=Series.Status.RUNNING
                )
        version_after = sheet_versions.after(model, current.version, game)
    except IntegrityError:
        # A concurrent request saved the same client id or the same deal first.
        existing = model.objects.filter(client_id=client_id, table=table).order_by().first()
        if existing is not None:
            return Saved(existing, created=False)
        # The same deal, stored by another device a moment ago; else a client id that
        # belongs to another table (reused or forged), refused as it is.
        taken = model.objects.filter(table=table, number=game.number).exists()
        raise (DealTaken if taken else RuleError)(
            "number", gettext_noop("deal {deal} was just entered from another device"), "5.5.3", deal=game.number
        ) from None
    return Saved(game, True, sheet_versions.text(model, current.version), version_after)


def differing_fields(a: ScoresheetLine, b: ScoresheetLine) -> bool:
    """Whether two entries of one deal differ in anything entered (or in what it scored)."""
    return any(getattr(a, name) != getattr(b, name) for name in (*Game.ENTERED_FIELDS, "score"))


#: The most entries with other values kept per deal (as the sheet stands): a table has
#: four players, so four devices at most send their own.
MAX_CONFLICTS = 4


def taken_by(form: GameForm, *, entered_by: str) -> ScoresheetLine | None:
    """The stored entry of the deal a refused ``form`` (DealTaken) sent, to compare with.

    When the sheet's line of the deal differs from what this device sent, the device's
    values are kept as a :class:`ConflictingEntry`: the lists differ (the dashboard counts
    it, the players cannot confirm) until the table corrects the deal or a referee
    decides. The same line is no difference, as between the two lists (scoring.lists): two
    phones on one link that counted 61 and 62 card points of the same won grand wrote the
    same line of the sheet. A resend of the same entry (its client id) is kept once. The
    second list only says so: it counts nothing, and its keeper corrects his own list.
    """
    sent: ScoresheetLine = form.instance
    model = type(sent)
    stored = model.objects.filter(table=form.table, number=sent.number).first()
    if stored is None or model is not Game or lists.line(sent) == lists.line(stored):
        return stored
    client_id = form.cleaned_data.get("client_id") or uuid.uuid4()
    values = {name: getattr(sent, name) for name in services.STORED_FIELDS}
    kept = ConflictingEntry.objects.filter(table=form.table, number=sent.number, sheet_version=stored.version)
    # Bounded: the same values again (a new client id each time) are kept once, and at
    # most MAX_CONFLICTS other entries per deal: anyone holding the link cannot grow
    # the table without end by sending (5.5.3: the table or a referee settles it anyway).
    if not (
        ConflictingEntry.objects.filter(client_id=client_id).exists()
        or kept.filter(**{name: values[name] for name in Game.ENTERED_FIELDS}).exists()
        or kept.count() >= MAX_CONFLICTS
    ):
        try:
            with transaction.atomic():
                services.save_deal(
                    ConflictingEntry(
                        table=form.table,
                        number=sent.number,
                        client_id=client_id,
                        entered_by=entered_by[:80],
                        sheet_version=stored.version,
                        **values,
                    )
                )
        except IntegrityError:  # the same resend twice at once, or a forged id
            pass
    return stored


def correct_last_game(form: GameForm, *, entered_by: str) -> ScoresheetLine:
    """Replace the table's last game with the form's (5.5.3: corrections while the
    session lasts), on the sheet or on the second list (the form's model; there any of
    its deals). A stale ``version`` means someone else changed it meanwhile.

    The deal is loaded and checked under the table's lock: the view built the form on
    the deal it read before the lock, and a new entry may have been saved in between.
    Checking only the posted number let a correction meant for the new deal rewrite the
    one before it, so the deal the form holds must still be the deal of that
    number, and on the sheet still its last. A correction with the values the deal has
    already stores nothing and returns the deal as it is.
    """
    game: ScoresheetLine = form.instance
    model = type(game)
    with _writer(), transaction.atomic():
        Table.objects.lock(form.table.pk)
        _check_open(form.table)
        # The sheet: only its last deal (5.5.3). The second list counts nothing: any of
        # its deals, so its keeper can bring it in line with the sheet.
        last = next_deal(form.table, model) - 1
        if game.number != last if model is Game else not 1 <= game.number <= last:
            raise RuleError(
                "number", gettext_noop("only the last deal can be corrected at the table; ask a referee"), "5.5.3"
            )
        stored = model.objects.filter(table=form.table, number=game.number).values_list("pk", flat=True).first()
        if stored != game.pk:
            raise RuleError(
                "number",
                gettext_noop("the sheet changed meanwhile: deal {deal} is not the deal you were correcting; reload"),
                "5.5.3",
                deal=game.number,
            )
        decided = Q(voided=True) | hooks.corrected()
        if model is Game and Game.objects.filter(pk=game.pk).filter(decided).exists():
            raise RuleError(
                "number",
                gettext_noop("a referee decided deal {deal}; only a referee can change it"),
                "5.5.3",
                deal=game.number,
            )
        # A correction that changes nothing changes nothing: no new version, so the sheet's
        # fingerprint, the players' PINs given for it and a referee's decision stand.
        before = model.objects.get(pk=game.pk)
        if not differing_fields(game, before):
            return before
        seen = form.cleaned_data.get("version")
        version = seen if seen is not None else game.version
        # Valued by the engine again here, under the lock, and written if still at that version.
        if not services.rewrite_deal(game, version=version, entered_by=entered_by, locked=True):
            raise RuleError(
                "version",
                gettext_noop("this deal was changed on another device meanwhile; reload and check it"),
                "5.5.3",
            )
    game.refresh_from_db()
    return game
