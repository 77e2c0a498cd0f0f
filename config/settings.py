"""Settings for the Skat tournament office.

Defaults suit one laptop in a hall: SQLite in the data directory, DEBUG on, a local secret.
Everything a server needs comes from the environment:

- ``SKAT_OFFICE_DATA`` (or ``--data-dir``): the data directory (``DATA_DIR``: the
  database, the secret key file, the cache, the collected static files, the backups);
  by default the project folder of a checkout, else the platform's user data folder
  (config.datadir);

- ``DATABASE_URL``: e.g. ``postgres://postgres@127.0.0.1:5432/skat`` (dj-database-url), the
  password apart from it in ``DATABASE_PASSWORD`` or ``DATABASE_PASSWORD_FILE`` (config.database);
- ``SECRET_KEY`` (or ``SECRET_KEY_FILE``: a file holding it; by default the file
  ``manage.py serve`` generates beside the SQLite database), ``DEBUG`` (``0``/``1``),
  ``ALLOWED_HOSTS`` (comma-separated), ``CSRF_TRUSTED_ORIGINS`` (comma-separated),
  ``SECURE`` (``1`` behind HTTPS);
- ``CACHE_DIR``: where the computed standings are cached (default: beside the SQLite
  file, or ``.cache`` in the project); ``STANDINGS_SETTLE_SECONDS`` (5): the least the
  public standings lag behind the results while play goes on (ten times the time their
  page takes when that is more, a minute at most: standings.cache.lag_seconds);
- ``OFFICE_URL``: the address printed on table cards and in QR codes, e.g.
  ``http://192.168.1.20:8000``; detected from the laptop's interfaces (``config.hall``)
  with ``PORT`` when unset, or the request's own address behind HTTPS (``SECURE``).
"""

from __future__ import annotations

import os
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import database, datadir, environment, hall

#: The code (the apps' packages).
BASE_DIR = Path(__file__).resolve().parent.parent
#: The code's own files: templates, static files, translations, the built help, the demo's
#: players (the project folder of a checkout, ``config/resources`` in an installed wheel).
RESOURCE_DIR = datadir.resource_dir()
#: What the evening writes (config.datadir): the SQLite database, the secret key file, the
#: standings cache, the collected static files, the backups (``DATA_DIR / "backups"``).
DATA_DIR = datadir.resolve()


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if not value:
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_tables2",
    "django_htmx",
    # The office's apps, each importing only those above it in this list (tests/test_layers.py).
    "accounts",
    "tournaments",
    "scoring",
    "signoff",
    "standings",
    "draw",
    "money",
    "printing",
    "transfer",
    "rankings",
    "players",
    "dashboard",
    "tablelink",
    "referees",
    "leagues",
    "leagues.seasons",
    "leagues.packages",
    "leagues.office",
    "rehearsal",
    "office",
    "perf.quota",
    "perf",
    "perf.powercut",
]

