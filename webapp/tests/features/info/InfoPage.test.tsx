import { beforeAll, describe, expect, it } from "vitest";
import { fireEvent, screen, within } from "@testing-library/react";
import AboutPage from "@/features/info/pages/AboutPage";
import FaqPage from "@/features/info/pages/FaqPage";
import InfoPage from "@/features/info/pages/InfoPage";
import OpenAppPage from "@/features/info/pages/OpenAppPage";
import { FAQ_GROUPS, INFO_DOCUMENTS, isInfoType } from "@/features/info/documents";
import { ERROR_TEXTS, renderWithApp, setUpI18n, testConfig } from "../../ui/renderWithApp";

beforeAll(setUpI18n);

function renderInfo(type: string) {
  return renderWithApp(<InfoPage />, { url: `/info/${type}`, path: "/info/:type" });
}

describe("/info/:type", () => {
  it("shows the not-found screen with context info for an unknown type", () => {
    renderInfo("recipes");
    expect(screen.getByRole("heading", { level: 1, name: ERROR_TEXTS.info_not_found })).toBeTruthy();
    expect(screen.getByText(ERROR_TEXTS.could_not_find_info)).toBeTruthy();
    // The English technical message is for logs: the screen speaks the viewer's language only.
    expect(screen.queryByText(/Info page not found/)).toBeNull();
  });

  it("shows any known document by type, with the tenant's name in the text", () => {
    renderInfo("cookies");
    expect(screen.getByRole("heading", { level: 1, name: "Cookie policy" })).toBeTruthy();
    expect(screen.getByRole("heading", { level: 2, name: "Managing cookies" })).toBeTruthy();
    expect(screen.getByText(/^Touchline uses cookies/)).toBeTruthy();
  });

  it("shows the FAQ for the faq type", () => {
    renderInfo("faq");
    expect(screen.getByRole("heading", { level: 1, name: "Frequently asked questions" })).toBeTruthy();
  });

  it("knows the types it can show", () => {
    expect(["about", "faq", "terms", "privacy", "cookies", "contact"].every(isInfoType)).toBe(true);
    expect(isInfoType("toString")).toBe(false);
    expect(isInfoType(undefined)).toBe(false);
  });
});

describe("information documents", () => {
  it("render every section of the about page under its heading", () => {
    renderWithApp(<AboutPage />, { url: "/about", path: "/about" });
    expect(screen.getByRole("heading", { level: 1, name: "About Touchline" })).toBeTruthy();
    expect(screen.getAllByRole("heading", { level: 2 })).toHaveLength(INFO_DOCUMENTS.about.sections.length);
  });

  it("list the sections of long documents on top, linking to each", () => {
    renderInfo("terms");
    const contents = screen.getByRole("navigation", { name: "On this page" });
    const links = within(contents).getAllByRole("link");
    expect(links).toHaveLength(INFO_DOCUMENTS.terms.sections.length);
    const target = document.getElementById(links[2].getAttribute("href")!.slice(1));
    expect(target?.textContent).toBe(links[2].textContent);
  });
});

describe("the FAQ accordion", () => {
  it("has every question closed at first and opens the answer of the one pressed", () => {
    renderWithApp(<FaqPage />, { url: "/faq", path: "/faq" });
    const questions = screen.getAllByRole("button");
    const total = Object.values(FAQ_GROUPS).reduce((sum, group) => sum + group.length, 0);
    expect(questions).toHaveLength(total);
    expect(questions.every((button) => button.getAttribute("aria-expanded") === "false")).toBe(true);

    const question = screen.getByRole("button", { name: "How do I redeem an access code?" });
    const answer = document.getElementById(question.getAttribute("aria-controls")!)!;
    expect(answer.hidden).toBe(true);
    fireEvent.click(question);
    expect(question.getAttribute("aria-expanded")).toBe("true");
    expect(answer.hidden).toBe(false);
    expect(screen.getByRole("region", { name: "How do I redeem an access code?" }).textContent).toContain(
      "Type the code exactly",
    );
  });

  it("groups the questions under watching, accounts, devices, payments and access codes", () => {
    renderWithApp(<FaqPage />, { url: "/faq", path: "/faq" });
    const groups = screen.getAllByRole("heading", { level: 2 }).map((heading) => heading.textContent);
    expect(groups).toEqual(["Watching", "Accounts", "Devices", "Payments", "Access codes"]);
  });
});

describe("/open-app", () => {
  it("links to both stores from the configuration", () => {
    renderWithApp(<OpenAppPage />, { url: "/open-app", path: "/open-app" });
    const banner = testConfig().smart_banner;
    expect(screen.getByRole("link", { name: "Get it on Google Play" }).getAttribute("href")).toBe(banner.android_url);
    expect(screen.getByRole("link", { name: "Download on the App Store" }).getAttribute("href")).toBe(banner.ios_url);
  });

  it("says the app is not available when the tenant has no store links", () => {
    const config = testConfig({
      smart_banner: { enabled: false, android_url: null, ios_url: null, closed_cookie_minutes: 60 },
    });
    renderWithApp(<OpenAppPage />, { url: "/open-app", path: "/open-app", config });
    expect(screen.queryByRole("link", { name: /Google Play|App Store/ })).toBeNull();
    expect(screen.getByText(/not available for download yet/)).toBeTruthy();
  });
});
