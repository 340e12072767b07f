// @vitest-environment node
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

// The contracts are the source of truth (ARCHITECTURE): the committed generated code must be
// exactly what the generators write from them today.
const webapp = resolve(__dirname, "../..");
const scratch = mkdtempSync(join(tmpdir(), "touchline-generated-"));
const HINT = "the generated code is out of date; run: cd webapp && npm run generate";

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function generated(command: string, args: string[], output: string): string {
  execFileSync(
    process.execPath,
    [command, ...args, ...(command.endsWith(".mjs") ? ["--output", output] : ["-o", output])],
    {
      cwd: webapp,
      stdio: "pipe",
    },
  );
  return readFileSync(output, "utf8");
}

function committed(path: string): string {
  return readFileSync(resolve(webapp, path), "utf8");
}

// Each generator runs as a process of its own, about 2 s of CPU; while the end-to-end tests shared
// the machine one took 38 s, past the suite's 20 s. What is checked here is the output, not the time.
describe("generated code", { timeout: 120_000 }, () => {
  it("src/api/schema.gen.ts is what openapi-typescript writes from openapi/openapi.yaml", () => {
    const cli = resolve(webapp, "node_modules/openapi-typescript/bin/cli.js");
    const fresh = generated(cli, ["../openapi/openapi.yaml"], join(scratch, "schema.gen.ts"));
    expect(committed("src/api/schema.gen.ts") === fresh, HINT).toBe(true);
  });

  it("src/realtime/events.gen.ts is what scripts/realtime-types.mjs writes from asyncapi/asyncapi.yaml", () => {
    const fresh = generated(resolve(webapp, "scripts/realtime-types.mjs"), [], join(scratch, "events.gen.ts"));
    expect(committed("src/realtime/events.gen.ts") === fresh, HINT).toBe(true);
  });
});
