"""Root URLs: staff pages, the scorekeepers' table links and the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.urls import include, path, re_path

from accounts.throttle import LoginView, ThrottledAdminAuthenticationForm
from dashboard import urls as director_urls
from draw import urls as draw_urls
from printing import urls as printing_urls
from referees import table_urls as referee_table_urls
from signoff import urls as signoff_urls
from standings import urls as standings_urls
from tournaments import urls as tournament_urls

# The admin's login is throttled like ours (accounts/throttle.py).
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
    path("s/", include("tablelink.urls")),
    # The table link's sign-off (scoring) and dispute (referees) share one namespace.
    path("s/", include((signoff_urls.urlpatterns + referee_table_urls.urlpatterns, "signoff"))),
    path("p/", include((standings_urls.urlpatterns + printing_urls.public_urlpatterns, "public"))),
    # The director's pages of tournaments (the draw, players) and of scoring (dashboard,
    # standings, documents, exports) share one namespace, so every page keeps its name.
    path(
        "", include((tournament_urls.urlpatterns + draw_urls.urlpatterns + director_urls.urlpatterns, "tournaments"))
    ),
    path("", include("referees.urls")),
    # Leagues: the managers' pages and the hosts' publication endpoint; the public tables apart.
    path("league/", include("leagues.urls")),
    path("p/league/", include("leagues.public_urls")),
]
