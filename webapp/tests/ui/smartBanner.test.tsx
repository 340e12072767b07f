import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import Cookies from "js-cookie";
import { SmartBanner } from "@/ui/SmartBanner";
import {
  SMART_BANNER_COOKIE,
  dismissSmartBanner,
  isSmartBannerDismissed,
  shouldShowSmartBanner,
  smartBannerClosedMinutes,
  smartBannerStoreUrl,
} from "@/ui/smartBanner";
import { renderWithApp, setUpI18n, testConfig } from "./renderWithApp";

const UA = {
  androidChrome:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
  androidTabletFirefox: "Mozilla/5.0 (Android 13; Tablet; rv:128.0) Gecko/128.0 Firefox/128.0",
  iphoneSafari:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
  iphoneChrome:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1",
  ipadFirefox:
    "Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/127.0 Mobile/15E148 Safari/605.1.15",
  iphoneEdge:
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 EdgiOS/126.0.2592.56 Mobile/15E148 Safari/605.1.15",
  macSafari:
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
  windowsChrome:
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36",
};

const banner = testConfig().smart_banner;

describe("shouldShowSmartBanner", () => {
  it("shows on Android browsers, phones and tablets alike", () => {
    expect(shouldShowSmartBanner(UA.androidChrome)).toBe(true);
    expect(shouldShowSmartBanner(UA.androidTabletFirefox)).toBe(true);
  });

  it("shows on iOS browsers other than Safari", () => {
    expect(shouldShowSmartBanner(UA.iphoneChrome)).toBe(true);
    expect(shouldShowSmartBanner(UA.ipadFirefox)).toBe(true);
    expect(shouldShowSmartBanner(UA.iphoneEdge)).toBe(true);
  });

  it("stays away from Safari on iOS, which has Apple's own app banner", () => {
    expect(shouldShowSmartBanner(UA.iphoneSafari)).toBe(false);
  });

  it("stays away from desktop browsers", () => {
    expect(shouldShowSmartBanner(UA.windowsChrome)).toBe(false);
    expect(shouldShowSmartBanner(UA.macSafari)).toBe(false);
  });
});

describe("smartBannerStoreUrl", () => {
  it("sends Android to the Android store and iOS to the App Store", () => {
    expect(smartBannerStoreUrl(UA.androidChrome, banner)).toBe(banner.android_url);
    expect(smartBannerStoreUrl(UA.iphoneChrome, banner)).toBe(banner.ios_url);
  });

  it("has no link when the banner is off, the platform has no store URL or the browser is excluded", () => {
    expect(smartBannerStoreUrl(UA.androidChrome, { ...banner, enabled: false })).toBeNull();
    expect(smartBannerStoreUrl(UA.androidChrome, { ...banner, android_url: null })).toBeNull();
    expect(smartBannerStoreUrl(UA.iphoneSafari, banner)).toBeNull();
    expect(smartBannerStoreUrl(UA.windowsChrome, banner)).toBeNull();
  });
});

describe("the closed cookie", () => {
  it("lasts the configured minutes in production and 2 minutes otherwise", () => {
    expect(smartBannerClosedMinutes({ ...banner, closed_cookie_minutes: 60 }, true)).toBe(60);
    expect(smartBannerClosedMinutes({ ...banner, closed_cookie_minutes: 60 }, false)).toBe(2);
  });

  it("expires after the given minutes", () => {
    const set = vi.spyOn(Cookies, "set");
    const now = Date.now();
    dismissSmartBanner(60);
    const expires = set.mock.calls[0][2]!.expires as number;
    expect(new Date(now + expires * 864e5).getTime() - now).toBe(60 * 60 * 1000);
    expect(isSmartBannerDismissed()).toBe(true);
    set.mockRestore();
  });
});

describe("<SmartBanner/>", () => {
  beforeAll(setUpI18n);
  afterEach(() => vi.restoreAllMocks());

  function onDevice(userAgent: string) {
    vi.spyOn(navigator, "userAgent", "get").mockReturnValue(userAgent);
  }

  it("offers the store link with a Get button on an Android phone", () => {
    onDevice(UA.androidChrome);
    renderWithApp(<SmartBanner />);
    expect(screen.getByText("Get the mobile app")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Get" }).getAttribute("href")).toBe(banner.android_url);
  });

  it("is absent on desktop browsers and on iOS Safari", () => {
    onDevice(UA.windowsChrome);
    const { unmount } = renderWithApp(<SmartBanner />);
    expect(screen.queryByRole("complementary")).toBeNull();
    unmount();
    vi.restoreAllMocks();
    onDevice(UA.iphoneSafari);
    renderWithApp(<SmartBanner />);
    expect(screen.queryByRole("complementary")).toBeNull();
  });

  it("closes on request and stays hidden while its cookie lives", () => {
    onDevice(UA.iphoneChrome);
    const { unmount } = renderWithApp(<SmartBanner />);
    fireEvent.click(screen.getByRole("button", { name: "Close the app banner" }));
    expect(screen.queryByRole("complementary")).toBeNull();
    expect(Cookies.get(SMART_BANNER_COOKIE)).toBeDefined();
    unmount();
    renderWithApp(<SmartBanner />);
    expect(screen.queryByRole("complementary")).toBeNull();
  });

  it("outside production, remembers the close for 2 minutes whatever the tenant configures", () => {
    onDevice(UA.androidChrome);
    const set = vi.spyOn(Cookies, "set");
    renderWithApp(<SmartBanner />, { config: testConfig({ smart_banner: { ...banner, closed_cookie_minutes: 600 } }) });
    fireEvent.click(screen.getByRole("button", { name: "Close the app banner" }));
    const [name, , attributes] = set.mock.calls.find(([cookie]) => cookie === SMART_BANNER_COOKIE)!;
    expect(name).toBe(SMART_BANNER_COOKIE);
    expect((attributes!.expires as number) * 24 * 60).toBeCloseTo(2, 9);
  });

  it("is absent when the tenant turned it off", () => {
    onDevice(UA.androidChrome);
    renderWithApp(<SmartBanner />, { config: testConfig({ smart_banner: { ...banner, enabled: false } }) });
    expect(screen.queryByRole("complementary")).toBeNull();
  });
});
