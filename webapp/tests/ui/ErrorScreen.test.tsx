import { beforeAll, describe, expect, it, vi } from "vitest";
import { fireEvent, screen } from "@testing-library/react";
import { ApiError } from "@/api/apiError";
import { ErrorScreen } from "@/ui/ErrorScreen";
import { ERROR_TEXTS, renderWithApp, setUpI18n } from "./renderWithApp";

beforeAll(setUpI18n);

describe("ErrorScreen", () => {
  it("shows the server's message for a failed call without a translated code", () => {
    renderWithApp(
      <ErrorScreen
        error={
          new ApiError(503, {
            error: true,
            message: "Stream origin timed out",
            messageErrorCode: "stream_origin_timeout",
          })
        }
      />,
    );
    expect(screen.getByRole("heading", { level: 1, name: "This page could not be loaded" })).toBeTruthy();
    expect(screen.getByText("Stream origin timed out")).toBeTruthy();
  });

  it("falls back to 'An error occurred' for anything else", () => {
    renderWithApp(<ErrorScreen error={new Error("undefined is not a function")} />);
    expect(screen.getByText(ERROR_TEXTS.an_error_occurred)).toBeTruthy();
    expect(screen.queryByText("undefined is not a function")).toBeNull();
  });

  it("reloads the page to try again", () => {
    const reload = vi.fn();
    vi.spyOn(window, "location", "get").mockReturnValue({ ...window.location, reload });
    renderWithApp(<ErrorScreen error={new Error("boom")} />);
    fireEvent.click(screen.getByRole("button", { name: "Try again" }));
    expect(reload).toHaveBeenCalledOnce();
    vi.restoreAllMocks();
  });
});
