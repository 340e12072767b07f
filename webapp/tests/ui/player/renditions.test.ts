// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { RenditionList } from "@/ui/player/renditions";

const LADDER = [
  { id: "level-0", width: 416, height: 234, bitrate: 116_560 },
  { id: "level-1", width: 640, height: 360, bitrate: 154_160 },
  { id: "level-2", width: 1280, height: 720, bitrate: 272_976 },
];

describe("the renditions media-chrome's quality menu reads", () => {
  it("lists the stream's renditions by index, automatic selection first", () => {
    const list = new RenditionList();
    const added = vi.fn();
    list.addEventListener("addrendition", added);
    list.replace(LADDER);
    expect(list.length).toBe(3);
    expect([...list].map((rendition) => rendition.height)).toEqual([234, 360, 720]);
    expect(list[2].id).toBe("level-2");
    expect(list.selectedIndex).toBe(-1);
    expect(added).toHaveBeenCalledOnce();
  });

  it("passes a viewer's choice to the engine and announces it", () => {
    const list = new RenditionList();
    list.replace(LADDER);
    const engine = vi.fn();
    const changed = vi.fn();
    list.onSelect = engine;
    list.addEventListener("change", changed);
    list.selectedIndex = 2;
    expect(engine).toHaveBeenCalledWith(2);
    expect(list.selectedIndex).toBe(2);
    list.selectedIndex = 7; // no such rendition: automatic
    expect(engine).toHaveBeenLastCalledWith(-1);
    expect(list.selectedIndex).toBe(-1);
    expect(changed).toHaveBeenCalledTimes(2);
  });

  it("starts a new stream with its own renditions, back to automatic", () => {
    const list = new RenditionList();
    list.replace(LADDER);
    list.selectedIndex = 1;
    const removed = vi.fn();
    list.addEventListener("removerendition", removed);
    list.replace(LADDER.slice(0, 2));
    expect(list.length).toBe(2);
    expect(list[2]).toBeUndefined();
    expect(list.selectedIndex).toBe(-1);
    expect(removed).toHaveBeenCalledOnce();
  });
});
