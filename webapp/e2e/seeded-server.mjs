// Processes of one's own for the e2e tests and the benchmark (scripts/bench.mjs): a freshly seeded
// server (e2e/serve.sh), one with the live ingest on ports found free, and `touchline ingest
// test-pattern` publishing to it. Plain JavaScript, so that Node runs it as it is for the
// benchmark; seeded-server.d.mts gives the tests its types.
import { spawn } from "node:child_process";
import { createSocket } from "node:dgram";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

/** The seeded staff account (fixtures/users.yaml). */
export const STAFF = { email: "staff@touchline.test", password: "touchline-staff-2026" };

const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * A seeded server on `port` (e2e/serve.sh: a database of its own, the built webapp) with `env` on
 * top, once it answers its health check; stopped with its whole process group.
 * @param {number} port
 * @param {Record<string, string>} env
 */
export async function startSeededServer(port, env) {
  const script = fileURLToPath(new URL("./serve.sh", import.meta.url));
  const child = spawn("bash", [script], {
    env: { ...process.env, E2E_PORT: String(port), ...env },
    stdio: "ignore",
    detached: true,
  });
  const base = `http://127.0.0.1:${port}`;
  const until = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (Date.now() > until || child.exitCode !== null) {
      // Not left running behind the failure (with an ingest, nginx and its listeners too).
      if (child.pid && child.exitCode === null) process.kill(-child.pid, "SIGTERM");
      throw new Error(`the server on ${port} did not start`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  return {
    base,
    async stop() {
      if (child.pid && child.exitCode === null) {
        process.kill(-child.pid, "SIGTERM");
        await new Promise((resolve) => child.once("exit", resolve));
      }
    },
  };
}

/**
 * `count` different TCP ports nothing listens on now, all held until all are found. They are picked
 * below Linux's ephemeral range (32768-60999), where the system takes the local ports of outgoing
 * connections: a port found free there can be a client's before its server binds it.
 * @param {number} count
 * @returns {Promise<number[]>}
 */
export async function freeTcpPorts(count) {
  /** @type {import("node:net").Server[]} */
  const held = [];
  for (let attempt = 0; held.length < count && attempt < 500; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_768);
    const server = await new Promise((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(null));
      probe.listen(port, "127.0.0.1", () => resolve(probe));
    });
    if (server) held.push(/** @type {import("node:net").Server} */ (server));
  }
  const ports = held.map((server) => /** @type {import("node:net").AddressInfo} */ (server.address()).port);
  await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
  if (ports.length < count) throw new Error(`no ${count} free TCP ports`);
  return ports;
}

/**
 * @param {number} port
 * @returns {Promise<number | null>}
 */
function bindUdp(port) {
  return new Promise((resolve) => {
    const socket = createSocket("udp4");
    socket.once("error", () => {
      socket.close();
      resolve(null);
    });
    socket.bind(port, "127.0.0.1", () => {
      const bound = socket.address().port;
      socket.close(() => resolve(bound));
    });
  });
}

/**
 * `count` consecutive UDP ports nothing holds now (SRT listens on UDP), as TOUCHLINE_SRT_PORTS writes them.
 * @param {number} count
 */
export async function freeUdpRange(count) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const first = await bindUdp(0);
    if (first === null || first + count - 1 > 65_535) continue;
    let free = true;
    for (let port = first + 1; free && port < first + count; port += 1) free = (await bindUdp(port)) === port;
    if (free) return `${first}-${first + count - 1}`;
  }
  throw new Error(`no ${count} consecutive free UDP ports`);
}

/**
 * Where a server with the live ingest on may listen, and the settings that turn it on: its HTTP
 * port, nginx-rtmp's and the SRT listeners' found free just before, so it never meets another
 * run's ingest (the shared e2e servers run without one). `srtPorts` is how many stream keys may
 * take SRT at once.
 * @param {number} srtPorts
 */
export async function ingestServerSettings(srtPorts) {
  const [[port, rtmpPort], srtRange] = [await freeTcpPorts(2), await freeUdpRange(srtPorts)];
  return {
    port,
    env: {
      E2E_INGEST: "true",
      TOUCHLINE_INGEST_HOST: "127.0.0.1",
      TOUCHLINE_RTMP_PORT: String(rtmpPort),
      TOUCHLINE_SRT_PORTS: srtRange,
    },
  };
}

/**
 * `touchline ingest test-pattern EVENT_ID …` against `baseURL`, signed in as the seeded staff
 * account (who may make the event's stream key), running in the background as an operator's
 * terminal would.
 * @param {string} baseURL
 * @param {string} eventId
 * @param {string[]} options
 */
export function publishTestPattern(baseURL, eventId, options) {
  const child = spawn(`${root}.venv/bin/touchline`, ["ingest", "test-pattern", eventId, ...options], {
    env: {
      ...process.env,
      TOUCHLINE_API_URL: baseURL,
      TOUCHLINE_STAFF_EMAIL: STAFF.email,
      TOUCHLINE_STAFF_PASSWORD: STAFF.password,
    },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true, // a group of its own, as a terminal's job: Ctrl-C reaches it and its ffmpeg
  });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk.toString()));
  /** @type {Promise<{ code: number | null; stderr: string }>} */
  const ended = new Promise((resolve) => child.once("exit", (code) => resolve({ code, stderr })));
  /** @param {NodeJS.Signals} signal */
  const signalGroup = (signal) => {
    try {
      if (child.pid) process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
  };
  return {
    ended,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      signalGroup("SIGINT");
      const killed = setTimeout(() => signalGroup("SIGKILL"), 10_000);
      await ended;
      clearTimeout(killed);
    },
  };
}
