"""The scorekeeper's game form: fields as on the paper list, checked by the engine.

The form validates what was typed: after ``clean()`` it asks the engine
(:func:`scoring.services.value`) for the preview and the refusals, so every rejection is
the engine's, shown at the field it concerns with its paragraph first ("5.4.1: ...").
It stores nothing: :mod:`scoring.entry` saves the deal, valued again under the table's
lock (:mod:`scoring.services`).
"""

from __future__ import annotations

import re

from django import forms
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from core.rule_messages import rule_message
from skat import rules

from . import services
from .models import ControlEntry, Game

# Engine field names that differ from the form's.
_FIELD_OF = {"declarer": "declarer_seat", "game": None, "players": None}

#: The paragraph each entered field rests on: Django's own field errors ("Select a valid
#: choice", "Enter a whole number", a min or max) cite it like the engine's refusals.
FIELD_PARAGRAPHS = {
    "declarer_seat": "3.1.1, 3.2.7",
    "contract": "2.1.1",
    "tops_kind": "2.4.1",
    "tops": "2.4.3",
    "hand": "5.2.1",
    "schneider_announced": "5.2.1",
    "schwarz_announced": "5.2.1",
    "ouvert": "5.2.1",
    "bid": "3.3.2, 5.4.1",
    "declarer_points": "1.2.2",
    "opponents_points": "1.2.2",
    "declarer_tricks": "4.4.1",
}
_CITES = re.compile(r"^\d+(\.\d+)+[:,]|\(\d+(\.\d+)+(, \d+(\.\d+)+)*\)\.?$")


def cite_paragraphs(form: forms.BaseForm, paragraphs: dict[str, str]) -> None:
    """Put the field's paragraph before each of its errors that cites none ("1.2.2: Ensure ...").

    Every refusal names its rule, Django's own messages included; the engine's messages
    already start with theirs and are left as they are.
    """
    for name, errors in form.errors.items():
        paragraph = paragraphs.get(name)
        if paragraph is None:
            continue
        errors.data = [
            forms.ValidationError(message if _CITES.search(message) else f"{paragraph}: {message}")
            for message in errors
        ]


BID_CHOICES = [("", _("no bid"))] + [(str(v), str(v)) for v in sorted(rules.GAME_VALUES)]


class BidField(forms.TypedChoiceField):
    """The bid: a game value (3.3.2: only valid game values are bid, 5.6.1). Anything else
    gets the engine's bid-values rule, not Django's "Select a valid choice"."""

    def validate(self, value) -> None:
        if value in self.empty_values or self.valid_value(value):
            return super().validate(value)
        raise forms.ValidationError(
            rule_message(
                rules.RuleError(
                    "bid",
                    rules.gettext_noop("{bid} is not a game value; bids are game values from 18 to 264"),
                    "3.3.2, 5.6.1",
                    bid=str(value)[:12],
                )
            ),
            code="invalid_choice",
        )

    def __deepcopy__(self, memo: dict) -> BidField:
        """Each form's copy shares the list of bids (every game value, the same for every
        deal and never changed by a form): copying it for every form built (two per deal
        entered: the one posted and the next) cost more than all its other fields."""
        return super(forms.ChoiceField, self).__deepcopy__(memo)


class BidSelect(forms.Select):
    """The bid <select>: Django's select markup, written directly with its options cached per language.

    The list holds every game value (5.6.1) and is rendered with each entered deal; through
    the template-based widget machinery it cost a tenth of the whole request. The output is
    the markup of Django's select.html (attributes as attrs.html writes them, the first
    option matching the value selected), so the page stays the same.
    """

    #: Per language; the choices are always BID_CHOICES (the widget serves that one field).
    _options: dict[str | None, tuple[tuple[str, str, str], ...]] = {}

    def _option_list(self) -> tuple[tuple[str, str, str], ...]:
        """(value, escaped "value" attribute and label) per option, for the active language."""
        language = get_language()
        options = self._options.get(language)
        if options is None:
            options = tuple(
                (str(value), f'value="{conditional_escape(str(value))}"', conditional_escape(str(label)))
                for value, label in self.choices
            )
            self._options[language] = options
        return options

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        values = self.format_value(value)
        html = [f'<select name="{conditional_escape(name)}"{_attributes(self.build_attrs(self.attrs, attrs))}>']
        selected = False
        for option_value, value_attribute, label in self._option_list():
            mark = ""
            if not selected and option_value in values:
                selected = True
                mark = " selected"
            html.append(f"\n  <option {value_attribute}{mark}>{label}</option>\n")
        html.append("\n</select>")
        return mark_safe("".join(html))  # names, values and labels escaped above


def _attributes(attrs: dict) -> str:
    """HTML attributes as Django's attrs.html writes them: False left out, True as a bare name."""
    return "".join(
        f" {name}" if value is True else f' {name}="{conditional_escape(str(value))}"'
        for name, value in attrs.items()
        if value is not False
    )


