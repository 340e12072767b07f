"""The public configuration the webapp starts with (spec section 3)."""

from ...auth import providers
from ..http.context import settings
from ..http.envelope import ok

# The webapp's locales (spec §9); English is the default and has no path prefix.
LOCALES = ("en", "de", "es", "fr", "fr-CA", "he", "it", "pl", "pt", "ca", "ko", "zh", "bs-BA", "uk-UA")
SURVEY_NAME = "survey_user_experience_1"
# Error-reporting defaults (spec §9): breadcrumbs kept, events sent per page session.
ERROR_REPORTING_BREADCRUMBS = 25
ERROR_REPORTING_EVENTS = 10


async def get_app_config():
    """The customer config of spec section 3; built from settings, nothing secret in it."""
    config = settings()
    offered = providers.offered(config)
    return ok(
        {
            "name_short": config.name_short,
            "app_config": {
                "socket_base": config.socket_base or None,
                **{f"enable_auth_via_{name}": name in offered for name in ("facebook", "google", "apple", "ifa")},
            },
            "enable_white_theme": config.enable_white_theme,
            "enable_leagues_view": config.enable_leagues_view,
            "options": {
                "skip_login": providers.skip_login(config, offered),
                "favorite_club": config.favorite_club,
                "teams_short_name": config.teams_short_name,
                "real_kickoff": config.real_kickoff,
                "gender_classification": config.gender_classification,
                "match_stats": config.match_stats,
                "game_highlights": config.game_highlights,
                "player_highlights": config.player_highlights,
                "new_device_limit_flow": config.new_device_limit_flow,
                "disable_team_page": config.disable_team_page,
            },
            "device_limit": config.device_limit,
            "survey": {
                "name": SURVEY_NAME,
                "form_url": config.survey_form_url,
                "wait_after_signup_minutes": config.survey_wait_after_signup_minutes,
                "show_after_seconds": config.survey_show_after_seconds,
                "skip_delay_minutes": config.survey_skip_delay_minutes,
            },
            "analytics": {"enabled": config.analytics_on, "tenant": config.tenant},
            "qoe": {"sample_rate": config.qoe_sample_rate, "batch_seconds": config.qoe_batch_seconds},
            "error_reporting": {
                "dsn": config.webapp_sentry_dsn,
                "environment": config.sentry_environment or config.environment,
                "max_breadcrumbs": ERROR_REPORTING_BREADCRUMBS,
                "max_events": ERROR_REPORTING_EVENTS,
            },
            "smart_banner": {
                "enabled": config.smart_banner_enabled,
                "android_url": config.smart_banner_android_url,
                "ios_url": config.smart_banner_ios_url,
                "closed_cookie_minutes": config.smart_banner_closed_cookie_minutes,
            },
            "store_url_hosts": config.store_url_hosts,
            "redirects": [{"path": path, "to": to} for path, to in config.redirects.items()],
            "default_locale": LOCALES[0],
            "locales": list(LOCALES),
            "ads": {"vast_deadline_ms": config.ad_vast_deadline_ms, "start_deadline_ms": config.ad_start_deadline_ms},
        }
    )
