import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, type APIRequestContext } from "@playwright/test";
import { STAFF } from "./seeded-server.mjs";

/*
 * The media library as staff use it in the e2e tests (issue 29): a video made with ffmpeg, uploaded
 * with `touchline media upload`, its transcoding job followed through the admin API until done,
 * then attached to its event. And the seek previews' WebVTT, read as the player reads it.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * A test video at `path`: ffmpeg's testsrc2 picture (a clock that counts, so every thumbnail
 * differs) with a sine tone, H.264 and AAC in MP4.
 */
export async function makeTestVideo(
  path: string,
  { seconds, size, fps }: { seconds: number; size: string; fps: number },
): Promise<string> {
  await run(
    "ffmpeg",
    [
      ...["-hide_banner", "-loglevel", "error", "-nostdin", "-y"],
      ...["-f", "lavfi", "-i", `testsrc2=size=${size}:rate=${fps}:duration=${seconds}`],
      ...["-f", "lavfi", "-i", `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
      ...["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "96k"],
      ...["-shortest", "-movflags", "+faststart", path],
    ],
    { timeout: 120_000 },
  );
  return path;
}

export interface Uploaded {
  job: string;
  asset: string;
}

/**
 * `touchline media upload FILE --event ID --title TITLE` against `baseURL`, signed in as the
 * seeded staff account; the job and the asset it printed. `configDir` keeps the CLI's record of
 * unfinished uploads with the test's files, not the user's.
 */
export async function uploadWithCli(
  baseURL: string,
  file: string,
  eventId: string,
  title: string,
  configDir: string,
): Promise<Uploaded> {
  const { stdout } = await run(
    `${root}.venv/bin/touchline`,
    ["media", "upload", file, "--event", eventId, "--title", title, "--json"],
    {
      env: {
        ...process.env,
        TOUCHLINE_API_URL: baseURL,
        TOUCHLINE_STAFF_EMAIL: STAFF.email,
        TOUCHLINE_STAFF_PASSWORD: STAFF.password,
        TOUCHLINE_CONFIG_DIR: configDir,
      },
      timeout: 120_000,
    },
  );
  const uploaded = JSON.parse(stdout) as Partial<Uploaded>;
  expect(uploaded.job, `the upload's job (the CLI printed ${stdout})`).toMatch(/^[0-9a-f]{24}$/);
  expect(uploaded.asset, `the upload's asset (the CLI printed ${stdout})`).toMatch(/^[0-9a-f]{24}$/);
  return uploaded as Uploaded;
}

interface MediaJob {
  _id: string;
  state: "queued" | "running" | "done" | "failed" | "cancelled";
  percent: number;
  error?: string;
}

/** Waits until the transcoding job is done (GET /admin/media_jobs); fails at once if it fails. */
export async function jobDone(request: APIRequestContext, token: string, jobId: string, timeout: number) {
  await expect
    .poll(
      async () => {
        const answer = await request.get("/api/admin/media_jobs", {
          headers: { Authorization: `Bearer ${token}` },
          params: { limit: 50 },
        });
        expect(answer.ok(), await answer.text()).toBe(true);
        const { jobs } = ((await answer.json()) as { content: { jobs: MediaJob[] } }).content;
        const job = jobs.find((candidate) => candidate._id === jobId);
        expect(job, `job ${jobId} in the queue`).toBeDefined();
        expect(["failed", "cancelled"], `job ${jobId}: ${job!.error ?? ""}`).not.toContain(job!.state);
        return job!.state;
      },
      { timeout, intervals: [1_000, 2_000] },
    )
    .toBe("done");
}

/** POST /admin/media_assets/{id}/attach `{"as": "archive"}`: the asset becomes its event's archive. */
export async function attachAsArchive(request: APIRequestContext, token: string, assetId: string) {
  const answer = await request.post(`/api/admin/media_assets/${assetId}/attach`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { as: "archive" },
  });
  const body = (await answer.json()) as {
    content: { _id: string; status: string; content: { HLSStream: string | null; PosterH: string | null } };
    message?: string;
  };
  expect(answer.ok(), `attach answered ${answer.status()}: ${body.message ?? ""}`).toBe(true);
  return body.content;
}

/** A cue of a seek-preview WebVTT: from, to (seconds) and its text (`thumbs-001.jpg#xywh=…`). */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

const seconds = (stamp: string) =>
  stamp
    .split(":")
    .map(Number)
    .reduce((total, part) => total * 60 + part, 0);

export function parseCues(vtt: string): Cue[] {
  const cues: Cue[] = [];
  const lines = vtt.split(/\r?\n/);
  lines.forEach((line, i) => {
    const timing = /^([\d:.]+)\s+-->\s+([\d:.]+)/.exec(line.trim());
    if (timing) cues.push({ start: seconds(timing[1]), end: seconds(timing[2]), text: lines[i + 1].trim() });
  });
  return cues;
}

/** The cue a player shows for `time`, as media-chrome picks it (the first and last stretch to the ends). */
export function cueAt(cues: Cue[], time: number): Cue | undefined {
  return cues.find((cue, i) => {
    if (i === 0) return cue.end > time;
    if (i === cues.length - 1) return cue.start <= time;
    return cue.start <= time && cue.end > time;
  });
}
