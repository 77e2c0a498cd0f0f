"""Root URLs: staff pages, the scorekeepers' table links and the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.urls import include, path, re_path

from accounts.throttle import LoginView, ThrottledAdminAuthenticationForm
from config.health import healthz
from config.help import help_page
from config.language import switch_language
from dashboard import urls as dashboard_urls
from draw import urls as draw_urls
from leagues import public_urls as league_public_urls
from leagues.seasons import urls as season_urls
from money import urls as money_urls
from players import urls as player_urls
from printing import urls as printing_urls
from rankings import urls as ranking_urls
from referees import table_urls as referee_table_urls
from rehearsal import urls as rehearsal_urls
from signoff import urls as signoff_urls
from standings import urls as standings_urls
from tablelink import urls as tablelink_urls
from tournaments import urls as tournament_urls
from transfer import urls as transfer_urls

# The admin's login is throttled like ours (accounts/throttle.py).
admin.site.login_form = ThrottledAdminAuthenticationForm


def moved_admin(request: HttpRequest, app: str, model: str, rest: str) -> HttpResponsePermanentRedirect:
    """Admin bookmarks of the sign-off's records made by earlier releases
    (``/admin/referees/signoff/``, ``/admin/scoring/listsaccepted/``) lead to signoff's."""
    query = f"?{request.META['QUERY_STRING']}" if request.META.get("QUERY_STRING") else ""
    return HttpResponsePermanentRedirect(f"/admin/signoff/{model}/{rest}{query}")


#: The URL namespaces by audience: each app lists its pages per audience in its urls.py
#: (``director``, ``public``, ``table``), and here they are put together, so a page's name
#: says who it is for (``director:series``, ``public:standings``, ``table:sheet``); the
#: referees' (``referees:``) and the league managers' (``leagues:``) pages have their own.
DIRECTOR = [
    *tournament_urls.director,
    *draw_urls.director,
    *dashboard_urls.director,
    *standings_urls.director,
    *money_urls.director,
    *printing_urls.director,
    *transfer_urls.director,
    *rehearsal_urls.director,
]
PUBLIC = [
    path("p/", include(standings_urls.public + printing_urls.public)),
    path("p/league/", include(league_public_urls.public)),
    path("p/league/", include(season_urls.public)),
    path("p/rankings/", include(ranking_urls.public)),
]
#: The table link: its sheet and entry, the players' sign-off, and a dispute.
TABLE = [*tablelink_urls.table, *signoff_urls.table, *referee_table_urls.table]

urlpatterns = [
    re_path(
        r"^admin/(?P<app>referees|scoring)/(?P<model>signoff|listsaccepted)/(?P<rest>.*)$",
        moved_admin,
        name="moved_admin_signoff",
    ),
    path("admin/", admin.site.urls),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The language switch every page links to: no form, no CSRF cookie (config/language.py).
    path("lang/<str:code>/", switch_language, name="language"),
    # Can this office serve? One query, one cache round-trip, no session (config/health.py).
    path("healthz", healthz, name="healthz"),
    # The help pages: the built docs, English at /help/, German at /help/de/ (config/help.py).
    re_path(r"^help/(?P<path>.*)$", help_page, name="help"),
    path("s/", include((TABLE, "table"))),
    # The player's own page by its private link, and the lookup that leads to it.
    path("me/", include((player_urls.player, "player"))),
    path("", include((PUBLIC, "public"))),
    path("", include((DIRECTOR, "director"))),
    path("", include("referees.urls")),
    # The league managers' pages and the hosts' publication endpoint.
    path("league/", include("leagues.urls")),
    # The end of a league's season: rules, deductions, forfeits, the rollover, the individual ranking.
    path("league/", include("leagues.seasons.urls")),
    # The match-day package: the hosts' endpoint, the managers' download, the hall's import.
    path("league/", include("leagues.packages.urls")),
    # The league office: the administrator's rights page, the match reports (leagues/office/urls.py).
    path("league/", include("leagues.office.urls")),
    # Rankings over many tournaments (Jahreswertung, cup): their directors' pages.
    path("rankings/", include("rankings.urls")),
]
