"""Root URLs: staff pages, the scorekeepers' table links and the admin."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tournaments.throttle import LoginView, ThrottledAdminAuthenticationForm

# The admin's login is throttled like ours (tournaments/throttle.py).
admin.site.login_form = ThrottledAdminAuthenticationForm

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("s/", include("scoring.urls")),
    path("s/", include("referees.table_urls")),
    path("p/", include("tournaments.public_urls")),
    path("", include("tournaments.urls")),
    path("", include("referees.urls")),
]
