import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { StatusBadge, statusTone } from "@/features/commerce/components/StatusBadge";

function badge(status: string, text: string) {
  const { container, unmount } = render(<StatusBadge status={status}>{text}</StatusBadge>);
  const element = container.firstElementChild as HTMLElement;
  const result = { className: element.className, text: element.textContent, mark: element.firstElementChild };
  unmount();
  return result;
}

describe("status badges", () => {
  it("make Paid and Failed look different, by colour and by mark, and keep the words", () => {
    const paid = badge("success", "Paid");
    const failed = badge("error", "Failed");
    expect(paid.className).toContain("commerce-status--success");
    expect(failed.className).toContain("commerce-status--danger");
    expect(paid.text).toBe("✓Paid");
    expect(failed.text).toBe("✕Failed");
    // The mark is for the eye: screen readers read the word alone.
    expect(paid.mark?.getAttribute("aria-hidden")).toBe("true");
  });

  it("give every purchase and contract state a tone", () => {
    expect(["init", "in progress", "processing"].map(statusTone)).toEqual(["pending", "pending", "pending"]);
    expect(["active", "past_due", "failed", "expired", "canceled"].map(statusTone)).toEqual([
      "success",
      "danger",
      "danger",
      "neutral",
      "neutral",
    ]);
    expect(statusTone("something new")).toBe("neutral");
  });
});
