"""Admin: referees can be assigned here too; the audit records are read-only."""

from django.contrib import admin

from scoring.admin import ReadOnly

from .models import Correction, Dispute, RefereeAssignment, Reopening


@admin.register(RefereeAssignment)
class RefereeAssignmentAdmin(admin.ModelAdmin):
    list_display = ["tournament", "user", "assigned_by", "assigned_at"]
    list_select_related = ["tournament", "user", "assigned_by"]
    autocomplete_fields = ["user"]
    raw_id_fields = ["tournament"]
    exclude = ["assigned_by"]

    def save_model(self, request, obj, form, change):
        if not change:
            obj.assigned_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(Dispute)
class DisputeAdmin(ReadOnly):
    list_display = ["pk", "table", "game", "status", "paragraph", "effect", "raised_at", "decided_by"]
    list_filter = ["status", "effect"]
    list_select_related = ["table", "game", "decided_by"]


@admin.register(Correction)
class CorrectionAdmin(ReadOnly):
    list_display = ["made_at", "game", "kind", "made_by", "score_before", "score_after", "dispute"]
    list_filter = ["kind"]
    list_select_related = ["game__table", "made_by", "dispute"]


@admin.register(Reopening)
class ReopeningAdmin(ReadOnly):
    list_display = ["made_at", "table", "made_by", "reason"]
    list_select_related = ["table", "made_by"]
