// @vitest-environment node
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { captureException, flush } from "@sentry/browser";
import { startErrorReporting } from "@/lib/errorReporting";

/** A local endpoint standing in for Sentry: it keeps the event items of every envelope. */
let server: Server;
let port = 0;
const events: Record<string, unknown>[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const lines = Buffer.concat(chunks).toString("utf8").split("\n");
      for (let i = 1; i + 1 < lines.length; i += 2) {
        const header = JSON.parse(lines[i]!) as { type?: string };
        if (header.type === "event") events.push(JSON.parse(lines[i + 1]!) as Record<string, unknown>);
      }
      response.writeHead(200, { "Access-Control-Allow-Origin": "*" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const settings = { environment: "test", max_breadcrumbs: 25, max_events: 10 };

describe("error reporting", () => {
  it("loads nothing and reports nothing without a DSN", async () => {
    expect(await startErrorReporting({ ...settings, dsn: null })).toBe(false);
  });

  it("sends at most 10 events per session to the DSN's endpoint", async () => {
    const dsn = `http://publickey@127.0.0.1:${port}/7`;
    expect(await startErrorReporting({ ...settings, dsn })).toBe(true);
    for (let n = 0; n < 12; n += 1) captureException(new Error(`failure ${n}`));
    await flush(5000);
    await vi.waitFor(() => expect(events).toHaveLength(10), { timeout: 5000 });
    expect(events[0]).toMatchObject({ environment: "test" });
    const values = (events[0]!.exception as { values: { value: string }[] }).values;
    expect(values[0]!.value).toBe("failure 0");
  });
});
