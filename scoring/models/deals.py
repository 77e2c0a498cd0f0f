"""Games as the scoresheet records them (5.5.2), valued by the rules engine at save.

A game's value, score, won/lost and overbid are never typed in: :meth:`ScoresheetLine.save` asks
the engine (:meth:`ScoresheetLine.apply_rules`, :func:`skat.rules.evaluate`) and stores the answer,
and what bypasses ``save()`` goes through :mod:`scoring.services`, which values first. So
the standings only add up stored numbers (per seat, kept by triggers: :class:`SeatTotal`)
and no second place computes a game value.
"""

from __future__ import annotations

import uuid

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from skat import rules, terms
from skat.rules import gettext_noop
from skat.sheet import active_seats, dealer_seat

from .. import hooks
from .constraints import SkipsConstraintsLeftOut


class GameQuerySet(models.QuerySet):
    def played(self) -> GameQuerySet:
        return self.filter(passed_out=False)

    def for_sheet(self) -> GameQuerySet:
        """Without the fields no sheet shows (who entered a deal, its client id, when): the
        table link reads its whole list on every deal entered, and each field of each row
        costs its conversion (docs: Benchmarks)."""
        return self.defer(*UNSHOWN_FIELDS)

    def with_correction_reason(self) -> GameQuerySet:
        """Annotate ``correction_reason``: the reason of the game's latest referee correction,
        None if a referee never changed it (the referees app fills :data:`scoring.hooks.correction_reason`).

        A subquery of the games' own query, so marking corrected deals on a sheet costs no
        query of its own (the table link's requests are counted).
        """
        return self.annotate(correction_reason=hooks.correction_reason())


IRREGULARITY_CHOICES = [
    (rules.Irregularity.DECLARER.value, _("the declarer (the opponents win)")),
    (rules.Irregularity.OPPONENTS.value, _("the opponents (the declarer wins)")),
]


#: The fields of a deal no scoresheet shows (GameQuerySet.for_sheet).
UNSHOWN_FIELDS = ("client_id", "entered_by", "created_at", "updated_at")


#: What ``entered_by`` holds when no user entered the deal: a code, shown translated.
TABLE_LINK = "table-link"
SHEET_IMPORT = "sheet-import"
ENTERED_BY_CODES = {TABLE_LINK: _("table link"), SHEET_IMPORT: _("sheet import")}


#: A deal is passed out (no declarer, scoring nothing) or has its declarer (5.5.1): a
#: check constraint of both lists.
PASSED_OR_DECLARED = Q(passed_out=True, declarer_seat__isnull=True, score=0, won=False, lost=False) | Q(
    passed_out=False, declarer_seat__isnull=False
)


