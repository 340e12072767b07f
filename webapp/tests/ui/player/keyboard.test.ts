import { describe, expect, it } from "vitest";
import { leaveArrowsToController, setKeyboardSeekStep } from "@/ui/player/keyboard";

/** A seek bar as media-chrome builds it: a host element with the native slider in its shadow tree. */
function seekBar() {
  const host = document.createElement("div");
  const slider = document.createElement("input");
  slider.type = "range";
  host.attachShadow({ mode: "open" }).append(slider);
  document.body.append(host);
  return { host, slider };
}

function press(target: Element, key: string, init: KeyboardEventInit = {}) {
  const event = new KeyboardEvent("keydown", { key, bubbles: true, composed: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

describe("the arrow keys on the seek bar", () => {
  it("keep the slider from stepping by itself (1 % of a replay), for every arrow", () => {
    const { host, slider } = seekBar();
    leaveArrowsToController(host);
    for (const key of ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"])
      expect(press(slider, key).defaultPrevented, key).toBe(true);
  });

  it("reach the controller, which reads from the focused element that it claims no keys", () => {
    const { host, slider } = seekBar();
    const heard: string[] = [];
    document.body.addEventListener("keydown", (event) => heard.push(event.key));
    leaveArrowsToController(host);
    press(slider, "ArrowLeft");
    expect(heard).toContain("ArrowLeft");
    expect(host.getAttribute("keysused")).toBe("");
  });

  it("leave the other keys and browser shortcuts alone", () => {
    const { host, slider } = seekBar();
    leaveArrowsToController(host);
    expect(press(slider, "Home").defaultPrevented).toBe(false);
    expect(press(slider, "ArrowLeft", { altKey: true }).defaultPrevented).toBe(false);
  });

  it("are the slider's own again once undone", () => {
    const { host, slider } = seekBar();
    const undo = leaveArrowsToController(host);
    undo();
    expect(press(slider, "ArrowLeft").defaultPrevented).toBe(false);
    expect(host.hasAttribute("keysused")).toBe(false);
  });
});

describe("the controller's keyboard step", () => {
  it("is the given number of seconds both ways", () => {
    const controller = document.createElement("div");
    setKeyboardSeekStep(controller, 10);
    expect(controller.getAttribute("keyboardbackwardseekoffset")).toBe("10");
    expect(controller.getAttribute("keyboardforwardseekoffset")).toBe("10");
  });
});