class PlainRadioSelect(forms.RadioSelect):
    """Django's radio markup (multiple_input.html, input_option.html, input.html), written directly.

    Through the template machinery every option costs three template includes; the
    game form's radios (declarer, game, with/without) are rendered with each entered
    deal and were a fifth of the request. tests/tablelink/test_entry_rendering.py holds the output
    equal to Django's own RadioSelect for the same arguments.
    """

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        own = widget["attrs"]
        html = ["<div"]
        if own.get("id"):
            html.append(f' id="{conditional_escape(own["id"])}"')
        if own.get("class"):
            html.append(f' class="{conditional_escape(own["class"])}"')
        html.append(">")
        for group, options, _index in widget["optgroups"]:
            if group:
                html.append(f"\n  <div><label>{conditional_escape(group)}</label>")
            for option in options:
                html.append(f"<div>\n    {_option(option)}</div>")
            if group:
                html.append("\n  </div>")
        html.append("\n</div>")
        return mark_safe("".join(html))  # every name, value, attribute and label escaped


def _input(widget: dict) -> str:
    """input.html for one widget context (with the template file's line end)."""
    value = "" if widget["value"] is None else f' value="{conditional_escape(str(widget["value"]))}"'
    return (
        f'<input type="{conditional_escape(widget["type"])}" name="{conditional_escape(widget["name"])}"'
        f"{value}{_attributes(widget['attrs'])}>\n"
    )


def _option(option: dict) -> str:
    """One option as radio_option.html, input_option.html and input.html write it (their line ends too)."""
    field = _input(option)
    if not option["wrap_label"]:
        return f"{field}\n\n"
    target = option["attrs"].get("id")
    opening = f'<label for="{conditional_escape(target)}">' if target else "<label>"
    return f"{opening}{field} {conditional_escape(str(option['label']))}</label>\n\n"


class _PlainInput:
    """input.html written directly, for the game form's plain inputs (see PlainRadioSelect)."""

    def render(self, name, value, attrs=None, renderer=None) -> SafeString:
        # Django's renderer strips the template's line end.
        return mark_safe(_input(self.get_context(name, value, attrs)["widget"]).rstrip("\n"))  # escaped in _input


class PlainNumberInput(_PlainInput, forms.NumberInput):
    pass


class PlainHiddenInput(_PlainInput, forms.HiddenInput):
    pass


class PlainCheckboxInput(_PlainInput, forms.CheckboxInput):
    pass


