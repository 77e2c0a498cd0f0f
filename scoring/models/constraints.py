"""A model's constraints validated without the queries that could not check anything.

A form validates its model's constraints on the fields it holds (Django's
``Model.validate_constraints`` with the fields left out as ``exclude``). Django builds
each check constraint's whole query (every field's value an annotation) before it
finds that the condition names a field left out, and then skips that constraint
(its ``FieldError``). The table link's form leaves out every field of the deal lines'
check constraints (the score, won and lost, the void, the deal number: the engine's
and the view's), so that was four queries built and thrown away on every deal a
phone enters. :class:`SkipsConstraintsLeftOut` skips them before building anything;
every other constraint is validated as Django does, and the database checks every
one at the insert.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import router
from django.db.models import CheckConstraint, Q


def _names_left_out(constraint: object, exclude: set[str]) -> bool:
    """Whether Django's own validation would skip ``constraint``: a check whose condition names a field left out."""
    return isinstance(constraint, CheckConstraint) and bool(Q(constraint.condition).referenced_base_fields & exclude)


class SkipsConstraintsLeftOut:
    """Mixin of a model: validate_constraints() as Django's, without building the checks it would skip."""

    def validate_constraints(self, exclude: set[str] | None = None) -> None:
        """Django's loop (django.db.models.base.Model.validate_constraints), the skipped checks left out first."""
        using = router.db_for_write(self.__class__, instance=self)
        errors: dict = {}
        for model_class, model_constraints in self.get_constraints():
            for constraint in model_constraints:
                if exclude and _names_left_out(constraint, exclude):
                    continue
                try:
                    constraint.validate(model_class, self, exclude=exclude, using=using)
                except ValidationError as e:
                    if getattr(e, "code", None) == "unique" and len(constraint.fields) == 1:
                        errors.setdefault(constraint.fields[0], []).append(e)
                    else:
                        errors = e.update_error_dict(errors)
        if errors:
            raise ValidationError(errors)
