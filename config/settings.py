"""Settings for the Skat tournament office.

Defaults suit one laptop in a hall: SQLite in the data directory, DEBUG on, a local secret.
Everything a server needs comes from the environment:

- ``SKAT_OFFICE_DATA`` (or ``--data-dir``): the data directory (``DATA_DIR``: the
  database, the secret key file, the cache, the collected static files, the backups);
  by default the project folder of a checkout, else the platform's user data folder
  (config.datadir);

- ``DATABASE_URL``: e.g. ``postgres://postgres@127.0.0.1:5432/skat`` (dj-database-url);
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

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from config import datadir, hall

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
    "perf",
]

MIDDLEWARE = [
    # One line per request (time, client, method, path, status, ms) when ACCESS_LOG is on.
    "config.access.AccessLog",
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

# SQLite by default: one laptop serves the hall. WAL mode and a busy timeout let the
# scorekeepers' writes queue instead of failing with "database is locked";
# IMMEDIATE transactions take the write lock up front so two writers never deadlock.
DATABASES = {
    # An empty DATABASE_URL (``DATABASE_URL= make test``) is the default, not a crash.
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{DATA_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "60")),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Serving (DEBUG off), each thread keeps its connection (CONN_MAX_AGE above, as on
    # PostgreSQL): opening one per request, with the PRAGMAs below, was 7% of the serving
    # processes' time at three times the hall (a sampling profile, docs: Benchmarks).
    # In development and the tests (DEBUG on) a connection per request, as before: kept
    # ones broke the test suite's databases between tests (permissions and content types
    # flushed under a kept connection; the cause is not understood yet).
    if DEBUG and "CONN_MAX_AGE" not in os.environ:
        DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; "
            # Kept connections keep their page cache and the WAL its size: at most 8 MB a
            # connection (4 processes x 5 threads: 160 MB), the WAL cut back to 64 MB.
            "PRAGMA cache_size=-8000; PRAGMA journal_size_limit=67108864;"
        ),
    }
    # Tests use a file too, not Django's shared-cache in-memory database: that one
    # answers a second writer "table is locked" at once instead of waiting, so two
    # phones at once (tests/scoring/test_concurrency.py) would not behave as in the hall.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / ".test-db.sqlite3")}


# The public standings and the projector page are computed once per change of the
# results and kept in files every server process shares (standings.cache): beside
# the SQLite database, or in CACHE_DIR (``.cache`` in the data directory on PostgreSQL).
# Entries carry the tournament's results mark in
# their key, so a stale one is never read; old ones expire or are culled.
def _cache_dir(database: dict) -> Path:
    name = str(database.get("NAME") or "")
    if database.get("ENGINE", "").endswith("sqlite3") and name and name != ":memory:":
        return Path(name).with_name(Path(name).name + ".cache")
    return DATA_DIR / ".cache"


CACHE_DIR = Path(os.environ.get("CACHE_DIR") or _cache_dir(DATABASES["default"]))
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(CACHE_DIR),
        "TIMEOUT": 3 * 60 * 60,
        # FileBasedCache lists its directory on every write: a thousand files keep that quick.
        "OPTIONS": {"MAX_ENTRIES": 1000},
    }
}
#: The public standings and the projector page follow the results with this delay
#: (seconds) at least: in play the results change many times a second, and the pages are
#: computed once per this time instead of once per change; a page that takes longer makes
#: it longer (ten times the page's time, standings.cache.lag_seconds).
STANDINGS_SETTLE_SECONDS = float(os.environ.get("STANDINGS_SETTLE_SECONDS", "5"))
#: Entries first under overload (config.admission): at most this many spectator requests
#: (the public pages under /p/) run at once in a server process; the others get the page
#: last answered when it is at most BUSY_COPY_SECONDS old, else "busy, again in
#: BUSY_RETRY_AFTER s" (503 with Retry-After). The table links' entries never wait behind them.
SPECTATOR_SLOTS = int(os.environ.get("SPECTATOR_SLOTS", "2"))
BUSY_COPY_SECONDS = float(os.environ.get("BUSY_COPY_SECONDS", "30"))
#: A spectator's page computed at most this long ago is given as it is to the next
#: spectators, even when a slot is free: the crowd costs one computation per page and
#: interval, and its standings are at most this much older than the office's.
SPECTATOR_FRESH_SECONDS = float(os.environ.get("SPECTATOR_FRESH_SECONDS", "5"))
BUSY_RETRY_AFTER = int(os.environ.get("BUSY_RETRY_AFTER", "5"))
#: The hall check before play (dashboard.hall, static/js/hall-check.js): a table link's
#: phone sends HALL_CHECK_PINGS round trips, one every HALL_CHECK_INTERVAL_MS, and counts
#: one unanswered after HALL_CHECK_TIMEOUT_MS as lost (20 over 10 s: long enough to see a
#: weak access point, short enough for a helper walking the hall).
HALL_CHECK_PINGS = int(os.environ.get("HALL_CHECK_PINGS", "20"))
HALL_CHECK_INTERVAL_MS = int(os.environ.get("HALL_CHECK_INTERVAL_MS", "500"))
HALL_CHECK_TIMEOUT_MS = int(os.environ.get("HALL_CHECK_TIMEOUT_MS", "3000"))

# Backups (core.backups, manage.py backup/restore): a consistent copy of the database
# into DATA_DIR/backups and, when SKAT_OFFICE_BACKUP_DIR names a folder (a USB stick),
# there too; the last BACKUP_KEEP of each kind are kept; serve makes one every
# BACKUP_EVERY_MINUTES and after each finished series.
BACKUP_KEEP = int(os.environ.get("SKAT_OFFICE_BACKUP_KEEP") or 24)
BACKUP_EVERY_MINUTES = float(os.environ.get("SKAT_OFFICE_BACKUP_EVERY_MINUTES") or 5)

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
    or (hall.ensure_secret_key(SECRET_KEY_FILE) if env_bool(datadir.SERVING_ENV, False) else "")
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
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# After LOGIN_FAILURE_LIMIT failed logins for one username, or LOGIN_FAILURE_LIMIT_PER_IP
# from one client address (an IPv6 one by its /64), within LOGIN_FAILURE_WINDOW seconds,
# further attempts are refused until the window has passed. PROXY_COUNT: reverse proxies in front of the
# office that append to X-Forwarded-For (0: use the connection's address).
LOGIN_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "5"))
LOGIN_FAILURE_LIMIT_PER_IP = int(os.environ.get("LOGIN_FAILURE_LIMIT_PER_IP", "20"))
LOGIN_FAILURE_WINDOW = int(os.environ.get("LOGIN_FAILURE_WINDOW", "900"))
PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "0"))
# The player's lookup by start number and surname (players.throttle): after
# PLAYER_LOOKUP_FAILURE_LIMIT failed lookups from one client address within
# PLAYER_LOOKUP_WINDOW seconds, further lookups from it are refused until the window has
# passed (a hall behind one router shares an address: the limit allows for typing errors).
PLAYER_LOOKUP_FAILURE_LIMIT = int(os.environ.get("PLAYER_LOOKUP_FAILURE_LIMIT", "30"))
PLAYER_LOOKUP_WINDOW = int(os.environ.get("PLAYER_LOOKUP_WINDOW", "600"))
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
LEAGUE_TOKEN_FAILURE_LIMIT = max(1, int(os.environ.get("LEAGUE_TOKEN_FAILURE_LIMIT", "10")))
LEAGUE_TOKEN_WINDOW = int(os.environ.get("LEAGUE_TOKEN_WINDOW", "600"))

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
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000" if SECURE else "0"))
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
PORT = int(os.environ.get("PORT") or 8000)
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

from .logs import refusal_loggers  # noqa: E402 - beside the LOGGING it fills

#: The access log (config/access.py): on when the office serves (DEBUG off), else off;
#: ACCESS_LOG=0/1 decides.
ACCESS_LOG = env_bool("ACCESS_LOG", not DEBUG)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"one_line_refusals": {"()": "config.logs.OneLineRefusals"}},
    "formatters": {"access": {"format": "%(asctime)s %(message)s", "datefmt": "%Y-%m-%d %H:%M:%S"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "access": {"class": "logging.StreamHandler", "formatter": "access"},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # A refusal (400, 403, 404, 429) is one line in the log; a 500 keeps its traceback (config/logs.py).
    # "django" loses the console handler Django gives it with DEBUG on: its records reach the
    # root's console once, not twice ("Forbidden (Permission denied): /t/1/" printed two times
    # in the terminal of ``manage.py runserver``).
    "loggers": {
        "django": {"handlers": [], "propagate": True},
        **{name: {"filters": ["one_line_refusals"]} for name in refusal_loggers()},
        "office.access": {"handlers": ["access"], "level": "INFO" if ACCESS_LOG else "WARNING", "propagate": False},
        # A backup's problem (a pulled USB stick) is a warning: shown with the default level.
        "core.backups": {"level": "INFO"},
    },
}
