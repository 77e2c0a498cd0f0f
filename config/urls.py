"""Root URLs: staff pages, the scorekeepers' table links and the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.urls import include, path, re_path

from office.help import help_page
from referees import table_urls as referee_table_urls
from scoring import director_urls, signoff_urls
from tournaments import urls as tournament_urls
from tournaments.throttle import LoginView, ThrottledAdminAuthenticationForm

# The admin's login is throttled like ours (tournaments/throttle.py).
admin.site.login_form = ThrottledAdminAuthenticationForm


def moved_admin(request: HttpRequest, rest: str) -> HttpResponsePermanentRedirect:
    """The sign-offs moved from the referees app to scoring (issue 14): old admin bookmarks follow."""
    query = f"?{request.META['QUERY_STRING']}" if request.META.get("QUERY_STRING") else ""
    return HttpResponsePermanentRedirect(f"/admin/scoring/signoff/{rest}{query}")


urlpatterns = [
    re_path(r"^admin/referees/signoff/(?P<rest>.*)$", moved_admin, name="moved_admin_signoff"),
    path("admin/", admin.site.urls),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    # The help pages: the built docs, English at /help/, German at /help/de/ (office/help.py).
    re_path(r"^help/(?P<path>.*)$", help_page, name="help"),
    path("s/", include("scoring.urls")),
    # The table link's sign-off (scoring) and dispute (referees) share one namespace.
    path("s/", include((signoff_urls.urlpatterns + referee_table_urls.urlpatterns, "signoff"))),
    path("p/", include("scoring.public_urls")),
    # The director's pages of tournaments (the draw, players) and of scoring (dashboard,
    # standings, documents, exports) share one namespace, so every page keeps its name.
    path("", include((tournament_urls.urlpatterns + director_urls.urlpatterns, "tournaments"))),
    path("", include("referees.urls")),
    # Leagues: the managers' pages and the hosts' publication endpoint; the public tables apart.
    path("league/", include("leagues.urls")),
    path("p/league/", include("leagues.public_urls")),
]
