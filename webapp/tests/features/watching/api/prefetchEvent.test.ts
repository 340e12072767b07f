// @vitest-environment node
import { QueryClient } from "@tanstack/react-query";
import { prefetchEventAnswer } from "@/features/watching/api/prefetchEvent";
import { eventQueryOptions } from "@/features/watching/api/getEvent";
import { eventMapOptionsOf } from "@/session/catalog/viewer";
import { appConfigFixture } from "../../../support/appConfig";

const config = appConfigFixture();

function spyOnPrefetch() {
  const queryClient = new QueryClient();
  const prefetch = vi.spyOn(queryClient, "prefetchQuery").mockResolvedValue(undefined);
  return { queryClient, prefetch };
}

describe("prefetching the event page's event from the route", () => {
  it("asks with the very query key the page reads, so the page renders from it", () => {
    const { queryClient, prefetch } = spyOnPrefetch();
    prefetchEventAnswer(queryClient, config, "viewer", "e1", new URL("https://t.test/events/e1?t=90"));
    const expected = eventQueryOptions({ id: "e1", mediaType: undefined }, "viewer", eventMapOptionsOf(config));
    expect(prefetch).toHaveBeenCalledTimes(1);
    expect(prefetch.mock.calls[0]?.[0]?.queryKey).toEqual(expected.queryKey);
  });

  it("reads highlights and clips by their media type, as the page does", () => {
    const { queryClient, prefetch } = spyOnPrefetch();
    prefetchEventAnswer(queryClient, config, "guest", "h1", new URL("https://t.test/events/h1?media_type=highlight"));
    const expected = eventQueryOptions({ id: "h1", mediaType: "highlight" }, "guest", eventMapOptionsOf(config));
    expect(prefetch.mock.calls[0]?.[0]?.queryKey).toEqual(expected.queryKey);
  });

  it("ignores an unknown media type and a missing id", () => {
    const { queryClient, prefetch } = spyOnPrefetch();
    prefetchEventAnswer(queryClient, config, "guest", "e2", new URL("https://t.test/events/e2?media_type=nope"));
    expect(prefetch.mock.calls[0]?.[0]?.queryKey).toEqual(
      eventQueryOptions({ id: "e2", mediaType: undefined }, "guest", eventMapOptionsOf(config)).queryKey,
    );
    prefetchEventAnswer(queryClient, config, "guest", undefined, new URL("https://t.test/events/"));
    expect(prefetch).toHaveBeenCalledTimes(1);
  });
});

describe("what prefetching the event page's event answers", () => {
  it("settles when the event's answer is in, and at once without an id", async () => {
    const queryClient = new QueryClient();
    let answer: () => void = () => undefined;
    vi.spyOn(queryClient, "prefetchQuery").mockImplementation(() => new Promise<void>((resolve) => (answer = resolve)));
    let settled = false;
    const done = prefetchEventAnswer(queryClient, config, "guest", "e1", new URL("https://t.test/events/e1")).then(
      () => (settled = true),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(settled).toBe(false);
    answer();
    await done;
    expect(settled).toBe(true);
    await expect(
      prefetchEventAnswer(queryClient, config, "guest", undefined, new URL("https://t.test/events/")),
    ).resolves.toBeUndefined();
  });
});
