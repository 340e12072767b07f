"""Settings of the survey, analytics, error reporting, password hashing and the ladders' encoder
(server/settings.py)."""

import pytest
from pydantic import ValidationError

from server.settings import SURVEY_DEFAULT_FORM_PATH, Settings


def test_the_survey_uses_the_built_in_form_unless_told_otherwise():
    assert Settings().survey_form_url == SURVEY_DEFAULT_FORM_PATH
    assert Settings(survey_form_url="").survey_form_url is None  # empty: no survey
    assert Settings(survey_form_url="https://forms.example.com/f/1").survey_form_url == "https://forms.example.com/f/1"
    with pytest.raises(ValidationError):
        Settings(survey_form_url="javascript:alert(1)")


def test_the_alternate_flavour_has_its_own_timings_unless_one_is_set():
    default = Settings()
    assert (
        default.survey_wait_after_signup_minutes,
        default.survey_show_after_seconds,
        default.survey_skip_delay_minutes,
    ) == (7 * 24 * 60, 20, 1440)
    alternate = Settings(survey_flavour="alternate")
    assert (
        alternate.survey_wait_after_signup_minutes,
        alternate.survey_show_after_seconds,
        alternate.survey_skip_delay_minutes,
    ) == (30, 5, 10)
    assert Settings(survey_flavour="alternate", survey_show_after_seconds=8).survey_show_after_seconds == 8


def test_analytics_are_off_in_development_unless_turned_on():
    assert not Settings(environment="development").analytics_on
    assert Settings(environment="production", secret_key="s" * 32).analytics_on
    assert Settings(environment="development", analytics_enabled=True).analytics_on
    assert not Settings(environment="test", analytics_enabled=False).analytics_on


def test_sentry_dsns():
    assert Settings(sentry_dsn="").sentry_dsn is None
    assert Settings(sentry_dsn="https://k@o1.ingest.example/5").webapp_sentry_dsn == "https://k@o1.ingest.example/5"
    both = Settings(sentry_dsn="https://k@o1.ingest.example/5", sentry_webapp_dsn="https://w@o1.ingest.example/6")
    assert both.webapp_sentry_dsn == "https://w@o1.ingest.example/6"
    with pytest.raises(ValidationError):
        Settings(sentry_dsn="o1.ingest.example/5")


@pytest.mark.parametrize("environment", ["development", "production"])
@pytest.mark.parametrize("weak", [{"argon2_memory_kib": 1024}, {"argon2_time_cost": 1}])
def test_argon2_below_owasps_minimum_is_refused_outside_test_runs(environment, weak):
    with pytest.raises(ValidationError, match="OWASP's minimum"):
        Settings(environment=environment, secret_key="s" * 40, **weak)


def test_passwords_are_hashed_to_owasps_minimum_by_default():
    settings = Settings(environment="production", secret_key="s" * 40)
    assert (settings.argon2_memory_kib, settings.argon2_time_cost) == (19 * 1024, 2)


def test_a_test_run_hashes_cheaply_unless_a_test_asks_for_more():
    assert (Settings(environment="test").argon2_memory_kib, Settings(environment="test").argon2_time_cost) == (1024, 1)
    chosen = Settings(environment="test", argon2_memory_kib=64 * 1024, argon2_time_cost=4)
    assert (chosen.argon2_memory_kib, chosen.argon2_time_cost) == (64 * 1024, 4)


def test_a_process_using_the_clusters_nginx_must_be_told_where_its_stat_and_control_are():
    with pytest.raises(ValidationError, match="TOUCHLINE_RTMP_CONTROL_PORT"):
        Settings(ingest_nginx="external", ingest_enabled=True)
    assert Settings(ingest_nginx="external", ingest_enabled=True, rtmp_control_port=8999).rtmp_control_port == 8999
    assert Settings(ingest_nginx="external", ingest_enabled=False).ingest_nginx == "external"


def test_ladders_are_encoded_at_veryfast_unless_another_x264_preset_is_set(monkeypatch):
    monkeypatch.delenv("TOUCHLINE_X264_PRESET", raising=False)  # the test run's own (tests/media_dir.py)
    assert Settings().x264_preset == "veryfast"
    monkeypatch.setenv("TOUCHLINE_X264_PRESET", "superfast")
    assert Settings().x264_preset == "superfast"
    monkeypatch.setenv("TOUCHLINE_X264_PRESET", "placebo-fast")
    with pytest.raises(ValidationError, match="x264_preset"):
        Settings()
