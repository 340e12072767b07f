import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import i18n from "i18next";
import { toast } from "sonner";
import { AppToaster } from "@/ui/Toaster";
import { renderWithApp, setUpI18n } from "./renderWithApp";

beforeAll(setUpI18n);
afterEach(() => {
  act(() => toast.dismiss());
  vi.useRealTimers();
});

/** The list sonner renders the toasts of one corner into. */
function toastList(): HTMLElement {
  const list = screen
    .getByRole("region", { name: /Notifications/ })
    .querySelector<HTMLElement>("[data-sonner-toaster]");
  if (!list) throw new Error("no toast list rendered");
  return list;
}

describe("AppToaster", () => {
  it("stacks toasts in the bottom-right corner, under the translated Notifications label", async () => {
    renderWithApp(<AppToaster />);
    act(() => void toast("Saved"));
    await screen.findByText("Saved");
    expect(toastList().dataset.yPosition).toBe("bottom");
    expect(toastList().dataset.xPosition).toBe("right");
  });

  it("moves to the bottom-left corner in right-to-left locales", async () => {
    i18n.addResourceBundle("he", "common", { toasts: { label: "התראות", close: "סגירת ההתראה" } }, true, true);
    await act(() => i18n.changeLanguage("he"));
    try {
      renderWithApp(<AppToaster />);
      act(() => void toast("נשמר"));
      await screen.findByText("נשמר");
      const list = screen.getByRole("region", { name: /התראות/ }).querySelector<HTMLElement>("[data-sonner-toaster]")!;
      expect(list.dataset.xPosition).toBe("left");
      expect(list.getAttribute("dir")).toBe("rtl");
    } finally {
      await act(() => i18n.changeLanguage("en"));
    }
  });

  it("gives every toast a labelled close button that dismisses it", async () => {
    renderWithApp(<AppToaster />);
    act(() => void toast("Removed from your list"));
    await screen.findByText("Removed from your list");
    fireEvent.click(screen.getByRole("button", { name: "Close notification" }));
    await waitFor(() => expect(screen.queryByText("Removed from your list")).toBeNull());
  });

  it("removes a toast after 4000 ms, not before", async () => {
    vi.useFakeTimers();
    renderWithApp(<AppToaster />);
    act(() => void toast("Kick-off soon"));
    await act(async () => void (await vi.advanceTimersByTimeAsync(3900)));
    expect(screen.getByText("Kick-off soon")).toBeTruthy();
    await act(async () => void (await vi.advanceTimersByTimeAsync(600)));
    expect(screen.queryByText("Kick-off soon")).toBeNull();
  });
});
