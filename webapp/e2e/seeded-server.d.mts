// The types of seeded-server.mjs, for the tests.

export const STAFF: { email: string; password: string };

export interface ExtraServer {
    base: string;
    stop(): Promise<void>;
}

export function startSeededServer(port: number, env: Record<string, string>): Promise<ExtraServer>;

export function freeTcpPorts(count: number): Promise<number[]>;

export function freeUdpRange(count: number): Promise<string>;

export function ingestServerSettings(srtPorts: number): Promise<{ port: number; env: Record<string, string> }>;

export interface Publisher {
    /** Resolves when the command has ended, with its exit code and what it printed on stderr. */
    ended: Promise<{ code: number | null; stderr: string }>;
    /** Stops it as Ctrl-C in its terminal would (ffmpeg closes the stream), then waits for its end. */
    stop(): Promise<void>;
}

export function publishTestPattern(baseURL: string, eventId: string, options: string[]): Publisher;
