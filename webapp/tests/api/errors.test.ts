// @vitest-environment node
import { beforeAll, describe, expect, it } from "vitest";
import { createInstance, type TFunction } from "i18next";
import { ApiError } from "@/api/apiError";
import { errorText } from "@/api/errors";
import english from "@/i18n/locales/en/errors.json";
import german from "@/i18n/locales/de/errors.json";

let t: TFunction;
let tDe: TFunction;

beforeAll(async () => {
  const i18n = createInstance();
  await i18n.init({
    lng: "en",
    ns: ["errors"],
    defaultNS: "errors",
    resources: { en: { errors: english }, de: { errors: german } },
  });
  t = i18n.t;
  tDe = i18n.getFixedT("de");
});

describe("errorText", () => {
  it("shows the translation of errors.{code} first", () => {
    const error = new ApiError(401, {
      error: true,
      message: "Wrong username or password",
      messageErrorCode: "invalid_credentials",
    });
    expect(errorText(error, t)).toBe(english.invalid_credentials);
    expect(errorText(error, tDe)).toBe(german.invalid_credentials);
  });

  it("prefers errors.{code}_{reason} when the error says why a field was refused", () => {
    const refused = (reason: string) =>
      new ApiError(400, {
        error: true,
        message: "Refused",
        messageErrorCode: "weak_password",
        details: [{ field: "password", message: "Refused", reason }],
      });
    expect(errorText(refused("common"), t)).toBe(english.weak_password_common);
    expect(errorText(refused("repeated"), tDe)).toBe(german.weak_password_repeated);
    expect(errorText(refused("a_reason_from_later"), t)).toBe(english.weak_password);
  });

  it("falls back to the server's message for a code without translation", () => {
    const error = new ApiError(409, {
      error: true,
      message: "The moon is not for sale",
      messageErrorCode: "moon_not_for_sale",
    });
    expect(errorText(error, t)).toBe("The moon is not for sale");
  });

  it("falls back to 'An error occurred' without code translation or message", () => {
    expect(errorText(new ApiError(500, { messageErrorCode: "unheard_of" }), t)).toBe("An error occurred");
    expect(errorText(new Error("TypeError: x is undefined"), t)).toBe("An error occurred");
    expect(errorText(undefined, t)).toBe("An error occurred");
  });

  it("translates coded errors that are not API errors (popup_closed)", () => {
    expect(errorText(Object.assign(new Error("Popup was closed"), { code: "popup_closed" }), t)).toBe(
      english.popup_closed,
    );
  });

  it("has the spec's texts for its named errors", () => {
    expect(english.an_error_occurred).toBe("An error occurred");
    expect(english.expired_session_error).toBe("Expired Session");
    expect(english.device_limit_exceeded).toBe("Device Limit Exceeded");
    expect(english.login_failed).toBe("Login Failed");
    expect(english.popup_closed).toBe("Popup was closed");
    expect(english.user_data_not_found).toBe("User data not found!");
  });
});
