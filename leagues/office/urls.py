"""The league office's pages: the rights page (the office's administrator) and the match
report with its remarks and signing (the league's managers)."""

from django.urls import path

from . import report_views, rights_views

app_name = "leagueoffice"

urlpatterns = [
    path("rights/", rights_views.rights_page, name="rights"),
    path("rights/<int:user_id>/revoke/", rights_views.revoke, name="revoke"),
    path("match-days/<int:match_day_id>/report/", report_views.report, name="report"),
    path("match-days/<int:match_day_id>/report.pdf", report_views.report_pdf, name="report_pdf"),
    path("match-days/<int:match_day_id>/report/remark/", report_views.remark, name="remark"),
    path("match-days/<int:match_day_id>/report/signing/", report_views.signing, name="signing"),
]
