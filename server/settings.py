"""All runtime configuration, read once from the environment (prefix TOUCHLINE_)."""

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PROJECT_ROOT = Path(__file__).resolve().parent.parent
DEV_SECRET = "touchline-development-secret-change-me"


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
    fixtures_dir: Path = PROJECT_ROOT / "fixtures"
    var_dir: Path = PROJECT_ROOT / "var"
    webapp_dist: Path = PROJECT_ROOT / "webapp" / "dist"

    @model_validator(mode="after")
    def _refuse_default_secret_in_production(self) -> "Settings":
        if self.environment == "production" and self.secret_key == DEV_SECRET:
            raise ValueError("TOUCHLINE_SECRET_KEY must be set in production")
        return self

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")


@lru_cache
def get_settings() -> Settings:
    return Settings()