class ScoresheetLine(SkipsConstraintsLeftOut, models.Model):
    """One line of a scoresheet (5.5.2): what the scorekeeper enters and what the engine
    derives from it. Abstract: the sheet's games (:class:`Game`, the list that counts)
    and the second list kept at the table (:class:`ControlEntry`) share it."""

    class TopsKind(models.TextChoices):
        WITH = "with", _("with")
        WITHOUT = "without", _("without")

    CONTRACT_CHOICES = [
        (rules.Contract.DIAMONDS.value, _("Diamonds")),
        (rules.Contract.HEARTS.value, _("Hearts")),
        (rules.Contract.SPADES.value, _("Spades")),
        (rules.Contract.CLUBS.value, _("Clubs")),
        (rules.Contract.GRAND.value, _("Grand")),
        (rules.Contract.NULL.value, _("Null")),
    ]

    number = models.PositiveSmallIntegerField(_("deal"))
    dealer_seat = models.PositiveSmallIntegerField(_("dealer"))
    passed_out = models.BooleanField(_("passed out"), default=False)
    declarer_seat = models.PositiveSmallIntegerField(_("declarer"), null=True, blank=True)

    contract = models.CharField(_("contract"), max_length=10, choices=CONTRACT_CHOICES, blank=True)
    tops = models.PositiveSmallIntegerField(_("tops"), null=True, blank=True)
    tops_kind = models.CharField(_("with/without"), max_length=7, choices=TopsKind.choices, blank=True)
    hand = models.BooleanField(_("hand"), default=False)
    schneider_announced = models.BooleanField(_("schneider announced"), default=False)
    schwarz_announced = models.BooleanField(_("schwarz announced"), default=False)
    ouvert = models.BooleanField(_("ouvert"), default=False)
    bid = models.PositiveSmallIntegerField(_("bid"), null=True, blank=True)
    declarer_points = models.PositiveSmallIntegerField(_("declarer's card points"), null=True, blank=True)
    declarer_tricks = models.PositiveSmallIntegerField(_("declarer's tricks"), null=True, blank=True)

    # Stored from rules.evaluate(); never edited by hand.
    value = models.PositiveSmallIntegerField(_("game value"), default=0)
    score = models.SmallIntegerField(_("score"), default=0)
    won = models.BooleanField(_("won"), default=False)
    lost = models.BooleanField(_("lost"), default=False)
    overbid = models.BooleanField(_("overbid"), default=False)
    multiplier = models.PositiveSmallIntegerField(_("multipliers"), null=True, blank=True)
    schneider = models.BooleanField(_("schneider"), default=False)
    schwarz = models.BooleanField(_("schwarz"), default=False)

    client_id = models.UUIDField(
        unique=True,
        default=uuid.uuid4,
        editable=False,
        help_text="Made on the phone: a resend never makes a second game.",
    )
    #: Who entered the deal: a user name, or one of :data:`ENTERED_BY_CODES`, stored in no
    #: language (a German phone and an English one write the same code).
    entered_by = models.CharField(_("entered by"), max_length=80, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    # Only a referee's decision sets these, and only on the list that counts (Game's own
    # fields); the second list never carries one.
    irregularity = ""
    voided = False

    #: What the scorekeeper enters for a deal (5.5.2), in the form's order.
    ENTERED_FIELDS = (
        "passed_out",
        "declarer_seat",
        "contract",
        "tops_kind",
        "tops",
        "hand",
        "schneider_announced",
        "schwarz_announced",
        "ouvert",
        "bid",
        "declarer_points",
        "declarer_tricks",
    )
    #: What apply_rules() derives with the engine; never typed in.
    COMPUTED_FIELDS = ("value", "score", "won", "lost", "overbid", "multiplier", "schneider", "schwarz")
    #: What valuing a deal may change (a passed-out deal clears what was entered with it).
    VALUED_FIELDS = (*ENTERED_FIELDS, "dealer_seat", *COMPUTED_FIELDS)

    class Meta:
        abstract = True

    def save(self, *args, **kwargs) -> None:
        """Value the deal with the engine (:meth:`apply_rules`), then store it: no ``save()``
        stores a deal the engine did not value, whatever typed in the fields it derives.

        Raises :class:`skat.rules.RuleError` and stores nothing when the deal is not
        allowed. A save of some fields stores what the valuing changed with them. What
        bypasses ``save()`` (bulk inserts, a versioned update) goes through
        :mod:`scoring.services`, which values each row first.
        """
        self.apply_rules(self.table.size)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = {*update_fields, *self.VALUED_FIELDS}
        super().save(*args, **kwargs)

    @property
    def entered_by_label(self) -> str:
        """Who entered the deal, in the reader's language ("table link", "Tisch-Link")."""
        label = ENTERED_BY_CODES.get(self.entered_by)
        return str(label) if label is not None else self.entered_by

    entered_by_label.fget.short_description = _("entered by")  # the admin's column

    def rules_game(self) -> terms.Game:
        """This game as the engine sees it."""
        return terms.Game(
            contract=self.contract,  # type: ignore[arg-type]  # the engine checks and converts it (2.1.1)
            tops=self.tops,
            hand=self.hand,
            schneider_announced=self.schneider_announced,
            schwarz_announced=self.schwarz_announced,
            ouvert=self.ouvert,
            declarer_points=self.declarer_points,
            declarer_tricks=self.declarer_tricks,
            bid=self.bid,
            irregularity=self.irregularity or None,  # type: ignore[arg-type]  # checked by the engine (4.1.4)
        )

    def apply_rules(self, table_size: int) -> rules.Outcome | None:
        """Check the deal's seats and value the game with the engine; store the result.

        Raises :class:`skat.rules.RuleError` (field and paragraph) and changes
        nothing on this instance when the game is not allowed. A voided game is still
        checked and valued (its value stays on record) but scores nothing: score 0, neither
        won nor lost, so every aggregate over stored scores leaves it out.
        """
        dealer = dealer_seat(self.number, table_size)
        if self.passed_out:
            self.dealer_seat = dealer
            self.declarer_seat = None
            self.contract = ""
            self.tops = self.bid = self.declarer_points = self.declarer_tricks = None
            self.tops_kind = ""
            self.hand = self.schneider_announced = self.schwarz_announced = self.ouvert = False
            self.value = self.score = 0
            self.won = self.lost = self.overbid = self.schneider = self.schwarz = False
            self.multiplier = None
            self.irregularity = ""
            return None
        if self.declarer_seat is None:
            raise rules.RuleError(
                "declarer_seat", gettext_noop("choose the declarer, or mark the deal passed out"), "5.5.1"
            )
        if self.declarer_seat not in active_seats(self.number, table_size):
            if self.declarer_seat == dealer:
                raise rules.RuleError(
                    "declarer_seat",
                    gettext_noop("the dealer sits out at a table of four and cannot be declarer"),
                    "3.2.7",
                )
            raise rules.RuleError(
                "declarer_seat",
                gettext_noop("there is no seat {seat} at this table"),
                "3.1.1",
                seat=self.declarer_seat,
            )
        if self.contract == rules.Contract.NULL:
            tops_kind = ""
        elif self.tops_kind:
            tops_kind = self.tops_kind
        else:
            tops_kind = self.TopsKind.WITH
        outcome = rules.evaluate(self.rules_game())
        self.dealer_seat = dealer
        self.tops_kind = tops_kind
        self.value = outcome.value
        self.score = outcome.score
        self.won = outcome.won
        self.lost = not outcome.won
        self.overbid = outcome.overbid
        self.multiplier = outcome.multiplier
        self.schneider = outcome.schneider
        self.schwarz = outcome.schwarz
        if self.voided:
            self.score = 0
            self.won = self.lost = False
        return outcome


class Game(ScoresheetLine):
    """A deal on the table's scoresheet: the list that counts (DOMAIN: seat 1's)."""

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="games")
    # Set only by a referee's correction (referees app): 4.1.3-4.1.6.
    irregularity = models.CharField(
        _("ended by an irregularity of"),
        max_length=10,
        choices=IRREGULARITY_CHOICES,
        blank=True,
        help_text=_(
            "4.1.4: the game ended before its outcome was established; the offended party wins a simple game."
        ),
    )
    # A voided game keeps its row and its entries but scores nothing (a referee's decision,
    # e.g. 3.2.11: a game dealt out of turn is invalid); only a correction sets it.
    voided = models.BooleanField(_("void"), default=False)

    VALUED_FIELDS = (*ScoresheetLine.VALUED_FIELDS, "irregularity")  # a passed-out deal has none

    objects = GameQuerySet.as_manager()

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="game_once_per_deal"),
            models.CheckConstraint(
                condition=PASSED_OR_DECLARED,
                name="game_passed_or_declared",
            ),
            models.CheckConstraint(condition=~Q(won=True, lost=True), name="game_not_won_and_lost"),
            models.CheckConstraint(condition=Q(number__gte=1), name="game_number_positive"),
            models.CheckConstraint(
                condition=Q(voided=False) | Q(score=0, won=False, lost=False), name="game_voided_scores_nothing"
            ),
        ]
        # Covers the GROUP BY (table, declarer seat) that checks the seat totals
        # (standings.places.seat_totals_differ): answered from the index alone.
        indexes = [
            models.Index(fields=["table", "declarer_seat", "score", "won", "lost"], name="game_seat_totals"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.number}"


class ControlEntry(ScoresheetLine):
    """A deal on the table's second list (DOMAIN: two lists are kept, seats 1 and 3).

    Entered through the table's control link, independently of the sheet; it never
    counts (no standings, no settlement: the first list counts unless the players or a
    referee agree otherwise), it is only compared with the sheet
    (:mod:`scoring.lists`) so a difference is seen and settled before the players sign.
    """

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="control_entries")

    class Meta:
        ordering = ["table", "number"]
        verbose_name = _("second-list entry")
        verbose_name_plural = _("second-list entries")
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="control_entry_once_per_deal"),
            models.CheckConstraint(
                condition=PASSED_OR_DECLARED,
                name="control_entry_passed_or_declared",
            ),
            models.CheckConstraint(condition=Q(number__gte=1), name="control_entry_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.number} (2)"


class ConflictingEntry(ScoresheetLine):
    """A deal as a second device on the sheet's own link sent it, after the sheet already
    held that deal with other values (two phones on one link, DOMAIN: two lists).

    It is never entered: the sheet keeps the deal it had. Like a second-list entry it is
    only compared (:func:`scoring.lists.differing_deals`), so the dashboard counts it and
    the players cannot confirm until the table settles it: a correction of the sheet's
    deal (its version moves on from ``sheet_version``) or a referee's decision.
    """

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="conflicting_entries")
    #: The sheet's deal as it stood when the other device's values came in.
    sheet_version = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["table", "number", "pk"]
        verbose_name = _("deal sent with other values")
        verbose_name_plural = _("deals sent with other values")
        constraints = [
            models.CheckConstraint(condition=PASSED_OR_DECLARED, name="conflicting_entry_passed_or_declared"),
        ]

    def __str__(self) -> str:
        return f"{self.table} #{self.number} (other device)"


