"""The match-day package's URLs (under ``league/``, beside the league's own)."""

from django.urls import path

from . import views

app_name = "packages"

urlpatterns = [
    path("api/package/", views.api_package, name="api_package"),
    path("match-days/<int:match_day_id>/package.json", views.match_day_package, name="match_day_package"),
    path("import/", views.import_page, name="import"),
]
