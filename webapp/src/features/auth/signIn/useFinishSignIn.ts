import { useCallback } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { notify } from "@/lib/notify";
import { useAppConfig } from "@/lib/config";
import { localizePath } from "@/i18n/locales";
import { useLocale } from "@/i18n/useLocalePath";
import { completeSignIn, logout } from "@/session/auth";
import { DEVICE_NOT_ALLOWED_PATH } from "@/session/expiry";
import type { LoginResponse } from "../api/types";
import { encodeLimitData } from "./limitData";
import { redirectQuery, signedInTarget } from "./redirectTarget";

const LIMIT_PAGE = "/auth/login/limit/";
/** Where a new account continues (spec §2: login required, the step after sign-up). */
const PERSONALIZATION_PAGE = "/auth/sign-up/personalization/";

/** What the device-limit page needs beside its `data`: the devices to choose from (kept in history state). */
export interface LimitPageState {
  devices: LoginResponse["content"]["devices"];
  limit: number;
}

/**
 * Finishes any sign-in answer (credentials, registration, provider, device-limit page):
 * - `device_error` set (spec §5, §8): with the new device-limit flow the viewer is logged out and
 *   sent to /auth/login/?deviceNoLongerAllowedError=true; otherwise to /auth/login/limit/ with
 *   data = base64 JSON {token: the limit ticket, provider, username};
 * - else the session is stored and the viewer goes to the `?redirect=` path or home, greeted
 *   as a new or returning viewer by auth_data.isRegister (spec §4); a new account goes to
 *   /auth/sign-up/personalization/ first (the `?redirect=` path handed on).
 */
export function useFinishSignIn(): (response: LoginResponse, context?: { username?: string }) => Promise<void> {
  const config = useAppConfig();
  const navigate = useNavigate();
  const locale = useLocale();
  const [params] = useSearchParams();
  const { t } = useTranslation("auth");
  const redirect = params.get("redirect");

  return useCallback(
    async ({ content, auth_data }, context = {}) => {
      if (content.device_error) {
        if (config.options.new_device_limit_flow) {
          await logout({ revokeToken: false });
          navigate(localizePath(DEVICE_NOT_ALLOWED_PATH + redirectQuery(redirect, "&"), locale), { replace: true });
          return;
        }
        const data = encodeLimitData({
          token: content.device_error.limit_ticket,
          provider: auth_data.provider,
          username: context.username,
        });
        const state: LimitPageState = { devices: content.devices, limit: content.device_error.limit };
        navigate(
          localizePath(`${LIMIT_PAGE}?data=${encodeURIComponent(data)}${redirectQuery(redirect, "&")}`, locale),
          { state },
        );
        return;
      }
      if (!content.profile || !content.tokenData)
        throw new Error("The sign-in answer has neither a session nor a device error");
      completeSignIn({
        profile: content.profile,
        tokenData: content.tokenData,
        devices: content.devices,
        provider: auth_data.provider,
      });
      const name = content.profile.displayName;
      void notify.success(auth_data.isRegister ? t("toasts.welcomeNew", { name }) : t("toasts.welcomeBack", { name }));
      // A new account (registration, or a first federated sign-in) goes on to personalization.
      const target = auth_data.isRegister
        ? localizePath(PERSONALIZATION_PAGE + redirectQuery(redirect), locale)
        : signedInTarget(redirect, locale);
      navigate(target, { replace: true });
    },
    [config.options.new_device_limit_flow, navigate, locale, redirect, t],
  );
}
