import { vi } from "vitest";

/** A JSON answer as the API gives it. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
}

type Handler = (request: Request) => Response | Promise<Response>;

const keyOf = (request: Request) => `${request.method} ${new URL(request.url).pathname}`;

/**
 * As fetch does: a request aborted before its answer (a query cancelled when its page unmounts)
 * rejects with the signal's reason. An answer that arrived anyway would otherwise still reach the
 * code that asked, into whichever test runs next.
 */
function abortable(signal: AbortSignal, answer: Response | Promise<Response>): Promise<Response> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    Promise.resolve(answer).then(resolve, reject);
  });
}

/** Stubs fetch with answers by "METHOD /api/path"; anything else is a 404 the test will notice. */
export function stubApi(handlers: Record<string, Handler>) {
  const calls: Request[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(input, init);
      calls.push(request.clone());
      const key = keyOf(request);
      const handler = handlers[key];
      if (!handler) return json({ error: true, message: `unexpected ${key}`, messageErrorCode: "not_found" }, 404);
      return abortable(request.signal, handler(request));
    }),
  );
  return { calls, callsTo: (key: string) => calls.filter((request) => keyOf(request) === key) };
}

/** Stubs fetch with `answer(url, body)` for every request; returns the calls, each with its URL and JSON body. */
export function stubFetch(answer: (url: URL, body: unknown) => Response) {
  const calls: { url: URL; body: unknown }[] = [];
  vi.stubGlobal("fetch", async (request: Request) => {
    // A request its page cancelled while the session's token was still being read (an earlier
    // test's) is refused, as fetch refuses it, instead of reaching this test's answers.
    if (request.signal.aborted) throw request.signal.reason;
    const url = new URL(request.url);
    const body = request.method === "POST" ? await request.clone().json() : undefined;
    calls.push({ url, body });
    return abortable(request.signal, answer(url, body));
  });
  return calls;
}
