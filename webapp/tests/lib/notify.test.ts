// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { toast } from "sonner";
import { TOAST_DURATION_MS, notify, toToastOptions } from "@/lib/notify";

describe("toast options", () => {
  it("last 4000 ms and can be dismissed by default", () => {
    expect(TOAST_DURATION_MS).toBe(4000);
    expect(toToastOptions()).toEqual({ duration: 4000, dismissible: true, closeButton: true });
  });

  it("stay until closed when the duration is none", () => {
    expect(toToastOptions({ duration: "none" }).duration).toBe(Infinity);
  });

  it("carry an action button when one is given", () => {
    const onClick = vi.fn();
    expect(toToastOptions({ action: { label: "Watch now", onClick } }).action).toEqual({ label: "Watch now", onClick });
    expect(toToastOptions()).not.toHaveProperty("action");
  });

  it("map the spec's positions onto the toaster's", () => {
    expect(toToastOptions({ position: "top" }).position).toBe("top-center");
    expect(toToastOptions({ position: "bottom-left" }).position).toBe("bottom-left");
  });
});

describe("notify", () => {
  it("shows success toasts as success and danger toasts as errors", async () => {
    const success = vi.spyOn(toast, "success");
    const error = vi.spyOn(toast, "error");
    await notify.success("Saved");
    await notify.danger("Could not save", { duration: "none" });
    expect(success).toHaveBeenCalledWith("Saved", expect.objectContaining({ duration: 4000 }));
    expect(error).toHaveBeenCalledWith("Could not save", expect.objectContaining({ duration: Infinity }));
    vi.restoreAllMocks();
  });
});
