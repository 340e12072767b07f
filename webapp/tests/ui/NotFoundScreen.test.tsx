import { beforeAll, describe, expect, it } from "vitest";
import { act, screen } from "@testing-library/react";
import i18n from "i18next";
import { NotFoundError, pageNotFound } from "@/lib/errors";
import { NotFoundScreen } from "@/ui/NotFoundScreen";
import { ERROR_TEXTS, renderWithApp, setUpI18n } from "./renderWithApp";

beforeAll(setUpI18n);

describe("NotFoundScreen", () => {
  it("titles and explains a missing page with the page texts by default", () => {
    renderWithApp(<NotFoundScreen error={pageNotFound("/x/y")} />, { url: "/x/y" });
    screen.getByRole("heading", { level: 1, name: ERROR_TEXTS.page_not_found });
    screen.getByText(ERROR_TEXTS.could_not_find_page);
  });

  it("uses errors.{context}_not_found and errors.could_not_find_{context} for the error's context", () => {
    renderWithApp(<NotFoundScreen error={new NotFoundError("event")} />, { url: "/events/42" });
    screen.getByRole("heading", { level: 1, name: ERROR_TEXTS.event_not_found });
    screen.getByText(ERROR_TEXTS.could_not_find_event);
  });

  it("shows the requested path of an unmatched route in small print, through a translated text", async () => {
    renderWithApp(<NotFoundScreen error={pageNotFound("/x/y")} />, { url: "/x/y" });
    screen.getByText("Page not found: /x/y");
    i18n.addResourceBundle("de", "common", { page_not_found_path: "Seite nicht gefunden: {{path}}" }, true, true);
    await act(() => i18n.changeLanguage("de"));
    screen.getByText("Seite nicht gefunden: /x/y");
    await act(() => i18n.changeLanguage("en"));
  });

  it("shows no untranslated technical message for a missing entity", () => {
    renderWithApp(<NotFoundScreen error={new NotFoundError("info", "Info page not found: nope")} />, { url: "/nope" });
    expect(screen.queryByText(/Info page not found/)).toBeNull();
    expect(screen.queryByText(/Page Not Found/)).toBeNull();
  });

  it("shows the optional danger message only when there is one", () => {
    const { unmount } = renderWithApp(<NotFoundScreen error={new NotFoundError("event")} />);
    expect(screen.queryByRole("alert")).toBeNull();
    unmount();
    renderWithApp(
      <NotFoundScreen
        error={new NotFoundError("event", "Page Not Found", "This event was removed by the organiser.")}
      />,
    );
    expect(screen.getByRole("alert").textContent).toBe("This event was removed by the organiser.");
  });

  it("links back to the homepage of the current locale", () => {
    const { unmount } = renderWithApp(<NotFoundScreen error={pageNotFound("/nowhere")} />, { url: "/nowhere" });
    expect(screen.getByRole("link", { name: "Go to the homepage" }).getAttribute("href")).toBe("/");
    unmount();
    renderWithApp(<NotFoundScreen error={pageNotFound("/de/nowhere")} />, { url: "/de/nowhere" });
    expect(screen.getByRole("link", { name: "Go to the homepage" }).getAttribute("href")).toBe("/de/");
  });

  it("names the browser tab after the missing thing and the tenant", () => {
    renderWithApp(<NotFoundScreen error={new NotFoundError("event")} />);
    expect(document.title).toBe(`${ERROR_TEXTS.event_not_found} · Touchline`);
  });
});
