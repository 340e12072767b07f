import { expect, test } from "@playwright/test";
import {
  expectPlaying,
  expiryOf,
  findEvent,
  signInAsFan,
  startServer,
  tokenOf,
  videoState,
  type ExtraServer,
} from "./player-support";
import { freeTcpPorts } from "./seeded-server.mjs";

// Stream tokens here live 30 s (the server's minimum): playback must outlast several of them.
const TOKEN_SECONDS = 30;

let server: ExtraServer;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  // A port found free now (E2E_TOKEN_PORT to pin one): two runs side by side never share it.
  const [port] = process.env.E2E_TOKEN_PORT ? [Number(process.env.E2E_TOKEN_PORT)] : await freeTcpPorts(1);
  server = await startServer(port, { TOUCHLINE_STREAM_TOKEN_SECONDS: String(TOKEN_SECONDS) });
});

test.afterAll(async () => {
  await server?.stop();
});

interface MediaRequest {
  at: number;
  /** The token in its query (the master, a renewal); null for a request on the cookie alone. */
  token: string | null;
  status?: number;
}

test("playback of a members' live stream goes on past its token's expiry, on renewed tokens", async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const bearer = await signInAsFan(page, server.base);
  // A members-only game: only a signed-in member gets its address, and a new one before it expires.
  const event = await findEvent(request, { status: "live", commerce: "commerce_members_media", bearer }, server.base);

  const media: MediaRequest[] = [];
  const byRequest = new Map<object, MediaRequest>();
  page.on("request", (sent) => {
    if (!/\/media\/(vod|live)\//.test(sent.url())) return;
    const entry = { at: Date.now() / 1000, token: tokenOf(sent.url()) };
    media.push(entry);
    byRequest.set(sent, entry);
  });
  page.on("response", (answer) => {
    const entry = byRequest.get(answer.request());
    if (entry) entry.status = answer.status();
  });

  await page.goto(`${server.base}/events/${event._id}`);
  await expectPlaying(page, 1);
  const first = media[0].token!; // the master's, in its query
  const expiry = expiryOf(first);
  const started = await videoState(page);

  // Play until well past the first token's expiry (and into the second's life).
  const until = expiry + 8;
  while (Date.now() / 1000 < until) {
    await expectPlaying(page, 1);
    await expect(page.locator(".player").getByRole("alert")).toHaveCount(0);
  }
  const ended = await videoState(page);
  const watched = ended.currentTime - started.currentTime;
  expect(watched).toBeGreaterThan(TOKEN_SECONDS - 8);

  // Renewed before it expired (a new token's cookie, set by asking for the master with it), and
  // every request after the first token's expiry went on the renewed one: none was refused.
  const tokens = media.map((entry) => entry.token).filter((token): token is string => token !== null);
  expect(new Set(tokens).size).toBeGreaterThan(1);
  expect(tokens.filter((token) => token !== first).every((token) => expiryOf(token) > expiry)).toBe(true);
  const afterExpiry = media.filter((entry) => entry.at > expiry);
  expect(afterExpiry.length).toBeGreaterThan(3);
  expect(afterExpiry.every((entry) => entry.token !== first)).toBe(true);
  expect(media.filter((entry) => entry.status !== undefined && entry.status >= 400)).toEqual([]);
});
