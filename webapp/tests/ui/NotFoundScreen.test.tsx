import { beforeAll, describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { NotFoundError, pageNotFound } from "@/app/errors";
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

  it("shows the technical message in small print", () => {
    renderWithApp(<NotFoundScreen error={pageNotFound("/x/y")} />, { url: "/x/y" });
    screen.getByText("Page not found: /x/y");
  });

  it("shows the optional danger message only when there is one", () => {
    const { unmount } = renderWithApp(<NotFoundScreen error={new NotFoundError("event")} />);
    expect(screen.queryByRole("alert")).toBeNull();
    unmount();
    renderWithApp(<NotFoundScreen error={new NotFoundError("event", "Page Not Found", "This event was removed by the organiser.")} />);
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
