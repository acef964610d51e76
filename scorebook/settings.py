"""Scorebook settings: one module, driven by environment variables.

With no environment at all the service runs on SQLite with Celery tasks run eagerly, so
``make run`` works on a fresh machine. ``DATABASE_URL`` and ``CELERY_BROKER_URL`` switch to
PostgreSQL and a real broker (production: PostgreSQL + Redis + Celery workers).
"""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from kombu import Queue

BASE_DIR = Path(__file__).resolve().parent.parent


def envstr(name: str, default: str = "") -> str:
    """A variable set but empty (``DATABASE_URL= make run``) counts as not set."""
    return os.environ.get(name) or default


def envbool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def envint(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value not in (None, "") else default


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in envstr(name, default).split(",") if item.strip()]


DEBUG = envbool("DEBUG", True)
SECRET_KEY = envstr("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off")
    SECRET_KEY = "dev-only-not-secret"  # noqa: S105 - refused above outside DEBUG
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
SITE_NAME = envstr("SITE_NAME", "Scorebook")
# Names a deploy (a commit id, say): a new one makes every phone take the new service
# worker and drop the pages it kept, even when no static file changed.
BUILD_ID = envstr("BUILD_ID", "")
# Only for `make bench`: routes the bare-INSERT baseline view.
BENCH_ENDPOINTS = envbool("BENCH_ENDPOINTS", False)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "django_htmx",
    "csp",
    "scorebook.core",
    "scorebook.clubs",
    "scorebook.matches",
    "scorebook.ledger",
    "scorebook.standings",
    "scorebook.history",
    "scorebook.tournaments",
    "scorebook.federations",
    "scorebook.archive",
    "scorebook.sharing",
    "scorebook.web",
    "api",
]

MIDDLEWARE = [
    "scorebook.core.requestid.RequestIdMiddleware",
    # Public GETs read the replica when one is configured (and fresh enough).
    "scorebook.core.replica.ReplicaReadsMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "scorebook.web.middleware.BadInputMiddleware",
    "scorebook.web.middleware.RefusalMiddleware",
    "axes.middleware.AxesMiddleware",
    # The API's times in UTC with Z (the pages keep TIME_ZONE).
    "api.middleware.UtcAnswers",
    # Last, so it wraps the view alone: every API POST with an Idempotency-Key.
    "api.idempotency.IdempotencyMiddleware",
]

