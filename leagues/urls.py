"""The league manager's pages (login: the league's managers) and the hosts' publication endpoint."""

from django.urls import path

from . import api, public_views, setup_views, views

app_name = "leagues"

urlpatterns = [
    path("new/", setup_views.league_new, name="league_new"),
    path("<int:league_id>/settings/", setup_views.league_settings, name="settings"),
    path("<int:league_id>/managers/", setup_views.managers, name="managers"),
    path("<int:league_id>/managers/<int:user_id>/remove/", setup_views.manager_remove, name="manager_remove"),
    path("<int:league_id>/groups/new/", setup_views.group_new, name="group_new"),
    path("<int:league_id>/groups/<int:group_id>/", setup_views.group_edit, name="group_edit"),
    path("<int:league_id>/groups/<int:group_id>/teams/new/", setup_views.team_new, name="team_new"),
    path("<int:league_id>/teams/<int:team_id>/", setup_views.team_edit, name="team_edit"),
    path("<int:league_id>/hosts/", setup_views.hosts, name="hosts"),
    path("<int:league_id>/hosts/new/", setup_views.host_new, name="host_new"),
    path("<int:league_id>/hosts/<int:host_id>/token/", setup_views.renew_host_token, name="renew_host_token"),
    path("<int:league_id>/hosts/<int:host_id>/active/", setup_views.host_active, name="host_active"),
    path("<int:league_id>/", views.league_detail, name="league"),
    path("<int:league_id>/table/", views.season_table, name="season"),
    path("<int:league_id>/table.pdf", public_views.staff_season_pdf, name="season_pdf"),
    path("<int:league_id>/season.xlsx", views.season_xlsx, name="season_xlsx"),
    path("<int:league_id>/season-<slug:sheet>.csv", views.season_csv, name="season_csv"),
    path("<int:league_id>/groups/<int:group_id>/match-days/new/", views.match_day_new, name="match_day_new"),
    path("match-days/<int:match_day_id>/", views.match_day_detail, name="match_day"),
    path("match-days/<int:match_day_id>/line-up/<int:team_id>/", views.line_up, name="line_up"),
    path("match-days/<int:match_day_id>/substitute/", views.substitute, name="substitute"),
    path("match-days/<int:match_day_id>/check/", views.check, name="check"),
    path("match-days/<int:match_day_id>/binding/", views.binding, name="binding"),
    path(
        "match-days/<int:match_day_id>/publications/<int:publication_id>/remove/",
        views.remove_publication,
        name="remove_publication",
    ),
    path("api/publish/", api.publish, name="publish"),
]
