/**
 * The API's answers the server put into the page for its first render (server/first_view.py):
 * the configuration, and the home page's rails or an event page's event, each named by the request
 * it answers as the API answers it without credentials. The client (./client.ts) answers such a
 * request once from the page instead of the network, so the first page's queries fill the query
 * cache under their own keys without a round trip. Without the block (the dev server, a page the
 * server has nothing for), once used, or for a request with credentials, requests go out as usual.
 */
export const FIRST_ANSWERS_ID = "first-answers";

/** One entry of the page's block: `path` is under /api, not encoded. */
export interface FirstAnswer {
  request: { method: string; path: string; query?: Record<string, string>; body?: unknown };
  answer: unknown;
}

let answers: Map<string, unknown> | undefined;

/** JSON with object members sorted by name: a request reads the same however its body was built. */
const keyOf = (method: string, path: string, query: object, body: unknown) =>
  JSON.stringify([method, path, query, body ?? null], (_name, member: unknown) =>
    member && typeof member === "object" && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : 1)))
      : member,
  );

/** The page's answer to `request` as a response, once; undefined when it has none. */
export async function firstAnswer(request: Request): Promise<Response | undefined> {
  if (!answers) {
    answers = new Map();
    try {
      const block = document.getElementById(FIRST_ANSWERS_ID)?.textContent;
      for (const { request: asked, answer } of JSON.parse(block ?? "[]") as FirstAnswer[])
        answers.set(keyOf(asked.method, asked.path, asked.query ?? {}, asked.body), answer);
    } catch {
      // Unreadable: the app asks the API itself, which only costs those round trips.
    }
  }
  // The page's answers are anonymous: never one for a request made with the viewer's token.
  if (!answers.size || request.headers.has("Authorization")) return undefined;
  try {
    const url = new URL(request.url);
    const body = request.body ? JSON.parse(await request.clone().text()) : null;
    const key = keyOf(
      request.method,
      decodeURIComponent(url.pathname.replace(/^\/api/, "")),
      Object.fromEntries(url.searchParams),
      body,
    );
    const answer = answers.get(key);
    if (answer === undefined) return undefined;
    answers.delete(key);
    return new Response(JSON.stringify(answer), { headers: { "Content-Type": "application/json" } });
  } catch {
    return undefined; // a body that is no JSON: not one of the page's requests
  }
}
