import { beforeAll, describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { LiveControl } from "@/ui/player/LiveControl";
import { setUpI18n } from "../renderWithApp";

beforeAll(setUpI18n);

describe("the LIVE control", () => {
  it("says playback is live when it is", () => {
    render(<LiveControl behind={1.2} atLive onGoLive={() => undefined} />);
    expect(screen.getByRole("button").getAttribute("aria-label")).toBe("Playing live");
    expect(screen.getByRole("button").textContent).toBe("Live");
  });

  it("says how far behind live playback is, and goes back to live when pressed", async () => {
    const goLive = vi.fn();
    render(<LiveControl behind={65.4} atLive={false} onGoLive={goLive} />);
    const button = screen.getByRole("button", { name: "1:05 behind live. Go to live" });
    expect(button.textContent).toBe("Live−1:05");
    await userEvent.click(button);
    expect(goLive).toHaveBeenCalledOnce();
  });

  it("is reachable from the keyboard", async () => {
    const goLive = vi.fn();
    render(<LiveControl behind={30} atLive={false} onGoLive={goLive} />);
    await userEvent.tab();
    expect(document.activeElement).toBe(screen.getByRole("button"));
    await userEvent.keyboard("{Enter}");
    expect(goLive).toHaveBeenCalledOnce();
  });
});
