import type { AppConfig } from "@/lib/config";

type Patch = Partial<Omit<AppConfig, "options" | "app_config">> & {
  options?: Partial<AppConfig["options"]>;
  app_config?: Partial<AppConfig["app_config"]>;
};

/**
 * The configuration GET /api/config gives with the defaults of server/settings.py (realtime,
 * sign-on providers, the app banner and the player's QoE beacons off, for tests), changed by
 * `patch`. The one place tests build a configuration.
 */
export function appConfigFixture(patch: Patch = {}): AppConfig {
  const { options, app_config, ...rest } = patch;
  return {
    name_short: "Touchline",
    app_config: {
      socket_base: null,
      enable_auth_via_facebook: false,
      enable_auth_via_google: false,
      enable_auth_via_apple: false,
      enable_auth_via_ifa: false,
      ...app_config,
    },
    enable_white_theme: true,
    enable_leagues_view: true,
    options: {
      skip_login: false,
      favorite_club: false,
      teams_short_name: false,
      real_kickoff: true,
      gender_classification: false,
      match_stats: true,
      game_highlights: true,
      player_highlights: true,
      new_device_limit_flow: false,
      disable_team_page: false,
      ...options,
    },
    device_limit: 5,
    survey: {
      name: "survey_user_experience_1",
      form_url: null,
      wait_after_signup_minutes: 10080,
      show_after_seconds: 20,
      skip_delay_minutes: 1440,
    },
    analytics: { enabled: false, tenant: "touchline" },
    qoe: { sample_rate: 0, batch_seconds: 10 },
    error_reporting: { dsn: null, environment: "test", max_breadcrumbs: 25, max_events: 10 },
    smart_banner: { enabled: false, android_url: null, ios_url: null, closed_cookie_minutes: 60 },
    store_url_hosts: [],
    redirects: [],
    default_locale: "en",
    locales: ["en"],
    ads: { vast_deadline_ms: 2000, start_deadline_ms: 2500 },
    ...rest,
  };
}
