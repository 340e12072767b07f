import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freeTcpPorts } from "./seeded-server.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** A running `touchline cluster` with its media edge (nginx), as an operator starts it. */
export interface EdgeCluster {
  /** HAProxy's address: pages, the API, and the streams' paths, which it sends to the edge. */
  base: string;
  /** The edge's own address (nginx), and its access log: what reached the server processes. */
  edge: string;
  /** The lines of the edge's access log so far (one per request it answered). */
  edgeLog(): string[];
  stop(): Promise<void>;
}

/**
 * `touchline cluster --workers 1` with its edge, seeded, on a PostgreSQL database and a
 * redis-server of its own (both gone after `stop`), the built webapp and `env` on top. Needs what
 * `make test` installs: PostgreSQL's client, HAProxy, nginx and redis-server.
 */
export async function startEdgeCluster(env: Record<string, string>): Promise<EdgeCluster> {
  const [port, processPort, edgePort, redisPort] = await freeTcpPorts(4);
  const data = mkdtempSync(join(tmpdir(), "touchline-e2e-edge-"));
  const database = `touchline_e2e_edge_${port}`;
  const redis = spawn("redis-server", ["--port", String(redisPort), "--bind", "127.0.0.1", "--save", ""], {
    stdio: "ignore",
  });
  const cluster = spawn(
    `${root}.venv/bin/touchline`,
    [
      "cluster",
      ...["--workers", "1", "--port", String(port), "--first-process-port", String(processPort)],
      ...["--edge-port", String(edgePort)],
      ...["--database-url", `postgresql+psycopg://postgres@127.0.0.1:5432/${database}`],
      ...["--redis-url", `redis://127.0.0.1:${redisPort}/0`],
    ],
    {
      env: {
        ...process.env,
        ...env,
        TOUCHLINE_VAR_DIR: data,
        TOUCHLINE_WEBAPP_DIST: process.env.E2E_DIST ?? join(root, "webapp/dist"),
        TOUCHLINE_INGEST_ENABLED: "false",
        // The main e2e servers' ifa provider: the cluster does not start a second on its port.
        TOUCHLINE_IFA_ISSUER: "http://127.0.0.1:9400",
        TOUCHLINE_LOGIN_ATTEMPTS_PER_ADDRESS: "1000",
      },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  let output = "";
  cluster.stdout?.on("data", (chunk) => (output += chunk.toString()));
  cluster.stderr?.on("data", (chunk) => (output += chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await stopGroup(cluster, 30_000);
    await stopGroup(redis, 5_000, false);
    spawnSync("psql", ["-h", "127.0.0.1", "-U", "postgres", "-c", `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`], {
      stdio: "ignore",
    });
    rmSync(data, { recursive: true, force: true });
  };
  const until = Date.now() + 150_000;
  while (!output.includes("edge      http://")) {
    if (Date.now() > until || cluster.exitCode !== null) {
      await stop();
      throw new Error(`the cluster with its edge did not start:\n${output.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  // server.media.delivery.edge_nginx writes its access log in the cluster's run directory.
  const accessLog = join(data, "cluster", String(port), "edge", "access.log");
  return {
    base,
    edge: `http://127.0.0.1:${edgePort}`,
    edgeLog: () => {
      try {
        return readFileSync(accessLog, "utf8").split("\n").filter(Boolean);
      } catch {
        return [];
      }
    },
    stop,
  };
}

async function stopGroup(child: ChildProcess, timeout: number, group = true): Promise<void> {
  if (!child.pid || child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((resolve) => child.once("exit", resolve));
  const signal = (name: NodeJS.Signals) => {
    try {
      if (group) process.kill(-child.pid!, name);
      else child.kill(name);
    } catch {
      // already gone
    }
  };
  signal("SIGTERM");
  const killed = setTimeout(() => signal("SIGKILL"), timeout);
  await ended;
  clearTimeout(killed);
}