MIDDLEWARE = [
    "config.access.AccessLog",  # one line per request (time, client, method, path, status, ms) if ACCESS_LOG
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "tablelink.links.CapabilityURLHeaders",
    "config.headers.SecurityHeaders",
    "config.diskfull.DiskFull",  # a full disk: 507 and one sentence, not "Something went wrong"
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [RESOURCE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "config.context.office",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

# SQLite by default (DATABASE_URL, the password apart from it: config.database).
DATABASES = database.databases(os.environ, DATA_DIR, BASE_DIR, DEBUG)


# The public standings and the projector page are computed once per change of the
# results and kept in files every server process shares (standings.cache): beside
# the SQLite database, or in CACHE_DIR (``.cache`` in the data directory on PostgreSQL).
# Entries carry the tournament's results mark in their key (a stale one is never read); old ones expire or are culled.
def _cache_dir(database: dict) -> Path:
    name = str(database.get("NAME") or "")
    if database.get("ENGINE", "").endswith("sqlite3") and name and name != ":memory:":
        return Path(name).with_name(Path(name).name + ".cache")
    return DATA_DIR / ".cache"


CACHE_DIR = Path(os.environ.get("CACHE_DIR") or _cache_dir(DATABASES["default"]))
CACHES = {
    "default": {
        # Django's FileBasedCache, listing its directory to cull once per 64 writes or 10 s
        # of a process instead of at every write (a fifth of a standings change's cost).
        "BACKEND": "standings.filecache.RarelyCulledFileCache",
        "LOCATION": str(CACHE_DIR),
        "TIMEOUT": 3 * 60 * 60,
        "OPTIONS": {"MAX_ENTRIES": 1000},
    }
}
#: The public standings and the projector page follow the results with this delay
#: (seconds) at least: in play the results change many times a second, and the pages are
#: computed once per this time instead of once per change; a page that takes longer makes
#: it longer (ten times the page's time, standings.cache.lag_seconds).
STANDINGS_SETTLE_SECONDS = environment.amount(os.environ, "STANDINGS_SETTLE_SECONDS", 5)
#: Entries first under overload (config.admission): at most this many spectator requests
#: (the public pages under /p/) run at once in a server process; the others get the page
#: last answered when it is at most BUSY_COPY_SECONDS old, else "busy, again in
#: BUSY_RETRY_AFTER s" (503 with Retry-After). The table links' entries never wait behind them.
SPECTATOR_SLOTS = environment.whole(os.environ, "SPECTATOR_SLOTS", 2)
BUSY_COPY_SECONDS = environment.amount(os.environ, "BUSY_COPY_SECONDS", 30)
#: A spectator's page computed at most this long ago is given as it is to the next
#: spectators, even when a slot is free: the crowd costs one computation per page and
#: interval, and its standings are at most this much older than the office's.
SPECTATOR_FRESH_SECONDS = environment.amount(os.environ, "SPECTATOR_FRESH_SECONDS", 5)
BUSY_RETRY_AFTER = environment.whole(os.environ, "BUSY_RETRY_AFTER", 5)
#: The hall check before play (dashboard.hall, static/js/hall-check.js): a table link's
#: phone sends HALL_CHECK_PINGS round trips, one every HALL_CHECK_INTERVAL_MS, and counts
#: one unanswered after HALL_CHECK_TIMEOUT_MS as lost (20 over 10 s: long enough to see a
#: weak access point, short enough for a helper walking the hall).
HALL_CHECK_PINGS = environment.whole(os.environ, "HALL_CHECK_PINGS", 20)
HALL_CHECK_INTERVAL_MS = environment.whole(os.environ, "HALL_CHECK_INTERVAL_MS", 500)
HALL_CHECK_TIMEOUT_MS = environment.whole(os.environ, "HALL_CHECK_TIMEOUT_MS", 3000)

# Backups (core.backups, manage.py backup/restore): a consistent copy of the database
# into DATA_DIR/backups and, when SKAT_OFFICE_BACKUP_DIR names a folder (a USB stick),
# there too, kept by core.retention (at most BACKUP_KEEP per folder); serve makes one every
# BACKUP_EVERY_MINUTES and after each finished series.
BACKUP_KEEP = environment.whole(os.environ, "SKAT_OFFICE_BACKUP_KEEP", 100)
BACKUP_EVERY_MINUTES = environment.amount(os.environ, "SKAT_OFFICE_BACKUP_EVERY_MINUTES", 5)

# The local default is for a developer with DEBUG on; with DEBUG off the office refuses
# to start without a real key: SECRET_KEY from the environment, or the file
# ``manage.py serve`` generated once beside the database (config.hall; no secret in git).
INSECURE_LOCAL_SECRET_KEY = "django-insecure-local-only-skat-office-change-me"
#: Django's own check (security.W009): at least 50 characters, at least 5 different ones.
SECRET_KEY_MIN_LENGTH = 50
SECRET_KEY_MIN_UNIQUE = 5


def secret_key_problem(key: str) -> str | None:
    """Why ``key`` cannot sign a server's sessions and seat PINs (an HMAC of it), or None."""
    if not key:
        return "it is not set"
    if key == INSECURE_LOCAL_SECRET_KEY or key.startswith("django-insecure"):
        return "it is a well-known key (the local default or Django's insecure one)"
    if len(key) < SECRET_KEY_MIN_LENGTH:
        return f"it has {len(key)} characters, fewer than {SECRET_KEY_MIN_LENGTH}"
    if len(set(key)) < SECRET_KEY_MIN_UNIQUE:
        return f"it has {len(set(key))} different characters, fewer than {SECRET_KEY_MIN_UNIQUE}"
    return None


SECRET_KEY_FILE = Path(os.environ.get("SECRET_KEY_FILE") or hall.key_file_beside(DATABASES["default"], DATA_DIR))
SECRET_KEY = (
    os.environ.get("SECRET_KEY", "").strip()
    or hall.read_secret_key(SECRET_KEY_FILE)
    # ``serve`` (skat-office, manage.py) generates the key on the first start (config.datadir.prepare).
    or (hall.ensure_secret_key(SECRET_KEY_FILE, replace=False) if env_bool(datadir.SERVING_ENV, False) else "")
    or (INSECURE_LOCAL_SECRET_KEY if DEBUG else "")
)
if not DEBUG and (problem := secret_key_problem(SECRET_KEY)):
    raise ImproperlyConfigured(
        f"DEBUG is off and SECRET_KEY is refused: {problem}. Seat PINs and sessions are signed with it. "
        "Set SECRET_KEY in the environment to a long random value, e.g. "
        '`python -c "import secrets; print(secrets.token_urlsafe(50))"`, '
        f"or start the office with `make run` (manage.py serve), which keeps a generated key in {SECRET_KEY_FILE}."
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [RESOURCE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

# The help pages (mkdocs.yml, `make docs`): the built site the office serves at /help/ (config/help.py).
DOCS_ROOT = Path(os.environ.get("DOCS_ROOT") or RESOURCE_DIR / "docs" / "site")

STATIC_URL = "static/"
STATICFILES_DIRS = [RESOURCE_DIR / "static"]
# STATIC_ROOT: where collectstatic writes (``manage.py serve`` runs it); the tests' server
# processes get their own, so one test's collectstatic never rewrites files another reads.
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or DATA_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "config.staticfiles.DurableManifestStorage"  # whitenoise's, its manifest written durably
    },
}

# After LOGIN_FAILURE_LIMIT failed logins for one username from untrusted devices (a browser
# that logged in before has its own budget: accounts.devices), LOGIN_FAILURE_LIMIT_PER_IP
# from one client address or LOGIN_FAILURE_LIMIT_PER_NETWORK from one IPv6 /64, within
# LOGIN_FAILURE_WINDOW seconds, further attempts are refused until the window has passed.
# PROXY_COUNT: reverse proxies in front of the office that append to X-Forwarded-For (0: use
# the connection's address).
LOGIN_FAILURE_LIMIT = environment.whole(os.environ, "LOGIN_FAILURE_LIMIT", 5)
LOGIN_FAILURE_LIMIT_PER_IP = environment.whole(os.environ, "LOGIN_FAILURE_LIMIT_PER_IP", 20)
LOGIN_FAILURE_LIMIT_PER_NETWORK = environment.whole(os.environ, "LOGIN_FAILURE_LIMIT_PER_NETWORK", 100)
LOGIN_FAILURE_WINDOW = environment.whole(os.environ, "LOGIN_FAILURE_WINDOW", 900)
PROXY_COUNT = environment.whole(os.environ, "PROXY_COUNT", 0)
# The player's lookup by start number and surname (players.throttle): after
# PLAYER_LOOKUP_FAILURE_LIMIT failed lookups from one client address (or
# PLAYER_LOOKUP_FAILURE_LIMIT_PER_NETWORK from one IPv6 /64) within PLAYER_LOOKUP_WINDOW
# seconds, further lookups from it are refused until the window has passed.
PLAYER_LOOKUP_FAILURE_LIMIT = environment.whole(os.environ, "PLAYER_LOOKUP_FAILURE_LIMIT", 30)
PLAYER_LOOKUP_FAILURE_LIMIT_PER_NETWORK = environment.whole(os.environ, "PLAYER_LOOKUP_FAILURE_LIMIT_PER_NETWORK", 150)
PLAYER_LOOKUP_WINDOW = environment.whole(os.environ, "PLAYER_LOOKUP_WINDOW", 600)
# The hall's import of a match-day package fetches only from these league servers
# (leagues.packages.fetching): comma-separated base URLs (https://liga.example.org, also with a
# path) or hosts (liga.example.org[:port]). None (the default): https addresses on the
# internet only, never one in the hall's network or on the laptop (leagues.packages.fetching). Set
# with no entry that names an http(s) host: nothing is fetched (a system check warns: packages.W001).
SKAT_LEAGUE_SERVERS = env_list("SKAT_LEAGUE_SERVERS", [])
# The host-token endpoints of a league server (leagues.publication.host_of_request): after
# LEAGUE_TOKEN_FAILURE_LIMIT unknown tokens from one client address (an IPv6 one by its
# /64) within LEAGUE_TOKEN_WINDOW seconds, its token requests answer 429 until the window
# has passed; another client's right token is never refused.
LEAGUE_TOKEN_FAILURE_LIMIT = max(1, environment.whole(os.environ, "LEAGUE_TOKEN_FAILURE_LIMIT", 10))
LEAGUE_TOKEN_WINDOW = environment.whole(os.environ, "LEAGUE_TOKEN_WINDOW", 600)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

DJANGO_TABLES2_TEMPLATE = "django_tables2/bootstrap5.html"

SECURE = env_bool("SECURE", not DEBUG)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_SSL_REDIRECT = SECURE and env_bool("SECURE_SSL_REDIRECT", True)
# A monitor or a container's health check asks over plain HTTP inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SECURE_HSTS_SECONDS = environment.whole(os.environ, "SECURE_HSTS_SECONDS", 31536000 if SECURE else 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = SECURE
SECURE_HSTS_PRELOAD = SECURE
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if SECURE else None
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
# Table links carry their token in the path: never send it to another site as a Referer.
SECURE_REFERRER_POLICY = "same-origin"
# Sent with every page (config/headers.py): nothing inline, nothing from elsewhere.
# tests/browser/test_content_security_policy.py opens the main pages and fails on any
# violation the browser reports.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

# The hall (config.hall, manage.py serve): the address phones use, printed on the table
# cards and in their QR codes. Detected from the laptop's interfaces when unset; behind
# HTTPS (SECURE) a league server's links use the address the request came by.
PORT = hall.port_from(os.environ)
OFFICE_URL = os.environ.get("OFFICE_URL", "").strip().rstrip("/") or (
    "" if SECURE else hall.office_url(hall.detect().host, PORT)
)
# 127.0.0.2 stands for "another device in the hall" in the tests; the hall address is
# always accepted, so every link the office prints opens.
_LOCAL_HOSTS = ["localhost", "127.0.0.1", "127.0.0.2", "[::1]"]
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", [*_LOCAL_HOSTS, "*"] if DEBUG else _LOCAL_HOSTS)
_OFFICE_HOST = hall.url_host(OFFICE_URL)
if _OFFICE_HOST and _OFFICE_HOST not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append(_OFFICE_HOST)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

from .logs import logging_settings  # noqa: E402 - every handler cleans its records there

#: The access log (config/access.py): on when the office serves (DEBUG off), else off;
#: ACCESS_LOG=0/1 decides.
ACCESS_LOG = env_bool("ACCESS_LOG", not DEBUG)
LOGGING = logging_settings(access_log=ACCESS_LOG, level=os.environ.get("LOG_LEVEL", "WARNING"))
