// @vitest-environment node
import { describe, expect, it, vi } from "vitest";
import { QueryClient } from "@tanstack/react-query";
import { HOME_HIGHLIGHTS, HOME_LEAGUES, HOME_RAILS, prefetchHomeRails } from "@/features/catalog/homeRails";
import { eventListQueryOptions } from "@/features/catalog/api/listEvents";
import { clipListQueryOptions } from "@/session/catalog/listClips";
import { identityListQueryOptions } from "@/features/catalog/api/listIdentities";
import { eventMapOptionsOf } from "@/session/catalog/viewer";
import { appConfigFixture } from "../../support/appConfig";

const config = appConfigFixture();

describe("prefetching the home page's rails", () => {
  it("asks for every rail with the keys the page reads, and settles only once all have answered", async () => {
    const queryClient = new QueryClient();
    const answers: (() => void)[] = [];
    const prefetch = vi
      .spyOn(queryClient, "prefetchQuery")
      .mockImplementation(() => new Promise<void>((resolve) => answers.push(resolve)));
    let settled = false;
    const done = prefetchHomeRails(queryClient, config, "guest").then(() => (settled = true));

    const options = eventMapOptionsOf(config);
    expect(prefetch.mock.calls.map(([asked]) => asked.queryKey)).toEqual([
      ...Object.values(HOME_RAILS).map((params) => eventListQueryOptions(params, "guest", options).queryKey),
      clipListQueryOptions(HOME_HIGHLIGHTS, "guest", options).queryKey,
      identityListQueryOptions(HOME_LEAGUES, { teamsShortName: config.options.teams_short_name }).queryKey,
    ]);
    for (const answer of answers.slice(1)) answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(settled).toBe(false);
    answers[0]?.();
    await done;
    expect(settled).toBe(true);
  });
});
