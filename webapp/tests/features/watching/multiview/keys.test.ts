import { describe, expect, it } from "vitest";
import { isTyping, keyAction, type KeyPress } from "@/features/watching/multiview/keys";

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  typing: false,
  ...more,
});

describe("multiview's keys", () => {
  it("give tile 1 to 4 the sound with the keys 1 to 4", () => {
    expect(keyAction(press("1"), 4, false)).toEqual({ kind: "sound", tile: 0 });
    expect(keyAction(press("4"), 4, false)).toEqual({ kind: "sound", tile: 3 });
  });

  it("ignore the number of a tile that is not there, and other keys", () => {
    expect(keyAction(press("3"), 2, false)).toBeNull();
    expect(keyAction(press("5"), 4, false)).toBeNull();
    expect(keyAction(press("0"), 4, false)).toBeNull();
    expect(keyAction(press("a"), 4, false)).toBeNull();
    expect(keyAction(press("F1"), 4, false)).toBeNull();
  });

  it("leave full view with Escape, and only then", () => {
    expect(keyAction(press("Escape"), 4, true)).toEqual({ kind: "leave-full-view" });
    expect(keyAction(press("Escape"), 4, false)).toBeNull();
  });

  it("leave what is typed into a field, and shortcuts with a modifier, alone", () => {
    expect(keyAction(press("2", { typing: true }), 4, false)).toBeNull();
    expect(keyAction(press("2", { ctrlKey: true }), 4, false)).toBeNull();
    expect(keyAction(press("2", { altKey: true }), 4, false)).toBeNull();
    expect(keyAction(press("2", { metaKey: true }), 4, false)).toBeNull();
    expect(keyAction(press("Escape", { typing: true }), 4, true)).toBeNull();
  });
});

describe("typing", () => {
  it("is a key in a text field, a text area, a select or editable text", () => {
    const search = document.createElement("input");
    search.type = "search";
    expect(isTyping(search)).toBe(true);
    expect(isTyping(document.createElement("input"))).toBe(true);
    expect(isTyping(document.createElement("textarea"))).toBe(true);
    expect(isTyping(document.createElement("select"))).toBe(true);
    // jsdom does not compute isContentEditable: the element says so itself, as a browser's would.
    const editable = document.createElement("div");
    Object.defineProperty(editable, "isContentEditable", { value: true });
    expect(isTyping(editable)).toBe(true);
  });

  it("is not a key on a button, a checkbox, a link or the page", () => {
    const checkbox = document.createElement("input");
    checkbox.type = "checkbox";
    expect(isTyping(checkbox)).toBe(false);
    expect(isTyping(document.createElement("button"))).toBe(false);
    expect(isTyping(document.createElement("a"))).toBe(false);
    expect(isTyping(document.body)).toBe(false);
    expect(isTyping(null)).toBe(false);
  });
});
