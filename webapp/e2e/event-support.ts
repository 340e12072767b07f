import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import {
  expect,
  type APIRequestContext,
  type APIResponse,
  type Page,
  type Request,
  type Response,
} from "@playwright/test";
import { confirmationLink } from "./mailbox";
import { STAFF } from "./seeded-server.mjs";

/** The seeded accounts (fixtures/users.yaml). */
export { STAFF };
const PASSWORD = "a-long-enough-password-2026";
const DEVICE = "event-page-e2e";

type Json = Record<string, unknown>;

async function content<T>(response: Promise<APIResponse>): Promise<T> {
  const answer = await response;
  const body = (await answer.json()) as { content: T; message?: string };
  expect(answer.ok(), `${answer.url()} answered ${answer.status()}: ${body.message ?? ""}`).toBe(true);
  return body.content;
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export async function signInByApi(request: APIRequestContext, email: string, password: string): Promise<string> {
  const login = await content<{ tokenData: { access_token: string } }>(
    request.post("/api/user/login", {
      data: { username: email, password, device_id: DEVICE, device_name: DEVICE, strategy: "refresh" },
    }),
  );
  return login.tokenData.access_token;
}

export const staffToken = (request: APIRequestContext) => signInByApi(request, STAFF.email, STAFF.password);

/** A new viewer account of its own, so one test's tags, clips and purchases meet no other's:
 * signed up, then its mailed confirmation link opened (which signs it in). */
export async function newViewer(request: APIRequestContext, name: string) {
  const email = `${name}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const device = { device_id: DEVICE, device_name: DEVICE, strategy: "refresh" };
  await content(
    request.post("/api/user/register", { data: { email, password: PASSWORD, displayName: name, ...device } }),
  );
  const token = new URLSearchParams((await confirmationLink(email)).split("?")[1]).get("token");
  const confirmed = await content<{ tokenData: { access_token: string } }>(
    request.post("/api/user/verify_email", { data: { token, ...device } }),
  );
  return { email, password: PASSWORD, token: confirmed.tokenData.access_token };
}

/** Signs in through the login page and lands on `then`. */
export async function signInOnPage(page: Page, viewer: { email: string; password: string }, then: string) {
  await page.goto(`/auth/login/?redirect=${encodeURIComponent(then)}`);
  await page.getByLabel(/e-?mail/i).fill(viewer.email);
  await page.getByLabel(/password/i).fill(viewer.password);
  await page.getByRole("button", { name: /sign in|log in/i }).click();
  await expect(page).toHaveURL((url) => url.pathname === then.split("?")[0]);
}

export interface ApiEvent {
  _id: string;
  title: string;
  status: string;
  commerce_type: string;
  availableForUser: boolean;
  duration: number | null;
  content: { HLSStream: string | null };
}

/** Events of the seeded catalogue that match `filters`, as an anonymous visitor sees them. */
export async function listEvents(request: APIRequestContext, filters: Json, size = 100): Promise<ApiEvent[]> {
  const page = await content<{ entries: ApiEvent[] }>(
    request.post("/api/event/list", { data: { page: 0, size, sort: "event_date", order: "desc", filters } }),
  );
  return page.entries;
}

/** An event of the staff's own making, so a test that changes it changes nothing another test uses. */
export async function createEvent(request: APIRequestContext, token: string, fields: Json): Promise<ApiEvent> {
  return content<ApiEvent>(
    request.post("/api/admin/events", {
      headers: bearer(token),
      data: { sportType: "football", commerce_type: "commerce_free_media", ...fields },
    }),
  );
}

export async function goLive(request: APIRequestContext, token: string, eventId: string): Promise<ApiEvent> {
  return content<ApiEvent>(request.post(`/api/admin/events/${eventId}/go_live`, { headers: bearer(token) }));
}

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The staff CLI (`touchline ...`) against the test server, signed in as the seeded staff account. */
export async function touchline(baseURL: string, args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(`${root}.venv/bin/touchline`, args, {
    env: {
      ...process.env,
      TOUCHLINE_API_URL: baseURL,
      TOUCHLINE_STAFF_EMAIL: STAFF.email,
      TOUCHLINE_STAFF_PASSWORD: STAFF.password,
    },
    // A Python process that starts, signs in and calls the API: about 3 s of CPU, which took more
    // than 30 s while the unit suites and three browsers shared two cores.
    timeout: 90_000,
  });
  return stdout;
}

/** `touchline events set-stream ID URL`. */
export const setStreamWithCli = (baseURL: string, eventId: string, url: string) =>
  touchline(baseURL, ["events", "--api-url", baseURL, "set-stream", eventId, url]);

/** The asset a stored live address names (`/media/live/<asset>.m3u8`): each event plays its own. */
export function liveAsset(text: string | null | undefined): string {
  const asset = /\/media\/live\/([0-9a-f]{24})(?:\.m3u8|\/)/.exec(text ?? "")?.[1];
  expect(asset, `a live asset in ${text}`).toBeTruthy();
  return asset!;
}

/** The sandbox's card flow (README "Payments and commerce"): tokenize, then buy with an Idempotency-Key. */
export async function buyPayPerView(
  request: APIRequestContext,
  token: string,
  eventId: string,
  productId: string,
  cardNumber: string,
) {
  const card = await content<{ token: string }>(
    request.post("/api/commerce/card/tokenize", {
      headers: bearer(token),
      data: { number: cardNumber, exp_month: 12, exp_year: new Date().getFullYear() + 3, cvc: "123", holder: "E2E" },
    }),
  );
  const answer = await request.post("/api/commerce/ppv/purchase", {
    headers: { ...bearer(token), "Idempotency-Key": `e2e-${eventId}-${Date.now()}` },
    data: { event_id: eventId, product_id: productId, card: { token: card.token } },
  });
  expect([200, 202], await answer.text()).toContain(answer.status());
  return {
    status: answer.status(),
    purchase: ((await answer.json()) as { content: { _id: string; status: string } }).content,
  };
}

export async function commerceOptions(request: APIRequestContext, eventId: string, token?: string) {
  return content<{ availableForUser: boolean; products: { _id: string; type: string; event_id: string | null }[] }>(
    request.get(`/api/event/get_commerce_options?eventId=${eventId}`, { headers: token ? bearer(token) : {} }),
  );
}

/** Everything the page asks for and gets, to look for stream addresses in. */
export function recordTraffic(page: Page) {
  const requests: string[] = [];
  const bodies: { url: string; body: string }[] = [];
  const pending: Promise<void>[] = [];
  page.on("request", (request: Request) => requests.push(request.url()));
  page.on("response", (response: Response) => {
    const type = response.headers()["content-type"] ?? "";
    if (!type.includes("json") && !type.includes("mpegurl") && !type.includes("text")) return;
    pending.push(
      response.text().then(
        (body) => void bodies.push({ url: response.url(), body }),
        () => undefined,
      ),
    );
  });
  return {
    requests,
    /** Waits for the bodies read so far. */
    async bodies() {
      await Promise.all(pending);
      return bodies;
    },
  };
}

/** The signed stream addresses in a text (`/media/<path>?token=<expires>.<mac>`). */
export function signedStreams(text: string): string[] {
  return [...text.matchAll(/\/media\/(?:vod|live)\/[^"\s?]+\?token=\d+\.[A-Za-z0-9_-]+/g)].map((match) => match[0]);
}

/** A marker on `window` that only a full page load clears. */
export async function markPage(page: Page) {
  await page.evaluate(() => ((window as unknown as { __e2eMark: number }).__e2eMark = 42));
}

export async function pageWasNotReloaded(page: Page) {
  expect(await page.evaluate(() => (window as unknown as { __e2eMark?: number }).__e2eMark)).toBe(42);
}

/** The address of the playlist the player asked for last whose path contains `part`. */
export function playlistRequests(requests: readonly string[], part: string): string[] {
  return requests.filter((url) => url.includes(".m3u8") && url.includes(part));
}

/**
 * Resolves once the page has joined the event room: the socket's acknowledgement names the room.
 * Register before opening the page.
 */
export function roomJoined(page: Page, eventId: string): Promise<void> {
  return new Promise((resolve) => {
    page.on("websocket", (socket) => {
      socket.on("framereceived", ({ payload }) => {
        if (String(payload).includes(`event:${eventId}`)) resolve();
      });
    });
  });
}

/** Resolves with the first socket message named `name` the page receives. Register before opening the page. */
export function socketMessage(page: Page, name: string): Promise<string> {
  return new Promise((resolve) => {
    page.on("websocket", (socket) => {
      socket.on("framereceived", ({ payload }) => {
        if (String(payload).includes(`"${name}"`)) resolve(String(payload));
      });
    });
  });
}

/** Seconds the page's video has played (the first video element, wherever the player puts it). */
export async function videoTime(page: Page): Promise<number> {
  const video = page.locator("video").first();
  if ((await video.count()) === 0) return 0;
  return video.evaluate((element: HTMLVideoElement) => element.currentTime);
}