class SeatTotal(models.Model):
    """The games one seat of a table declared, summed: the standings' GROUP BY, kept up to date.

    One row per (table, declarer seat) that declared at least once: the sum of the
    scores, the games won and the games lost (5.5.1: passed-out deals belong to no
    seat). Database triggers on the games keep it (migration 0004): every insert,
    update and delete of a game, bulk imports and corrections included, adds or takes
    away its numbers in the same transaction, so no code path can forget it. The
    standings read these few thousand rows instead of grouping every game of the
    tournament on each page; :func:`standings.places.seat_totals_differ` checks them
    against the GROUP BY itself (tests, ``manage.py loadtest``).
    """

    table = models.ForeignKey("tournaments.Table", on_delete=models.CASCADE, related_name="seat_totals")
    number = models.PositiveSmallIntegerField(_("seat"))
    points = models.IntegerField(_("game points"), default=0)
    won = models.IntegerField(_("won"), default=0)
    lost = models.IntegerField(_("lost"), default=0)

    class Meta:
        verbose_name = _("seat total")
        verbose_name_plural = _("seat totals")
        constraints = [
            # The triggers' upsert finds a seat's row by this key (ON CONFLICT (table_id, number)).
            models.UniqueConstraint(fields=["table", "number"], name="seat_total_once_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.table} / {self.number}: {self.points}"
