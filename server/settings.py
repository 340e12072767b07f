"""All runtime configuration, read once from the environment (prefix TOUCHLINE_)."""

import ipaddress
import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEV_SECRET = "touchline-development-secret-change-me"
# OWASP's minimum for Argon2id (m=19 MiB, t=2, p=1).
ARGON2_MIN_MEMORY_KIB = 19 * 1024
ARGON2_MIN_TIME_COST = 2
# Test runs' default: about a millisecond a hash instead of 30.
_TEST_ARGON2 = {"argon2_memory_kib": 1024, "argon2_time_cost": 1}
# x264's presets, fastest first (`x264 --help`), up to the slowest a live ladder keeps up with.
X264Preset = Literal["ultrafast", "superfast", "veryfast", "faster", "fast", "medium"]
# The built-in survey form (server/survey.py), the default TOUCHLINE_SURVEY_FORM_URL.
SURVEY_DEFAULT_FORM_PATH = "/survey/user-experience/"
# The alternate app flavour's survey timings (spec §9): wait, show after, ask again after.
_ALTERNATE_SURVEY = {
    "survey_wait_after_signup_minutes": 30,
    "survey_show_after_seconds": 5,
    "survey_skip_delay_minutes": 10,
}


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="TOUCHLINE_", extra="ignore")

    environment: Literal["development", "test", "production"] = "development"
    # DATABASE_URL / REDIS_URL are the names every hosting platform sets; accept them unprefixed.
    database_url: str = Field(
        default=f"sqlite+aiosqlite:///{PROJECT_ROOT / 'var' / 'touchline.db'}",
        validation_alias=AliasChoices("TOUCHLINE_DATABASE_URL", "DATABASE_URL"),
    )
    redis_url: str | None = Field(default=None, validation_alias=AliasChoices("TOUCHLINE_REDIS_URL", "REDIS_URL"))
    secret_key: str = DEV_SECRET
    host: str = "127.0.0.1"
    port: int = Field(default=8080, validation_alias=AliasChoices("TOUCHLINE_PORT", "PORT"))
    # Response validation costs ~27% throughput: on in tests, off in production.
    response_validation: bool = False
    sql_echo: bool = False
    # Anonymous catalogue answers are shared for this long (0 turns the cache off).
    catalogue_cache_seconds: float = Field(default=2.0, ge=0, le=300)
    # Customer config (spec §3): "league•category" meta titles when the leagues view is on.
    enable_leagues_view: bool = True
    # The rest of the customer config the webapp starts with (GET /api/config, spec §3).
    name_short: str = Field(default="Touchline", min_length=1, max_length=40)
    enable_white_theme: bool = True  # without it the dark theme is forced
    # Where the browser opens the socket (path /ws is fixed); empty: no realtime features.
    socket_base: str | None = "/"
    favorite_club: bool = False  # signed-in viewers without a favourite club are sent to /club/
    teams_short_name: bool = False
    real_kickoff: bool = True  # event cards show gameStartDate instead of event_date
    gender_classification: bool = False
    match_stats: bool = True
    game_highlights: bool = True
    player_highlights: bool = True
    # On: a sign-in stopped at the device limit goes back to sign-in with deviceNoLongerAllowedError;
    # off: to /auth/login/limit/ where the viewer removes a device.
    new_device_limit_flow: bool = False
    disable_team_page: bool = False
    # The user-experience survey (spec §2, §4, §9): the form the survey dialog embeds. Default:
    # this server's own small form (server/survey.py); an absolute URL embeds another site's form
    # (its origin joins the page's frame-src); empty: no survey.
    survey_form_url: str | None = SURVEY_DEFAULT_FORM_PATH
    # "alternate": the alternate app flavour's timings (30 min, 5 s, 10 min) for whichever of the
    # three below is not set itself.
    survey_flavour: Literal["default", "alternate"] = "default"
    survey_wait_after_signup_minutes: int = Field(default=7 * 24 * 60, ge=0)
    survey_show_after_seconds: int = Field(default=20, ge=0)
    survey_skip_delay_minutes: int = Field(default=1440, ge=0)
    # How long the player waits for a pre-roll (GET /api/config `ads`): the VAST's answer, then the
    # ad's video playing; past either the match starts without the ad.
    ad_vast_deadline_ms: int = Field(default=2000, ge=500, le=30_000)
    ad_start_deadline_ms: int = Field(default=2500, ge=500, le=30_000)
    # Analytics (identify and track events, POST /api/analytics/events): the tenant every event
    # carries, and whether the webapp sends them (unset: on everywhere but development).
    tenant: str = Field(default="touchline", pattern=r"^[a-z0-9][a-z0-9_.-]{0,39}$")
    analytics_enabled: bool | None = None
    # What one client may send (server/services/analytics_limits.py; anyone may post events):
    # batches per window (seconds) per client address and per sender (viewer, or anonymous id),
    # and the bytes an event and a batch may take as compact JSON (the contract bounds the rest).
    analytics_batches_per_address: int = Field(default=120, ge=1)
    analytics_batches_per_sender: int = Field(default=30, ge=1)
    analytics_batch_window: int = Field(default=60, ge=1, le=3600)
    analytics_max_event_bytes: int = Field(default=4096, ge=1024, le=64 * 1024)
    analytics_max_batch_bytes: int = Field(default=32 * 1024, ge=4096, le=512 * 1024)
    # Events are deleted this many days after they arrived, by the analytics-retention job every
    # analytics_retention_interval_seconds (one process of a cluster; 0 turns it off).
    analytics_retention_days: int = Field(default=90, ge=1, le=3650)
    analytics_retention_interval_seconds: float = Field(default=3600.0, ge=0)
    # Quality of experience (issue 32): the share of views whose player sends beacons
    # (POST /api/qoe/beacons; 0 for none) and how often it sends a batch; what one client may send
    # (server/services/qoe_beacons.py), as for analytics; beacons are deleted after
    # qoe_retention_days by the analytics-retention job.
    qoe_sample_rate: float = Field(default=1.0, ge=0, le=1)
    qoe_batch_seconds: int = Field(default=10, ge=1, le=300)
    qoe_batches_per_address: int = Field(default=240, ge=1)
    qoe_batches_per_view: int = Field(default=30, ge=1)
    qoe_batch_window: int = Field(default=60, ge=1, le=3600)
    qoe_retention_days: int = Field(default=90, ge=1, le=3650)
    # Staff alerts (`qoe-alert`, server/realtime/qoe_alerts.py): thresholds over a live event's
    # last five minutes, once it has qoe_alert_min_plays plays; the job's interval (0: off).
    qoe_rebuffering_alert: float = Field(default=0.05, gt=0, le=1)
    qoe_start_failure_alert: float = Field(default=0.2, gt=0, le=1)
    qoe_alert_min_plays: int = Field(default=5, ge=1)
    qoe_alert_interval_seconds: float = Field(default=10.0, ge=0)
    # Automatic credit of a pay-per-view event's buyers (server/services/outage_credit.py): after
    # this many minutes of outages in all (an interrupted ingest, or technical start failures above
    # outage_start_failure_rate), a credit runs outage_credit_delay_seconds later (staff may
    # cancel it meanwhile): a refund, or an access code of outage_credit_product (access_code).
    outage_credit_minutes: float = Field(default=10.0, gt=0, le=24 * 60)
    outage_credit_delay_seconds: float = Field(default=300.0, ge=0, le=24 * 3600)
    outage_credit_kind: Literal["refund", "access_code"] = "refund"
    outage_credit_product: str | None = Field(default=None, pattern=r"^[0-9a-f]{24}$")
    outage_start_failure_rate: float = Field(default=0.5, gt=0, le=1)
    outage_interval_seconds: float = Field(default=15.0, ge=0)
    # Personal calendar feeds (server/services/calendar_feeds.py): a finished event stays in them
    # this many days after its end; reads per client address per window (seconds), so a feed's
    # secret cannot be guessed by asking.
    calendar_retention_days: int = Field(default=7, ge=0, le=365)
    calendar_reads_per_address: int = Field(default=60, ge=1)
    calendar_read_window: int = Field(default=60, ge=1, le=3600)
    # Error reporting (Sentry): nothing is reported, and the webapp loads no SDK, without a DSN.
    # The webapp reports to TOUCHLINE_SENTRY_WEBAPP_DSN, else to the server's DSN.
    sentry_dsn: str | None = None
    sentry_webapp_dsn: str | None = None
    sentry_environment: str | None = None  # default: TOUCHLINE_ENVIRONMENT
    smart_banner_enabled: bool = True
    smart_banner_android_url: str | None = "https://play.google.com/store/apps/details?id=com.touchline.app"
    smart_banner_ios_url: str | None = "https://apps.apple.com/app/id0000000000"
    smart_banner_closed_cookie_minutes: int = Field(default=60, ge=1)
    # The only hosts `?storeUrl=` on the webapp's root may send the browser to.
    store_url_hosts: Annotated[list[str], NoDecode] = ["play.google.com", "apps.apple.com"]
    # Redirect rules the webapp applies on every navigation (spec §2 guard 4): a JSON object of
    # app path → target; an absolute target is a full-page navigation.
    redirects: dict[str, str] = {}
    # Accounts and sessions (issue: accounts). Lifetimes in seconds.
    access_token_lifetime: int = Field(default=15 * 60, ge=30, le=24 * 3600)
    refresh_token_lifetime: int = Field(default=14 * 24 * 3600, ge=60)  # unused for this long: gone
    session_lifetime: int = Field(default=30 * 24 * 3600, ge=60)  # absolute, whatever the refreshes
    refresh_grace_seconds: int = Field(default=30, ge=0, le=300)  # duplicate refreshes get the same pair
    device_limit: int = Field(default=5, ge=1, le=100)
    limit_ticket_lifetime: int = Field(default=5 * 60, ge=30, le=3600)
    password_reset_lifetime: int = Field(default=60 * 60, ge=60)
    # E-mail verification links (issue 26 §5): a sign-up waits for its owner's click this long.
    email_verification_lifetime: int = Field(default=24 * 3600, ge=300, le=14 * 24 * 3600)
    # Test runs only: every verification mail is also written to this directory as JSON, so
    # out-of-process clients (e2e, contract, CLI tests) follow the link. Refused in production.
    mail_drop_dir: Path | None = None
    # Argon2id, at least OWASP's minimum (19 MiB, t=2, p=1): test runs alone may go below it
    # (_argon2_at_least_owasp_minimum), as Django's tests use a fast hasher.
    argon2_memory_kib: int = Field(default=ARGON2_MIN_MEMORY_KIB, ge=8)
    argon2_time_cost: int = Field(default=ARGON2_MIN_TIME_COST, ge=1)
    argon2_parallelism: int = Field(default=1, ge=1)
    # Hashes at once (0: one core fewer than the machine has, at least one, so a sign-in burst
    # leaves a core to everything else), and how long a sign-in waits for one before it is told
    # to come back (503 with Retry-After) instead of queueing without end.
    argon2_slots: int = Field(default=0, ge=0, le=64)
    argon2_wait_seconds: float = Field(default=3.0, gt=0, le=60)
    # Rate limits: attempts per window (seconds). Every attempt counts per client address.
    # Failed sign-ins count per (account, client address) and per client address: a failing
    # client waits, nobody else does (issue 26 §7, server/services/signin_limits.py).
    login_failures_per_client: int = Field(default=10, ge=1)
    login_client_failure_window: int = Field(default=15 * 60, ge=1)
    login_failures_per_address: int = Field(default=100, ge=1)  # across accounts: spraying one address
    login_address_failure_window: int = Field(default=60 * 60, ge=1)
    # Per account, from every client: far above one client's budget; past it only the account's
    # known devices may sign in until the window's failures decay (failures claiming a known
    # device have a budget of the same size of their own).
    login_failures_per_account: int = Field(default=100, ge=1)
    login_failure_window: int = Field(default=15 * 60, ge=1)
    login_attempts_per_address: int = Field(default=30, ge=1)
    login_address_window: int = Field(default=60, ge=1)
    # New passwords (server/auth/password_rules.py): the zxcvbn score they need (0-4; 2: about a
    # million guesses or more). 0 keeps only the repeated-character and personal-word rules.
    password_min_score: int = Field(default=2, ge=0, le=4)
    # Where links in mails point (the webapp); defaults to this server.
    public_base_url: str | None = None
    # Origins whose pages may open the socket at /ws (comma-separated or a JSON list in
    # TOUCHLINE_SOCKET_ALLOWED_ORIGINS). Unset: this server's own origins (`socket_origins`).
    socket_allowed_origins: Annotated[list[str] | None, NoDecode] = None
    # Per-message deflate on websockets: ~3x the memory per connection (TOOLCHAIN-NOTES), off.
    socket_per_message_deflate: bool = False
    # Socket caps per process (server/realtime/caps.py): connections open at once from one client
    # address (REST's, X-Forwarded-For from TOUCHLINE_FORWARDED_ALLOW_IPS; 0: no cap, for load
    # tests from one machine), and rooms one connection may be in (a page needs two or three).
    socket_connections_per_address: int = Field(default=20, ge=0, le=100_000)
    socket_rooms_per_connection: int = Field(default=50, ge=1, le=10_000)
    # Seconds between full garbage collections, which then run only on this timer (see
    # server/gc_policy.py: with thousands of sockets CPython's own schedule stalls broadcasts for
    # ~1 s). 0 keeps CPython's schedule.
    gc_full_collection_interval: float = Field(default=300.0, ge=0)
    # Federated sign-on (server/auth/providers). A provider is offered when it is enabled and
    # configured: google and apple need a client id, facebook an app id and secret, ifa an
    # issuer and a client id. OpenID Connect providers are found through
    # {issuer}/.well-known/openid-configuration.
    skip_login: bool = False  # with ifa offered, the sign-in page goes straight to it (spec §2)
    federation_timeout: float = Field(default=10.0, gt=0, le=60)  # seconds for one call to a provider
    federation_cache_seconds: int = Field(default=3600, ge=0, le=24 * 3600)  # discovery documents, keys
    facebook_enabled: bool = True
    facebook_app_id: str | None = None
    facebook_app_secret: str | None = None
    facebook_graph_url: str = "https://graph.facebook.com/v15.0"
    apple_enabled: bool = True
    apple_client_id: str | None = None  # the Services ID
    apple_issuer: str = "https://appleid.apple.com"
    google_enabled: bool = True
    google_client_id: str | None = None
    google_issuer: str = "https://accounts.google.com"
    ifa_enabled: bool = True
    ifa_issuer: str | None = None
    ifa_client_id: str | None = None
    ifa_client_secret: str | None = None
    ifa_redirect_uri: str | None = None  # default: {public base URL}/auth/oauth2/callback/ifa/
    # Password resets and changes: requests per mail address and per client address, attempts per
    # account (each attempt costs two Argon2 hashes). Windows in seconds.
    password_reset_requests_per_email: int = Field(default=5, ge=1)
    password_reset_email_window: int = Field(default=60 * 60, ge=1)
    password_reset_requests_per_address: int = Field(default=20, ge=1)
    password_reset_address_window: int = Field(default=60 * 60, ge=1)
    password_change_attempts: int = Field(default=5, ge=1)
    password_change_window: int = Field(default=15 * 60, ge=1)
    # Access-code redemption attempts per account (every attempt counts, right or wrong).
    access_code_attempts: int = Field(default=10, ge=1)
    access_code_window: int = Field(default=10 * 60, ge=1)
    # Timeline tags a viewer may save (POST /api/tag/saveV2) per window of seconds.
    tag_saves_per_account: int = Field(default=60, ge=1)
    tag_save_window: int = Field(default=60, ge=1)
    # Mail: without smtp_host every mail stays in the outbox (GET /admin/outbox) with status `kept`.
    smtp_host: str | None = None
    smtp_port: int = Field(default=587, ge=1, le=65535)
    smtp_username: str | None = None
    smtp_password: SecretStr | None = None
    smtp_starttls: bool = True  # require STARTTLS (turn off only for a local relay)
    smtp_timeout: float = Field(default=15.0, gt=0, le=120)
    mail_from: str = "Touchline <no-reply@touchline.invalid>"
    # Outbox mail (delivered or not) is removed this many hours after it was written: it holds
    # addresses and, for delivery, working links (the outbox-audit-retention job).
    outbox_retention_hours: int = Field(default=168, ge=1, le=24 * 366)
    # Audit entries are removed this many days after they were recorded (the same job).
    audit_retention_days: int = Field(default=400, ge=1, le=3650)
    # The outbox-audit-retention job's interval (one process of a cluster; 0 turns it off).
    outbox_audit_retention_interval_seconds: float = Field(default=3600.0, ge=0)
    # How often asset directories no asset names any more are removed (server/media/assets/sweep.py;
    # one process of a cluster; 0 turns it off).
    media_sweep_interval_seconds: float = Field(default=3600.0, ge=0)
    # Card payments (server/payments): the provider that charges cards; "sandbox" is the built-in
    # test-mode processor. Its "requires action" test cards stay processing this many seconds.
    payment_provider: Literal["sandbox"] = "sandbox"
    payment_sandbox_action_seconds: float = Field(default=5.0, ge=0, le=300)
    # Background jobs (server/jobs.py, each round in one process of a cluster), in seconds; 0 turns one off.
    # Settlement: "requires action" charges the provider decided reach their purchase or contract.
    settlement_interval_seconds: float = Field(default=1.0, ge=0)
    # Renewals: contracts at their period end are charged again, marked past due or expired.
    renewal_interval_seconds: float = Field(default=3600.0, ge=0)
    # Expired idempotency keys and card tokens are deleted.
    payment_cleanup_interval_seconds: float = Field(default=3600.0, ge=0)
    # Kickoff: upcoming events whose event_date has come go live (server/services/event_admin.py).
    kickoff_interval_seconds: float = Field(default=10.0, ge=0)
    # Notices: `user-purchase-status` a dead process decided but never sent goes out
    # (server/services/status_notices.py); sent notices are deleted after a day.
    notices_interval_seconds: float = Field(default=2.0, ge=0)
    # Go-live alerts: followers of an event that went live are told by the process that put it on
    # air; this job tells them when that process died first (server/services/live_alerts.py).
    live_alerts_interval_seconds: float = Field(default=5.0, ge=0)
    # Stream tokens (server/media/delivery/signing.py) stop working this many seconds after the event
    # was fetched; the player fetches the event again for a fresh one. Also the bound on how long
    # media keeps playing after a logout or a session staff end (ARCHITECTURE.md, "Media at the edge").
    stream_token_seconds: int = Field(default=300, ge=30, le=24 * 3600)
    # What the tokens look like (server/media/delivery/edge_tokens.py), for the edge that checks
    # them: `secure_link` (nginx; `touchline cluster`'s edge) or `akamai` (an EdgeAuth 2.0 token,
    # `exp=~acl=~hmac=`, for a CDN that checks those). The key both are made with (hex, at least 32
    # bytes): by default derived from the secret key; set it to share it with a CDN.
    stream_token_flavour: Literal["secure_link", "akamai"] = "secure_link"
    stream_token_key: SecretStr | None = None
    # Stream and poster addresses staff store may point into private, loopback and link-local
    # networks only where this is on (a lab's local encoder): viewers' players open them
    # (server/media/delivery/stream_addresses.py).
    allow_private_stream_urls: bool = False
    # Live playlists (server/media/delivery/live.py) list this many seconds of the stream behind the live
    # edge, so viewers can seek back and jump to live again; never from before the kickoff.
    live_rewind_seconds: int = Field(default=1800, ge=6, le=6 * 3600)
    # Live ingest (server/media/sources/rtmp.py, server/services/stream_keys.py): nginx's RTMP module
    # listens on this address and port; each stream key gets an SRT listener port from the range.
    # Off: no nginx is started (tests, the contract checks, all but one process of a cluster).
    ingest_enabled: bool = True
    # `own`: this process runs nginx-rtmp as its child (`make run`); `external`: another program
    # runs it for several processes (`touchline cluster`), its control and stat API on
    # TOUCHLINE_RTMP_CONTROL_PORT of 127.0.0.1 (server/ingest/serving.py).
    ingest_nginx: Literal["own", "external"] = "own"
    rtmp_control_port: int = Field(default=0, ge=0, le=65535)  # own: 0 picks a free one
    ingest_host: str = "127.0.0.1"
    rtmp_port: int = Field(default=1935, ge=1, le=65535)
    srt_ports: str = Field(default="9000-9099", pattern=r"^\d{1,5}-\d{1,5}$")
    # Live inputs (issue 28 §3, §4): the ladder's segment length, how far viewers may rewind,
    # how near its kickoff an upcoming event goes live when its feed arrives, and how long an
    # encoder may be away before the event is interrupted.
    live_segment_seconds: float = Field(default=2.0, ge=1.0, le=6.0)
    dvr_seconds: int = Field(default=2 * 3600, ge=10, le=24 * 3600)
    ingest_autostart_minutes: int = Field(default=30, ge=0, le=7 * 24 * 60)
    ingest_reconnect_seconds: int = Field(default=60, ge=1, le=3600)
    # Past this many MB in TOUCHLINE_MEDIA_DIR new live inputs are refused (running ones go on);
    # 0: no budget.
    media_budget_mb: int = Field(default=0, ge=0)
    # The media library (issue 29): staff's uploads (tus 1.0, server/api/admin/uploads.py) may be
    # this large; one left unfinished is removed after the retention. Transcoding jobs run this
    # many at a time across a cluster (server/transcoding), each ffmpeg using every core it finds;
    # audio is loudness-normalised to EBU R128 (-23 LUFS) unless turned off.
    upload_max_bytes: int = Field(default=20 * 1024**3, ge=1024, le=1024**4)
    upload_retention_hours: int = Field(default=24, ge=1, le=24 * 30)
    transcode_concurrency: int = Field(default=1, ge=0, le=16)  # 0: this deployment transcodes nothing
    transcode_loudnorm: bool = True
    # x264's speed for every ladder, live and uploaded: a faster preset spends less CPU on each
    # rendition for a little more bitrate at the same quality (Owncast's "CPU usage" level).
    x264_preset: X264Preset = "veryfast"
    # The VAST ad tag the seed gives a few live and archived games (`advertisements.link.vast`):
    # by default this server's own test ad (server/media/delivery/ads.py; server.media.delivery.urls.DEFAULT_VAST_URL);
    # empty: the seed gives no event an ad.
    ads_vast_url: str = "/media/ads/preroll.xml"
    # Regions (ISO 3166 alpha-2): the request header a CDN or proxy sets with the viewer's
    # country (e.g. CloudFront-Viewer-Country); without one, everyone is in the default region.
    region_header: str | None = None
    # How long one process reuses what a viewer holds (0: query every request); see HoldingsCache.
    holdings_cache_seconds: float = Field(default=2.0, ge=0, le=60)
    default_region: str = Field(default="GB", pattern=r"^[A-Z]{2}$")
    # Hardening (server/api/http/limits.py, server/guards.py, server/web.py).
    # Request bodies larger than this answer 413 before they are read whole; no operation of the
    # contract needs more than a few kilobytes.
    max_body_bytes: int = Field(default=1024 * 1024, ge=1024, le=64 * 1024 * 1024)
    # Addresses of the proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (uvicorn's
    # forwarded_allow_ips: addresses or networks, comma-separated; "*" trusts anyone). None by
    # default: the client address is the connection's, so nobody can pick the address the
    # per-address limits count.
    forwarded_allow_ips: Annotated[list[str], NoDecode] = []
    # Host names requests may name (comma-separated; "*.example.com" covers subdomains). Unset:
    # any in development, else this server's own (the public base URL's host, localhost).
    allowed_hosts: Annotated[list[str] | None, NoDecode] = None
    # Origins (besides this server) the webapp may load images and streams from, for a CDN in
    # front of artwork or media (the Content-Security-Policy of the pages; comma-separated).
    content_origins: Annotated[list[str], NoDecode] = []
    fixtures_dir: Path = PROJECT_ROOT / "fixtures"
    var_dir: Path = PROJECT_ROOT / "var"
    # Every asset's bytes (server/media/assets/store.py): live ladders, recordings, uploads, and
    # links to the shipped samples. Shared by every server process of a cluster. Unset: `media`
    # in the var directory.
    media_dir: Path = PROJECT_ROOT / "var" / "media"
    webapp_dist: Path = PROJECT_ROOT / "webapp" / "dist"

    @model_validator(mode="after")
    def _srt_ports_a_range(self) -> "Settings":
        low, _, high = self.srt_ports.partition("-")
        if not 1 <= int(low) <= int(high) <= 65535:
            raise ValueError(f"TOUCHLINE_SRT_PORTS {self.srt_ports!r} is not a range of ports (9000-9099)")
        return self

    @model_validator(mode="after")
    def _external_nginx_has_its_control_port(self) -> "Settings":
        if self.ingest_nginx == "external" and self.ingest_enabled and not self.rtmp_control_port:
            raise ValueError(
                "TOUCHLINE_INGEST_NGINX=external needs TOUCHLINE_RTMP_CONTROL_PORT (nginx's stat and control)"
            )
        return self

    @model_validator(mode="after")
    def _media_in_var_unless_set(self) -> "Settings":
        if "media_dir" not in self.model_fields_set:
            self.media_dir = self.var_dir / "media"
        return self

    @model_validator(mode="after")
    def _refuse_default_secret_in_production(self) -> "Settings":
        if self.environment == "production" and self.secret_key == DEV_SECRET:
            raise ValueError("TOUCHLINE_SECRET_KEY must be set in production")
        return self

    @model_validator(mode="after")
    def _argon2_at_least_owasp_minimum(self) -> "Settings":
        # A test suite hashes thousands of passwords: there the default is a cheap hash (the
        # parameters a test sets stay). Every other environment hashes them to last.
        if self.environment == "test":
            for name, value in _TEST_ARGON2.items():
                if name not in self.model_fields_set:
                    setattr(self, name, value)
        elif self.argon2_memory_kib < ARGON2_MIN_MEMORY_KIB or self.argon2_time_cost < ARGON2_MIN_TIME_COST:
            raise ValueError(
                f"TOUCHLINE_ARGON2_MEMORY_KIB must be at least {ARGON2_MIN_MEMORY_KIB} and "
                f"TOUCHLINE_ARGON2_TIME_COST at least {ARGON2_MIN_TIME_COST} (OWASP's minimum for Argon2id)"
            )
        return self

    @model_validator(mode="after")
    def _refuse_mail_drop_in_production(self) -> "Settings":
        if self.environment == "production" and self.mail_drop_dir is not None:
            raise ValueError("TOUCHLINE_MAIL_DROP_DIR is for test runs: it must not be set in production")
        return self

    @model_validator(mode="after")
    def _refuse_plain_http_providers_in_production(self) -> "Settings":
        if self.environment == "production":
            for name in ("facebook_graph_url", "apple_issuer", "google_issuer", "ifa_issuer"):
                value = getattr(self, name)
                if value and not value.startswith("https://"):
                    raise ValueError(f"TOUCHLINE_{name.upper()} must be an https:// URL in production")
        return self

    @model_validator(mode="after")
    def _outage_credit_code_needs_its_product(self) -> "Settings":
        if self.outage_credit_kind == "access_code" and self.outage_credit_product is None:
            raise ValueError("TOUCHLINE_OUTAGE_CREDIT_KIND=access_code needs TOUCHLINE_OUTAGE_CREDIT_PRODUCT")
        return self

    @model_validator(mode="after")
    def _survey_flavour(self) -> "Settings":
        if self.survey_flavour == "alternate":
            for name, value in _ALTERNATE_SURVEY.items():
                if name not in self.model_fields_set:
                    setattr(self, name, value)
        return self

    @field_validator("survey_form_url", "sentry_dsn", "sentry_webapp_dsn", mode="before")
    @classmethod
    def _empty_is_none(cls, value):
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @field_validator("survey_form_url")
    @classmethod
    def _check_survey_form_url(cls, value: str | None) -> str | None:
        if value is None or value.startswith("/"):
            return value
        origin_of(value)  # an absolute http(s) URL, or a ValueError
        return value

    @field_validator("stream_token_key")
    @classmethod
    def _check_stream_token_key(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and re.fullmatch(r"(?:[0-9a-fA-F]{2}){32,128}", value.get_secret_value()) is None:
            raise ValueError("a stream token key is 64 to 256 hexadecimal digits (32 to 128 bytes)")
        return value

    @field_validator("sentry_dsn", "sentry_webapp_dsn")
    @classmethod
    def _check_dsn(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname or not parts.username:
            raise ValueError("a Sentry DSN looks like https://<key>@<host>/<project id>")
        return value

    @property
    def analytics_on(self) -> bool:
        """Whether the webapp sends analytics: the setting, else anywhere but development."""
        if self.analytics_enabled is not None:
            return self.analytics_enabled
        return self.environment != "development"

    @property
    def webapp_sentry_dsn(self) -> str | None:
        return self.sentry_webapp_dsn or self.sentry_dsn

    @field_validator("store_url_hosts", mode="before")
    @classmethod
    def _parse_hosts(cls, value):
        if isinstance(value, str):
            return [host.strip().lower() for host in value.split(",") if host.strip()]
        return value

    @field_validator("forwarded_allow_ips", "allowed_hosts", "content_origins", mode="before")
    @classmethod
    def _parse_list(cls, value):
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("allowed_hosts")
    @classmethod
    def _check_hosts(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        if not value:
            raise ValueError("allowed_hosts must name at least one host (unset it for the default)")
        return [host.lower().rstrip(".") for host in value]

    @field_validator("content_origins")
    @classmethod
    def _check_content_origins(cls, value: list[str]) -> list[str]:
        return [normalise_origin(origin) for origin in value]

    @field_validator("socket_allowed_origins", mode="before")
    @classmethod
    def _parse_origins(cls, value):
        if isinstance(value, str):
            text = value.strip()
            if not text:
                return None  # an empty variable means "not set", never "no check"
            if text.startswith("["):
                import json

                return json.loads(text)
            return [part for part in (p.strip() for p in text.split(",")) if part]
        return value

    @field_validator("socket_allowed_origins")
    @classmethod
    def _check_origins(cls, value: list[str] | None) -> list[str] | None:
        if value is None:
            return None
        # python-engineio reads [] as "no Origin check at all" and "*" as "any origin".
        if not value:
            raise ValueError("socket_allowed_origins must list at least one origin (unset it for the default)")
        if "*" in value:
            raise ValueError("socket_allowed_origins cannot be '*' (any site could open sockets as its visitors)")
        return [normalise_origin(origin) for origin in value]

    @property
    def base_url(self) -> str:
        return (self.public_base_url or f"http://{self.host}:{self.port}").rstrip("/")

    @property
    def socket_origins(self) -> list[str]:
        """The Origins the socket handshake accepts: the setting, else this server's own."""
        if self.socket_allowed_origins:
            return list(self.socket_allowed_origins)
        own = [origin_of(self.base_url), f"http://127.0.0.1:{self.port}", f"http://localhost:{self.port}"]
        return list(dict.fromkeys(own))

    @property
    def trusted_hosts(self) -> list[str] | None:
        """The Host names requests may carry: the setting, else any in development (None), else
        this server's own (its public base URL's host or the interface it listens on, localhost)."""
        if self.allowed_hosts:
            return list(self.allowed_hosts)
        if self.environment == "development":
            return None
        own = [urlsplit(self.base_url).hostname or "", "localhost", "127.0.0.1", "::1"]
        if _names_a_host(self.host):  # not a wildcard interface such as 0.0.0.0
            own.append(self.host.lower())
        return list(dict.fromkeys(host for host in own if host))

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _names_a_host(interface: str) -> bool:
    try:
        return not ipaddress.ip_address(interface).is_unspecified
    except ValueError:
        return bool(interface)  # a name


def normalise_origin(value: str) -> str:
    """`scheme://host[:port]` as a browser sends it in `Origin`: lower case, no path, no
    default port. Raises ValueError for anything that is not an http(s) origin."""
    parts = urlsplit(value.strip())
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{value!r} is not an origin: it has a path, query or fragment")
    return origin_of(value)


def origin_of(url: str) -> str:
    """The origin of an http(s) URL (what a page served from it sends as `Origin`)."""
    parts = urlsplit(url.strip())
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname or parts.username or parts.password:
        raise ValueError(f"{url!r} is not an origin like https://touchline.example")
    host = parts.hostname
    if ":" in host:
        host = f"[{host}]"  # IPv6 literal
    port = parts.port
    return f"{parts.scheme}://{host}" + (f":{port}" if port and port != _DEFAULT_PORTS[parts.scheme] else "")


@lru_cache
def get_settings() -> Settings:
    return Settings()