ROOT_URLCONF = "scorebook.urls"
WSGI_APPLICATION = "scorebook.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "scorebook.web.context.site",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        envstr("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=envint("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # One writer at a time: wait for the lock instead of failing at once.
    DATABASES["default"]["OPTIONS"] = {"timeout": 20, "transaction_mode": "IMMEDIATE"}
    DATABASES["default"]["CONN_MAX_AGE"] = 0
elif envbool("DB_PREPARED_STATEMENTS", True):
    # PostgreSQL plans a statement psycopg has seen five times on a connection once, not
    # on every request: a third less database CPU per deal entry in `make bench-http`.
    # Set DB_PREPARED_STATEMENTS=0 behind a pooler in transaction mode (PgBouncer < 1.21).
    DATABASES["default"]["OPTIONS"] = {"server_side_binding": True, "prepare_threshold": 5}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# A PostgreSQL streaming replica for the public reads (scorebook.core.replica,
# deploy/RUNBOOK.md "A read replica"). Unset: everything reads the primary.
if envstr("DATABASE_REPLICA_URL"):
    DATABASES["replica"] = dj_database_url.parse(
        envstr("DATABASE_REPLICA_URL"),
        conn_max_age=envint("CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
    DATABASES["replica"]["OPTIONS"] = {
        **DATABASES["default"].get("OPTIONS", {}),
        "connect_timeout": envint("REPLICA_CONNECT_TIMEOUT", 2),
    }
    # The test runner makes no database there: the replica alias is the primary's.
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["scorebook.core.replica.ReplicaRouter"]
# Seconds a browser that has just written reads the primary; the most a replica may lag
# and still serve; how often each process checks it.
REPLICA_STICKY_SECONDS = envint("REPLICA_STICKY_SECONDS", 15)
REPLICA_MAX_LAG = float(envstr("REPLICA_MAX_LAG", "5"))
REPLICA_CHECK_EVERY = float(envstr("REPLICA_CHECK_EVERY", "5"))

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "scorebook.core.passwords.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

LANGUAGE_CODE = "en"
LANGUAGES = [("it", "Italiano"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = envstr("TIME_ZONE", "Europe/Rome")

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

LOGIN_URL = "web:login"
LOGIN_REDIRECT_URL = "web:home"
LOGOUT_REDIRECT_URL = "web:home"
# The language a user picks is remembered in a cookie for a year (set_language); until
# then LocaleMiddleware follows the browser's Accept-Language.
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
LANGUAGE_COOKIE_SAMESITE = "Lax"

# Content-Security-Policy (django-csp): scripts and styles only from our own static files,
# never inline and never from a CDN (a café may have no internet beyond the club's server).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        # The service worker (/sw.js, our own origin) keeps the table's pages for an outage.
        "worker-src": [SELF],
        "style-src": [SELF],
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}

# Failed logins (web, admin and the API token endpoint) are counted per username *and*
# address: a whole club shares one Wi-Fi address, so never lock out by address alone.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=envint("LOGIN_COOLOFF_MINUTES", 15))
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "scorebook.core.views.login_locked_out"
# The client address, for the login lockout and the anonymous throttles alike: behind
# TRUSTED_PROXY_COUNT proxies (nginx in deploy/: 1) it is the address the outermost trusted
# proxy put at the end of X-Forwarded-For; anything a client wrote before that is ignored.
# With 0, only the socket address counts. DRF's NUM_PROXIES implements the rule; axes
# calls the same function (scorebook.core.clientip).
TRUSTED_PROXY_COUNT = envint("TRUSTED_PROXY_COUNT", 0)
AXES_CLIENT_IP_CALLABLE = "scorebook.core.clientip.client_address"

# The cache holds the anonymous throttles' counts, so every worker process (and every web
# host) must share it. Production: Redis (CACHE_URL=redis://...). The embedded default is
# Django's database cache: it works across processes and hosts with nothing but the
# database already configured, and it is transactional (a file cache is per host and can
# be read half-written). `migrate` makes its table (scorebook/core/migrations/0002); a deploy
# that moves from Redis to db:// later runs Django's `createcachetable` once.
CACHE_URL = envstr("CACHE_URL")
if CACHE_URL.startswith(("redis://", "rediss://", "unix://")):
    CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": CACHE_URL}
    }
elif CACHE_URL in ("", "db://"):
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.db.DatabaseCache",
            "LOCATION": "scorebook_cache",
        }
    }
elif CACHE_URL == "locmem://":  # one process only: its counts are not shared
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
else:
    raise RuntimeError(f"CACHE_URL: use redis://, db:// or locmem://, not {CACHE_URL!r}")

# The largest request body read (Django's default, 2.5 MB; far above any deal), and how long
# a client is asked to wait when the database does not answer (503).
DATA_UPLOAD_MAX_MEMORY_SIZE = envint("DATA_UPLOAD_MAX_MEMORY_SIZE", 2_621_440)
# The import of a club's history (docs/import.md): the largest file it takes, in MB. The
# one home of the number: deploy/nginx.conf's client_max_body_size must be a little above
# it (tests/deploy/test_nginx_limit.py reads both), so that the app, not nginx, answers an
# upload too large with its import.too_large. deploy/RUNBOOK.md says how to raise both.
IMPORT_MAX_MB = envint("IMPORT_MAX_MB", 10)
IMPORT_MAX_BYTES = IMPORT_MAX_MB * 1024 * 1024
# Any signed-in account may found a club: at most CLUB_FOUNDING_LIMIT in
# CLUB_FOUNDING_HOURS hours (docs/clubs.md); past it, 429 club.founding_limit in words.
CLUB_FOUNDING_LIMIT = envint("CLUB_FOUNDING_LIMIT", 5)
CLUB_FOUNDING_HOURS = envint("CLUB_FOUNDING_HOURS", 24)
# Any signed-in account may found a federation (and is its president): at most
# FEDERATION_FOUNDING_LIMIT in CLUB_FOUNDING_HOURS hours (docs/federation.md); past it,
# 429 federation.founding_limit in words.
FEDERATION_FOUNDING_LIMIT = envint("FEDERATION_FOUNDING_LIMIT", 2)
# A preview not accepted within this many days expires (its content deleted; the beat
# task expire-import-previews runs every IMPORT_EXPIRE_EVERY seconds).
IMPORT_PREVIEW_DAYS = envint("IMPORT_PREVIEW_DAYS", 7)
RETRY_AFTER_SECONDS = envint("RETRY_AFTER_SECONDS", 5)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # Token first: an anonymous request then gets 401 with WWW-Authenticate, not 403.
        "api.authentication.FastTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PAGINATION_CLASS": "api.pagination.Pages",
    "PAGE_SIZE": 50,
    "DEFAULT_FILTER_BACKENDS": ["api.scoping.ScopedFilterBackend"],
    "DEFAULT_SCHEMA_CLASS": "api.schema.Schema",
    "EXCEPTION_HANDLER": "api.errors.handler",
    # JSON with control characters, lone surrogates or absurd nesting is refused at the door.
    "DEFAULT_PARSER_CLASSES": [
        "api.parsers.StrictJSONParser",
        "api.parsers.StrictFormParser",
        "api.parsers.StrictMultiPartParser",
    ],
    "DEFAULT_METADATA_CLASS": "api.metadata.Metadata",
    "NUM_PROXIES": TRUSTED_PROXY_COUNT,
    # Anonymous requests per client address, counted in the shared cache.
    "DEFAULT_THROTTLE_RATES": {
        "score": envstr("THROTTLE_SCORE_RATE", "120/min"),
        "public": envstr("THROTTLE_PUBLIC_RATE", "300/min"),
        # New accounts through the API's invitation sign-up, per client address.
        "signup": envstr("THROTTLE_SIGNUP_RATE", "30/hour"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Scorebook API",
    "DESCRIPTION": "Scorekeeping and match records for the Tressette family of card games.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # <id:pk> routes (scorebook/core/numbers.py): a bigint id, from 1.
    "PATH_CONVERTER_OVERRIDES": {
        "id": {"type": "integer", "format": "int64", "minimum": 1, "maximum": 2**63 - 1}
    },
    # A request's component apart from its answer's: read-only fields (id, created_at,
    # token) are not asked for in a request, write-only ones (a password) not promised.
    "COMPONENT_SPLIT_REQUEST": True,
    # The docs page loads a pinned Swagger UI from our own static files, never a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "SWAGGER_UI_SETTINGS": {"deepLinking": True, "validatorUrl": None},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "api.schema.document_errors",
        "api.schema.ids_as_integers",
        "api.deal_schema.document_deals",
    ],
    "ENUM_NAME_OVERRIDES": {
        "NightStatusEnum": "scorebook.matches.models.Night.Status",
        "MatchStatusEnum": "scorebook.matches.models.Match.Status",
        "StakeUnitEnum": "scorebook.matches.models.Match.StakeUnit",
        "LeagueKindEnum": "scorebook.standings.models.League.Kind",
        "FormatEnum": "scorebook.standings.models.League.Format",
        "TiebreaksEnum": "scorebook.standings.leagues.tiebreaks.CRITERIA",
        "TournamentFormatEnum": "scorebook.tournaments.models.Tournament.Format",
        "TournamentCriterionEnum": "scorebook.tournaments.ranking.CRITERIA",
        "RoleEnum": "scorebook.clubs.models.Role",
        "OfficerRoleEnum": "scorebook.federations.models.OfficerRole",
        "ClubInvitationStatusEnum": "scorebook.federations.models.ClubInvitation.Status",
        "PersonLinkStatusEnum": "scorebook.federations.models.PersonLink.Status",
        "FederationLevelEnum": "scorebook.federations.models.Level",
        "FederalTournamentLevelEnum": "scorebook.federations.federal_models.TournamentLevel",
        "FederalTournamentStatusEnum": (
            "scorebook.federations.federal_models.FederalTournament.Status"
        ),
        "FederalRegistrationStatusEnum": (
            "scorebook.federations.federal_models.FederalRegistration.Status"
        ),
        "ChampionshipFormatEnum": "scorebook.federations.championship_models.Championship.Format",
        "ChampionshipStatusEnum": "scorebook.federations.championship_models.Championship.Status",
        "ChampionshipFixtureStatusEnum": (
            "scorebook.federations.championship_models.ChampionshipFixture.Status"
        ),
        "ChampionshipStageEnum": (
            "scorebook.federations.championship_models.ChampionshipFixture.Stage"
        ),
    },
}

# Celery: no broker configured means tasks run eagerly, in-process (as pretix does).
CELERY_BROKER_URL = envstr("CELERY_BROKER_URL")
CELERY_RESULT_BACKEND = envstr("CELERY_RESULT_BACKEND") or None
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = CELERY_TASK_ALWAYS_EAGER
if not CELERY_BROKER_URL:
    CELERY_BROKER_URL = "memory://"
if CELERY_BROKER_URL.startswith("redis://"):
    # Kombu's Redis transport, except that a worker survives losing Redis (see the module).
    CELERY_BROKER_TRANSPORT = "scorebook.core.broker:Transport"
CELERY_TIMEZONE = TIME_ZONE
# Two queues (deploy/RUNBOOK.md, a worker each in production): what a deal entry sets
# going, small and frequent, on the entry queue; what takes long (rebuilds of a season or a
# club, the import's check and run, expiry, the federation's ranking) on the bulk queue, so
# an import or a rebuild never delays the standings a table is waiting for. A worker started
# without -Q consumes both (a single small box). Each task's queue is named here only.
CELERY_QUEUE_ENTRY = envstr("CELERY_QUEUE_ENTRY", "entry")
CELERY_QUEUE_BULK = envstr("CELERY_QUEUE_BULK", "bulk")
CELERY_TASK_QUEUES = (Queue(CELERY_QUEUE_ENTRY), Queue(CELERY_QUEUE_BULK))
CELERY_TASK_DEFAULT_QUEUE = CELERY_QUEUE_ENTRY
CELERY_TASK_ROUTES = {
    "scorebook.standings.tasks.rebuild_standings": {"queue": CELERY_QUEUE_BULK},
    "scorebook.history.tasks.*": {"queue": CELERY_QUEUE_BULK},
    "scorebook.federations.tasks.*": {"queue": CELERY_QUEUE_BULK},
}
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# /healthz waits this long (seconds) for the broker and for a worker to run its heartbeat.
HEALTHZ_TIMEOUT = float(envstr("HEALTHZ_TIMEOUT", "2"))
# Standings freshness: the beat sweeper re-schedules stale marks older than
# STANDINGS_SWEEP_AFTER seconds that no task handled (broker down, worker killed).
STANDINGS_SWEEP_AFTER = envint("STANDINGS_SWEEP_AFTER", 10)
CELERY_BEAT_SCHEDULE = {
    "sweep-stale-standings": {
        "task": "scorebook.standings.tasks.sweep_stale_standings",
        "schedule": float(envint("STANDINGS_SWEEP_EVERY", 30)),
    },
    # docs/federation.md: a rating refresh lost with a broker that was down is sent again.
    "sweep-stale-federation-ratings": {
        "task": "scorebook.federations.tasks.sweep_stale_federation_ratings",
        "schedule": float(envint("FEDERATION_RATING_SWEEP_EVERY", 60)),
    },
    # docs/import.md: a preview not accepted within IMPORT_PREVIEW_DAYS days expires.
    "expire-import-previews": {
        "task": "scorebook.history.tasks.expire_previews",
        "schedule": float(envint("IMPORT_EXPIRE_EVERY", 3600)),
    },
}

if not DEBUG:
    # Production is HTTPS only (`manage.py check --deploy` is clean, tests/core/). nginx
    # redirects port 80 and says so with X-Forwarded-Proto; Django redirects too, except
    # /healthz, which monitors may ask over plain HTTP on the local port.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
    SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
    SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 365 * 24 * 3600)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", True)
    SESSION_COOKIE_SECURE = envbool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = envbool("CSRF_COOKIE_SECURE", True)

# Every line names the request it belongs to (scorebook.core.requestid).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "scorebook.core.requestid.RequestIdFilter"}},
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"},
        # One JSON object per line, for the log shipper (scorebook.core.logs).
        "json": {"()": "scorebook.core.logs.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "filters": ["request_id"],
            "formatter": envstr("LOG_FORMAT", "plain" if DEBUG else "json"),
        }
    },
    "root": {"handlers": ["console"], "level": envstr("LOG_LEVEL", "INFO")},
}