class GameForm(forms.ModelForm):
    """One deal. ``number`` and ``client_id`` come from the page, so a resend of the
    same submission is recognised (the same client id never makes a second game)."""

    # Hidden, so their errors are shown above the form as "label: error" (_game_form.html).
    number = forms.IntegerField(label=_("deal"), widget=PlainHiddenInput, min_value=1)
    client_id = forms.UUIDField(label=_("entry id"), widget=PlainHiddenInput, required=False)
    version = forms.IntegerField(label=_("version"), widget=PlainHiddenInput, required=False, min_value=1)
    bid = BidField(label=_("bid"), choices=BID_CHOICES, coerce=int, empty_value=None, required=False, widget=BidSelect)
    #: Which paragraph Django's own errors of each field cite (see :func:`cite_paragraphs`).
    paragraphs = FIELD_PARAGRAPHS

    opponents_points = forms.IntegerField(
        label=_("opponents' card points"),
        required=False,
        min_value=0,
        max_value=120,
        help_text=_("Instead of the declarer's: the office counts 120 minus these."),
        widget=PlainNumberInput(attrs={"inputmode": "numeric"}),
    )

    class Meta:
        model = Game
        fields = list(Game.ENTERED_FIELDS)
        widgets = {
            "declarer_seat": PlainRadioSelect,
            "contract": PlainRadioSelect,
            "tops_kind": PlainRadioSelect,
            "passed_out": PlainCheckboxInput,
            "hand": PlainCheckboxInput,
            "schneider_announced": PlainCheckboxInput,
            "schwarz_announced": PlainCheckboxInput,
            "ouvert": PlainCheckboxInput,
            "tops": PlainNumberInput(attrs={"min": 1, "max": 11, "inputmode": "numeric"}),
            "declarer_points": PlainNumberInput(attrs={"min": 0, "max": 120, "inputmode": "numeric"}),
            "declarer_tricks": PlainNumberInput(attrs={"min": 0, "max": 10, "inputmode": "numeric"}),
        }

    def __init__(self, *args, table, players: dict[int, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.players = players
        self.fields["declarer_seat"].widget.choices = [(seat, name) for seat, name in sorted(players.items())]
        self.fields["declarer_seat"].required = False
        self.fields["contract"].required = False
        self.fields["contract"].choices = Game.CONTRACT_CHOICES
        self.fields["tops_kind"].required = False
        self.fields["tops_kind"].choices = Game.TopsKind.choices
        self.fields["declarer_points"].max_value = 120
        # The model field's own minimum (0) would say min 0 on the phone; 0 tops are refused (2.4.3).
        self.fields["tops"].widget.attrs["min"] = 1
        self.outcome: rules.Outcome | None = None

    @property
    def hidden_field_errors(self) -> list[str]:
        """Errors of the hidden fields as "label: error": they have no input to stand by."""
        return [f"{field.label}: {error}" for field in self.hidden_fields() for error in field.errors]

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        number = data["number"]
        if number > self.table.deals:
            raise forms.ValidationError(
                _("This table plays %(deals)s deals; deal %(number)s does not exist (3.2.1).")
                % {"deals": self.table.deals, "number": number}
            )
        points, opponents = data.get("declarer_points"), data.get("opponents_points")
        if points is None and opponents is not None:
            data["declarer_points"] = 120 - opponents
        elif points is not None and opponents is not None and points + opponents != 120:
            self.add_error("opponents_points", _("declarer and opponents together hold 120 card points (1.2.2)"))
        if data.get("contract") == rules.Contract.NULL:
            # The with/without choice means nothing at null; tops given go to the engine,
            # which refuses them (2.4.3) rather than the form dropping them unseen.
            data["tops_kind"] = ""
        return data

    def full_clean(self) -> None:
        super().full_clean()
        if self._errors:
            cite_paragraphs(self, self.paragraphs)

    def _post_clean(self) -> None:
        # The instance is built from cleaned_data here; only then can the engine value it
        # (the preview and the refusal; the entry values it again when it stores it).
        super()._post_clean()
        if self.errors:
            return
        self.instance.number = self.cleaned_data["number"]
        self.instance.table = self.table
        try:
            self.outcome = services.value(self.instance, self.table.size)
        except rules.RuleError as error:
            field = _FIELD_OF.get(error.field, error.field)
            self.add_error(field if field in self.fields else None, rule_message(error))


def phone_checks() -> dict:
    """The ranges the entry form's fields have by the rules, with the engine's refusal of
    each in the reader's language ("%(value)s" where the typed number goes), for the
    table link's phone to refuse an impossible deal before it waits to be sent
    (static/js/entry-form.js). Ranges only: the value is the office's alone.
    """
    typed = "%(value)s"

    def said(field: str, template: str, paragraph: str, **params) -> str:
        label = (
            GameForm.base_fields[field].label
            if field in GameForm.base_fields
            else Game._meta.get_field(field).verbose_name
        )
        return f"{label}: {rule_message(rules.RuleError(field, template, paragraph, **params))}"

    def tops(kind: str, most: int) -> dict:
        return {
            "max": most,
            "over": said(
                "tops", "a {kind} has at most {most} tops, not {tops}", "2.4.3", kind=kind, most=most, tops=typed
            ),
            "under": said(
                "tops", "a {kind} is played with or without at least 1 top, not {tops}", "2.4.1", kind=kind, tops=typed
            ),
            "missing": said(
                "tops", "required for a {kind}: count the tops played with or without", "2.4.2", kind=kind
            ),
        }

    points = "{points} is not between 0 and 120 card points"
    return {
        "declarer_points": {"max": 120, "message": said("declarer_points", points, "1.2.2", points=typed)},
        "opponents_points": {"max": 120, "message": said("opponents_points", points, "1.2.2", points=typed)},
        "declarer_tricks": {
            "max": 10,
            "message": said("declarer_tricks", "{tricks} is not between 0 and 10 tricks", "4.4.1", tricks=typed),
        },
        "tops": {
            "grand": tops("grand", rules.MAX_TOPS[rules.Contract.GRAND]),
            "suit": tops("suit game", rules.MAX_TOPS[rules.Contract.CLUBS]),
            "null": said("tops", "null games have no tops", "2.4.3"),
        },
        "points_sum": f"{GameForm.base_fields['opponents_points'].label}: "
        + str(_("declarer and opponents together hold 120 card points (1.2.2)")),
    }


class ControlEntryForm(GameForm):
    """One deal of the second list kept at the table: the same fields and checks."""

    class Meta(GameForm.Meta):
        model = ControlEntry


class PinForm(forms.Form):
    """One player confirms the sheet himself (5.5.3): his name and the PIN from his own slip."""

    seat = forms.TypedChoiceField(label=_("Player"), coerce=int, widget=forms.RadioSelect)
    pin = forms.RegexField(
        label=_("PIN"),
        regex=r"^\s*\d{4}\s*$",
        error_messages={"invalid": _("The PIN has 4 digits; it is printed on your PIN slip.")},
        widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "maxlength": 4, "size": 5}),
    )

    def __init__(self, *args, players: dict[int, str], **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = sorted(players.items())
